"""Affixes written onto names, undone per language (issue 35 item 2), on forms NTREX-128's
translations write: Turkic and Mongolian case endings, Kurdish and Uyghur endings, Bantu
noun-class prefixes. Projection keeps endings and leaves prefixes out; the round trip compares
the name without either; words that only look affixed keep their form."""

from __future__ import annotations

import pytest
from test_project import MODELS, pair, project

from xel.names.agree import agreement
from xel.names.families import family
from xel.names.match import make_matcher
from xel.triage import locate


@pytest.mark.parametrize(("lang", "word", "base"), [
    # Turkic in Latin letters: genitive, accusative, dative, ablative, copula, and an ending
    # after a hyphen.
    ("aze-Latn", "Kavanonun", "Kavano"), ("aze-Latn", "Trampın", "Tramp"),
    ("aze-Latn", "Toması", "Tomas"), ("aze-Latn", "Kromvelə", "Kromvel"),
    ("aze-Latn", "Kavanaugh-un", "Kavanaugh"), ("aze-Latn", "Mengan-nın", "Mengan"),
    ("uzb", "Trampning", "Tramp"), ("uzb", "Kavanoga", "Kavano"), ("uzb", "Kromvelni", "Kromvel"),
    ("uzb", "Shvartsdan", "Shvarts"), ("uzb", "Kaniolardir", "Kanio"),
    ("tuk", "Trampyň", "Tramp"), ("tuk", "Trampdan", "Tramp"), ("tuk", "Kavanaugh-y", "Kavanaugh"),
    # Bantu prefixes: class 1a, possessive, copulative, associative, with or without a hyphen,
    # capitalized at the start of a sentence, and two in a row (Shona `kwaVaTrump`).
    ("xho", "uTrump", "Trump"), ("xho", "UTrump", "Trump"), ("xho", "kukaKavanaugh", "Kavanaugh"),
    ("xho", "nguKavanaugh", "Kavanaugh"), ("xho", "noWebb", "Webb"), ("xho", "u-Emma", "Emma"),
    ("xho", "ezinjengoJanet", "Janet"),
    ("zul", "u-Abercrombie", "Abercrombie"), ("zul", "kuka-Brett", "Brett"),
    ("nde", "nguFord", "Ford"), ("nde", "loHalkett", "Halkett"), ("nde", "ekaTrump", "Trump"),
    ("ssw", "waCorbyn", "Corbyn"), ("sna-Latn", "VaCorbyn", "Corbyn"),
    ("sna-Latn", "kwaVaTrump", "Trump"),
    # Cyrillic: Mongolian, Kazakh, Kyrgyz, Tatar, Bashkir, Tajik.
    ("mon", "Трампын", "Трамп"), ("mon", "Каваногийн", "Кавано"), ("mon", "Трамптай", "Трамп"),
    ("mon", "Фордод", "Форд"), ("mon", "Симпсоноос", "Симпсон"), ("mon", "Жерардыг", "Жерард"),
    ("kaz", "Трамптың", "Трамп"), ("kaz", "Каваноға", "Кавано"), ("kaz", "Трамппен", "Трамп"),
    ("kir", "Каванонун", "Кавано"), ("kir", "Каваного", "Кавано"), ("kir", "Трампка", "Трамп"),
    ("tat", "Трампның", "Трамп"), ("tat", "Каваноны", "Кавано"), ("bak", "Трампҡа", "Трамп"),
    ("bak", "Каваноның", "Кавано"), ("tgk-Cyrl", "Трампро", "Трамп"),
    # Arabic script: Central Kurdish, Uyghur; Hassaniya's Arabic proclitics.
    ("ckb-Arab", "فۆردەوە", "فۆرد"), ("ckb-Arab", "هاریسی", "هاریس"),
    ("ckb-Arab", "کاڤانادا", "کاڤانا"), ("uig", "ترامپنىڭ", "ترامپ"),
    ("uig", "كاۋاناغا", "كاۋانا"), ("uig", "فوردنىڭ", "فورد"), ("mey", "لترامب", "ترامب"),
    ("shi", "نترامب", "ترامب"),  # Shilha, which NTREX writes in Arabic letters
    # Northern Kurdish and Oromo.
    ("kmr", "Fordê", "Ford"), ("kmr", "Kavanaugh’ê", "Kavanaugh"), ("orm", "tiraampii", "tiraamp"),
    ("orm", "Fleetwoodidha", "Fleetwood"), ("orm", "jerardiin", "jerard"),
])
def test_affixes_are_undone(lang: str, word: str, base: str) -> None:
    forms = family(lang).base_forms(word)
    assert forms[0] == word and base in forms


def test_tables_are_written_in_lower_case() -> None:
    """A capital left in a table is a harmony class `harmony` did not expand (a Cyrillic `А`
    typed for the class `A`), which no word would ever end with."""
    from xel.names import arabic, cyrillic, latin

    tables = [*latin.SUFFIXES.values(), *cyrillic.SUFFIXES.values(), *arabic.SUFFIXES.values(),
              *latin.PREFIXES.values()]
    assert all(affix == affix.casefold() for table in tables for affix in table)


@pytest.mark.parametrize(("lang", "word"), [
    # A prefix ends only where the name's capital begins: words of the language, and names
    # that begin like a prefix, stay whole.
    ("xho", "ukuba"), ("xho", "Kavanaugh"), ("xho", "Ngozi"), ("xho", "UK"), ("zul", "USA"),
    ("nde", "Nguni"), ("sna-Latn", "Vance"), ("xho", "Ezinjengo"),
    # Languages without the rules keep the word.
    ("fra", "uTrump"), ("eng", "kukaKavanaugh"), ("tur", "Trampın"), ("bul", "Трамптың"),
    ("fas", "ترامپنىڭ"), ("urd", "فۆردەوە"),
])
def test_words_that_only_look_affixed_keep_their_form(lang: str, word: str) -> None:
    assert family(lang).base_forms(word) == [word]


def test_uzbek_apostrophes_are_letters() -> None:
    """`Erdo’g’an`: `’` marks the letters oʻ and gʻ, never an ending."""
    forms = family("uzb").base_forms("Erdo’g’anning")
    assert "Erdo’g’an" in forms and "Erdo" not in forms and "Erdo’g" not in forms


@pytest.mark.parametrize(("lang", "projection", "english"), [
    ("aze-Latn", "Bret Kavanonun", "Brett Kavanaugh"),  # the examples
    ("uzb", "Bret Kavanani", "Brett Kavanaugh"),
    ("xho", "uBrett Kavanaugh", "Brett Kavanaugh"),
    ("xho", "uKim Jong-un", "Kim Jong-un"),
    ("aze-Latn", "Kim Jong-un", "Kim Jong-un"),  # `un` is also an ending: the name still agrees
    ("aze-Latn", "Brett Kavanaugh-un", "Brett Kavanaugh"),
    ("aze-Latn", "Stiven Cerardın", "Steven Gerrard"),  # Azerbaijani `c` is j
    ("uzb", "Stiven Jerardni", "Steven Gerrard"),
    ("tuk", "Donald Trampyň", "Donald Trump"),
    ("zul", "u-Brett Kavanaugh", "Brett Kavanaugh"),
    ("sna-Latn", "VaDonald Trump", "Donald Trump"),
    ("mon", "Стивен Жерардыг", "Steven Gerrard"),  # Mongolian `ж` is j
    ("mon", "Менгагийн", "Menga"),
    ("ckb-Arab", "کرستین بلەزی فۆردەوە", "Christine Blasey Ford"),
    ("uig", "تىرامپنىڭ", "Trump"),
    ("uzb", "Tayger Vudsni", "Tiger Woods"),  # Uzbek `v` for w
    ("kmr", "Castîn Tomas", "Justin Thomas"),
    ("orm", "Donaaldi tiraampi", "Donald Trump"),
    ("tgk-Cyrl", "Фил Майкелсон", "Phil Mickelson"),
    ("snd-Arab", "ايلزابيٿ وارين", "Elizabeth Warren"),
])
def test_affixed_names_agree_with_the_english_name(lang: str, projection: str,
                                                   english: str) -> None:
    assert agreement(projection, english, lang).score == 1.0


@pytest.mark.parametrize(("lang", "projection", "english"), [
    # An ending taken off never makes another word the name: a trampoline is not Trump, a
    # square (`مەيدان`, with the locative) is not May, a partial name is not the name.
    ("aze-Latn", "tramplin", "Trump"), ("kaz", "трамплин", "Trump"),
    ("uig", "مەيداندا", "May"), ("ckb-Arab", "ئەمەیە", "May"),
    ("aze-Latn", "Kristin", "Christine Blasey Ford"), ("xho", "uTrump", "Donald Trump"),
    ("uzb", "Jonsonning", "Jones"), ("mon", "Трамптай", "Tom"),
    ("xho", "kukaKavanaugh", "Kavanagh Brett"), ("kmr", "Kavana", "Brett Kavanaugh"),
    ("shi", "إتافق ترامب", "Donald Trump"), ("snd-Arab", "جريمي ڪوريا", "Jeremy Corbyn"),
])
def test_affixes_never_make_another_word_agree(lang: str, projection: str,
                                               english: str) -> None:
    assert agreement(projection, english, lang).score == 0.0


def test_projection_keeps_endings_and_leaves_prefixes_out() -> None:
    p = pair("and Trump said", "kwaye kukaTrump wathi", {(1, 1)})
    assert project(p, "Trump", "xho") == "Trump"
    assert project(p, "Trump", "fra") == "kukaTrump"  # no prefixes in French
    p = pair("Gary Holt said", "utshilo u-Gary Holt wathi", {(0, 1), (0, 2), (0, 3), (1, 4)})
    assert project(p, "Gary Holt", "zul") == "Gary Holt"
    p = pair("LeBron James said", "uthe LeBron James", {(0, 1), (1, 2)})
    assert project(p, "LeBron James", "xho") == "LeBron James"  # spelled better with `Le`
    # An ending the tokenizer splits off after a hyphen or apostrophe stays in the span.
    p = pair("judge Brett Kavanaugh won", "hakim Brett Kavanaugh-un qalib", {(1, 1), (2, 2)})
    assert project(p, "Brett Kavanaugh", "aze-Latn") == "Brett Kavanaugh-un"
    p = pair("Gary Holt said", "utshilo uGary Holt’s wathi", {(0, 1), (1, 3)})
    assert project(p, "Gary Holt", "xho") == "Gary Holt’s"
    # A hyphen before what is not an ending of the language ends the span.
    p = pair("Kim met Trump", "Kim-Trump görüşü", {(0, 0)})
    assert project(p, "Kim", "aze-Latn") == "Kim"


def test_arabic_proclitics_and_the_name_written_with_the_letter() -> None:
    """Hassaniya writes Arabic's proclitics (`لستيفن`), Shilha its `n` (`ندونالد`); a name
    the model writes with the letter keeps it (`كريستين` is Christine, not `ك` + `ريستين`)."""
    matcher = make_matcher("mey", MODELS, ["Christine Blasey Ford", "Steven Gerrard"])
    p = pair("Christine Blasey Ford said", "قالت كريستين بلاسي فورد", {(0, 1), (1, 2), (2, 3)})
    assert project(p, "Christine Blasey Ford", "mey", matcher=matcher) == "كريستين بلاسي فورد"
    p = pair("and Steven Gerrard won", "لستيفن جيرارد فاز", {(1, 0), (2, 1)})
    assert project(p, "Steven Gerrard", "mey", matcher=matcher) == "ستيفن جيرارد"
    p = pair("of Donald Trump", "ندونالد ترامب", {(1, 0), (2, 1)})
    assert project(p, "Donald Trump", "shi") == "دونالد ترامب"


def test_triage_finds_a_projection_after_its_prefix() -> None:
    doc = [(1, "Wathi uTrump akazi"), (2, "Kodwa ngu-Trump"), (3, "Wathi xTrump")]
    prefixes = family("xho").prefix_table
    assert locate(["Trump"], doc, 1, unspaced=False, prefixes=prefixes) == ("Trump", 1, 7, 12)
    assert locate(["Trump"], doc[1:], 2, unspaced=False, prefixes=prefixes) == (
        "Trump", 2, 10, 15)
    assert locate(["Trump"], doc[2:], 3, unspaced=False, prefixes=prefixes) is None
    assert locate(["Trump"], doc[:1], 1, unspaced=False) is None  # without the prefixes
