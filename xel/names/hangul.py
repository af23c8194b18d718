"""Korean (Hangul): case particles are written onto the last word of a name (`트럼프는`,
Trump + topic), so a span leaves them out."""

from __future__ import annotations

from collections.abc import Callable

from xel.names.script import Family, to_latin


class Hangul(Family):
    name = "hangul"
    syllabic = True
    enclitics = ("에게서", "에게", "에서", "으로", "께서", "이랑", "이나", "은", "는", "이", "가",
                 "을", "를", "의", "와", "과", "도", "에", "로", "만", "랑", "나")

    def readings(self, piece: str) -> list[tuple[str, Callable[[str], str]]]:
        """Korean names are romanized many ways (Kim, Gim): compared on one key."""
        return [(korean_key(to_latin(piece)), korean_key)]


# What the many romanizations of Korean write differently (Kim/Gim, Park/Bak, Lee/I,
# Jong/Jeong, Moon/Mun, Un/Eun, Suk/Seok): folded to one key, so a name and a reading compare.
_KOREAN_FOLDS = (("eo", "o"), ("eu", "u"), ("ee", "i"), ("oo", "u"), ("ae", "e"), ("ai", "e"),
                 ("wo", "o"), ("ch", "j"), ("sh", "s"), ("ck", "g"), ("k", "g"), ("t", "d"),
                 ("p", "b"), ("r", "l"), ("u", "o"), ("'", ""), ("-", ""))


def korean_key(romanized: str) -> str:
    """One spelling for the romanizations of a Korean syllable sequence (`jeong-eun`, `jong un`
    both give `jongon`)."""
    key = romanized.casefold().replace(" ", "")
    for old, new in _KOREAN_FOLDS:
        key = key.replace(old, new)
    return key
