"""Arabic script (Arabic, Persian, Urdu, ...): an abjad; Arabic writes one-letter conjunctions
and prepositions onto the next word (`وجاستن`, and Justin)."""

from __future__ import annotations

from xel.names.script import Family

# Letters Persian and Urdu add to the Arabic alphabet, as Arabic writes the sounds of English
# names (the names model learned Arabic): `ٹرمپ` is read as `ترمب`.
TO_ARABIC = {"ٹ": "ت", "ڈ": "د", "ڑ": "ر", "ں": "ن", "ے": "ي", "ۓ": "ي", "ی": "ي", "ک": "ك",
             "ہ": "ه", "ھ": "", "ۃ": "ة", "گ": "غ", "پ": "ب", "چ": "تش", "ژ": "ج", "ڤ": "ف"}
# Letters that write vowels (and hamza seats), and the short-vowel marks.
VOWEL_LETTERS = frozenset("اآأإوؤيىئةءۓےی\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652")


ARABIC_LANGUAGES = {"arb", "ara", "ary", "arz", "apc", "acm", "ajp", "aeb", "acq", "ars"}


class Arabic(Family):
    name = "arabic"
    abjad = True

    def __init__(self, lang: str, unspaced: bool) -> None:
        super().__init__(lang, unspaced)
        # Arabic writes one-letter conjunctions and prepositions onto the next word; Persian
        # and Urdu write theirs apart.
        self.proclitics = "وفبلك" if self.code in ARABIC_LANGUAGES else ""

    def model_inputs(self, token: str) -> list[str]:
        arabic = "".join(TO_ARABIC.get(ch, ch) for ch in token)
        return list(dict.fromkeys([token, arabic]))

    def skeleton(self, text: str) -> str:
        return "".join(ch for ch in text if ch not in VOWEL_LETTERS) or text
