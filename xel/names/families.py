"""The registry of script families: which `Family` holds the name rules of a language's script.

Projection, triage, translation and the baseline ask `family(lang)` rather than keeping script
tables of their own; a new script family is one module and one line here.
"""

from __future__ import annotations

import functools

from xel.languages import is_unspaced, language
from xel.names.arabic import Arabic
from xel.names.armenian import Armenian
from xel.names.cyrillic import Cyrillic
from xel.names.ethiopic import Ethiopic
from xel.names.georgian import Georgian
from xel.names.greek import Greek
from xel.names.han import Han
from xel.names.hangul import Hangul
from xel.names.hebrew import Hebrew
from xel.names.indic import Indic
from xel.names.japanese import Japanese
from xel.names.latin import Latin
from xel.names.myanmar import Myanmar
from xel.names.script import Abjad, Family
from xel.names.southeast_asian import SoutheastAsian
from xel.names.thaana import Thaana
from xel.names.tibetan import Tibetan
from xel.names.tifinagh import Tifinagh

FAMILIES: dict[str, type[Family]] = {
    "Latn": Latin, "Cyrl": Cyrillic, "Grek": Greek,
    "Arab": Arabic, "Hebr": Hebrew, "Syrc": Abjad, "Thaa": Thaana,
    "Hans": Han, "Hant": Han, "Hani": Han, "Jpan": Japanese, "Kana": Japanese,
    "Kore": Hangul, "Hang": Hangul,
    **dict.fromkeys(("Deva", "Beng", "Gujr", "Guru", "Orya", "Taml", "Telu", "Knda", "Mlym",
                     "Sinh"), Indic),
    "Geor": Georgian, "Armn": Armenian, "Ethi": Ethiopic, "Tfng": Tifinagh, "Mymr": Myanmar,
    "Thai": SoutheastAsian, "Laoo": SoutheastAsian, "Khmr": SoutheastAsian, "Tibt": Tibetan,
}


@functools.cache
def family(lang: str) -> Family:
    """The name rules of a language's script (the generic ones where it has none)."""
    return FAMILIES.get(language(lang).script, Family)(lang, unspaced=is_unspaced(lang))
