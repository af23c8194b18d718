"""Name knowledge in one place: how English names are normalized (`english`), and, one module
per script family, how names are written, inflected and transliterated in other scripts.

`family(lang)` gives the rules for a language's script; projection, triage and the baseline
ask it rather than keeping script tables of their own.
"""

from __future__ import annotations

import functools

from xel.languages import is_unspaced, language
from xel.names.arabic import Arabic
from xel.names.cyrillic import Cyrillic
from xel.names.greek import Greek
from xel.names.han import Han
from xel.names.hangul import Hangul
from xel.names.hebrew import Hebrew
from xel.names.kana import Kana
from xel.names.latin import Latin
from xel.names.script import Abjad, Family

FAMILIES: dict[str, type[Family]] = {
    "Latn": Latin, "Cyrl": Cyrillic, "Grek": Greek,
    "Arab": Arabic, "Hebr": Hebrew, "Syrc": Abjad, "Thaa": Abjad,
    "Hans": Han, "Hant": Han, "Hani": Han, "Jpan": Kana, "Kana": Kana,
    "Kore": Hangul, "Hang": Hangul,
}


@functools.cache
def family(lang: str) -> Family:
    """The name rules of a language's script (the generic ones where it has none)."""
    return FAMILIES.get(language(lang).script, Family)(lang, unspaced=is_unspaced(lang))
