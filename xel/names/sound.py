"""Whether a name written by sound in another alphabet reads as the English name.

Greek, Bulgarian and Urdu write English names as they sound (`Μπρετ Κάβανο`, `Брет Кавано` for Brett
Kavanaugh), so their letters say little about English spelling: `augh` is `ο`, `w` is `ου`,
`c` is `κ` or `σ`. Both sides are reduced to a key that keeps what the two writings share:
consonants by sound (`ph` and `f`, soft `c` and `s`, `z` and `s`, `th` and `t`), the vowels and
`w`/`y` as one vowel, silent `h` and final `e` dropped, repeats as one. A projected part agrees
with an English token when one of its readings (the script family's, `sound_readings`) has the
token's key. Keys are coarse (`Tim` and `Tom` share one), which is why this is used only to
compare a projection with the name it was aligned to, never to search for a name.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Callable

from rapidfuzz.distance import OSA

_VOWELS = re.compile(r"[aeiouyw]+")
_NON_RHOTIC = re.compile(r"(?<=[aeiou])r+(?![aeiouy])")
_RULES = [(re.compile(pattern), repl) for pattern, repl in [
    (r"chr", "kr"), (r"ph", "f"), (r"gh", ""), (r"ck", "k"), (r"c(?=[eiy])", "s"), (r"q", "k"),
    (r"x", "ks"), (r"(?<=[^aeiouy])e$", ""), (r"dzh|dj|zh|gj", "j"), (r"(?<=n)d(?=s)", ""),
    (r"sh|tch|ch|ts|tz|z", "s"), (r"c", "k"), (r"th", "t"), (r"h", ""),
]]


def plain(text: str) -> str:
    """Lower-case ASCII letters of a Latin text (accents and other marks dropped)."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in folded if "a" <= ch <= "z")


@functools.lru_cache(maxsize=1 << 18)
def sound_key(text: str) -> str:
    """The key two writings of a name by sound share (`Kavanaugh`, `kavano`: kavan)."""
    out = plain(text)
    for pattern, repl in _RULES:
        out = pattern.sub(repl, out)
    out = _VOWELS.sub("a", out)
    return re.sub(r"(.)\1+", r"\1", out)


@functools.lru_cache(maxsize=1 << 16)
def english_keys(token: str, non_rhotic: bool = False) -> frozenset[str]:
    """The keys of an English token; `ch` is k in `Michael`, ch in `Charles`; `g` before e
    and i is j in `Gerrard`; a final `gh` is silent, g as other languages read it
    (`Kavanaugh`, `कवानौघ`) or f as in `tough` (Khmer `ខាវ៉ាណាហ្វ`), between vowels g
    (`Gallagher`); `Mc` as mak (`McGregor`); a final v as f, as Russian says it (`Ivanov`,
    Pashto `ایوانوف`); with `non_rhotic`, each also with an `r` after a vowel unsaid, as in
    British English,
    which some scripts' transcriptions follow (Dhivehi `ޖެރާޑް`, jerad: Gerrard; Korean `마크`,
    mak: Mark)."""
    text = plain(token)
    said = [text, text.replace("ch", "k"), re.sub(r"g(?=[eiy])", "j", text),
            re.sub(r"gh$", "g", text), re.sub(r"gh$", "f", text),
            re.sub(r"(?<=[aeiou])gh(?=[aeiou])", "g", text),
            re.sub(r"(?<=[aeiou])v$", "f", text), re.sub(r"^mc", "mak", text)]
    if non_rhotic:
        said += [_NON_RHOTIC.sub("h", s) for s in said]  # h: unsaid, and no final e made
    return frozenset(sound_key(s) for s in said)


def finals_reduced(key: str) -> str:
    """A sound key whose final consonants are one: scripts that end a syllable on one consonant
    write `Trump` as tram and `Donald` as donal."""
    return re.sub(r"(?<=a[^a])[^a]+$", "", key)


def _vowels_as_one(text: str) -> str:
    """A token's letters, every vowel run one `a`, nothing else changed (`Ho`: ha): what is left
    of a token whose sound key has no consonant (a silent h)."""
    return _VOWELS.sub("a", plain(text))


@functools.lru_cache(maxsize=1 << 14)
def closed_keys(english: str, fold: Callable[[str], str] = str
                ) -> tuple[frozenset[str], frozenset[str]]:
    """Keys of English tokens (a run joined by spaces) as scripts that close a syllable on one
    consonant write them: each token's final consonants one (`Donald Trump`, Khmer
    `ដូណាល់ត្រាំ`: donal tram), after `fold` makes one what the script writes with one letter;
    and the keys with every final kept. A token whose key has no consonant keeps its `h`
    (`Ri Yong Ho`), so that a name without it is not the name. Cached: projection asks for
    every English token against every piece of a sentence."""
    full, closed = [], []
    for token in english.split():
        keys = {sound_key(fold(k)) for k in english_keys(token, True) | {plain(token)}}
        if not any(consonants(k) for k in keys):
            keys = {_vowels_as_one(fold(plain(token)))}
        full.append(keys)
        closed.append(keys | {finals_reduced(k) for k in keys})

    def joined(per_token: list[set[str]]) -> frozenset[str]:
        return frozenset(re.sub(r"(.)\1+", r"\1", "".join(c))
                         for c in itertools.product(*per_token))

    return joined(closed), joined(full)


def closed_alike(readings: list[str], english: str, fold: Callable[[str], str] = str) -> bool:
    """A reading of a projected part, its final consonants one or not, has a key of the
    English run as a script of closed syllables writes it (`closed_keys`), or its consonants
    in order (`skeleton`): three or more of its full key, four or more of a closed one; a
    reading that is the token's very letters agrees too (`អ៊ុន`, un)."""
    if len(english) >= 2 and plain(english) in readings:
        return True
    keys = {sound_key(fold(r)) for r in readings} | {_vowels_as_one(fold(r)) for r in readings}
    keys |= {finals_reduced(k) for k in keys}
    closed, full = closed_keys(english, fold)
    if keys & {k for k in closed if len(consonants(k)) >= 2}:
        return True
    skeletons = {skeleton(k) for k in keys}
    return any(skeleton(w) in skeletons for w in full if len(consonants(w)) >= 3) or any(
        skeleton(w) in skeletons for w in closed if len(consonants(w)) >= 4)


def skeleton(key: str) -> tuple[bool, str]:
    """A key's consonants, and whether it begins with a vowel: a reading that has a name's
    consonants but not its first vowel has lost a syllable (`ལི་ཛི་བིཀྲི`, lizibit, is not
    Elizabeth; Burmese `ဆင္းစ္`, sins, not Wayde Sims, whose w and y are vowels to the key)."""
    return key.startswith("a"), consonants(key)


def consonants(key: str) -> str:
    return key.replace("a", "")


def sounds_alike(readings: list[str], english: str, skeleton_from: int = 3,
                 non_rhotic: bool = False) -> bool:
    """True when a reading of a projected part has a key of the English token (of at least
    two consonants, so that a syllable does not agree with anything), or the same consonants
    in order, at least `skeleton_from` of them (`Μάικλ`, Michael: English writes a vowel Greek
    does not; abjads, which write few vowels, compare two: Urdu `ایلن`, Alan)."""
    keys = [sound_key(r) for r in readings]
    wanted = {k for k in english_keys(english, non_rhotic) if len(consonants(k)) >= 2}
    return any(k in wanted for k in keys) or any(
        consonants(k) == consonants(w) for k in keys for w in wanted
        if len(consonants(w)) >= skeleton_from)


def alike_when_folded(readings: list[str], english: str, fold: Callable[[str], str]) -> bool:
    """`sounds_alike` for scripts that write several English sounds with one letter: keys
    compared after `fold` makes those sounds one (Tamil and Hangul voicing, Hangul b and v),
    an `r` after a vowel taken as unsaid too, and three consonants in order enough."""
    keys = {fold(sound_key(r)) for r in readings}
    wanted = {fold(k) for k in english_keys(english, True) | {sound_key(plain(english))}}
    wanted = {k for k in wanted if len(consonants(k)) >= 2}
    if keys & wanted:
        return True
    skeletons = {consonants(k) for k in keys}
    return any(consonants(w) in skeletons for w in wanted if len(consonants(w)) >= 3)


def slipped(readings: list[str], english: str, non_rhotic: bool = False) -> bool:
    """A reading one consonant off the English token's key inside it (one changed, added,
    dropped, or two swapped), beginning and ending as it does, where the token has three
    consonants or more: a translator's slip (Sindhi `ڊونڊڊ`, Donald; `فائنٽائن`, Feinstein),
    which agreement forgives in one part of a name whose other parts agree. A name cut short
    (Urdu `فلیٹ`, Fleet(wood)) does not end as the name does."""
    wanted = {k for k in english_keys(english, non_rhotic) if len(consonants(k)) >= 3}
    keys = {sound_key(r) for r in readings}
    return any(k[:1] == w[:1] and consonants(k)[-1:] == consonants(w)[-1:]
               and OSA.distance(consonants(k), consonants(w)) <= 1 for k in keys for w in wanted)


# English spellings of a short token's vowel, as a reading writes it (`May`, `me`; `Lee`, `li`).
_SAID_VOWEL = [(re.compile(r"^(?:ee|ea|ie)"), "i"), (re.compile(r"^(?:ay|ai|ey|ei|e)"), "e"),
               (re.compile(r"^[iy]"), "i"), (re.compile(r"^(?:oo|u)"), "u"),
               (re.compile(r"^o"), "o"), (re.compile(r"^a"), "a")]


def said_vowel(token: str) -> str:
    """The vowel an English token of one syllable says first (`May`: e, `Lee`: i, `Ho`: o)."""
    m = re.search(r"[aeiouy]+", token.lower()[1:] if token[:1].lower() == "y" else token.lower())
    return next((v for pattern, v in _SAID_VOWEL if m and pattern.match(m[0])), "")


def short_alike(readings: list[str], english: str) -> bool:
    """A token of one consonant or none (`May`, `Ho`, `Lee`) said by a reading: the same
    consonant and the same first vowel (`मे`, me, and `މޭއި`, mei, are May; `mi` is not).
    Such a token is only a syllable, so agreement takes it beside parts that agree."""
    key = sound_key(english)
    vowel = said_vowel(english)
    if len(consonants(key)) > 1 or not vowel:
        return False
    return any(consonants(sound_key(r)) == consonants(key)
               and next(iter(re.findall(r"[aeiou]", r.lower())), "") == vowel for r in readings)

