"""Making, rendering, simulated rounds, quality control and aggregation of crowd work."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from hits.aggregate import Majority, Unanimous
from hits.backends import get_backend
from hits.cost import cost
from hits.make import el_gold, gold_shortfall, make_el_batch, make_name_batch
from hits.policy import figure4
from hits.quality import same_answer
from hits.reference import read_reference
from hits.render import render_hit, static_file
from hits.store import Submission, batch, items
from hits.workflow import (
    aggregate_el,
    aggregate_names,
    collect_batch,
    publish_batch,
    review_batch,
    run_round,
    send_batch,
)
from xel.config import HitsConfig
from xel.errors import XelError
from xel.registry import crowd_backends, policies

POLICIES = ["unanimous", "majority", "dawid-skene", "one-coin-dawid-skene"]


def test_registries_list_backends_and_policies() -> None:
    assert crowd_backends.names() == ["local", "mturk", "simulated"]
    assert set(POLICIES) <= set(policies.names())


def test_el_batch_has_configured_items_and_gold(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=20, n_gold=4)
    cfg = sim_config(tmp_path)
    batch_id = make_el_batch(store, cfg)
    assert batch_id == "el-001"
    hits = [r[0] for r in store.query("SELECT hit_id FROM hit_hits ORDER BY ordinal")]
    assert len(hits) == 4  # 16 non-gold queries, 4 per HIT
    for hit_id in hits:
        shown = items(store, hit_id)
        assert len(shown) == 6 and sum(it.gold for it in shown) == 2
        assert all(it.gold_answer for it in shown if it.gold)
    gold = read_reference(tmp_path / "el-gold.tsv")
    asked = {r[0] for r in store.query("SELECT task FROM hit_items WHERE gold = 0")}
    assert not asked & set(gold) and len(asked) == 16


def test_name_batch_uses_a1_projections_as_gold(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=30)
    batch_id = make_name_batch(store, sim_config(tmp_path), "deu")
    assert batch_id == "name-deu-001"
    for (hit_id,) in store.query("SELECT hit_id FROM hit_hits"):
        shown = items(store, hit_id)
        gold = [it for it in shown if it.gold]
        assert len(gold) == 1 and len(shown) <= 10
        outcome = store.scalar("SELECT outcome FROM triage WHERE query_id = ?",
                               (gold[0].query_id,))
        assert outcome == "A1"


def test_too_few_gold_items_is_a_clear_error(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=10, n_gold=1)
    with pytest.raises(XelError, match="gold item"):
        make_el_batch(store, sim_config(tmp_path))


def test_pages_show_hostile_corpus_text_as_text(tmp_path: Path, crowd_store: Any, sim_config: Any,
        hostile: Any) -> None:
    script, img = hostile
    store, _, _ = crowd_store(tmp_path, n_queries=12)
    cfg = sim_config(tmp_path)
    make_el_batch(store, cfg)
    make_name_batch(store, cfg, "deu")
    for (hit_id,) in store.query("SELECT hit_id FROM hit_hits"):
        html = render_hit(store, hit_id, action="/submit", hidden={"x": img})
        for text in hostile:
            assert text not in html
        el = batch(store, store.scalar("SELECT batch_id FROM hit_hits WHERE hit_id = ?",
                                        (hit_id,))).kind == "el"
        assert ("&lt;script&gt;alert(1)&lt;/script&gt;" in html) == el  # in descriptions
        assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
        # The local page loads its script from the server (whose CSP forbids inline script);
        # the page sent to MTurk carries the same script inline, and no other.
        assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/hit.js">']
        mturk = render_hit(store, hit_id, action="/submit", mturk=True)
        assert re.findall(r"<script[^>]*>", mturk) == ["<script>"]
        assert static_file("hit.js") in mturk and 'rel="stylesheet"' not in mturk


def test_el_page_shows_candidates_in_stored_order_with_short_descriptions(tmp_path: Path,
        crowd_store: Any, sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=12)
    make_el_batch(store, sim_config(tmp_path))
    hit_id = store.scalar("SELECT hit_id FROM hit_hits")
    html = render_hit(store, hit_id, action="/submit")
    first = items(store, hit_id)[0]
    values = re.findall(r'name="item-1" value="([^"]+)"', html)
    assert values == [*first.shown, "NIL", "NEI", "NOT_PERSON"]
    assert "x" * 2001 not in html and "x" * 1900 in html
    assert "<mark>Anna Meyer" in html  # the name highlighted, `President` left out
    assert "<mark>President" not in html


def test_curation_page_pairs_sentences_sharing_a_name_token(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=12)
    make_name_batch(store, sim_config(tmp_path), "deu")
    hit_id = store.scalar("SELECT hit_id FROM hit_hits")
    html = render_hit(store, hit_id, action="/submit")
    assert "<b>Anna</b>" in html and "Präsidentin" in html
    assert "Vor der Wahl" not in html  # the first sentence shares no token with the name
    assert "must occur in the translated sentences" in html


def accuracy(store: Any, truth: dict[str, str], policy: str) -> tuple[int, float]:
    rows = store.query("SELECT query_id, label FROM links WHERE policy = ?", (policy,))
    right = sum(truth[q] == label for q, label in rows)
    return len(rows), right / len(rows)


def test_simulated_el_round_keeps_labels_that_are_right(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, truth, _ = crowd_store(tmp_path, n_queries=200, n_gold=20)
    cfg = sim_config(tmp_path)
    result = run_round(store, cfg, "el")
    assert result.simulated and not result.pending
    # Then requeues (at most max_asks batches), asked of workers who never saw those tasks.
    assert result.batches[:2] == ["el-001", "el-002"] and len(result.batches) <= 3
    first, *requeued = [
        {r[0] for r in store.query("SELECT task FROM hit_items JOIN hit_hits USING (hit_id) "
                                   "WHERE batch_id = ? AND gold = 0", (b,))}
        for b in result.batches
    ]
    assert len(first) == 180 and all(r and r < first for r in requeued)
    kept = {}
    for policy in POLICIES:
        aggregate_el(store, cfg, policy)
        kept[policy], right = accuracy(store, truth, policy)
        if policy != "dawid-skene":
            assert right >= 0.99, (policy, right)
    assert kept["unanimous"] < kept["majority"]
    assert kept["unanimous"] >= 100
    dropped = store.scalar("SELECT SUM(dropped) FROM worker_gold")
    assert dropped >= 1  # spammers and weak workers are caught on gold
    assert store.scalar("SELECT MIN(simulated) FROM judgments") == 1
    assert store.scalar("SELECT COUNT(*) FROM judgments WHERE worker NOT LIKE 'SIM-%'") == 0
    gold_links = store.scalar("SELECT COUNT(*) FROM links WHERE policy = 'gold'")
    assert gold_links == 20


def test_dropped_workers_do_not_count_and_rerun_repeats_nothing(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=60, n_gold=10)
    cfg = sim_config(tmp_path, simulated={"truth": str(tmp_path / "truth.tsv"), "seed": 3,
                                          "spammers": 0.3})
    run_round(store, cfg, "el")
    dropped = store.query("SELECT batch_id, worker FROM worker_gold WHERE dropped = 1")
    assert dropped
    for b, worker in dropped:
        assert store.scalar("SELECT COUNT(*) FROM worker_actions WHERE batch_id = ? AND "
                            "worker = ? AND sent_at IS NOT NULL", (b, worker)) == 1
    counts = [store.scalar(f"SELECT COUNT(*) FROM {t}") for t in ("hit_hits", "judgments")]
    again = run_round(store, cfg, "el")
    assert again.batches == [] and again.pending == []
    assert counts == [store.scalar(f"SELECT COUNT(*) FROM {t}") for t in ("hit_hits",
                                                                          "judgments")]


def test_discard_mode_and_one_ask_never_requeue(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=60, n_gold=10)
    cfg = sim_config(tmp_path, dropped="discard",
                     simulated={"truth": str(tmp_path / "truth.tsv"), "spammers": 0.3})
    assert run_round(store, cfg, "el").batches == ["el-001"]
    store, _, _ = crowd_store(tmp_path / "once", n_queries=60, n_gold=10)
    cfg = sim_config(tmp_path / "once", max_asks=1,
                     simulated={"truth": str(tmp_path / "once" / "truth.tsv"), "spammers": 0.3})
    assert run_round(store, cfg, "el").batches == ["el-001"]


def test_reject_rule_is_recorded_before_sending(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=60, n_gold=10)
    cfg = sim_config(tmp_path, reject_below=0.5,
                     simulated={"truth": str(tmp_path / "truth.tsv"), "spammers": 0.5})
    backend = get_backend("simulated", store, cfg)
    batch_id = make_el_batch(store, cfg)
    assert batch_id
    publish_batch(store, cfg, batch_id, backend)
    collect_batch(store, batch_id, backend)
    review_batch(store, cfg, batch_id)
    decisions = store.query("SELECT p.decision, w.accuracy FROM payments p JOIN worker_gold w "
                            "USING (batch_id, worker) WHERE sent_at IS NULL")
    assert decisions and all((d == "reject") == (a is not None and a < 0.5)
                             for d, a in decisions)
    assert any(d == "reject" for d, _ in decisions)
    send_batch(store, batch_id, backend)
    assert store.scalar("SELECT COUNT(*) FROM payments WHERE sent_at IS NULL") == 0
    assert batch(store, batch_id).state == "sent"


class Crash(Exception):
    pass


class CrashingCrowd:
    """Wraps a backend and dies after `after` submissions have been handed out."""

    def __init__(self, inner: Any, after: int) -> None:
        self.inner, self.after = inner, after
        self.name, self.environment, self.simulated = inner.name, inner.environment, True

    def submissions(self, hit_id: str, external_id: str) -> Iterator[list[Submission]]:
        for page in self.inner.submissions(hit_id, external_id):
            for sub in page:
                if self.after == 0:
                    raise Crash
                self.after -= 1
                yield [sub]


def test_crash_during_collect_loses_nothing(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=40, n_gold=8)
    cfg = sim_config(tmp_path)
    backend = get_backend("simulated", store, cfg)
    batch_id = make_el_batch(store, cfg)
    assert batch_id
    publish_batch(store, cfg, batch_id, backend)
    with pytest.raises(Crash):
        collect_batch(store, batch_id, CrashingCrowd(backend, after=7))  # type: ignore[arg-type]
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 7
    assert batch(store, batch_id).state == "published"
    collect_batch(store, batch_id, backend)
    hits = store.scalar("SELECT COUNT(*) FROM hit_hits")
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == hits * 3
    assert store.scalar("SELECT COUNT(*) FROM judgments") == hits * 3 * 6
    assert batch(store, batch_id).state == "collected"


def test_simulated_name_round_follows_figure_4(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, truth = crowd_store(tmp_path, n_queries=120)
    cfg = sim_config(tmp_path)
    result = run_round(store, cfg, "name", lang="deu")
    assert result.simulated
    outcomes = dict(store.query("SELECT outcome, COUNT(*) FROM name_outcomes GROUP BY 1"))
    assert outcomes["A1"] == 40 and outcomes["A2"] > 20 and outcomes["D2"] > 0
    crowd = store.query("SELECT query_id, outcome, name FROM name_outcomes "
                        "WHERE outcome IN ('A2', 'A3', 'D2')")
    right = sum((name or "MISSING") == truth[f"deu:{q}"] for q, _, name in crowd)
    assert right / len(crowd) >= 0.99
    assert store.scalar("SELECT COUNT(*) FROM expert_queue") >= 1
    for (answers,) in store.query("SELECT answers FROM expert_queue"):
        assert len(json.loads(answers)) >= 3


@pytest.mark.parametrize(("labels", "expected"), [
    (["Merkel", "Merkel", "Merkel"], ("A2", "Merkel")),
    (["Merkel", "Merkel", "MISSING"], ("A3", "Merkel")),
    (["Merkel", "MISSING", "MISSING"], ("D2", None)),
    (["MISSING", "MISSING", "MISSING"], ("D2", None)),
    (["Merkel", "Merkels", "Merkel"], ("E", None)),
    (["Merkel", "Merkels", "MISSING"], ("E", None)),
])
def test_name_outcomes(labels: list[str], expected: tuple[str, str | None]) -> None:
    assert figure4(labels) == expected


def test_unanimous_and_majority() -> None:
    data = pd.DataFrame({"task": list("aaabbbcc"), "worker": list("12312312"),
                         "label": ["x", "x", "x", "y", "y", "z", "u", "u"]})
    assert Unanimous(3).fit_predict(data, {})[["task", "label"]].values.tolist() == [["a", "x"]]
    assert Majority().fit_predict(data, {})[["task", "label"]].values.tolist() == [
        ["a", "x"], ["b", "y"], ["c", "u"]]


def test_answers_compare_exactly_up_to_unicode_normalization() -> None:
    assert same_answer("Me\u0301rkel ", "Mérkel")
    assert not same_answer("merkel", "Merkel")


def test_mturk_cost_includes_commission() -> None:
    assert str(cost(0.20, 3, 10)) == "7.20"  # 0.20 + 20%, 3 workers, 10 HITs
    assert str(cost(0.20, 10, 1)) == "2.80"  # 40% for 10 or more assignments
    assert str(cost(0.01, 3, 1)) == "0.06"  # at least a cent of fee per assignment


def test_reference_file_with_a_bad_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "ref.tsv"
    path.write_text("q1\tQ42\nq2 Q43\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"ref.tsv, line 2: expected `task<TAB>answer`"):
        read_reference(path)


def test_config_defaults_follow_the_paper(tmp_path: Path, crowd_config: Any) -> None:
    hits = crowd_config(tmp_path).hits
    assert (hits.el_items, hits.el_gold, hits.name_items, hits.name_gold) == (6, 2, 10, 1)
    assert (hits.assignments, hits.threshold, hits.policy) == (3, 0.8, "paper")
    default = HitsConfig()
    assert (default.policy, default.min_assignments, default.max_assignments) == (
        "gold-dawid-skene", 2, 5)
    assert hits.mturk.environment == "sandbox"
    assert (hits.simulated.accuracy_mean, hits.simulated.accuracy_sd) == (0.946, 0.113)


def test_without_a_gold_file_exact_popular_unambiguous_matches_are_gold(tmp_path: Path,
        crowd_store: Any, crowd_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=6)
    with store.transaction():
        store.execute("UPDATE kb_entries SET name = 'Anna Meyer1', popularity = 1000 "
                      "WHERE kb_id = 'KB1-0'")  # q001's best candidate, exactly its name
        store.execute("UPDATE kb_entries SET name = 'Anna Meyer2', popularity = 0 "
                      "WHERE kb_id = 'KB2-0'")  # exact but obscure: not gold
        store.execute("UPDATE kb_entries SET name = 'Anna Meyer3' WHERE kb_id = 'KB3-1'")
    assert el_gold(store, crowd_config(tmp_path)) == {"q001": "KB1-0"}


def test_language_without_accepted_projections_runs_without_gold(tmp_path: Path, crowd_store: Any,
        sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=12)
    cfg = sim_config(tmp_path)
    assert gold_shortfall(store, cfg, "deu") == 0
    with store.transaction():
        store.execute("UPDATE triage SET outcome = 'curate' WHERE outcome = 'A1'")
    assert gold_shortfall(store, cfg, "deu") == cfg.hits.name_gold
    make_name_batch(store, cfg, "deu")
    assert store.scalar("SELECT COUNT(*) FROM hit_items") == 12
    assert store.scalar("SELECT SUM(gold) FROM hit_items") == 0


def test_a_query_triage_now_accepts_takes_triage_outcome_and_leaves_the_expert_queue(
        tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    """Better name models turn curated queries into A1: their old crowd outcomes and expert
    queue entries must not outlive that (the judgments themselves stay)."""
    store, _, _ = crowd_store(tmp_path, n_queries=120)
    cfg = sim_config(tmp_path)
    run_round(store, cfg, "name", lang="deu")
    crowd = dict(store.query("SELECT query_id, outcome FROM name_outcomes "
                             "WHERE decided_by != 'triage'"))
    queued = [q for (q,) in store.query("SELECT query_id FROM expert_queue")]
    assert crowd and queued
    judged = store.scalar("SELECT COUNT(*) FROM judgments")
    now_accepted = [*list(crowd)[:3], queued[0]]
    store.executemany("UPDATE triage SET outcome = 'A1' WHERE lang = 'deu' AND query_id = ?",
                      [(q,) for q in now_accepted])
    aggregate_names(store, cfg, "deu")
    after = dict(store.query("SELECT query_id, outcome FROM name_outcomes"))
    assert all(after[q] == "A1" for q in now_accepted)
    assert queued[0] not in {q for (q,) in store.query("SELECT query_id FROM expert_queue")}
    assert store.scalar("SELECT COUNT(*) FROM judgments") == judged  # nothing lost
    # back to curation: the crowd's earlier outcome counts again
    back = list(crowd)[0]
    store.execute("UPDATE triage SET outcome = 'curate' WHERE lang = 'deu' AND query_id = ?",
                  (back,))
    aggregate_names(store, cfg, "deu")
    assert dict(store.query("SELECT query_id, outcome FROM name_outcomes"))[back] == crowd[back]
