"""Myanmar (Burmese): English names are written by sound (`ဘရတ်`, Brett), b for v (`ကာဗန်နော့`,
Kavanaugh), and NTREX writes Burmese in the Zawgyi encoding rather than Unicode, so a token is
first made Unicode (ICU's `Zawgyi-my`), then read in Latin (`Myanmar-Latin`)."""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xel.names.script import Family, transliterator
from xel.names.sound import closed_alike

# Zawgyi writes the killed consonant with the stacking sign U+1039 where Unicode has U+103A.
_ZAWGYI_ASAT = "\u1039"


def unicode_burmese(token: str) -> str:
    """The token in Unicode Burmese: Zawgyi text converted, Unicode text as it is."""
    if _ZAWGYI_ASAT in token and "\u103a" not in token:
        return str(transliterator("Zawgyi-my").transliterate(token))
    return token


# ICU writes Burmese as MLCTS does; English names read: aspirates as plain consonants, `c` as s,
# long and nasal vowels plain (`ခရစ္စတင္း`, hkaraithcatainn: karitsatin, Christine).
_PLAIN = (("hk", "k"), ("hp", "p"), ("ht", "t"), ("hs", "s"), ("hm", "m"), ("hn", "n"),
          ("hl", "l"), ("bh", "b"), ("c", "s"), ("aa", "a"), ("ai", "i"), ("nn", "n"))


def latin_readings(token: str) -> list[str]:
    """Latin readings of a Burmese token, then with b as v (Burmese has no v)."""
    text = transliterator("Myanmar-Latin; Latin-ASCII; Lower").transliterate(
        unicode_burmese(token))
    text = "".join(ch for ch in text if ch.isalpha())
    for written, said in _PLAIN:
        text = text.replace(written, said)
    return list(dict.fromkeys([text, text.replace("b", "v")]))


class Myanmar(Family):
    name = "myanmar"
    by_sound = True
    non_rhotic = True
    # Particles written onto a name's last syllable (`ကာဗန္ေနာ့ႏွင့္`, Kavanaugh and), in
    # Zawgyi and in Unicode: and, the object and subject markers, of, plural; titles written
    # before it (`သမၼတေဒၚနယ္ထရန္`, President Donald Trump; U; minister).
    enclitics = ("ႏွင့္", "နှင့်", "ကို", "သည္", "သည်", "၏", "တို႔", "တို့", "ရဲ႕", "ရဲ့")
    titles = {"mya": ("သမၼတ", "သမ္မတ", "ဦး", "ဝန္ႀကီး", "ဝန်ကြီး")}

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """By sound, syllables closed on one consonant (`ထရန္`, taran: Trump), which Burmese
        says as a glottal stop or a nasal (`ေဝးလစ္`, wailit: Walid)."""
        return closed_alike(self.read_out(forms), english, final_stops)


def final_stops(text: str) -> str:
    """A syllable's final stop as t and final nasal as n, as Burmese says all of them alike."""
    text = regex.sub(r"(?<=[aeiouwy])[tdkgpb](?=[^aeiouwy]|$)", "t", text)
    return regex.sub(r"(?<=[aeiouwy])(?:ng|[nm])(?=[^aeiouwy]|$)", "n", text)
