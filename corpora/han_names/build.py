"""Rebuild en-zh.* and en-ja.* from names.txt: tokenize, and turn each name-part map into links.

Run from anywhere: `python corpora/han_names/build.py` (needs the `regex` package xel uses).
Every map entry `English=Chinese|Japanese` links one English token to the target characters it
names; `#k` picks the k-th occurrence, and an empty side means the translation does not write
that part. An entry that is ambiguous or does not fall on token boundaries is an error.
"""

from __future__ import annotations

from pathlib import Path

import regex

HERE = Path(__file__).parent
EN_TOKEN = regex.compile(r"'s\b|\d+(?:[.,]\d+)*|[A-Za-z]+(?:-[A-Za-z]+)*|\S")
# Every Han or kana character is a token (and the long-vowel mark); Latin words and numbers
# stay whole; anything else (punctuation) is one token per character.
CJK_TOKEN = regex.compile(
    r"\p{Han}|\p{Hiragana}|\p{Katakana}|ー|\d+(?:[.,]\d+)*|[A-Za-z]+(?:['-][A-Za-z]+)*|\S")
Token = tuple[str, int, int]


def tokens(pattern: regex.Pattern[str], text: str) -> list[Token]:
    return [(m.group(), m.start(), m.end()) for m in pattern.finditer(text)]


def ref(text: str) -> tuple[str, int | None]:
    """`金#2` -> ("金", 2); no `#` -> (text, None)."""
    word, _, k = text.partition("#")
    return word, int(k) if k else None


def english_index(en: list[Token], entry: str, n: int) -> int:
    word, k = ref(entry)
    hits = [i for i, t in enumerate(en) if t[0] == word]
    if not hits or (k is None and len(hits) > 1) or len(hits) < (k or 1):
        raise SystemExit(f"names.txt sentence {n}: English {word!r} is missing or ambiguous "
                         f"({len(hits)} occurrences): add #k")
    return hits[(k or 1) - 1]


def target_indexes(text: str, tg: list[Token], entry: str, n: int) -> list[int]:
    sub, k = ref(entry)
    starts = [m.start() for m in regex.finditer(regex.escape(sub), text, overlapped=True)]
    if not starts or (k is None and len(starts) > 1) or len(starts) < (k or 1):
        raise SystemExit(f"names.txt sentence {n}: {sub!r} is missing or ambiguous in {text!r} "
                         f"({len(starts)} occurrences): add #k")
    a = starts[(k or 1) - 1]
    b = a + len(sub)
    js = [j for j, t in enumerate(tg) if t[1] >= a and t[2] <= b]
    if "".join(tg[j][0] for j in js) != sub:
        raise SystemExit(f"names.txt sentence {n}: {sub!r} does not fall on token boundaries")
    return js


def build(items: list[dict[str, str]], side: str) -> tuple[list[str], list[str]]:
    pairs, golds = [], []
    for n, item in enumerate(items, start=1):
        en, text = tokens(EN_TOKEN, item["EN"]), item[side]
        tg = tokens(CJK_TOKEN, text)
        links: set[tuple[int, int]] = set()
        for entry in item["L"].split(";"):
            english, _, targets = entry.strip().partition("=")
            zh, ja = targets.split("|")
            target = zh if side == "ZH" else ja
            if not target:
                continue
            i = english_index(en, english, n)
            links |= {(i + 1, j + 1) for j in target_indexes(text, tg, target, n)}
        pairs.append(" ".join(t[0] for t in en) + " ||| " + " ".join(t[0] for t in tg))
        golds.append(" ".join(f"{i}-{j}" for i, j in sorted(links)))
    return pairs, golds


def main() -> None:
    blocks = (HERE / "names.txt").read_text(encoding="utf-8").strip().split("\n\n")
    items = [dict(line.split(": ", 1) for line in block.splitlines()) for block in blocks]
    for side, code in (("ZH", "zh"), ("JA", "ja")):
        pairs, golds = build(items, side)
        (HERE / f"en-{code}.src-tgt").write_text("\n".join(pairs) + "\n", encoding="utf-8")
        (HERE / f"en-{code}.gold").write_text("\n".join(golds) + "\n", encoding="utf-8")
    print(f"{len(items)} sentences written to {HERE}")


if __name__ == "__main__":
    main()
