"""Rebuild WMT22's German- and Russian-original test sets as parallel corpora, to read typed
projections on text from another source than NTREX and PUD (no gold: read by hand).

    python corpora/wmt22_types/build.py SOURCE [OUT]

SOURCE is a clone (or bare git directory) of github.com/wmt-conference/wmt22-news-systems.
Russian: `xml/wmttest2022.ru-en.xml` at the release commit that `corpora/wmt22_persons`
reads, its news documents with reference A, in the same seeded order. German: the XML is not
in every copy (it is large), so `txt/sources/generaltest2022.de-en.src.de` and
`txt/references/generaltest2022.de-en.ref.A.en` at the repository's head, which carry no
document ids: every ten lines are a document (`de0000`, ...). OUT defaults to work; written
there: `wmt22ru/corpus/{eng,rus,doc_ids}.txt` and `wmt22de/corpus/{eng,deu,doc_ids}.txt`.
A document's half is `corpora/wmt22_persons/build.py`'s draw (`half`).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "wmt22_persons"))
import build as persons  # noqa: E402  (the release, the XML reader and the halves)

GERMAN_DOCUMENT = 10  # lines per pseudo-document of the German text


def show(source: Path, rev: str, path: str) -> str:
    git = source / ".git" if (source / ".git").exists() else source
    return subprocess.run(["git", "--git-dir", str(git), "show", f"{rev}:{path}"],
                          capture_output=True, text=True, check=True).stdout


def write(out: Path, lang: str, rows: list[tuple[str, str, str]]) -> None:
    (out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, column in (("eng.txt", 1), (f"{lang}.txt", 2), ("doc_ids.txt", 0)):
        (out / "corpus" / name).write_text("".join(f"{r[column]}\n" for r in rows),
                                           encoding="utf-8")
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} documents in {out}/corpus")


def russian(source: Path) -> list[tuple[str, str, str]]:
    docs = persons.documents(show(source, persons.RELEASE, "xml/wmttest2022.ru-en.xml"))
    news = sorted(d for d in docs if persons.is_news(d))
    random.Random(2015).shuffle(news)
    return [(doc, en, ru) for doc in news for en, ru in docs[doc]]


def german(source: Path) -> list[tuple[str, str, str]]:
    de = show(source, "HEAD", "txt/sources/generaltest2022.de-en.src.de").splitlines()
    en = show(source, "HEAD", "txt/references/generaltest2022.de-en.ref.A.en").splitlines()
    if len(de) != len(en):
        raise SystemExit(f"de-en: {len(de)} German lines but {len(en)} English ones")
    pairs = enumerate(zip(en, de, strict=True))
    return [(f"de{k // GERMAN_DOCUMENT:04d}", e, d) for k, (e, d) in pairs]


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    source = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("work")
    write(out / "wmt22ru", "rus", russian(source))
    write(out / "wmt22de", "deu", german(source))


if __name__ == "__main__":
    main()
