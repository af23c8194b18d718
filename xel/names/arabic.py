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


# Urdu letters as English spells their sounds, for comparing by sound (`xel.names.sound`):
# `و` is v or a vowel, so both readings are tried; `ی`, `ے`, `ا`, `ع` write vowels.
URDU_LATIN = {
    "ا": "a", "آ": "a", "ب": "b", "پ": "p", "ت": "t", "ٹ": "t", "ث": "s", "ج": "j", "چ": "ch",
    "ح": "h", "خ": "kh", "د": "d", "ڈ": "d", "ذ": "z", "ر": "r", "ڑ": "r", "ز": "z", "ژ": "zh",
    "س": "s", "ش": "sh", "ص": "s", "ض": "z", "ط": "t", "ظ": "z", "ع": "a", "غ": "g", "ف": "f",
    "ق": "k", "ک": "k", "گ": "g", "ل": "l", "م": "m", "ن": "n", "ں": "n", "ہ": "h", "ھ": "",
    "ء": "", "ی": "y", "ے": "e", "ئ": "", "ۓ": "e", "أ": "a", "ي": "y", "ك": "k",
}


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

    def sound_readings(self, token: str) -> list[str]:
        """Urdu writes English names by sound, mostly without short vowels (`ٹرمپ`); Arabic's
        are left to its model."""
        if self.code != "urd":
            return []
        return list(dict.fromkeys("".join(URDU_LATIN.get(ch, "" if ch in VOWEL_LETTERS else ch)
                                          if ch != "و" else w for ch in token)
                                  for w in ("u", "v")))

    def skeleton(self, text: str) -> str:
        return "".join(ch for ch in text if ch not in VOWEL_LETTERS) or text
