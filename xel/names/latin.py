"""Latin script: names keep their English spelling in most languages, but many languages write
case endings onto them (Finnish `Trumpin`, Czech `Bretta Kavanaugha`, Croatian `Donalda
Trumpa`, German `Trumps`), and Turkish adds them after an apostrophe (`Trump'ın`)."""

from __future__ import annotations

import regex

from xel.names.script import Family, transliterator

_SLAVIC = ("a", "u", "e", "i", "y", "om", "em", "ou", "ov", "ova", "ovi", "owi", "ja", "ju",
           "ji", "jem", "ho", "mu", "m")
# Endings per language: case endings, and the genitive `s` of Germanic languages.
SUFFIXES = {
    "fin": ("n", "in", "a", "ä", "ia", "iä", "ta", "tä", "na", "nä", "ssa", "ssä", "sta", "stä",
            "lla", "llä", "lta", "ltä", "lle", "ksi", "iin", "hin", "ille", "illa", "illä",
            "ilta", "iltä", "issa", "issä", "ista", "istä", "iksi", "ina", "inä", "ineen", "ien",
            "iä", "ya", "yä", "ssä", "tta"),
    "est": ("i", "ile", "iga", "is", "ist", "iks", "il", "ilt", "ga", "le", "s", "st", "ks", "l",
            "lt", "d", "t"),
    "hun": ("t", "ot", "et", "öt", "nak", "nek", "val", "vel", "al", "el", "ról", "ről", "ra",
            "re", "ba", "be", "ban", "ben", "ből", "ból", "nál", "nél", "hoz", "hez", "höz",
            "tól", "től", "ért", "ig", "ként", "on", "en", "ön", "n"),
    "ces": (*_SLAVIC, "ová", "ové", "ovou", "é", "ovu", "ovým", "ovi"),
    "slk": (*_SLAVIC, "ová", "ovej", "ovú", "ovou", "ovi", "ovým"),
    "pol": (*_SLAVIC, "ie", "ego", "emu", "ą", "ę", "owa", "owej", "ową"),
    "slv": _SLAVIC,
    "hrv": _SLAVIC,
    "bos": _SLAVIC,
    "srp": _SLAVIC,
    "lit": ("as", "is", "ys", "us", "o", "ui", "ą", "u", "e", "ai", "ės", "ei", "ę", "a", "ą",
            "ui", "o"),
    "lav": ("s", "a", "am", "u", "ā", "i", "e", "as", "ei", "ai", "am", "ai", "ā"),
    "sqi": ("i", "it", "in", "ë", "s", "n", "t", "a", "ës", "ën", "së", "ut", "un", "u"),
    "eus": ("ek", "en", "i", "ekin", "entzat", "ri", "ari", "ak", "a", "ren", "rekin"),
    "isl": ("s", "i", "ar", "ur", "a", "u"),
    "ron": ("ei", "ului", "ul", "lui"),
    "deu": ("s",), "nld": ("s",), "dan": ("s",), "swe": ("s",), "nob": ("s",), "nno": ("s",),
    "afr": ("s",),
}
# A Turkic ending, or a genitive, after an apostrophe (`Trump'ın`, `Pence's`): the name is
# what precedes it.
_APOSTROPHE_ENDING = regex.compile(r"^(.+?)['’:]\p{L}{1,5}$")


# Serbian in Latin letters spells English names by sound, as its Cyrillic does (`Džonson`,
# `Tramp`): read with the Cyrillic names model, in Russian letters.
_SERBIAN = (("dž", "дж"), ("lj", "ль"), ("nj", "нь"), ("đ", "дж"), ("ć", "ч"), ("č", "ч"),
            ("š", "ш"), ("ž", "ж"), ("j", "й"), ("c", "ц"), ("h", "х"))
SPELL_BY_SOUND = {"srp", "bos", "mkd"}


def serbian_cyrillic(token: str) -> str:
    """A Serbian Latin token in Russian Cyrillic letters (`Džonson`: `джонсон`)."""
    text = token.casefold()
    for latin, cyrillic in _SERBIAN:
        text = text.replace(latin, cyrillic)
    return transliterator("Latin-Cyrillic").transliterate(text)


class Latin(Family):
    name = "latin"
    suffixes = SUFFIXES
    restores = ("a", "o", "e")

    @property
    def model_key(self) -> str | None:
        """Serbian respells English names (`Tramp`): the Cyrillic model reads them; other
        languages keep the English spelling."""
        return "russian" if self.code in SPELL_BY_SOUND else None

    @property
    def reads_latin(self) -> bool:
        return self.model_key is not None

    def model_inputs(self, token: str) -> list[str]:
        return [serbian_cyrillic(token)] if self.reads_latin else [token]

    def base_forms(self, word: str) -> list[str]:
        forms = super().base_forms(word)
        m = _APOSTROPHE_ENDING.match(word)
        if m:
            forms = [word, *super().base_forms(m.group(1))]
        if self.code == "hun":  # `Trumppal`: the instrumental doubles the last consonant
            forms += [f[:-1] for f in forms if len(f) > 3 and f[-1] == f[-2] and f[-1].isalpha()]
        return list(dict.fromkeys(forms))
