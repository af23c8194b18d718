"""Brahmic scripts of South Asia (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil,
Telugu, Kannada, Malayalam, Sinhala): English names are written by sound, consonant by
consonant, each consonant carrying an inherent vowel unless a vowel sign or a virama says
otherwise. So a name is read out syllable by syllable, once with every inherent vowel and once
as Hindi and its neighbours say it (the final one and those between a vowel and a full
syllable unsaid: `जोन्स` is jons, `हरिंगटन` haringtan, not jonsa, haringatana), and compared by
sound with the English name (`xel.names.sound`). Tamil has one letter for k and g, t and d,
p and b, and Dravidian languages add a vowel to clusters and word ends (`டிரம்ப்`, tiramp for
Trump), which the comparison forgives; case endings written onto a name (Bengali `ট্রাম্পের`,
Tamil `டிரம்பின்`, Marathi `ट्रम्पला`) are taken off as in other families.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence

import regex

from xel.names.script import Family, transliterator
from xel.names.sound import alike_when_folded, plain

# Scripts ICU converts to Devanagari letter for letter; Sinhala, which ICU does not, by
# `_SINHALA`.
_TO_DEVANAGARI = {"Beng": "Bengali-Devanagari", "Gujr": "Gujarati-Devanagari",
                  "Guru": "Gurmukhi-Devanagari", "Orya": "Oriya-Devanagari",
                  "Taml": "Tamil-Devanagari", "Telu": "Telugu-Devanagari",
                  "Knda": "Kannada-Devanagari", "Mlym": "Malayalam-Devanagari"}
_SINHALA = str.maketrans(dict(zip(
    "අආඇඈඉඊඋඌඍඑඒඓඔඕඖකඛගඝඞචඡජඣඤටඨඩඪණතථදධනපඵබභමයරලවශෂසහළ"
    "ාැෑිීුූෘෙේෛොෝෞ්ං",
    ["अ", "आ", "ऍ", "ऍ", "इ", "ई", "उ", "ऊ", "ऋ", "ए", "ए", "ऐ", "ओ", "ओ", "औ", "क", "ख",
     "ग", "घ", "ङ", "च", "छ", "ज", "झ", "ञ", "ट", "ठ", "ड", "ढ", "ण", "त", "थ", "द", "ध",
     "न", "प", "फ", "ब", "भ", "म", "य", "र", "ल", "व", "श", "ष", "स", "ह", "ळ",
     "ा", "ॅ", "ॅ", "ि", "ी", "ु", "ू", "ृ", "े", "े", "ै", "ो", "ो", "ौ", "्", "ं"],
    strict=True)) | {ord("ඟ"): "ङ्ग", ord("ඥ"): "ज्ञ", ord("ඬ"): "ण्ड", ord("ඳ"): "न्द",
                     ord("ඹ"): "म्ब", ord("ෆ"): "फ़"})
_RESPELT = {
    "Mlym": (("ൺ", "ണ്"), ("ൻ", "ന്"), ("ർ", "ര്"), ("ൽ", "ല്"), ("ൾ", "ള്"), ("ൿ", "ക്"),
             ("റ്റ", "ട്ട"), ("ന്റ", "ന്ട"), ("‌", ""), ("‍", "")),
    "Taml": (("ஃப", "ப"), ("ஃ", ""), ("‌", ""), ("‍", "")),
    # Gurmukhi's tippi is a nasal as bindi is (`ਟਰੰਪ`, Trump); addak doubles the next letter.
    "Guru": (("ੰ", "ਂ"), ("ੱ", "")),
}

# Devanagari, read as an English name would be spelt: consonants, vowel letters, vowel signs.
_CONSONANTS = {
    "क": "k", "ख": "kh", "ग": "g", "घ": "gh", "ङ": "ng", "च": "ch", "छ": "chh", "ज": "j",
    "झ": "jh", "ञ": "n", "ट": "t", "ठ": "th", "ड": "d", "ढ": "dh", "ण": "n", "त": "t",
    "थ": "th", "द": "d", "ध": "dh", "न": "n", "ऩ": "n", "प": "p", "फ": "f", "ब": "b",
    "भ": "bh", "म": "m", "य": "y", "र": "r", "ऱ": "r", "ल": "l", "ळ": "l", "ऴ": "l",
    "व": "v", "श": "sh", "ष": "sh", "स": "s", "ह": "h", "क़": "k", "ख़": "kh", "ग़": "g",
    "ज़": "z", "ड़": "r", "ढ़": "rh", "फ़": "f", "य़": "y",
}
_VOWELS = {"अ": "a", "आ": "a", "इ": "i", "ई": "i", "उ": "u", "ऊ": "u", "ऋ": "ri", "ॠ": "ri",
           "ऌ": "li", "ए": "e", "ऐ": "ai", "ओ": "o", "औ": "au", "ऍ": "e", "ऎ": "e",
           "ऑ": "o", "ऒ": "o", "ॲ": "e"}
_SIGNS = {"ा": "a", "ि": "i", "ी": "i", "ु": "u", "ू": "u", "ृ": "ri", "ॄ": "ri", "ॢ": "li",
          "े": "e", "ै": "ai", "ो": "o", "ौ": "au", "ॅ": "e", "ॆ": "e", "ॉ": "o", "ॊ": "o",
          "ॏ": "au", "ॖ": "u", "ॗ": "u"}
_NUKTA, _VIRAMA = "\u093c", "\u094d"
_NASALS = "\u0900\u0901\u0902"  # candrabindu, anusvara: a nasal, written n
_MAX_READINGS = 16
# Letters that also write other English sounds: `व` is v and w, `ज` j and z, Bengali `ভ` bh
# and v (`ডেভিড`, David).
_OTHER_SOUNDS = [(regex.compile(p), s) for p, s in (("v", "w"), ("j", "z"), ("bh", "v"))]
_LABIAL_NASAL = regex.compile(r"n(?=[pbmvw])")  # a nasal sign before p is m (`ट्रंप`, tramp)

# Languages whose speakers leave the inherent vowel unsaid at a word's end and between a vowel
# and a full syllable; Dravidian languages and Sinhala say it (or add u), Bengali says o.
# Scripts that write English consonant clusters as plain letters, each with its inherent vowel
# (Gurmukhi seldom writes a virama): the vowels are read as unsaid too.
_NO_VIRAMA = {"Guru"}
SCHWA_DELETING = {"hin", "mar", "nep", "guj", "pan", "ben", "asm", "ori", "ory", "snd"}
# One letter for a voiced and a voiceless consonant: names compare with voicing folded.
UNVOICED = {"tam"}

# Endings written onto names, per language (case markers and postpositions that join the
# word), longest tried first; Indo-Aryan languages mostly write them apart (`ट्रंप ने`).
SUFFIXES: dict[str, tuple[str, ...]] = {
    "ben": ("ের", "র", "কে", "এর", "েরা", "রা", "ই", "ও", "দের", "তে", "য়ের"),
    "asm": ("ৰ", "ক", "য়ে", "ে", "ৰে"),
    "mar": ("ला", "ने", "चा", "ची", "चे", "च्या", "ंना", "ांना", "ांनी", "नी", "ंनी", "कडे",
            "शी", "त", "मध्ये", "ांचा", "ांची", "ांचे", "ांच्या", "ही"),
    "guj": ("ના", "ને", "નો", "ની", "નું", "એ", "થી", "માં", "ે"),
    "pan": ("ਨੇ", "ਦਾ", "ਦੀ", "ਦੇ", "ਨੂੰ"),
    "nep": ("ले", "को", "की", "का", "लाई", "सँग", "द्वारा"),
    "tam": ("ின்", "இன்", "ுக்கு", "க்கு", "ை", "ும்", "ிடம்", "ால்", "ுடன்", "ின", "ிற்கு",
            "வின்", "வை", "வுக்கு", "வும்", "யின்", "யை", "யுடன்", "யும்", "யிடம்", "ின்"),
    "tel": ("ను", "కు", "కి", "తో", "యొక్క", "లో", "గారు", "ని", "ది", "డు", "ల"),
    "kan": ("ರು", "ರವರು", "ಅವರು", "ನ", "ನನ್ನು", "ನ್ನು", "ಗೆ", "ಕ್ಕೆ", "ರ", "ರನ್ನು", "ರಿಗೆ", "ಅವರ",
            "ವರ", "ವರು", "ಯ", "ಯನ್ನು", "ಯವರು"),
    "mal": ("ിന്റെ", "ന്റെ", "ിനെ", "നെ", "ിന്", "ന്", "ിൽ", "ൽ", "യിൽ", "ുടെ", "യുടെ", "യെ",
            "െ", "യ്ക്ക്", "ക്ക്", "ിനോട്", "ോട്", "യോട്", "ും", "യും", "ഉം", "ുമായി", "യുമായി",
            "ുമായുള്ള", "ുമൊത്ത്", "ിനെതിരെ", "ിനെതിരായ", "നെതിരെ", "ാണ്", "യാണ്", "ിനു", "ിനും",
            "ിനുമേലെ", "ാൽ", "ിനാൽ", "ിനായി", "ിനായുള്ള", "വിന്റെ", "വിനെ", "വിന്", "ു"),
    "sin": ("ගේ", "ට", "ව", "ා", "ගෙන්", "ද", "යි", "ගෙ"),
}


@functools.lru_cache(maxsize=1 << 16)
def devanagari(token: str, script: str) -> str:
    """The token in Devanagari letters, one for one (the readings are written once, for
    Devanagari); Devanagari and anything unknown stays as it is. Vowel signs written in two
    parts are composed first, and Malayalam's and Tamil's letters for sounds Devanagari
    writes otherwise spelt as it would (`ൺ` is `ണ്`, `റ്റ` is t, `ஃப` is f)."""
    token = unicodedata.normalize("NFC", token)
    for written, spelt in _RESPELT.get(script, ()):
        token = token.replace(written, spelt)
    if script in _TO_DEVANAGARI:
        converted = transliterator(_TO_DEVANAGARI[script]).transliterate(token)
        # ICU writes Malayalam's two-part o as e and aa
        return converted.replace("\u0947\u093e", "\u094b").replace("\u0946\u093e", "\u094a")
    if script == "Sinh":
        return token.translate(_SINHALA)
    return token


def syllables(text: str) -> list[tuple[str, str, bool]]:
    """Devanagari as (consonants, vowel, inherent) syllables: a consonant cluster (letters
    joined by virama) with its vowel, `inherent` where no vowel sign wrote it, no vowel where
    a virama ends the word; a vowel letter is a syllable with no consonant. Nasal signs add
    `n` to the vowel; other marks (joiners, accents) are passed over."""
    out: list[tuple[str, str, bool]] = []
    cluster: list[str] = []
    joined = False

    def flush() -> None:
        if cluster:
            out.append(("".join(cluster), "" if joined else "a", not joined))
            cluster.clear()

    units = unicodedata.normalize("NFC", text)
    k = 0
    while k < len(units):
        unit = units[k:k + 2] if units[k + 1:k + 2] == _NUKTA else units[k]
        k += len(unit)
        if unit in _CONSONANTS or unit[0] in _CONSONANTS:
            if not joined:
                flush()
            cluster.append(_CONSONANTS.get(unit, _CONSONANTS.get(unit[0], "")))
            joined = False
        elif unit == _VIRAMA:
            joined = True
        elif unit in _SIGNS and cluster:
            out.append(("".join(cluster), _SIGNS[unit], False))
            cluster.clear()
            joined = False
        elif unit in _VOWELS:
            flush()
            joined = False
            out.append(("", _VOWELS[unit], False))
        elif unit in _NASALS:
            flush()
            joined = False
            if out:
                c, v, inherent = out[-1]
                out[-1] = (c, v + "n", inherent)
    flush()
    return out


def _schwa_deleted(parts: list[tuple[str, str, bool]]) -> list[tuple[str, str, bool]]:
    """Hindi's rule, right to left: an inherent vowel at the end goes, and one between a
    vowel and a syllable with its own vowel (`ha-ri-nga-ta-na`: haringtan)."""
    out = list(parts)
    if out and out[-1][2] and len(out) > 1:
        out[-1] = (out[-1][0], "", False)
    for k in range(len(out) - 2, 0, -1):
        c, v, inherent = out[k]
        if inherent and out[k - 1][1] and out[k + 1][1] and out[k + 1][0]:
            out[k] = (c, "", False)
    return out


def _unsaid(parts: list[tuple[str, str, bool]]) -> list[tuple[str, str, bool]]:
    """Every inherent vowel unsaid but a nasalized one, as names are read where the script
    writes clusters without a virama (Gurmukhi `ਡੋਨਾਲਡ`, donald; `ਟਰੰਪ`, tramp)."""
    return [(c, "" if inherent and v == "a" else v, inherent) for c, v, inherent in parts]


def readings(token: str, script: str, deletes_schwa: bool) -> list[str]:
    """Latin readings of a name token, the usual one first: as the language says it, then
    with every inherent vowel; each also with the other sounds its letters write for English
    names (`_OTHER_SOUNDS`)."""
    parts = syllables(devanagari(token, script))
    if script == "Beng":  # the `ya` sign after a consonant writes the vowel of `cat`
        parts = [(c[:-1] if len(c) > 1 and c.endswith("y") else c, v, i) for c, v, i in parts]
    if not parts:
        return []
    spoken = [_schwa_deleted(parts), parts] if deletes_schwa else [parts, _schwa_deleted(parts)]
    if script in _NO_VIRAMA:
        spoken.insert(0, _unsaid(parts))
    found = [_LABIAL_NASAL.sub("m", "".join(c + v for c, v, _ in form)) for form in spoken]
    for pattern, sound in _OTHER_SOUNDS:
        found += [pattern.sub(sound, text) for text in found if pattern.search(text)]
    return list(dict.fromkeys(found))[:_MAX_READINGS]


def unvoiced(key: str) -> str:
    """A sound key with voicing folded, for scripts with one letter for both (Tamil, whose
    `ப` also writes f and v)."""
    return key.translate(str.maketrans("gdbjvzf", "ktpspsp"))


class Indic(Family):
    """South Asian Brahmic scripts: names compared by how they sound (see the module)."""

    name = "indic"
    by_sound = True
    non_rhotic = True
    stacked = 2
    suffixes = SUFFIXES

    @property
    def script(self) -> str:
        from xel.languages import language

        return language(self.lang).script

    def sound_readings(self, token: str) -> list[str]:
        return readings(token, self.script, self.code in SCHWA_DELETING)

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """A reading of the part and the English token share their sound key, or (three
        consonants or more) their consonants in order, voicing folded where the script
        writes none (Tamil), and the clusters Dravidian languages break with a vowel
        (`tiramp`, Trump) read whole."""
        fold = unvoiced if self.code in UNVOICED else _same
        readings = self.read_out(forms)
        if len(english) >= 2 and plain(english) in readings:
            return True
        return alike_when_folded(readings, english, fold)


def _same(key: str) -> str:
    return key

