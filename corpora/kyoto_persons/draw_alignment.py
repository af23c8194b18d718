"""Draw Kyoto sentence pairs for word-alignment gold, tokenized as xel tokenizes them.

    python corpora/kyoto_persons/draw_alignment.py SOURCE SEED OUT [PAIRS]

Of the person (`PNM`) articles in no annotation file, not in the collection `build.py`
writes and not among the pairs the aligner learns from (`learn/`), sorted and shuffled with
`random.Random(SEED)`: from each, the first two sentences whose Japanese is at most 100
characters and whose English has a PERSON mention xel's NER finds, until PAIRS (100) pairs.
Written to OUT: `pairs.tsv` (doc, sentence id), `en-ja.src-tgt` (English `|||` Japanese,
tokens as the collection's tokenizers cut them: unicode words, Janome) and `sheet.txt`, the
annotator's view with every token numbered from 1. Nothing of xel's aligner is run.
"""

from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

from build import Source, learn_docs, sentences
from draw import annotated_docs, collection_docs

from xel.config import load_config
from xel.ner import find_mentions, load_pipeline
from xel.tokenizers import tokenizer_for

MAX_JAPANESE = 100
PER_ARTICLE = 2


def candidates(source: Source, seed: int) -> list[tuple[str, int, str, str]]:
    """Sentence pairs of the articles xel has never seen, in the seeded order."""
    taken = collection_docs(source, annotated_docs())
    taken |= {doc for doc, _ in learn_docs(source, taken)}
    names = [d for d in source.names("PNM") if d not in taken]
    random.Random(seed).shuffle(names)
    rows = []
    for doc in names[:400]:
        short = [(sid, en, ja) for sid, en, ja in sentences(source.read(doc))
                 if len(ja) <= MAX_JAPANESE]
        rows += [(doc, sid, en, ja) for sid, en, ja in short]
    return rows


def main() -> None:
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    source, seed, out = Source(Path(sys.argv[1])), int(sys.argv[2]), Path(sys.argv[3])
    wanted = int(sys.argv[4]) if len(sys.argv) == 5 else 100
    rows = candidates(source, seed)
    config = load_config("configs/kyoto-persons.yaml")
    mentions = find_mentions(load_pipeline(config.ner.model),
                             [(k, r[0], r[2]) for k, r in enumerate(rows)],
                             {"PERSON": "PER"}, config.ner.batch_size)
    with_person = {m.seg for m in mentions}
    chosen: list[tuple[str, int, str, str]] = []
    per_doc: dict[str, int] = {}
    for k, row in enumerate(rows):
        if k in with_person and per_doc.get(row[0], 0) < PER_ARTICLE and len(chosen) < wanted:
            chosen.append(row)
            per_doc[row[0]] = per_doc.get(row[0], 0) + 1
    tok_en = tokenizer_for("eng", [], config.tokenize)
    tok_ja = tokenizer_for("jpn", [], config.tokenize)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "pairs.tsv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter="\t").writerows([("doc", "sen"), *((r[0], r[1]) for r in chosen)])
    with open(out / "en-ja.src-tgt", "w", encoding="utf-8") as fp, \
            open(out / "sheet.txt", "w", encoding="utf-8") as fs:
        for number, (doc, sid, en, ja) in enumerate(chosen, start=1):
            src = [en[a:b] for a, b in tok_en(en)]
            tgt = [ja[a:b] for a, b in tok_ja(ja)]
            fp.write(" ".join(src) + " ||| " + " ".join(tgt) + "\n")
            fs.write(f"## {number} ({doc} sentence {sid})\nEN: {en}\nJA: {ja}\n"
                     + "E: " + " ".join(f"{i}:{t}" for i, t in enumerate(src, start=1)) + "\n"
                     + "J: " + " ".join(f"{j}:{t}" for j, t in enumerate(tgt, start=1))
                     + "\n\n")
    print(f"{len(chosen)} sentence pairs from {len(per_doc)} articles in {out}")


if __name__ == "__main__":
    main()
