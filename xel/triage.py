"""Round-trip triage of projected names: translate back to English and accept exact matches.

Per query and language (Lawrie et al. 2015, Figure 4): the projection is the highest-ranked
projection of the query's name (`projection_ranks`) that occurs in the query's target
document, located there (the query's own sentence first). No such occurrence, or no aligned
sentence at all, discards the query (D1); a back-translation equal to the English name after
case and whitespace normalization accepts it (A1); everything else goes to the crowd (curate).

Names of organizations, places and events are translated, not transliterated: their round
trip goes through the KB first. The back-translation of such a projection is the English
name of a link candidate whose label or alias in the language the projection writes
(inflected forms included: `Europäischen Union`), and it is accepted where that English name
(or an alias) is the query's; the rest go through transliteration as people's names do
(`Манчестер Юнайтед`).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import regex

import xel.names
import xel.translate
from xel.config import Config, TriageConfig
from xel.corpus import DDL as CORPUS_DDL
from xel.corpus import sentence_count, source_language
from xel.executors import executor, read_ahead
from xel.kb import KbEntity, KnowledgeBase, english_forms
from xel.languages import is_chinese, is_unspaced, language
from xel.link import read_candidates
from xel.names.agree import agreement, cuttings, parts
from xel.names.english import name_key
from xel.names.families import family
from xel.names.han import said_word_for_word, without_place_word
from xel.names.script import HYPHENS, SEPARATORS, is_latin
from xel.names.transliterate import (
    NAME_PACKAGES,
    DecodeRequest,
    LanguageModels,
    decode_ahead,
    models_for,
    models_signature,
)
from xel.progress import progress
from xel.project import DDL as PROJECT_DDL
from xel.queries import DDL as QUERIES_DDL
from xel.queries import declare as declare_queries
from xel.stages import Work, code_digest, digest_of, versions
from xel.store import Store
from xel.translate import CACHE_DDL, CacheRow, keep, look_up, round_trip_key
from xel.translated import (
    capitals_label,
    english_copy,
    initials,
    label_pattern,
    label_text,
    with_labels,
)

DDL = """
CREATE TABLE IF NOT EXISTS triage (
    lang             TEXT NOT NULL,
    query_id         TEXT NOT NULL,
    projection       TEXT NOT NULL,     -- the target-language name; '' when there is none
    seg              INTEGER,           -- where it occurs in the aligned target document
    start            INTEGER,           -- (character offsets in that target sentence)
    end              INTEGER,
    back_translation TEXT,
    backend          TEXT,
    outcome          TEXT NOT NULL CHECK (outcome IN ('A1', 'D1', 'curate')),
    reason           TEXT,              -- D1: no-aligned-sentence or no-projection;
                                        -- otherwise what answered (identity, icu, ...)
    score            REAL,              -- agreement with the English name (calibrated)
    why              TEXT,              -- why it was accepted or not
    PRIMARY KEY (lang, query_id)
);
"""
COLUMNS = {"score": "REAL", "why": "TEXT"}  # added since the first version of the table

Found = tuple[str, int, int, int]  # text, seg, start, end
# As imported (see project).
TRIAGE_CODE = code_digest(sys.modules[__name__], xel.translate, xel.names)


def occurrence_pattern(text: str, unspaced: bool, proclitics: str = "",
                       enclitics: Sequence[str] = (),
                       prefixes: Sequence[str] = ()) -> regex.Pattern[str]:
    """`text` as a whole word sequence (any run of spaces between its words), in group `name`.

    Where projection leaves clitics and prefixes out of names (`وجاستن` gives `جاستن`,
    `트럼프는` gives `트럼프`, isiXhosa `kukaTrump` and `u-Trump` give `Trump`), they may
    precede or follow the name.
    """
    body = r"\s+".join(regex.escape(w) for w in text.split())
    if unspaced:
        return regex.compile(rf"(?P<name>{body})")
    prefix = f"[{regex.escape(proclitics)}]?" if proclitics else ""
    if prefixes:
        prefix += rf"(?:(?i:{'|'.join(regex.escape(p) for p in prefixes)})[{HYPHENS}]?)*"
    suffix = f"(?:{'|'.join(regex.escape(e) for e in enclitics)})?" if enclitics else ""
    return regex.compile(rf"(?<![\p{{L}}\p{{M}}\p{{N}}]){prefix}(?P<name>{body}){suffix}"
                         rf"(?![\p{{L}}\p{{M}}\p{{N}}])")


def locate(candidates: Sequence[str], document: Sequence[tuple[int, str]], seg: int,
           unspaced: bool, proclitics: str = "", enclitics: Sequence[str] = (),
           prefixes: Sequence[str] = (), copies: bool = True) -> Found | None:
    """The first candidate (in rank order) occurring in the document, and where; or a longer
    candidate written right there around it (`卡瓦諾` inside `布雷特·卡瓦諾`: the sentence
    writes the whole name, the frequent surname is only a piece of it).

    The query's own sentence is searched first, for every candidate, then the rest of the
    document in order: the name as the query's sentence writes it (`Grahamin` there, not the
    more frequent `Grahamilta` of the next sentence). Without `copies` (a target script other
    than Latin), a Latin candidate in brackets after the name the translation writes is not
    where it stands (`牛津 (Oxford)`) while another candidate is found, unless it is an
    acronym, which translations keep.
    """
    found = _locate(candidates, document, seg, unspaced, proclitics, enclitics, prefixes,
                    copies)
    if found is None and not copies:
        return _locate(candidates, document, seg, unspaced, proclitics, enclitics, prefixes,
                       True)
    return found


def _locate(candidates: Sequence[str], document: Sequence[tuple[int, str]], seg: int,
            unspaced: bool, proclitics: str, enclitics: Sequence[str],
            prefixes: Sequence[str], copies: bool) -> Found | None:
    own = [d for d in document if d[0] == seg]
    rest = sorted(d for d in document if d[0] != seg)
    for sentences, text in [(own, t) for t in candidates] + [(rest, t) for t in candidates]:
        pattern = occurrence_pattern(text, unspaced, proclitics, enclitics, prefixes)
        latin = not copies and is_latin(text)
        for s, sentence in sentences:
            m = next((m for m in pattern.finditer(sentence)
                      if not (latin and english_copy(sentence, m.start("name"), text))), None)
            if m:
                start, end = m.start("name"), m.end("name")
                around = [(w.end("name") - w.start("name"), w.group("name"), w.start("name"),
                           w.end("name"))
                          for longer in candidates if len(longer) > len(text) and text in longer
                          for w in occurrence_pattern(longer, unspaced, proclitics, enclitics,
                                                      prefixes).finditer(sentence)
                          if w.start("name") <= start and w.end("name") >= end]
                if around:
                    _, name, start, end = max(around)
                    return name, s, start, end
                return m.group("name"), s, start, end
    return None


def triage_signature(store: Store, config: Config, lang: str) -> dict[str, str]:
    parts = {"triage": digest_of(config.triage), "code": TRIAGE_CODE,
             **versions("googletrans", *NAME_PACKAGES)}
    if not config.people_only:  # translated names go back through the KB (`after:link`)
        with KnowledgeBase.open(config) as kb:
            parts.update(kb=kb.digest)
    return {**parts, **models_signature(lang, config)}


def label_round_trip(projection: str, english: str,
                     entities: Sequence[tuple[KbEntity, Sequence[str]]], lang: str
                     ) -> tuple[str, Decision] | None:
    """The back-translation of a translated name through its link candidates' labels in
    `lang` (`entities`: each candidate with those labels; a Chinese place's name with or
    without its place word, `下加利福尼亞半島`), accepted where the candidate
    whose label the projection writes (or, for one in capitals, the label's initials: `UE`
    for `Unión Europea`) has the query's English name as its name or an alias;
    refused for good where the projection is only a candidate's adjective or derivation
    (`أوروبي`, European; `Londoner`), which transliteration would read as the name; None where
    no candidate's label is the projection."""
    key = name_key(english)
    as_said = projection.strip()
    chinese = is_chinese(lang)
    written = {label_text(form, lang) for form in (
        (as_said, without_place_word(as_said)) if chinese else (as_said,))}
    found = None
    abbreviated = capitals_label(as_said)
    for entity, labels in entities:
        forms = [*labels, *(a for f in labels for a in sorted(initials(f)))] if abbreviated \
            else labels
        label = written_label(forms, written, lang)
        if label is None:
            continue
        if key in english_keys(entity):
            return entity.name, Decision(True, 1.0, f"KB: {label!r} is {entity.kb_id} "
                                                    f"({entity.name}), a link candidate")
        found = found or (entity.name, Decision(
            False, None, f"KB: {label!r} is {entity.kb_id} ({entity.name}), not the name"))
    if found is not None:
        return found
    for entity, labels in entities:
        label = written_label(labels, written, lang, as_name=False)
        if label is not None and name_key(as_said) not in english_keys(entity):  # `London`
            return entity.name, Decision(
                False, None, f"KB: an adjective or derivation of {label!r} ({entity.name}), "
                             "not the name", final=True)
    return None


def written_label(labels: Sequence[str], written: Iterable[str], lang: str,
                  as_name: bool = True) -> str | None:
    """The first of `labels` that one of the `written` texts is, inflected as `label_pattern`
    reads a label in `lang`."""
    return next((f for f in labels if any(label_pattern(f, lang, as_name).fullmatch(w)
                                          for w in written)), None)


def english_keys(entity: KbEntity) -> set[str]:
    """The keys of the English forms a query finds `entity` by (`U.S.` for the alias `US`)."""
    return {name_key(form) for _, form in english_forms(entity)}


@dataclass(frozen=True)
class Decision:
    accepted: bool
    score: float | None
    why: str
    final: bool = False  # refused where no other round trip may accept

    @property
    def settled(self) -> bool:
        """No later round trip is asked: accepted, or refused for good."""
        return self.accepted or self.final


def dictionary_round_trip(projection: str, english: str, lang: str, kind: str
                          ) -> Decision | None:
    """The paper's round trip, with a dictionary for the translator: a Chinese projection
    of a translated name is accepted where CC-CEDICT's English of it, word for word, is the
    English name (`said_word_for_word`: `最高法院`, Supreme Court); None otherwise, for the
    other round trips to decide."""
    if kind == "PER" or not is_chinese(lang) or not said_word_for_word(projection, english):
        return None
    return Decision(True, 1.0, "CC-CEDICT: the projection says the name word for word")


def round_trip_text(projection: str, lang: str, kind: str) -> str:
    """What the transliteration round trip reads of a projection of a name of `kind`: a
    Chinese place's name without the word for what it is (`亞利桑那州` -> `亞利桑那`,
    Arizona)."""
    chinese = kind != "PER" and is_chinese(lang)
    return without_place_word(projection) if chinese else projection


def accept_round_trip(projection: str, english: str, back: str, lang: str, config: TriageConfig,
           models: LanguageModels | None = None) -> Decision:
    """A1 or not: the back-translation is the English name (`exact`, the paper's rule); with
    `calibrated`, also the same name but for case, accents and hyphens, or every part of the
    projection agreeing with the English name, through the language's transliteration models,
    at their calibrated threshold (see `xel.names.agree`), unless the English is no name
    (lower case) or the projection carries a title (`一条天皇`: agreement reads past it)."""
    if round_trip_key(back) == round_trip_key(english):
        return Decision(True, 1.0, "round trip: exact")
    if config.accept == "exact":
        return Decision(False, None, "round trip: differs")
    if name_key(back) == name_key(english):
        return Decision(True, 1.0, "round trip: same name but for case, accents or hyphens")
    if english == english.lower():
        return Decision(False, None, "English in lower case: a word NER took for a name")
    if family(lang).titled(projection):
        return Decision(False, None, "a title in the projection: more than the name")
    found = agreement(projection, english, lang, models.score if models else None)
    threshold = models.threshold() if models else 1.0
    ok = found.score >= threshold
    return Decision(ok, found.score, f"agreement {found.score:.3g} {'>=' if ok else '<'} "
                                     f"{threshold:.3g}: {found.why or 'parts do not pair up'}")


def round_trip_words(lang: str, pairs: Iterable[tuple[str, str]]) -> tuple[set[str], set[str]]:
    """What `accept_round_trip` will ask the models about for each (projection, English name):
    the English names' tokens, and the projections' parts however agreement cuts them."""
    pairs = list(pairs)
    return ({t for _, name in pairs for t in name_key(name).split()},
            {p for text, name in pairs for pieces in cuttings(text, name, lang) for p in pieces})


def prepare_round_trip(models: LanguageModels | None, lang: str,
                       pairs: Iterable[tuple[str, str]]) -> None:
    """Decode `round_trip_words` in one batch, rather than a program run a name."""
    if models is not None:
        english, pieces = round_trip_words(lang, pairs)
        models.prepare(english=english, parts=pieces)


def surname_of(projection: str, english: str, kind: str, forms: Sequence[str], before: str
               ) -> str | None:
    """The collection's full writing of the name whose last part the projection is, where
    the sentence writes that part alone (`川普` for Donald Trump where the collection also
    projects `唐納德·川普`; translations name people by surname once introduced): a full form
    has as many parts as the English name has tokens. None where the part before it stands
    right there (`唐納德·川普` is then the name in the sentence, and `川普` only a piece).
    People only: the last word of another type's name is not that name (`Wien` of *Rapid
    Wien*, `estadounidenses` of *investigadores estadounidenses*)."""
    if kind != "PER" or len(parts(projection)) != 1:
        return None
    tokens = name_key(english).split()
    tail = before.rstrip()
    for form in forms:
        names = parts(form)
        if len(names) == len(tokens) >= 2 and names[-1] == projection:
            if SEPARATORS.sub("", tail).endswith(names[-2]):
                return None
            return form
    return None


def triage_languages(store: Store, config: Config,
                     langs: list[str]) -> Iterator[tuple[str, Work]]:
    """The triage stage of several languages on the configured executor (in this process
    where all of them together have under `executor.in_process_below` sentences): each worker
    reads the store and decides its languages' rows; the writer stores A1/D1/curate and the
    new translations."""
    for ddl in (CORPUS_DDL, QUERIES_DDL, PROJECT_DDL, CACHE_DDL, DDL):
        store.declare(ddl)
    store.add_columns("triage", COLUMNS)
    declare_queries(store)
    each = sentence_count(store, source_language(store))
    with executor(config.executor, each * len(langs)) as ex:
        asked = ex.imap(decode_requests, (TriageJob(config, lang) for lang in langs),
                        len(langs), read_ahead(each))
        decode_ahead(ask for asks in progress(asked, "triage: names to read", len(langs),
                                              "languages") for ask in asks)
        jobs = (TriageJob(config, lang) for lang in langs)
        done = ex.imap(triage_rows, jobs, len(langs), read_ahead(each))
        for lang, result in zip(langs, progress(done, "triage", len(langs), "languages"),
                                strict=True):
            yield lang, write_triage(lang, result)


@dataclass(frozen=True)
class TriageJob:
    """What a worker needs to triage one language: it opens the store (to read) itself."""

    config: Config
    lang: str


@dataclass(frozen=True)
class TriageResult:
    rows: list[tuple[Any, ...]]  # the language's triage rows, as the table has them
    backend: str
    translations: list[CacheRow]  # answers the translation cache did not have yet


def triage_rows(job: TriageJob) -> TriageResult:
    """`decide` one language (runs in an executor's worker, or in this process)."""
    with Store(job.config.resolve(job.config.store)) as store:
        return decide(store, job.config, job.lang)


@dataclass(frozen=True)
class Located:
    """Each query's projection in a language, found in its aligned sentence (or why not)."""

    queries: list[Any]
    ranks: dict[str, list[str]]  # name key -> the projections of the name, best first
    sentences: dict[int, str]
    found: dict[str, Found | None]  # query id -> (text, seg, start, end)
    reasons: dict[str, str]  # query id -> why nothing was found


def locate_queries(store: Store, lang: str) -> Located:
    """Choose and locate each query's projection in `lang`."""
    ranks: dict[str, list[str]] = defaultdict(list)
    for r in store.query("SELECT name_key, text FROM projection_ranks WHERE lang = ?"
                         " ORDER BY name_key, rank", (lang,)):
        ranks[r["name_key"]].append(r["text"])
    documents: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for r in store.query("SELECT seg, doc_id, text FROM sentences WHERE lang = ? ORDER BY seg",
                         (lang,)):
        documents[r["doc_id"]].append((r["seg"], r["text"]))
    queries = store.query("SELECT query_id, name, name_key, doc_id, seg, type FROM queries"
                          " ORDER BY ordinal")
    unspaced = is_unspaced(lang)
    latin_target = language(lang).script == "Latn"
    rules = family(lang)
    sentences = {seg: text for doc in documents.values() for seg, text in doc}
    located: dict[str, Found | None] = {}
    reasons: dict[str, str] = {}
    for q in queries:
        aligned = dict(documents.get(q["doc_id"], []))
        if not aligned.get(q["seg"], "").strip():
            located[q["query_id"]], reasons[q["query_id"]] = None, "no-aligned-sentence"
            continue
        found = locate(ranks.get(q["name_key"], []), documents[q["doc_id"]], q["seg"],
                       unspaced, rules.proclitics, rules.enclitics, rules.prefix_table,
                       copies=latin_target)
        located[q["query_id"]] = found
        if found is None:
            reasons[q["query_id"]] = "no-projection"
    return Located(queries, ranks, sentences, located, reasons)


def decode_requests(job: TriageJob) -> list[DecodeRequest]:
    """What `decide` will ask the language's models to decode (runs in an executor's worker):
    the parts of every projection found, however agreement cuts them, and the English names'
    tokens, so that `decode_ahead` decodes all languages' in one batch per model."""
    models = models_for(job.lang, job.config)
    if models is None:
        return []
    with Store(job.config.resolve(job.config.store)) as store:
        at = locate_queries(store, job.lang)
    english, pieces = round_trip_words(
        job.lang, [(f[0], q["name"]) for q in at.queries if (f := at.found[q["query_id"]])])
    return models.wanted(english, pieces)


def decide(store: Store, config: Config, lang: str) -> TriageResult:
    """Choose, locate and back-translate each query's projection in `lang`, reading the store
    and writing nothing: the rows and the translations new to the cache, for the writer."""
    at = locate_queries(store, lang)
    queries, located = at.queries, at.found
    rules = family(lang)
    by_kb = through_kb(store, config, lang, [q for q in queries if q["type"] != "PER"],
                       located)
    # where a candidate's label is the projection, the KB has decided: no dictionary overrules it
    by_dictionary = {q["query_id"]: decided for q in queries
                     if (f := located[q["query_id"]]) and q["query_id"] not in by_kb
                     and (decided := dictionary_round_trip(f[0], q["name"], lang, q["type"]))}
    said = {q["query_id"]: round_trip_text(f[0], lang, q["type"]) for q in queries
            if (f := located[q["query_id"]])}
    names = sorted({said[q["query_id"]] for q in queries if q["query_id"] in said
                    and q["query_id"] not in by_dictionary
                    and not ((k := by_kb.get(q["query_id"])) and k[1].settled)})
    answers, backend, fresh = look_up(store, names, lang, config) if names else ({}, "", [])
    models = models_for(lang, config)
    prepare_round_trip(models, lang, [(text, q["name"]) for q in queries
                                      if (text := said.get(q["query_id"])) in answers])
    rows: list[tuple[Any, ...]] = []
    for q in queries:
        found = located[q["query_id"]]
        if found is None:
            rows.append((lang, q["query_id"], "", None, None, None, None, None, "D1",
                         at.reasons[q["query_id"]], None, None))
            continue
        text, seg, start, end = found
        known = by_kb.get(q["query_id"])
        if known is not None and known[1].settled:
            rows.append((lang, q["query_id"], text, seg, start, end, known[0], "kb",
                         "A1" if known[1].accepted else "curate", "kb-label", known[1].score,
                         known[1].why))
            continue
        if (worded := by_dictionary.get(q["query_id"])) is not None:
            rows.append((lang, q["query_id"], text, seg, start, end, q["name"], "cc-cedict",
                         "A1", "dictionary", worded.score, worded.why))
            continue
        back = answers[said[q["query_id"]]]
        decision = accept_round_trip(said[q["query_id"]], q["name"], back.text, lang,
                                     config.triage, models)
        if decision.accepted and models is not None and (more := rules.runs_on(
                at.sentences[seg], start, end, models.count)):
            decision = Decision(False, decision.score, f"the name may run on: `{more}` is "
                                                       "beside it")
        full = None if decision.accepted or config.triage.accept == "exact" else surname_of(
            text, q["name"], q["type"], at.ranks.get(q["name_key"], []),
            at.sentences[seg][:start])
        if full:
            decision = Decision(True, 1.0, f"the surname of {full}, which the collection "
                                            "writes for this name")
        rows.append((lang, q["query_id"], text, seg, start, end, back.text, backend,
                     "A1" if decision.accepted else "curate", back.method, decision.score,
                     decision.why))
    return TriageResult(rows, backend, fresh)


def write_triage(lang: str, result: TriageResult) -> Work:
    """The writer of a language's triage: its rows, its counts, and the new translations."""

    def work(s: Store) -> dict[str, Any]:
        keep(s, result.translations)
        s.execute("DELETE FROM triage WHERE lang = ?", (lang,))
        rows = result.rows
        s.executemany("INSERT INTO triage(lang, query_id, projection, seg, start, end,"
                      " back_translation, backend, outcome, reason, score, why)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        counts = {o: sum(r[8] == o for r in rows) for o in ("A1", "D1", "curate")}
        s.execute("UPDATE projection_counts SET queries = ?, a1 = ?, d1 = ?, curate = ?"
                  " WHERE lang = ?", (len(rows), counts["A1"], counts["D1"], counts["curate"],
                                      lang))
        return {"queries": len(rows), "backend": result.backend, **counts}

    return work


def through_kb(store: Store, config: Config, lang: str, queries: Sequence[Any],
               located: dict[str, Found | None]) -> dict[str, tuple[str, Decision]]:
    """The KB's round trip of the translated names' projections (query id -> back-translation
    and decision), for those a link candidate's label writes."""
    if not queries:
        return {}
    candidates = read_candidates(store)
    out = {}
    with KnowledgeBase.open(config) as kb:
        for q in queries:
            found = located[q["query_id"]]
            if found is None:
                continue
            entities = with_labels(kb, [e for r in candidates.get(q["query_id"], ())
                                        if (e := kb.entity(r.kb_id)) is not None], lang)
            decided = label_round_trip(found[0], q["name"], entities, lang)
            if decided is not None:
                out[q["query_id"]] = decided
    return out


@dataclass(frozen=True)
class Triaged:
    """A query's projection into one language and what round-trip triage made of it."""

    lang: str
    query_id: str
    projection: str  # '' when there is none
    seg: int | None
    start: int | None
    end: int | None
    back_translation: str | None
    outcome: str  # A1, D1 or curate


def read_triage(store: Store, lang: str | None = None,
                query_id: str | None = None) -> list[Triaged]:
    """Triage's outcomes, by language and query id (of one language or query, if given)."""
    store.declare(DDL)
    rows = store.query(
        "SELECT lang, query_id, projection, seg, start, end, back_translation, outcome"
        " FROM triage WHERE (? IS NULL OR lang = ?) AND (? IS NULL OR query_id = ?)"
        " ORDER BY lang, query_id", (lang, lang, query_id, query_id))
    return [Triaged(*tuple(r)) for r in rows]
