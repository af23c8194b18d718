"""Thaana (Dhivehi): an alphabet whose vowels are marks over the consonants (`ޓްރަމްޕް`,
Trump), so names are read out whole, by sound; `ގެ` (of), `ވެސް` (also) and other endings are
written onto the name."""

from __future__ import annotations

import re

from xel.names.script import Family, transliterator

SUFFIXES: dict[str, tuple[str, ...]] = {
    "div": ("ގެން", "ގެ", "އަށް", "އާ", "ށް", "އެވެ", "އަކީ", "ވެސް", "ވަނީ")}


def latin_readings(token: str) -> list[str]:
    """ICU's Thaana romanization, without the apostrophes of `alifu`, and as an English name
    may sound in it: `ވ` writes English w as well as v (`ވޮރެން`, Warren); a final consonant
    is closed with u (`ވަލީދު`, Walid); n is said m before p and b (`ޕޮންޕޭއޯ`, Pompeo)."""
    text = transliterator("Thaana-Latin; Latin-ASCII; Lower").transliterate(token)
    text = text.replace("'", "")
    unclosed = re.sub(r"(?<=[^aeiou])u$", "", text)
    forms = {text, unclosed}
    forms |= {re.sub(r"n(?=[pb])", "m", f) for f in forms}
    forms |= {f.replace("v", "w") for f in forms}
    return sorted(forms, key=lambda f: (f != text, f))


class Thaana(Family):
    name = "thaana"
    by_sound = True
    non_rhotic = True
    suffixes = SUFFIXES

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)
