"""Ethiopic (Amharic, Tigrinya): each letter is a consonant with one of seven vowels, and the
sixth is a short vowel or none at all (`ትራምፕ`, t(ə)ramp(ə): Trump), so a name is read with the
sixth-order vowel and without it. Prepositions are written onto the name (`የትራምፕ`, of
Trump; `ለ`, `በ`, `ከ`), case and definiteness after it (`ትራምፕን`)."""

from __future__ import annotations

import unicodedata

from xel.names.script import Family

# Vowel orders as Unicode names them: the syllable name's ending.
_ORDERS = (("AA", "a"), ("EE", "e"), ("WA", "wa"), ("A", "a"), ("U", "u"), ("I", "i"),
           ("E", "\0"), ("O", "o"))
_CONSONANTS = {"GLOTTAL": "", "PHARYNGEAL": "", "SZ": "s", "SH": "sh", "CH": "ch", "TH": "t",
               "PH": "p", "TS": "ts", "TZ": "ts", "ZH": "zh", "KX": "k", "QH": "k", "XA": "h",
               "KH": "kh", "NY": "ny", "GG": "g", "DD": "d", "CCH": "ch", "PP": "p", "Q": "k",
               "X": "h", "HH": "h"}
SUFFIXES: dict[str, tuple[str, ...]] = {
    "amh": ("ዎችን", "ዎች", "ን", "ም", "ው", "ስ"), "tir": ("ን", "ውን", "ም")}


def syllable(ch: str) -> str:
    """An Ethiopic letter in Latin, the sixth-order vowel as NUL (`ጆ`: jo, `ን`: n\\0)."""
    name = unicodedata.name(ch, "")
    if not name.startswith("ETHIOPIC SYLLABLE "):
        return ch
    body = name.removeprefix("ETHIOPIC SYLLABLE ")
    head, _, tail = body.rpartition(" ")
    if head:  # GLOTTAL A, PHARYNGEAL U
        consonant, vowel = _CONSONANTS.get(head, head.lower()), tail
    else:
        for ending, _ in _ORDERS:
            if body.endswith(ending) and len(body) > len(ending):
                consonant, vowel = body[:-len(ending)], ending
                break
        else:
            return body.lower()
        consonant = _CONSONANTS.get(consonant, consonant.lower())
    return consonant + dict(_ORDERS)[vowel]


def latin_readings(token: str) -> list[str]:
    """Latin readings of an Ethiopic token: the sixth-order vowel unsaid, then said as e."""
    text = "".join(syllable(ch) for ch in token)
    return list(dict.fromkeys([text.replace("\0", ""), text.replace("\0", "e")]))


class Ethiopic(Family):
    name = "ethiopic"
    suffixes = SUFFIXES
    proclitics = "የለበከ"

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)
