"""Central Kurdish (Sorani, `ckb-Arab`) and Uyghur names in Arabic letters (issue 35): both
write English names by sound with every vowel, so projection finds their tokens by sound as
well as by the Arabic model; both write h with `ھ`; a lone `و` (and) is never a name. The
sentences and their links are NTREX-128's and the aligner's."""

from __future__ import annotations

import pytest
from test_project import MODELS, pair, project

from xel.names.families import family
from xel.names.match import make_matcher

GEORGE_W_BUSH = (
    "George W. Bush has been picking up the phone to call Senators, lobbying them to support "
    "Mr Kavanaugh, who worked in the White House for Mr Bush and through him met his wife "
    "Ashley, who was Mr Bush's personal secretary.",
    "جۆرج دەبلیو. بۆش دەستی بە تەلەفۆنکردن کردووە بۆ سیناتۆرەکان، فشاریان لێدەکات کە پاڵپشتی "
    "بەڕێز کاڤانۆ بکەن، کە لە کۆشکی سپی دا لەگەڵ بەڕێز بۆش کاری کردووە و لە ڕێگای ئەوەوە "
    "خێزانەکەی ئەوی ئاشلی، کە سکرتێرەی تایبەتی بەڕێز بۆش بوو ناسی.")


@pytest.mark.parametrize("lang, written, english", [
    ("ckb-Arab", "ئەنجێڵا", "Angela"), ("ckb-Arab", "جۆرج", "George"),
    ("ckb-Arab", "ھۆ", "ho"), ("ckb-Arab", "ڕاجێرز", "Rogers"),
    ("uig", "ئالېكىس", "Alex"), ("uig", "ئوفېلىيا", "Ophelia"),
])
def test_names_written_with_every_vowel_are_found_by_sound(lang: str, written: str,
                                                          english: str) -> None:
    matcher = make_matcher(lang, MODELS, [english])
    assert matcher.score(english.lower(), written) == 1.0


def test_kurdish_and_uyghur_read_heh_doachashmee_as_h() -> None:
    for lang, written, reading in (("ckb-Arab", "ھۆ", "ho"), ("uig", "ھېنرىك", "henrik")):
        rules = family(lang)
        assert reading in rules.sound_readings(written)
        assert rules.model_inputs(written)[-1].startswith("ه")
    assert family("urd").model_inputs("بھٹو")[-1] == "بتو"  # Urdu's mark of aspiration


def test_a_lone_waw_is_no_initial() -> None:
    matcher = make_matcher("ckb-Arab", MODELS, ["George W. Bush"])
    assert matcher.score("w", "و") == 0.0


def test_digits_have_no_reading_that_spells_a_name() -> None:
    assert not family("ckb-Arab").sounds_like(["٢"], "2&1")


@pytest.mark.parametrize("src, tgt, links, name, expected", [
    # The first name written by sound, aligned with `Chancellor` too.
    ("German Chancellor Angela Merkel and Russian President Vladimir Putin",
     "نێوان سەرۆکی ئەڵمانیا ئەنجێڵا مێرکڵ و سەرۆکی ڕووسیا ڤلادیمێڕ پوتین",
     {(0, 2), (1, 1), (1, 3), (2, 3), (3, 4)}, "Angela Merkel", "ئەنجێڵا مێرکڵ"),
    # `Ho` written with `ھ`, after a hyphen.
    ("North Korean Foreign Minister Ri Yong-ho blamed US sanctions",
     "وەزیری دەرەوەی کۆریای باکوور ڕی یۆنگ-ھۆ سەرزەنشتی سزاکانی ئەمریکای کرد",
     {(4, 4), (5, 5), (6, 6), (7, 5), (7, 7)}, "Ri Yong-ho", "ڕی یۆنگ-ھۆ"),
    # Not `ڕێگای` (by way of), `و` (and) and the other Bush.
    (*GEORGE_W_BUSH, {(0, 0), (1, 1), (2, 2), (3, 3)}, "George W. Bush", "جۆرج دەبلیو. بۆش"),
])
def test_kurdish_names_are_projected_whole(src: str, tgt: str, links: set[tuple[int, int]],
                                           name: str, expected: str) -> None:
    matcher = make_matcher("ckb-Arab", MODELS, [name])
    assert project(pair(src, tgt, links), name, "ckb-Arab", matcher=matcher) == expected
