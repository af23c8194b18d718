"""The default policy: gold-anchored Dawid-Skene, credible worker scores, adaptive overlap on
every backend (simulated, local server, MTurk through botocore's Stubber), crash safety of
extensions, simulated populations, and `hits eval aggregation`."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import boto3
import pandas as pd
import pytest
from botocore.stub import Stubber
from starlette.testclient import TestClient

from hits.aggregate import gold_anchored
from hits.anchored import GoldDawidSkene
from hits.backends import get_backend
from hits.backends.mturk import ENDPOINTS, mturk_backend
from hits.make import make_el_batch
from hits.quality import credible_scores, gold_check
from hits.replay import evaluate, read_answers
from hits.report import gold_checks
from hits.server import create_app, person_link
from hits.store import batch, hit_target
from hits.workflow import advance, extend_batch, publish_batch, run_round, send_extensions
from xel.config import HitsConfig
from xel.errors import XelError


def frame(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["task", "worker", "label"])


def test_two_right_gold_answers_do_not_make_a_worker_perfect() -> None:
    data = frame([("g1", "w", "a"), ("g2", "w", "b"), ("t", "w", "a")])
    skills = GoldDawidSkene().fit(data, {"g1": "a", "g2": "b"}).skills_
    assert 0.8 < skills.loc[0, "skill"] < 0.95


def test_no_task_is_decided_on_one_judgment() -> None:
    data = frame([("g", "w1", "a"), ("g", "w2", "a"), ("t1", "w1", "a"), ("t2", "w1", "b"),
                  ("t2", "w2", "b")])
    loose = HitsConfig(min_posterior=0.5)
    decided = gold_anchored(loose).fit_predict(data, {"g": "a"})
    assert list(decided["task"]) == ["t2"]  # t1 rests on one judgment; gold is not output
    one = gold_anchored(HitsConfig(min_judgments=1, min_posterior=0.5))
    assert "t1" in set(one.fit_predict(data, {"g": "a"})["task"])


def test_a_spammer_with_lucky_gold_is_caught_and_one_miss_drops_no_good_worker() -> None:
    rows, gold = [], {"g1": "a", "g2": "a"}
    for w in ("good1", "good2", "good3", "spam"):
        rows += [("g1", w, "a"), ("g2", w, "a")]  # everyone right on gold
    rows.append(("g3", "slip", "b"))
    rows.append(("g4", "slip", "a"))
    gold.update({"g3": "a", "g4": "a"})
    for n in range(12):
        truth = "xyz"[n % 3]
        for w in ("good1", "good2", "good3", "slip"):
            rows.append((f"t{n}", w, truth))
        rows.append((f"t{n}", "spam", "xyz"[(n + 1) % 3]))
    scores = credible_scores(frame(rows), gold, HitsConfig())
    assert scores["spam"].dropped(0.8) and "surely under" in scores["spam"].reason(0.8)
    assert not scores["slip"].dropped(0.8)  # 1 of 2 on gold, but agrees elsewhere
    assert not any(scores[w].dropped(0.8) for w in ("good1", "good2", "good3"))


def test_open_label_sets_decide_free_text_names() -> None:
    data = frame([("g", "w1", "Ана"), ("g", "w2", "Ана"), ("t", "w1", "Мария Петрова"),
                  ("t", "w2", "Мария Петрова"), ("u", "w1", "Иван"), ("u", "w2", "Иванов")])
    decided = gold_anchored(HitsConfig(), open_labels=True).fit_predict(
        data, {"g": "Ана"})
    assert decided[["task", "label"]].values.tolist() == [["t", "Мария Петрова"]]


def test_both_models_give_a_label_the_smaller_of_their_posteriors() -> None:
    rng, rows, gold = random.Random(0), [], {}
    for t in range(80):  # two careful workers, two who say "a" whenever unsure
        truth = rng.choice("ab")
        for w in range(4):
            if w < 2:
                label = truth if rng.random() < 0.9 else "ab"[truth == "a"]
            else:
                label = "a" if truth == "a" or rng.random() < 0.5 else "b"
            rows.append((f"t{t}", f"w{w}", label))
        if t < 10:
            gold[f"t{t}"] = truth
    found = {c: GoldDawidSkene(confusion=c).fit(frame(rows), gold).labels_.set_index("task")
             for c in ("one-coin", "full", "both")}
    one, full, both = found["one-coin"], found["full"], found["both"]
    agree = one["label"] == full["label"]
    assert agree.mean() > 0.9 and (both["label"][agree] == one["label"][agree]).all()
    smaller = one["posterior"].where(one["posterior"] < full["posterior"], full["posterior"])
    assert both["posterior"][agree].tolist() == pytest.approx(smaller[agree].tolist())
    assert (both["posterior"] < one["posterior"] - 0.01).any()  # the models do differ


def test_a_link_at_the_cap_is_kept_from_cap_posterior_and_a_name_goes_to_the_expert() -> None:
    rows = [(g, w, "a") for g in ("g1", "g2") for w in ("w1", "w2", "w3")]
    rows += [("t", "w1", "a"), ("t", "w2", "a"), ("t", "w3", "b")]
    data, gold = frame(rows), {"g1": "a", "g2": "a"}
    sure = GoldDawidSkene(confusion="both").fit(data, gold).labels_.set_index("task")
    posterior = float(sure.loc["t", "posterior"])
    assert 0.5 < posterior < 0.99  # two against one: not sure enough to decide early
    # (a name two of three wrote alike is surer: a wrong copy could be any of many spans)
    config = HitsConfig(min_posterior=0.999, cap_posterior=posterior - 0.01)
    links = gold_anchored(config)
    assert links.fit_predict(data, gold).empty  # more workers could still be asked
    assert links.fit_predict(data, gold, ["t"])[["task", "label"]].values.tolist() == [["t", "a"]]
    names = gold_anchored(config, open_labels=True)
    assert names.fit_predict(data, gold, ["t"]).empty
    strict = gold_anchored(HitsConfig(cap_posterior=posterior + 0.001))
    assert strict.fit_predict(data, gold, ["t"]).empty


def el_accuracy(store: Any, truth: dict[str, str]) -> tuple[int, float]:
    rows = store.query("SELECT query_id, label FROM links WHERE policy = 'gold-dawid-skene'")
    return len(rows), sum(truth[q] == label for q, label in rows) / max(1, len(rows))


def test_adaptive_round_asks_more_only_where_unsure(tmp_path: Path, crowd_store: Any,
                                                    sim_config: Any) -> None:
    store, truth, _ = crowd_store(tmp_path, n_queries=200, n_gold=20)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene")
    result = run_round(store, cfg, "el")
    assert not result.pending
    kept, right = el_accuracy(store, truth)
    assert kept >= 0.9 * 180 and right >= 0.98
    targets = [r[0] for r in store.query("SELECT MAX(assignments) FROM hit_extensions GROUP BY "
                                         "hit_id")]
    assert targets and max(targets) <= cfg.hits.max_assignments
    hits = store.scalar("SELECT COUNT(*) FROM hit_hits")
    assert len(targets) < hits  # only some HITs were extended
    assert store.scalar("SELECT COUNT(*) FROM (SELECT hit_id, worker FROM hit_assignments "
                        "GROUP BY hit_id, worker HAVING COUNT(*) > 1)") == 0
    for hit_id, n in store.query("SELECT hit_id, COUNT(*) FROM hit_assignments GROUP BY hit_id"):
        assert n == hit_target(store, hit_id)
    asked = store.scalar("SELECT COUNT(*) FROM judgments WHERE gold = 0")
    assert asked / 180 < 3.0  # fewer than the paper's three workers a query
    reasons = [r[0] for r in store.query("SELECT reason FROM payments")]
    assert all("credible" in r or "no item" in r for r in reasons)


@pytest.mark.parametrize("population", [
    {"spammers": 0.3, "first_choice": 0.1}, {"colluders": 0.2}, {"tiring": 0.3},
    {"fast": 0.2}, {"spammers": 0.1}])
def test_the_default_policy_holds_under_each_population(
        tmp_path: Path, crowd_store: Any, sim_config: Any, population: dict[str, float]) -> None:
    store, truth, _ = crowd_store(tmp_path, n_queries=200, n_gold=20)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene",
                     simulated={"truth": str(tmp_path / "truth.tsv"), "seed": 1, **population})
    run_round(store, cfg, "el")
    kept, right = el_accuracy(store, truth)
    assert right >= 0.98, (population, kept, right)
    assert kept >= 0.8 * 180, (population, kept, right)


class Flaky:
    """The simulated backend, whose extend fails (as a kill would stop it) the first time."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.failed, self.extended = inner, False, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def extend(self, external_id: str, hit_id: str, assignments: int, token: str) -> None:
        if not self.failed:
            self.failed = True
            raise RuntimeError("killed")
        self.extended.append(token)


def test_a_crash_during_an_extension_round_repeats_nothing(tmp_path: Path, crowd_store: Any,
                                                           sim_config: Any) -> None:
    store, truth, _ = crowd_store(tmp_path, n_queries=200, n_gold=20)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene")
    flaky = Flaky(get_backend("simulated", store, cfg))
    batch_id = make_el_batch(store, cfg)
    assert batch_id
    with pytest.raises(RuntimeError, match="killed"):
        advance(store, cfg, batch(store, batch_id), flaky)
    assert batch(store, batch_id).state == "published"  # reopened, extensions stored
    unsent = store.scalar("SELECT COUNT(*) FROM hit_extensions WHERE sent_at IS NULL")
    assert unsent >= 1
    before = store.scalar("SELECT COUNT(*) FROM payments")
    assert advance(store, cfg, batch(store, batch_id), flaky)
    assert len(flaky.extended) == len(set(flaky.extended))  # each token sent once
    assert store.scalar("SELECT COUNT(*) FROM hit_extensions WHERE sent_at IS NULL") == 0
    assert store.scalar("SELECT COUNT(*) FROM payments") > before
    assert store.scalar("SELECT COUNT(*) FROM payments") == store.scalar(
        "SELECT COUNT(*) FROM hit_assignments")
    assert store.scalar("SELECT COUNT(*) FROM (SELECT hit_id, worker FROM hit_assignments "
                        "GROUP BY hit_id, worker HAVING COUNT(*) > 1)") == 0
    # Once sent, a rerun asks nothing more.
    assert send_extensions(store, batch_id, flaky) == 0


def test_mturk_extension_sends_its_token_retries_and_takes_already_done_as_done(
        tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    client = boto3.client("mturk", region_name="us-east-1", endpoint_url=ENDPOINTS["sandbox"],
                          aws_access_key_id="AKIAFAKE", aws_secret_access_key="fake")
    store, _, _ = crowd_store(tmp_path, n_queries=8, n_gold=4)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene")
    sleeps: list[float] = []
    backend = mturk_backend(store, cfg, client=client, sleep=sleeps.append)
    params = {"HITId": "3EXT", "NumberOfAdditionalAssignments": 1,
              "UniqueRequestToken": "xel-el-001-h001-abc-x3"}
    with Stubber(client) as stub:
        stub.add_client_error("create_additional_assignments_for_hit", "ServiceFault", "busy",
                              500, expected_params=params)
        stub.add_response("create_additional_assignments_for_hit", {}, params)
        stub.add_client_error("create_additional_assignments_for_hit", "RequestError",
                              "The request has already been processed.", 400,
                              expected_params=params)
        backend.extend("3EXT", "el-001-h001", 3, params["UniqueRequestToken"])
        backend.extend("3EXT", "el-001-h001", 3, params["UniqueRequestToken"])
        stub.assert_no_pending_responses()
    assert len(sleeps) == 1
    with Stubber(client) as stub:
        stub.add_client_error("create_additional_assignments_for_hit", "RequestError",
                              "HIT 3EXT does not exist.", 400, expected_params=params)
        with pytest.raises(Exception, match="does not exist"):
            backend.extend("3EXT", "el-001-h001", 3, params["UniqueRequestToken"])


def test_the_local_server_reopens_an_extended_hit_to_new_workers(
        tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    store, _, _ = crowd_store(tmp_path, n_queries=8, n_gold=4)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene")
    backend = get_backend("local", store, cfg)
    batch_id = make_el_batch(store, cfg)
    assert batch_id
    publish_batch(store, cfg, batch_id, backend)
    hit_id = str(store.scalar("SELECT hit_id FROM hit_hits"))
    client = TestClient(create_app(str(store.path), hold=0))

    def answer(worker: str) -> int:
        link = person_link(store, worker, "worker")
        page = client.get(f"/w/{link}").text
        if 'name="page"' not in page:
            return 0
        token = page.split('name="page" value="', 1)[1].split('"', 1)[0]
        fields = {f"item-{n}": "NIL" for n in range(1, 7)}
        return client.post(f"/w/{link}/hits/{hit_id}", data={**fields, "page": token},
                           follow_redirects=False).status_code

    assert [answer(w) for w in ("a", "b", "c")] == [303, 303, 0]  # two places, then none
    # Reviewed and sent, then extended: both said NIL to the known answers, so nothing is sure.
    assert not advance(store, cfg, batch(store, batch_id), backend)
    assert batch(store, batch_id).state == "published" and hit_target(store, hit_id) == 3
    assert store.scalar("SELECT COUNT(*) FROM hit_extensions WHERE sent_at IS NOT NULL") == 1
    assert extend_batch(store, cfg, batch_id) == 0  # not again before the HIT is answered
    assert answer("a") == 0  # never the same worker twice
    assert answer("c") == 303
    assert answer("d") == 0


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_eval_aggregation_reports_every_policy_and_reference(tmp_path: Path) -> None:
    lines, truth = ["question,worker,answer"], ["question,truth"]
    for t in range(60):
        right = str(t % 2)
        truth.append(f"q{t},{right}")
        for w in range(5):
            wrong = w == 4 or (w == 3 and t % 5 == 0)  # w4 always wrong, w3 sometimes
            lines.append(f"q{t},w{w},{1 - int(right) if wrong else right}")
    answers = write(tmp_path / "a.csv", "\n".join(lines) + "\n")
    truth_path = write(tmp_path / "t.csv", "\n".join(truth) + "\n")
    rows, signature = evaluate(answers, truth_path, ["question", "worker", "answer"],
                               ["question", "truth"], 0.1, 1,
                               ["gold-dawid-skene", "paper"], ["1", "3", "adaptive"],
                               HitsConfig())
    got = {(r.policy, r.budget): r for r in rows}
    assert set(got) == {(p, b) for p in ("gold-dawid-skene", "paper", "crowd-kit-mv",
                                         "crowd-kit-ds") for b in ("1", "3", "adaptive")}
    assert got["gold-dawid-skene", "1"].coverage == 0  # one judgment decides nothing
    assert all(r.single_judgment_decisions == 0 for r in rows if r.policy == "gold-dawid-skene")
    reference = got["crowd-kit-mv", "1"]
    assert reference.coverage == 1 and reference.judgments_per_task == 1
    assert (got["gold-dawid-skene", "adaptive"].judgments_per_task
            <= HitsConfig().max_assignments)
    assert signature.text.startswith("eval-aggregation|") and "gold_share=0.1" in signature.text
    checked = {(r.policy, r.budget) for r in rows if r.gold_check}
    # paper asks its three workers of every HIT, adaptive or not: a fixed budget
    assert checked == {(p, b) for p in ("gold-dawid-skene", "paper") for b in ("1", "3")} | {
        ("paper", "adaptive")}
    assert got["gold-dawid-skene", "1"].gold_check.decided == 0  # cut to one judgment
    check = got["gold-dawid-skene", "3"].gold_check
    assert check.items == 6 and check.decided > 0
    # At a fixed budget every task is at its cap: two against one is kept from cap_posterior.
    strict, _ = evaluate(answers, truth_path, ["question", "worker", "answer"],
                         ["question", "truth"], 0.1, 1, ["gold-dawid-skene"], ["3"],
                         HitsConfig(cap_posterior=0.99))
    assert strict[0].coverage < got["gold-dawid-skene", "3"].coverage


def test_eval_aggregation_names_the_file_line_and_column_of_bad_input(tmp_path: Path) -> None:
    bad = write(tmp_path / "a.csv", "question,worker,answer\nq1,w1,a\nq2,,b\n")
    with pytest.raises(XelError, match=r"a.csv, line 3: empty worker"):
        read_answers(bad, ["question", "worker", "answer"])
    with pytest.raises(XelError, match=r"line 1: no column label"):
        read_answers(bad, ["question", "worker", "label"])


def test_eval_aggregation_cli_writes_json(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hits.cli import app

    answers = write(tmp_path / "a.csv", "task,who,said\n" + "".join(
        f"t{t},w{w},{'ab'[(t + (w == 2)) % 2]}\n" for t in range(30) for w in range(3)))
    truth = write(tmp_path / "t.csv", "task,truth\n" + "".join(
        f"t{t},{'ab'[t % 2]}\n" for t in range(30)))
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, [
        "eval", "aggregation", str(answers), "--truth", str(truth), "--columns", "task,who,said",
        "--truth-columns", "task,truth", "--policy", "gold-dawid-skene", "--budget", "3",
        "--json", str(out)])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    assert {"policy", "budget", "accuracy", "coverage", "accuracy_all", "judgments_per_task",
            "single_judgment_decisions"} == set(written["rows"][0])
    assert written["signature"].startswith("eval-aggregation|")
    assert [(c["policy"], c["budget"]) for c in written["gold_check"]] == [
        ("gold-dawid-skene", "3")]
    assert {"items", "decided", "right", "promised"} <= set(written["gold_check"][0])
    args = ["eval", "aggregation", str(answers), "--truth", str(truth), "--columns",
            "task,who,said", "--truth-columns", "task,truth", "--budget", "3"]
    result = CliRunner().invoke(app, [*args, "--confusion", "one-coin", "--cap-posterior",
                                      "0.95", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "confusion=one-coin" in json.loads(out.read_text())["signature"]
    result = CliRunner().invoke(app, [*args, "--cap-posterior", "1.5"])
    assert result.exit_code != 0 and "--cap-posterior 1.5" in str(result.exception)
    result = CliRunner().invoke(app, [*args, "--confusion", "two-coin"])
    assert result.exit_code != 0 and "--confusion 'two-coin'" in str(result.exception)


def test_cost_per_accepted_query_counts_paid_judgments_and_dollars(
        tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    from hits.results import round_costs
    from xel.report import sections

    store, _, _ = crowd_store(tmp_path, n_queries=40, n_gold=8)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene")
    run_round(store, cfg, "el")
    [el] = round_costs(store, "gold-dawid-skene")
    paid = store.scalar("SELECT COUNT(*) FROM judgments j JOIN payments p USING "
                        "(assignment_id) WHERE j.gold = 0 AND p.decision = 'approve'")
    approved = store.scalar("SELECT COUNT(*) FROM payments WHERE decision = 'approve'")
    assert (el.kind, el.judgments, el.paid) == ("el", paid, approved)
    assert el.assignments == store.scalar("SELECT COUNT(*) FROM hit_assignments")
    assert el.dollars == pytest.approx(approved * 0.24)  # $0.20 + MTurk's 20%
    assert el.accepted == store.scalar("SELECT COUNT(*) FROM links WHERE policy = "
                                       "'gold-dawid-skene' AND label NOT IN ('NEI', 'NOT_PERSON')")
    assert el.judgments_per_accepted == pytest.approx(paid / el.accepted)
    shown = {s.title: s for s in sections(store, cfg)}["Cost per accepted query"]
    assert shown.table is not None and "entity linking" in shown.table
    sure = {s.title: s for s in sections(store, cfg)}["How sure the crowd decisions are"]
    assert sure.table is not None and "entity linking" in sure.table
    [(kind, _, check)] = gold_checks(store, cfg)
    assert kind == "el" and check.items == store.scalar(
        "SELECT COUNT(DISTINCT task) FROM judgments WHERE gold = 1")
    assert check.decided > 0 and check.right >= check.decided - 1  # the simulated crowd is good


def test_the_gold_check_shows_a_crowd_that_is_wrong_together() -> None:
    rows, gold = [], {}
    for t in range(40):
        truth = "ab"[t % 2]
        answer = truth if t < 30 else "ab"[truth == "a"]  # the last ten: all wrong alike
        rows += [(f"g{t}", w, answer) for w in ("w1", "w2", "w3")]
        gold[f"g{t}"] = truth
    aggregator = gold_anchored(HitsConfig())
    check = gold_check(frame(rows), gold, aggregator.fit_predict)
    assert check.items == 40 and check.decided >= 35
    assert check.accuracy is not None and check.expected is not None
    assert check.accuracy < 0.8 < 0.95 < check.expected  # sure, and a quarter wrong
    assert gold_check(frame(rows), gold, aggregator.fit_predict, limit=1).decided == 0


KILLED_ROUND = """
import os, signal, sys
import hits.workflow as wf
from hits.backends.simulated import SimulatedBackend
from xel.config import load_config
from xel.store import Store

cfg, where = load_config(sys.argv[1]), sys.argv[2]
calls = []


def die_after(n):
    calls.append(1)
    if len(calls) == n:
        os.kill(os.getpid(), signal.SIGKILL)


real_extend, real_record = SimulatedBackend.extend, wf.record_submission


def extend(self, *args):
    real_extend(self, *args)
    if where == "after-extend":  # the backend did it; the store does not know yet
        die_after(2)


def record(store, hit_id, sub):
    done = real_record(store, hit_id, sub)
    if where == "mid-collect" and store.scalar("SELECT COUNT(*) FROM hit_extensions"):
        die_after(3)  # some answers to the extended HITs stored, not all
    return done


SimulatedBackend.extend, wf.record_submission = extend, record
with Store(cfg.resolve(cfg.store)) as store:
    wf.run_round(store, cfg, "el")
"""


@pytest.mark.parametrize("where", ["after-extend", "mid-collect"])
def test_kill_9_during_an_extension_round_then_rerun_repeats_nothing(
        tmp_path: Path, crowd_store: Any, sim_config: Any, where: str) -> None:
    import signal
    import subprocess
    import sys

    import yaml

    store, truth, _ = crowd_store(tmp_path, n_queries=200, n_gold=20)
    cfg = sim_config(tmp_path, policy="gold-dawid-skene")
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(cfg.model_dump(mode="json", exclude={"source_file"})),
                    encoding="utf-8")
    store.close()
    killed = subprocess.run([sys.executable, "-c", KILLED_ROUND, str(path), where],
                            check=False, cwd=Path(__file__).parent.parent)
    assert killed.returncode == -signal.SIGKILL
    from xel.store import Store

    with Store(cfg.resolve(cfg.store)) as again:
        assert again.scalar("SELECT COUNT(*) FROM hit_extensions") > 0
        result = run_round(again, cfg, "el")
        assert not result.pending
        assert again.scalar("SELECT COUNT(*) FROM hit_extensions WHERE sent_at IS NULL") == 0
        assert again.scalar("SELECT COUNT(*) FROM (SELECT hit_id, worker FROM hit_assignments "
                            "GROUP BY 1, 2 HAVING COUNT(*) > 1)") == 0
        assert again.scalar("SELECT COUNT(*) FROM (SELECT task, worker FROM judgments WHERE "
                            "gold = 0 GROUP BY 1, 2 HAVING COUNT(*) > 1)") == 0
        assert again.scalar("SELECT COUNT(*) FROM payments") == again.scalar(
            "SELECT COUNT(*) FROM hit_assignments")
        for hit_id, n in again.query("SELECT hit_id, COUNT(*) FROM hit_assignments "
                                     "GROUP BY hit_id"):
            assert n == hit_target(again, hit_id)
        kept, right = el_accuracy(again, truth)
        assert right >= 0.98
