"""Base forms of inflected names, part-by-part agreement, and triage's acceptance policies, on
projections xel made of NTREX-128 (the round trip used to send every one of them to curation)."""

from __future__ import annotations

import pytest

from xel.config import TriageConfig
from xel.names.agree import agreement, runs
from xel.names.families import family
from xel.triage import accept_round_trip


@pytest.mark.parametrize(("lang", "word", "base"), [
    ("fin", "Kavanaughin", "Kavanaugh"), ("fin", "Johnsonille", "Johnson"),
    ("ces", "Fordová", "Ford"), ("ces", "Mengy", "Menga"), ("hrv", "Francescu", "Francesco"),
    ("hrv", "Jeremyjem", "Jeremy"), ("deu", "Trumps", "Trump"), ("tur", "Trump'ın", "Trump"),
    ("hun", "Trumppal", "Trump"), ("ron", "Theresei", "Theresa"), ("rus", "Байдена", "Байден"),
    ("rus", "Ангелы", "Ангела"), ("srp-Cyrl", "Трампа", "Трамп"), ("ell", "Τσίπρα", "Τσίπρας"),
    ("arb", "وترامب", "ترامب"), ("heb", "וטראמפ", "טראמפ"),
])
def test_base_forms_undo_endings_and_clitics(lang: str, word: str, base: str) -> None:
    forms = family(lang).base_forms(word)
    assert forms[0] == word and base in forms


def test_languages_without_endings_keep_the_word() -> None:
    assert family("fra").base_forms("Trumps") == ["Trumps"]
    assert family("bul").base_forms("Тръмп") == ["Тръмп"]


def test_every_part_and_every_token_must_pair() -> None:
    assert agreement("Donaldem Trumpem", "Donald Trump", "ces").score == 1.0
    assert agreement("Thomas Bjørns", "Thomas Bjorn", "swe").score == 1.0
    assert agreement("Kim Jong Unem", "Kim Jong-un", "ces").score == 1.0
    # A partial name, an extra word, a misspelling, another word: no agreement.
    assert agreement("Trump", "Donald Trump", "deu").score == 0.0
    assert agreement("adayı Kavanaugh", "Brett Kavanaugh", "tur").score == 0.0
    assert agreement("Jeremy Corby", "Jeremy Corbyn", "sqi").score == 0.0
    assert agreement("Dustin Justin", "Dustin Johnson", "sqi").score == 0.0
    # A number is read by no sound: NTREX Bulgarian `BBC Radio` (the translation writes
    # `4's Today` apart) is not BBC Radio 4, whose `4` ran into `Radio` by sound
    assert agreement("BBC Radio", "BBC Radio 4", "bul").score == 0.0
    assert agreement("BBC Radio", "BBC Radio", "bul").score == 1.0


def test_parts_pair_in_order_or_reversed() -> None:
    assert agreement("ODA Nobunaga", "Nobunaga Oda", "deu").score == 1.0
    assert agreement("Nobunaga Oda Oda", "Nobunaga Oda", "deu").score == 0.0


def test_parts_may_spell_runs_of_english_tokens() -> None:
    assert list(runs(3, 1)) == [[(0, 3)]]
    assert list(runs(3, 2)) == [[(0, 1), (1, 3)], [(0, 2), (2, 3)]]
    assert list(runs(2, 3)) == []
    # A run is spelled whole or not at all: one part for two names agrees with neither.
    assert agreement("Trump", "Donald Trump", "deu").score == 0.0
    assert agreement("Kim", "Kim Jong-un", "ces").score == 0.0


def test_a_scorer_answers_for_non_latin_parts() -> None:
    calls = []

    def scorer(forms: object, run: object) -> tuple[float, str]:
        calls.append((forms, run))
        return (0.9, "model") if run == ("biden",) else (0.3, "model")

    found = agreement("Джо Байдена", "Joe Biden", "rus", scorer)
    assert found.score == 0.3 and calls[-1][0][:2] == ["Байдена", "Байден"]


def test_policies() -> None:
    exact, calibrated = TriageConfig(accept="exact"), TriageConfig()
    assert accept_round_trip("Trump", "Trump", "Trump", "deu", exact).accepted
    assert not accept_round_trip("Donald Trumpin", "Donald Trump", "Donald Trumpin", "fin",
                                 exact).accepted
    found = accept_round_trip("Donald Trumpin", "Donald Trump", "Donald Trumpin", "fin", calibrated)
    assert found.accepted and found.score == 1.0 and "Trumpin~trump" in found.why
    assert accept_round_trip("Ri Yong-ho", "Ri Yong Ho", "Ri Yong-ho", "swe", calibrated).accepted
    assert not accept_round_trip("Ri Yong-ho", "Ri Yong Ho", "Ri Yong-ho", "swe", exact).accepted
    refused = accept_round_trip("Jeremy Corby", "Jeremy Corbyn", "Jeremy Corby", "sqi", calibrated)
    assert not refused.accepted and "parts do not pair up" in refused.why


def test_the_shipped_models_decide_on_known_pairs() -> None:
    """Agreement through the models: Bulgarian and Greek spell English names their own way,
    Urdu writes other vowel letters than Arabic; another person's name never agrees."""
    from xel.names.transliterate import language_models

    calibrated = TriageConfig()
    cases = [("bul", "Доналд Тръмп", "Donald Trump"), ("ell", "Ντόναλντ Τραμπ", "Donald Trump"),
             ("urd", "ٹرمپ", "Trump"), ("rus", "Джо Байдена", "Joe Biden")]
    for lang, projection, english in cases:
        models = language_models(lang)
        found = accept_round_trip(projection, english, "?", lang, calibrated, models)
        assert found.accepted, (lang, found.why)
        assert not accept_round_trip(projection, "Boris Johnson", "?", lang, calibrated,
                                     models).accepted
    assert not accept_round_trip("Ντόναλντ Τραμπ", "Donald Trump", "?", "ell", TriageConfig(
        accept="exact"), language_models("ell")).accepted


def test_no_name_and_a_titled_projection_are_never_accepted_by_agreement() -> None:
    """`一条天皇` agrees with Ichijo through the model (it reads past the title), but a
    projection with a title is more than the name; an English word in lower case is a word
    NER took for a name, which agreement cannot vouch for."""
    from xel.names.transliterate import language_models

    calibrated, models = TriageConfig(), language_models("jpn")
    assert accept_round_trip("一条", "Ichijo", "?", "jpn", calibrated, models).accepted
    titled = accept_round_trip("一条天皇", "Ichijo", "?", "jpn", calibrated, models)
    assert not titled.accepted and "title" in titled.why
    assert not accept_round_trip("内侍", "naishi", "?", "jpn", calibrated, models).accepted
    # The round trip itself still decides: an exact back-translation is the name.
    assert accept_round_trip("一条天皇", "Ichijo", "Ichijo", "jpn", calibrated, models).accepted
