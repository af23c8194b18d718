"""Typed English NER gold of another source: UNER's English Web Treebank (issue 36).

    python corpora/uner_ewt/build.py SOURCES [OUT]

SOURCES is a folder holding a clone (or bare git directory) of
github.com/UniversalNER/UNER_English-EWT, named `UNER_English-EWT` (a clone) or
`UniversalNER+UNER_English-EWT/repo` (the layout xel's fetch tool writes); its files are read
at the commit pinned below. OUT defaults to `work/ewt`. Written there, for `xel eval types`:
`en-dev.conll` (tune on it) and `en-test.conll` (held out), one `token<TAB>tag` line per token
(IOB2 PER, ORG, LOC as UNER gives them; a space inside a token becomes `_`), a blank line after
each sentence and a `-DOCSTART-` line before each EWT document. The training file is not used
(the typed check learns nothing from it). `counts.tsv` beside this file holds the entities a
build must give. Also `en-{dev,test}-hansel.conll`: the same with each entity typed as Hansel
types it where UNER's tag says otherwise (`hansel-types.tsv`: businesses UNER tags as places
are organizations, a university is one, a country standing for its team is a place, ...),
as `corpora/pud_types` does for PUD.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from corpora.pud_types.build import read, read_hansel, retyped  # noqa: E402
from xel.evaluate import entity_spans  # noqa: E402

REPO = "UniversalNER/UNER_English-EWT"
COMMIT = "8ed072de2fd24022cc62458997fe96a8fe191ea4"
PARTS = {"dev": "en_ewt-ud-dev.iob2", "test": "en_ewt-ud-test.iob2"}


def conll(iob2: str) -> tuple[list[str], Counter[str]]:
    """The CoNLL lines of a UNER file (`id token tag ...` rows, `# newdoc` begins a document)
    and its entities by type."""
    lines: list[str] = []
    tags: list[str] = []
    counts: Counter[str] = Counter()
    for line in [*iob2.splitlines(), ""]:
        if line.startswith("# newdoc"):
            lines += ["-DOCSTART-", ""]
        elif line.startswith("#"):
            continue
        elif not line.strip():
            if tags:
                counts.update(kind for _, _, kind in entity_spans(tags))
                lines.append("")
            tags = []
        else:
            fields = line.split("\t")
            tags.append(fields[2])
            lines.append(f"{'_'.join(fields[1].split()) or '_'}\t{fields[2]}")
    return lines, counts


def hansel_lines(lines: list[str], part: str, hansel: dict[tuple[str, str, str], str],
                 used: set[tuple[str, str, str]]) -> list[str]:
    """CoNLL lines with each sentence's entities typed as Hansel types them (`retyped` of
    corpora/pud_types, keyed by part, UNER's type and the name's tokens)."""
    out: list[str] = []
    sentence: list[list[str]] = []
    for line in lines:
        if line and line != "-DOCSTART-":
            sentence.append(line.split("\t"))
            continue
        if sentence:
            tokens, tags = [t for t, _ in sentence], [g for _, g in sentence]
            out += [f"{t}\t{g}" for t, g in zip(
                tokens, retyped(("", "", tokens, tags), part, hansel, used)[3], strict=True)]
            sentence = []
        out.append(line)
    return out


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "work" / "ewt"
    out.mkdir(parents=True, exist_ok=True)
    found = {}
    hansel = read_hansel(HERE / "hansel-types.tsv")
    used: set[tuple[str, str, str]] = set()
    for part, name in PARTS.items():
        text = read(Path(sys.argv[1]), (REPO, COMMIT, name))
        lines, counts = conll(text)
        (out / f"en-{part}.conll").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (out / f"en-{part}-hansel.conll").write_text(
            "\n".join(hansel_lines(lines, part, hansel, used)) + "\n", encoding="utf-8")
        found.update({(part, kind): n for kind, n in counts.items()})
    rows = [line.split("\t") for line in
            (HERE / "counts.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    if {(part, kind): int(n) for part, kind, n in rows} != found:
        raise SystemExit(f"the entity counts differ from {HERE / 'counts.tsv'}: another source?")
    if unused := set(hansel) - used:
        raise SystemExit(f"hansel-types.tsv: no such entity: {sorted(unused)[0]}")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
