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
from xel.names.sound import closed_alike
from xel.names.translit import romanize

# A Thai consonant (with its vowel sign) under the silencer `์`, and ICU's letters for the
# vowel carrier `อ` and for `จ` (x, c) as English writes the sounds.
_SILENT = regex.compile(r"[\u0e01-\u0e2e][\u0e34-\u0e39]?\u0e4c")
_THAI_LETTERS = tuple((regex.compile(old), new) for old, new in (
    (r"kh", "k"), (r"th", "t"), (r"ph", "p"), (r"c(?!h)", "ch"), (r"x", "o")))
_NOT_LETTER = regex.compile(r"[^a-z]")


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
    text = _NOT_LETTER.sub("", text.casefold())
    for old, new in _THAI_LETTERS:
        text = old.sub(new, text)
    return text


# Vowels Lao writes before the consonant they follow (`ໂດ`, do), which uroman reads in the
# order written (`od`); Lao `ຣ` is r in names (`ທຣ້ຳ`, Trump), which uroman reads l.
_LAO_BEFORE = regex.compile(r"([\u0ec0-\u0ec4])([\u0e81-\u0eae\u0edc-\u0edf])")
# Lao `ອ` begins a word that begins with a vowel (`ອຸນ`, un), which uroman reads o.
_LAO_CARRIER = regex.compile(r"^\u0ead(?=[\u0eb0-\u0ebc])")
# Khmer `អ` and Lao `ອ` carry a vowel (uroman's q, or nothing), `ហ្វ` is f; c is ch or j.
_URO_LETTERS = tuple((regex.compile(old), new) for old, new in (
    (r"q", ""), (r"hv", "f"), (r"kh", "k"), (r"ph", "p"), (r"th", "t"), (r"c(?!h)", "ch"),
    (r"ae", "e")))
_FINAL_VOWEL = regex.compile(r"(?<=[^aeiou])[aeo]$")


def uroman_readings(token: str) -> list[str]:
    """A Lao or Khmer word romanized, without uroman's separators, aspirates as plain stops,
    and without the vowel uroman gives a final consonant (`ប្រ៊ែត`, braeta: Brett)."""
    token = _LAO_BEFORE.sub(r"\2\1", token.replace("\u200b", ""))
    token = _LAO_CARRIER.sub("", token)
    text = _NOT_LETTER.sub("", romanize(token.replace("\u0ea3", "\u0e23")))
    for old, new in _URO_LETTERS:
        text = old.sub(new, text)
    return list(dict.fromkeys([text, _FINAL_VOWEL.sub("", text)]))


# Khmer letters as English names use them: consonants (aspirates plain; `អ` carries a vowel),
# independent vowels, dependent vowels; `ហ` over a subscript voices it (`ហ្គ` g, `ហ្វ` f).
_KHMER_CONSONANTS = dict(zip(
    "កខគឃងចឆជឈញដឋឌឍណតថទធនបផពភមយរលវឝឞសហឡអឣឤឥឦឧឨឩឪឫឬឭឮឯឰឱឲឳ",
    ["k", "k", "k", "k", "ng", "ch", "ch", "ch", "ch", "ny", "d", "t", "d", "t", "n", "t", "t",
     "t", "t", "n", "b", "p", "p", "p", "m", "y", "r", "l", "v", "s", "s", "s", "h", "l", "",
     "a", "a", "i", "i", "u", "u", "u", "u", "r", "r", "l", "l", "e", "ai", "o", "o", "au"],
    strict=True))
_KHMER_VOWELS = dict(zip("ាិីឹឺុូួើឿៀេែៃោៅ", ["a", "i", "i", "e", "e", "u", "u", "ua", "ae", "ea",
                                              "ie", "e", "ae", "ai", "ao", "au"], strict=True))
_KHMER_CLUSTER = regex.compile(r"([\u1780-\u17b3])((?:\u17d2[\u1780-\u17a2])*)([\u17b6-\u17dd]*)")


def khmer_reading(token: str) -> str:
    """A Khmer word read out for names: each consonant cluster with its vowel, or, bare, as a
    final after an open syllable (`ថម`, tom) and with the vowel it carries otherwise (`ប្យន`,
    byan; a register sign says it carries one: `យ៉ន`, yon); a letter marked silent is a final
    English writes (`វូតស៍`, vuts: Woods); `ំ` m, the robat `៌` r (`ថមមីហ្វ្លីតវូត`,
    tammiflitvut: Tommy Fleetwood)."""
    out, open_syllable = [], False
    for base, subscripts, marks in _KHMER_CLUSTER.findall(token):
        below = sorted(subscripts[1::2], key=lambda ch: ch == "រ")  # `ហ្រ្វ`: f, then r
        said = "".join(_KHMER_CONSONANTS.get(ch, "") for ch in [base, *below])
        if base == "ហ" and below:
            said = "f" + said[2:] if below[0] == "វ" else said[1:]
        vowel = "".join(_KHMER_VOWELS.get(ch, "") for ch in marks)
        if (not vowel and open_syllable and not below
                and not set(marks) & {"\u17c9", "\u17ca"}) or "\u17cd" in marks:
            out.append(said)
            open_syllable = False
            continue
        vowel = vowel or ("" if "\u17cb" in marks else "a")
        out.append(said + vowel + "m" * ("\u17c6" in marks) + "r" * ("\u17cc" in marks))
        open_syllable = bool(vowel) and "\u17c6" not in marks
    return "".join(out)


def folded(key: str) -> str:
    """What these scripts write with one letter made one: voicing of g, j, z (`ก`, `จ`, `ซ`),
    v as w (`ว`), which the sound key then takes for a vowel."""
    return key.translate(str.maketrans("gjzv", "kssw"))


def folded_dt(key: str) -> str:
    """`folded`, and d as t: Lao and Khmer write an English d with the letter they say t at the
    end of a syllable (Lao `ເບ​ຣັດ`, Brett; Khmer `ភែធធ្រីគរីដ`, Patrick Reed, `វូតស៍`, Woods),
    where Thai keeps them apart (`วูดส์`)."""
    return folded(key).replace("d", "t")


class SoutheastAsian(Family):
    name = "southeast_asian"
    by_sound = True
    non_rhotic = True
    titles = {"khm": ("លោកស្រី", "លោក", "អ្នកស្រី", "អ្នកនាង", "កញ្ញា"),
              "lao": ("ທ່ານນາງ", "ທ່ານ", "ນາງ", "ທ້າວ"),
              "tha": ("นางสาว", "นาย", "นาง", "คุณ")}

    def sound_readings(self, token: str) -> list[str]:
        readings = thai_readings(token) if self.code == "tha" else uroman_readings(token)
        if self.code == "khm":
            readings.append(khmer_reading(token))
        return [r for r in dict.fromkeys(readings) if r]

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """By sound, syllables closed on one consonant (`ត្រាំ`, tram: Trump), a few sounds
        written with one letter (`folded`)."""
        return closed_alike(self.read_out(forms), english,
                            folded if self.code == "tha" else folded_dt)
