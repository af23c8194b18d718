"""Rebuild the Hindi-English PUD collection and its person gold from the UD PUD treebanks.

    python corpora/pud_persons/build.py HINDI ENGLISH [OUT]

HINDI and ENGLISH are clones (or bare git directories) of github.com/UniversalDependencies/
UD_Hindi-PUD and UD_English-PUD; the treebanks are read from the pinned commits `HINDI_COMMIT`
and `ENGLISH_COMMIT` (`hi_pud-ud-test.conllu`, `en_pud-ud-test.conllu`: the same 1,000
sentences of the CoNLL 2017 shared task's Parallel Universal Dependencies, news and Wikipedia,
in the same order, CC BY-SA 3.0), so a clone at any later head works. OUT defaults to
work/pud. Written there:

- `corpus/{eng,hin}.txt`, `corpus/doc_ids.txt`: the collection `configs/pud-persons.yaml`
  reads, all 1,000 sentence pairs, a document per PUD document (`# newdoc id`), in the
  treebanks' order;
- `gold-{tune,heldout}.tsv`: `annotations.tsv` as span gold (`xel eval projection --spans`),
  split in halves by PUD document with `half` (seed `35:<document id>`).

`draw.py` drew the English mentions that `annotations.tsv` annotates (README.md).
"""

from __future__ import annotations

import csv
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from xel.evaluate import UNSCORED, span_gold_row, write_span_gold  # noqa: E402

HINDI_COMMIT = "8bc630f73e0737ce5ed9eaa97abf11f172ecc9bd"
ENGLISH_COMMIT = "f16eba4ae7f3d161870ed320676c5088b8fa476c"
HINDI_FILE = "hi_pud-ud-test.conllu"
ENGLISH_FILE = "en_pud-ud-test.conllu"
SEED = "35"


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


def pairs(hindi: Path, english: Path) -> list[tuple[str, str, str, str]]:
    """(document, sentence id, English, Hindi) of the 1,000 PUD sentences, in order."""
    hi = sentences(read(hindi, HINDI_COMMIT, HINDI_FILE))
    en = sentences(read(english, ENGLISH_COMMIT, ENGLISH_FILE))
    if [(d, s) for d, s, _ in hi] != [(d, s) for d, s, _ in en]:
        raise SystemExit("the Hindi and English treebanks do not list the same sentences")
    return [(d, s, e, h) for (d, s, h), (_, _, e) in zip(hi, en, strict=True)]


def half(doc: str) -> str:
    """The half a PUD document is in: a seeded draw per document id."""
    return "tune" if random.Random(f"{SEED}:{doc}").random() < 0.5 else "heldout"


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    rows = pairs(Path(sys.argv[1]), Path(sys.argv[2]))
    out = Path(sys.argv[3]) if len(sys.argv) > 3 else Path("work/pud")
    (out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, column in (("doc_ids.txt", 0), ("eng.txt", 2), ("hin.txt", 3)):
        (out / "corpus" / name).write_text("".join(f"{r[column]}\n" for r in rows),
                                           encoding="utf-8")
    with open(HERE / "annotations.tsv", encoding="utf-8") as f:
        notes = list(csv.DictReader(f, delimiter="\t"))
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    for n in notes:
        k, a, b = int(n["line"]), int(n["en_start"]), int(n["en_end"])
        doc, sent, en, hi = rows[k]
        if (doc, sent) != (n["doc"], n["sent_id"]) or en[a:b] != n["english"]:
            raise SystemExit(f"annotations.tsv: {n['english']!r} is not at {a}-{b} of line {k} "
                             f"({n['sent_id']})")
        gold[half(doc)].append(span_gold_row("hin", k, a, b, n["english"], n["gold"], hi))
    for part, lines in gold.items():
        write_span_gold(out / f"gold-{part}.tsv",
                        f"PUD hi-en person mentions ({part} half, PUD documents drawn with seed "
                        f"{SEED}:<document id>), from corpora/pud_persons", lines)
    counts = {p: {"named": sum(r[5] not in UNSCORED for r in g),
                  "ABSENT": sum(r[5] == "ABSENT" for r in g),
                  "NOT_PERSON": sum(r[5] == "NOT_PERSON" for r in g)} for p, g in gold.items()}
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} documents in {out}/corpus; "
          f"person mentions: {counts}")


if __name__ == "__main__":
    main()
