"""Whether a projected name is the English name, part by part.

Round-trip triage asks this of every projection that a translator did not turn back into the
English name exactly. Each part of the projection (split at spaces, dashes and name joiners) is
compared, on its base forms (`Trumpin`, `Байдена`), with a run of English tokens: by spelling
where both are Latin, otherwise by a scorer (the transliteration models' n-best in either
direction), in scripts that write names by sound (Greek, Bulgarian, Urdu) by sound, and in
Chinese by the Mandarin syllables of a transliteration (`xel.names.mandarin`). Parts pair
with runs in order or reversed (family name first); every part and every English token must be
paired, so a partial name or one with an extra word never agrees; in scripts written by
sound one part may be a consonant off (a translator's slip) where the others agree. The score
is the weakest pair's, so a threshold on it bounds every part.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import regex

from xel.names.english import name_key
from xel.names.families import family
from xel.names.mandarin import reads_as
from xel.names.myanmar import ZERO_FOR_WA
from xel.names.script import (
    SEPARATORS,
    WHOLE_NAME_MIN,
    Family,
    is_latin,
    orthographic,
    to_latin,
)
from xel.names.sound import short_alike, slipped

# Digits that write a letter: none takes a vowel sign, and Burmese typists write the letter wa
# with the digit zero it looks like (`၀ီဒိုဒို`, Widodo).
LETTER_DIGITS = rf"\d(?=\p{{M}})|{ZERO_FOR_WA}"

# The most syllables an English token is written in (`ཨི་ལི་ཟི་བེན་ཀྲི`, Elizabeth): a longer
# run is a clause, not worth cutting every way.
MOST_SYLLABLES = 5

# (base forms of a projected part, English tokens of a run) -> (score in [0, 1], how)
Scorer = Callable[[Sequence[str], Sequence[str]], tuple[float, str]]


@dataclass(frozen=True)
class Agreement:
    score: float  # the weakest pair's agreement; 0 when the parts do not pair up
    why: str  # per pair, what agreed
    forgiven: bool = False  # a part agrees only as forgiven (a slip, a one-syllable token)


def parts(projection: str) -> list[str]:
    """The parts of a projected name: `Kim Jong-un` gives Kim, Jong, un."""
    return [p for p in SEPARATORS.split(projection.strip()) if p]


def fold(text: str) -> str:
    """A Latin name as plain lower-case ASCII letters (`Bjørn` and `Bjorn` are one name)."""
    return "".join(ch for ch in to_latin(text) if ch.isalnum())


def numbers(text: str) -> list[int]:
    """The digits a text writes as numbers, in any script's numerals (`٤` is 4)."""
    return [unicodedata.digit(d) for d in regex.findall(rf"(?!{LETTER_DIGITS})\d", text)]


def spelling(forms: Sequence[str], run: Sequence[str]) -> tuple[float, str]:
    """1.0 where a Latin form is the run's English spelling (case and accents aside)."""
    want = fold("".join(run))
    for k, form in enumerate(forms):
        if is_latin(form) and fold(form) == want:
            return 1.0, f"{forms[0]}={want}" if k == 0 else f"{forms[0]}~{want} (as {form})"
    return 0.0, ""


def runs(n_tokens: int, n_parts: int) -> Iterator[list[tuple[int, int]]]:
    """Ways to cut English tokens [0, n) into `n_parts` consecutive runs, as (start, end): a
    part may spell several, as unspaced scripts write names (`金正恩`) and spaced ones write
    some (Korean `김정은`, Kim Jong-un; `알무알렘`, al-Moualem)."""
    def cut(start: int, left: int) -> Iterator[list[tuple[int, int]]]:
        if left == 1:
            yield [(start, n_tokens)]
            return
        for end in range(start + 1, n_tokens - left + 2):
            for rest in cut(end, left - 1):
                yield [(start, end), *rest]

    if 0 < n_parts <= n_tokens:
        yield from cut(0, n_parts)


def read_whole(piece: str, run: Sequence[str],
               readings: Sequence[tuple[str, Callable[[str], str]]]) -> tuple[float, str]:
    """1.0 where a native reading of a Han name spells the English tokens it stands for, in
    order or surname last (`金正恩`, Korean gimjeongeun: Kim Jong-un)."""
    orders = ("".join(run), "".join(run[1:]) + run[0], run[-1] + "".join(run[:-1]))
    for reading, fold in readings:
        if max(orthographic(fold(o), reading) for o in orders) >= WHOLE_NAME_MIN:
            return 1.0, f"{piece}={' '.join(run)} (read as a {reading!r})"
    return 0.0, ""


def agreement(projection: str, english: str, lang: str,
              scorer: Scorer | None = None) -> Agreement:
    """How well a projected name spells the English name (see the module docstring); where
    an affix is joined to a word by a hyphen (Azerbaijani `Kavanaugh-un`, isiZulu `u-Brett`,
    which `parts` takes for two parts), also the name without it, and the better of the two."""
    return max((agree_parts(pieces, english, lang, scorer)
                for pieces in cuttings(projection, english, lang)),
               key=lambda a: a.score)


def cuttings(projection: str, english: str, lang: str) -> Iterator[list[str]]:
    """The parts `agreement` compares: of the projection as written and without affixes
    joined by hyphens, each also as `joinings` joins them."""
    rules = family(lang)
    words = (rules.unprefixed(w) for w in projection.split())
    bare = " ".join(rules.joined_ending(w) or w for w in words)
    tokens = name_key(english).split()
    for p in dict.fromkeys([projection, bare]):
        yield from joinings(parts(p), tokens, rules)


def joinings(pieces: list[str], tokens: Sequence[str], rules: Family) -> Iterator[list[str]]:
    """The parts as written, and, in scripts written without spaces between words, where there
    are more parts than English tokens, every way of joining neighbours into as many, of parts
    that do not read as a token on their own: such scripts space a name's syllables as they
    please (Burmese `မက္ ဂရီဂါ`, McGregor), but a part that is a name already is not run on
    into the next (Thai `เพลิน อ้า`, Palin and an interjection). Never in spaced scripts,
    where a part is a word (Hindi `गेरार्ड ने`, Gerrard and the postposition after it)."""
    yield pieces
    if not rules.unspaced:
        return
    syllables = [s for p in pieces for s in rules.syllables(p)]
    if syllables == pieces and len(pieces) == len(tokens):
        return  # as written, already yielded
    if not 0 < len(tokens) <= len(syllables) <= MOST_SYLLABLES * len(tokens):
        return
    pieces = syllables
    named = [any(rules.sounds_like(rules.forms_of(p), t) for t in tokens) for p in pieces]
    for cuts in runs(len(pieces), len(tokens)):
        if not any(b - a > 1 and any(named[a:b]) for a, b in cuts):
            yield ["".join(pieces[a:b]) for a, b in cuts]


def agree_parts(pieces: Sequence[str], english: str, lang: str,
                scorer: Scorer | None = None) -> Agreement:
    """How well the parts of a projected name spell the English name."""
    rules = family(lang)
    tokens = name_key(english).split()
    forms = [rules.base_forms(p) for p in pieces]
    memo: dict[tuple[int, tuple[str, ...]], tuple[float, str]] = {}
    # pairs that agree only as forgiven: a slip, or a token that is one syllable
    forgiven: set[tuple[int, tuple[str, ...]]] = set()

    def pair(k: int, run: tuple[str, ...]) -> tuple[float, str]:
        if (k, run) not in memo and numbers(pieces[k]) != numbers("".join(run)):
            memo[(k, run)] = (0.0, "")  # a number is read by no sound (`BBC Radio 4`)
        if (k, run) not in memo:
            found = spelling(forms[k], run)
            if found[0] < 1.0 and scorer is not None and (
                    rules.reads_latin or not is_latin(pieces[k])):
                found = max(found, scorer(forms[k], run))
            if found[0] < 1.0 and rules.sounds_like(forms[k], " ".join(run)):
                found = (1.0, f"{pieces[k]}≈{'+'.join(run)} (by sound)")
            if found[0] < 1.0 and len(run) == 1 and rules.han and reads_as(pieces[k], run[0]):
                found = (1.0, f"{pieces[k]}≈{run[0]} (in Mandarin)")
            if found[0] < 1.0 and len(run) >= 2:
                found = max(found, read_whole(pieces[k], run, rules.readings(pieces[k])))
            if found[0] < 1.0 and len(run) == 1 and slipped(
                    rules.read_out(forms[k]), run[0], rules.non_rhotic):
                found = (1.0, f"{pieces[k]}≈{run[0]} (one consonant off)")
                forgiven.add((k, run))
            if found[0] == 0.0 and len(run) == 1 and short_alike(rules.read_out(forms[k]),
                                                                 run[0]):
                found = (1.0, f"{pieces[k]}≈{run[0]} (a syllable)")
                forgiven.add((k, run))
            memo[(k, run)] = found
        return memo[(k, run)]

    best = Agreement(0.0, "")
    for cuts in runs(len(tokens), len(pieces)):
        for order in (cuts, cuts[::-1]):
            runs_of = [(k, tuple(tokens[a:b])) for k, (a, b) in enumerate(order)]
            scored = [pair(k, run) for k, run in runs_of]
            forgiven_parts = sum(r in forgiven for r in runs_of)
            if forgiven_parts > 1 or forgiven_parts == len(runs_of):
                continue  # forgiven in one part, beside parts that agree
            score = min(s for s, _ in scored)
            if score > best.score:
                best = Agreement(score, "; ".join(how for _, how in scored),
                                 forgiven_parts > 0)
    return best
