"""Parallel NER gold of every type from Universal NER's PUD files (issue 36, item 6).

    python corpora/pud_types/build.py SOURCES [OUT]

SOURCES is a folder holding clones (or bare git directories) of the UNER repositories
github.com/UniversalNER/UNER_{English,German,Portuguese,Russian,Swedish,Chinese}-PUD and of
github.com/UniversalDependencies/UD_Chinese-PUD, named either `UNER_English-PUD` (a clone)
or `UniversalNER+UNER_English-PUD/repo` (the layout xel's fetch tool writes). Every file is
read at the commit pinned in `SOURCES` below, so a clone at a later head works. OUT defaults
to `work/pud_types`. Written there, for `xel eval projection --conll-en --conll-tgt`:

- `en-tune.conll`, `en-heldout.conll`: the English sentences of each half;
- `en-tune-hansel.conll`, `en-heldout-hansel.conll`: the English files with each entity
  typed as Hansel types it where UNER's tag says otherwise (`hansel-types.tsv`: a country
  tagged ORG for its government is a place), for `xel eval types`;
- `<lang>-tune.conll`, `<lang>-heldout.conll` for `deu`, `por`, `rus`, `swe`, `zho-TW`: the
  same sentences, in the same order, in that language;

one `token<TAB>tag` line per token (IOB2 tags PER, ORG, LOC as UNER gives them; a space
inside a token becomes `_`), a blank line after each sentence, a `-DOCSTART-` line before each
PUD document (`xel eval types` reads a name's mentions per document). Halves by PUD document with
`half` (seed `35:<document id>`, the split of `corpora/pud_persons`, so a PUD document is in
the same half in every PUD gold set). `counts.tsv` beside this file records the entities per
language, type and half that a build must give (checked).

The Chinese UNER file lists its sentences in another order than the other languages and
under other ids (`batch-0000-0001`); UD_Chinese-PUD gives each its PUD id (matched by text),
and the sentences of a PUD document are in the same order in both treebanks, so the k-th
Chinese sentence of a document is the k-th English one (checked: the same count per
document).
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from xel.evaluate import entity_spans  # noqa: E402

# language -> (repository, commit, file)
SOURCES = {
    "eng": ("UniversalNER/UNER_English-PUD", "07ea0553144e3fcf3d6633efe2a075b725a0d262",
            "en_pud-ud-test.iob2"),
    "deu": ("UniversalNER/UNER_German-PUD", "47eb039b6d80079b280ba70efe4136413fb7af9c",
            "de_pud-ud-test.iob2"),
    "por": ("UniversalNER/UNER_Portuguese-PUD", "cda2cf86b68d45e896aab97ceca5e91d43a86db7",
            "pt_pud-ud-test.iob2"),
    "rus": ("UniversalNER/UNER_Russian-PUD", "6f5acd6d728f70b20e4326d841356567796ee844",
            "ru_pud-ud-test.iob2"),
    "swe": ("UniversalNER/UNER_Swedish-PUD", "7fed5e267858a295f53083051a16d73c76f60f07",
            "sv_pud-ud-test.iob2"),
    "zho-TW": ("UniversalNER/UNER_Chinese-PUD", "647ba53747e1aa1818541965db99a0196440b7d2",
               "zh_pud-ud-test.iob2"),
}
UD_CHINESE = ("UniversalDependencies/UD_Chinese-PUD", "2849afd946a8c01b3e9acdf3e7afa8670cf2777d",
              "zh_pud-ud-test.conllu")
SEED = "35"
TYPES = ("PER", "ORG", "LOC")

Sentence = tuple[str, str, list[str], list[str]]  # sent_id, text, tokens, tags


def half(doc: str) -> str:
    """The half a PUD document is in: a seeded draw per document id (as pud_persons)."""
    return "tune" if random.Random(f"{SEED}:{doc}").random() < 0.5 else "heldout"


def document(sent_id: str) -> str:
    """The PUD document of a sentence id: `n01001-0001` and `n01001011` are in `n01001`."""
    return sent_id[:6]


def git_dir(sources: Path, repo: str) -> Path:
    name = repo.split("/")[1]
    for folder in (sources / name, sources / repo.replace("/", "+") / "repo"):
        if (folder / ".git").exists():
            return folder / ".git"
        if (folder / "HEAD").is_file():
            return folder
    raise SystemExit(f"{repo}: no clone under {sources} (expected {name}/ or "
                     f"{repo.replace('/', '+')}/repo)")


def read(sources: Path, source: tuple[str, str, str]) -> str:
    repo, commit, name = source
    return subprocess.run(["git", "--git-dir", str(git_dir(sources, repo)), "show",
                           f"{commit}:{name}"], capture_output=True, text=True,
                          check=True).stdout


def sentences(text: str) -> list[Sentence]:
    """The sentences of a UNER file (`id token tag ...` rows under `# sent_id`, `# text`)."""
    out: list[Sentence] = []
    sent_id, words, tokens, tags = "", "", [], []  # type: ignore[var-annotated]
    for line in [*text.splitlines(), ""]:
        if line.startswith("# sent_id = "):
            sent_id = line.split("=", 1)[1].strip()
        elif line.startswith("# text = "):
            words = line.split("=", 1)[1].strip()
        elif line.startswith("#"):
            continue
        elif not line.strip():
            if tokens:
                out.append((sent_id, words, tokens, tags))
            tokens, tags = [], []
        else:
            fields = line.split("\t")
            tokens.append("_".join(fields[1].split()) or "_")
            tags.append(fields[2])
    return out


def ud_ids(conllu: str) -> dict[str, str]:
    """UD_Chinese-PUD: sentence text (spaces removed) -> PUD sentence id."""
    out, sent_id = {}, ""
    for line in conllu.splitlines():
        if line.startswith("# sent_id = "):
            sent_id = line.split("=", 1)[1].strip()
        elif line.startswith("# text = "):
            out["".join(line.split("=", 1)[1].split())] = sent_id
    return out


def in_english_order(english: list[Sentence], target: list[Sentence], lang: str,
                     ids: dict[str, str] | None = None) -> list[Sentence]:
    """The target sentences in the English order: by id, or (with `ids`, Chinese) by the
    k-th sentence of each PUD document."""
    if ids is None:
        if [s[0] for s in target] != [s[0] for s in english]:
            raise SystemExit(f"{lang}: not the English sentences in the English order")
        return target
    by_doc: dict[str, list[tuple[str, Sentence]]] = {}
    for s in target:
        pud = ids.get("".join(s[1].split()))
        if pud is None:
            raise SystemExit(f"{lang}: {s[0]} is not in UD_Chinese-PUD")
        by_doc.setdefault(document(pud), []).append((pud, s))
    out = []
    taken: Counter[str] = Counter()
    for sent_id, *_ in english:
        doc = document(sent_id)
        ranked = sorted(by_doc.get(doc, []))
        if len(ranked) != sum(document(e[0]) == doc for e in english):
            raise SystemExit(f"{lang}: document {doc} has another number of sentences")
        out.append(ranked[taken[doc]][1])
        taken[doc] += 1
    return out


def write_conll(path: Path, rows: list[Sentence], docs: list[str]) -> None:
    """`token<TAB>tag` lines, a blank line after each sentence, `-DOCSTART-` before each PUD
    document (`docs`: the document of each row, the English ids')."""
    with open(path, "w", encoding="utf-8") as f:
        for k, (_, _, tokens, tags) in enumerate(rows):
            if k == 0 or docs[k] != docs[k - 1]:
                f.write("-DOCSTART-\n\n")
            f.writelines(f"{t}\t{g}\n" for t, g in zip(tokens, tags, strict=True))
            f.write("\n")


def read_hansel(path: Path = HERE / "hansel-types.tsv") -> dict[tuple[str, str, str], str]:
    """(half, UNER type, English name) -> the entity's type as Hansel types it."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    return {(part, uner, name): hansel for part, uner, name, hansel, _ in rows}


def retyped(row: Sentence, part: str, hansel: dict[tuple[str, str, str], str],
            used: set[tuple[str, str, str]]) -> Sentence:
    """An English sentence with its entities typed as Hansel types them (`hansel-types.tsv`)."""
    tags = list(row[3])
    for a, b, kind in entity_spans(row[3]):
        key = (part, kind, " ".join(row[2][a:b + 1]))
        if key in hansel:
            used.add(key)
            tags[a:b + 1] = [f"B-{hansel[key]}"] + [f"I-{hansel[key]}"] * (b - a)
    return (row[0], row[1], row[2], tags)


def build(sources: Path, out: Path) -> dict[tuple[str, str, str], int]:
    """Write the CoNLL files; returns entities by (language, type, half)."""
    out.mkdir(parents=True, exist_ok=True)
    english = sentences(read(sources, SOURCES["eng"]))
    hansel, used = read_hansel(), set()  # type: ignore[var-annotated]
    parts = [half(document(s[0])) for s in english]
    counts: Counter[tuple[str, str, str]] = Counter()
    for lang, source in SOURCES.items():
        rows = sentences(read(sources, source))
        if len(rows) != len(english):
            raise SystemExit(f"{lang}: {len(rows)} sentences, English has {len(english)}")
        ids = ud_ids(read(sources, UD_CHINESE)) if lang == "zho-TW" else None
        rows = in_english_order(english, rows, lang, ids)
        name = "en" if lang == "eng" else lang
        for part in ("tune", "heldout"):
            chosen = [r for r, p in zip(rows, parts, strict=True) if p == part]
            docs = [document(e[0]) for e, p in zip(english, parts, strict=True) if p == part]
            write_conll(out / f"{name}-{part}.conll", chosen, docs)
            for r in chosen:
                for _, _, kind in entity_spans(r[3]):
                    counts[(lang, kind, part)] += 1
            if lang == "eng":
                write_conll(out / f"en-{part}-hansel.conll",
                            [retyped(r, part, hansel, used) for r in chosen], docs)
    if unused := set(hansel) - used:
        raise SystemExit(f"hansel-types.tsv: no such entity: {sorted(unused)[0]}")
    return dict(counts)


def read_counts(path: Path = HERE / "counts.tsv") -> dict[tuple[str, str, str], int]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    return {(lang, kind, part): int(n) for lang, kind, part, n in rows}


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "work" / "pud_types"
    counts = build(Path(sys.argv[1]), out)
    if (HERE / "counts.tsv").is_file() and read_counts() != counts:
        raise SystemExit("the entity counts differ from counts.tsv: another source?")
    if not (HERE / "counts.tsv").is_file():
        with open(HERE / "counts.tsv", "w", encoding="utf-8") as f:
            f.write("lang\ttype\thalf\tentities\n")
            f.writelines(f"{lang}\t{kind}\t{part}\t{n}\n"
                         for (lang, kind, part), n in sorted(counts.items()))
    for (lang, kind, part), n in sorted(counts.items()):
        print(lang, kind, part, n)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
