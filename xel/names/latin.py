"""Latin script: names keep their English spelling in most languages, but many languages write
case endings onto them (Finnish `Trumpin`, Czech `Bretta Kavanaugha`, Croatian `Donalda
Trumpa`, German `Trumps`), Turkish adds them after an apostrophe (`Trump'ın`), the Turkic
languages of Central Asia respell names by sound and inflect them (Uzbek `Trampning`,
Azerbaijani `Kavanonun`), and the Bantu languages write noun-class prefixes before them
(isiXhosa `uTrump`, `kukaKavanaugh`, Shona `VaTrump`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import regex

from xel.names.script import HYPHENS, Family, Scorer, Span, harmony, transliterator

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
    # Case endings (genitive, accusative, dative, locative, ablative, instrumental) with their
    # buffer consonants (`Kavano-n-un`, `Kavano-y-a`), the plural, the third-person
    # possessive and the copula, alone and in the sequences news text writes.
    "aze": harmony({"I": "ıiuü", "A": "aə"},
                   "In", "nIn", "I", "nI", "yI", "A", "yA", "nA", "dA", "tA", "ndA", "dAn", "tAn",
                   "ndAn", "lA", "ylA", "lAr", "lArI", "lArIn", "lArA", "lArdA", "lArdAn", "sI",
                   "sInIn", "sInI", "sInA", "sIndA", "sIndAn", "dIr"),
    # Uzbek has no vowel harmony: one form per ending (dative `ga`, `ka`, `qa` by the
    # consonant before it).
    "uzb": ("ning", "ni", "ga", "ka", "qa", "da", "dan", "lar", "larning", "larni", "larga",
            "larda", "lardan", "lardir", "dir", "niki", "dagi", "i", "si", "sining", "sini",
            "siga", "sida", "sidan"),
    # Northern Kurdish: the oblique case and the ezafe (`Fordê`, `Trumpî`), also after `y`
    # (`Sulawesiyê`), the plural oblique `an`, `ên`.
    "kmr": ("ê", "î", "a", "yê", "yî", "ya", "an", "ên", "ek", "ekî", "ekê"),
    # Oromo: the final vowel a name takes (`Donaaldi`, `tiraampi`), the genitive and
    # subject forms (`tiraampii`, `Trumpn`), instrumental `iin`, dative `iif`, `f`, locative
    # `tti`, ablative `rraa`, the copula `dha` (`Fleetwoodidha`), `s` and `fi` (also, and).
    "orm": ("i", "ii", "n", "in", "iin", "f", "iif", "tti", "itti", "rraa", "irraa", "dha",
            "idha", "iidha", "s", "is", "fi", "iifi"),
    "tuk": harmony({"I": "yiuü", "A": "ae"},
                   "Iň", "nIň", "I", "nI", "A", "nA", "ýA", "dA", "ndA", "dAn", "ndAn", "lAr",
                   "lArIň", "lArI", "lArA", "lArdA", "sI", "sInIň", "sInI", "sInA", "sIndA",
                   "dIr", "Iňky"),
}
# A Turkic ending, or a genitive, after an apostrophe (`Trump'ın`, `Pence's`): the name is
# what precedes it. Uzbek writes `’` inside words as a letter (`Erdo’g’an`), never before an
# ending.
_APOSTROPHE_ENDING = regex.compile(r"^(.+?)['’:]\p{L}{1,5}$")
_LETTER_APOSTROPHES = {"uzb"}
_IN_WORD = regex.compile(r"[\p{L}'’‘ʻʼ]*\p{L}")


def with_letter_apostrophes(text: str, start: int, end: int) -> Span:
    """Where `’` is a letter (Uzbek `Erdo’g’an`), a span the tokenizer cut at it is the
    whole word."""
    m = _IN_WORD.match(text, end)
    if m and end > 0 and text[end] in "'’‘ʻʼ" and text[end - 1].isalpha():
        end = m.end()
    while start >= 2 and text[start - 1] in "'’‘ʻʼ" and text[start - 2].isalpha():
        start -= 2
        while start > 0 and text[start - 1].isalpha():
            start -= 1
    return start, end
# An ending after a hyphen (Azerbaijani `Kavanaugh-un`, Turkmen `Trump-y`): the name is what
# precedes it, where the ending is one of the language's.
_HYPHEN_ENDING = regex.compile(r"^(.+?)[-\u2010](\p{L}{1,6})$")
# What may follow a span's last word as such an ending, to the end of the word.
_JOINED = regex.compile(r"[-\u2010'’]\p{Ll}{1,6}(?![\p{L}\p{M}\p{N}])")

# Prefixes written onto a person's name, joined or after a hyphen (`uTrump`, `u-Trump`), in
# the Bantu languages that write them: the personal class 1a `u`; the copulative (`ngu`,
# `ngo`, `yi`: it is Trump); the associative `no`, `na`, `nga`, `ne`, `nge` (and/with);
# the possessive concords, with `ka` before a personal name (`kaTrump`, `kukaTrump`,
# `likaBrett`, `lukaTrump`, `zika`, `sika`, `baka`, `yaka`, `waka`, `buka`, `oka`, `eka`),
# or without it (`lweTrump`, `kweTrump`); the locative `ku`, `kwa`, `kwi` (to Trump); the
# comparative `njengo` (like Trump); Ndebele's demonstrative `lo`; relative concords, which
# precede another prefix (`ezinjengoJanet`: which are like Janet). Gold and NTREX-128 show
# each (corpora/ntrex_weak/README.md). Shona writes the honorific plural `Va` (`VaCorbyn`),
# possessive concords without `ka` (`waTrump`, `yaBrett`, `raBrett`, `chaAtkinson`,
# `kwaVaTrump`) and `na`, `sa`, `pa`, `kuna`, `muna`, `nezva` (with, like, at, to, in, about).
_NGUNI = ("u", "ngu", "ngo", "ngoo", "yi", "no", "noo", "na", "ne", "nge", "ka", "kuka",
          "lika", "luka", "zika", "sika", "baka", "yaka", "waka", "buka", "oka", "eka", "ika",
          "noka", "ngoka", "nobuka", "ku", "kwa", "kwi", "kwe", "lwe", "we", "ye", "le", "ze",
          "se", "be", "njengo", "ezi", "eli", "esi", "olu", "obu", "oku", "aba", "eyi", "owu")
PREFIXES = {
    "xho": _NGUNI,
    "zul": _NGUNI,
    "nde": (*_NGUNI, "lo"),
    # Swati: possessive concords without `ka` (`waCorbyn`, `yaTrump`, `laBrett`, `lwaTrump`,
    # `sa`, `ta`, `ba`, `kwa`), `na`, `nga` (and, with), `ngu` (it is), `ku` (to), `bo`
    # (Dustin and others).
    "ssw": ("u", "ngu", "na", "nga", "ne", "ku", "kwa", "wa", "ya", "la", "lwa", "sa", "ta",
            "ba", "bo"),
    "sna": ("va", "wa", "ya", "ra", "cha", "dza", "twa", "kwa", "pa", "na", "ne", "sa", "kuna",
            "muna", "pana", "nezva"),
}


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


# Languages that respell English names by sound in Latin letters (Uzbek `Xolli Uillobi`,
# Azerbaijani `Cerard`, Turkmen `Trampyň`, Kurdish `Castîn`, Oromo `Donaaldi tiraampi`):
# their letters as English spells the sounds, for comparing by sound (`xel.names.sound`).
# Uzbek and Azerbaijani `x` is English h (`Xammel`), Azerbaijani and Kurdish `c` is j
# (`Cons`), Azerbaijani `q` g (`Qari`: Gary), Turkmen `y` a vowel; Oromo writes long vowels
# double and ejectives as `x`, `q`, `c`.
_BY_SOUND = {
    "uzb": {"x": "h", "q": "k", "o‘": "o", "o’": "o", "oʻ": "o", "o'": "o", "g‘": "g",
            "g’": "g", "gʻ": "g", "g'": "g", "’": "", "ʼ": "", "'": ""},
    "aze": {"c": "j", "ç": "ch", "ş": "sh", "x": "h", "q": "g", "ğ": "g", "ə": "e", "ı": "i",
            "ö": "o", "ü": "u", "j": "zh"},
    "tuk": {"ç": "ch", "ş": "sh", "ž": "zh", "ý": "y", "ň": "ng", "ä": "a", "ö": "o", "ü": "u",
            "y": "i"},
    "kmr": {"c": "j", "ç": "ch", "ş": "sh", "x": "h", "q": "k", "î": "i", "ê": "e", "û": "u"},
    "orm": {"x": "t", "q": "k", "c": "ch", "dh": "d", "ph": "p", "’": "", "'": ""},
    # Latvian and Lithuanian respell English names too (`Maikam Pensam`: Mike Pence, dative;
    # `Bleizija`), with `j` as y and `c` as ts.
    "lav": {"dž": "j", "č": "ch", "š": "sh", "ž": "zh", "ā": "a", "ē": "e", "ī": "i", "ū": "u",
            "ķ": "k", "ģ": "g", "ļ": "l", "ņ": "n", "j": "y", "c": "ts"},
    "lit": {"dž": "j", "č": "ch", "š": "sh", "ž": "zh", "ą": "a", "ę": "e", "ė": "e", "į": "i",
            "ų": "u", "ū": "u", "y": "i", "j": "y", "c": "ts"},
}
# Uzbek, Azerbaijani, Latvian and Lithuanian write English w as `v` (Uzbek `Vuds`: Woods;
# Latvian `Valids`: Walid) as well as v.
_V_AS_W = {"uzb", "aze", "lav", "lit"}


@functools.cache
def _sounds_pattern(code: str) -> regex.Pattern[str]:
    """The letters of `_BY_SOUND[code]`, longest first."""
    return regex.compile("|".join(map(regex.escape, sorted(_BY_SOUND[code], key=len,
                                                            reverse=True))))


def by_sound(token: str, code: str) -> list[str]:
    """A token in the letters English spells its sounds with (Azerbaijani `Cerard`: jerard),
    and with `v` as w where it may be (Uzbek `Vuds`: wuds)."""
    table = _BY_SOUND[code]
    text = _sounds_pattern(code).sub(lambda m: table[m.group()], token.casefold())
    return list(dict.fromkeys([text, text.replace("v", "w") if code in _V_AS_W else text]))


class Latin(Family):
    name = "latin"
    suffixes = SUFFIXES
    restores = ("a", "o", "e")
    prefixes = PREFIXES

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

    def prefix_ends(self, word: str, at: int) -> bool:
        """A prefix ends where the name's capital begins, right after it or after a hyphen
        (`uTrump`, `UTrump`, `kuka-Kavanaugh`), and is written in lower case or capitalized."""
        head, rest = word[:at], word[at:]
        if rest[:1] in HYPHENS:
            rest = rest[1:]
        return (head.islower() or head.istitle()) and bool(regex.match(r"\p{Lu}\p{Ll}", rest))

    def joined_ending(self, word: str) -> str | None:
        """The name before an ending joined by an apostrophe (`Trump'ın`, `Pence's`) or, where
        the ending is one of the language's, by a hyphen (`Kavanaugh-un`); None without one."""
        m = _APOSTROPHE_ENDING.match(word)
        if m and self.code not in _LETTER_APOSTROPHES:
            return m.group(1)
        m = _HYPHEN_ENDING.match(word)
        if m and m.group(2).casefold() in self.suffixes.get(self.code, ()):
            return m.group(1)
        return None

    def edges(self, text: str, start: int, end: int, english: Sequence[str],
              matcher: Scorer) -> Span:
        """Prefixes left out of the span, and an ending joined by a hyphen or apostrophe kept
        in it (`Kavanaugh-un`, `Holt’s`: the tokenizer splits it off)."""
        start, end = super().edges(text, start, end, english, matcher)
        if self.code in _LETTER_APOSTROPHES:
            start, end = with_letter_apostrophes(text, start, end)
        m = _JOINED.match(text, end)
        words = text[start:end].split()
        if m and words and self.joined_ending(words[-1] + m.group()) is not None:
            end = m.end()
        return start, end

    def sound_readings(self, token: str) -> list[str]:
        """Languages that write English names by sound (`Kavano`): the token as English would
        spell its sounds."""
        return by_sound(token, self.code) if self.code in _BY_SOUND else []

    def base_forms(self, word: str) -> list[str]:
        forms = super().base_forms(word)
        name = self.joined_ending(word)
        if name:
            forms = [word, *super().base_forms(name)]
        if self.code == "hun":  # `Trumppal`: the instrumental doubles the last consonant
            forms += [f[:-1] for f in forms if len(f) > 3 and f[-1] == f[-2] and f[-1].isalpha()]
        return list(dict.fromkeys(forms))
