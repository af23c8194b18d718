"""Name normalization: possessives, honorifics, spelling variants."""

from __future__ import annotations

import pytest

from xel.names.english import clean_spaces, name_key, split_name


@pytest.mark.parametrize(
    ("marked", "name", "honorific"),
    [
        ("Gary Holt's", "Gary Holt", None),
        ("Gary Holt’s", "Gary Holt", None),
        ("Chris James'", "Chris James", None),
        ("Mrs May", "May", "Mrs"),
        ("President Ahmet Sezer", "Ahmet Sezer", "President"),
        ("Dr. Christine Blasey Ford", "Christine Blasey Ford", "Dr."),
        ("“Boris Johnson”", "Boris Johnson", None),
        ("Det Insp Bob Blemmings", "Bob Blemmings", "Det Insp"),  # NTREX's police titles
        ("Lawyer Christian Schertz", "Christian Schertz", "Lawyer"),
        ("Martin Luther King Jr.", "Martin Luther King Jr.", None),
        ("Mr", "Mr", None),  # an honorific alone is left as the name, not dropped silently
    ],
)
def test_split_name(marked: str, name: str, honorific: str | None) -> None:
    split = split_name(marked)
    assert split is not None
    assert (split.name, split.honorific) == (name, honorific)
    assert marked[split.start:split.end] == split.name


def test_split_name_rejects_punctuation_only() -> None:
    assert split_name("'s") is None
    assert split_name("--") is None


def test_variants_share_a_key() -> None:
    assert name_key("Kim Jong Un") == name_key("Kim Jong-un") == name_key("KIM  JONG\u2011UN")
    assert name_key("José María Aznar") == "jose maria aznar"
    assert name_key("Walid al-Moualem") == name_key("Walid Al Moualem")
    assert name_key("Gary Holt") != name_key("Gary Holton")


def test_clean_spaces() -> None:
    assert clean_spaces(" Kim\u00a0Jong  Un ") == "Kim Jong Un"
