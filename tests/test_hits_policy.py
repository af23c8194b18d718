"""Policies: one registered object decides who is dropped, how many are asked and what is kept,
the same way in a live round and in `hits eval aggregation`."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from hits import results
from hits.aggregate import majority
from hits.cli import app
from hits.policy import Policy, figure4, get_policy, model_outcome
from hits.quality import gold_accuracy
from hits.store import MISSING
from hits.workflow import round_data, round_decisions, run_round
from xel.config import HitsConfig
from xel.link import read_candidates
from xel.registry import policies


def frame(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["batch_id", "task", "worker", "label"])


def test_the_papers_rule_judges_each_batch_on_its_own_gold() -> None:
    """`paper` drops a worker in the batch where they missed gold, and keeps their answers in
    another; a round-level rule drops them everywhere."""
    data = frame([("b1", "g1", "w", "x"), ("b1", "t1", "w", "a"),
                  ("b2", "g2", "w", "a"), ("b2", "t2", "w", "a"),
                  ("b1", "g1", "v", "a"), ("b2", "g2", "v", "a")])
    gold = {"g1": "a", "g2": "a"}
    config = HitsConfig()
    paper = get_policy("paper")
    assert paper.dropped(data, gold, config) == {("b1", "w")}
    assert list(paper.seen(data, gold, config)["task"]) == ["g2", "t2", "g1", "g2"]
    by_round = Policy("round-gold", majority, gold_accuracy)
    assert by_round.dropped(data, gold, config) == {("b1", "w"), ("b2", "w")}  # 1 of 2: 50%
    # A replay's table has no batches: it is one, named ''.
    assert paper.dropped(data.drop(columns="batch_id"), gold, config) == {("", "w")}


def test_what_each_policy_asks_for() -> None:
    config = HitsConfig(assignments=3, min_assignments=2, max_asks=4)
    paper, default = get_policy("paper"), get_policy("gold-dawid-skene")
    assert (paper.first_assignments(config), paper.max_asks(config)) == (3, 4)
    assert paper.max_asks(config.model_copy(update={"dropped": "discard"})) == 1
    assert (default.first_assignments(config), default.max_asks(config)) == (2, 1)
    assert default.adaptive and not paper.adaptive
    # Outcomes: Figure 4 counts votes (and needs every worker); a model's decision stands.
    assert paper.name_outcome(["Anna", "Anna"], None, config) is None
    assert paper.name_outcome(["Anna", "Anna", MISSING], None, config) == figure4(
        ["Anna", "Anna", MISSING]) == ("A3", "Anna")
    assert default.name_outcome(["Anna", MISSING], "Anna", config) == model_outcome(
        "Anna", ["Anna", MISSING]) == ("A3", "Anna")
    assert default.name_outcome(["Anna", "Bob"], None, config) == ("E", None)


def test_unknown_policy_names_the_choices() -> None:
    from xel.errors import XelError

    with pytest.raises(XelError, match="unknown crowd policy 'nope': choose one of .*paper"):
        get_policy("nope")


@pytest.fixture
def gold_majority(monkeypatch: pytest.MonkeyPatch) -> Policy:
    """A policy no module defines: majority of the workers at least 80% right on the round's
    gold, three workers a HIT."""
    policy = Policy("gold-majority", majority, gold_accuracy, adaptive=False)
    policies.names()  # the built-in ones first
    monkeypatch.setitem(policies._items, policy.name, policy)
    return policy


def _write(path: Path, header: tuple[str, str] | tuple[str, str, str], rows: Any) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def test_a_new_policy_picks_the_same_workers_and_decisions_live_and_replayed(
        tmp_path: Path, crowd_store: Any, sim_config: Any, gold_majority: Policy) -> None:
    store, el_truth, _ = crowd_store(tmp_path, n_queries=30, n_gold=8)
    config = sim_config(tmp_path, policy="gold-majority", simulated={
        "truth": str(tmp_path / "truth.tsv"), "seed": 4, "spammers": 0.3, "workers": 12})
    round_ = run_round(store, config, "el")
    assert not round_.pending and round_.batches

    data, gold = round_data(store, "el", "")
    _, seen, _ = round_decisions(store, config, "el", "")
    dropped = set(data["worker"]) - set(seen["worker"])
    assert dropped, "the spammers should give the rule workers to drop"
    ranks = {(c.query_id, c.kb_id): f"rank:{c.rank}"
             for ranked in read_candidates(store).values() for c in ranked}
    live = {q: ranks.get((q, link.label), link.label)
            for q, link in results.links(store, "gold-majority", gold=False).items()}
    assert live

    answers = _write(tmp_path / "answers.csv", ("task", "worker", "label"),
                     data[["task", "worker", "label"]].itertuples(index=False))
    truth = _write(tmp_path / "truth.csv", ("task", "truth"),
                   [(q, ranks.get((q, a), a)) for q, a in el_truth.items()])
    known = _write(tmp_path / "gold.csv", ("task", "truth"), gold.items())
    decisions, out = tmp_path / "decisions.csv", tmp_path / "out.json"
    result = CliRunner().invoke(app, [
        "eval", "aggregation", str(answers), "--truth", str(truth), "--gold", str(known),
        "--columns", "task,worker,label", "--truth-columns", "task,truth",
        "--policy", "gold-majority", "--budget", "all", "--decisions", str(decisions),
        "--json", str(out)])
    assert result.exit_code == 0, result.output

    replayed = pd.read_csv(decisions, dtype=str)
    replayed = replayed[replayed["policy"] == "gold-majority"]
    assert dict(zip(replayed["task"], replayed["label"], strict=True)) == live
    written = json.loads(out.read_text())
    assert [set(d["workers"]) for d in written["dropped"]
            if d["policy"] == "gold-majority"] == [dropped]
    assert "|gold=" in written["signature"]
