"""Draw a new held-out set of Kyoto articles and the sheet its annotator fills in.

    python corpora/kyoto_persons/draw.py SOURCE SEED OUT

As the third to seventh sets were drawn (README.md): of the articles in no annotation file
and not in the collection `build.py` writes, the `PNM` names sorted and shuffled with
`random.Random(SEED)`, the first 40, and the `EPR` names likewise, the first 5; of each, the
first four sentences whose Japanese is at most 160 characters. Written to OUT: `sheet.tsv`
(the annotation columns with `gold` empty, one row per span xel's NER marks PERSON) and
`sentences.tsv` (doc, sentence id, English, Japanese), which the annotator reads. Nothing of
xel's projection is run.
"""

from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

from build import HELD_OUT, HERE, MAX_PAIRS, Source, read_notes, sentences

from xel.config import load_config
from xel.ner import find_mentions, load_pipeline


def drawn(source: Source, seed: int, taken: set[str]) -> list[str]:
    docs = []
    for category, count in (("PNM", 40), ("EPR", 5)):
        names = [d for d in source.names(category) if d not in taken]
        random.Random(seed).shuffle(names)
        docs += names[:count]
    return docs


def annotated_docs() -> list[str]:
    """The articles of every annotation file, in the order the sets were made."""
    files = [HERE / "annotations.tsv", *(HERE / f"annotations-{p}.tsv" for p in HELD_OUT)]
    return list(dict.fromkeys(n["doc"] for f in files for n in read_notes(f)))


def collection_docs(source: Source, annotated: list[str]) -> set[str]:
    """The articles `build.py` puts in the collection: the annotated ones and others up to
    its size."""
    others = [d for c in ("PNM", "HST", "EPR") for d in source.names(c) if d not in annotated]
    random.Random(2016).shuffle(others)
    docs, pairs = set(annotated), sum(len(sentences(source.read(d))) for d in annotated)
    for doc in others:
        if pairs >= MAX_PAIRS:
            break
        docs.add(doc)
        pairs += len(sentences(source.read(doc)))
    return docs


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    source, seed, out = Source(Path(sys.argv[1])), int(sys.argv[2]), Path(sys.argv[3])
    rows = []
    for doc in drawn(source, seed, collection_docs(source, annotated_docs())):
        short = [(sid, en, ja) for sid, en, ja in sentences(source.read(doc)) if len(ja) <= 160]
        rows += [(doc, sid, en, ja) for sid, en, ja in short[:4]]
    ner = load_config("configs/kyoto-persons.yaml").ner
    mentions = find_mentions(load_pipeline(ner.model), [(k, r[0], r[2]) for k, r in
                                                        enumerate(rows)],
                             {"PERSON": "PER"}, ner.batch_size)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "sentences.tsv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter="\t").writerows([("doc", "sen", "english", "japanese"), *rows])
    with open(out / "sheet.tsv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(("doc", "sen", "en_start", "en_end", "english", "gold"))
        for m in mentions:
            doc, sid, en, _ = rows[m.seg]
            w.writerow((doc, sid, m.start, m.end, en[m.start:m.end], ""))
    print(f"{len(rows)} sentence pairs in {len({r[0] for r in rows})} articles; "
          f"sheet in {out}/sheet.tsv")


if __name__ == "__main__":
    main()
