"""Write the span gold of NTREX-128's weakest languages from our annotations (issue 35).

    python corpora/ntrex_weak/build.py [NTREX]

NTREX is the NTREX-128 folder (default `../shared/data/ntrex128` beside the repository).
`annotations/<lang>.tsv` give, for each of the 90 English mentions of
`corpora/ntrex128/projection-gold.tsv` (its sample: seed 2015, spaCy's NER mentions), the name
as the translation into `<lang>` writes it (`name`, or `name#k` for its k-th occurrence in the
sentence), `ABSENT` or `NOT_PERSON`. Written beside this file:

- `gold-tune.tsv`, `gold-heldout.tsv`: span gold for `xel eval projection --spans`, every
  language in both, split in halves by NTREX document with `half` (seed `35:<document id>`),
  the same documents in every language.

Checks, with an error naming the row: the 90 mentions and their NOT_PERSON judgments are those
of `corpora/ntrex128/projection-gold.tsv`, the English mention is at its characters, and the
name is found once (or its k-th occurrence exists) in the target sentence. A name that starts
or ends inside a word (a prefix or proclitic left out, as README.md's conventions say) is
printed as a notice, so that every such span can be read again.
"""

from __future__ import annotations

import csv
import random
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from xel.errors import XelError  # noqa: E402
from xel.evaluate import UNSCORED, read_span_gold, span_gold_row, write_span_gold  # noqa: E402

BASE = ROOT / "corpora" / "ntrex128" / "projection-gold.tsv"
# In the order the gold files list them (README.md: scripts and conventions per language).
LANGUAGES = ["hin", "ben", "guj", "tam", "mal", "sin", "kat", "hye", "amh", "div", "ckb-Arab",
             "mon", "uzb", "aze-Latn", "xho", "nde"]
COLUMNS = ["seg", "en_start", "en_end", "english", "gold", "note"]
SEED = "35"


def half(doc: str) -> str:
    """The half an NTREX document is in: a seeded draw per document id."""
    return "tune" if random.Random(f"{SEED}:{doc}").random() < 0.5 else "heldout"


def ntrex_lines(ntrex: Path, code: str) -> list[str]:
    folder = ntrex / "NTREX-128"
    name = "newstest2019-src.eng.txt" if code == "eng" else f"newstest2019-ref.{code}.txt"
    return (folder / name).read_text(encoding="utf-8").split("\n")


def sample() -> tuple[list[tuple[int, int, int, str]], set[tuple[int, int, int]]]:
    """The 90 English mentions of the projection gold (in its order) and the NOT_PERSON ones
    (the same in every language there)."""
    rows = read_span_gold(BASE)
    first = rows[0].lang
    mentions = [(r.seg, r.en_start, r.en_end, r.english) for r in rows if r.lang == first]
    not_person = {(r.seg, r.en_start, r.en_end) for r in rows if r.gold == "NOT_PERSON"}
    for lang in {r.lang for r in rows}:
        if {(r.seg, r.en_start, r.en_end) for r in rows
                if r.lang == lang and r.gold == "NOT_PERSON"} != not_person:
            raise SystemExit(f"{BASE}: {lang} judges NOT_PERSON differently")
    return mentions, not_person


def read_annotations(lang: str) -> list[dict[str, str]]:
    path = HERE / "annotations" / f"{lang}.tsv"
    with open(path, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader((line for line in f if not line.startswith("#")),
                                          delimiter="\t")]
    for r in rows:
        if list(r) != COLUMNS:
            raise SystemExit(f"{path}: expected the columns {COLUMNS}")
    return rows


def inside_word(text: str, start: int, end: int) -> bool:
    """Does the span start or end inside a word (a letter or mark just outside it)?"""
    def wordish(ch: str) -> bool:
        return unicodedata.category(ch)[0] in "LM"
    return (start > 0 and wordish(text[start - 1])) or (end < len(text) and wordish(text[end]))


def build(ntrex: Path, out: Path = HERE,
          quiet: bool = False) -> dict[str, dict[str, dict[str, int]]]:
    mentions, not_person = sample()
    english = ntrex_lines(ntrex, "eng")
    docs = (ntrex / "DOCUMENT_IDS.tsv").read_text(encoding="utf-8").split("\n")
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for lang in LANGUAGES:
        target = ntrex_lines(ntrex, lang)
        notes = read_annotations(lang)
        keys = [(int(n["seg"]), int(n["en_start"]), int(n["en_end"]), n["english"])
                for n in notes]
        if sorted(keys) != sorted(mentions):
            missing = set(mentions) - set(keys)
            extra = set(keys) - set(mentions)
            raise SystemExit(f"annotations/{lang}.tsv: not the 90 mentions of the sample "
                             f"(missing {sorted(missing)}, not in it {sorted(extra)})")
        counts[lang] = {p: {"named": 0, "ABSENT": 0, "NOT_PERSON": 0} for p in gold}
        for n, (seg, a, b, en) in zip(notes, keys, strict=True):
            if english[seg][a:b] != en:
                raise SystemExit(f"annotations/{lang}.tsv: {en!r} is not at {a}-{b} of "
                                 f"segment {seg}")
            if ((seg, a, b) in not_person) != (n["gold"] == "NOT_PERSON"):
                raise SystemExit(f"annotations/{lang}.tsv, segment {seg} {en!r}: the NOT_PERSON "
                                 "judgments are the sample's")
            try:
                row = span_gold_row(lang, seg, a, b, en, n["gold"], target[seg])
            except XelError as err:  # the name is missing, or ambiguous without #k
                raise SystemExit(f"annotations/{lang}.tsv, segment {seg} {en!r}: {err}") from None
            part = half(docs[seg])
            gold[part].append(row)
            kind = n["gold"] if n["gold"] in UNSCORED else "named"
            counts[lang][part][kind] += 1
            s, e = (int(row[6]), int(row[7])) if kind == "named" else (0, 0)
            if not quiet and kind == "named" and inside_word(target[seg], s, e):
                print(f"notice {lang} {seg}: {target[seg][max(0, s - 12):s]}[{row[5]}]"
                      f"{target[seg][e:e + 12]}  ({n['note'] or 'no note'})")
    for part, rows in gold.items():
        write_span_gold(
            out / f"gold-{part}.tsv",
            f"Projection gold for NTREX-128's weakest languages ({part} half, NTREX documents "
            f"drawn with seed {SEED}:<document id>), from corpora/ntrex_weak/annotations by "
            "corpora/ntrex_weak/build.py; conventions in corpora/ntrex_weak/README.md",
            rows)
    return counts


def main() -> None:
    ntrex = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "ntrex128"
    counts = build(ntrex)
    for lang, parts in counts.items():
        print(lang, " ".join(f"{p}: {c['named']} named, {c['ABSENT']} ABSENT, "
                             f"{c['NOT_PERSON']} NOT_PERSON" for p, c in parts.items()))


if __name__ == "__main__":
    main()
