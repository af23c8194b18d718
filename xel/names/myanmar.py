"""Myanmar (Burmese): English names are written by sound (`ဘရတ်`, Brett), b for v (`ကာဗန်နော့`,
Kavanaugh), and NTREX writes Burmese in the Zawgyi encoding rather than Unicode, so a token that
Google's Zawgyi detector (`myanmartools`) finds Zawgyi is first made Unicode (ICU's `Zawgyi-my`).
It is then read out for names: ICU's romanization (MLCTS) writes how a Burmese word is spelled
(`ပ်`, ut; `ဂျ`, gy), while a name is a consonant each, its vowel, its final (`ထရမ်ပ်`, taramp)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import regex
from myanmartools import ZawgyiDetector

from xel.names.script import Family, transliterator
from xel.names.sound import closed_alike


@functools.cache
def _zawgyi_detector() -> ZawgyiDetector:
    return ZawgyiDetector()


@functools.lru_cache(maxsize=1 << 14)
def unicode_burmese(token: str) -> tuple[str, ...]:
    """The token in Unicode Burmese: Zawgyi text converted, Unicode text as it is, and a token
    either encoding could have written (`စေကာ့`: Unicode seka, Zawgyi `စကော့`, Scott) both ways."""
    zawgyi = _zawgyi_detector().get_zawgyi_probability(token)
    if zawgyi <= 0.1:
        return (token,)
    converted = str(transliterator("Zawgyi-my").transliterate(token))
    return (converted,) if zawgyi > 0.9 else tuple(dict.fromkeys((token, converted)))


# Consonants as English names use them (aspirates plain, `ဖ` ph, `သ` th); `အ` carries a vowel.
_CONSONANTS = dict(zip(
    "ကခဂဃငစဆဇဈဉညဋဌဍဎဏတထဒဓနပဖဗဘမယရလဝသဟဠအဣဤဥဦဧဩဪဿ",
    ["k", "k", "g", "g", "ng", "s", "s", "z", "z", "ny", "ny", "t", "t", "d", "d", "n", "t",
     "t", "d", "d", "n", "p", "ph", "b", "b", "m", "y", "r", "l", "w", "th", "h", "l", "", "i",
     "i", "u", "u", "e", "o", "o", "s"], strict=True))
_CLUSTER = regex.compile(r"([\u1000-\u102a\u103f])([\u102b-\u103e]*)")
_VOWEL_SIGNS = regex.compile(r"[\u102b-\u1032]")
_KILLED = ("\u103a", "\u1039")  # asat; virama (the next consonant stacked under it)
# A final ယ် says e or l (`ကယ်လီ`, Kelly; `ဒေါ်နယ်`, Donald), and the creaky tone ့ may stand
# for a final stop English writes (`စကော့`, Scott) or not (`ကာဗန်နော့`, Kavanaugh):
# placeholders `latin_readings` says both ways. A final စ် is t (`ပစ်မန်း`, Pittman; `ေဝးလစ္`,
# Walid, not Wallace) but after another final, s (`သောမတ်စ်`, Thomas).
_FINAL_Y, _FINAL_S, _CREAKY = "\x00", "\x01", "\x02"
_FINALS = {"ယ": _FINAL_Y, "စ": _FINAL_S}
_SAID = {_FINAL_Y: ("", "l"), _CREAKY: ("", "t")}
_S_AFTER_FINAL = regex.compile(r"(?<=[^aeiou\x00-\x02])\x01")


def cluster_reading(base: str, marks: str) -> str:
    """One consonant with its medials and vowel: `ဂျို` jo, `ဘ` ba, `တ်` t (killed: a final)."""
    letter = _CONSONANTS.get(base, "")
    if "\u103b" in marks:  # medial y: `ဂျ` j, `ချ` ch
        letter = {"ဂ": "j", "ခ": "ch"}.get(base, letter + "y")
    letter += "r" * ("\u103c" in marks) + "w" * ("\u103d" in marks)
    if "\u103e" in marks and base == "ရ":
        letter = "sh"
    vowels = "".join(_VOWEL_SIGNS.findall(marks))
    if not vowels and any(k in marks for k in _KILLED):
        return _FINALS.get(base, letter)
    if "\u1031" in vowels and ("\u102c" in vowels or "\u102b" in vowels) or (
            "\u102d" in vowels and "\u102f" in vowels):
        vowel = "o"
    else:
        vowel = next((v for sign, v in (("\u1031", "e"), ("\u1032", "e"), ("\u102c", "a"),
                                        ("\u102b", "a"), ("\u102d", "i"), ("\u102e", "i"),
                                        ("\u102f", "u"), ("\u1030", "u")) if sign in vowels), "a")
    return letter + vowel + "n" * ("\u1036" in marks) + _CREAKY * ("\u1037" in marks)


# A killed consonant before the same consonant writes one English consonant (`မိုက္ကယ္ဆန္`,
# Mickelson).
_GEMINATE = regex.compile(r"([bdfgjklmnprstvz])\1")


# NTREX types the letter wa with the digit zero it looks like (`၀ီဒိုဒို`, Widodo): a zero
# before Burmese text is that letter.
ZERO_FOR_WA = r"\u1040(?=\p{Myanmar})"


def latin_readings(token: str) -> list[str]:
    """Latin readings of a Burmese token, each final that says two things said both ways; the
    digit zero typed for the letter wa it looks like (`၀ီဒိုဒို`, Widodo) read as wa."""
    readings = []
    for text in unicode_burmese(regex.sub(ZERO_FOR_WA, "\u101d", token)):
        read = "".join(cluster_reading(*m) for m in _CLUSTER.findall(text))
        read = _S_AFTER_FINAL.sub("s", read).replace(_FINAL_S, "t")
        placeholders = [p for p in _SAID if p in read]
        for said in itertools.product(*(_SAID[p] for p in placeholders)):
            out = read
            for placeholder, sound in zip(placeholders, said, strict=True):
                out = out.replace(placeholder, sound)
            readings.append(out)
    readings += [_GEMINATE.sub(r"\1", r) for r in readings if _GEMINATE.search(r)]
    return [r for r in dict.fromkeys(readings) if r]


_PARTICLES = ("ႏွင့္", "နှင့်", "ကို", "သည္", "သည်", "၏", "တို႔", "တို့", "ရဲ႕", "ရဲ့", "အား", "မွ", "မှ",
              "က")


def either_order(text: str) -> str:
    """The creaky tone and the killer typed in the other order (NTREX writes `ႏွင့္` as well as
    `ႏွင့္`): a particle is found however it was typed."""
    for a, b in (("\u1037", "\u1039"), ("\u1037", "\u103a")):
        text = text.replace(a + b, "\x00").replace(b + a, a + b).replace("\x00", b + a)
    return text


class Myanmar(Family):
    name = "myanmar"
    by_sound = True
    non_rhotic = True
    # Particles written onto a name's last syllable (`ကာဗန္ေနာ့ႏွင့္`, Kavanaugh and), in
    # Zawgyi and in Unicode: and, the object and subject markers, of, plural, from; titles written
    # before it (`သမၼတေဒၚနယ္ထရန္`, President Donald Trump; U; minister).
    enclitics = tuple(dict.fromkeys(spelled for particle in _PARTICLES
                                    for spelled in (particle, either_order(particle))))
    titles = {"mya": ("သမၼတ", "သမ္မတ", "ဦး", "ဝန္ႀကီး", "ဝန်ကြီး")}

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """By sound, syllables closed on one consonant (`ထရန္`, taran: Trump), which Burmese
        says as a glottal stop or a nasal (`ေဝးလစ္`, wailit: Walid); v written b."""
        return closed_alike(self.read_out(forms), english, folded)


def folded(text: str) -> str:
    """v as b (Burmese has no v), then `final_stops`."""
    return final_stops(text.replace("v", "b"))


_FINAL_STOP = regex.compile(r"(?<=[aeiouwy])[tdkgpb](?=[^aeiouwy]|$)")
_FINAL_NASAL = regex.compile(r"(?<=[aeiouwy])(?:ng|[nm])(?=[^aeiouwy]|$)")


def final_stops(text: str) -> str:
    """A syllable's final stop as t and final nasal as n, as Burmese says all of them alike;
    ng as n anywhere (`ဂျုံ`, jun: Jong)."""
    text = _FINAL_STOP.sub("t", text)
    text = _FINAL_NASAL.sub("n", text)
    return text.replace("ng", "n")
