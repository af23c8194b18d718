"""Write the NTREX-128 type gold (ORG, LOC, EVENT names; issue 36) from our annotations.

    python corpora/ntrex_types/build.py [NTREX] [--set=orgs]

NTREX is the NTREX-128 folder (default `../shared/data/ntrex128` beside the repository).
`--set=orgs` builds the second set (`SETS`: organizations in German, Russian and Chinese)
from the same files in `orgs/`.
`english.tsv` lists the English mentions `draw.py` drew (seed 36: spaCy's ORG, GPE, LOC, FAC
and EVENT mentions, stratified by coarse type) with NER's label, its coarse type and the
name's real type (`gold_type`, judged from the English); `annotations/<lang>.tsv` give, for
each, the name as the translation into `<lang>` writes it (`name`, or `name#k` for its k-th
occurrence in the sentence), `ABSENT` or `NOT_ENTITY`. Written beside this file:

- `gold-tune.tsv`, `gold-heldout.tsv`: typed span gold for `xel eval projection --spans ...
  --types ORG,LOC,EVENT` (the columns of `xel.evaluate.TYPED_SPAN_HEADER`), every language in
  both, split in halves by NTREX document with `half` (seed `36:<document id>`), the same
  documents in every language.

Checks, with an error naming the row: every language annotates exactly the mentions of
`english.tsv`, the English mention is at its characters of its segment and its document is
DOCUMENT_IDS.tsv's, NOT_ENTITY is written exactly where `gold_type` is not `type`, and the
name is found once (or its k-th occurrence exists) in the target sentence. Offsets are
derived from the annotated strings, never typed by hand. A name that starts or ends inside a
word is printed as a notice, so that every such span can be read again.
"""

from __future__ import annotations

import csv
import random
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from xel.errors import XelError  # noqa: E402
from xel.evaluate import (  # noqa: E402
    TYPED_SPAN_HEADER,
    UNSCORED,
    span_gold_row,
    write_span_gold,
)

ENGLISH_COLUMNS = ["seg", "doc", "en_start", "en_end", "english", "type", "label", "gold_type",
                   "note"]
COLUMNS = ["seg", "en_start", "en_end", "english", "gold", "note"]
GOLD_TYPES = ("PER", "ORG", "LOC", "EVENT", "OTHER")
SEED = "36"


@dataclass(frozen=True)
class GoldSet:
    """One draw of the gold: its folder (`english.tsv`, `annotations/`, the gold files), the
    languages it annotates, and the draw (`draw.py`: seed, mentions of each type, and whether
    the first set's mentions are left out). Every set splits documents by `half`, so that a
    document is in the same half in every set."""

    folder: Path
    languages: tuple[str, ...]
    seed: int
    sizes: dict[str, int]
    what: str  # the types, as the gold files' first line names them
    after_first: bool = False


SETS = {
    # the first draw: every type, seven languages (session of 2026-11-26)
    "types": GoldSet(HERE, ("deu", "fra", "spa", "tur", "rus", "zho-CN", "arb"), 36,
                     {"ORG": 24, "LOC": 22, "EVENT": 6}, "ORG, LOC and EVENT"),
    # a second draw of organizations for the languages whose ORG bars were not met
    # (session of 2026-11-28), none of the first draw's mentions
    "orgs": GoldSet(HERE / "orgs", ("deu", "rus", "zho-CN"), 3602, {"ORG": 80}, "ORG",
                    after_first=True),
}


def chosen_set(args: list[str]) -> tuple[str, list[str]]:
    """The gold set a command line names with `--set=NAME` (default the first), and its other
    arguments."""
    which = next((a.split("=", 1)[1] for a in args if a.startswith("--set=")), "types")
    if which not in SETS:
        raise SystemExit(f"--set={which}: the gold sets are {', '.join(SETS)}")
    return which, [a for a in args if not a.startswith("--set=")]


def half(doc: str) -> str:
    """The half an NTREX document is in: a seeded draw per document id."""
    return "tune" if random.Random(f"{SEED}:{doc}").random() < 0.5 else "heldout"


def ntrex_lines(ntrex: Path, code: str) -> list[str]:
    folder = ntrex / "NTREX-128"
    name = "newstest2019-src.eng.txt" if code == "eng" else f"newstest2019-ref.{code}.txt"
    return (folder / name).read_text(encoding="utf-8").split("\n")


def read_tsv(path: Path, columns: list[str]) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader((line for line in f if not line.startswith("#")),
                                   delimiter="\t"))
    for r in rows:
        if list(r) != columns:
            raise SystemExit(f"{path}: expected the columns {columns}")
    return rows


def english_mentions(folder: Path = HERE) -> list[dict[str, str]]:
    rows = read_tsv(folder / "english.tsv", ENGLISH_COLUMNS)
    for r in rows:
        if r["gold_type"] not in GOLD_TYPES or r["type"] not in GOLD_TYPES:
            raise SystemExit(f"english.tsv, segment {r['seg']} {r['english']!r}: types are "
                             f"{', '.join(GOLD_TYPES)}")
    return rows


def inside_word(text: str, start: int, end: int) -> bool:
    """Does the span start or end inside a word (a letter or mark just outside it)?"""
    def wordish(ch: str) -> bool:
        return unicodedata.category(ch)[0] in "LM"
    return (start > 0 and wordish(text[start - 1])) or (end < len(text) and wordish(text[end]))


def build(ntrex: Path, out: Path = HERE, quiet: bool = False, which: str = "types"
          ) -> dict[str, Counter[str]]:
    """Check the annotations of a gold set (`SETS`) and write its gold files; returns counts
    by language, keyed `half type outcome` (outcome: named, ABSENT or NOT_ENTITY)."""
    gold_set = SETS[which]
    where = gold_set.folder.relative_to(ROOT)
    mentions = english_mentions(gold_set.folder)
    english = ntrex_lines(ntrex, "eng")
    docs = (ntrex / "DOCUMENT_IDS.tsv").read_text(encoding="utf-8").split("\n")
    for m in mentions:
        seg, a, b = int(m["seg"]), int(m["en_start"]), int(m["en_end"])
        if english[seg][a:b] != m["english"] or docs[seg] != m["doc"]:
            raise SystemExit(f"english.tsv: {m['english']!r} is not at {a}-{b} of segment {seg}"
                             f" of document {m['doc']}")
    keys = [(int(m["seg"]), int(m["en_start"]), int(m["en_end"]), m["english"]) for m in mentions]
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    counts: dict[str, Counter[str]] = {}
    for lang in gold_set.languages:
        target = ntrex_lines(ntrex, lang)
        notes = read_tsv(gold_set.folder / "annotations" / f"{lang}.tsv", COLUMNS)
        mine = [(int(n["seg"]), int(n["en_start"]), int(n["en_end"]), n["english"])
                for n in notes]
        if mine != keys:
            raise SystemExit(f"annotations/{lang}.tsv: not the mentions of english.tsv, in its "
                             f"order (missing {sorted(set(keys) - set(mine))}, not in it "
                             f"{sorted(set(mine) - set(keys))})")
        counts[lang] = Counter()
        for n, m, (seg, a, b, en) in zip(notes, mentions, keys, strict=True):
            wrong_type = m["gold_type"] != m["type"]
            if wrong_type != (n["gold"] == "NOT_ENTITY"):
                raise SystemExit(f"annotations/{lang}.tsv, segment {seg} {en!r}: NOT_ENTITY is "
                                 "where english.tsv's gold_type is not the type, and only there")
            if n["gold"] == "NOT_PERSON":
                raise SystemExit(f"annotations/{lang}.tsv, segment {seg}: say NOT_ENTITY")
            try:
                row = span_gold_row(lang, seg, a, b, en, n["gold"], target[seg])
            except XelError as err:  # the name is missing, or ambiguous without #k
                raise SystemExit(f"annotations/{lang}.tsv, segment {seg} {en!r}: {err}") from None
            part = half(m["doc"])
            gold[part].append([*row, m["type"], m["label"], m["gold_type"]])
            outcome = n["gold"] if n["gold"] in UNSCORED else "named"
            counts[lang][f"{part} {m['type']} {outcome}"] += 1
            s, e = (int(row[6]), int(row[7])) if outcome == "named" else (0, 0)
            if not quiet and outcome == "named" and inside_word(target[seg], s, e):
                print(f"notice {lang} {seg}: {target[seg][max(0, s - 12):s]}[{row[5]}]"
                      f"{target[seg][e:e + 12]}  ({n['note'] or 'no note'})")
    for part, rows in gold.items():
        write_span_gold(
            out / f"gold-{part}.tsv",
            f"NTREX-128 type gold: {gold_set.what} names ({part} half, NTREX "
            f"documents drawn with seed {SEED}:<document id>), from {where}/english.tsv and "
            "annotations by corpora/ntrex_types/build.py; conventions in "
            "corpora/ntrex_types/README.md",
            rows, TYPED_SPAN_HEADER)
    return counts


def main() -> None:
    which, args = chosen_set(sys.argv[1:])
    ntrex = Path(args[0]) if args else ROOT.parent / "shared" / "data" / "ntrex128"
    counts = build(ntrex, SETS[which].folder, which=which)
    for lang, c in counts.items():
        print(lang, " ".join(f"{k}: {v}" for k, v in sorted(c.items())))


if __name__ == "__main__":
    main()
