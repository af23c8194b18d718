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

from hits.aggregate import get_aggregator, name_outcome
from hits.backends import CrowdBackend, HitRequest, get_backend
from hits.cost import cost
from hits.make import el_gold, make_el_batch, make_name_batch, task_query
from hits.quality import kept_judgments, score_batch
from hits.store import (
    NIL,
    NOT_A_PERSON,
    NOT_ENOUGH_INFO,
    Batch,
    batch,
    batches,
    open_tables,
    record_submission,
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
    return store.query(
        "SELECT h.hit_id, h.external_id FROM hit_hits h WHERE h.batch_id = ? "
        "AND h.external_id IS NOT NULL AND h.expired_at IS NULL AND (SELECT COUNT(*) FROM "
        "hit_assignments a WHERE a.hit_id = h.hit_id) < ? ORDER BY h.ordinal",
        (batch_id, assignments),
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
    """Score workers on gold and decide every payment by rule, all stored before anything is
    sent. A payment follows the worker's gold result for the batch: under `hits.reject_below`
    (by default `hits.threshold`, as Lawrie et al. did not pay workers under 80%) an assignment
    is rejected, else approved. Dropped workers are also marked for exclusion from later work."""
    b = batch(store, batch_id)
    if b.state in ("made", "published"):
        raise XelError(
            f"batch {batch_id} is still {b.state}: run `hits collect` until every HIT is "
            "answered (or `hits collect --expire` to stop waiting)"
        )
    scores = {s.worker: s for s in score_batch(store, batch_id, config.hits.threshold)}
    now = time.time()
    reject_below = config.hits.reject_below
    if reject_below is None:
        reject_below = config.hits.threshold
    with store.transaction():
        undecided = store.query(
            "SELECT a.assignment_id, a.worker, (SELECT COUNT(*) FROM judgments j WHERE "
            "j.assignment_id = a.assignment_id AND j.label != '') AS answered "
            "FROM hit_assignments a LEFT JOIN payments p USING (assignment_id) "
            "WHERE a.batch_id = ? AND p.assignment_id IS NULL", (batch_id,),
        )
        for row in undecided:
            score = scores[row["worker"]]
            accuracy = score.accuracy
            if not row["answered"]:
                decision, reason = "reject", "no item was answered"
            elif accuracy is not None and accuracy < reject_below:
                decision = "reject"
                reason = (f"{score.gold_correct} of {score.gold_items} known-answer items right "
                          f"in this batch ({accuracy:.0%}), under the {reject_below:.0%} needed")
            else:
                decision, reason = "approve", "thank you"
            store.execute(
                "INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                (row["assignment_id"], batch_id, row["worker"], decision, reason,
                 b.reward if decision == "approve" else 0.0, now),
            )
        for s in scores.values():
            if s.dropped(config.hits.threshold):
                store.execute(
                    "INSERT OR IGNORE INTO worker_actions VALUES (?, ?, 'exclude', ?, ?, NULL)",
                    (batch_id, s.worker, f"{s.accuracy:.0%} on gold in {batch_id}", now),
                )
        set_state(store, batch_id, "reviewed")
    dropped = sum(s.dropped(config.hits.threshold) for s in scores.values())
    return {"workers": len(scores), "dropped": dropped, "decided": len(undecided)}


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


def aggregate_el(store: Store, config: Config, policy: str | None = None) -> dict[str, int]:
    """Write `links` for one policy (replacing its earlier rows) from the kept judgments,
    plus the known answers of gold queries under policy 'gold'."""
    open_tables(store)
    policy = policy or config.hits.policy
    data = kept_judgments(store, "el")
    ranks = {(c.query_id, c.kb_id): f"rank:{c.rank}"
             for ranked in read_candidates(store).values() for c in ranked}
    # Models learn one confusion matrix over labels shared by all tasks, so a KB id is
    # aggregated as the linker's rank of that candidate and mapped back afterwards.
    data["label"] = [ranks.get((t, label), label)
                     for t, label in zip(data["task"], data["label"], strict=True)]
    decided = get_aggregator(policy, config.hits).fit_predict(data)
    kb_ids = {(task, rank): kb for (task, kb), rank in ranks.items()}
    decided["label"] = [kb_ids.get((t, label), label)
                        for t, label in zip(decided["task"], decided["label"], strict=True)]
    simulated = data.groupby("task")["simulated"].max().to_dict() if not data.empty else {}
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
    return {"tasks": int(data["task"].nunique()) if not data.empty else 0,
            "kept": int((~decided["label"].isin(NOT_LINKS)).sum()),
            "decided": len(decided)}


def aggregate_names(store: Store, config: Config, lang: str) -> dict[str, int]:
    """Write `name_outcomes` for one language: A1/D1 from triage, A2/A3/D2 from the crowd
    (Figure 4), and disagreements into `expert_queue`. Expert decisions (E) are never replaced.

    Triage decides first: a query it now accepts (after better name models, say) takes triage's
    outcome over an older crowd one and leaves the expert queue; the crowd's judgments stay in
    `judgments`, and count again if triage sends the query back to curation."""
    open_tables(store)
    data = kept_judgments(store, "name", lang)
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
            if len(group) < config.hits.assignments:
                counts["too few judgments"] = counts.get("too few judgments", 0) + 1
                continue
            outcome, name = name_outcome(list(group["label"]))
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome == "E":
                store.execute(
                    "INSERT OR REPLACE INTO expert_queue VALUES (?, ?, ?, ?)",
                    (lang, query_id, json.dumps(group[["worker", "label"]].values.tolist(),
                                                ensure_ascii=False), now),
                )
                continue
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
    if batch(store, b.batch_id).state == "published":
        collect_batch(store, b.batch_id, backend)
    if batch(store, b.batch_id).state == "collected":
        review_batch(store, config, b.batch_id)
    if batch(store, b.batch_id).state == "reviewed":
        send_batch(store, b.batch_id, backend)
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
        open_batches = [b for b in batches(store) if b.kind == kind and b.lang == lang
                        and b.state not in ("sent", "aggregated")]
        for b in open_batches:
            if not advance(store, config, b, crowd, confirm):
                result.pending.append(b.batch_id)
        if result.pending:
            break
        made = (make_el_batch(store, config) if kind == "el"
                else make_name_batch(store, config, lang))
        if made is None:
            break
        result.batches.append(made)
    if not result.pending:
        result.aggregated = (aggregate_el(store, config) if kind == "el"
                             else aggregate_names(store, config, lang))
    return result
