"""Thai, Lao and Khmer: abugidas written without spaces between words, that write English names
by sound (`โทมัส`, Thomas; `ដូណាល់ត្រាំ`, Donald Trump), letters English does not say marked
silent (Thai `ร์` in `โรเบิร์ต`, Robert), v written as w and g, j and z unvoiced. A name is
read out (Thai through ICU, Lao and Khmer through uroman) and compared by sound."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import icu
import regex

from xel.names.script import Family, transliterator
from xel.names.sound import consonants, english_keys, plain, sound_key
from xel.names.translit import romanize

# A Thai consonant (with its vowel sign) under the silencer `์`, and ICU's letters for the
# vowel carrier `อ` and for `จ` (x, c) as English writes the sounds.
_SILENT = regex.compile(r"[\u0e01-\u0e2e][\u0e34-\u0e39]?\u0e4c")
_THAI_LETTERS = ((r"kh", "k"), (r"th", "t"), (r"ph", "p"), (r"c(?!h)", "ch"), (r"x", "o"))


@cache
def _thai_latin() -> icu.Transliterator:
    return transliterator("Thai-Latin; Latin-ASCII")


def thai_readings(token: str) -> list[str]:
    """A Thai word as English spells its sounds, letters under the silencer said (they keep
    the English spelling: `ทรัมป์`, tramp) and unsaid (`คาวานอห์`, kawano)."""
    return list(dict.fromkeys(_thai(text) for text in (token.replace("\u0e4c", ""),
                                                       _SILENT.sub("", token))))


def _thai(token: str) -> str:
    text = _thai_latin().transliterate(token)
    text = regex.sub(r"[^a-z]", "", text.casefold())
    for old, new in _THAI_LETTERS:
        text = regex.sub(old, new, text)
    return text


def uroman_readings(token: str) -> list[str]:
    """A Lao or Khmer word romanized, without uroman's separators, aspirates as plain stops,
    and without the vowel uroman gives a final consonant (`ប្រ៊ែត`, braeta: Brett)."""
    text = regex.sub(r"[^a-z]", "", romanize(token))
    text = text.replace("kh", "k").replace("ph", "p").replace("th", "t")
    return list(dict.fromkeys([text, regex.sub(r"(?<=[^aeiou])[aeo]$", "", text)]))


def folded(key: str) -> str:
    """What these scripts write with one letter made one: voicing of g, j, z (`ก`, `จ`, `ซ`),
    v as w (`ว`), which the sound key then takes for a vowel."""
    return key.translate(str.maketrans("gjzv", "kssw"))


class SoutheastAsian(Family):
    name = "southeast_asian"
    non_rhotic = True

    def sound_readings(self, token: str) -> list[str]:
        readings = thai_readings(token) if self.code == "tha" else uroman_readings(token)
        return [r for r in readings if r]

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """A reading of the part and the English token share their folded sound key, or
        (three consonants or more) their consonants in order."""
        keys = {sound_key(folded(r)) for r in self.read_out(forms)}
        wanted = {sound_key(folded(k)) for k in english_keys(english, True) | {plain(english)}}
        wanted |= {sound_key(folded(plain(english)))}
        wanted = {k for k in wanted if len(consonants(k)) >= 2}
        if keys & wanted:
            return True
        skeletons = {consonants(k) for k in keys}
        return any(consonants(w) in skeletons for w in wanted if len(consonants(w)) >= 3)
