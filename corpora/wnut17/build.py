"""WNUT-17's emerging entities (tweets, Reddit, YouTube and StackExchange comments) as typed
English gold of web text, to measure the type check on (`xel eval types`; issue 36).

    python corpora/wnut17/build.py SOURCES [OUT]

SOURCES is a folder holding a clone (or bare git directory) of
github.com/leondz/emerging_entities_17, named `emerging_entities_17` (a clone) or
`leondz+emerging_entities_17/repo` (the layout xel's fetch tool writes); its files are read at
the commit pinned below. OUT defaults to `work/wnut17`. Written there: `en-tune.conll` (the
train file's tweets: rules may be chosen on it) and `en-heldout.conll` (the dev and annotated
test files' posts: scored, never tuned on), one `token<TAB>tag` line per token, a blank line
after each post and a `-DOCSTART-` line before it (a post is a document), with WNUT's six
types read as coarse ones (`TYPES`: corporations and groups are organizations, products and
creative works MISC, none of a collection's types). `counts.tsv` beside this file holds the
entities a build must give, per half.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from corpora.pud_types.build import read  # noqa: E402  (finds a clone, reads a file of it)
from xel.evaluate import entity_spans  # noqa: E402

REPO = "leondz/emerging_entities_17"
COMMIT = "e52a2d2a71ac1a051ca2d532eef28653c5c02603"
# Each half and the files it is made of, in this order.
HALVES = {"tune": ("wnut17train.conll",),
          "heldout": ("emerging.dev.conll", "emerging.test.annotated")}
# WNUT-17's types as Hansel's coarse types; a product (`iPhone`, `Xbox`) and a creative work
# (a film, a song) are no person, organization or place.
TYPES = {"person": "PER", "location": "LOC", "corporation": "ORG", "group": "ORG",
         "product": "MISC", "creative-work": "MISC"}


def conll(text: str, source: str) -> tuple[list[str], Counter[str]]:
    """The CoNLL lines of one WNUT file (`token<TAB>tag`, a blank line between posts) with
    coarse types, and its entities by coarse type."""
    lines: list[str] = []
    tags: list[str] = []
    counts: Counter[str] = Counter()
    for number, line in enumerate([*text.splitlines(), ""], start=1):
        if not line.strip():
            if tags:
                counts.update(kind for _, _, kind in entity_spans(tags))
                lines.append("")
            tags = []
            continue
        if not tags:
            lines += ["-DOCSTART-", ""]
        token, _, tag = line.rpartition("\t")
        kind = tag[2:]
        if tag != "O" and (tag[:2] not in ("B-", "I-") or kind not in TYPES):
            raise SystemExit(f"{source}, line {number}: tag {tag!r} is none of WNUT-17's")
        coarse = tag if tag == "O" else f"{tag[:2]}{TYPES[kind]}"
        tags.append(coarse)
        lines.append(f"{'_'.join(token.split()) or '_'}\t{coarse}")
    return lines, counts


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "work" / "wnut17"
    out.mkdir(parents=True, exist_ok=True)
    want = {(half, kind): int(n) for half, kind, n in (
        line.split("\t") for line in
        (HERE / "counts.tsv").read_text(encoding="utf-8").splitlines()[1:])}
    for half, files in HALVES.items():
        lines: list[str] = []
        found: Counter[str] = Counter()
        for name in files:
            text = read(Path(sys.argv[1]), (REPO, COMMIT, name))
            part, counts = conll(text, name)
            lines += part
            found += counts
        if {kind: n for (h, kind), n in want.items() if h == half} != dict(found):
            raise SystemExit(f"{half}: the entity counts {dict(sorted(found.items()))} differ "
                             f"from {HERE / 'counts.tsv'}: another source?")
        (out / f"en-{half}.conll").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{half}: {found.total()} entities written to {out / f'en-{half}.conll'}")


if __name__ == "__main__":
    main()
