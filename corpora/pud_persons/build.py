"""Rebuild a PUD collection and its person gold from the UD PUD treebanks.

    python corpora/pud_persons/build.py TARGET ENGLISH [OUT] [--lang hin|zho-TW]

TARGET and ENGLISH are clones (or bare git directories) of github.com/UniversalDependencies/
UD_Hindi-PUD (`--lang hin`, the default) or UD_Chinese-PUD (`--lang zho-TW`), and
UD_English-PUD; the treebanks are read from the pinned commits of `TREEBANKS` and
`ENGLISH_COMMIT` (`hi_pud-ud-test.conllu`, `zh_pud-ud-test.conllu`, `en_pud-ud-test.conllu`:
the same 1,000 sentences of the CoNLL 2017 shared task's Parallel Universal Dependencies, news
and Wikipedia, in the same order, CC BY-SA 3.0), so a clone at any later head works. OUT
defaults to work/pud (Hindi) or work/pud-zh (Chinese). Written there:

- `corpus/{eng,LANG}.txt`, `corpus/doc_ids.txt`: the collection `configs/pud-persons.yaml`
  (`configs/pud-chinese.yaml`) reads, all 1,000 sentence pairs, a document per PUD document
  (`# newdoc id`), in the treebanks' order;
- `gold-{tune,heldout}.tsv`: the language's annotations (`annotations.tsv` for Hindi,
  `annotations-zho-TW.tsv` for Chinese) as span gold (`xel eval projection --spans`), split
  in halves by PUD document with `half` (seed `35:<document id>`).

`draw.py` drew the English mentions that `annotations.tsv` annotates (README.md).
"""

from __future__ import annotations

import argparse
import csv
import random
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from xel.evaluate import span_gold_counts, span_gold_row, write_span_gold  # noqa: E402

ENGLISH_COMMIT = "f16eba4ae7f3d161870ed320676c5088b8fa476c"
ENGLISH_FILE = "en_pud-ud-test.conllu"
SEED = "35"


class Treebank(NamedTuple):
    name: str
    commit: str
    file: str
    annotations: str
    out: str


TREEBANKS = {
    "hin": Treebank("Hindi", "8bc630f73e0737ce5ed9eaa97abf11f172ecc9bd", "hi_pud-ud-test.conllu",
                    "annotations.tsv", "work/pud"),
    "zho-TW": Treebank("Chinese", "2849afd946a8c01b3e9acdf3e7afa8670cf2777d",
                       "zh_pud-ud-test.conllu", "annotations-zho-TW.tsv", "work/pud-zh"),
}


def read(source: Path, commit: str, name: str) -> str:
    git = source / ".git" if (source / ".git").exists() else source
    return subprocess.run(["git", "--git-dir", str(git), "show", f"{commit}:{name}"],
                          capture_output=True, text=True, check=True).stdout


def sentences(conllu: str) -> list[tuple[str, str, str]]:
    """(document id, sentence id, text) of every sentence of a CoNLL-U file, in order."""
    out = []
    doc = sent = None
    for line in conllu.splitlines():
        if line.startswith("# newdoc id = "):
            doc = line.split("=", 1)[1].strip()
        elif line.startswith("# sent_id = "):
            sent = line.split("=", 1)[1].strip()
        elif line.startswith("# text = "):
            if doc is None or sent is None:
                raise SystemExit(f"sentence without a document or id: {line!r}")
            out.append((doc, sent, line.split("=", 1)[1].strip()))
    return out


def pairs(target: Path, english: Path, lang: str = "hin") -> list[tuple[str, str, str, str]]:
    """(document, sentence id, English, target) of the 1,000 PUD sentences, in order."""
    bank = TREEBANKS[lang]
    tgt = sentences(read(target, bank.commit, bank.file))
    en = sentences(read(english, ENGLISH_COMMIT, ENGLISH_FILE))
    if [(d, s) for d, s, _ in tgt] != [(d, s) for d, s, _ in en]:
        raise SystemExit(f"the {bank.name} and English treebanks do not list the same sentences")
    return [(d, s, e, t) for (d, s, t), (_, _, e) in zip(tgt, en, strict=True)]


def half(doc: str) -> str:
    """The half a PUD document is in: a seeded draw per document id."""
    return "tune" if random.Random(f"{SEED}:{doc}").random() < 0.5 else "heldout"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("english", type=Path)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--lang", choices=sorted(TREEBANKS), default="hin")
    args = parser.parse_args()
    lang, bank = args.lang, TREEBANKS[args.lang]
    rows = pairs(args.target, args.english, lang)
    out = args.out or Path(bank.out)
    (out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, column in (("doc_ids.txt", 0), ("eng.txt", 2), (f"{lang}.txt", 3)):
        (out / "corpus" / name).write_text("".join(f"{r[column]}\n" for r in rows),
                                           encoding="utf-8")
    with open(HERE / bank.annotations, encoding="utf-8") as f:
        notes = list(csv.DictReader(f, delimiter="\t"))
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    for n in notes:
        k, a, b = int(n["line"]), int(n["en_start"]), int(n["en_end"])
        doc, sent, en, tgt = rows[k]
        if (doc, sent) != (n["doc"], n["sent_id"]) or en[a:b] != n["english"]:
            raise SystemExit(f"annotations.tsv: {n['english']!r} is not at {a}-{b} of line {k} "
                             f"({n['sent_id']})")
        gold[half(doc)].append(span_gold_row(lang, k, a, b, n["english"], n["gold"], tgt))
    for part, lines in gold.items():
        write_span_gold(out / f"gold-{part}.tsv",
                        f"PUD {lang}-en person mentions ({part} half, PUD documents drawn with "
                        f"seed {SEED}:<document id>), from corpora/pud_persons", lines)
    counts = {p: span_gold_counts(g) for p, g in gold.items()}
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} documents in {out}/corpus; "
          f"person mentions: {counts}")


if __name__ == "__main__":
    main()
