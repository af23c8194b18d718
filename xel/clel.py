"""The cross-language entity-linking baseline (`xel baseline --system clel`): Lawrie et al.'s
Table 6 system, learned from the collection itself.

Per language: candidates of the query's type from the KB by the name's English readings (the
shipped transliteration models' n-best, endings undone; ICU romanization too) against KB names
and aliases, exactly and fuzzily, by the KB's labels in the language (`Deutschland`, as the
names baseline reads them first), and, where the script family reads names out by sound
(`xel.names`: Indic, Ethiopic, Georgian, Thaana, ...), by how the name's parts sound against
the KB names' tokens (`SoundIndex`); features for name similarity (by spelling and by sound),
popularity and context (the query document's words put into English with a lexicon learned
from the collection's own eflomal alignments, then BM25 against the candidate's KB
description); a logistic regression over
candidates learned on the train partition; the regularization and the NIL threshold (the best
candidate's probability below it answers NIL) chosen on devtest and on train's out-of-fold
answers (each train query answered by a model learned without its fold).

The partition wall: weights see train queries only, the lexicon only sentences of train
queries' documents, and devtest with train's out-of-fold answers picks two numbers (C and the
threshold); test queries are only answered.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import regex
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

import xel.score
from xel.config import COARSE_TYPES, BaselineConfig, Config
from xel.corpus import document_text, sentences, source_language
from xel.errors import XelError
from xel.executors import executor, read_ahead
from xel.export import collection_folder
from xel.kb import Found, KbEntity, KnowledgeBase, fragments
from xel.languages import language
from xel.link import name_similarity
from xel.names.agree import parts
from xel.names.families import family
from xel.names.pairs import wikidata_codes
from xel.names.script import SEPARATORS, is_latin
from xel.names.sound import consonants, english_keys, plain, sound_key
from xel.names.transliterate import LanguageModels, language_models
from xel.progress import progress
from xel.project import iter_pairs
from xel.score import NIL, baseline_run, latin
from xel.stages import Work, code_digest, digest_of, versions
from xel.store import Store

FEATURES = ("name", "name_first", "exact", "exact_reading", "prior", "prior_rank", "label",
            "context", "context_share", "spelling", "sound", "sound_cover")
WORD = re.compile(r"\w+")
Lexicon = dict[str, list[tuple[str, float]]]


@dataclass(frozen=True)
class QueryRecord:
    """What the baseline reads of an exported query (`<lang>/<partition>.jsonl`)."""

    id: str
    lang: str
    partition: str
    name: str
    doc_id: str
    kb_id: str
    beg: int = -1  # the mention's offsets in its document's text (-1: not known)
    end: int = -1
    type: str = "PER"  # the query's entity type (collections before types: people's)


@dataclass(frozen=True)
class Example:
    """A query with its candidates and their feature rows (one row per candidate)."""

    query: QueryRecord
    kb_ids: list[str]
    X: np.ndarray


@dataclass(frozen=True)
class Linear:
    """A logistic regression over standardized features, kept as plain numbers (JSON)."""

    mean: list[float]
    scale: list[float]
    weights: list[float]
    intercept: float

    @classmethod
    def learn(cls, X: np.ndarray, y: np.ndarray, C: float, seed: int) -> Linear:
        scaler = StandardScaler().fit(X)
        scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
        clf = LogisticRegression(C=C, max_iter=2000, random_state=seed)
        clf.fit((X - scaler.mean_) / scale, y)
        return cls(list(map(float, scaler.mean_)), list(map(float, scale)),
                   list(map(float, clf.coef_[0])), float(clf.intercept_[0]))

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        z = ((X - np.array(self.mean)) / np.array(self.scale)) @ np.array(self.weights)
        return np.asarray(1.0 / (1.0 + np.exp(-(z + self.intercept))))


@dataclass(frozen=True)
class Model:
    """A ranker over candidates; a linker that says how likely the ranker's first candidate is
    right (over that candidate's features, its probability and its lead over the second); and
    the threshold on that likelihood under which the answer is NIL."""

    ranker: Linear
    linker: Linear | None  # None when train's first candidates were all right or all wrong
    threshold: float
    C: float
    trained_on: str  # the language whose train partition it learned from, or `all`
    train_queries: int
    devtest_queries: int


# --- reading the collection -----------------------------------------------------------------


def read_records(collection: Path) -> list[QueryRecord]:
    """Every query of an exported collection, from its JSONL files; errors name file and line."""
    files = sorted(collection.glob("*/*.jsonl"))
    if not files:
        raise XelError(f"{collection}: no <lang>/<partition>.jsonl files to read queries from")
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                r = json.loads(line)
                found.append(QueryRecord(r["id"], path.parent.name, r["partition"], r["name"],
                                         r["doc_id"], r["kb_id"], int(r.get("beg", -1)),
                                         int(r.get("end", -1)), str(r.get("type", "PER"))))
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise XelError(f"{path}, line {number}: not a query record ({e})") from None
    return found


def train_documents(records: Iterable[QueryRecord]) -> set[str]:
    """The documents of train queries: the only text the lexicon learns from. (Chosen by train
    queries alone, so no devtest or test query can change it, not even by where it is.)"""
    return {r.doc_id for r in records if r.partition == "train"}


# --- the lexicon ----------------------------------------------------------------------------


def learn_lexicon(pairs: Iterable[tuple[list[str], list[str], Iterable[tuple[int, int]]]],
                  top: int) -> Lexicon:
    """p(English word | word) from aligned word pairs (source words, target words, links),
    keeping each word's `top` translations; words are lower-cased, punctuation is dropped."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for src, tgt, links in pairs:
        for i, j in links:
            e, f = src[i].lower(), tgt[j].lower()
            if WORD.search(e) and WORD.search(f):
                counts[f][e] += 1
    lexicon = {}
    for f, c in counts.items():
        total = sum(c.values())
        lexicon[f] = [(e, n / total) for e, n in sorted(c.items(), key=lambda x: (-x[1], x[0]))
                      [:top]]
    return lexicon


def lexicon_for(store: Store, lang: str, documents: set[str], top: int) -> Lexicon:
    """A language's lexicon from the stored eflomal links of the train documents' sentences."""
    docs = {seg: doc for seg, doc, _ in sentences(store, lang)}
    return learn_lexicon((([pair.src_text[s:e] for s, e in pair.src],
                           [pair.tgt_text[s:e] for s, e in pair.tgt], pair.links)
                          for seg, pair in iter_pairs(store, lang)  # a pair at a time
                          if docs.get(seg) in documents), top)


def translate(words: Iterable[str], lexicon: Lexicon | None) -> dict[str, float]:
    """A bag of English words, each weighted by its translation probability (no lexicon: the
    words are English already)."""
    bag: dict[str, float] = defaultdict(float)
    for word in words:
        w = word.lower()
        if lexicon is None:
            bag[w] += 1.0
        for e, p in (lexicon or {}).get(w, []):
            bag[e] += p
    return bag


def document_words(store: Store, lang: str, source: str) -> dict[str, list[str]]:
    """Each document's words as the aligner tokenized them (the lexicon's keys); English by
    `\\w+` runs."""
    if lang == source:
        return {doc: WORD.findall(document_text(store, lang, doc))
                for doc in {doc for _, doc, _ in sentences(store, lang)}}
    of_seg = {seg: doc for seg, doc, _ in sentences(store, lang)}
    words: dict[str, list[str]] = defaultdict(list)
    for seg, pair in iter_pairs(store, lang):  # a pair at a time, in segment order
        words[of_seg[seg]] += [pair.tgt_text[s:e] for s, e in pair.tgt]
    return dict(words)


# --- context: BM25 against KB descriptions --------------------------------------------------


@dataclass
class Bm25:
    """Okapi BM25 with document frequencies over every KB description."""

    df: Counter[str] = field(default_factory=Counter)
    docs: int = 0
    length: float = 0.0
    k1: float = 1.2
    b: float = 0.75

    @classmethod
    def over(cls, texts: Iterable[str]) -> Bm25:
        model = cls()
        total = 0
        for text in texts:
            words = WORD.findall(text.lower())
            model.df.update(set(words))
            model.docs += 1
            total += len(words)
        model.length = total / model.docs if model.docs else 1.0
        return model

    def score(self, query: Mapping[str, float], text: str) -> float:
        words = Counter(WORD.findall(text.lower()))
        size = sum(words.values())
        total = 0.0
        for w, weight in query.items():
            tf = words.get(w, 0)
            if tf:
                idf = math.log(1 + (self.docs - self.df[w] + 0.5) / (self.df[w] + 0.5))
                norm = tf + self.k1 * (1 - self.b + self.b * size / (self.length or 1.0))
                total += weight * idf * tf * (self.k1 + 1) / norm
        return total


# --- candidates and features ----------------------------------------------------------------


def readings(name: str, lang: str, source: str, models: Path | None, n: int) -> list[str]:
    """The name's English readings, best first: the models' n-best, then ICU romanization."""
    if lang == source:
        return [name]
    found = language_models(lang, models).readings(name, n=n, per_part=5) if models else []
    return list(dict.fromkeys([*found, latin(name)]))[: n + 1]


_WORD_REST = regex.compile(r"\p{L}*(?:[-‐'’]\p{L}+)*")
_NEXT_NAME_WORD = regex.compile(r" \p{Lu}\p{L}*(?:-\p{L}+)*")


def written_in_full(text: str, beg: int, end: int) -> str | None:
    """The mention as its document writes it, where the projected span stops short: the word
    it cuts, completed (`Kim Jong` of `Kim Jong-unin`), and a capitalized word right after it
    (`Kim Jong` of `Kim Jong Un`). None where the span is whole, is not in the text, or is in
    a script without capitals (an unspaced script has no word to complete)."""
    if not 0 <= beg < end <= len(text) or text[end - 1].lower() == text[end - 1].upper():
        return None
    stop = end + len(_WORD_REST.match(text, end)[0])
    after = _NEXT_NAME_WORD.match(text, stop)
    stop = after.end() if after else stop
    return text[beg:stop] if stop > end else None


def labelled(kb: KnowledgeBase, name: str, kind: str, codes: Sequence[str]) -> list[Found]:
    """Entities of the query's type with a label or alias in the language (`codes`: its
    Wikidata codes) that is the name as written (inflection folded as the KB folds it), each
    with its `rank` among them by popularity: what the names baseline answers first."""
    return [Found(e, [{"via": "label", "rank": k}]) for code in codes
            for k, e in enumerate(kb.by_foreign_key(name, code, kind))]


def gather(kb: KnowledgeBase, texts: Sequence[str], kind: str, fuzzy: int = 3
           ) -> dict[str, Found]:
    """Every entity of the query's type (`kind`: a KB of every type names a place
    `Washington` too) whose name or alias is one of the readings (`why` says which reading,
    as `reading`), and the fuzzy paths' (fragments, trigrams) for the first `fuzzy`
    readings."""
    found: dict[str, Found] = {}
    for k, text in enumerate(texts):
        hits = kb.by_key(text, "name", kind) + kb.by_key(text, "alias", kind)
        for f in hits:
            known = found.setdefault(f.entity.kb_id, Found(f.entity))
            known.why.append({"via": "exact", "reading": k})
        if k < fuzzy:
            for f in kb.candidates(text, limit=10, type=kind):
                found.setdefault(f.entity.kb_id, Found(f.entity))
    return found


ENGLISH_TOKEN = re.compile(r"[^\W\d_]+")


def spelled_parts(name: str) -> list[str]:
    """The parts of a query's name that `spelling` compares with English names: those not
    in Latin letters (a Latin part is compared as written, by `name_similarity`)."""
    return [p for p in SEPARATORS.split(name) if p and not is_latin(p)]


def spelling(lm: LanguageModels | None, name: str) -> Callable[[KbEntity], float]:
    """How surely the query's name spells an entity's English name, by the transliteration
    models in either direction (`LanguageModels.score`): each of its non-Latin parts' best
    agreement with a token of the entity's name, averaged; 0 where no model reads it."""
    parts = spelled_parts(name)
    if lm is None or not lm.active or not parts:
        return lambda entity: 0.0

    score = part_scores(lm)

    def agree(entity: KbEntity) -> float:
        tokens = ENGLISH_TOKEN.findall(entity.name)
        if not tokens:
            return 0.0
        return sum(max(score(p, t) for t in tokens) for p in parts) / len(parts)

    return agree


@functools.cache
def part_scores(lm: LanguageModels) -> Callable[[str, str], float]:
    """`lm.score` of one part against one English token, kept: a language's candidates share
    their tokens (`John`, `Smith`) and a third of clel's time went to scoring them again."""

    @functools.lru_cache(maxsize=1 << 16)
    def score(part: str, token: str) -> float:
        return lm.score([part], [token])[0]

    return score


class ReadingIndex:
    """KB entities by their names as a script family's own readings compare them (Han names
    read in Korean: `金正恩` and `Kim Jong-un` both `gimjongon`), built once per folding."""

    def __init__(self, kb: KnowledgeBase, lang: str) -> None:
        self.kb, self.family = kb, family(lang)
        self._by: dict[Callable[[str], str], dict[str, list[KbEntity]]] = {}

    def _index(self, fold: Callable[[str], str]) -> dict[str, list[KbEntity]]:
        if fold not in self._by:
            index: dict[str, list[KbEntity]] = defaultdict(list)
            for entity in self.kb.entities():
                for key in {fold(form) for form in (entity.name, *entity.aliases)}:
                    if key:
                        index[key].append(entity)
            self._by[fold] = dict(index)
        return self._by[fold]

    def find(self, name: str) -> list[Found]:
        """Entities a reading of the whole (unspaced) name names, as exact matches."""
        if not self.family.han:
            return []
        compact = "".join(p for p in SEPARATORS.split(name) if p)
        return [Found(e, [{"via": "exact", "reading": 0}])
                for reading, fold in self.family.readings(compact)
                for e in self._index(fold).get(reading, [])]


# What the script families write with one letter, made one (voicing, b/v/p/f, s/z/j, r/l:
# `xel.names.indic.unvoiced`, `xel.names.hangul.hangul_fold`): a key looser than any family's
# own, so that a token a family says a reading sounds like is found under the reading's key.
_LOOSE = str.maketrans("gdbjzvfr", "ktpssppl")
_LATIN = regex.compile(r"\p{Latin}")


def loose_key(text: str) -> str:
    """The consonants of a Latin text's sound key with `_LOOSE`'s sounds made one (`Trump`,
    `tramp`: tlmp)."""
    return consonants(sound_key(text)).translate(_LOOSE)


def token_keys(token: str) -> set[str]:
    """The loose keys an English name token is looked up by: of each of its English keys, and
    of its spelling with v as w (Thai, Lao and Khmer write v as w, a vowel to the key)."""
    spelt = plain(token)
    keys = {*english_keys(token, True), sound_key(spelt), sound_key(spelt.replace("v", "w"))}
    return {k for key in keys if (k := consonants(key).translate(_LOOSE))}


def sound_tokens(name: str) -> list[str]:
    """An English name's tokens as sound keys read them: its fragments (`xel.kb.fragments`),
    without initials, generational suffixes and designations (`Thomas J. Rooney` is not
    `jrooney`, which sounds like Hindi `जॉर्न`, Bjørn; `Justin II` is Justin)."""
    return [plain(token) for token, _ in fragments(name)]


def runs(tokens: Sequence[str]) -> dict[str, frozenset[int]]:
    """Every run of consecutive tokens, written together, with the tokens it covers (`Kim Jong
    un`: kim, kimjong, kimjongun, jong, ...): a script may write several English tokens as
    one word (`김정은`), an unspaced one a whole name."""
    found: dict[str, frozenset[int]] = {}
    for i in range(len(tokens)):
        for j in range(i + 1, len(tokens) + 1):
            found.setdefault("".join(tokens[i:j]), frozenset(range(i, j)))
    return found


# The share of a query's parts that sound like an entity's name, and of its words they cover.
Sound = tuple[float, float]


@dataclass(frozen=True)
class NameSounds:
    """The KB's English name tokens (and runs of them, `runs`) by their loose keys, and the
    entities each names: built once per KB, read by every language's `SoundIndex`."""

    by_key: dict[str, frozenset[str]]
    named_by: dict[str, tuple[KbEntity, ...]]

    @classmethod
    def over(cls, entities: Iterable[KbEntity]) -> NameSounds:
        by_key: dict[str, set[str]] = defaultdict(set)
        named_by: dict[str, list[KbEntity]] = defaultdict(list)
        for entity in entities:
            for token in {t for form in (entity.name, *entity.aliases)
                          for t in runs(sound_tokens(form))}:
                named_by[token].append(entity)
                for key in token_keys(token):
                    by_key[key].add(token)
        return cls({k: frozenset(v) for k, v in by_key.items()},
                   {k: tuple(v) for k, v in named_by.items()})


class SoundIndex:
    """KB entities by how their English names sound (`xel.names.sound`), for languages whose
    script family reads a written name out by sound (`Family.sound_readings`: Hindi
    `डोनाल्ड ट्रम्प`, donald tramp), where the transliteration models read such names
    loosely. A query part's readings look English name tokens up by a loose key; the family's
    own `sounds_like` says which of them the part sounds like."""

    def __init__(self, kb: KnowledgeBase, sounds: NameSounds, lang: str) -> None:
        self.kb, self.sounds, self.family = kb, sounds, family(lang)
        self.latin_script = language(lang).script == "Latn"
        self._heard: dict[str, frozenset[str]] = {}

    def heard(self, part: str) -> frozenset[str]:
        """The KB's English name tokens (and runs of them) a query part sounds like, as its
        family compares them, the part's endings and prefixes undone (`Family.forms_of`). A
        Latin word in another script is a copy of the English name, left to its spelling, as
        projection leaves it (`xel.names.match`): read by sound, Thai `Allan McGregor` named
        Woody Allen."""
        if not self.latin_script and _LATIN.search(part):
            return frozenset()
        if part not in self._heard:
            forms = self.family.forms_of(part)
            readings = self.family.read_out(forms)
            near = {t for r in readings for t in self.sounds.by_key.get(loose_key(r), ())}
            self._heard[part] = frozenset(t for t in near if self.family.sounds_like(forms, t))
        return self._heard[part]

    def find(self, name: str, limit: int) -> list[Found]:
        """The `limit` entities the most parts of the name sound like a token of, the more
        popular first among equals (`why`: via sound, how many parts)."""
        heard = [self.heard(p) for p in parts(name)]
        count: Counter[str] = Counter()
        entities: dict[str, KbEntity] = {}
        for tokens in heard:
            ids = {e.kb_id: e for t in tokens for e in self.sounds.named_by.get(t, ())}
            count.update(ids.keys())
            entities.update(ids)
        ranked = sorted(count, key=lambda k: (-count[k], -self.kb.prior(entities[k].popularity),
                                              k))[:limit]
        return [Found(entities[k], [{"via": "sound", "parts": count[k]}]) for k in ranked]

    def agreement(self, name: str) -> Callable[[KbEntity], Sound]:
        """How much of the name and of an entity's name (or alias) sound alike: the share of
        the query's parts that sound like a token (or run of tokens) of it, and the share of
        its words they cover. Apart, because a part heard nowhere in a name says more than a
        word of it the query leaves out (`Justin Rose` is not Justin II; `ትራምፕ`, Trump alone,
        is Donald Trump): (0, 0) where the family reads none out."""
        heard = [self.heard(p) for p in parts(name)]
        if not any(heard):
            return lambda entity: (0.0, 0.0)

        def agreement(entity: KbEntity) -> Sound:
            best = (0.0, 0.0)
            for form in (entity.name, *entity.aliases):
                spans = runs(sound_tokens(form))
                matched = [[spans[t] for t in tokens if t in spans] for tokens in heard]
                covered = set().union(*(span for m in matched for span in m))
                words = len(ENGLISH_TOKEN.findall(form))
                best = max(best, (sum(map(bool, matched)) / len(heard),
                                  len(covered) / words if words else 0.0), key=sum)
            return best

        return agreement


Ranked = list[tuple[str, list[float], Sound]]  # kb id, name features, sound
Named = list[tuple[str, list[float], float, Sound]]  # kb id, name features, spelling, sound


def ranked(kb: KnowledgeBase, texts: Sequence[str], found: dict[str, Found], limit: int,
           sounded: Callable[[KbEntity], Sound]) -> Ranked:
    """The `limit` best candidates, exact matches first (a label in the query's language
    too), then those whose name agrees best with the query's, by spelling
    (`name_similarity`) or by sound (`sounded`, its two shares' mean), with what the name
    alone says of them (every feature but context's and the models' `spelling`: the same for
    every query of one name, so worked out once per name)."""
    rows = []
    for kb_id, f in found.items():
        forms = (f.entity.name, *f.entity.aliases)
        sims = [max(name_similarity(t, form) for form in forms) for t in texts]
        exact = [w["reading"] for w in f.why if w.get("via") == "exact"]
        label = [w["rank"] for w in f.why if w.get("via") == "label"]  # most popular first
        rows.append((kb_id, [max(sims), sims[0], float(bool(exact) or bool(label)),
                             1.0 / (1 + min(exact)) if exact else 0.0,
                             kb.prior(f.entity.popularity), 0.0,
                             1.0 / (1 + min(label)) if label else 0.0], sounded(f.entity)))
    rows.sort(key=lambda r: (-r[1][2], -max(r[1][0], sum(r[2]) / 2), -r[1][4], r[0]))
    rows = rows[:limit]
    by_prior = sorted(range(len(rows)), key=lambda k: -rows[k][1][4])
    for rank, k in enumerate(by_prior, start=1):
        rows[k][1][5] = 1.0 / rank
    return rows


def named(rows: Ranked, found: dict[str, Found], spelled: Callable[[KbEntity], float]) -> Named:
    """The ranked candidates with how surely the query's name spells each (`spelling`)."""
    return [(kb_id, values, spelled(found[kb_id].entity), sound) for kb_id, values, sound in rows]


def features(candidates: Named, found: dict[str, Found], context: Mapping[str, float],
             bm25: Bm25) -> tuple[list[str], np.ndarray]:
    """The candidates' feature rows (columns: `FEATURES`): their name's, then how well the
    query's document (`context`) matches each description, raw and as a share of the best."""
    raw = [bm25.score(context, found[kb_id].entity.description) for kb_id, *_ in candidates]
    best = max(raw, default=0.0)
    rows = [[*values, math.log1p(r), r / best if best > 0 else 0.0, spelling, *sound]
            for (_, values, spelling, sound), r in zip(candidates, raw, strict=True)]
    return [kb_id for kb_id, *_ in candidates], np.array(rows, dtype=float).reshape(
        len(rows), len(FEATURES))


# --- learning -------------------------------------------------------------------------------

FOLDS = 5  # train's folds for out-of-fold answers


def first(ranker: Linear, example: Example) -> tuple[str, np.ndarray]:
    """The ranker's first candidate and the linker's features of it: its probability, its
    lead over the second, its own features, and the query's type (one-hot: how sure a first
    candidate must be differs between people and places, whose labels the KB has)."""
    p = ranker.probabilities(example.X)
    order = np.argsort(-p, kind="stable")
    k = int(order[0])
    lead = p[k] - (p[order[1]] if len(order) > 1 else 0.0)
    kind = [float(example.query.type == t) for t in COARSE_TYPES]
    return example.kb_ids[k], np.concatenate([[p[k], lead], example.X[k], kind])


def top(model: Model, example: Example) -> tuple[str, float]:
    """The first candidate and how likely it is right (NIL, 0 when there is none)."""
    if not example.kb_ids:
        return NIL, 0.0
    kb_id, q = first(model.ranker, example)
    sure = model.linker.probabilities(q[None, :])[0] if model.linker else q[0]
    return kb_id, float(sure)


def answer(model: Model, example: Example) -> str:
    """The first candidate, or NIL when there is none or it is likely wrong (under threshold)."""
    kb_id, p = top(model, example)
    return kb_id if p >= model.threshold else NIL


def tune_threshold(best: Sequence[tuple[str, float, str]],
                   ties: Sequence[tuple[str, float, str]] = ()) -> float:
    """The threshold that maximizes Success@1 over `best`, (first candidate, how likely it is
    right, gold) triples; among equal maxima, the one that does best on `ties` (train's
    triples: devtest is small, and where it cannot tell, train can), then the lowest. Cuts
    lie halfway between neighbouring likelihoods."""
    if not best:
        return 0.5
    probs = sorted({p for _, p, _ in [*best, *ties]})
    cuts = [0.0, *((a + b) / 2 for a, b in zip(probs, probs[1:], strict=False)),
            probs[-1] + 1e-9]

    def right(t: float, triples: Sequence[tuple[str, float, str]]) -> int:
        return sum((kb if p >= t else NIL) == gold for kb, p, gold in triples)

    return max(cuts, key=lambda t: (right(t, best), right(t, ties), -t))


def learn(train: Sequence[Example], C: float, seed: int, trained_on: str,
          devtest_queries: int) -> Model | None:
    """Ranker and linker learned from `train` (the NIL threshold still to choose); None when
    it has no positive or no negative candidate to learn from."""
    X = np.vstack([e.X for e in train])
    y = np.array([kb == e.query.kb_id for e in train for kb in e.kb_ids], dtype=int)
    if y.min() == y.max():
        return None
    ranker = Linear.learn(X, y, C, seed)
    firsts = [first(ranker, e) for e in train]
    right = np.array([kb == e.query.kb_id for (kb, _), e in zip(firsts, train, strict=True)],
                     dtype=int)
    linker = (Linear.learn(np.vstack([q for _, q in firsts]), right, C, seed)
              if right.min() != right.max() else None)
    return Model(ranker, linker, 0.5, C, trained_on, len(train), devtest_queries)


def out_of_fold(train: Sequence[Example], C: float,
                seed: int) -> dict[str, tuple[str, float, str]]:
    """Per train query id, (first candidate, how likely it is right, gold) from a model learned
    on the other folds: how sure the model is of a query it never saw, as of a test query
    (train's own answers are surer than that). Folds split by name, as partitions do; a fold
    whose rest has nothing to learn from is left out."""
    fold = {e.query.id: zlib.crc32(e.query.name.encode()) % FOLDS for e in train}
    out: dict[str, tuple[str, float, str]] = {}
    for k in range(FOLDS):
        rest = [e for e in train if fold[e.query.id] != k]
        model = learn(rest, C, seed, "", 0) if rest else None
        if model is not None:
            out |= {e.query.id: (*top(model, e), e.query.kb_id)
                    for e in train if fold[e.query.id] == k}
    return out


def fit(examples: Sequence[Example], Cs: Sequence[float], trained_on: str,
        seed: int = 2015) -> Model | None:
    """Ranker and linker from the train examples, then the C and the NIL threshold that do best
    on the devtest examples together with train's out-of-fold answers (devtest alone, about 28
    queries a language, lets one namesake decide the threshold); test examples are never
    looked at. None when train has no positive or no negative candidate to learn from."""
    train = [e for e in examples if e.query.partition == "train" and e.kb_ids]
    dev = [e for e in examples if e.query.partition == "devtest"]
    if not train:
        return None
    best: tuple[int, Model] | None = None
    for C in Cs:
        model = learn(train, C, seed, trained_on, len(dev))
        if model is None:
            return None
        held = [(*top(model, e), e.query.kb_id) for e in dev] + list(
            out_of_fold(train, C, seed).values())
        threshold = tune_threshold(held, [(*top(model, e), e.query.kb_id) for e in train])
        score = sum((kb if p >= threshold else NIL) == gold for kb, p, gold in held)
        if best is None or score > best[0]:
            best = (score, replace(model, threshold=threshold))
    assert best is not None
    return best[1]


# --- the run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClelRun:
    answers: dict[str, str]  # export query id -> KB id or NIL
    models: dict[str, Model]  # language -> the model that answered it


def examples_for(store: Store, kb: KnowledgeBase, records: Sequence[QueryRecord], lang: str,
                 source: str, config: BaselineConfig, models: Path | None, bm25: Bm25,
                 documents: set[str], sounds: NameSounds) -> list[Example]:
    """Candidates and features of a language's queries, its context read through a lexicon
    learned from `documents` (train documents only)."""
    mine = [r for r in records if r.lang == lang]
    documents_text = {doc: document_text(store, lang, doc)
                      for doc in {r.doc_id for r in mine if r.beg >= 0}}
    full = {r.id: text for r in mine if r.beg >= 0
            and (text := written_in_full(documents_text[r.doc_id], r.beg, r.end))}
    lm = language_models(lang, models) if models and lang != source else None
    if lm is not None:  # every name's parts, and their full forms', decoded in one batch
        lm.prepare(parts=[p for name in [*(r.name for r in mine), *full.values()]
                          for p in SEPARATORS.split(name) if p])
    lexicon = None if lang == source else lexicon_for(store, lang, documents,
                                                      config.translations)
    words = document_words(store, lang, source)
    texts = {r.id: readings(r.name, lang, source, models, config.readings) for r in mine}
    for qid, text in full.items():  # the name as written stays first (`name_first`); the full
        more = readings(text, lang, source, models, config.readings)  # one's come next
        texts[qid] = list(dict.fromkeys([*texts[qid][:1], *more[:2], *texts[qid][1:],
                                         *more[2:]]))
    by_reading = ReadingIndex(kb, lang)
    by_sound = SoundIndex(kb, sounds, lang) if lang != source else None
    codes = wikidata_codes(lang) if lang != source else ()
    # queries of one type and key share candidates: (type, name, readings...)
    key = {r.id: (r.type, r.name, *texts[r.id]) for r in mine}
    found: dict[tuple[str, ...], dict[str, Found]] = {}
    for r in mine:
        if key[r.id] not in found:
            found[key[r.id]] = gather(kb, texts[r.id], r.type)
            heard = by_sound.find(r.name, config.candidates) if by_sound else []
            for f in [*by_reading.find(r.name), *heard, *labelled(kb, r.name, r.type, codes)]:
                if f.entity.type == r.type:
                    known = found[key[r.id]].setdefault(f.entity.kb_id, Found(f.entity))
                    known.why += f.why
    kept = {k: ranked(kb, k[2:], f, config.candidates,
                      by_sound.agreement(k[1]) if by_sound else lambda entity: (0.0, 0.0))
            for k, f in found.items()}
    if lm is not None and lm.active:  # the name tokens `spelling` reads, decoded in one batch:
        # those of the candidates kept for names it compares (decoding is most of the stage)
        lm.prepare(english={t for k, rows in kept.items() if spelled_parts(k[1])
                            for kb_id, *_ in rows
                            for t in ENGLISH_TOKEN.findall(found[k][kb_id].entity.name)})
    by_name = {k: named(rows, found[k], spelling(lm, k[1])) for k, rows in kept.items()}
    contexts = {doc: translate(words.get(doc, []), lexicon) for doc in {r.doc_id for r in mine}}
    examples = []
    for r in mine:
        kb_ids, X = features(by_name[key[r.id]], found[key[r.id]], contexts[r.doc_id], bm25)
        examples.append(Example(r, kb_ids, X))
    return examples


@dataclass(frozen=True)
class LanguageJob:
    """What a worker needs to find one language's candidates and features: it opens the store
    and the KB itself (each process its own connections)."""

    config: Config
    collection: Path
    lang: str
    source: str


@dataclass(frozen=True)
class Shared:
    """What every language of a collection reads the same way, worked out once per process."""

    records: list[QueryRecord]
    documents: set[str]
    bm25: Bm25
    sounds: NameSounds


_SHARED: dict[tuple[Any, ...], Shared] = {}


def shared(kb: KnowledgeBase, collection: Path) -> Shared:
    """`Shared` for this KB and collection, as long as neither file has changed."""
    key = tuple((path, stat.st_mtime_ns, stat.st_size)
                for path in [kb.path, *sorted(collection.glob("*/*.jsonl"))]
                for stat in [path.stat()])
    if key not in _SHARED:
        _SHARED.clear()
        records = read_records(collection)
        _SHARED[key] = Shared(records, train_documents(records),
                              Bm25.over(e.description for e in kb.entities()),
                              NameSounds.over(kb.entities()))
    return _SHARED[key]


def kind_of(query: QueryRecord) -> str:
    """Which model answers a query: people's (names read by transliteration) or that of the
    other types' (names translated, found by the KB's labels), each learned apart."""
    return "PER" if query.type == "PER" else "other"


def model_key(lang: str, kind: str) -> str:
    """A model's name in the weights file: the language for people's, as before types."""
    return lang if kind == "PER" else f"{lang} {kind}"


def language_model(job: LanguageJob) -> tuple[list[Example], dict[str, Model | None]]:
    """One language's examples and the models `fit` learns from them, one per `kind_of`
    query (runs in an executor's worker, or in this process)."""
    config = job.config
    with Store(config.resolve(config.store)) as store, KnowledgeBase.open(config) as kb:
        common = shared(kb, job.collection)
        examples = examples_for(store, kb, common.records, job.lang, job.source,
                                config.baseline, config.models_folder(), common.bm25,
                                common.documents, common.sounds)
    kinds = sorted({kind_of(e.query) for e in examples})
    return examples, {k: fit([e for e in examples if kind_of(e.query) == k],
                             config.baseline.regularization, job.lang) for k in kinds}


def clel_run(config: Config, collection: Path, source: str) -> ClelRun:
    """Answer every query of the collection, each language with its own learned models, one
    for people and one for the other types (or, where its train partition gives one nothing
    to learn from, the model of all languages' queries of that kind, else of all queries).
    Languages find their candidates and learn their models on the configured executor,
    a few at a time."""
    records = read_records(collection)
    langs = sorted({r.lang for r in records})
    jobs = [LanguageJob(config, collection, lang, source) for lang in langs]
    with executor(config.executor, len(records)) as ex:
        found = ex.imap(language_model, jobs, len(jobs), read_ahead(0))  # jobs are small
        by_lang = dict(zip(langs, progress(found, "clel", len(jobs), "languages"), strict=True))
    pooled: dict[str, Model | None] = {}

    def pooled_model(pool: str) -> Model | None:
        """Learned once, from every language's queries of a kind (`all`: of every kind)."""
        if pool not in pooled:
            pooled[pool] = fit([e for x, _ in by_lang.values() for e in x
                                if pool == "all" or kind_of(e.query) == pool],
                               config.baseline.regularization, "all")
        return pooled[pool]

    answers, chosen = {}, {}
    for lang, (examples, models) in by_lang.items():
        for kind, model in models.items():
            model = model or pooled_model(kind) or pooled_model("all")
            if model is None:
                raise XelError(f"{collection}: the train partition has no query whose entity "
                               "is among its candidates: nothing to learn weights from")
            chosen[model_key(lang, kind)] = model
            for e in examples:
                if kind_of(e.query) == kind:
                    answers[e.query.id] = answer(model, e)
    return ClelRun(answers, chosen)


def write_run(run: ClelRun, out: Path) -> Path:
    """The run (`query id<TAB>KB id or NIL`) and, beside it, each language's weights."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(f"{q}\t{a}\n" for q, a in sorted(run.answers.items())),
                   encoding="utf-8")
    weights = out.with_name(out.stem + ".weights.json")
    weights.write_text(json.dumps(
        {"features": FEATURES,
         "linker_features": ["probability", "lead", *FEATURES, *COARSE_TYPES],
         "models": {lang: asdict(m) for lang, m in run.models.items()}},
        indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return weights


# --- the baseline stage ---------------------------------------------------------------------

CLEL_CODE = code_digest(sys.modules[__name__], xel.score)
SYSTEMS = ("names", "clel")


def baselines_folder(config: Config) -> Path:
    return config.resolve(config.output) / "baselines"


def baseline_signature(store: Store, config: Config) -> dict[str, str]:
    return {"config": digest_of([config.baseline, config.names]), "code": CLEL_CODE,
            **versions("scikit-learn", "numpy")}


def run_baselines(store: Store, config: Config) -> Work:
    """The baseline stage: both baselines' runs on the exported collection, in
    `<output>/baselines/` (`names.tsv`, `clel.tsv` and `clel.weights.json`), so every
    collection comes with its Table 6. Where train gives clel nothing to learn from, it has no
    run, and the summary says why."""
    collection, folder = collection_folder(config), baselines_folder(config)
    folder.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {}
    with KnowledgeBase.open(config) as kb:
        summary["names"] = baseline_run(collection, kb, folder / "names.tsv",
                                        config.models_folder())
        try:
            run = clel_run(config, collection, source_language(store))
        except XelError as e:
            for path in (folder / "clel.tsv", folder / "clel.weights.json"):
                path.unlink(missing_ok=True)
            summary["clel"] = f"no run: {e}"
        else:
            write_run(run, folder / "clel.tsv")
            summary["clel"] = len(run.answers)
    return lambda s: summary
