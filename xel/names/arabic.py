"""Arabic script (Arabic, Persian, Urdu, Kurdish, Uyghur, ...): an abjad; Arabic writes
one-letter conjunctions and prepositions onto the next word (`وجاستن`, and Justin); Central
Kurdish and Uyghur write every vowel and case endings onto names (`فۆردەوە`, `ترامپنىڭ`)."""

from __future__ import annotations

import itertools

from xel.names.script import Family, harmony

# Letters other languages add to the Arabic alphabet, as Arabic writes the sounds of English
# names (the names model learned Arabic): Urdu `ٹرمپ` is read as `ترمب`; Kurdish `ۆ`, `ێ`,
# `ڵ`, `ڕ`; Uyghur `ۇ`, `ۆ`, `ۈ`, `ې`, `ى`, `ۋ`, `ڭ`; Sindhi `ڪ`, `ٽ`, `ڊ`; Pashto `ټ`, `ډ`,
# `ګ`. Kurdish `ە` and Uyghur `ە` write a short vowel, which Arabic leaves unwritten.
TO_ARABIC = {"ٹ": "ت", "ڈ": "د", "ڑ": "ر", "ں": "ن", "ے": "ي", "ۓ": "ي", "ی": "ي", "ک": "ك",
             "ہ": "ه", "ھ": "", "ۃ": "ة", "گ": "غ", "پ": "ب", "چ": "تش", "ژ": "ج", "ڤ": "ف",
             "ۆ": "و", "ێ": "ي", "ڵ": "ل", "ڕ": "ر", "ە": "", "ۇ": "و", "ۈ": "و", "ې": "ي",
             "ى": "ي", "ۋ": "و", "ڭ": "نغ", "ڪ": "ك", "ٽ": "ت", "ڊ": "د", "ڏ": "د", "ڌ": "د",
             "ڳ": "غ", "ڱ": "نغ", "ڻ": "ن", "ٿ": "ت", "ٺ": "ت", "ڦ": "ف", "ڄ": "ج", "ڃ": "نج",
             "ڇ": "تش", "ڍ": "د", "ڙ": "ر", "ټ": "ت", "ډ": "د", "ړ": "ر", "ږ": "ج", "ښ": "ش",
             "ګ": "غ", "ڼ": "ن", "ۍ": "ي"}
# Central Kurdish and Uyghur write h with `ھ` (`ھۆ`, Ho; `گڕاھام`, Graham), the letter Urdu
# writes only to mark aspiration.
FULL_VOWELS_ARABIC = {**TO_ARABIC, "ھ": "ه"}
# Letters that write vowels (and hamza seats), and the short-vowel marks.
VOWEL_LETTERS = frozenset("اآأإوؤيىئةءۓےیەۆێۇۈېۍ"
                          "\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652")


# Urdu letters as English spells their sounds, for comparing by sound (`xel.names.sound`):
# `و` is v or a vowel, so both readings are tried; `ی`, `ے`, `ا`, `ع` write vowels.
URDU_LATIN = {
    "ا": "a", "آ": "a", "ب": "b", "پ": "p", "ت": "t", "ٹ": "t", "ث": "s", "ج": "j", "چ": "ch",
    "ح": "h", "خ": "kh", "د": "d", "ڈ": "d", "ذ": "z", "ر": "r", "ڑ": "r", "ز": "z", "ژ": "zh",
    "س": "s", "ش": "sh", "ص": "s", "ض": "z", "ط": "t", "ظ": "z", "ع": "a", "غ": "g", "ف": "f",
    "ق": "k", "ک": "k", "گ": "g", "ل": "l", "م": "m", "ن": "n", "ں": "n", "ہ": "h", "ھ": "",
    "ء": "", "ی": "y", "ے": "e", "ئ": "", "ۓ": "e", "أ": "a", "ي": "y", "ك": "k",
}
# Sindhi and Pashto write English names by sound as Urdu does, with letters of their own:
# Sindhi `ٽ`, `ڊ`, `ڪ`, `ڳ`, Pashto `ټ`, `ډ`, `ګ`, `ښ`.
SINDHI_PASHTO_LATIN = {
    **URDU_LATIN, "ٽ": "t", "ٺ": "t", "ٿ": "t", "ڊ": "d", "ڍ": "d", "ڏ": "d", "ڌ": "d",
    "ڪ": "k", "ڳ": "g", "ڱ": "ng", "ڻ": "n", "ڦ": "f", "ڄ": "j", "ڃ": "ny", "ڇ": "ch",
    "ڙ": "r", "ھ": "h", "ټ": "t", "ډ": "d", "ړ": "r", "ږ": "zh", "ښ": "sh", "ګ": "g",
    "ڼ": "n", "ې": "e", "ۍ": "y", "ه": "h"}
BY_SOUND = {"urd": URDU_LATIN, "snd": SINDHI_PASHTO_LATIN, "pus": SINDHI_PASHTO_LATIN}

# Central Kurdish and Uyghur write every vowel, so their letters read much as English spells
# the sounds: Kurdish `ە` e, `ۆ` o, `ێ` e, `ڤ` v, `ڵ` and `ڕ` as l and r; Uyghur `ە` e, `ې`
# e, `ى` i, `ۇ` u, `ۆ` and `ۈ` o and u, `ۋ` w, `ڭ` ng, `ق` k; both write h with `ھ` as
# well as `ه`; the hamza seat `ئ` begins a word that starts with a vowel.
FULL_VOWELS_LATIN = {
    **URDU_LATIN, "ە": "e", "ۆ": "o", "ێ": "e", "ڤ": "v", "ڵ": "l", "ڕ": "r", "ې": "e",
    "ى": "i", "ۇ": "u", "ۈ": "u", "ۋ": "w", "ڭ": "ng", "ه": "h", "ك": "k", "ق": "k",
    "ی": "i", "ي": "y", "و": "u", "ھ": "h",
}
FULL_VOWELS = {"ckb", "uig"}

# Endings written onto names, longest first. Central Kurdish: the ezafe and possessive `ی`
# (`هاریسی`), `ەوە` and `دا` closing a circumposition (`لە فۆردەوە`), the clitic pronouns
# (`یان`, `ت`), `یش` (also), the copula `ە`/`یە`. Uyghur, in the forms harmony gives (`A`:
# back `ا` or front `ە`; `G`: `غ`, `ق`, `گ`, `ك`; `D`: `د`, `ت`): genitive `نىڭ`,
# accusative `نى`, dative `غا`, locative `دا`, ablative `دىن`, the relational `دىكى`, the
# plural `لار`, the possessive `ى`/`سى`.
SUFFIXES = {
    "ckb": ("ی", "یی", "ە", "یە", "ەوە", "وە", "دا", "ەدا", "ت", "یان", "ان", "یش", "ش", "ەش",
            "ەکە", "ەکەی", "ێک", "یەک", "ەکان"),
    "uig": harmony({"A": "اە", "G": "غقگك", "D": "دت"},
                   "نىڭ", "نى", "GA", "DA", "Dىن", "Dىكى", "لAر", "لىرى", "ى", "سى", "نىڭكى",
                   "مۇ", "نىمۇ"),
}

ARABIC_LANGUAGES = {"arb", "ara", "ary", "arz", "apc", "acm", "ajp", "aeb", "acq", "ars", "mey"}
# Shilha in Arabic letters writes its prepositions `n` (of) and `s` (to, with) onto the next
# word (`نترامب`, of Trump).
PROCLITICS = {**dict.fromkeys(ARABIC_LANGUAGES, "وفبلك"), "shi": "نس"}


class Arabic(Family):
    name = "arabic"
    abjad = True
    suffixes = SUFFIXES

    def __init__(self, lang: str, unspaced: bool) -> None:
        super().__init__(lang, unspaced)
        # Arabic (and Hassaniya, Shilha) write one-letter conjunctions and prepositions onto the
        # next word; Persian, Urdu and Kurdish write theirs apart.
        self.proclitics = PROCLITICS.get(self.code, "")
        # Kurdish and Uyghur write names by sound with every vowel (`ئەنجێڵا`, Angela;
        # `جۆرج`, George), which the model's Arabic spellings and ICU's romanization (it
        # leaves `ە`, `ۆ`, `ێ` as they are) miss: projection also finds their tokens by sound.
        self.by_sound = self.code in FULL_VOWELS

    def model_inputs(self, token: str) -> list[str]:
        table = FULL_VOWELS_ARABIC if self.code in FULL_VOWELS else TO_ARABIC
        arabic = "".join(table.get(ch, ch) for ch in token)
        return list(dict.fromkeys([token, arabic]))

    def ignorable(self, piece: str) -> bool:
        """A lone `و` is the conjunction and, never a name (an English initial W is spelled
        out: Kurdish `جۆرج دەبلیو. بۆش`, George W. Bush)."""
        return piece == "و"

    def sound_readings(self, token: str) -> list[str]:
        """Urdu, Sindhi and Pashto write English names by sound, mostly without short vowels
        (`ٹرمپ`, `ٽرمپ`), each `و` v or a vowel; Kurdish and Uyghur by sound with every vowel
        (`جەرارد`, `جونسون`); Arabic's are left to its model."""
        if self.code in FULL_VOWELS:
            return list(dict.fromkeys("".join(FULL_VOWELS_LATIN.get(ch, "") if ch != "و" else w
                                              for ch in token) for w in ("u", "w")))
        table = BY_SOUND.get(self.code)
        if table is None:
            return []
        letters = [table.get(ch, "" if ch in VOWEL_LETTERS else ch) for ch in token]
        waws = [k for k, ch in enumerate(token) if ch == "و"][:4]
        readings = []
        for said in itertools.product("uv", repeat=len(waws)):  # `ایوانوف`: ivanof
            for k, w in zip(waws, said, strict=True):
                letters[k] = w
            readings.append("".join(letters))
        return list(dict.fromkeys(readings))

    @property
    def sound_consonants(self) -> int:
        """Kurdish and Uyghur write their vowels, so a reading must share three consonants
        with the English token, as in alphabets."""
        return 3 if self.code in FULL_VOWELS else 2

    def skeleton(self, text: str) -> str:
        return "".join(ch for ch in text if ch not in VOWEL_LETTERS) or text
