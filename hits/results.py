"""What the crowd decided and did, as typed reads: the only way xel reads the crowd's tables.

`xel.pipeline` (the crowd rounds' signatures, partition and export) and `xel.report` call
these; nothing outside `hits` runs SQL on `links`, `name_outcomes`, `judgments`,
`expert_queue` or the tables of batches, assignments and payments. (In the other direction,
`hits` reads xel's queries, candidates, triage and sentences through `xel.queries`, `xel.link`,
`xel.triage` and `xel.corpus`.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from hits.store import open_tables
from xel.store import Store


@dataclass(frozen=True)
class Link:
    """A query's link: a KB id, NIL, or what the crowd said instead (NEI, NOT_PERSON)."""

    query_id: str
    policy: str  # the aggregator's name, or 'gold' for a known answer
    label: str
    kb_id: str | None  # None unless the label is a KB id
    support: float
    judgments: int
    simulated: bool


def links(store: Store, policy: str, *, gold: bool = True) -> dict[str, Link]:
    """Each query's link under `policy`; with `gold`, a gold query the crowd was not asked
    about keeps its known answer (gold items' answers are given, not asked)."""
    open_tables(store)
    rows = store.query(
        "SELECT query_id, policy, label, kb_id, support, judgments, simulated FROM links"
        " WHERE policy = ? OR (? AND policy = 'gold') ORDER BY policy = ?, query_id",
        (policy, gold, policy))
    # The policy's own rows come last, so they replace known answers.
    return {r[0]: Link(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6])) for r in rows}


@dataclass(frozen=True)
class NameOutcome:
    """A query's outcome in one language (Lawrie et al.'s Figure 4): A1/D1 from triage,
    A2/A3/D2 from the crowd, E from an expert."""

    lang: str
    query_id: str
    outcome: str
    name: str | None  # the target-language name; None when discarded
    decided_by: str  # triage, crowd:<batches>, expert:<who>
    simulated: bool


def name_outcomes(store: Store, lang: str | None = None) -> list[NameOutcome]:
    """Outcomes by language and query id (of one language, if given)."""
    open_tables(store)
    rows = store.query(
        "SELECT lang, query_id, outcome, name, decided_by, simulated FROM name_outcomes"
        " WHERE ? IS NULL OR lang = ? ORDER BY lang, query_id", (lang, lang))
    return [NameOutcome(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows]


def votes(store: Store, kind: str | None = None,
          lang: str | None = None) -> dict[str, dict[str, int]]:
    """Task -> label -> how many non-gold judgments gave it (every batch, every worker), for
    batches of one kind and language if given."""
    open_tables(store)
    rows = store.query(
        "SELECT j.task, j.label, COUNT(*) FROM judgments j JOIN hit_batches b USING (batch_id)"
        " WHERE j.gold = 0 AND (? IS NULL OR b.kind = ?) AND (? IS NULL OR b.lang = ?)"
        " GROUP BY j.task, j.label ORDER BY j.task, j.label", (kind, kind, lang, lang))
    found: dict[str, dict[str, int]] = {}
    for task, label, n in rows:
        found.setdefault(task, {})[label] = n
    return found


@dataclass(frozen=True)
class Queued:
    """A name the crowd disagreed on, waiting for a local-language expert."""

    lang: str
    query_id: str
    answers: list[tuple[str, str]]  # (worker, label)
    # The gold-anchored model's estimate of each worker's accuracy when it queued the case.
    scores: dict[str, float] = field(default_factory=dict)


def expert_queue(store: Store, lang: str | None = None, *,
                 pending: bool = False) -> list[Queued]:
    """Every disagreement the crowd queued for an expert (of one language, if given); with
    `pending`, only those without an expert decision yet."""
    open_tables(store)
    rows = store.query(
        "SELECT lang, query_id, answers FROM expert_queue q WHERE (? IS NULL OR lang = ?)"
        " AND NOT (? AND EXISTS (SELECT 1 FROM name_outcomes o WHERE o.lang = q.lang"
        " AND o.query_id = q.query_id AND o.outcome = 'E')) ORDER BY lang, query_id",
        (lang, lang, pending))
    # Rows are [worker, label] or, from the gold-anchored policy, [worker, label, score].
    found = []
    for r in rows:
        answers = json.loads(r[2])
        found.append(Queued(r[0], r[1], [(a[0], a[1]) for a in answers],
                            {a[0]: float(a[2]) for a in answers if len(a) > 2}))
    return found


def expert_pending(store: Store, lang: str | None = None) -> list[Queued]:
    """Queued disagreements without an expert decision yet (of one language, if given)."""
    return expert_queue(store, lang, pending=True)


def open_batches(store: Store, kind: str, lang: str = "") -> list[str]:
    """Batches of a round not yet through the crowd (published, waiting or unreviewed)."""
    open_tables(store)
    rows = store.query("SELECT batch_id FROM hit_batches WHERE kind = ? AND lang = ? AND state"
                       " NOT IN ('sent', 'aggregated') ORDER BY created_at, batch_id",
                       (kind, lang))
    return [r[0] for r in rows]


# --- what the crowd did, for reports ---------------------------------------------------------


@dataclass(frozen=True)
class WorkerGold:
    batch_id: str
    worker: str
    gold_items: int
    gold_correct: int
    accuracy: float | None  # None when the worker saw no gold item
    dropped: bool


def worker_gold(store: Store) -> list[WorkerGold]:
    """Each worker's result on the known-answer items of each batch."""
    open_tables(store)
    return [
        WorkerGold(r["batch_id"], r["worker"], r["gold_items"], r["gold_correct"], r["accuracy"],
                   bool(r["dropped"]))
        for r in store.query("SELECT * FROM worker_gold ORDER BY batch_id, accuracy, worker")
    ]


@dataclass(frozen=True)
class Timing:
    kind: str  # el or name
    seconds: float  # from accepting to submitting an assignment


def timings(store: Store) -> list[Timing]:
    open_tables(store)
    rows = store.query("SELECT b.kind, a.submitted_at - a.accepted_at FROM hit_assignments a"
                       " JOIN hit_batches b USING (batch_id) WHERE a.accepted_at IS NOT NULL"
                       " ORDER BY a.assignment_id")
    return [Timing(r[0], r[1]) for r in rows]


@dataclass(frozen=True)
class Refusal:
    refused_at: float
    worker: str
    hit_id: str  # as posted
    reason: str
    detail: str


def refusals(store: Store) -> list[Refusal]:
    """Submissions `hits serve` refused (never stored as judgments), in order."""
    open_tables(store)
    rows = store.query("SELECT refused_at, worker, hit_id, reason, detail FROM refusals"
                       " ORDER BY refused_at, refusal_id")
    return [Refusal(*tuple(r)) for r in rows]


@dataclass(frozen=True)
class Rejection:
    batch_id: str
    worker: str
    assignments: int
    reason: str


def rejections(store: Store) -> list[Rejection]:
    """Rejected (unpaid) assignments per batch, worker and reason."""
    open_tables(store)
    rows = store.query("SELECT batch_id, worker, COUNT(*), reason FROM payments"
                       " WHERE decision = 'reject' GROUP BY batch_id, worker, reason"
                       " ORDER BY batch_id, worker")
    return [Rejection(*tuple(r)) for r in rows]


@dataclass(frozen=True)
class BatchSize:
    batch_id: str
    kind: str
    environment: str | None
    reward: float
    assignments: int  # per HIT when published (more once extended)
    hits: int
    collected: int  # assignments received, extensions' included


def batch_sizes(store: Store) -> list[BatchSize]:
    open_tables(store)
    rows = store.query("SELECT batch_id, kind, environment, reward, assignments,"
                       " (SELECT COUNT(*) FROM hit_hits h WHERE h.batch_id = b.batch_id),"
                       " (SELECT COUNT(*) FROM hit_assignments a WHERE a.batch_id = b.batch_id)"
                       " FROM hit_batches b ORDER BY batch_id")
    return [BatchSize(*tuple(r)) for r in rows]


@dataclass(frozen=True)
class RoundCost:
    """What a round (entity linking, or one language's curation) paid for what it accepted."""

    kind: str
    lang: str
    assignments: int  # received
    paid: int  # approved assignments
    judgments: int  # non-gold judgments in approved assignments
    dollars: float  # approved assignments at MTurk rates (reward plus commission)
    accepted: int  # links decided (entity linking) or names the crowd accepted (A2/A3)

    @property
    def judgments_per_accepted(self) -> float | None:
        return self.judgments / self.accepted if self.accepted else None

    @property
    def dollars_per_accepted(self) -> float | None:
        return self.dollars / self.accepted if self.accepted else None


def round_costs(store: Store, policy: str) -> list[RoundCost]:
    """Per round and language: assignments, paid judgments and dollars, and what was accepted
    (entity linking: the queries `policy` linked, NIL included; names: A2 and A3)."""
    from hits.cost import per_assignment

    open_tables(store)
    found = []
    for kind, lang in store.query("SELECT DISTINCT kind, lang FROM hit_batches ORDER BY 1, 2"):
        rows = store.query(
            "SELECT b.reward, b.assignments, COUNT(a.assignment_id), SUM(p.decision = "
            "'approve'), (SELECT COUNT(*) FROM judgments j JOIN payments q USING "
            "(assignment_id) WHERE j.batch_id = b.batch_id AND j.gold = 0 AND q.decision = "
            "'approve') FROM hit_batches b LEFT JOIN hit_assignments a USING (batch_id) "
            "LEFT JOIN payments p USING (assignment_id) WHERE b.kind = ? AND b.lang = ? "
            "GROUP BY b.batch_id", (kind, lang))
        dollars = sum(float(per_assignment(r[0], r[1])) * (r[3] or 0) for r in rows)
        if kind == "el":
            accepted = store.scalar("SELECT COUNT(*) FROM links WHERE policy = ? AND label NOT "
                                    "IN ('NEI', 'NOT_PERSON')", (policy,))
        else:
            accepted = store.scalar("SELECT COUNT(*) FROM name_outcomes WHERE lang = ? AND "
                                    "outcome IN ('A2', 'A3')", (lang,))
        found.append(RoundCost(kind, lang, sum(r[2] for r in rows),
                               sum(r[3] or 0 for r in rows), sum(r[4] for r in rows),
                               round(dollars, 2), int(accepted)))
    return found


def simulated(store: Store) -> bool:
    """Whether any answer came from simulated workers."""
    open_tables(store)
    return bool(store.scalar("SELECT MAX(simulated) FROM hit_assignments"))


def activity(store: Store) -> list[object]:
    """A fingerprint of everything the crowd did (batches and their states, submissions,
    payment decisions, refusals), so a report is rewritten when any of it changed."""
    open_tables(store)
    return [
        [tuple(r) for r in store.query("SELECT batch_id, state FROM hit_batches ORDER BY 1")],
        [tuple(r) for r in store.query(
            "SELECT (SELECT COUNT(*) FROM hit_assignments), (SELECT COUNT(*) FROM payments),"
            " (SELECT COUNT(*) FROM refusals), (SELECT COUNT(*) FROM worker_gold)")],
    ]
