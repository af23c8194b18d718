"""Rebuild the WMT22 Chinese-English collection and its person gold from the WMT22 release.

    python corpora/wmt22_persons/build.py SOURCE [OUT]

SOURCE is a clone (or bare git directory) of github.com/wmt-conference/wmt22-news-systems; the
test set is read from its history, `xml/wmttest2022.zh-en.xml` at commit `RELEASE` ("final
releases of testsets", the same text as `txt/sources/generaltest2022.zh-en.src.zh` and
`txt/references/generaltest2022.zh-en.ref.A.en` at the repository's head). Only the `general`
collection is used (Chinese-original news, social media, e-commerce and conversations), with
reference A. OUT defaults to work/wmt22. Written there:

- `corpus/{eng,zho-CN}.txt`, `corpus/doc_ids.txt`: the collection `configs/wmt22-persons.yaml`
  reads, the whole set (1,875 sentence pairs, 256 documents, every one annotated), a document
  per WMT document: the news documents first in a seeded order, then the social media,
  e-commerce and conversation ones in another;
- `gold-{tune,heldout}.tsv`: `annotations.tsv` as span gold (`xel eval projection --spans`),
  split in halves by document with a seeded draw.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from xel.evaluate import annotated_halves, span_gold_counts, write_span_gold

HERE = Path(__file__).parent
RELEASE = "37f67aa2ae572f0ba7a5c0890f3162ddd1cc8265"
PATH = "xml/wmttest2022.zh-en.xml"


def read(source: Path) -> str:
    git = source / ".git" if (source / ".git").exists() else source
    return subprocess.run(["git", "--git-dir", str(git), "show", f"{RELEASE}:{PATH}"],
                          capture_output=True, text=True, check=True).stdout


def clean(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def documents(xml: str) -> dict[str, list[tuple[str, str]]]:
    """(English, Chinese) sentence pairs of each document of the `general` collection."""
    docs: dict[str, list[tuple[str, str]]] = {}
    root = ET.fromstring(xml)
    for collection in root.iter("collection"):
        if collection.get("id") != "general":
            continue
        for doc in collection.iter("doc"):
            src = {s.get("id"): clean(s.text) for s in doc.find("src").iter("seg")}
            ref = next(r for r in doc.iter("ref") if r.get("translator") == "A")
            eng = {s.get("id"): clean(s.text) for s in ref.iter("seg")}
            if list(src) != list(eng):
                raise SystemExit(f"{doc.get('id')}: source and reference segments differ")
            docs[doc.get("id")] = [(eng[k], src[k]) for k in src]
    return docs


def is_news(doc: str) -> bool:
    return not doc.startswith(("ecommerce_", "social_")) and "_CLIENT-" not in doc


def half(doc: str) -> str:
    return "tune" if random.Random(f"2015:{doc}").random() < 0.5 else "heldout"


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    source = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("work/wmt22")
    docs = documents(read(source))
    news = sorted(d for d in docs if is_news(d))
    rest = sorted(d for d in docs if not is_news(d))
    random.Random(2015).shuffle(news)
    random.Random(2016).shuffle(rest)
    rows = [(doc, en, zh) for doc in news + rest for en, zh in docs[doc]]
    (out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, column in (("eng.txt", 1), ("zho-CN.txt", 2), ("doc_ids.txt", 0)):
        (out / "corpus" / name).write_text("".join(f"{r[column]}\n" for r in rows),
                                           encoding="utf-8")
    gold = annotated_halves(HERE / "annotations.tsv", rows, "zho-CN", half)
    for part, lines in gold.items():
        write_span_gold(out / f"gold-{part}.tsv",
                        f"WMT22 zh-en person mentions ({part} half), from corpora/wmt22_persons",
                        lines)
    counts = {p: span_gold_counts(g) for p, g in gold.items()}
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} documents ({len(news)} "
          f"news) in {out}/corpus; person mentions: {counts}")


if __name__ == "__main__":
    main()
