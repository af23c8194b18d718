"""The projection stage: every English mention projected onto every language.

Per language, the stage `project:<lang>` reads the tokens and links the `align:<lang>` stage
stored (`xel.align`, so projection never re-tokenizes) and projects every English mention:
names written by sound (people's) by `xel.spans.project_mention`, names that are translated
(organizations, places, events) by `xel.translated.project_entity`.
Per English name, the projections across the collection are then ranked by frequency
(`chosen_projections`), which triage uses per query. Languages go to the executor as items
carrying their mentions and mention sentence pairs (`ProjectJob`); the store is written here.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import xel.names
import xel.spans
import xel.translated
from xel.align import DDL as ALIGN_DDL
from xel.align import Texts
from xel.config import Config
from xel.corpus import sentence_count, source_language
from xel.entity_types import Typed, read_types
from xel.executors import executor, read_ahead
from xel.kb import KnowledgeBase
from xel.languages import language
from xel.names.families import family
from xel.names.match import make_matcher
from xel.names.script import is_latin
from xel.names.transliterate import NAME_PACKAGES, models_signature
from xel.ner import DDL as NER_DDL
from xel.progress import progress
from xel.spans import (
    Pair,
    Projected,
    function_words,
    project_mention,
)
from xel.stages import Work, code_digest, digest_of, versions
from xel.store import Store
from xel.translated import (
    learns_words,
    link_lexicon,
    names_read,
    project_entity,
    translated_labels,
)

DDL = """
-- One row per (language, English mention); start/end are characters in the target
-- sentence `seg`; `failed` = 1 when the projection is empty (then text is '').
CREATE TABLE IF NOT EXISTS projections (
    lang          TEXT NOT NULL,
    mention_id    INTEGER NOT NULL,
    seg           INTEGER NOT NULL,
    start         INTEGER,
    end           INTEGER,
    text          TEXT NOT NULL,
    failed        INTEGER NOT NULL,
    method        TEXT NOT NULL,   -- aligned, name-match, reading, label, spelled, expansion,
                                   -- glossed, learned, none
    aligned_start INTEGER,         -- the paper's span (shortest cover of aligned tokens)
    aligned_end   INTEGER,
    PRIMARY KEY (lang, mention_id)
) WITHOUT ROWID;
-- Per English name and language: every distinct projection, ranked as the paper chooses.
CREATE TABLE IF NOT EXISTS projection_ranks (
    lang      TEXT NOT NULL,
    name_key  TEXT NOT NULL,
    rank      INTEGER NOT NULL,    -- 1 = chosen
    text      TEXT NOT NULL,
    frequency INTEGER NOT NULL,    -- mentions projected to exactly this text
    group_frequency INTEGER NOT NULL,  -- with its inflected forms
    PRIMARY KEY (lang, name_key, rank)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS chosen_projections AS
    SELECT lang, name_key, text, frequency, group_frequency FROM projection_ranks WHERE rank = 1;
-- Per language, what the report shows; triage fills its columns after projection.
CREATE TABLE IF NOT EXISTS projection_counts (
    lang        TEXT PRIMARY KEY,
    mentions    INTEGER NOT NULL,
    failures    INTEGER NOT NULL,  -- empty projections
    name_match  INTEGER NOT NULL,  -- projections anchored on the name's spelling
    names       INTEGER NOT NULL,
    queries     INTEGER,
    a1          INTEGER,
    d1          INTEGER,
    curate      INTEGER
);
"""


# Methods that found a span by the name's spelling or reading, not by alignment alone.
SPELLED = ("name-match", "reading", "parentheses")


# --- stages ---------------------------------------------------------------------------------


# Taken when the code is imported, so a long run's signatures describe the code it runs even
# if the files change on disk meanwhile.
PROJECT_CODE = code_digest(sys.modules[__name__], xel.spans, xel.translated, xel.names)


def project_signature(store: Store, config: Config, lang: str) -> dict[str, str]:
    parts = {"project": digest_of(config.project), "code": PROJECT_CODE,
             **versions("spacy", *NAME_PACKAGES)}
    if not config.people_only:
        # Translated names are projected by their KB entities' labels, people by their
        # readings; which is which is the type check's decision (`after:persons`).
        with KnowledgeBase.open(config) as kb:
            parts.update(kb=kb.digest)
    return {**parts, **models_signature(lang, config)}


def pair_rows(store: Store, lang: str) -> Iterator[tuple[int, str, str, bytes, bytes, bytes]]:
    """A language's aligned pairs as stored, in segment order: (segment, source text, target
    text, source tokens, target tokens, links)."""
    yield from store.execute(
        "SELECT a.seg, s.text, t.text, a.src_tokens, a.tgt_tokens, a.links"
        " FROM alignments a JOIN sentences s ON s.lang = ? AND s.seg = a.seg"
        " JOIN sentences t ON t.lang = a.lang AND t.seg = a.seg WHERE a.lang = ? ORDER BY a.seg",
        (source_language(store), lang))


def iter_pairs(store: Store, lang: str) -> Iterator[tuple[int, Pair]]:
    """Aligned sentence pairs of a language in segment order, decoded one at a time (a million
    sentences' pairs would not fit in memory decoded at once)."""
    for seg, src_text, tgt_text, src_tokens, tgt_tokens, links in pair_rows(store, lang):
        yield seg, Pair.decode(src_text, tgt_text, src_tokens, tgt_tokens, links)


Mention = tuple[int, int, int, str]  # segment, start, end (characters), name


Result = tuple[int | None, int | None, str, int, str, int | None, int | None]


@dataclass(frozen=True)
class ProjectJob:
    """One language's mentions and aligned mention sentences: what an executor needs to
    project it (workers never open the store). `texts` alternate source and target sentence
    of each pair in `segs`; tokens and links stay encoded as `alignments` stores them."""

    lang: str
    config: Config
    mentions: list[Mention]
    segs: list[int]
    texts: Texts
    src_tokens: list[bytes]
    tgt_tokens: list[bytes]
    links: list[bytes]
    # Names that are not people's: English name -> its KB entities' labels in the language
    # (`project_entity`); every other mention is a person's.
    translated: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # their types

    def pair(self, k: int) -> Pair:
        return Pair.decode(self.texts[2 * k], self.texts[2 * k + 1], self.src_tokens[k],
                           self.tgt_tokens[k], self.links[k])


def project_job(store: Store, config: Config, mentions: list[Mention], lang: str,
                translated: Mapping[str, str] | None = None,
                kb: KnowledgeBase | None = None) -> ProjectJob:
    """Read a language's aligned pairs (those with a mention: the align stage keeps no
    others) into a job, a pair at a time; `translated`: the names that are not people's, with
    their types, whose KB entities' labels in the language are looked for (in `kb`)."""
    segs: list[int] = []
    src_tokens: list[bytes] = []
    tgt_tokens: list[bytes] = []
    links: list[bytes] = []

    def texts() -> Iterator[str]:
        for seg, src_text, tgt_text, src, tgt, links_of in pair_rows(store, lang):
            segs.append(seg)
            src_tokens.append(src)
            tgt_tokens.append(tgt)
            links.append(links_of)
            yield src_text
            yield tgt_text

    labels = {name: translated_labels(kb, name, kind, lang) if kb is not None else ()
              for name, kind in (translated or {}).items()}
    return ProjectJob(lang, config, mentions, segs, Texts(texts()), src_tokens, tgt_tokens,
                      links, labels, dict(translated or {}))


def project_pairs(job: ProjectJob) -> list[Result]:
    """Project every mention of a job (runs in an executor's worker): per mention, in the
    job's order, (start, end, text, failed, method, aligned start, aligned end). A mention
    whose sentence has no aligned pair fails with method `none`."""
    matcher = make_matcher(job.lang, job.config,
                           names_read({m[3] for m in job.mentions}, job.translated))
    stops = function_words(job.lang) if job.config.project.trim else frozenset()
    at = {seg: k for k, seg in enumerate(job.segs)}
    lexicon = (link_lexicon(map(job.pair, range(len(job.segs))), job.lang)
               if job.translated and learns_words(job.lang) else None)
    results: dict[int, Result] = {}
    last: tuple[int, Pair | None] = (-1, None)
    # In segment order, so each pair is decoded once (and once more for the lexicon of
    # translated names) and each block of texts opened once.
    for i in sorted(range(len(job.mentions)), key=lambda i: job.mentions[i][0]):
        seg, start, end, name = job.mentions[i]
        if last[0] != seg:
            last = (seg, job.pair(at[seg]) if seg in at else None)
        pair = last[1]
        if pair is None or not pair.tgt:
            p = Projected(None, None, "none", None)
        elif name in job.translated:
            p = project_entity(pair, start, end, name, job.translated[name], stops,
                               job.config.project, job.lang, matcher, job.kinds.get(name),
                               lexicon)
        else:
            p = project_mention(pair, start, end, name, matcher, stops, job.config.project)
        text = "" if p.failed or pair is None else pair.tgt_text[p.start:p.end]
        results[i] = (p.start, p.end, text, int(p.failed), p.method,
                      p.aligned[0] if p.aligned else None, p.aligned[1] if p.aligned else None)
    return [results[i] for i in range(len(job.mentions))]


def project_languages(store: Store, config: Config,
                      langs: list[str]) -> Iterator[tuple[str, Work]]:
    """The project stage of several languages on the configured executor (in this process
    where all of them together have under `executor.in_process_below` sentences): each
    language's writer as soon as it is projected; the writer stores the projections and
    ranks them per name."""
    store.declare(NER_DDL)
    store.declare(ALIGN_DDL)
    store.declare(DDL)
    rows = store.query("SELECT mention_id, seg, start, end, name, name_key, type FROM mentions"
                       " ORDER BY mention_id")
    mentions = [(r["seg"], r["start"], r["end"], r["name"]) for r in rows]
    kinds = mention_types(rows, read_types(store))
    others = {r["name"]: kind for r, kind in zip(rows, kinds, strict=True) if kind != "PER"}
    each = sentence_count(store, source_language(store))
    with contextlib.ExitStack() as stack:
        kb = stack.enter_context(KnowledgeBase.open(config)) if others else None
        ex = stack.enter_context(executor(config.executor, each * len(langs)))
        jobs = (project_job(store, config, mentions, lang, others, kb) for lang in langs)
        projected = ex.imap(project_pairs, jobs, len(langs), read_ahead(each))
        for lang, results in zip(langs, progress(projected, "project", len(langs), "languages"),
                                 strict=True):
            yield lang, write_projections(config, lang, [
                (lang, m["mention_id"], m["seg"], *r, m["name_key"], len(m["name"].split()),
                 kind == "PER") for m, r, kind in zip(rows, results, kinds, strict=True)])


def mention_types(rows: Sequence[Any], typed: Mapping[str, Typed]) -> list[str]:
    """Each mention's type: its name's, as the type check decided it, else NER's label's."""
    out = []
    for r in rows:
        decided = typed.get(r["name_key"])
        out.append(decided.type if decided is not None and decided.type else r["type"])
    return out


def write_projections(config: Config, lang: str, rows: list[tuple[Any, ...]]) -> Work:
    """Store a language's projections, rank them per name and count them. A row is
    (lang, mention_id, seg, start, end, text, failed, method, aligned start, aligned end,
    name_key, English token count, whether it is a person's name)."""

    def work(s: Store) -> dict[str, Any]:
        s.execute("DELETE FROM projections WHERE lang = ?", (lang,))
        s.executemany("INSERT INTO projections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      [r[:10] for r in rows])
        ranks = rank_projections(
            [(r[10], r[5], r[11], r[7] in SPELLED) for r in rows], lang,
            config.project.group_inflections, config.project.prefer_name_match,
            frozenset(r[10] for r in rows if not r[12]))
        s.execute("DELETE FROM projection_ranks WHERE lang = ?", (lang,))
        s.executemany("INSERT INTO projection_ranks VALUES (?, ?, ?, ?, ?, ?)",
                      [(lang, *r) for r in ranks])
        summary = {"mentions": len(rows), "failures": sum(r[6] for r in rows),
                   "name_match": sum(r[7] == "name-match" for r in rows),
                   "parentheses": sum(r[7] == "parentheses" for r in rows),
                   "names": len({r[10] for r in rows})}
        s.execute("INSERT OR REPLACE INTO projection_counts(lang, mentions, failures, name_match,"
                  " names) VALUES (?, ?, ?, ?, ?)",
                  (lang, summary["mentions"], summary["failures"], summary["name_match"],
                   summary["names"]))
        return summary

    return work


def rank_projections(items: Sequence[tuple[str, str, int, bool]], lang: str, group: bool,
                     prefer_matched: bool, translated: frozenset[str] = frozenset()
                     ) -> list[tuple[str, int, str, int, int]]:
    """Rank each name's projections as the paper chooses: by frequency across the collection;
    ties by closeness to the English token count, then the longer span, then text order.

    `items` are (name_key, projection text, English token count, found by the name's spelling);
    empty texts are failures and do not count. With `group`, a form's frequency includes its
    inflected forms; with `prefer_matched`, among equally frequent forms those found by
    spelling come first. In a non-Latin-script language a Latin form (the English name copied
    into the translation) comes after every form in the language's script, unless the name
    is in `translated` (not a person's: brands and acronyms are kept in Latin letters).
    Returns (name_key, rank, text, frequency, group frequency).
    """
    latin_target = language(lang).script == "Latn"
    rules = family(lang)
    by_name: dict[str, Counter[str]] = defaultdict(Counter)
    matched: dict[str, Counter[str]] = defaultdict(Counter)
    n_tokens: dict[str, int] = {}
    for key, text, n, spelled in items:
        n_tokens.setdefault(key, n)
        if text:
            form = " ".join(text.split())
            by_name[key][form] += 1
            matched[key][form] += spelled
    out = []
    for key in sorted(by_name):
        counts = by_name[key]
        groups: Counter[str] = Counter()
        for text, c in counts.items():
            groups[rules.inflection_key(text) if group else text] += c

        def order(text: str, key: str = key, counts: Counter[str] = counts,
                  groups: Counter[str] = groups) -> tuple[Any, ...]:
            g = groups[rules.inflection_key(text) if group else text]
            spelled = bool(matched[key][text]) if prefer_matched else False
            copy = not latin_target and is_latin(text) and key not in translated
            return (copy, -g, not spelled, -counts[text],
                    abs(len(text.split()) - n_tokens[key]), -len(text), text)

        for rank, text in enumerate(sorted(counts, key=order), start=1):
            g = groups[rules.inflection_key(text) if group else text]
            out.append((key, rank, text, counts[text], g))
    return out
