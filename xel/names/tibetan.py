"""Tibetan script (Dzongkha, Tibetan): syllables marked by the tsheg `་`, each a root letter with
the letters stacked on it, a vowel sign or the vowel `a` it carries, then final letters.
Dzongkha writes English names by sound (`ཀྲམཔ`, Trump; `བེརཊ`, Brett), English t and d with
the retroflex stacks `ཀྲ`, `དྲ` and letters `ཊ`, `ཌ`, which may or may not say their r. A
syllable is read out letter by letter; ICU has no Tibetan romanization, and uroman's puts the
carried vowel after the wrong letter (`krmap`)."""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xel.names.script import Family
from xel.names.sound import closed_alike

_LETTERS = dict(zip(
    "ཀཁགངཅཆཇཉཏཐདནཔཕབམཙཚཛཝཞཟའཡརལཤསཧཨཊཋཌཎཥཪ",
    ["k", "k", "g", "ng", "ch", "ch", "j", "ny", "t", "t", "d", "n", "p", "f", "b", "m", "ts",
     "ts", "dz", "w", "zh", "z", "", "y", "r", "l", "sh", "s", "h", "", "t", "t", "d", "n", "sh",
     "r"], strict=True))
# Subjoined letters are the letters' codes plus 0x50; a stacked ya, ra, la, wa has its own form.
_SUBJOINED = {chr(ord(ch) + 0x50): latin for ch, latin in _LETTERS.items()} | {
    "\u0fad": "w", "\u0fb1": "y", "\u0fb2": "r", "\u0fb3": "l", "\u0fba": "w", "\u0fbb": "y",
    "\u0fbc": "r"}
_VOWELS = {"\u0f71": "a", "\u0f72": "i", "\u0f74": "u", "\u0f7a": "e", "\u0f7c": "o",
           "\u0f7b": "ai", "\u0f7d": "au", "\u0f80": "i", "\u0f73": "i", "\u0f75": "u"}
_SYLLABLE_BREAK = regex.compile(r"[\u0f0b-\u0f14\s\u00b7\p{Pd}]+")
# The retroflex stacks as English writes them: t, d or tr, dr (`ཀྲམ`, tram; `དྲོ`, do).
_STACKS = regex.compile(r"^(?:kr|tr|gr|dr)")
_AS_ENGLISH = {"kr": ("tr", "t"), "tr": ("tr", "t"), "gr": ("dr", "d"), "dr": ("dr", "d")}


def syllable_reading(syllable: str) -> str:
    """A syllable as its letters say it: the root with its stack, its vowel (`a` where it has
    no sign), then the final letters (`ཀྲམཔ`, kramp; `ལནདྲ`, landr)."""
    out: list[str] = []
    voweled = False
    for k, ch in enumerate(syllable):
        if ch in _VOWELS:
            out.append(_VOWELS[ch])
            voweled = True
        elif ch in _SUBJOINED:
            out.append(_SUBJOINED[ch])
        elif ch in _LETTERS:
            if k > 0 and not voweled:
                out.append("a")
                voweled = True
            out.append(_LETTERS[ch])
    if not voweled and out:
        out.append("a")
    return "".join(out)


def tibetan_readings(token: str) -> list[str]:
    """A word read syllable by syllable, a retroflex stack with its r said (`tramp`) or not
    (`do`): all said, none said, and d unsaid with t said (`དྲོ་ནལ་ཀྲམ`, donaltram)."""
    syllables = [syllable_reading(s) for s in _SYLLABLE_BREAK.split(token) if s]

    def read(said_t: bool, said_d: bool) -> str:
        def english(m: regex.Match[str]) -> str:
            said, unsaid = _AS_ENGLISH[m[0]]
            return said if (said_t if said.startswith("t") else said_d) else unsaid
        return "".join(_STACKS.sub(english, s) for s in syllables)

    return [r for r in dict.fromkeys([read(True, True), read(False, False), read(True, False)])
            if r]


class Tibetan(Family):
    name = "tibetan"
    by_sound = True
    non_rhotic = True

    def sound_readings(self, token: str) -> list[str]:
        return tibetan_readings(token)

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """By sound, syllables closed on one consonant (`ཀྲམ`, tram: Trump)."""
        return closed_alike(self.read_out(forms), english)
