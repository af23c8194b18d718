"""Rebuild the NIST 2002 Chinese-English collection and its gold from DeNero's release.

    python corpora/nist_persons/build.py SOURCE [OUT]

SOURCE is a clone (or bare git directory) of github.com/papajohn/zh_en_word_alignment_data
(MIT licence): 150 sentences of the NIST 2002 MT evaluation set (Xinhua and Singapore news),
hand-aligned by DeNero and Macherey (ACL 2011), tokenized. OUT defaults to work/nist.
Written there:

- `corpus/{eng,zho-CN}.txt`, `corpus/doc_ids.txt`: the collection `configs/nist-persons.yaml`
  reads, detokenized (Chinese without spaces, English with its brackets and quotes back), a
  document per news item (a new one starts at each headline);
- `gold-{tune,heldout}.tsv`: `annotations.tsv` as span gold (`xel eval projection --spans`);
- `align-{tune,heldout}.{src-tgt,gold}`: the tokenized sentences (`Chinese ||| English`) and
  their gold links (0-based, `i-j` sure, `ipj` possible) for `--sentences/--links --english
  tgt --base 0`, which also reports the aligner's AER.

Halves are whole documents, split by a seeded draw.
"""

from __future__ import annotations

import csv
import random
import re
import subprocess
import sys
from pathlib import Path

from xel.evaluate import UNSCORED, span_gold_row, write_span_gold

HERE = Path(__file__).parent


def read(source: Path, name: str) -> list[str]:
    path = source / "zh_en_data" / name
    if path.is_file():
        return path.read_text(encoding="utf-8").splitlines()
    return subprocess.run(["git", "--git-dir", str(source), "show", f"HEAD:zh_en_data/{name}"],
                          capture_output=True, text=True, check=True).stdout.splitlines()


def detok_en(s: str) -> str:
    for a, b in (("-LRB-", "("), ("-RRB-", ")"), ("-LSB-", "["), ("-RSB-", "]"), ("``", '"'),
                 ("''", '"')):
        s = s.replace(a, b)
    s = re.sub(r" ([,.;:!?%)\]])", r"\1", s)
    s = re.sub(r"([(\[$]) ", r"\1", s)
    s = re.sub(r" (n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", s)
    return re.sub(r'" (.*?) "', r'"\1"', s)


def detok_zh(s: str) -> str:
    tokens = s.split()
    out = tokens[0] if tokens else ""
    for a, b in zip(tokens, tokens[1:], strict=False):
        out += (" " if re.search(r"[A-Za-z0-9]$", a) and re.match(r"[A-Za-z0-9]", b) else "") + b
    return out


def documents(english: list[str]) -> list[str]:
    """A headline (short, no final punctuation) starts a document."""
    doc, out = 0, []
    for k, s in enumerate(english):
        if k and not s.rstrip().endswith((".", '"', "''", "?", "!")) and len(s.split()) < 16:
            doc += 1
        out.append(f"nist02-{doc:02d}")
    return out


def links(line: str) -> str:
    """DeNero's `zh-en` and `zh-en-P` as Pharaoh `i-j` and `ipj`."""
    out = []
    for link in line.split():
        i, j, *possible = link.split("-")
        out.append(f"{i}p{j}" if possible else f"{i}-{j}")
    return " ".join(out)


def half(doc: str) -> str:
    return "tune" if random.Random(f"2015:{doc}").random() < 0.5 else "heldout"




def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    source = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("work/nist")
    en_tok, zh_tok, align = read(source, "train.en"), read(source, "train.zh"), \
        read(source, "train.align")
    english, chinese = [detok_en(s) for s in en_tok], [detok_zh(s) for s in zh_tok]
    docs = documents(en_tok)
    (out / "corpus").mkdir(parents=True, exist_ok=True)
    for name, lines in (("eng.txt", english), ("zho-CN.txt", chinese), ("doc_ids.txt", docs)):
        (out / "corpus" / name).write_text("".join(f"{s}\n" for s in lines), encoding="utf-8")
    with open(HERE / "annotations.tsv", encoding="utf-8") as f:
        notes = list(csv.DictReader(f, delimiter="\t"))
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    for n in notes:
        k, a, b = int(n["line"]), int(n["en_start"]), int(n["en_end"])
        if english[k][a:b] != n["english"]:
            raise SystemExit(f"annotations.tsv: {n['english']!r} is not at {a}-{b} of line {k}")
        gold[half(docs[k])].append(
            span_gold_row("zho-CN", k, a, b, n["english"], n["gold"], chinese[k]))
    for part in ("tune", "heldout"):
        write_span_gold(out / f"gold-{part}.tsv",
                        f"NIST 2002 person mentions ({part} half), from corpora/nist_persons",
                        gold[part])
        keep = [k for k in range(len(docs)) if half(docs[k]) == part]
        (out / f"align-{part}.src-tgt").write_text(
            "".join(f"{zh_tok[k]} ||| {en_tok[k]}\n" for k in keep), encoding="utf-8")
        (out / f"align-{part}.gold").write_text(
            "".join(f"{links(align[k])}\n" for k in keep), encoding="utf-8")
    scored = {p: sum(r[5] not in UNSCORED for r in g) for p, g in gold.items()}
    print(f"{len(english)} sentence pairs, {len(set(docs))} documents in {out}/corpus; person "
          f"mentions with a name: {scored}")


if __name__ == "__main__":
    main()
