"""A whole simulated EL and curation round on real NTREX-128 (English-German) queries linked to
the shared persons KB by the real linker (with a cheap letter embedder for speed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_link import letters

from hits.reference import write_reference
from hits.render import render_hit
from hits.workflow import run_round
from xel.config import Config
from xel.kb import build_kb
from xel.names.english import name_key
from xel.pipeline import run
from xel.queries import DDL as QUERIES_DDL
from xel.registry import embedders
from xel.store import Store
from xel.triage import DDL as TRIAGE_DDL

pytestmark = pytest.mark.shared

TRUMP, POMPEO = "enwiki:4848272", "Q473239"
NAMES = {"Donald Trump": TRUMP, "Mike Pompeo": POMPEO, "Theresa May": "NIL",
         "Brett Kavanaugh": "NIL"}


embedders.register("hits-test-letters")(lambda: letters)


def add_queries(store: Store) -> dict[str, str]:
    """A query per (name, document) at the name's first mention; returns query -> truth."""
    store.declare(QUERIES_DDL)
    truth: dict[str, str] = {}
    for name, answer in NAMES.items():
        rows = store.query(
            "SELECT doc_id, seg, instr(text, ?) - 1 AS start FROM sentences WHERE lang = 'eng' "
            "AND instr(text, ?) > 0 ORDER BY seg", (name, name))
        for row in rows:
            query_id = f"{row['doc_id']}:{name_key(name)}"
            if query_id in truth:
                continue
            truth[query_id] = answer
            store.execute(
                "INSERT INTO queries(query_id, name, name_key, doc_id, mention_id, seg, start, "
                "end, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (query_id, name, name_key(name), row["doc_id"], len(truth), row["seg"],
                 row["start"], row["start"] + len(name), len(truth)),
            )
    store.record_stage("queries", f"hits{len(truth)}", "queries|hits-test", {})
    return truth


def add_triage(store: Store) -> dict[str, str]:
    """German projections: the surname where the aligned sentence has it (A1 for Trump, to
    curate otherwise), none where it does not (D1); returns the curation truth."""
    store.declare(TRIAGE_DDL)
    truth = {}
    for q in store.query("SELECT query_id, name, seg FROM queries"):
        german = store.scalar("SELECT text FROM sentences WHERE lang = 'deu' AND seg = ?",
                              (q["seg"],))
        surname = q["name"].split()[-1]
        at = german.find(surname)
        outcome = "D1" if at < 0 else "A1" if surname == "Trump" else "curate"
        store.execute(
            "INSERT INTO triage(lang, query_id, projection, seg, start, end, back_translation, "
            "backend, outcome) VALUES ('deu', ?, ?, ?, ?, ?, ?, 'test', ?)",
            (q["query_id"], surname if at >= 0 else "", q["seg"], at, at + len(surname),
             surname, outcome),
        )
        truth[f"deu:{q['query_id']}"] = surname if at >= 0 else "MISSING"
    return truth


def test_simulated_rounds_on_ntrex(shared_data: Path, tmp_path: Path) -> None:
    config = Config.model_validate({
        "name": "ntrex-hits", "root": str(tmp_path), "store": str(tmp_path / "xel.sqlite"),
        "corpus": {"path": str(shared_data / "ntrex128"), "languages": ["deu"]},
        "kb": {"path": str(shared_data / "kb" / "persons.jsonl"),
               "index": str(tmp_path / "kb.sqlite")},
        "link": {"embedding_model": "hits-test-letters"},
        "hits": {"gold": str(tmp_path / "gold.tsv"), "el_gold": 1, "name_gold": 1,
                 "simulated": {"truth": str(tmp_path / "truth.tsv")}},
    })
    store = Store(tmp_path / "xel.sqlite")
    run(store, config, ["import"])
    build_kb(config)
    el_truth = add_queries(store)
    assert len(el_truth) >= 10
    run(store, config, ["link"])
    name_truth = add_triage(store)
    trump = sorted(q for q, a in el_truth.items() if a == TRUMP)
    write_reference(tmp_path / "gold.tsv", {q: TRUMP for q in trump[:2]})
    write_reference(tmp_path / "truth.tsv", {**el_truth, **name_truth})

    el = run_round(store, config, "el")
    assert el.simulated and el.batches and not el.pending
    links = dict(store.query("SELECT query_id, label FROM links WHERE policy = ?",
                             (config.hits.policy,)))
    assert links and all(el_truth[q] == label for q, label in links.items())
    assert store.scalar("SELECT COUNT(*) FROM judgments WHERE simulated = 0") == 0

    names = run_round(store, config, "name", lang="deu")
    assert names.batches and not names.pending
    outcomes = store.query("SELECT query_id, outcome, name FROM name_outcomes")
    assert {o for _, o, _ in outcomes} >= {"A1", "A2"}
    for query_id, outcome, name in outcomes:
        if outcome in ("A2", "A3"):
            assert name == name_truth[f"deu:{query_id}"]

    for (hit_id,) in store.query("SELECT hit_id FROM hit_hits"):
        html = render_hit(store, hit_id, action="/submit")
        assert "<mark>" in html or "<b>" in html
