"""Score the person check on corpora/news_persons/gold.tsv (see its header and docs/quality.md).

    python corpora/news_persons/evaluate.py LEE_BACKGROUND LEE [--config CONFIG] [--json OUT]

LEE_BACKGROUND and LEE are lee_background.cor and lee.cor from the gensim 4.4.0 wheel
(`pip download gensim==4.4.0 --no-deps`, then unzip gensim/test/test_data/lee*.cor); the text
is not in this repository. Documents are split into a tuning and a held-out half (seed 2015):
the threshold and weights were chosen on `tune` only. Figures per half: for every NER person
candidate (a name in a document) and for the queries the default filters make, the share of
people among those kept (precision) and the share of the people spaCy proposed that are kept
(recall), spaCy alone beside spaCy with the check.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from xel.config import load_config
from xel.kb import KnowledgeBase
from xel.ner import find_mentions, load_pipeline
from xel.persons import Mentioned, check_names
from xel.queries import Mention, apply_filters, filters

HERE = Path(__file__).parent
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")


def documents(background: Path, lee: Path) -> list[tuple[str, str]]:
    docs = []
    for path, prefix in ((background, "leeb"), (lee, "lee")):
        for i, line in enumerate(path.read_text(encoding="latin-1").splitlines()):
            if line.strip():
                docs.append((f"{prefix}-{i + 1:03d}", line.strip()))
    return docs


def read_gold(path: Path) -> dict[str, bool]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    return {r[0]: r[2] == "person" for r in rows[1:]}


def halves(doc_ids: list[str], seed: int = 2015) -> dict[str, str]:
    order = sorted(doc_ids)
    random.Random(seed).shuffle(order)
    return {d: "tune" if i < len(order) // 2 else "heldout" for i, d in enumerate(order)}


def figures(units: list[tuple[str, bool, bool]]) -> dict[str, float | int]:
    """units: (id, is a person, kept by the check)."""
    people = [u for u in units if u[1]]
    kept = [u for u in units if u[2]]
    return {"candidates": len(units), "people": len(people),
            "spacy_precision": round(len(people) / len(units), 4) if units else 0.0,
            "kept": len(kept),
            "check_precision": round(sum(u[1] for u in kept) / len(kept), 4) if kept else 0.0,
            "check_recall": round(sum(u[2] for u in people) / len(people), 4) if people else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("background", type=Path)
    ap.add_argument("lee", type=Path)
    ap.add_argument("--config", default=str(HERE.parents[1] / "configs" / "default.yaml"))
    ap.add_argument("--json", type=Path)
    ap.add_argument("--half", choices=["tune", "heldout"], action="append",
                    help="the halves to score (default both); tune with `--half tune` only")
    args = ap.parse_args()
    config = load_config(args.config)
    gold = read_gold(HERE / "gold.tsv")
    docs = documents(args.background, args.lee)
    half = halves([d for d, _ in docs])
    sentences = [(seg, doc, s) for seg, (doc, s) in enumerate(
        (doc, s) for doc, text in docs for s in SENTENCE.split(text))]
    text = {seg: s for seg, _, s in sentences}
    others: Counter[tuple[str, str]] = Counter()
    found = list(find_mentions(load_pipeline(config.ner.model), sentences, {"PERSON": "PER"}, 256,
                               others))
    other_labels: Counter[str] = Counter()
    for (key, _), n in others.items():
        other_labels[key] += n
    mentioned = [Mentioned(m.doc_id, m.name, m.name_key, m.honorific, text[m.seg], m.start,
                           m.end) for m in found]
    with KnowledgeBase.open(config) as kb:
        checks = {c.name_key: c for c in check_names(
            mentioned, lambda n: bool(kb.by_key(n, "name") or kb.by_key(n, "alias")),
            other_labels, config.persons.threshold)}
    missing = {m.name_key for m in found} - set(gold)
    if missing:
        sys.exit(f"names NER found that gold.tsv does not have (another spaCy model?): "
                 f"{sorted(missing)[:5]}")
    out: dict[str, dict[str, dict[str, float | int]]] = {}
    mentions = [Mention(i, m.doc_id, m.seg, m.start, m.end, m.name, m.name_key)
                for i, m in enumerate(found)]
    queries, _ = apply_filters(mentions, filters(config.queries, set()))
    parts = args.half or ["tune", "heldout"]
    for part in parts:
        cands = sorted({(m.doc_id, m.name_key) for m in found if half[m.doc_id] == part})
        units = [(f"{d}\t{k}", gold[k], checks[k].person) for d, k in cands]
        qs = sorted({(m.doc_id, m.name_key) for m in queries if half[m.doc_id] == part})
        out[part] = {"candidates": figures(units),
                     "queries": figures([(f"{d}\t{k}", gold[k], checks[k].person)
                                         for d, k in qs])}
    errors: dict[str, list[str]] = defaultdict(list)
    shown = {m.name_key for m in found if half[m.doc_id] in parts}
    for key, c in sorted(checks.items()):
        if key in shown and c.person != gold[key]:
            errors["kept, not a person" if c.person else "dropped, a person"].append(
                f"{c.name} {c.score:+.1f} {json.dumps(c.evidence)}")
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"figures": out, "errors": errors}, indent=1,
                                        ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
