"""Cyrillic script: Russian, Ukrainian, Belarusian and Serbian decline names (`Байдена`,
`Ангелы Меркель`); Bulgarian and Macedonian do not, but spell English sounds their own way
(`Тръмп`, `Џонсон`); Kazakh, Kyrgyz, Tatar, Bashkir, Mongolian and Tajik write case endings
onto them in the forms vowel harmony gives (`Трамптың`, `Каванонун`, `Трампын`,
`Каваногийн`, `Трампро`)."""

from __future__ import annotations

import functools
from typing import Any

import regex

from xel.names.script import Family, harmony

_EAST = ("а", "у", "ом", "е", "ым", "ой", "ы", "ю", "я", "ем", "ей", "ою", "ого", "ому", "и",
         "ым", "ів", "ові", "ом", "ою", "ій")
_SOUTH = ("а", "у", "ом", "е", "и", "ем", "ја", "ју", "јем", "ов", "ова")
# Turkic case endings (genitive, accusative, dative, locative, ablative, instrumental), the
# plural and the third-person possessive, in every form harmony and the consonant before them
# give: `I` a high vowel, `A` a low one, `D` the consonant of locative and ablative (`д`,
# `т`, and in Bashkir `л`, `н`), `N` that of genitive and accusative, `G` that of the dative.
_KAZAKH = harmony({"I": "ыі", "A": "ае", "D": "дт", "N": "ндт", "G": "ғқгк"},
                  "NIң", "NI", "н", "GA", "нA", "A", "DA", "нDA", "DAн", "нAн", "нDAн", "мен",
                  "бен", "пен", "лAр", "дAр", "тAр", "I", "сI", "сIнIң", "сIн", "сIнA",
                  "сIндA", "сIнAн")
_KYRGYZ = harmony({"I": "ыиуү", "A": "аеоө", "D": "дт", "N": "ндт", "G": "гк"},
                  "NIн", "NI", "н", "GA", "нA", "A", "DA", "нDA", "DAн", "нAн", "нDAн", "лAр",
                  "дAр", "тAр", "I", "сI", "сIнIн", "сIн", "сIнA", "сIндA", "сIнAн")
_TATAR = harmony({"I": "ые", "A": "аә", "D": "дтн", "G": "гк"},
                 "нIң", "нI", "GA", "нA", "DA", "нDA", "DAн", "лAр", "нAр", "I", "сI", "сIнIң",
                 "сIн", "сIнA", "сIндA", "сIннAн")
_BASHKIR = harmony({"I": "ые", "A": "аә", "D": "дтлн", "N": "ндт", "G": "ғгҡк"},
                   "NIң", "NI", "GA", "нA", "DA", "DAн", "лAр", "дAр", "тAр", "нAр", "I", "сI",
                   "сIнIң", "сIн", "сIнA", "сIндA", "сIнAн")
# Mongolian: genitive (`Трампын`, `Каваногийн`, with `г` after a vowel), accusative,
# dative-locative (`Трампад`, `Сауповт`), ablative, instrumental, comitative (`Трамптай`),
# directive, the reflexive possessive and the possessive noun `-ынх`.
_MONGOLIAN = harmony({"A": "аоэө", "U": "уү"},
                     "ын", "ийн", "н", "гийн", "ий", "ыг", "ийг", "г", "гийг", "д", "т", "Aд",
                     "нд", "гAд", "AAс", "гAAс", "нAAс", "AAр", "гAAр", "нAAр", "тAй", "рUU",
                     "лUU", "AA", "гAA", "ынх", "ийнх", "ынхаа", "ийнхээ")
# Tajik: the accusative `-ро`, the ezafe `-и` (`-йи` after a vowel), the plural.
_TAJIK = ("ро", "и", "йи", "ҳо", "ҳои", "ҳоро", "он", "ву", "ю")
# Belarusian writes unstressed o as `а` (`Гленам`, instrumental; `Томаса`).
_BELARUSIAN = (*_EAST, "ам", "ай", "аю", "аў", "ы", "і", "ам", "ах")
SUFFIXES = {"rus": _EAST, "ukr": _EAST, "bel": _BELARUSIAN, "srp": _SOUTH, "bos": _SOUTH,
            "kaz": _KAZAKH, "kir": _KYRGYZ, "tat": _TATAR, "bak": _BASHKIR, "mon": _MONGOLIAN,
            "tgk": _TAJIK}


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
    "kaz": {"ә": "э", "ғ": "г", "қ": "к", "ң": "нг", "ө": "о", "ұ": "у", "ү": "ю", "һ": "х",
            "і": "и"},
    "kir": {"ң": "нг", "ө": "о", "ү": "ю"},
    "tat": {"ә": "э", "ө": "о", "ү": "ю", "җ": "дж", "ң": "нг", "һ": "х"},
    "bak": {"ә": "э", "ө": "о", "ү": "ю", "ғ": "г", "ҡ": "к", "ң": "нг", "ҙ": "з", "ҫ": "с",
            "һ": "х"},
    "mon": {"ө": "о", "ү": "ю"},
    "tgk": {"ғ": "г", "ӣ": "и", "қ": "к", "ӯ": "у", "ҳ": "х", "ҷ": "дж"},
}


# Bulgarian letters as English spells their sounds (`Тръмп` is tramp: `ъ` is the vowel of
# `Trump`), for comparing by sound.
BULGARIAN_LATIN = dict(zip("абвгдежзийклмнопрстуфхцчшщъьюя", [
    "a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
    "t", "u", "f", "h", "ts", "ch", "sh", "sht", "a", "", "yu", "ya"], strict=True))


# Mongolian, Kazakh, Kyrgyz, Tatar, Bashkir and Tajik write English names by sound with
# letters of their own (`Жонсон`, `Ҷастин`: Johnson, Justin; `Майкелсон`: Mickelson, which
# the Russian model reads otherwise): `ж` is English j in Mongolian and Kyrgyz (and zh, which
# the sound key also takes for j), `э` e, `ө` o, `ү` u, `ы` i, `ҷ` and `җ` j, `ҳ` and `һ` h.
CENTRAL_ASIAN_LATIN = {
    **BULGARIAN_LATIN, "ж": "j", "э": "e", "ө": "o", "ү": "u", "ы": "i", "ъ": "", "е": "e",
    "ё": "yo", "ә": "a", "ғ": "g", "қ": "k", "ң": "ng", "ұ": "u", "һ": "h", "і": "i", "ҡ": "k",
    "ҙ": "z", "ҫ": "s", "җ": "j", "ҷ": "j", "ӣ": "i", "ӯ": "u", "ҳ": "h"}
# Serbian and Belarusian spell English names by sound too (`Мјулер`, Mueller; `Тэрэза Мэй`),
# Belarusian writing t and d before a soft vowel as `ц` and `дз` (`Джасцін`, Justin).
SERBIAN_LATIN = {**BULGARIAN_LATIN, "ј": "y", "љ": "ly", "њ": "ny", "ђ": "j", "ћ": "ch",
                 "џ": "j"}
BELARUSIAN_LATIN = {**BULGARIAN_LATIN, "э": "e", "і": "i", "ў": "w", "ы": "i", "ё": "yo",
                    "'": "", "’": ""}
_SOFTENED = regex.compile(r"(дз|ц)(?=[іеёюяь])")
BY_SOUND = {"bul": BULGARIAN_LATIN, "srp": SERBIAN_LATIN, "bos": SERBIAN_LATIN,
            "bel": BELARUSIAN_LATIN,
            **dict.fromkeys(("mon", "kaz", "kir", "tat", "bak", "tgk"), CENTRAL_ASIAN_LATIN)}
# Latin letters that look Cyrillic, as NTREX's Serbian mixes them into Cyrillic words
# (`Teрeзa`, `Дoнaлдa Tрaмпa`).
_LOOKALIKES = str.maketrans("aceopxyjABCEHKMOPTXJ", "асеорхујАВСЕНКМОРТХЈ")
_CYRILLIC = regex.compile(r"\p{Cyrillic}")


def cyrillic_letters(token: str) -> str:
    """A Cyrillic word with the Latin letters that look like Cyrillic ones made Cyrillic."""
    return token.translate(_LOOKALIKES) if _CYRILLIC.search(token) else token


def to_russian(token: str, code: str) -> str:
    """A Cyrillic token of language `code` spelled with Russian letters."""
    table = TO_RUSSIAN.get(code, {})
    return "".join(table.get(ch, ch) for ch in cyrillic_letters(token).casefold())


class Cyrillic(Family):
    name = "cyrillic"
    suffixes = SUFFIXES
    restores = ("а", "о", "й", "ь")

    def model_inputs(self, token: str) -> list[str]:
        return list(dict.fromkeys([cyrillic_letters(token).casefold(),
                                   to_russian(token, self.code)]))

    def base_forms(self, word: str) -> list[str]:
        """The forms of the word in Cyrillic letters throughout (`Џaстинa`, with two Latin
        a's, is `Џастина`, Justin's accusative)."""
        return list(dict.fromkeys([word, *super().base_forms(cyrillic_letters(word))]))

    def sound_readings(self, token: str) -> list[str]:
        """Bulgarian, Serbian, Belarusian and the languages of Central Asia write English names
        by sound (`Брет Кавано`, `Жонсон`); the others are left to their model."""
        table = BY_SOUND.get(self.code)
        if not table:
            return []
        word = cyrillic_letters(token).casefold()
        if self.code == "bel":  # `ці` is ti in an English name (ts would make Justin Jason)
            word = _SOFTENED.sub(lambda m: "т" if m[1] == "ц" else "д", word)
        return ["".join(table.get(ch, ch) for ch in word)]


# Verbs as such: finite verbs, infinitives, gerunds (not participles, which are adjectives in
# names: `Соединенные Штаты`).
FINITE_FORMS = frozenset({"VERB", "INFN", "GRND"})
# Parts of speech no name is written in beside a capitalized word: verbs and participles.
VERB_FORMS = FINITE_FORMS | {"PRTF", "PRTS"}


@functools.cache
def _russian_morphology() -> Any:
    """pymorphy3's Russian analyser (OpenCorpora's dictionary, as PyPI's
    `pymorphy3-dicts-ru` ships it)."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@functools.lru_cache(maxsize=100_000)
def _likeliest(word: str) -> Any:
    """pymorphy3's likeliest reading of a Russian word (its part of speech, its dictionary
    form), read once for `verb_form` and `lemma`."""
    return _russian_morphology().parse(word)[0]


def verb_form(word: str, lang: str) -> bool:
    """Whether a Russian word, as its likeliest reading, is a verb, participle or gerund
    (`создало`, `сообщают`, `проведенный`): a word the aligner ran on past a name, not one
    of its words. Other languages: never (no analyser)."""
    if lang != "rus" or not word.isalpha():
        return False
    return _likeliest(word).tag.POS in VERB_FORMS


def finite_verb(word: str, lang: str) -> bool:
    """Whether a lower-case Russian word, as its likeliest reading, is a verb that no name is
    written with (`означает`, means; `назвали`, named): a word the aligner ran on to, whatever
    else the span holds. Not a capitalized word, which pymorphy3 may guess a verb (`Трутнев`).
    Other languages: never (no analyser)."""
    return (lang == "rus" and word.isalpha() and word[:1].islower()
            and _likeliest(word).tag.POS in FINITE_FORMS)


def lemma(word: str, lang: str) -> str:
    """A word's dictionary form where an analyser knows the language (Russian: `Банка` ->
    `банк`), else the word lower-cased."""
    if lang != "rus" or not word.isalpha():
        return word.casefold()
    return str(_likeliest(word).normal_form)


# Russian nouns for kinds of body (dictionary forms) and the English head words they
# translate: a Russian name begins with its body's noun (`отдел глобальных исследований`)
# where English ends with it (Global Research Department) or begins with it before `of`.
BODY_NOUNS: dict[str, frozenset[str]] = {
    "академия": frozenset({"academy"}), "агентство": frozenset({"agency"}),
    "ассоциация": frozenset({"association"}), "банк": frozenset({"bank"}),
    "бюро": frozenset({"bureau", "office"}), "департамент": frozenset({"department"}),
    "институт": frozenset({"institute"}), "комиссия": frozenset({"commission"}),
    "комитет": frozenset({"committee"}), "компания": frozenset({"company"}),
    "корпорация": frozenset({"corporation"}),
    "лаборатория": frozenset({"laboratory", "lab"}),
    "министерство": frozenset({"ministry", "department"}),
    "общество": frozenset({"society"}), "организация": frozenset({"organization"}),
    "отдел": frozenset({"department", "division"}), "палата": frozenset({"chamber"}),
    "партия": frozenset({"party"}), "служба": frozenset({"service"}),
    "совет": frozenset({"council", "board"}), "союз": frozenset({"union"}),
    "суд": frozenset({"court"}), "университет": frozenset({"university"}),
    "управление": frozenset({"department", "office", "administration"}),
    "факультет": frozenset({"faculty", "department"}),
    "фонд": frozenset({"fund", "foundation"}), "центр": frozenset({"center", "centre"}),
    "школа": frozenset({"school"}),
}


def body_noun(word: str, heads: set[str], lang: str) -> bool:
    """Whether a Russian word is a noun for one of these English head words' kinds of body
    (`отдела`: department)."""
    return lang == "rus" and bool(BODY_NOUNS.get(lemma(word, lang), frozenset()) & heads)


def agreeing_noun(adjective_word: str, noun_word: str, lang: str) -> bool:
    """Whether a Russian noun is the one an adjective before it agrees with: a noun as its
    likeliest reading, in a case and number the adjective has a reading in (`открытых
    данных`, `геномной инженерии`). Other languages: never (no analyser)."""
    if lang != "rus" or not (adjective_word.isalpha() and noun_word.isalpha()):
        return False
    noun = _likeliest(noun_word).tag
    if noun.POS != "NOUN":
        return False
    return any(r.tag.POS == "ADJF" and r.tag.case == noun.case and r.tag.number == noun.number
               for r in _russian_morphology().parse(adjective_word))


def adjective(word: str, lang: str) -> bool:
    """Whether a Russian word, as its likeliest reading, is a full adjective (`зимних`,
    winter's): in a name it agrees with the name's noun (`зимних Олимпийских игр`). Other
    languages: never (no analyser)."""
    return lang == "rus" and word.isalpha() and _likeliest(word).tag.POS == "ADJF"
