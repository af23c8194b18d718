"""A language's transliteration models, as projection, triage and the baseline use them.

For a language, its script family says which shipped model reads it (`Family.model_key`) and
what the model reads for a token (`Family.model_inputs`: Bulgarian in Russian letters, Greek
by its readings); base forms undo endings first (`Байдена`). Decoding runs the model program
once per batch, so callers `prepare` what they will ask about, and every answer is kept.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from xel.config import Config
from xel.errors import XelError
from xel.names.families import family
from xel.names.script import SEPARATORS, Family, is_latin, to_latin
from xel.names.translit import MODELS, Direction, Transliterator, load, normalize, romanize

NBEST = 5
# A form the model gives less than this share of its probability is noise (`雷莎` for Theresa,
# 0.007 beside `特雷莎`, 0.959): projection does not look for it.
MIN_FORM_SHARE = 0.02
THRESHOLDS = "thresholds.json"

# Packages whose versions can change how a name is tokenized, read or matched (Unicode
# classes in `regex`, ICU's transforms, jieba's and Janome's dictionaries): signatures of
# the stages and evaluations that read names record them, so a figure that moves between
# machines shows why.
NAME_PACKAGES = ("regex", "rapidfuzz", "PyICU", "uroman", "jieba", "Janome")
Candidates = list[tuple[str, float]]


def single(text: str) -> str:
    """Doubled letters written once: transcriptions differ in them (Serbian `Kenedi`, Russian
    `Кеннеди`; Greek `Μπρετ` reads bret for Brett)."""
    return "".join(ch for k, ch in enumerate(text) if k == 0 or ch != text[k - 1])


def fold(text: str) -> str:
    """English as the models write it and the English name compares: ASCII letters only."""
    return "".join(ch for ch in to_latin(text) if ch.isalnum())


@functools.lru_cache(maxsize=1 << 18)
def spelled(text: str) -> str:
    """`single(fold(text))`, kept: agreement compares every candidate of every part so."""
    return single(fold(text))


def best_first(options: Sequence[Candidates]) -> Iterator[tuple[tuple[str, float], ...]]:
    """One choice from each list (each best first), in order of falling product of their
    scores, ties in the order of `itertools.product`; lazily, so a 25-part span (a projection
    gone wrong) costs what its first few readings cost, not 5**25."""
    if any(not o for o in options):
        return

    def score(at: tuple[int, ...]) -> float:
        p = 1.0
        for o, k in zip(options, at, strict=True):
            p *= o[k][1]
        return p

    start = (0,) * len(options)
    heap = [(-score(start), start, 0)]
    while heap:
        _, at, moved = heapq.heappop(heap)
        yield tuple(o[k] for o, k in zip(options, at, strict=True))
        for i in range(moved, len(at)):  # each tuple has one parent: itself with its last
            if at[i] + 1 < len(options[i]):  # raised index lowered, so none comes twice
                child = (*at[:i], at[i] + 1, *at[i + 1:])
                heapq.heappush(heap, (-score(child), child, i))


@dataclass(frozen=True)
class DecodeRequest:
    """Words for one model in one direction (`Transliterator.nbest`'s input)."""

    folder: Path
    key: str
    direction: Direction
    words: tuple[str, ...]


def decode_ahead(requests: Iterable[DecodeRequest]) -> None:
    """Decode in one batch per model what several languages will ask it, where each of
    them finds it again (`Decoded`): every start of the decoder reads the whole model (up to
    two seconds), which a batch per language paid once for every language."""
    merged: dict[tuple[Path, str, Direction], set[str]] = defaultdict(set)
    for ask in requests:
        merged[ask.folder, ask.key, ask.direction].update(ask.words)
    for (folder, key, direction), words in sorted(merged.items()):
        load(key, direction, folder).nbest(sorted(words), NBEST)


class LanguageModels:
    """One language's models both ways, with every decoded token kept."""

    def __init__(self, lang: str, folder: Path = MODELS, key: str | None = None) -> None:
        """The models of `lang`; with `key`, that model read with no rules of a script family
        (as calibration reads its pairs)."""
        self.lang = lang
        self.family = Family(lang, unspaced=False) if key else family(lang)
        self.key = key or self.family.model_key
        self.folder = folder
        # model input -> English candidates; English token -> target-script candidates
        self._to = decoded(folder, self.key, "to-english")
        self._from = decoded(folder, self.key, "from-english")
        self._comparables: dict[str, str] = {}

    def _model(self, direction: Direction) -> Transliterator:
        assert self.key is not None
        return load(self.key, direction, self.folder)

    @property
    def active(self) -> bool:
        return self.key is not None

    def signature(self) -> dict[str, str]:
        """The models' own signatures and the acceptance threshold: for stage signatures."""
        if self.key is None:
            return {}
        parts = {f"{d}:{k}": v for d in ("to-english", "from-english")
                 for k, v in self._model(d).signature().items()}
        parts["threshold"] = f"{self.threshold():.4f}"
        return parts

    # --- decoding, batched ---------------------------------------------------------------

    def inputs(self, part: str) -> list[str]:
        """What the model reads for a projected part: each base form's model inputs."""
        return list(dict.fromkeys(
            v for form in self.family.base_forms(part) for v in self.family.model_inputs(form)))

    def wanted(self, english: Iterable[str] = (),
               parts: Iterable[str] = ()) -> list[DecodeRequest]:
        """What `prepare` would decode, per direction (none this process has already)."""
        if self.key is None:
            return []
        found: list[tuple[Direction, list[str]]] = [
            ("from-english", sorted({t for t in english if t and t not in self._from})),
            ("to-english", sorted({v for p in parts for v in self.inputs(p)
                                   if v and v not in self._to}))]
        return [DecodeRequest(self.folder, self.key, d, tuple(words)) for d, words in found
                if words]

    def prepare(self, english: Iterable[str] = (), parts: Iterable[str] = ()) -> None:
        """Decode in one batch per direction what will be asked about."""
        for ask in self.wanted(english, parts):
            kept = self._from if ask.direction == "from-english" else self._to
            kept.update(zip(ask.words, self._model(ask.direction).nbest(ask.words, NBEST),
                            strict=True))

    def forms(self, english: str) -> list[str]:
        """The likely target-script forms of an English name token, best first, then every
        form it had in the training pairs (Taiwan's `川普` for Trump, rarer than `特朗普`)."""
        if self.key is None:
            return []
        self.prepare(english=[english])
        decoded = [text for k, (text, p) in enumerate(self._from[english])
                   if k == 0 or p >= MIN_FORM_SHARE]
        seen = sorted(self._model("from-english").seen.get(normalize(english), ()))
        return list(dict.fromkeys(decoded + seen))

    def english(self, part: str) -> Candidates:
        """English candidates for a projected part, best first, over its base forms."""
        if self.key is None:
            return []
        self.prepare(parts=[part])
        best: dict[str, float] = {}
        for v in self.inputs(part):
            for text, p in self._to.get(v, []):
                best[text] = max(best.get(text, 0.0), p)
        return sorted(best.items(), key=lambda c: -c[1])

    def back_translate(self, name: str) -> str | None:
        """The name in English, part by part (the model's best reading of each), or None
        where a part has none."""
        words = []
        for part in (p for p in SEPARATORS.split(name.strip()) if p):
            if is_latin(part) and not self.family.reads_latin:
                words.append(part)
                continue
            candidates = self.english(part)
            if not candidates:
                return None
            words.append(candidates[0][0].title())
        return " ".join(words) or None

    def readings(self, name: str, n: int = 5, per_part: int = 3) -> list[str]:
        """The name's likeliest English readings, best first: Latin parts as written and
        without their endings (`Trumpa`: Trump), other parts through the model; right after
        the name as written, every part without the last part's ending (`Kima Jonga Una`:
        Kim Jong Un; Finnish `Steven Gerrardille` inflects the last part alone)."""
        parts = [p for p in SEPARATORS.split(name.strip()) if p]
        options: list[Candidates] = []
        for part in parts:
            if self._inflected(part):
                forms = self.family.base_forms(part)
                options.append([(f, 1.0 / (k + 1)) for k, f in enumerate(forms[:per_part])])
            elif self.key is not None:
                options.append(self.english(part)[:per_part] or [(part, 1.0)])
            else:
                options.append([(part, 1.0)])
        texts = (" ".join(text.title() for text, _ in pieces) for pieces in best_first(options))
        found = dict.fromkeys([next(texts), *self._in_one_case(parts, options)])
        for text in texts:
            if len(found) >= n:
                break
            found[text] = None
        return list(found)[:n]

    def _in_one_case(self, parts: Sequence[str], options: Sequence[Candidates]) -> list[str]:
        """The name with the last part's ending taken off every part that has it (the others
        as their best reading), or nothing where the last part has no ending."""
        if not parts or len(options[-1]) < 2 or not self._inflected(parts[-1]):
            return []
        last, stem = parts[-1], options[-1][1][0]
        ending = last[len(stem):] if last.startswith(stem) else ""
        if not ending:
            return []
        words = [part[:-len(ending)] if self._inflected(part) and len(part) - len(ending) >= 2
                 and part.casefold().endswith(ending.casefold()) else opts[0][0]
                 for part, opts in zip(parts, options, strict=True)]
        return [" ".join(w.title() for w in words)]

    def _inflected(self, part: str) -> bool:
        """True for a part that keeps its English spelling and takes endings (`Trumpa`)."""
        return is_latin(part) and not self.family.reads_latin

    # --- agreement with an English name ----------------------------------------------------

    def score(self, forms: Sequence[str], run: Sequence[str]) -> tuple[float, str]:
        """How surely a projected part (its base forms) spells a run of English tokens: 1 for
        a training pair, else the best probability either model's n-best gives the pair,
        compared on `single` spellings (`xel.names.agree.Scorer`)."""
        if self.key is None:
            return 0.0, ""
        want = spelled("".join(run))
        best, how = 0.0, ""
        part = forms[0]
        self.prepare(english=run, parts=[part])
        inputs = self.inputs(part)
        seen_to, seen_from = self._model("to-english").seen, self._model("from-english").seen
        for v in inputs:
            if want in {spelled(e) for e in seen_to.get(normalize(v), ())} or (
                    len(run) == 1 and normalize(v) in seen_from.get(normalize(run[0]), ())):
                return 1.0, f"{part}={'+'.join(run)} (a training pair)"
            for text, p in self._to.get(v, []):
                if spelled(text) == want and p > best:
                    best, how = p, f"{part}→{text} {p:.2f}"
        comparable = {self._comparable(v) for v in inputs}
        for pieces in itertools.product(*(self._from[t] for t in run)):
            text = "".join(c for c, _ in pieces)
            p = 1.0
            for _, q in pieces:
                p *= q
            if p > best and self._comparable(text) in comparable:
                best, how = p, f"{'+'.join(run)}→{text} {p:.2f}"
        return best, how

    def _comparable(self, text: str) -> str:
        """A target-script text as the from-English model writes it (`romanized` writes the
        uroman romanization), in the family's `skeleton` and `single` spelling; kept, since
        every English candidate's decodings are compared with every part."""
        if text not in self._comparables:
            plain = normalize(text)
            if self.key == "romanized":
                plain = normalize(romanize(plain))
            self._comparables[text] = single(self.family.skeleton(plain))
        return self._comparables[text]

    def threshold(self) -> float:
        """The agreement score that accepts at >= 95% precision on the model's dev pairs."""
        return thresholds(self.folder).get(self.key or "", 1.0)

    @functools.cached_property
    def char_counts(self) -> dict[str, int]:
        """How many of the training pairs' target-script names use each letter: what makes a
        Chinese character name-like (`卡` yes, `總` no)."""
        if self.key is None:
            return {}
        names = {t for forms in self._model("from-english").seen.values() for t in forms}
        return dict(Counter(ch for name in names for ch in set(name)))

    def count(self, ch: str) -> int:
        """`char_counts` of a character in any of its forms (`強` counts `强`)."""
        return sum(self.char_counts.get(form, 0) for form in self.family.char_forms(ch))


@functools.cache
def decoded(folder: Path, key: str | None, direction: Direction) -> dict[str, Candidates]:
    """What a model has decoded in this process, kept per model rather than per language:
    the languages that read through one model (every Cyrillic one through `russian`, two
    dozen scripts through `romanized`) ask it about the same English names, and each token
    is decoded once for all of them."""
    return {}


@functools.cache
def language_models(lang: str, folder: Path = MODELS) -> LanguageModels:
    return LanguageModels(lang, folder)


def models_for(lang: str, config: Config) -> LanguageModels | None:
    """The language's transliteration models (`names.models`), or None where it has none."""
    folder = config.models_folder()
    if folder is None:
        return None
    models = language_models(lang, folder)
    return models if models.active else None


def models_signature(lang: str, config: Config) -> dict[str, str]:
    """What of the language's models and name lexicon a stage's signature records (nothing
    where it has neither)."""
    models = models_for(lang, config)
    found = models.signature() if models is not None else {}
    lexicon = family(lang).lexicon_digest()
    return {**found, "lexicon": lexicon} if lexicon else found


@functools.cache
def thresholds(folder: Path = MODELS) -> dict[str, float]:
    """Per model, the calibrated acceptance threshold (`xel names calibrate` writes them)."""
    path = folder / THRESHOLDS
    if not path.is_file():
        return {}
    try:
        return {k: float(v["threshold"]) for k, v in json.loads(path.read_text("utf-8")).items()}
    except (ValueError, KeyError, TypeError) as e:
        raise XelError(f"{path}: not a thresholds file ({e}): rebuild it with "
                       "`xel names calibrate`") from e
