"""How well projection and round-trip triage work, measured on gold a user can name.

Three kinds of gold: (a) parallel NER in CoNLL format (an English file and a target file of
the same sentences), where the correct projection of an English entity mention is the entity
in the target sentence that corresponds to it, typed alike where a cue does not say
otherwise (`pair_entities` says how they are paired; the types scored are chosen, people
only by default); (b) gold word alignments (Pharaoh `i-j`/`ipj` files beside `src ||| tgt`
sentences), where the correct projection is the span its gold links give; (c) names
annotated in a collection's own translations (`--spans`), scored against the projections its
store holds, per type where the file has a `type` column. Projections are scored as Lawrie
et al.'s Figure 3: fully correct, correct with extra words, partially correct, wrong (an
empty projection is wrong and also counted as a failure). The sentences of (a) and (b) are
aligned with the configured aligner trained on them and, where the config's corpus has the
gold's language, on the corpus's sentence pairs too (as a collection would be: a few hundred
gold sentences alone are too few for eflomal).
"""

from __future__ import annotations

import csv
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

import regex

from xel.align import (
    ALIGN_CODE,
    LEARNED,
    Links,
    aer,
    align,
    check_line_aligned,
    learned_files,
    priors_for,
)
from xel.config import COARSE_TYPES, Config
from xel.corpus import read_source, target_languages
from xel.errors import XelError
from xel.names.english import HONORIFICS, name_key, split_name
from xel.names.families import family
from xel.names.match import NameMatcher, make_matcher
from xel.names.pairs import wikidata_codes
from xel.names.transliterate import NAME_PACKAGES, models_for
from xel.project import PROJECT_CODE
from xel.spans import Pair, function_words, project_mention
from xel.stages import Signature, code_digest, digest_of, file_digest, versions
from xel.store import Store
from xel.textfile import iter_lines
from xel.tokenizers import spaced_spans, tokenizer_for
from xel.translate import translate
from xel.translated import (
    entities_named,
    label_pattern,
    learns_words,
    link_lexicon,
    names_read,
    project_entity,
    translated_labels,
    with_labels,
)
from xel.triage import (
    TRIAGE_CODE,
    accept_round_trip,
    dictionary_round_trip,
    label_round_trip,
    prepare_round_trip,
    round_trip_text,
)

if TYPE_CHECKING:
    from xel.ner import Mention

CATEGORIES = ("fully correct", "extra words", "partially correct", "wrong")


@dataclass(frozen=True)
class GoldSentence:
    """One parallel sentence, tokenized by the gold; `sure`/`possible` links source-target."""

    src: list[str]
    tgt: list[str]
    sure: Links = field(default_factory=set)
    possible: Links = field(default_factory=set)  # includes the sure links


@dataclass(frozen=True)
class GoldMention:
    """An English person mention (token range) and its correct target token range."""

    sentence: int
    first: int
    last: int
    gold: tuple[int, int]  # target tokens, inclusive


# --- readers ------------------------------------------------------------------------------


def read_alignment_gold(sentences: Path, links: Path, *, english: str = "src",
                        base: int = 1) -> list[GoldSentence]:
    """`src ||| tgt` sentences and Pharaoh gold (`i-j` sure, `ipj` possible, `base`-indexed).

    `english` says which side is English (`tgt` for ro-en); the result always has English as
    source. Every index is checked against its sentence's length.
    """
    pairs = _lines(sentences)
    gold = _lines(links)
    if len(pairs) != len(gold):
        raise XelError(f"{links} has {len(gold)} lines but {sentences} has {len(pairs)}: they "
                       "must be line-aligned, one sentence pair per line")
    out = []
    for number, (pair, line) in enumerate(zip(pairs, gold, strict=True), start=1):
        if "|||" not in pair:
            raise XelError(f"{sentences}, line {number}: expected 'source ||| target'")
        left, _, right = pair.partition("|||")
        # Tokens are separated by ASCII spaces: a token may itself be another Unicode space.
        src = [t for t in left.split(" ") if t]
        tgt = [t for t in right.split(" ") if t]
        sure: Links = set()
        possible: Links = set()
        for item in line.split():
            m = regex.fullmatch(r"(\d+)([-p])(\d+)", item)
            if not m:
                raise XelError(f"{links}, line {number}: {item!r} is not a link like 3-4 or 3p4")
            i, j = int(m.group(1)) - base, int(m.group(3)) - base
            if not (0 <= i < len(src) and 0 <= j < len(tgt)):
                raise XelError(
                    f"{links}, line {number}: link {item} is outside the sentence ({len(src)} x "
                    f"{len(tgt)} tokens): is the file {base}-based? (set base=0 or 1)")
            possible.add((i, j))
            if m.group(2) == "-":
                sure.add((i, j))
        if english == "tgt":
            src, tgt = tgt, src
            sure = {(j, i) for i, j in sure}
            possible = {(j, i) for i, j in possible}
        out.append(GoldSentence(src, tgt, sure, possible))
    return out


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        raise XelError(f"{path}: gold file not found") from None
    except UnicodeDecodeError:
        raise XelError(f"{path}: not UTF-8") from None


@dataclass(frozen=True)
class ConllSentence:
    tokens: list[str]
    persons: list[tuple[int, int]]  # inclusive token ranges of person entities
    # every entity: inclusive token range and coarse type (`COARSE_LABELS`), in order
    entities: list[tuple[int, int, str]] = field(default_factory=list)
    doc: int = 0  # the document it is in: how many `-DOCSTART-` lines come before it


_PERSON = {"PER", "PERSON", "PERS"}
# A gold set's entity label -> Hansel's coarse type (GPE and FAC are places); a label not
# named here (MISC, WORK_OF_ART, ...) is OTHER.
COARSE_LABELS = {"PER": "PER", "PERSON": "PER", "PERS": "PER", "ORG": "ORG",
                 "ORGANIZATION": "ORG", "ORGANISATION": "ORG", "LOC": "LOC", "LOCATION": "LOC",
                 "GPE": "LOC", "FAC": "LOC", "EVENT": "EVENT", "EVE": "EVENT"}
# How the figures of a type name its mentions ("mentions from"); people keep today's name.
TYPE_KINDS = {"PER": "persons", "ORG": "organizations", "LOC": "places", "EVENT": "events",
              "OTHER": "other names"}


def read_conll(path: Path) -> list[ConllSentence]:
    """Entities from a CoNLL file: token in the first column, tag in the last.

    Tolerant of IOB1, IOB2 and BIOES tags, `PER`/`PERSON` labels (and ORG, LOC, GPE, FAC,
    EVENT, ...: `COARSE_LABELS`), tab or space separation, `-DOCSTART-` lines (each begins a
    document) and runs of blank lines.
    """
    sentences: list[ConllSentence] = []
    tokens: list[str] = []
    tags: list[str] = []
    doc = 0
    for number, line in enumerate(_lines(path), start=1):
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if tokens:
                sentences.append(_conll_sentence(tokens, tags, doc))
                tokens, tags = [], []
            doc += bool(fields and sentences)
            continue
        if len(fields) < 2:
            raise XelError(f"{path}, line {number}: expected a token and a tag, got {line!r}")
        tokens.append(fields[0])
        tags.append(fields[-1])
    if tokens:
        sentences.append(_conll_sentence(tokens, tags, doc))
    return sentences


def _conll_sentence(tokens: list[str], tags: list[str], doc: int) -> ConllSentence:
    return ConllSentence(tokens, person_spans(tags), entity_spans(tags), doc)


def coarse_type(label: str) -> str:
    """A gold set's entity label as a coarse type (`PERSON` is PER, `GPE` is LOC)."""
    return COARSE_LABELS.get(label.upper(), "OTHER")


def entity_spans(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Inclusive ranges and coarse types of the entities in IOB1/IOB2/BIOES tags: an entity
    runs while the label stays the same and no tag begins a new one."""
    spans = []
    start: int | None = None
    current = ""
    for k, tag in enumerate([*tags, "O"]):
        prefix, _, label = tag.partition("-")
        if not label:  # a bare label (`PER`) is an inside tag; `O` is outside
            prefix, label = ("I", tag) if tag != "O" else ("O", "")
        label = label.upper()
        begins = prefix in ("B", "S", "U")
        if start is not None and (label != current or begins):
            spans.append((start, k - 1, coarse_type(current)))
            start = None
        if label and start is None:
            start, current = k, label
        if label and prefix in ("E", "L", "S", "U"):
            spans.append((start if start is not None else k, k, coarse_type(label)))
            start = None
    return spans


def person_spans(tags: Sequence[str]) -> list[tuple[int, int]]:
    """Inclusive ranges of person entities in IOB1/IOB2/BIOES tags."""
    spans = []
    start: int | None = None
    for k, tag in enumerate([*tags, "O"]):
        prefix, _, label = tag.partition("-")
        if not label:  # a bare label (`PER`) is an inside tag; `O` is outside
            prefix, label = ("I", tag) if tag != "O" else ("O", "")
        person = label.upper() in _PERSON
        begins = prefix in ("B", "S", "U")
        if start is not None and (not person or begins):
            spans.append((start, k - 1))
            start = None
        if person and start is None:
            start = k
        if person and prefix in ("E", "L", "S", "U"):
            spans.append((start if start is not None else k, k))
            start = None
    return spans


# --- mentions with their gold projection ---------------------------------------------------


def alignment_gold_mentions(gold: Sequence[GoldSentence], spans: Iterable[tuple[int, int, int]]
                            ) -> tuple[list[GoldMention], int]:
    """Gold projections from gold links (sure links, else possible ones); mentions without
    any link are left out and counted."""
    out, unlinked = [], 0
    for sent, first, last in spans:
        g = gold[sent]
        links = {j for i, j in g.sure if first <= i <= last}
        links = links or {j for i, j in g.possible if first <= i <= last}
        if not links:
            unlinked += 1
            continue
        out.append(GoldMention(sent, first, last, (min(links), max(links))))
    return out, unlinked


def capitalized_spans(sentences: Sequence[Sequence[str]]) -> list[tuple[int, int, int]]:
    """Runs of capitalized words that do not start the sentence (a stand-in for names where
    gold has too few person mentions); `Mr.`-style titles are left out of the run."""
    out = []
    for n, tokens in enumerate(sentences):
        k = 1
        while k < len(tokens):
            if _capitalized(tokens[k]):
                start = k
                while k < len(tokens) and _capitalized(tokens[k]):
                    k += 1
                run = " ".join(tokens[start:k])
                split = split_name(run)
                if split is not None:
                    skip = len(run[:split.start].split())
                    out.append((n, start + skip, k - 1))
            k += 1
    return out


def _capitalized(token: str) -> bool:
    """A capitalized word of two letters or more (not the pronoun `I`)."""
    return token[:1].isupper() and sum(ch.isalpha() for ch in token) >= 2


def draw_persons(rows: Sequence[tuple[str, str]], seed: int, n: int
                 ) -> tuple[int, list[Mention]]:
    """The draw of a blind person gold set: English NER's PERSON mentions of (document, English
    sentence) rows (`seg` is the row's index), and `n` of them sampled with `seed`, in
    sentence order; returns how many there were and the drawn `Mention`s."""
    from xel.config import NerConfig
    from xel.ner import find_mentions, load_pipeline

    ner = NerConfig()
    mentions = list(find_mentions(load_pipeline(ner.model),
                                  ((k, doc, text) for k, (doc, text) in enumerate(rows)),
                                  {"PERSON": "PER"}, ner.batch_size))
    drawn = sorted(random.Random(seed).sample(mentions, n), key=lambda m: (m.seg, m.start))
    return len(mentions), drawn


def ner_spans(sentences: Sequence[Sequence[str]], config: Config) -> list[tuple[int, int, int]]:
    """English person mentions (token ranges) found by xel's NER in gold-tokenized sentences."""
    from xel.ner import find_mentions, label_types, load_pipeline

    nlp = load_pipeline(config.ner.model)
    texts = [" ".join(t) for t in sentences]
    items = [(n, "gold", text) for n, text in enumerate(texts)]
    out = []
    for m in find_mentions(nlp, items, dict(label_types(config)), config.ner.batch_size):
        toks = covered_tokens(sentences[m.seg], m.start, m.end)
        # Gold tokenization splits the possessive (`Guest 's`), which NER then keeps.
        while toks and not any(ch.isalnum() for ch in sentences[m.seg][toks[-1]].strip("'s")):
            toks.pop()
        if toks and is_person_name([sentences[m.seg][k] for k in toks]):
            out.append((m.seg, toks[0], toks[-1]))
    return out


def covered_tokens(tokens: Sequence[str], start: int, end: int) -> list[int]:
    """The gold tokens a mention's characters cover in the tokens joined by spaces (the text
    NER was given)."""
    return [k for k, (a, b) in enumerate(spaced_spans(tokens)) if a < end and b > start]


def is_person_name(tokens: Sequence[str]) -> bool:
    """Not an NER slip on a title or a common word: some token is capitalized and not a title
    (`Mr. Speaker` gives `Speaker`; the Hansards' `bush` in `beat around the bush`)."""
    return any(t[:1].isupper() and t.rstrip(".").casefold() not in HONORIFICS for t in tokens)


def typed_gold_mentions(english: Sequence[ConllSentence], target: Sequence[ConllSentence],
                        matcher: NameMatcher | None,
                        labels: Mapping[str, set[str]] | None = None, lang: str | None = None
                        ) -> dict[str, tuple[list[GoldMention], int]]:
    """The English entities of every type but people, each sentence's paired once with the
    target's (`pair_entities`, over every type at once, people too, since the two
    annotations may type one name apart: `Villeneuve` a person in English, a place in
    German), by type: the gold mentions and how many were left without one."""
    found: dict[str, list[GoldMention]] = defaultdict(list)
    unmatched: Counter[str] = Counter()
    for n, (e, t) in enumerate(zip(english, target, strict=True)):
        src, tgt = e.entities, t.entities
        pairs = pair_entities([" ".join(e.tokens[a:b + 1]) for a, b, _ in src],
                              [" ".join(t.tokens[a:b + 1]) for a, b, _ in tgt], matcher, labels,
                              [a / len(e.tokens) for a, _, _ in src],
                              [a / len(t.tokens) for a, _, _ in tgt], lang,
                              [k for _, _, k in src], [k for _, _, k in tgt],
                              unannotated_names(e))
        for i, (a, b, kind) in enumerate(src):
            if kind == "PER":  # paired here only so that no other name takes its target
                continue
            if i in pairs:
                found[kind].append(GoldMention(n, a, b, tgt[pairs[i]][:2]))
            else:
                unmatched[kind] += 1
    return {kind: (found[kind], unmatched[kind]) for kind in {*found, *unmatched}}


def unannotated_names(sentence: ConllSentence) -> list[str]:
    """The runs of capitalized words a sentence has outside its annotated names, its first
    word aside (`Treaty`, `London` of an unannotated *Treaty of London*): names one
    annotation may have left out."""
    inside = {k for a, b, _ in sentence.entities for k in range(a, b + 1)}
    runs: list[list[str]] = [[]]
    for k, token in enumerate(sentence.tokens):
        if k and k not in inside and _capitalized(token):
            runs[-1].append(token)
        elif runs[-1]:
            runs.append([])
    return [" ".join(run) for run in runs if run]


def pair_persons(english: Sequence[ConllSentence], target: Sequence[ConllSentence],
                 matcher: NameMatcher | None) -> tuple[list[GoldMention], int]:
    """People, as before types (so person figures stay what they were): each English person,
    in order, takes the free target person most like it in spelling (`matcher`), the first
    free one where none is; English persons with no target person left are counted."""
    out, unmatched = [], 0
    for n, (e, t) in enumerate(zip(english, target, strict=True)):
        free = list(t.persons)
        for first, last in e.persons:
            if not free:
                unmatched += 1
                continue
            name = [w.casefold() for w in e.tokens[first:last + 1]]

            def likeness(span: tuple[int, int], name: list[str] = name,
                         t: ConllSentence = t) -> float:
                if matcher is None:
                    return 0.0
                words = t.tokens[span[0]:span[1] + 1]
                return sum(max(matcher.score(w, x) for x in words) for w in name)

            best = max(free, key=lambda s: (likeness(s), -free.index(s)))
            free.remove(best)
            out.append(GoldMention(n, first, last, best))
    return out, unmatched


CUE_MIN = 0.8  # a spelling cue pairs two names only where each name's words match this well
INFLECTED_LABEL = 0.99  # the cue of a KB label written inflected: surer than any spelling
SPELLING_MOST = 0.98  # the surest a spelling cue is: below any label


def name_cue(english: str, target: str, matcher: NameMatcher | None,
             labels: Mapping[str, set[str]] | None = None, lang: str | None = None) -> float:
    """How surely two names of a sentence pair are the same entity, from nothing a
    projection decides: 1 where they fold to the same letters (`foreign_key`: `NATO`, `Union
    Européenne`/`union europeenne`) or the KB has the target name among the English name's
    labels in that language (`Germany`/`Deutschland`), and nearly so where the target is such
    a label inflected (`lang`: `Frankreichs`, `России`); else the spelling or transliteration
    likeness of their words (`matcher`: `London`/`Лондон`, `European Union`/`Europäischen
    Union`), the mean over English words of the best target word, 0 where it is under
    `CUE_MIN`."""
    from xel.kb import foreign_key

    e, t = english_key(english), foreign_key(target)
    if not e or not t:
        return 0.0
    known = labels.get(e, set()) if labels else set()
    if e == t or t in known:
        return 1.0
    if lang is not None and any(label_pattern(label, lang).fullmatch(t) for label in known):
        return INFLECTED_LABEL
    if matcher is None:
        return 0.0
    words = t.split() if not matcher.family.unspaced else [t]
    score = sum(max(matcher.score(w, x) for x in words) for w in e.split()) / len(e.split())
    return min(score, SPELLING_MOST) if score >= CUE_MIN else 0.0


def english_key(name: str) -> str:
    """An English name folded as the KB's names are, dots dropped (`U.S.` is `US`)."""
    from xel.kb import foreign_key

    return foreign_key(name.replace(".", ""))


def pair_entities(english: Sequence[str], target: Sequence[str], matcher: NameMatcher | None,
                  labels: Mapping[str, set[str]] | None = None,
                  english_at: Sequence[float] | None = None,
                  target_at: Sequence[float] | None = None,
                  lang: str | None = None,
                  english_types: Sequence[str] | None = None,
                  target_types: Sequence[str] | None = None,
                  unannotated: Sequence[str] = ()) -> dict[int, int]:
    """Pair the English names of a sentence with the target names (index -> index), so that
    translated names pair, never by a projection:

    1. names a translation-independent cue ties (`name_cue`) pair first, each name once: a
       name's own letters or a KB label, inflected or not, before spelling likeness; then
       names the two annotations typed alike (`english_types`, `target_types`); then the
       nearest in the sentences (`english_at`, `target_at`: where each name starts, as a share
       of its sentence; else their order among the names), since one side may leave a
       repeated name unannotated. Names typed apart pair only by their letters or a label
       (`Shenzhen 's traffic police` is an organization in English, a place in German);
    2. the names of a type left pair by order of occurrence (the k-th left with the k-th
       left) where as many are left on both sides, which pairs translated names
       (`Germany`/`Deutschland`); a target name that one of the English sentence's
       `unannotated` names (`unannotated_names`) spells is that name's, and pairs by no
       order (German `London` of *Vertrag von London*, where the English leaves *Treaty of
       London* unannotated);
    3. otherwise the English names left have no gold and are left out.
    """
    src_at = english_at if english_at is not None else range(len(english))
    tgt_at = target_at if target_at is not None else range(len(target))
    src_type = english_types or [""] * len(english)
    tgt_type = target_types or [""] * len(target)
    cues = []
    for i, e in enumerate(english):
        for j, t in enumerate(target):
            cue = name_cue(e, t, matcher, labels, lang)
            alike = src_type[i] == tgt_type[j]
            named = cue >= INFLECTED_LABEL
            if cue > 0 and (alike or named):
                cues.append((named, cue if not named else 0.0, alike,
                             -abs(src_at[i] - tgt_at[j]), i, j))
    pairs: dict[int, int] = {}
    for *_, i, j in sorted(cues, reverse=True):
        if i not in pairs and j not in pairs.values():
            pairs[i] = j
    spelled = {j for j, t in enumerate(target)
               if any(name_cue(u, t, matcher, labels, lang) for u in unannotated)}
    for kind in dict.fromkeys(src_type):
        left = [i for i in range(len(english)) if i not in pairs and src_type[i] == kind]
        free = [j for j in range(len(target))
                if j not in pairs.values() and tgt_type[j] == kind and j not in spelled]
        if len(left) == len(free):
            pairs.update(zip(left, free, strict=True))
    return pairs


# --- scoring ---------------------------------------------------------------------------------


def category(predicted: set[int], gold: tuple[int, int]) -> str:
    """Figure 3 of Lawrie et al.: how a predicted token set relates to the gold range."""
    want = set(range(gold[0], gold[1] + 1))
    if predicted == want:
        return "fully correct"
    if predicted > want:
        return "extra words"
    if predicted & want:
        return "partially correct"
    return "wrong"


@dataclass
class Outcome:
    mention: GoldMention
    english: str
    predicted: str
    tokens: set[int]
    category: str
    # The target sentence and the projection's characters in it, where the gold is on the
    # collection's text: what triage reads around a projection (`Family.runs_on`).
    context: tuple[str, int, int] | None = None
    gold_text: str = ""  # the gold name as the target writes it


def as_named(english: str, kind: str) -> tuple[str, int, int]:
    """A gold English mention as the pipeline's mentions name it, and where that is in it:
    other types than people without the article NER takes with them (`the Andes`), so that
    the KB's labels are looked up as a collection looks them up; people as marked."""
    split = None if kind == "PER" else split_name(english, person=False)
    return (english, 0, len(english)) if split is None else (split.name, split.start,
                                                             split.end)


def evaluate_projection(gold: Sequence[GoldSentence], mentions: Sequence[GoldMention],
                        lang: str, config: Config,
                        links: Sequence[Links] | None = None, kind: str = "PER"
                        ) -> tuple[list[Outcome], float | None]:
    """Project every gold mention (of type `kind`) with xel's aligner and projection; returns
    outcomes and AER of the aligner on these sentences (None where the gold has no links).
    Names of other types than people are projected as translated names are, by the config
    KB's labels where its index is built."""
    if links is None:
        links = list(align([g.src for g in gold], [g.tgt for g in gold], config.align))
    has_links = any(g.possible for g in gold)
    rate = aer(links, [g.sure for g in gold], [g.possible for g in gold]) if has_links else None
    names = {as_named(" ".join(gold[m.sentence].src[m.first:m.last + 1]), kind)[0]
             for m in mentions}
    matcher = make_matcher(lang, config, names_read(names, names if kind != "PER" else ()))
    stops = function_words(lang) if config.project.trim else frozenset()
    labels = entity_labels(config, lang, kind, names)
    pairs = [Pair(" ".join(g.src), spaced_spans(g.src), " ".join(g.tgt), spaced_spans(g.tgt),
                  sentence_links) for g, sentence_links in zip(gold, links, strict=True)]
    lexicon = link_lexicon(pairs, lang) if labels is not None and learns_words(lang) else None
    outcomes = []
    for m in mentions:
        g = gold[m.sentence]
        pair = pairs[m.sentence]
        src_spans, tgt_spans = pair.src, pair.tgt
        english, at, until = as_named(" ".join(g.src[m.first:m.last + 1]), kind)
        start = src_spans[m.first][0] + at
        end = start + until - at
        if labels is None:
            p = project_mention(pair, start, end, english, matcher, stops, config.project)
        else:
            p = project_entity(pair, start, end, english, labels.get(english, ()), stops,
                               config.project, lang, matcher, kind, lexicon)
        if p.start is None or p.end is None:
            tokens: set[int] = set()
            text = ""
        else:
            tokens = {k for k, (s, e) in enumerate(tgt_spans) if s < p.end and e > p.start}
            text = pair.tgt_text[p.start:p.end]
        outcomes.append(Outcome(m, english, text, tokens, category(tokens, m.gold),
                                gold_text=" ".join(g.tgt[m.gold[0]:m.gold[1] + 1])))
    return outcomes, rate


def entity_labels(config: Config, lang: str, kind: str,
                  names: Iterable[str]) -> dict[str, tuple[str, ...]] | None:
    """English name -> the KB labels `project_entity` looks for, for names of a type other
    than people's (empty where the KB index is not built); None for people."""
    from xel.kb import KnowledgeBase, index_path

    if kind == "PER":
        return None
    if not index_path(config).is_file():
        return {}
    with KnowledgeBase.open(config) as kb:
        return {name: translated_labels(kb, name, kind, lang) for name in names}


def summarize(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Figure 3's counts, and the mentions not projected fully correct (`misses`), which a
    reader checks before believing a figure."""
    counts = Counter(o.category for o in outcomes)
    n = len(outcomes)
    return {"mentions": n, **{c: counts[c] for c in CATEGORIES},
            "failures": sum(not o.predicted for o in outcomes),
            "fully correct %": round(100 * counts["fully correct"] / n, 1) if n else None,
            "misses": [miss(o) for o in outcomes if o.category != "fully correct"]}


def miss(o: Outcome) -> dict[str, str]:
    """A mention not fully correct, as `--show` lists it: the English, what xel wrote, the
    gold."""
    return {"english": o.english, "projected": o.predicted, "gold": o.gold_text,
            "category": o.category}


def evaluate_triage(outcomes: Sequence[Outcome], lang: str, config: Config,
                    store: Store | None = None, kind: str = "PER") -> dict[str, Any]:
    """Round-trip acceptance (A1) of each non-empty projection, how often an accepted
    projection is fully correct (precision), and the accepted ones that are not. Names of
    other types than people's go back to English through the labels of the KB entities of
    that type named as the English is (the stage asks the query's link candidates), Chinese
    ones also through CC-CEDICT (`dictionary_round_trip`), then through transliteration."""
    own = store is None
    db = store or Store(":memory:")
    said = {o.predicted: round_trip_text(o.predicted, lang, kind) for o in outcomes
            if o.predicted}
    try:
        names = sorted(set(said.values()))
        answers, backend = translate(db, names, lang, config) if names else ({}, "")
    finally:
        if own:
            db.close()
    models = models_for(lang, config)
    prepare_round_trip(models, lang, [(said[o.predicted], o.english) for o in outcomes
                                      if o.predicted])
    by_kb = kb_round_trips(outcomes, lang, config, kind)
    rules = family(lang)

    def runs_on(o: Outcome) -> bool:
        return o.context is not None and models is not None and rules.runs_on(
            *o.context, models.count) is not None

    def round_trip(o: Outcome) -> bool:
        return accept_round_trip(said[o.predicted], o.english, answers[said[o.predicted]].text,
                                 lang, config.triage, models).accepted and not runs_on(o)

    accepted = [o for o in outcomes if o.predicted and (
        by_kb.get(o.english, {}).get(o.predicted)
        or dictionary_round_trip(o.predicted, o.english, lang, kind) or round_trip(o))]
    right = sum(o.category == "fully correct" for o in accepted)
    n = len(outcomes)
    return {"mentions": n, "backend": backend, "accepted": len(accepted),
            "acceptance %": round(100 * len(accepted) / n, 1) if n else None,
            "accepted and fully correct": right,
            "precision %": round(100 * right / len(accepted), 1) if accepted else None,
            "wrong accepts": [miss(o) for o in accepted if o.category != "fully correct"]}


def kb_round_trips(outcomes: Sequence[Outcome], lang: str, config: Config,
                   kind: str) -> dict[str, dict[str, bool]]:
    """English name -> projection -> whether the KB's round trip accepts it (names of
    people, or without a built KB index: none)."""
    from xel.kb import KnowledgeBase, index_path

    if kind == "PER" or not index_path(config).is_file():
        return {}
    out: dict[str, dict[str, bool]] = {}
    with KnowledgeBase.open(config) as kb:
        for o in outcomes:
            if not o.predicted:
                continue
            entities = with_labels(kb, entities_named(kb, o.english, kind), lang)
            found = label_round_trip(o.predicted, o.english, entities, lang)
            out.setdefault(o.english, {})[o.predicted] = bool(found and found[1].accepted)
    return out


def conll_as_gold(english: Sequence[ConllSentence],
                  target: Sequence[ConllSentence]) -> list[GoldSentence]:
    if len(english) != len(target):
        raise XelError(f"the English CoNLL file has {len(english)} sentences but the target "
                       f"file has {len(target)}: they must hold the same sentences in order")
    return [GoldSentence(e.tokens, t.tokens) for e, t in zip(english, target, strict=True)]


# --- gold sets as the CLI names them ---------------------------------------------------------


@dataclass(frozen=True)
class GoldSet:
    """A gold set ready to score: sentences (English first) and mention sets by kind."""

    name: str
    lang: str
    sentences: list[GoldSentence]
    mentions: dict[str, list[GoldMention]]
    left_out: dict[str, int]  # mentions without gold (no link, no target person)
    types: dict[str, str] = field(default_factory=dict)  # mention kind -> type; else PER


def alignment_gold_set(name: str, lang: str, sentences: Path, links: Path, english: str,
                       base: int, kinds: Sequence[str], config: Config,
                       not_person: set[str] | None = None) -> GoldSet:
    """Gold alignments with mentions found by NER (`ner`) and/or capitalized runs (`caps`);
    with `not_person` (name keys a reviewer marked), also `ner, reviewed`: NER's mentions
    without those, so NER's slips (`the Bill`) are told apart from projection errors."""
    gold = read_alignment_gold(sentences, links, english=english, base=base)
    found: dict[str, list[GoldMention]] = {}
    left: dict[str, int] = {}
    for kind in kinds:
        spans = (ner_spans([g.src for g in gold], config) if kind == "ner"
                 else capitalized_spans([g.src for g in gold]))
        found[kind], left[kind] = alignment_gold_mentions(gold, spans)
        if kind == "ner" and not_person is not None:
            people = [(n, a, b) for n, a, b in spans
                      if name_key(" ".join(gold[n].src[a:b + 1])) not in not_person]
            found["ner, reviewed"], left["ner, reviewed"] = alignment_gold_mentions(gold, people)
    return GoldSet(name, lang, gold, found, left)


def conll_gold_set(name: str, lang: str, english: Path, target: Path, config: Config,
                   types: Sequence[str] = ("PER",)) -> GoldSet:
    """Parallel NER gold: each English entity of the `types` paired with an entity of the
    target sentence (`pair_persons`, `typed_gold_mentions`); a mention kind per type
    (`TYPE_KINDS`: people are `persons`, as before types)."""
    en, tgt = read_conll(english), read_conll(target)
    gold = conll_as_gold(en, tgt)
    names = {" ".join(s.tokens[a:b + 1]) for s in en for a, b, _ in s.entities}
    matcher = make_matcher(lang, config, names)
    typed = (typed_gold_mentions(en, tgt, matcher, kb_labels(config, lang), lang)
             if set(types) - {"PER"} else {})
    found: dict[str, list[GoldMention]] = {}
    left: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for kind in types:
        key = TYPE_KINDS[kind]
        found[key], left[key] = (pair_persons(en, tgt, matcher) if kind == "PER"
                                 else typed.get(kind, ([], 0)))
        kinds[key] = kind
    return GoldSet(name, lang, gold, found, left, kinds)


@dataclass(frozen=True)
class TypedGold:
    """A gold entity a query stands on: the query's type, and NER's label of the mention."""

    name: str
    gold: str
    decided: str
    ner: str  # the coarse type of NER's label on this mention


def type_gold(english: Sequence[ConllSentence], config: Config
              ) -> tuple[list[TypedGold], Counter[str], Counter[str]]:
    """The queries the collection would make of CoNLL sentences (NER's mentions, documents
    from `-DOCSTART-`, the type check with the config's KB, each type's query filters but
    the document count's: `every_document`), read
    at the gold entities of the collection's types: each entity a query overlaps, with the
    query's type; then, per gold type, the entities no query stands on, and per query type,
    the queries on no gold entity (not judged: gold may leave events and products out)."""
    from xel.kb import KnowledgeBase
    from xel.ner import find_mentions, label_types, load_pipeline
    from xel.persons import InSentence, Mentioned, decide_names, retyped
    from xel.queries import Mention as QueryMention
    from xel.queries import typed_queries

    texts = [" ".join(s.tokens) for s in english]
    others: Counter[tuple[str, str]] = Counter()
    found = list(find_mentions(load_pipeline(config.ner.model),
                               [(n, f"doc{s.doc}", t) for n, (s, t) in enumerate(
                                   zip(english, texts, strict=True))],
                               dict(label_types(config)), config.ner.batch_size, others))
    other_labels: Counter[str] = Counter()
    for (key, _), n in others.items():
        other_labels[key] += n
    people = [Mentioned(m.doc_id, m.name, m.name_key, m.honorific, texts[m.seg], m.start, m.end)
              for m in found if m.type == "PER"]
    with KnowledgeBase.open(config) as kb:
        _, typed = decide_names(people, retyped([InSentence(m.name_key, m.name, m.type,
                                                            m.doc_id, texts[m.seg], m.start,
                                                            m.end) for m in found], config),
                                other_labels, kb, config)
    queries, _ = typed_queries([QueryMention(n, m.doc_id, m.seg, m.start, m.end, m.name,
                                             m.name_key, m.type) for n, m in enumerate(found)],
                               every_document(config), set(), {t.name_key: t for t in typed},
                               set())
    labelled = {(m.seg, m.start): m.type for m in found}
    by_sentence: dict[int, list[tuple[int, int, Any]]] = defaultdict(list)
    for m in queries:
        toks = covered_tokens(english[m.seg].tokens, m.start, m.end)
        if toks:
            by_sentence[m.seg].append((toks[0], toks[-1], m))
    out: list[TypedGold] = []
    missed: Counter[str] = Counter()
    judged: set[tuple[int, int]] = set()  # (sentence, first token) of queries read
    for n, s in enumerate(english):
        for a, b, kind in s.entities:
            if kind not in config.types:
                continue
            over = [(min(b, e) - max(a, f) + 1, f, m) for f, e, m in by_sentence[n]
                    if f <= b and e >= a]
            if not over:
                missed[kind] += 1
                continue
            _, first, m = max(over, key=lambda o: o[0])
            judged.add((n, first))
            out.append(TypedGold(" ".join(s.tokens[a:b + 1]), kind, m.type,
                                 labelled[(m.seg, m.start)]))
    unjudged = Counter(m.type for n, ms in by_sentence.items()
                       for first, _, m in ms if (n, first) not in judged)
    return out, missed, unjudged


def every_document(config: Config) -> Config:
    """The config with names in one document kept: in a gold set of a few hundred documents
    names seldom recur, and the type check, not corpus frequency, is what is measured."""
    by_type = {k: f.model_copy(update={"min_documents": 1})
               for k, f in config.queries.by_type.items()}
    queries = config.queries.model_copy(update={"min_documents": 1, "by_type": by_type})
    return config.model_copy(update={"queries": queries})


def type_rows(found: Sequence[TypedGold], missed: Mapping[str, int],
              types: Sequence[str]) -> list[dict[str, Any]]:
    """Per gold type and in all: entities queries stand on, typed right by the type check and
    by NER's own label alone, and those no query stands on."""
    rows = []
    for kind in [*types, "all"]:
        of = [t for t in found if kind in ("all", t.gold)]
        right = sum(t.decided == t.gold for t in of)
        ner = sum(t.ner == t.gold for t in of)
        rows.append({"type": kind, "queries": len(of),
                     "no query": sum(missed.values()) if kind == "all" else missed[kind],
                     "typed right": right,
                     "typed right %": round(100 * right / len(of), 1) if of else None,
                     "NER label right %": round(100 * ner / len(of), 1) if of else None})
    return rows


def kb_labels(config: Config, lang: str) -> dict[str, set[str]]:
    """The config KB's names in `lang` (labels and aliases), by folded English name or alias:
    a pairing cue of `pair_entities`; empty where the KB index is not built or has none."""
    from xel.kb import KnowledgeBase, foreign_key, index_path

    if not index_path(config).is_file():
        return {}
    try:
        with KnowledgeBase.open(config) as kb:
            found = kb.translations(wikidata_codes(lang))
    except XelError:
        return {}
    out: dict[str, set[str]] = {}
    for english, label in found:
        out.setdefault(english_key(english), set()).add(foreign_key(label))
    return out


def shared_gold_sets(folder: Path, kinds: Sequence[str], config: Config,
                     not_person: set[str] | None = None) -> list[GoldSet]:
    """The shared gold alignments: Hansards en-fr (1-based, sure+possible) and ro-en."""
    return [
        alignment_gold_set("en-fr", "fra", folder / "en-fr" / "enfr.src-tgt",
                           folder / "en-fr" / "enfr.gold", "src", 1, kinds, config, not_person),
        alignment_gold_set("ro-en", "ron", folder / "ro-en" / "roen.src-tgt",
                           folder / "ro-en" / "roen.gold", "tgt", 1, kinds, config, not_person),
    ]


def paper_config(config: Config) -> Config:
    """The same config with every name-aware refinement off (Lawrie et al.'s projection)."""
    project = config.project.model_copy(update={"name_aware": False})
    return config.model_copy(update={"project": project})


def corpus_pairs(config: Config, lang: str) -> tuple[list[list[str]], list[list[str]]]:
    """The config corpus's English and `lang` sentences, then those of `align.learn_from`,
    tokenized as a collection tokenizes them: extra training data for aligning gold, so the
    aligner scored is the one the collection runs (none where the corpus lacks `lang`)."""
    corpus = config.corpus.model_copy(update={"languages": [lang]})
    try:
        source = read_source(config.model_copy(update={"corpus": corpus}))
    except XelError:
        return [], []
    english, target = source.languages[0], source.languages[-1]
    if target == english:
        return [], []
    pairs = [(s.texts[english], s.texts[target]) for s in source.segments]
    learned = learned_files(config, english, target)
    if learned is not None:
        src, tgt = list(iter_lines(learned[0], LEARNED)), list(iter_lines(learned[1], LEARNED))
        check_line_aligned(learned, len(src), len(tgt))
        pairs += zip(src, tgt, strict=True)
    pairs = [(e, t) for e, t in pairs if e.strip() and t.strip()]
    out: list[list[list[str]]] = []
    for code, texts in ((english, [p[0] for p in pairs]), (target, [p[1] for p in pairs])):
        tok = tokenizer_for(code, texts, config.tokenize)
        out.append([[t[a:b] for a, b in tok(t)] for t in texts])
    return out[0], out[1]


def align_gold(gold: Sequence[GoldSentence], lang: str, config: Config, extra: bool,
               mentions: Iterable[GoldMention] = ()) -> tuple[list[Links], int]:
    """Links for the gold sentences, the aligner trained on them plus (with `extra`) the
    corpus's (and `align.learn_from`'s) pairs of the same language; returns the links and how
    many extra pairs there were. The English `mentions` give the name priors of
    `align.name_prior`, as a collection's mentions do (the gold's target side is never read).
    """
    src, tgt = corpus_pairs(config, lang) if extra else ([], [])
    spans: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for m in mentions:
        spans[m.sentence].add((m.first, m.last))
    priors = priors_for(lang, config, [(gold[k].src, gold[k].tgt, sorted(v))
                                       for k, v in spans.items()],
                        {" ".join(gold[k].src[a:b + 1]) for k, v in spans.items() for a, b in v})
    links = align([g.src for g in gold] + src, [g.tgt for g in gold] + tgt, config.align,
                  range(len(gold)), priors)
    return list(links), len(src)


def evaluate_sets(sets: Sequence[GoldSet], config: Config, with_triage: bool,
                  extra: bool = True) -> list[dict[str, Any]]:
    """Score paper and name-aware projection (and triage) on every set and mention kind.

    The aligner runs once per set, so both projections see the same links.
    """
    rows = []
    for gs in sets:
        links, n_extra = align_gold(gs.sentences, gs.lang, config, extra,
                                    chain.from_iterable(gs.mentions.values()))
        for kind, mentions in gs.mentions.items():
            for method, cfg in (("paper", paper_config(config)), ("xel", config)):
                outcomes, rate = evaluate_projection(gs.sentences, mentions, gs.lang, cfg, links,
                                                     gs.types.get(kind, "PER"))
                row: dict[str, Any] = {"gold": gs.name, "lang": gs.lang, "mentions from": kind,
                                       "type": gs.types.get(kind, "PER"),
                                       "projection": method, "left out": gs.left_out[kind],
                                       "AER": None if rate is None else round(rate, 3),
                                       "aligner trained on": f"{len(gs.sentences)} gold + "
                                                             f"{n_extra} corpus pairs",
                                       **summarize(outcomes)}
                if with_triage:
                    row["triage"] = evaluate_triage(outcomes, gs.lang, cfg,
                                                    kind=gs.types.get(kind, "PER"))
                rows.append(row)
    return rows


# --- annotated names in a collection's translations -------------------------------------------

SPAN_HEADER = ["lang", "seg", "en_start", "en_end", "english", "gold", "start", "end"]
# A typed span gold file adds the coarse type of NER's label (`type`, what `--types`
# chooses), the NER label and what the English name really is (`gold_type`).
TYPED_SPAN_HEADER = [*SPAN_HEADER, "type", "label", "gold_type"]
UNSCORED = ("ABSENT", "NOT_PERSON", "NOT_ENTITY")


@dataclass(frozen=True)
class SpanGold:
    """Where an English mention (characters of segment `seg`) is named in a translation."""

    line: int
    lang: str
    seg: int
    en_start: int
    en_end: int
    english: str
    gold: str  # the name, ABSENT, NOT_PERSON or NOT_ENTITY
    start: int | None
    end: int | None
    type: str = "PER"  # the coarse type of NER's label (files without the column: people)
    label: str = ""
    gold_type: str = ""


def occurrence(text: str, ref: str) -> tuple[int, int]:
    """Characters of an annotated name in its sentence: `name`, or `name#k` for its k-th
    occurrence (span gold files are written from such references)."""
    name, _, k = ref.partition("#")
    starts = [m.start() for m in regex.finditer(regex.escape(name), text)]
    if not starts or (not k and len(starts) > 1) or len(starts) < int(k or 1):
        raise XelError(f"{ref!r} is missing or ambiguous in {text!r}: add #k for the k-th "
                       "occurrence")
    start = starts[int(k or 1) - 1]
    return start, start + len(name)


def span_gold_row(lang: str, seg: int, en_start: int, en_end: int, english: str, ref: str,
                  text: str) -> list[str]:
    """A span gold file's row for an annotation: `ref` is the name (`name#k`), ABSENT or
    NOT_PERSON, found in the target sentence `text`."""
    if ref in UNSCORED:
        found = [ref, "", ""]
    else:
        start, end = occurrence(text, ref)
        found = [text[start:end], str(start), str(end)]
    return [lang, str(seg), str(en_start), str(en_end), english, *found]


ANNOTATION_COLUMNS = ["line", "doc", "en_start", "en_end", "english", "gold", "note"]


def draw_sheet(rows: Sequence[tuple[str, str, str]], path: Path, seed: int, n: int,
               target: str) -> int:
    """The blind draw of `draw_persons` over (document, English, target sentence) `rows`,
    written as the annotator's sheet: `ANNOTATION_COLUMNS` with `gold` and `note` empty, then
    the two sentences (the second column named `<target>_sentence`). The sheet is all the
    annotator reads. Returns how many PERSON mentions there were to draw from."""
    found, drawn = draw_persons([(doc, en) for doc, en, _ in rows], seed, n)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(ANNOTATION_COLUMNS + ["english_sentence", f"{target}_sentence"])
        for m in drawn:
            doc, en, other = rows[m.seg]
            w.writerow([m.seg, doc, m.start, m.end, en[m.start:m.end], "", "", en, other])
    return found


def annotated_halves(annotations: Path, rows: Sequence[tuple[str, str, str]], lang: str,
                     half: Callable[[str], str]) -> dict[str, list[list[str]]]:
    """A corpus's `annotations.tsv` (`ANNOTATION_COLUMNS`) over (document, English, target
    sentence) `rows`, as span gold rows (`span_gold_row`) in halves by `half(document)`; an
    annotation whose English (or `doc`, where the file has that column) is not where it says
    is an error naming it."""
    with open(annotations, encoding="utf-8") as f:
        notes = list(csv.DictReader(f, delimiter="\t"))
    gold: dict[str, list[list[str]]] = {"tune": [], "heldout": []}
    for note in notes:
        k, a, b = int(note["line"]), int(note["en_start"]), int(note["en_end"])
        doc, en, other = rows[k]
        if note.get("doc", doc) != doc or en[a:b] != note["english"]:
            raise XelError(f"{annotations}: {note['english']!r} is not at {a}-{b} of line {k} "
                           f"({note.get('doc', doc)}): rebuild from the source the README names")
        gold[half(doc)].append(span_gold_row(lang, k, a, b, note["english"], note["gold"],
                                             other))
    return gold


def span_gold_counts(rows: Iterable[Sequence[str]]) -> dict[str, int]:
    """How many rows of `span_gold_row` name the person, say ABSENT and NOT_PERSON: what a
    corpus build reports of its halves."""
    golds = [r[5] for r in rows]
    return {"named": sum(g not in UNSCORED for g in golds),
            "ABSENT": golds.count("ABSENT"), "NOT_PERSON": golds.count("NOT_PERSON")}


def write_span_gold(path: Path, comment: str, rows: Iterable[Sequence[str]],
                    header: Sequence[str] = SPAN_HEADER) -> None:
    """A span gold file as `read_span_gold` reads it: a `#` comment line, the header (typed
    files: `TYPED_SPAN_HEADER`), rows."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(f"# {comment}\n")
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def read_span_gold(path: Path) -> list[SpanGold]:
    """A span gold file (`#` comment lines, then a header and tab-separated rows); with
    `TYPED_SPAN_HEADER`, rows carry their type (else PER)."""
    rows = []
    header: list[str] | None = None
    for number, line in enumerate(_lines(path), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if header is None:
            if fields not in (SPAN_HEADER, TYPED_SPAN_HEADER):
                raise XelError(f"{path}, line {number}: expected the header "
                               f"{chr(9).join(SPAN_HEADER)!r} (and, typed, "
                               f"{chr(9).join(TYPED_SPAN_HEADER[len(SPAN_HEADER):])!r})")
            header = fields
            continue
        if len(fields) != len(header):
            raise XelError(f"{path}, line {number}: expected {len(header)} tab-separated "
                           f"fields, got {len(fields)}")
        lang, seg, en_start, en_end, english, gold, start, end = fields[:len(SPAN_HEADER)]
        kind, label, gold_type = (fields[len(SPAN_HEADER):] if len(header) > len(SPAN_HEADER)
                                  else ("PER", "", ""))
        if kind not in COARSE_TYPES:
            raise XelError(f"{path}, line {number}: unknown type {kind!r}: the types are "
                           f"{', '.join(COARSE_TYPES)}")
        try:
            numbers = [int(x) for x in (seg, en_start, en_end)]
            span = (int(start), int(end)) if gold not in UNSCORED else (None, None)
        except ValueError:
            raise XelError(f"{path}, line {number}: seg, en_start, en_end (and start, end of a "
                           "name) must be whole numbers") from None
        rows.append(SpanGold(number, lang, numbers[0], numbers[1], numbers[2], english, gold,
                             span[0], span[1], kind, label, gold_type))
    return rows


def span_outcomes(store: Store, path: Path, rows: Sequence[SpanGold],
                  lang: str) -> tuple[dict[str, list[Outcome]], int]:
    """The store's projections of the annotated mentions of `lang`, xel's and the paper's
    aligned span (`paper`), scored on characters; rows without a name or a matching mention
    are left out and counted."""
    outcomes: dict[str, list[Outcome]] = {"paper": [], "xel": []}
    left_out = 0
    if not store.has_table("projections"):
        raise XelError(f"no projections in {store.path} (queried, never projected): run "
                       "`xel project CONFIG` first")
    for g in rows:
        if g.gold in UNSCORED or g.start is None or g.end is None:
            left_out += 1
            continue
        target = store.query("SELECT text FROM sentences WHERE lang = ? AND seg = ?",
                             (lang, g.seg))
        if not target or target[0]["text"][g.start:g.end] != g.gold:
            raise XelError(f"{path}, line {g.line}: {g.gold!r} is not at characters "
                           f"{g.start}-{g.end} of {lang} segment {g.seg} in {store.path}: is "
                           "it the corpus the gold was annotated on?")
        found = store.query(
            "SELECT m.name, p.start, p.end, p.aligned_start, p.aligned_end FROM mentions m"
            " LEFT JOIN projections p ON p.mention_id = m.mention_id AND p.lang = ?"
            " WHERE m.seg = ? AND m.start < ? AND m.end > ?"
            " ORDER BY MIN(m.end, ?) - MAX(m.start, ?) DESC LIMIT 1",
            (lang, g.seg, g.en_end, g.en_start, g.en_end, g.en_start))
        if not found:
            left_out += 1
            continue
        m = found[0]
        if m["start"] is None and m["aligned_start"] is None and not store.query(
                "SELECT 1 FROM projections WHERE lang = ? LIMIT 1", (lang,)):
            raise XelError(f"no projections of {lang} in {store.path}: run "
                           f"`xel project CONFIG --lang {lang}` first")
        mention = GoldMention(g.seg, g.en_start, g.en_end, (g.start, g.end - 1))
        for method, (a, b) in (("paper", (m["aligned_start"], m["aligned_end"])),
                               ("xel", (m["start"], m["end"]))):
            chars = set(range(a, b)) if a is not None else set()
            text = target[0]["text"][a:b] if a is not None else ""
            outcomes[method].append(Outcome(mention, m["name"], text, chars,
                                            category(chars, mention.gold),
                                            (target[0]["text"], a, b) if a is not None else None,
                                            g.gold))
    return outcomes, left_out


def evaluate_span_gold(store: Store, path: Path, config: Config, with_triage: bool,
                       types: Sequence[str] = ("PER",), language: str | None = None
                       ) -> list[dict[str, Any]]:
    """Score the collection's paper and name-aware projections against annotated names, per
    language and type (the `type` column; a file without it is people), of the `types`: in
    `language`, or in every language of the gold that the store has (one file may annotate
    several collections' languages)."""
    held = set(target_languages(store))
    every = [r for r in read_span_gold(path) if r.lang in held and language in (None, r.lang)]
    if not every:
        raise XelError(f"{path}: no annotated names in {language or 'the languages'} of "
                       f"{store.path} ({', '.join(sorted(held)) or 'none imported'}): is it "
                       "the collection the gold was annotated on?")
    out = []
    for lang, kind in dict.fromkeys((r.lang, r.type) for r in every if r.type in types):
        rows = [r for r in every if r.lang == lang and r.type == kind]
        by_method, left_out = span_outcomes(store, path, rows, lang)
        for method, cfg in (("paper", paper_config(config)), ("xel", config)):
            outcomes = by_method[method]
            row: dict[str, Any] = {"gold": f"{path.name} {lang}", "lang": lang,
                                   "mentions from": "annotated", "type": kind,
                                   "projection": method,
                                   "left out": left_out, "AER": None,
                                   "aligner trained on": "the collection", **summarize(outcomes)}
            if with_triage:
                row["triage"] = evaluate_triage(outcomes, lang, cfg, store, kind)
                if method == "xel":
                    row["triage stage"] = stage_triage(store, rows, lang)
            out.append(row)
    return out


def stage_triage(store: Store, rows: Sequence[SpanGold], lang: str) -> dict[str, Any]:
    """What the triage stage decided for the queries at annotated mentions: its A1 names
    (the located projection, the surname rule included) against the gold name's characters."""
    decided = store.query(
        "SELECT q.seg AS qseg, q.start AS qstart, q.end AS qend, t.outcome, t.seg, t.start,"
        " t.end FROM queries q JOIN triage t ON t.query_id = q.query_id AND t.lang = ?",
        (lang,)) if store.has_table("triage") else []
    n = accepted = right = 0
    for g in rows:
        if g.gold in UNSCORED or g.start is None:
            continue
        hit = [d for d in decided
               if d["qseg"] == g.seg and d["qstart"] < g.en_end and d["qend"] > g.en_start]
        if not hit:
            continue
        n += 1
        d = hit[0]
        if d["outcome"] == "A1":
            accepted += 1
            right += (d["seg"], d["start"], d["end"]) == (g.seg, g.start, g.end)
    return {"queries": n, "accepted": accepted, "accepted and fully correct": right,
            "precision %": round(100 * right / accepted, 1) if accepted else None}


# --- the signature of a figure ------------------------------------------------------------


def tree_digest(path: Path) -> str:
    """A gold file's or model folder's digest: the file's content, or every file under the
    folder (subfolders too), by relative name."""
    if path.is_dir():
        return digest_of([(str(p.relative_to(path)), file_digest(p))
                          for p in sorted(path.rglob("*")) if p.is_file()])
    return file_digest(path)


def projections_digest(store: Store) -> str:
    """The recorded signatures of a collection's project and triage stages, as one digest."""
    return digest_of(sorted((r["name"], r["digest"]) for r in store.stages()
                            if r["name"].startswith(("project:", "triage:"))))


def eval_signature(kind: str, config: Config, gold: Mapping[str, Path | None],
                   options: Mapping[str, object], collection: str | None = None) -> Signature:
    """What produced an evaluation's figures, printed with them (sacrebleu's habit): the gold
    files' digests, the options, the config sections that project and triage, the code and
    package versions, and for figures on a collection's own projections the digest of its
    project and triage stages (`projections_digest`)."""
    parts = {f"gold:{name}": tree_digest(path) for name, path in gold.items() if path}
    parts.update({name: str(value) for name, value in options.items()})
    parts.update({"tokenize": digest_of(config.tokenize), "align": digest_of(config.align),
                  "project": digest_of(config.project), "names": digest_of(config.names)})
    models = config.models_folder()
    if models is not None:
        parts["models"] = tree_digest(models)
    code = [ALIGN_CODE, PROJECT_CODE, code_digest(sys.modules[__name__])]
    if kind == "triage":
        parts["triage"] = digest_of(config.triage)
        code.append(TRIAGE_CODE)
    if kind == "types":
        from xel.persons import PERSONS_CODE, typer_signature

        parts.update({"ner": digest_of(config.ner), "persons": digest_of(config.persons),
                      "types": digest_of(config.types), "kb": digest_of(config.kb),
                      **typer_signature(config)})
        code.append(PERSONS_CODE)
    if options.get("corpus") == "yes":
        parts["corpus"] = digest_of(config.corpus)
    if collection is not None:
        parts["collection"] = collection
    parts["code"] = digest_of(code)
    parts.update(versions("eflomal", "sentencepiece", "numpy", "spacy", "googletrans",
                          *NAME_PACKAGES))
    return Signature(f"eval-{kind}", parts)
