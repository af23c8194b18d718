"""Rebuild the WMT21 English-Japanese news collection and its person gold.

    python corpora/wmt21_japanese/build.py SOURCE [OUT]
    python corpora/wmt21_japanese/build.py SOURCE OUT --draw SEED N

SOURCE is a clone (or bare git directory) of github.com/wmt-conference/wmt21-news-systems; the
test set is read from `xml/newstest2021.en-ja.all.xml` at commit `RELEASE`: English-original
news (Seattle Times, AP, Guardian, UPI, ...) with its professional Japanese translation
(reference A). OUT defaults to work/wmt21-ja. Written there:

- `corpus/{eng,jpn}.txt`, `corpus/doc_ids.txt`: the collection `configs/wmt21-japanese.yaml`
  reads, every pair of the set, a document per WMT document, in the release's order;
- `gold-{tune,heldout}.tsv`: `annotations.tsv` as span gold (`xel eval projection --spans`),
  split in halves by document with a seeded draw (`half`).

`--draw SEED N` instead runs xel's English NER over the English (`xel.ner.find_mentions` with
the default `ner` settings, PERSON, as `xel queries` finds them), draws N mentions with
`random.Random(SEED).sample` and writes the annotator's sheet `OUT/sheet.tsv`: the columns of
`annotations.tsv` with `gold` empty, and the English and Japanese sentence. The sheet is all
the annotator reads.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from xel.evaluate import (  # noqa: E402
    annotated_halves,
    draw_sheet,
    span_gold_counts,
    write_span_gold,
)

RELEASE = "f41750dadbf2ba6ab01ca5380347d253298a3427"
PATH = "xml/newstest2021.en-ja.all.xml"


def read(source: Path) -> str:
    git = source / ".git" if (source / ".git").exists() else source
    return subprocess.run(["git", "--git-dir", str(git), "show", f"{RELEASE}:{PATH}"],
                          capture_output=True, text=True, check=True).stdout


def rows_of(xml: str) -> list[tuple[str, str, str]]:
    """(document, English, Japanese) of every segment, in the release's order."""
    rows = []
    for doc in ET.fromstring(xml).iter("doc"):
        src = {s.get("id"): s.text or "" for s in doc.find("src").iter("seg")}
        ref = next(r for r in doc.iter("ref") if r.get("translator") == "A")
        ja = {s.get("id"): s.text or "" for s in ref.iter("seg")}
        if list(src) != list(ja):
            raise SystemExit(f"{doc.get('id')}: source and reference segments differ")
        rows += [(str(doc.get("id")), *(re.sub(r"\s+", " ", t).strip() for t in (src[k], ja[k])))
                 for k in src]
    return rows


def half(doc: str) -> str:
    return "tune" if random.Random(f"2021:{doc}").random() < 0.5 else "heldout"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path, nargs="?", default=Path("work/wmt21-ja"))
    parser.add_argument("--draw", type=int, nargs=2, metavar=("SEED", "N"))
    args = parser.parse_args()
    rows = rows_of(read(args.source))
    if args.draw:
        seed, n = args.draw
        found = draw_sheet(rows, args.out / "sheet.tsv", seed, n, "japanese")
        print(f"{found} PERSON mentions in {len(rows)} sentences; {n} drawn (seed {seed}) "
              f"to {args.out / 'sheet.tsv'}")
        return
    (args.out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, column in (("doc_ids.txt", 0), ("eng.txt", 1), ("jpn.txt", 2)):
        (args.out / "corpus" / name).write_text("".join(f"{r[column]}\n" for r in rows),
                                                encoding="utf-8")
    gold = annotated_halves(HERE / "annotations.tsv", rows, "jpn", half)
    for part, lines in gold.items():
        write_span_gold(args.out / f"gold-{part}.tsv",
                        f"WMT21 en-ja person mentions ({part} half, documents drawn with seed "
                        "2021:<document id>), from corpora/wmt21_japanese", lines)
    counts = {p: span_gold_counts(g) for p, g in gold.items()}
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} documents in "
          f"{args.out}/corpus; person mentions: {counts}")


if __name__ == "__main__":
    main()
