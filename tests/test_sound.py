"""Names written by sound (Greek, Bulgarian, Urdu) agree with the English name by sound, and
wrong or partial projections still do not."""

from __future__ import annotations

import pytest

from xel.names.agree import agreement
from xel.names.sound import short_alike, sound_key, sounds_alike


@pytest.mark.parametrize(("a", "b"), [
    ("Kavanaugh", "kavano"), ("Christine", "kristin"), ("Pence", "pens"), ("Phil", "fil"),
    ("Fleetwood", "flitwud"), ("Halkett", "halket"), ("Gallagher", "galaher"),
])
def test_writings_of_one_name_share_a_key(a: str, b: str) -> None:
    assert sound_key(a) == sound_key(b)


@pytest.mark.parametrize(("projection", "english", "lang"), [
    ("Μπρετ Κάβανο", "Brett Kavanaugh", "ell"),
    ("Μάικ Πενς", "Mike Pence", "ell"),
    ("Ελίζαμπεθ Γουόρεν", "Elizabeth Warren", "ell"),
    ("Μάικλ Γκόουβ", "Michael Gove", "ell"),
    ("Брет Кавано", "Brett Kavanaugh", "bul"),
    ("Борис Джонсън", "Boris Johnson", "bul"),
    ("Тръмп", "Trump", "bul"),
    ("ڈونلڈ ٹرمپ", "Donald Trump", "urd"),
    ("الزبتھ وارن", "Elizabeth Warren", "urd"),
    ("سٹیون جیرارڈ", "Steven Gerrard", "urd"),
])
def test_names_written_by_sound_are_accepted(projection: str, english: str, lang: str) -> None:
    agreed = agreement(projection, english, lang)
    assert agreed.score == 1.0 and "by sound" in agreed.why


@pytest.mark.parametrize(("projection", "english", "lang"), [
    ("Ριμ Τζονγκ Ιλ", "Ri Yong Ho", "ell"),  # another person
    ("Τόμας", "Thomas Bjorn", "ell"),  # half the name
    ("ΠΓΔΜ", "Gjorge Ivanov", "ell"),  # a country's acronym
    ("Георги Иванов", "Gjorge Ivanov", "bul"),  # the Bulgarian form of another given name
    ("کرسٹین فورڈ", "Christine Blasey Ford", "urd"),  # a part missing
    ("ٹومی فلیٹ", "Tommy Fleetwood", "urd"),  # a cut-short part
    ("Дейтън Симпсън", "Dyteon Simpson", "rus"),  # Russian reads through its model only
])
def test_wrong_or_partial_names_are_not(projection: str, english: str, lang: str) -> None:
    assert agreement(projection, english, lang).score < 1.0


def test_a_syllable_agrees_with_nothing() -> None:
    assert not sounds_alike(["ra"], "Ri") and not sounds_alike(["ad"], "Wayde")
    assert not sounds_alike([], "Trump")



@pytest.mark.parametrize(("readings", "english", "alike"), [
    (["me"], "May", True), (["mei"], "May", True), (["mee"], "May", True), (["mi"], "May", False),
    (["ho"], "Ho", True), (["hu"], "Ho", False), (["li"], "Lee", True), (["le"], "Lee", False),
    (["men"], "May", False), (["ma"], "Tom", False), (["tom"], "Tom", False),
])
def test_a_token_of_one_syllable_is_said_with_its_consonant_and_vowel(
        readings: list[str], english: str, alike: bool) -> None:
    assert short_alike(readings, english) == alike
