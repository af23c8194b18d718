"""Georgian: English names are written by sound, one letter a sound (`ჯონსონი`), a
consonant-final name taking the nominative `-ი` (`ტრამპი`, Trump) and case endings written
onto it (`ტრამპმა`, `ტრამპის`, `ჰოლტის`); `ფ` writes both p and f (`ფორდი`, Ford)."""

from __future__ import annotations

from xel.names.script import Family

_LETTERS = dict(zip(
    "აბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰ",
    ["a", "b", "g", "d", "e", "v", "z", "t", "i", "k", "l", "m", "n", "o", "p", "zh", "r",
     "s", "t", "u", "f", "k", "gh", "k", "sh", "ch", "ts", "dz", "ts", "ch", "kh", "j", "h"],
    strict=True))
# Case endings, then the nominative `-ი` of consonant-final names (taken off last).
SUFFIXES: dict[str, tuple[str, ...]] = {
    "kat": ("ისთვის", "სთვის", "ისგან", "იდან", "ისა", "ით", "ად", "ზე", "ში", "თან",
            "ებმა", "ების", "ებს", "ის", "მა", "ს", "მ", "ო", "ი")}


def latin_readings(token: str) -> list[str]:
    """Latin readings of a Georgian token: letter for letter, then `ფ` as p."""
    letters = [_LETTERS.get(ch, ch) for ch in token.casefold()]
    text = "".join(letters)
    return list(dict.fromkeys([text, "".join("p" if ch == "ფ" else r
                                             for ch, r in zip(token, letters, strict=True))]))


class Georgian(Family):
    name = "georgian"
    suffixes = SUFFIXES

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)
