"""Whether a Chinese transliteration reads, in Mandarin, as an English name.

Chinese writes a foreign name one syllable per sound group of the English: `湯瑪斯` (tang ma
si) for Thomas, `科爾賓` (ke er bin) for Corbyn, `派崔克` (pai cui ke) for Patrick. Each
syllable's initial consonant stands for an English consonant, in order; a final `n`/`ng` may
stand for a nasal or for nothing (`湯` for Tho-); English consonants Chinese has no syllable
for may go unwritten, but only the weak ones (`r`, `l`, `h`, `w`, `y`) and at most one other
(`Jordan`, `喬丹`, loses its `r`; `Lindsey`, `林賽`, its `d`). Every syllable must stand for
something, so a name with a character too many (`卡瓦諾一`) does not read as Kavanaugh.

Readings come from ICU's Han-Latin (pinyin). This checks a projection against the name it
was aligned to; it never searches for a name.
"""

from __future__ import annotations

import functools
import re

from xel.names.script import transliterator

# Consonant classes shared by both sides: labial stops, dental stops, velars, affricates,
# sibilants, f, liquids, m, n, w/v.
_PINYIN_INITIALS = [("zh", "C"), ("ch", "C"), ("sh", "S"), ("b", "P"), ("p", "P"), ("d", "T"),
                    ("t", "T"), ("g", "K"), ("k", "K"), ("h", "K"), ("j", "C"), ("q", "C"),
                    ("x", "S"), ("z", "C"), ("c", "C"), ("s", "S"), ("f", "F"), ("l", "L"),
                    ("r", "L"), ("m", "M"), ("n", "N"), ("w", "W"), ("y", "")]
_ENGLISH = [(r"tch", "C"), (r"ch", "C"), (r"sh", "S"), (r"th", "T"), (r"ph", "F"), (r"gh", ""),
            (r"ck", "K"), (r"c(?=[eiy])", "S"), (r"g(?=[eiy])", "C"), (r"x", "KS"),
            (r"[bp]", "P"), (r"[dt]", "T"), (r"[cgkq]", "K"), (r"j", "C"), (r"[sz]", "S"),
            (r"[fv]", "F"), (r"[lr]", "L"), (r"m", "M"), (r"n", "N"), (r"w", "W"), (r"h", "H"),
            (r"y", ""), (r"[aeiou]", "")]
_WEAK = set("LHW")  # English consonants a transliteration may leave out freely
_SAME = {("W", "F"), ("F", "W"), ("N", "M"), ("M", "N"), ("K", "H"), ("K", "W"), ("S", "C"),
         ("C", "S"), ("S", "T"), ("C", "T")}  # (Chinese, English): `華` hua for Wa-


@functools.lru_cache(maxsize=65536)
def syllables(piece: str) -> tuple[tuple[str, bool], ...]:
    """Per syllable of a Han piece: its initial's class ('' for none) and whether it ends in
    a nasal; () when the piece is not all Han characters."""
    if not piece or not all("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"
                             for ch in piece):
        return ()
    latin = transliterator("Han-Latin; Latin-ASCII; Lower").transliterate(piece)
    out = []
    for syllable in latin.split():
        if not syllable.isalpha():
            return ()
        if syllable == "er":  # 爾, 兒: the English r
            out.append(("L", False))
            continue
        initial = next((c for p, c in _PINYIN_INITIALS if syllable.startswith(p)), "")
        out.append((initial, syllable.endswith(("n", "ng"))))
    return tuple(out) if len(out) == len(piece) else ()


@functools.lru_cache(maxsize=65536)
def consonants(token: str) -> str:
    """An English token's consonant classes in order (`Patrick`: PTLK)."""
    text, out, k = token.lower(), [], 0
    while k < len(text):
        for pattern, cls in _ENGLISH:
            m = re.compile(pattern).match(text, k)
            if m:
                out.append(cls)
                k = m.end()
                break
        else:
            k += 1
    classes = "".join(out)
    return re.sub(r"(.)\1+", r"\1", classes)


def vowel_groups(token: str) -> int:
    """The English token's syllables, roughly: its vowel groups, a silent final `e` aside
    (`Reeher` has two, so one character, `裡`, cannot write it)."""
    text = re.sub(r"(?<=[^aeiouy])e$", "", token.lower())
    return len(re.findall(r"[aeiouy]+", text))


def reads_as(piece: str, token: str) -> bool:
    """True when the Chinese piece's syllables stand, in order, for the English token's
    consonants (see the module docstring)."""
    sounds = syllables(piece)
    english = consonants(token)
    if not sounds or len(english) < 2 or len(sounds) < vowel_groups(token):
        return False

    @functools.cache
    def match(i: int, j: int, dropped: int) -> bool:
        if i == len(sounds):
            return all(c in _WEAK for c in english[j:])
        initial, nasal = sounds[i]
        options = []
        # A vowel syllable stands for a vowel; last, only for a name ending in one.
        if not initial and (i + 1 < len(sounds) or token.lower().endswith(tuple("aeiouy"))):
            options.append((i + 1, j, dropped))
        if not initial and nasal and j < len(english) and english[j] in "NM":
            options.append((i + 1, j + 1, dropped))  # `安` an for -anne
        for k in range(j, len(english)):
            skipped = english[j:k]
            extra = dropped + sum(c not in _WEAK for c in skipped)
            if extra > 1 or (j == 0 and skipped and skipped[0] not in _WEAK):
                break  # at most one strong consonant unwritten, never the first
            c = english[k]
            if initial and (c == initial or (initial, c) in _SAME or (
                    initial == "C" and english[k:k + 2] in ("TL", "KL"))):
                after = k + (2 if initial == "C" and english[k:k + 2] in ("TL", "KL") else 1)
                options.append((i + 1, after, extra))
                if nasal and after < len(english) and english[after] in "NM":
                    options.append((i + 1, after + 1, extra))
        return any(match(*o) for o in options)

    return match(0, 0, 0)
