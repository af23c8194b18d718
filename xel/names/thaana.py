"""Thaana (Dhivehi): an alphabet whose vowels are marks over the consonants (`ޓްރަމްޕް`,
Trump), so names are read out whole, by sound; `ގެ` (of) and other case endings are written
onto the name."""

from __future__ import annotations

from xel.names.script import Family, transliterator

SUFFIXES: dict[str, tuple[str, ...]] = {
    "div": ("ގެން", "ގެ", "އަށް", "އާ", "ށް", "އެވެ", "އަކީ")}


def latin_readings(token: str) -> list[str]:
    """ICU's Thaana romanization, without the apostrophes of `alifu`."""
    text = transliterator("Thaana-Latin; Latin-ASCII; Lower").transliterate(token)
    return [text.replace("'", "")]


class Thaana(Family):
    name = "thaana"
    by_sound = True
    non_rhotic = True
    suffixes = SUFFIXES

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)
