"""Rebuild the Kyoto collection and its span gold from a copy of the NICT Kyoto corpus.

    python corpora/kyoto_persons/build.py SOURCE [OUT]

SOURCE is a clone (or bare git directory) of github.com/venali/BilingualCorpus, which holds
the Japanese-English Bilingual Corpus of Wikipedia's Kyoto Articles 2.01 (NICT, CC BY-SA 3.0);
OUT defaults to work/kyoto. Written there: `corpus/{eng,jpn}.txt` and `corpus/doc_ids.txt`
(the collection `configs/kyoto-persons.yaml` reads: the annotated articles whole, then the
held-out sets' articles whole, then other person, history and imperial-family
articles in a seeded order, up to 3,000 sentence pairs), `learn/{eng,jpn}.txt` (sentence
pairs of other articles of every category, in a seeded order, up to 100,000, which the
aligner learns from: `align.learn_from`), `gold-tune.tsv`, `gold-heldout.tsv`:
`annotations.tsv` as span gold (`xel eval projection --spans`), split in halves by article,
and `gold-fresh.tsv`, `gold-third.tsv` to `gold-eighth.tsv`: the held-out sets
`annotations-<set>.tsv`.

The English is the corpus's final checked translation with surnames recased (`Hideyoshi
TOYOTOMI` -> `Hideyoshi Toyotomi`), as English news writes them.
"""

from __future__ import annotations

import csv
import html
import random
import re
import subprocess
import sys
from pathlib import Path

from xel.evaluate import UNSCORED, span_gold_row, write_span_gold

HERE = Path(__file__).parent
MAX_PAIRS = 3000
LEARN_PAIRS = 100_000
CATEGORIES = ("PNM", "HST", "EPR")
# Sets annotated later, all held out, each scored once (README.md): annotations-<part>.tsv.
HELD_OUT = ("fresh", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


class Source:
    """The corpus's XML files, from a work tree or straight from a git directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = (path / "wiki_corpus_2.01").is_dir()

    def categories(self) -> list[str]:
        if self.tree:
            return sorted(p.name for p in (self.path / "wiki_corpus_2.01").iterdir() if p.is_dir())
        out = subprocess.run(["git", "--git-dir", str(self.path), "ls-tree", "--name-only",
                              "HEAD", "wiki_corpus_2.01/"],
                             capture_output=True, text=True, check=True).stdout
        return sorted(Path(line).name for line in out.split())

    def names(self, category: str) -> list[str]:
        if self.tree:
            return sorted(p.stem for p in (self.path / "wiki_corpus_2.01" / category).glob("*.xml"))
        out = subprocess.run(["git", "--git-dir", str(self.path), "ls-tree", "--name-only",
                              "HEAD", f"wiki_corpus_2.01/{category}/"],
                             capture_output=True, text=True, check=True).stdout
        return sorted(Path(line).stem for line in out.split())

    def read(self, doc: str) -> str:
        rel = f"wiki_corpus_2.01/{doc[:3]}/{doc}.xml"
        if self.tree:
            return (self.path / rel).read_text(encoding="utf-8")
        return subprocess.run(["git", "--git-dir", str(self.path), "show", f"HEAD:{rel}"],
                              capture_output=True, text=True, check=True).stdout


def recase(text: str) -> str:
    """Upper-case surnames as names (`ODA` -> `Oda`); Roman numerals stay."""
    def one(m: re.Match[str]) -> str:
        word = m.group(1)
        return word if re.fullmatch(r"[IVXLC]+", word) else word.capitalize()
    return re.sub(r"\b([A-Z][A-Z'\-]+)\b", one, text)


def sentences(xml: str) -> list[tuple[int, str, str]]:
    """(sentence id, English, Japanese) of an article, where both are one line."""
    out = []
    for sid, body in re.findall(r'<sen id="(\d+)">(.*?)</sen>', xml, re.S):
        ja = re.search(r"<j>(.*?)</j>", body, re.S)
        en = re.search(r'<e type="check" ver="1">(.*?)</e>', body, re.S)
        if not ja or not en or not en.group(1).strip():
            continue
        j, e = html.unescape(ja.group(1)).strip(), html.unescape(en.group(1)).strip()
        if "\n" in j + e or "\t" in j + e or len(j) > 200:
            continue
        out.append((int(sid), recase(e), j))
    return out




def read_notes(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def half(doc: str) -> str:
    return "tune" if random.Random(f"2015:{doc}").random() < 0.5 else "heldout"


def learn_docs(source: Source, taken: set[str]) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Articles outside the collection (`taken`) and their sentences, in a seeded order, up to
    LEARN_PAIRS pairs: what the aligner learns from besides the collection."""
    docs = [d for c in source.categories() for d in source.names(c) if d not in taken]
    random.Random(2026).shuffle(docs)
    out, n = [], 0
    for doc in docs:
        if n >= LEARN_PAIRS:
            break
        out.append((doc, sentences(source.read(doc))))
        n += len(out[-1][1])
    return out


def write_learn(source: Source, folder: Path, taken: set[str]) -> None:
    """Sentence pairs of articles outside the collection, for the aligner only."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "eng.txt", "w", encoding="utf-8") as fe, \
            open(folder / "jpn.txt", "w", encoding="utf-8") as fj:
        for _, pairs in learn_docs(source, taken):
            for _, en, ja in pairs:
                fe.write(en + "\n")
                fj.write(ja + "\n")


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    source = Source(Path(sys.argv[1]))
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("work/kyoto")
    notes = read_notes(HERE / "annotations.tsv")
    held_out = {part: read_notes(HERE / f"annotations-{part}.tsv") for part in HELD_OUT}
    annotated = list(dict.fromkeys(n["doc"] for n in notes))
    others = [d for c in CATEGORIES for d in source.names(c) if d not in annotated]
    random.Random(2016).shuffle(others)
    # The held-out sets' articles follow the annotated ones, in the order the sets were made;
    # the others keep their order.
    for part in HELD_OUT:
        annotated += [d for d in dict.fromkeys(n["doc"] for n in held_out[part])
                      if d not in annotated]
    others = [d for d in others if d not in annotated]
    rows: list[tuple[str, int, str, str]] = []
    for doc in annotated + others:
        if len(rows) >= MAX_PAIRS and doc not in annotated:
            break
        rows += [(doc, sid, en, ja) for sid, en, ja in sentences(source.read(doc))]
    (out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, column in (("eng.txt", 2), ("jpn.txt", 3), ("doc_ids.txt", 0)):
        (out / "corpus" / name).write_text("".join(f"{r[column]}\n" for r in rows),
                                           encoding="utf-8")
    write_learn(source, out / "learn", {r[0] for r in rows})
    seg = {(r[0], r[1]): k for k, r in enumerate(rows)}
    gold: dict[str, list[list[str]]] = {p: [] for p in ("tune", "heldout", *HELD_OUT)}
    for part, n in ([(half(n["doc"]), n) for n in notes]
                    + [(p, n) for p in HELD_OUT for n in held_out[p]]):
        k = seg[(n["doc"], int(n["sen"]))]
        en, ja = rows[k][2], rows[k][3]
        a, b = int(n["en_start"]), int(n["en_end"])
        if en[a:b] != n["english"]:
            raise SystemExit(f"annotations.tsv: {n['english']!r} is not at {a}-{b} of {en!r}")
        gold[part].append(span_gold_row("jpn", k, a, b, n["english"], n["gold"], ja))
    for part, lines in gold.items():
        what = f"{part} held-out set" if part in HELD_OUT else f"{part} half"
        write_span_gold(out / f"gold-{part}.tsv",
                        f"Kyoto person mentions ({what}), from corpora/kyoto_persons", lines)
    scored = {p: sum(r[5] not in UNSCORED for r in g) for p, g in gold.items()}
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} articles in {out}/corpus; "
          f"person mentions with a name: {scored}")


if __name__ == "__main__":
    main()
