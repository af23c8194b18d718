"""Tibetan script (Dzongkha, Tibetan): syllables marked by the tsheg `་`, each a root letter with
the letters stacked on it, a vowel sign or the vowel `a` it carries, then final letters.
Dzongkha writes English names by sound (`ཀྲམཔ`, Trump; `བེརཊ`, Brett), English t and d with
the retroflex stacks `ཀྲ`, `དྲ` and letters `ཊ`, `ཌ`, which may or may not say their r. A
syllable is read out letter by letter; ICU has no Tibetan romanization, and uroman's puts the
carried vowel after the wrong letter (`krmap`). Tibetan writes a foreign name as Chinese does,
a Mandarin syllable each (`ཐེ་རོན་ཕུས`, 特朗普, Trump; `ཁ་ཝ་ནུའོ`, 卡瓦诺, Kavanaugh), so its
syllables are also read as Mandarin ones (`xel.names.mandarin`)."""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xel.names.mandarin import consonants, stands_for, syllables_read_as
from xel.names.script import Family
from xel.names.sound import closed_alike

# Letters as English names use them (`ཛ`, dz, writes English z: `ཨི་ལི་ཛི་བིཀྲི`, Elizabeth).
_LETTERS = dict(zip(
    "ཀཁགངཅཆཇཉཏཐདནཔཕབམཙཚཛཝཞཟའཡརལཤསཧཨཊཋཌཎཥཪ",
    ["k", "k", "g", "ng", "ch", "ch", "j", "ny", "t", "t", "d", "n", "p", "f", "b", "m", "ts",
     "ts", "z", "w", "zh", "z", "", "y", "r", "l", "sh", "s", "h", "", "t", "t", "d", "n", "sh",
     "r"], strict=True))
# Subjoined letters are the letters' codes plus 0x50; a stacked ya, ra, la, wa has its own form.
_SUBJOINED = {chr(ord(ch) + 0x50): latin for ch, latin in _LETTERS.items()} | {
    "\u0fad": "w", "\u0fb1": "y", "\u0fb2": "r", "\u0fb3": "l", "\u0fba": "w", "\u0fbb": "y",
    "\u0fbc": "r"}
_VOWELS = {"\u0f71": "a", "\u0f72": "i", "\u0f74": "u", "\u0f7a": "e", "\u0f7c": "o",
           "\u0f7b": "ai", "\u0f7d": "au", "\u0f80": "i", "\u0f73": "i", "\u0f75": "u"}
_SYLLABLE_BREAK = regex.compile(r"[\u0f0b-\u0f14\s\u00b7\p{Pd}]+")
_AFTER_TSHEG = regex.compile(r"(?<=[\u0f0b\u0f0c])")
# The retroflex stacks as English writes them: t, d or tr, dr (`ཀྲམ`, tram; `དྲོ`, do), also
# after a final (`བརཀྲི`, bart: Robert; `ལནདྲ`, land: Donald).
_STACKS = regex.compile(r"kr|tr|gr|dr")
# Finals g and d are said voiceless: `ཀྲེག`, trek (Track), `ཕུའུ་རེག`, fu-rek (Furyk), though
# English g is written with them too (`ཀཱེརག`, Craig); a final `བ` writes English v
# (`ཟོ་རན་ཟེབ`, Zoran Zaev), so it stays b.
_VOICELESS = {"ག": "k", "ད": "t"}
_AS_ENGLISH = {"kr": ("tr", "t"), "tr": ("tr", "t"), "gr": ("dr", "d"), "dr": ("dr", "d")}


def syllable_reading(syllable: str, voiced: bool = False) -> str:
    """A syllable as its letters say it: the root with its stack, its vowel (`a` where it has
    no sign), then the final letters (`ཀྲམཔ`, kramp; `ལནདྲ`, landr), voiceless unless
    `voiced`."""
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
            elif voweled and syllable[k + 1:k + 2] not in _SUBJOINED:
                out.append(_LETTERS[ch] if voiced else _VOICELESS.get(ch, _LETTERS[ch]))
            else:
                out.append(_LETTERS[ch])
    if not voweled and out:
        out.append("a")
    return "".join(out)


# Dzongkha writes a consonant English ends a syllable with as a syllable of its own with the
# vowel i (`བེ་རེཀྲི`, be-re-tri: Brett; `ཐོ་མསི`, Thomas; `དྲི་ནི`, Dianne), and an s before a
# consonant as `ཨིསི` or `ཨེས` (`ཨིསི་ཀོཀྲི`, is-ko-tri; `ཨེས་ཀོཊ`, es-kot: Scott).
_FINAL = regex.compile(r"(?<=[aeiou][a-z]*)((?:[kgtd]r|[kgtdszfbpnlmr]|sh|ts|ch))i$")
_S_BEFORE = regex.compile(r"^[aei]si?$")


def tibetan_readings(token: str) -> list[str]:
    """A word read syllable by syllable, a retroflex stack with its r said (`tramp`) or not
    (`do`): all said, none said, and d unsaid with t said (`དྲོ་ནལ་ཀྲམ`, donaltram); each
    also with the vowel of final consonants written as syllables left out (`beret`); and
    with its finals voiced."""
    return list(dict.fromkeys(r for voiced in (False, True) for r in _readings(
        [syllable_reading(s, voiced) for s in _SYLLABLE_BREAK.split(token) if s])))


def _readings(syllables: list[str]) -> list[str]:
    """The syllables' readings joined, each way of saying the stacks and finals."""
    def read(said_t: bool, said_d: bool, finals: bool) -> str:
        def english(m: regex.Match[str]) -> str:
            said, unsaid = _AS_ENGLISH[m[0]]
            return said if (said_t if said.startswith("t") else said_d) else unsaid
        out = []
        for k, syllable in enumerate(syllables):
            if finals and k == 0 and len(syllables) > 1 and _S_BEFORE.match(syllable):
                syllable = "s"
            elif finals:
                syllable = _FINAL.sub(r"\1", syllable)
            out.append(_STACKS.sub(english, syllable))
        return "".join(out)

    said = [(True, True), (False, False), (True, False)]
    return [r for r in dict.fromkeys(read(t, d, f) for f in (False, True) for t, d in said)
            if r]


# Tibetan letters as the initials of the Mandarin syllables they write, in the classes of
# `xel.names.mandarin` (`ཀྲ` zh, `ཅ` j, `ཚ` c, `ཞ` r, `ཧྥ` f, `ཧྲ` sh, `ཕ` p or f: `ཕུའུ` is
# 普 pu in Simpson, 夫 fu in Jeff); vowel carriers and `ཡ` have none.
_MANDARIN = {"ཀ": "K", "ཁ": "K", "ག": "K", "ཅ": "C", "ཆ": "C", "ཇ": "C", "ཙ": "C", "ཚ": "C",
             "ཛ": "C", "ཏ": "T", "ཐ": "T", "ད": "T", "པ": "P", "ཕ": "PF", "བ": "P", "ཧ": "K",
             "ཤ": "S", "ས": "S", "ཟ": "S", "ཞ": "L", "ལ": "L", "ར": "L", "མ": "M", "ན": "N",
             "ཉ": "N", "ཝ": "W", "ཡ": "", "ཨ": "", "འ": "", "ང": ""}
_STACKED = {("ཀ", "\u0fb2"): "C", ("ཁ", "\u0fb2"): "C", ("ཏ", "\u0fb2"): "C",
            ("ཐ", "\u0fb2"): "C", ("ཧ", "\u0fb2"): "S", ("ཧ", "\u0fa5"): "F", ("བ", "\u0fb1"): ""}
# A prefix letter, unsaid, before a root that carries a vowel or a stack (`དབྱི`, 伊 yi;
# `གཡོད`, 约 yue); `འ` after a letter lengthens its vowel (`མའེ`, 梅 mei).
_PREFIXES = "གདབམའ"
_MARKS = regex.compile(r"[\u0f71-\u0fbc]")


def mandarin_syllables(token: str) -> tuple[tuple[str, bool], ...]:
    """Per syllable, the Mandarin initial's class and whether it ends in a nasal (`རོན`: L,
    yes), and a final `ར` as a syllable of its own (`ཀེར`, 格尔 ge er); () where a syllable
    does not begin with a letter."""
    out = []
    for syllable in (s for s in _SYLLABLE_BREAK.split(token) if s):
        if (len(syllable) > 2 and syllable[0] in _PREFIXES and syllable[1] in _MANDARIN
                and syllable[1] != "འ" and _MARKS.match(syllable[2])):
            syllable = syllable[1:]
        root = syllable[0]
        if root not in _MANDARIN:
            return ()
        initial = _STACKED.get((root, syllable[1:2]), _MANDARIN[root])
        out.append((initial, syllable.endswith(("ན", "ང"))))
        if len(syllable) > 2 and syllable.endswith("ར"):
            out.append(("L", False))
    return tuple(out)


# Case particles and `དང` (and), written as syllables after a name (`ཏུའོ་ལི་མོང་ཅ་ཡིས`,
# Dolly Menga + ergative): never a syllable of a name.
PARTICLES = ("ཀྱིས", "གྱིས", "ཡིས", "གིས", "ཀྱི", "གྱི", "ཡི", "གི", "འི", "དང", "ནས", "ལས",
             "ལུ", "ཀྱང", "ཡང")


def reads_as_mandarin(sounds: Sequence[tuple[str, bool]], english: Sequence[str],
                      several: bool | None = None) -> bool:
    """The syllables split, in order, into runs that each read as the next English token; in
    a name of `several` tokens, a token of one consonant (`May`, `Ho`) as one syllable."""
    several = len(english) > 1 if several is None else several
    if not english:
        return not sounds
    return any((syllables_read_as(sounds[:k], english[0])
                or (k == 1 and several and one_syllable(sounds[0], english[0])))
               and reads_as_mandarin(sounds[k:], english[1:], several)
               for k in range(1, len(sounds) - len(english) + 2))


def one_syllable(sound: tuple[str, bool], token: str) -> bool:
    """A syllable is an English token of one consonant (or none): that consonant its initial,
    a final n or ng its nasal (`ཡུང`, 勇 yong: Yong)."""
    token = regex.sub(r"ng$", "n", token.lower())
    english = consonants(regex.sub(r"n$", "", token))
    initial, nasal = sound
    return len(english) <= 1 and nasal == token.endswith(("n", "m")) and (
        stands_for(initial, english) if english else not initial)


# Offices written before a name, which the aligner takes in with it (`སྲིད་འཛིན་Trump`,
# President Trump; `བློན་ཆེན་ཐེ་ར་ས`, Prime Minister Theresa): president, prime minister,
# minister, judge or senator.
TITLES = ("སྲིད་འཛིན", "སྲིད་བློན", "བློན་ཆེན", "བློན་པོ", "ཁྲིམས་དཔོན")


class Tibetan(Family):
    name = "tibetan"
    by_sound = True
    non_rhotic = True
    enclitics = tuple("\u0f0b" + p for p in PARTICLES)
    titles = {code: tuple(t + "\u0f0b" for t in TITLES) for code in ("bod", "dzo")}

    def titled(self, projection: str) -> bool:
        """An office among the projection's syllables: a name is never run on with one."""
        said = "\u0f0b".join(["", *(s for s in _SYLLABLE_BREAK.split(projection) if s), ""])
        return any(f"\u0f0b{t}\u0f0b" in said for t in TITLES)

    def sound_readings(self, token: str) -> list[str]:
        return tibetan_readings(token)

    def syllables(self, part: str) -> list[str]:
        """Syllables, each with its tsheg: Dzongkha runs a name's words together as it runs
        all words (`དྲོ་ལནདྲ་ཀྲམཔ`, Donald Trump), so where a name's tokens begin is found by
        joining syllables, as spaced parts are joined in Burmese."""
        return [s for s in _AFTER_TSHEG.split(part) if s]

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """By sound, syllables closed on one consonant (`ཀྲམ`, tram: Trump), v written b
        (`ཀེ་བ་ནའུ`, Kavanaugh); in Tibetan, also as Mandarin syllables."""
        said = unwritten_articles(english)
        if any(closed_alike(self.read_out(forms), e, folded)
               for e in dict.fromkeys([english, " ".join(said)])):
            return True
        return self.code == "bod" and any(
            reads_as_mandarin(mandarin_syllables(form), said)
            for form in forms if not set(_SYLLABLE_BREAK.split(form)) & set(PARTICLES))


def unwritten_articles(english: str) -> list[str]:
    """The tokens of an English name Chinese writes: not the Arabic article (`al-Moualem`,
    穆阿利姆 mu a li mu)."""
    tokens = english.split()
    return [t for t in tokens if t.lower() not in ("al", "el")] if len(tokens) > 1 else tokens


_D_NOT_DS = regex.compile(r"d(?!s)")


def folded(text: str) -> str:
    """v as b, and d as t: Dzongkha writes English v with `བ` and d with `ཊ` as well as `ཌ`
    (`པེ་ཀྲིག་རིཊ`, Patrick Reed), but not in ds, which the key would make one s. It looks at
    no more than the next letter: the name's parts are read together and English's token by
    token, so a fold that depended on a word's end would treat the two sides apart."""
    return _D_NOT_DS.sub("t", text.replace("v", "b"))
