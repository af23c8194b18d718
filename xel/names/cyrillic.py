"""Cyrillic script: Russian, Ukrainian, Belarusian and Serbian decline names (`Байдена`,
`Ангелы Меркель`); Bulgarian and Macedonian do not, but spell English sounds their own way
(`Тръмп`, `Џонсон`)."""

from __future__ import annotations

from xel.names.script import Family

_EAST = ("а", "у", "ом", "е", "ым", "ой", "ы", "ю", "я", "ем", "ей", "ою", "ого", "ому", "и",
         "ым", "ів", "ові", "ом", "ою", "ій")
_SOUTH = ("а", "у", "ом", "е", "и", "ем", "ја", "ју", "јем", "ов", "ова")
SUFFIXES = {"rus": _EAST, "ukr": _EAST, "bel": _EAST, "srp": _SOUTH, "bos": _SOUTH}


class Cyrillic(Family):
    name = "cyrillic"
    suffixes = SUFFIXES
    restores = ("а", "о", "й", "ь")
