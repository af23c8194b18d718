"""How close a target-language text is to an English name token.

Projection anchors spans on target tokens spelled like the English name: compared in Latin
(ICU romanization, inflection-tolerant edit similarity, consonant skeletons for abjads) and
against the name's forms in the target script (the transliteration model's n-best), so a
name spelled a little differently (Taiwan's `卡瓦諾` for the model's `卡瓦納`) still matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import regex

from xel.config import Config
from xel.languages import language
from xel.names.english import tokens as name_tokens
from xel.names.families import family
from xel.names.script import (
    NAME_CHAR_MIN,
    WHOLE_NAME_MIN,
    Family,
    Span,
    orthographic,
    to_latin,
)
from xel.names.transliterate import LanguageModels, models_for

_LATIN = regex.compile(r"\p{Latin}")
# A Latin letter beside a letter of another script: a Latin name run into the next word of an
# unspaced script (`Fordເ`), which is no reading of the name.
_MIXED = regex.compile(r"\p{Latin}.*[^\p{Latin}\P{L}]|[^\p{Latin}\P{L}].*\p{Latin}")

WORDLIKE = regex.compile(r"[\p{L}\p{N}]")


@dataclass
class NameMatcher:
    """Scores target token n-grams against English name tokens, caching per language."""

    lang: str
    models: LanguageModels | None
    min_similarity: float
    # False: spelling and the models only. Reading by sound pairs a name with the odd common
    # word (Tibetan `ཀྲོའུ་བཙུགས་སློབ` as Wayde Sims): fine beside an aligned span, not as evidence
    # on its own (`xel.priors`).
    by_sound: bool = True
    family: Family = field(init=False)

    def __post_init__(self) -> None:
        self.family = family(self.lang)
        self.max_ngram = 3 if self.family.unspaced else 1
        self._latin: dict[str, str] = {}
        self._score: dict[tuple[str, str], float] = {}

    @property
    def latin_script(self) -> bool:
        return language(self.lang).script == "Latn"

    @property
    def knows_names(self) -> bool:
        """True where characters of transliterated names are known (unspaced, a model)."""
        return self.max_ngram > 1 and self.models is not None and self.models.active

    def name_like(self, text: str) -> bool:
        """Every letter occurs in at least NAME_CHAR_MIN model names (`卡瓦諾`, not `總統`)."""
        if not self.knows_names:
            return True
        return all(self.char_count(ch) >= NAME_CHAR_MIN for ch in text if ch.isalpha())

    def char_count(self, ch: str) -> int:
        """Model names using a character, in any of its forms (`強` counts `强`)."""
        return self.models.count(ch) if self.models is not None else 0

    def latin(self, text: str) -> str:
        if text not in self._latin:
            self._latin[text] = to_latin(text).replace(" ", "")
        return self._latin[text]

    def score(self, english: str, target: str) -> float:
        """Similarity of an English name token and a target text (1.0 = same name)."""
        key = (english, target)
        if key not in self._score:
            self._score[key] = self._compute(english, target)
        return self._score[key]

    def _compute(self, english: str, target: str) -> float:
        """Spelling against the English token, or against its model forms in Latin (the
        same name transliterated a little differently: Taiwan's `卡瓦諾` and `卡瓦納`). Only
        spaced scripts inflect a name (`Трампа`); in unspaced ones a longer form is another
        word run on (`柏納李` is Berners plus Lee)."""
        rules = self.family
        if rules.ignorable(target):
            return 0.0
        if rules.by_sound and self.by_sound and not _LATIN.search(target) and rules.sounds_like(
                rules.forms_of(target), english):  # a Latin copy is compared by spelling
            return 1.0
        latin = self.latin(target)
        best = orthographic(english, latin, rules.abjad, rules.syllabic)
        best = max([best, *self._unaffixed(english, target)])
        for reading, fold in rules.readings(target):
            best = max(best, orthographic(fold(english), reading, syllabic=rules.syllabic))
        if self.models is not None and self.models.active:
            forms = [f for f in self.models.forms(english) if rules.spells(f, english)]
            inflects = self.max_ngram == 1
            written = rules.same_form(target)
            if any(written == rules.same_form(f) or (
                    inflects and len(f) > 1 and target.startswith(f)
                    and len(target) - len(f) <= 2) for f in forms):
                return 1.0
            if not self.family.han or any(self.name_like(ch) for ch in target):  # `每` ~ `梅`
                best = max([best, *(orthographic(self.latin(f), latin) for f in forms[:3])])
        return best

    def _unaffixed(self, english: str, target: str) -> list[float]:
        """Spelling against the target's base forms (`kukaKavanaugh`, `Jerardni`: Kavanaugh,
        Jerard) and their readings by sound (Uzbek `Kromvel` as kromwel), where the family
        undoes affixes: a name is anchored on the word that writes it with its endings."""
        rules = self.family
        forms = rules.forms_of(target)[1:]
        readings = [] if _MIXED.search(target) else rules.read_out(rules.forms_of(target))
        return [orthographic(english, text, rules.abjad, rules.syllabic)
                for text in [*(self.latin(f) for f in forms), *readings]]

    def whole(self, english: list[str], text: str,
              spans: Sequence[Span]) -> list[tuple[int, int, float]]:
        """Token runs (first, last, score) whose reading spells the whole English name, in
        order or surname last: East Asian names read as a whole (`金正恩`, `織田信長`), in
        scripts with readings. Runs are at most five letters, without spaces in spaced scripts."""
        if len(english) < 2 or self.family.readings is Family.readings:
            return []
        orders = ("".join(english), "".join(english[1:]) + english[0],
                  english[-1] + "".join(english[:-1]))
        found = []
        for a in range(len(spans)):
            for b in range(a, len(spans)):
                piece = text[spans[a][0]:spans[b][1]]
                compact = "".join(piece.split())
                if len(compact) > 5 or (not self.family.unspaced and piece != compact):
                    break
                for reading, fold in self.family.readings(compact):
                    score = max(orthographic(fold(o), reading) for o in orders)
                    if score >= WHOLE_NAME_MIN:
                        found.append((a, b, score))
        return found

    def matches(self, english: list[str], text: str,
                spans: Sequence[Span]) -> list[list[tuple[int, int, float]]]:
        """For each English token, the target token n-grams (first, last, score) that match."""
        found: list[list[tuple[int, int, float]]] = [[] for _ in english]
        for a in range(len(spans)):
            if not WORDLIKE.search(text[spans[a][0]:spans[a][1]]):
                continue
            for b in range(a, min(a + self.max_ngram, len(spans))):
                piece = text[spans[a][0]:spans[b][1]]
                if self.max_ngram > 1:  # gold tokenizations may space out characters
                    piece = "".join(piece.split())
                if b > a and not WORDLIKE.search(text[spans[b][0]:spans[b][1]]):
                    break
                for k, e in enumerate(english):
                    s = self.score(e, piece)
                    if s >= self.min_similarity:
                        found[k].append((a, b, s))
        return found

    def heard(self, english: list[str], text: str, spans: Sequence[Span],
              found: list[list[tuple[int, int, float]]]) -> list[list[tuple[int, int, float]]]:
        """`found` (`matches`), with each English token that spelling matched nowhere given
        the runs that read as it by sound (`Family.heard`), at the lowest passing score; in a
        name of several tokens, only runs beside another token's match, a joiner between
        (`約翰·甘迺迪`, John Kennedy; not `托马斯的是弗兰西斯` for Tommy Fleetwood)."""
        spelled = [(a, b) for ms in found for a, b, _ in ms]

        def beside(a: int, b: int) -> bool:
            return len(english) == 1 or any(_next_to(text, spans, b2, a) or
                                            _next_to(text, spans, b, a2) for a2, b2 in spelled)

        return [ms or [(a, b, self.min_similarity)
                       for a, b in self.family.heard(text, spans, e, self.char_count)
                       if beside(a, b)]
                for e, ms in zip(english, found, strict=True)]


def _next_to(text: str, spans: Sequence[Span], left: int, right: int) -> bool:
    """Token `right` comes right after token `left`, or with one joiner between (`·`)."""
    return left + 1 == right or (left + 2 == right
                                 and not WORDLIKE.search(text[slice(*spans[left + 1])]))


def make_matcher(lang: str, config: Config, english: Iterable[str] = (),
                 by_sound: bool = True) -> NameMatcher:
    """The name matcher of a language, with the forms of the English name tokens it will be
    asked about decoded in one batch."""
    models = models_for(lang, config)
    if models is not None:
        models.prepare(english=[t for name in english for t in name_tokens(name)])
    return NameMatcher(lang, models, config.project.min_similarity, by_sound)
