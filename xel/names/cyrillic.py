"""Cyrillic script: Russian, Ukrainian, Belarusian and Serbian decline names (`Байдена`,
`Ангелы Меркель`); Bulgarian and Macedonian do not, but spell English sounds their own way
(`Тръмп`, `Џонсон`)."""

from __future__ import annotations

from xel.names.script import Family

_EAST = ("а", "у", "ом", "е", "ым", "ой", "ы", "ю", "я", "ем", "ей", "ою", "ого", "ому", "и",
         "ым", "ів", "ові", "ом", "ою", "ій")
_SOUTH = ("а", "у", "ом", "е", "и", "ем", "ја", "ју", "јем", "ов", "ова")
SUFFIXES = {"rus": _EAST, "ukr": _EAST, "bel": _EAST, "srp": _SOUTH, "bos": _SOUTH}


# Letters of other Cyrillic alphabets, as Russian writes the same sounds (the names model
# learned Russian): Bulgarian writes English `u` as `ъ` (`Тръмп`), Serbian and Macedonian `j`
# as `ј` and `dž` as `џ`, Ukrainian `i` as `і`.
TO_RUSSIAN = {
    "bul": {"ъ": "а", "щ": "шт"},
    "mkd": {"ѓ": "г", "ќ": "к", "ѕ": "дз", "ј": "й", "љ": "ль", "њ": "нь", "џ": "дж"},
    "srp": {"ђ": "дж", "ћ": "ч", "ј": "й", "љ": "ль", "њ": "нь", "џ": "дж"},
    "bos": {"ђ": "дж", "ћ": "ч", "ј": "й", "љ": "ль", "њ": "нь", "џ": "дж"},
    "ukr": {"і": "и", "ї": "йи", "є": "е", "ґ": "г", "и": "ы"},
    "bel": {"і": "и", "ў": "в"},
}


# Bulgarian letters as English spells their sounds (`Тръмп` is tramp: `ъ` is the vowel of
# `Trump`), for comparing by sound.
BULGARIAN_LATIN = dict(zip("абвгдежзийклмнопрстуфхцчшщъьюя", [
    "a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
    "t", "u", "f", "h", "ts", "ch", "sh", "sht", "a", "", "yu", "ya"], strict=True))


def to_russian(token: str, code: str) -> str:
    """A Cyrillic token of language `code` spelled with Russian letters."""
    table = TO_RUSSIAN.get(code, {})
    return "".join(table.get(ch, ch) for ch in token.casefold())


class Cyrillic(Family):
    name = "cyrillic"
    suffixes = SUFFIXES
    restores = ("а", "о", "й", "ь")

    def model_inputs(self, token: str) -> list[str]:
        return list(dict.fromkeys([token.casefold(), to_russian(token, self.code)]))

    def sound_readings(self, token: str) -> list[str]:
        """Bulgarian writes English names by sound (`Брет Кавано`); the declining languages
        are left to their model."""
        if self.code != "bul":
            return []
        return ["".join(BULGARIAN_LATIN.get(ch, ch) for ch in token.casefold())]
