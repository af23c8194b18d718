"""Armenian: English names are written by sound (`Ջոնսոն`, Johnson), with the article and
case endings written onto them (`Թրամփը`, `Թրամփի`, `Ջերարդին`); `ու` is u, and w before a
vowel (`Ուիլյամ`, William)."""

from __future__ import annotations

from xel.names.script import Family

_LETTERS = {
    "ա": "a", "բ": "b", "գ": "g", "դ": "d", "ե": "e", "զ": "z", "է": "e", "ը": "e", "թ": "t",
    "ժ": "zh", "ի": "i", "լ": "l", "խ": "kh", "ծ": "ts", "կ": "k", "հ": "h", "ձ": "dz",
    "ղ": "gh", "ճ": "ch", "մ": "m", "յ": "y", "ն": "n", "շ": "sh", "ո": "o", "չ": "ch",
    "պ": "p", "ջ": "j", "ռ": "r", "ս": "s", "վ": "v", "տ": "t", "ր": "r", "ց": "ts", "ւ": "v",
    "փ": "p", "ք": "k", "օ": "o", "ֆ": "f", "և": "ev",
}
SUFFIXES: dict[str, tuple[str, ...]] = {
    "hye": ("ներին", "ներից", "ներով", "ներում", "ներ", "ին", "ից", "ով", "ում", "ի",
            "ն", "ը", "ու")}


def latin_readings(token: str) -> list[str]:
    """Latin readings of an Armenian token: `ու` as u (and as w before a vowel)."""
    text = token.casefold()
    plain = "".join(_LETTERS.get(ch, ch) for ch in text.replace("ու", "\0"))
    return list(dict.fromkeys([plain.replace("\0", "u"), plain.replace("\0", "w")]))


class Armenian(Family):
    name = "armenian"
    suffixes = SUFFIXES

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)
