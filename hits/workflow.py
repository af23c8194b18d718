"""The crowd state machine: made -> published -> collected -> reviewed -> sent -> aggregated.

Each step writes what it is about to do (or what it got) before telling the outside world or
moving on, one HIT or one page of submissions per transaction, so killing the process at any
point and rerunning the step neither duplicates a HIT nor loses a submission.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from hits.backends import CrowdBackend, HitRequest, get_backend
from hits.cost import cost
from hits.make import el_gold, make_el_batch, make_name_batch, task_query
from hits.policy import Policy, get_policy
from hits.quality import GoldCheck, gold_check, kept_judgments, known_answers, score_batch
from hits.store import (
    NIL,
    NOT_A_PERSON,
    NOT_ENOUGH_INFO,
    TARGET,
    Batch,
    batch,
    batches,
    open_tables,
    record_submission,
    reopen,
    set_state,
)
from xel.config import Config
from xel.errors import XelError
from xel.link import read_candidates
from xel.store import Store
from xel.triage import read_triage

NOT_LINKS = (NOT_ENOUGH_INFO, NOT_A_PERSON)
# Asked before real money is spent: gets what it would cost, says whether to go on.
Confirm = Callable[[str], bool]


def _titles(config: Config) -> dict[str, str]:
    return {"el": config.hits.mturk.title_el, "name": config.hits.mturk.title_name}


def same_backend(b: Batch, backend: CrowdBackend) -> None:
    """A batch is only ever handled by the backend and environment it was published with, so
    sandbox and live (or MTurk and the local server) are never confused."""
    if b.backend is not None and (b.backend, b.environment) != (backend.name, backend.environment):
        raise XelError(
            f"batch {b.batch_id} was published with {b.backend} ({b.environment}), not "
            f"{backend.name} ({backend.environment}): use the same backend and environment "
            "(hits.mturk.environment), or make a new batch"
        )


def estimate(store: Store, batch_id: str) -> str:
    """What publishing a batch costs on MTurk, for the question asked before live publishing."""
    b = batch(store, batch_id)
    n = store.scalar("SELECT COUNT(*) FROM hit_hits WHERE batch_id = ?", (batch_id,))
    return (f"{n} HITs x {b.assignments} assignments x ${b.reward:.2f} + MTurk fee = "
            f"${cost(b.reward, b.assignments, n)}")


def publish_batch(store: Store, config: Config, batch_id: str, backend: CrowdBackend) -> int:
    """Publish every HIT of a batch not yet published; returns how many were published now."""
    b = batch(store, batch_id)
    same_backend(b, backend)
    with store.transaction():
        set_state(store, batch_id, b.state, backend=backend.name, environment=backend.environment)
    hits = store.query(
        "SELECT hit_id, token FROM hit_hits WHERE batch_id = ? AND external_id IS NULL "
        "ORDER BY ordinal", (batch_id,),
    )
    for row in hits:
        external = backend.publish(HitRequest(
            row["hit_id"], row["token"], b.kind, _titles(config)[b.kind], b.reward, b.assignments
        ))
        with store.transaction():
            store.execute(
                "UPDATE hit_hits SET external_id = ?, published_at = ? WHERE hit_id = ?",
                (external, time.time(), row["hit_id"]),
            )
    with store.transaction():
        set_state(store, batch_id, "published")
    return len(hits)


def _incomplete_hits(store: Store, batch_id: str, assignments: int) -> list[Any]:
    """HITs of a batch with fewer assignments than they ask for (`assignments`, or more once
    extended)."""
    return store.query(
        "SELECT h.hit_id, h.external_id FROM hit_hits h JOIN hit_batches b USING (batch_id) "
        "WHERE h.batch_id = ? AND h.external_id IS NOT NULL AND h.expired_at IS NULL AND "
        f"(SELECT COUNT(*) FROM hit_assignments a WHERE a.hit_id = h.hit_id) < MAX(?, {TARGET})"
        " ORDER BY h.ordinal", (batch_id, assignments),
    )


def collect_batch(store: Store, batch_id: str, backend: CrowdBackend) -> int:
    """Store new submissions, each committed before the next page is fetched; returns how many.

    The batch becomes `collected` once every HIT has all its assignments (or was expired).
    """
    b = batch(store, batch_id)
    if b.state == "made":
        raise XelError(f"batch {batch_id} is not published yet: run `hits publish` first")
    same_backend(b, backend)
    new = 0
    for row in _incomplete_hits(store, batch_id, b.assignments):
        for page in backend.submissions(row["hit_id"], row["external_id"]):
            for sub in page:
                new += record_submission(store, row["hit_id"], sub)
    if not _incomplete_hits(store, batch_id, b.assignments):
        with store.transaction():
            set_state(store, batch_id, "collected")
    return new


def expire_batch(store: Store, batch_id: str, backend: CrowdBackend) -> int:
    """End the batch's unfinished HITs (recorded first), so it can be reviewed as it is."""
    b = batch(store, batch_id)
    same_backend(b, backend)
    rows = _incomplete_hits(store, batch_id, b.assignments)
    for row in rows:
        with store.transaction():
            store.execute("UPDATE hit_hits SET expired_at = ? WHERE hit_id = ?",
                          (time.time(), row["hit_id"]))
        backend.expire(row["external_id"])
    with store.transaction():
        set_state(store, batch_id, "collected")
    return len(rows)


def review_batch(store: Store, config: Config, batch_id: str) -> dict[str, int]:
    """Score workers by the policy's rule and decide every payment, all stored before anything
    is sent. A payment follows the worker's score: under `hits.reject_below` (by default
    `hits.threshold`, as Lawrie et al. did not pay workers under 80%) an assignment is
    rejected, else approved. Workers the rule drops are also marked for exclusion from later
    work."""
    b = batch(store, batch_id)
    if b.state in ("made", "published"):
        raise XelError(
            f"batch {batch_id} is still {b.state}: run `hits collect` until every HIT is "
            "answered (or `hits collect --expire` to stop waiting)"
        )
    reject_below = config.hits.payment_threshold
    policy = get_policy(config.hits.policy)
    data, gold = round_data(store, b.kind, b.lang, reviewed=False)
    judged = policy.worker_scores(data, gold, config.hits, b.kind == "name", batch_id)
    dropped = {w for w, s in judged.items() if s.dropped(config.hits.threshold)}
    scores = {s.worker: s for s in score_batch(store, batch_id, dropped)}
    now = time.time()
    with store.transaction():
        undecided = store.query(
            "SELECT a.assignment_id, a.worker, (SELECT COUNT(*) FROM judgments j WHERE "
            "j.assignment_id = a.assignment_id AND j.label != '') AS answered "
            "FROM hit_assignments a LEFT JOIN payments p USING (assignment_id) "
            "WHERE a.batch_id = ? AND p.assignment_id IS NULL", (batch_id,),
        )
        for row in undecided:
            if not row["answered"]:
                decision, reason = "reject", "no item was answered"
            elif row["worker"] in judged:
                found = judged[row["worker"]]
                decision = "reject" if found.dropped(reject_below) else "approve"
                reason = found.reason(reject_below)
            else:
                decision, reason = "approve", "thank you"
            store.execute(
                "INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                (row["assignment_id"], batch_id, row["worker"], decision, reason,
                 b.reward if decision == "approve" else 0.0, now),
            )
        store.executemany(
            "INSERT OR IGNORE INTO worker_actions VALUES (?, ?, 'exclude', ?, ?, NULL)",
            [(batch_id, w, judged[w].reason(config.hits.threshold), now)
             for w in sorted(dropped) if w in scores],
        )
        set_state(store, batch_id, "reviewed")
    gone = store.scalar("SELECT COUNT(*) FROM worker_gold WHERE batch_id = ? AND dropped = 1",
                        (batch_id,))
    return {"workers": len(scores), "dropped": int(gone), "decided": len(undecided)}


def send_batch(store: Store, batch_id: str, backend: CrowdBackend) -> int:
    """Send the decided approvals, rejections and exclusions not yet sent, each marked sent
    only after the backend confirmed it; returns how many were sent now."""
    b = batch(store, batch_id)
    if b.state in ("made", "published", "collected"):
        raise XelError(f"batch {batch_id} is {b.state}: run `hits review` first")
    same_backend(b, backend)
    sent = 0
    for p in store.query(
        "SELECT assignment_id, decision, reason FROM payments WHERE batch_id = ? AND sent_at "
        "IS NULL ORDER BY assignment_id", (batch_id,),
    ):
        if p["decision"] == "approve":
            backend.approve(p["assignment_id"], p["reason"])
        else:
            backend.reject(p["assignment_id"], p["reason"])
        with store.transaction():
            store.execute("UPDATE payments SET sent_at = ? WHERE assignment_id = ?",
                          (time.time(), p["assignment_id"]))
        sent += 1
    for w in store.query(
        "SELECT worker, reason FROM worker_actions WHERE batch_id = ? AND sent_at IS NULL",
        (batch_id,),
    ):
        backend.block(w["worker"], w["reason"])
        with store.transaction():
            store.execute("UPDATE worker_actions SET sent_at = ? WHERE batch_id = ? AND "
                          "worker = ?", (time.time(), batch_id, w["worker"]))
        sent += 1
    with store.transaction():
        set_state(store, batch_id, "sent")
    return sent


# --- aggregation ----------------------------------------------------------------------------


def round_data(store: Store, kind: str, lang: str, *, reviewed: bool = True
               ) -> tuple[pd.DataFrame, dict[str, str]]:
    """A round's judgments, every worker's and the gold items' too, and its gold answers,
    labelled as the models take them. Models learn over labels shared by all tasks, so an
    entity-linking KB id becomes the linker's rank of that candidate (`rank:2`)."""
    data = kept_judgments(store, kind, lang, gold=True, reviewed=reviewed, everyone=True)
    # A worker who met a task twice (a gold item in two HITs, a task asked again on MTurk,
    # where anyone may take the new HIT) counts once: their first answer.
    data = data.drop_duplicates(["task", "worker"], keep="first").reset_index(drop=True)
    gold = known_answers(store, kind, lang)
    if kind == "el":
        ranks = _ranks(store)
        data["label"] = [ranks.get((t, label), label)
                         for t, label in zip(data["task"], data["label"], strict=True)]
        gold = {t: ranks.get((t, a), a) for t, a in gold.items()}
    return data, gold


def _ranks(store: Store) -> dict[tuple[str, str], str]:
    return {(c.query_id, c.kb_id): f"rank:{c.rank}"
            for ranked in read_candidates(store).values() for c in ranked}


def round_decisions(store: Store, config: Config, kind: str, lang: str,
                    policy: Policy | None = None
                    ) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, str]]:
    """A policy's decisions on a round (`Policy.decide`, as a replay makes them), the
    judgments it decided on, and the gold."""
    policy = policy or get_policy(config.hits.policy)
    data, gold = round_data(store, kind, lang)
    decided, seen = policy.decide(data, gold, config.hits, at_cap(data, gold, config),
                                  kind == "name")
    return decided, seen, gold


def check_round(store: Store, config: Config, kind: str, lang: str) -> GoldCheck:
    """The configured policy on a round's known-answer items, hidden a fifth at a time."""
    policy = get_policy(config.hits.policy)
    data, gold = round_data(store, kind, lang)
    return gold_check(data, gold, lambda d, g, hidden: policy.decide(
        d, g, config.hits, [*at_cap(d, g, config), *hidden], kind == "name")[0],
        seed=config.hits.seed)


def at_cap(data: pd.DataFrame, gold: dict[str, str], config: Config) -> list[str]:
    """Tasks with `hits.max_assignments` judgments: no worker will be asked again."""
    asked = data[~data["task"].isin(list(gold))].groupby("task").size()
    return list(asked[asked >= config.hits.max_assignments].index)


def aggregate_el(store: Store, config: Config, policy: str | None = None) -> dict[str, int]:
    """Write `links` for one policy (replacing its earlier rows) from the kept judgments,
    plus the known answers of gold queries under policy 'gold'."""
    open_tables(store)
    policy = policy or config.hits.policy
    decided, data, gold = round_decisions(store, config, "el", "", get_policy(policy))
    kb_ids = {(task, rank): kb for (task, kb), rank in _ranks(store).items()}
    decided["label"] = [kb_ids.get((t, label), label)
                        for t, label in zip(decided["task"], decided["label"], strict=True)]
    asked = data[~data["task"].isin(list(gold))]
    simulated = asked.groupby("task")["simulated"].max().to_dict() if not asked.empty else {}
    now = time.time()
    with store.transaction():
        store.execute("DELETE FROM links WHERE policy IN (?, 'gold')", (policy,))
        store.executemany(
            "INSERT INTO links VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.task, policy, r.label, None if r.label in (NIL, *NOT_LINKS) else r.label,
              float(r.support), int(r.judgments), int(simulated.get(r.task, 0)), now)
             for r in decided.itertuples()],
        )
        store.executemany(
            "INSERT INTO links VALUES (?, 'gold', ?, ?, 1.0, 0, 0, ?)",
            [(q, a, None if a in (NIL, *NOT_LINKS) else a, now)
             for q, a in el_gold(store, config).items()],
        )
        _mark_aggregated(store, "el", "")
    return {"tasks": int(asked["task"].nunique()) if not asked.empty else 0,
            "kept": int((~decided["label"].isin(NOT_LINKS)).sum()),
            "decided": len(decided)}


def aggregate_names(store: Store, config: Config, lang: str) -> dict[str, int]:
    """Write `name_outcomes` for one language: A1/D1 from triage, A2/A3/D2 from the crowd
    (Figure 4, or the policy's decision), and the undecided into `expert_queue`. Expert
    decisions (E) are never replaced.

    Triage decides first: a query it now accepts (after better name models, say) takes triage's
    outcome over an older crowd one and leaves the expert queue; the crowd's judgments stay in
    `judgments`, and count again if triage sends the query back to curation."""
    open_tables(store)
    policy = get_policy(config.hits.policy)
    found, data, gold = round_decisions(store, config, "name", lang, policy)
    skills = {w: s.skill for w, s in policy.worker_scores(
        data, gold, config.hits, open_labels=True).items() if s.skill is not None}
    data = data[~data["task"].isin(list(gold))]
    decided = dict(zip(found["task"], found["label"], strict=True))
    triage = read_triage(store, lang)
    triaged = [t for t in triage if t.outcome in ("A1", "D1")]
    curated = {t.query_id for t in triage if t.outcome == "curate"}
    now = time.time()
    counts: dict[str, int] = {}
    with store.transaction():
        store.executemany(
            "INSERT INTO name_outcomes VALUES (?, ?, ?, ?, 'triage', 0, ?) ON CONFLICT (lang,"
            " query_id) DO UPDATE SET outcome = excluded.outcome, name = excluded.name,"
            " decided_by = excluded.decided_by, simulated = 0, decided_at = excluded.decided_at"
            " WHERE name_outcomes.outcome != 'E'",
            [(t.lang, t.query_id, t.outcome, t.projection or None, now) for t in triaged],
        )
        store.executemany("DELETE FROM name_outcomes WHERE lang = ? AND query_id = ? AND"
                          " decided_by = 'triage'", [(lang, q) for q in curated])
        store.executemany("DELETE FROM expert_queue WHERE lang = ? AND query_id = ?",
                          [(lang, t.query_id) for t in triaged])
        for task, group in data.groupby("task"):
            query_id = task_query(str(task), lang)
            if query_id not in curated:
                continue
            labels = list(group["label"])
            decision = policy.name_outcome(labels, decided.get(str(task)), config.hits)
            if decision is None:
                counts["too few judgments"] = counts.get("too few judgments", 0) + 1
                continue
            outcome, name = decision
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome == "E":
                answers = [[w, label, round(skills[w], 3)] if w in skills else [w, label]
                           for w, label in zip(group["worker"], group["label"], strict=True)]
                store.execute(
                    "INSERT OR REPLACE INTO expert_queue VALUES (?, ?, ?, ?)",
                    (lang, query_id, json.dumps(answers, ensure_ascii=False), now),
                )
                continue
            store.execute("DELETE FROM expert_queue WHERE lang = ? AND query_id = ?",
                          (lang, query_id))
            store.execute(
                "INSERT INTO name_outcomes VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (lang, "
                "query_id) DO UPDATE SET outcome = excluded.outcome, name = excluded.name, "
                "decided_by = excluded.decided_by, simulated = excluded.simulated, "
                "decided_at = excluded.decided_at WHERE name_outcomes.outcome != 'E'",
                (lang, query_id, outcome, name, f"crowd:{'/'.join(sorted(set(group['batch_id'])))}",
                 int(group["simulated"].max()), now),
            )
        _mark_aggregated(store, "name", lang)
    return counts


# --- adaptive overlap --------------------------------------------------------------------------


def unsure_tasks(store: Store, config: Config, kind: str, lang: str) -> list[str]:
    """Tasks of a round the policy has not decided that have fewer than
    `hits.max_assignments` judgments: one more worker could settle them."""
    found, data, gold = round_decisions(store, config, kind, lang)
    return _unsure(found, data, gold, config)


def _unsure(found: pd.DataFrame, data: pd.DataFrame, gold: dict[str, str],
            config: Config) -> list[str]:
    asked = set(data.loc[~data["task"].isin(list(gold)), "task"])
    return sorted(asked - set(at_cap(data, gold, config)) - set(found["task"]))


def extend_batch(store: Store, config: Config, batch_id: str) -> int:
    """One more worker for every complete HIT of a sent batch where at least half the tasks
    are unsure (`unsure_tasks`); stored (with a token per extension) and the batch reopened in
    one transaction, before any backend is told (`send_extensions`). A HIT with fewer unsure
    tasks is not extended (that would pay for every item of it): its unsure tasks go to the
    next batch, asked of one worker (`hits.make`). Returns how many HITs were extended."""
    b = batch(store, batch_id)
    if not get_policy(config.hits.policy).adaptive or b.state != "sent":
        return 0
    found, data, gold = round_decisions(store, config, b.kind, b.lang)
    unsure = set(_unsure(found, data, gold, config))
    cap = config.hits.max_assignments
    hits = store.query(
        f"SELECT h.hit_id, h.token, {TARGET} AS target, (SELECT COUNT(*) FROM hit_assignments a"
        " WHERE a.hit_id = h.hit_id) AS taken FROM hit_hits h JOIN hit_batches b USING "
        "(batch_id) WHERE h.batch_id = ? AND h.external_id IS NOT NULL AND h.expired_at IS NULL"
        " ORDER BY h.ordinal", (batch_id,))
    tasks: dict[str, list[str]] = {}
    for r in store.query("SELECT i.hit_id, i.task FROM hit_items i JOIN hit_hits h USING "
                         "(hit_id) WHERE h.batch_id = ? AND i.gold = 0", (batch_id,)):
        tasks.setdefault(r[0], []).append(r[1])
    extended = [h for h in hits if h["target"] < cap and h["taken"] >= h["target"]
                and 2 * len(unsure & set(tasks.get(h["hit_id"], []))) >= max(
                    1, len(tasks.get(h["hit_id"], [])))]
    if not extended:
        return 0
    now = time.time()
    with store.transaction():
        store.executemany("INSERT INTO hit_extensions VALUES (?, ?, ?, ?, NULL)", [
            (h["hit_id"], h["target"] + 1, f"{h['token']}-x{h['target'] + 1}", now)
            for h in extended])
        reopen(store, batch_id)
    return len(extended)


def send_extensions(store: Store, batch_id: str, backend: CrowdBackend) -> int:
    """Tell the backend of every stored extension not yet confirmed (again after a crash: the
    token makes MTurk do it once); each marked sent after the backend confirmed it."""
    sent = 0
    for e in store.query(
        "SELECT e.hit_id, e.assignments, e.token, h.external_id FROM hit_extensions e JOIN "
        "hit_hits h USING (hit_id) WHERE h.batch_id = ? AND e.sent_at IS NULL ORDER BY "
        "e.hit_id, e.assignments", (batch_id,),
    ):
        backend.extend(e["external_id"], e["hit_id"], e["assignments"], e["token"])
        with store.transaction():
            store.execute("UPDATE hit_extensions SET sent_at = ? WHERE token = ?",
                          (time.time(), e["token"]))
        sent += 1
    return sent


def _mark_aggregated(store: Store, kind: str, lang: str) -> None:
    for b in batches(store, "sent"):
        if b.kind == kind and b.lang == lang:
            set_state(store, b.batch_id, "aggregated")


# --- whole rounds ------------------------------------------------------------------------------


@dataclass
class Round:
    """What a round did; `pending` lists batches still waiting for the crowd."""

    batches: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    aggregated: dict[str, int] = field(default_factory=dict)
    simulated: bool = False


def advance(store: Store, config: Config, b: Batch, backend: CrowdBackend,
            confirm: Confirm | None = None) -> bool:
    """Take one batch as far as it can go now; True when it reached `sent`. Before a batch is
    published on live MTurk, `confirm` is asked with its cost (no: an error, nothing sent)."""
    if b.state == "made":
        if backend.environment == "live" and confirm is not None and not confirm(
                f"{b.batch_id} on live MTurk: {estimate(store, b.batch_id)}"):
            raise XelError(f"batch {b.batch_id} not published: live publishing was not "
                           "confirmed (rerun and answer yes, or pass --yes)")
        publish_batch(store, config, b.batch_id, backend)
    # Each pass either waits for people, or ends sent and extends some HIT by one worker
    # (at most max_assignments each), so the loop ends.
    while True:
        if batch(store, b.batch_id).state == "published":
            send_extensions(store, b.batch_id, backend)
            collect_batch(store, b.batch_id, backend)
        if batch(store, b.batch_id).state == "collected":
            review_batch(store, config, b.batch_id)
        if batch(store, b.batch_id).state == "reviewed":
            send_batch(store, b.batch_id, backend)
        if not extend_batch(store, config, b.batch_id):
            break
    return batch(store, b.batch_id).state in ("sent", "aggregated")


def run_round(
    store: Store, config: Config, kind: str, *, lang: str = "", backend: str = "simulated",
    max_batches: int = 20, confirm: Confirm | None = None, **options: Any,
) -> Round:
    """Make, publish, collect, review and send batches until no task needs asking (requeued
    tasks included) or a batch waits for people; then aggregate what is complete.

    `xel build` calls `run_round(store, config, "el")` and, per language,
    `run_round(store, config, "name", lang=code)`; a non-empty `Round.pending` means crowd
    work is outstanding and the round should be run again later (nothing is repeated).
    `options` go to the backend (`live=True` for live MTurk), `confirm` to `advance`.
    """
    open_tables(store)
    crowd = get_backend(backend, store, config, **options)
    result = Round(simulated=crowd.simulated)
    for _ in range(max_batches):
        # A sent batch may still be extended (adaptive overlap); `advance` says if it is done.
        open_batches = [b for b in batches(store) if b.kind == kind and b.lang == lang
                        and b.state != "aggregated"]
        for b in open_batches:
            if not advance(store, config, b, crowd, confirm):
                result.pending.append(b.batch_id)
        if result.pending:
            break
        unsure = (unsure_tasks(store, config, kind, lang)
                  if get_policy(config.hits.policy).adaptive else [])
        made = (make_el_batch(store, config, unsure) if kind == "el"
                else make_name_batch(store, config, lang, unsure))
        if made is None:
            break
        result.batches.append(made)
    if not result.pending:
        result.aggregated = (aggregate_el(store, config) if kind == "el"
                             else aggregate_names(store, config, lang))
    return result
