"""The crowd's tables: batches, HITs, items, assignments, judgments, payments and outcomes.

A batch moves through `made -> published -> collected -> reviewed -> sent -> aggregated`; each
step is written here before the outside world is told, so a crash replays safely. Judgments are
one long table (task, worker, label, + batch, gold flag, time, shown order), which is the shape
crowd-kit's aggregators take.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass

from xel.errors import XelError
from xel.store import Store

STATES = ("made", "published", "collected", "reviewed", "sent", "aggregated")

DDL = """
CREATE TABLE IF NOT EXISTS hit_batches (
    batch_id    TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('el', 'name')),
    lang        TEXT NOT NULL DEFAULT '',    -- target language of a name batch
    state       TEXT NOT NULL CHECK (state IN
                ('made', 'published', 'collected', 'reviewed', 'sent', 'aggregated')),
    backend     TEXT,                        -- set when published: mturk, local, simulated
    environment TEXT,                        -- sandbox, live, local, simulated
    reward      REAL NOT NULL,               -- dollars per assignment
    assignments INTEGER NOT NULL,            -- workers per HIT
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS hit_hits (
    hit_id       TEXT PRIMARY KEY,           -- ours: <batch>-h<nnn>
    batch_id     TEXT NOT NULL REFERENCES hit_batches(batch_id),
    ordinal      INTEGER NOT NULL,
    token        TEXT NOT NULL UNIQUE,       -- idempotency token (MTurk UniqueRequestToken)
    external_id  TEXT,                       -- the backend's HIT id once published
    published_at REAL,
    expired_at   REAL
);
CREATE TABLE IF NOT EXISTS hit_items (
    hit_id      TEXT NOT NULL REFERENCES hit_hits(hit_id),
    position    INTEGER NOT NULL,            -- 1-based, as shown
    task        TEXT NOT NULL,               -- query_id (el) or <lang>:<query_id> (name)
    query_id    TEXT NOT NULL,
    gold        INTEGER NOT NULL,            -- 1 = known-answer item
    gold_answer TEXT,                        -- the known answer of a gold item
    shown       TEXT NOT NULL,               -- JSON: options in the order shown
    PRIMARY KEY (hit_id, position)
);
CREATE INDEX IF NOT EXISTS hit_items_task ON hit_items(task);
CREATE TABLE IF NOT EXISTS hit_assignments (
    assignment_id TEXT PRIMARY KEY,
    hit_id        TEXT NOT NULL REFERENCES hit_hits(hit_id),
    batch_id      TEXT NOT NULL,
    worker        TEXT NOT NULL,
    accepted_at   REAL,
    submitted_at  REAL NOT NULL,
    answer        TEXT NOT NULL,             -- raw answer (MTurk Answer XML or form JSON)
    simulated     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS hit_assignments_hit ON hit_assignments(hit_id, worker);
CREATE TABLE IF NOT EXISTS judgments (
    assignment_id TEXT NOT NULL REFERENCES hit_assignments(assignment_id),
    batch_id      TEXT NOT NULL,
    hit_id        TEXT NOT NULL,
    position      INTEGER NOT NULL,
    task          TEXT NOT NULL,
    worker        TEXT NOT NULL,
    label         TEXT NOT NULL,             -- kb id, NIL, NEI, NOT_PERSON / a name, MISSING
    gold          INTEGER NOT NULL,
    seconds       REAL,                      -- the assignment's work time / items
    shown         TEXT NOT NULL,
    simulated     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (assignment_id, position)
);
CREATE INDEX IF NOT EXISTS judgments_task ON judgments(task);
CREATE TABLE IF NOT EXISTS worker_gold (
    batch_id     TEXT NOT NULL,
    worker       TEXT NOT NULL,
    gold_items   INTEGER NOT NULL,
    gold_correct INTEGER NOT NULL,
    accuracy     REAL,                       -- NULL when the worker saw no gold
    dropped      INTEGER NOT NULL,
    PRIMARY KEY (batch_id, worker)
);
CREATE TABLE IF NOT EXISTS payments (
    assignment_id TEXT PRIMARY KEY REFERENCES hit_assignments(assignment_id),
    batch_id      TEXT NOT NULL,
    worker        TEXT NOT NULL,
    decision      TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
    reason        TEXT NOT NULL,
    amount        REAL NOT NULL,             -- dollars to the worker if approved
    decided_at    REAL NOT NULL,
    sent_at       REAL                       -- NULL until the backend confirmed it
);
CREATE TABLE IF NOT EXISTS worker_actions (
    batch_id   TEXT NOT NULL,
    worker     TEXT NOT NULL,
    action     TEXT NOT NULL CHECK (action IN ('exclude', 'block')),
    reason     TEXT NOT NULL,
    decided_at REAL NOT NULL,
    sent_at    REAL,
    PRIMARY KEY (batch_id, worker, action)
);
CREATE TABLE IF NOT EXISTS links (
    query_id   TEXT NOT NULL,
    policy     TEXT NOT NULL,                -- aggregator name, or 'gold' for known answers
    label      TEXT NOT NULL,                -- kb id, NIL, NEI or NOT_PERSON
    kb_id      TEXT,                         -- NULL for NIL
    support    REAL NOT NULL,                -- share of votes, or posterior probability
    judgments  INTEGER NOT NULL,
    simulated  INTEGER NOT NULL,
    decided_at REAL NOT NULL,
    PRIMARY KEY (query_id, policy)
);
CREATE TABLE IF NOT EXISTS name_outcomes (
    lang       TEXT NOT NULL,
    query_id   TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('A1', 'A2', 'A3', 'D1', 'D2', 'E')),
    name       TEXT,                         -- the target-language name; NULL when discarded
    decided_by TEXT NOT NULL,                -- triage, crowd:<policy>, expert:<who>
    simulated  INTEGER NOT NULL DEFAULT 0,
    decided_at REAL NOT NULL,
    PRIMARY KEY (lang, query_id)
);
-- Disagreements waiting for a local-language expert (Figure 4's "else").
CREATE TABLE IF NOT EXISTS expert_queue (
    lang      TEXT NOT NULL,
    query_id  TEXT NOT NULL,
    answers   TEXT NOT NULL,                 -- JSON: [[worker, label], ...]
    queued_at REAL NOT NULL,
    PRIMARY KEY (lang, query_id)
);
CREATE TABLE IF NOT EXISTS expert_decisions (
    decision_id INTEGER PRIMARY KEY,
    lang        TEXT NOT NULL,
    query_id    TEXT NOT NULL,
    expert      TEXT NOT NULL,
    action      TEXT NOT NULL CHECK (action IN ('name', 'discard')),
    name        TEXT,
    seg         INTEGER,
    start       INTEGER,
    end         INTEGER,
    decided_at  REAL NOT NULL
);
-- Submissions the local web app refused (never stored as judgments): who, what, why, when.
CREATE TABLE IF NOT EXISTS refusals (
    refusal_id INTEGER PRIMARY KEY,
    worker     TEXT NOT NULL,                -- the link's person ('' for an unknown link)
    hit_id     TEXT NOT NULL,                -- as posted (may name no HIT)
    reason     TEXT NOT NULL,                -- a short code, see hits.server.REFUSALS
    detail     TEXT NOT NULL,                -- what exactly was wrong, as shown to the worker
    answers    TEXT NOT NULL,                -- JSON: the posted form fields
    refused_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS refusals_worker ON refusals(worker);
-- Pages the local web app served: each form carries its page's token, so a POST must come
-- from a page served to that person for that HIT (or case), and time on task is measured
-- from when the page was served.
CREATE TABLE IF NOT EXISTS page_views (
    token     TEXT PRIMARY KEY,
    person    TEXT NOT NULL,
    role      TEXT NOT NULL,
    target    TEXT NOT NULL,                 -- hit_id, or lang/query_id for an expert case
    served_at REAL NOT NULL,
    used_at   REAL
);
CREATE INDEX IF NOT EXISTS page_views_target ON page_views(target, person);
-- When CreateHIT was first sent with a HIT's UniqueRequestToken: MTurk forgets a token after
-- 24 hours, so a later retry must look the HIT up (ListHITs) before creating it again.
CREATE TABLE IF NOT EXISTS hit_requests (
    hit_id       TEXT PRIMARY KEY REFERENCES hit_hits(hit_id),
    requested_at REAL NOT NULL
);
-- More workers asked of a HIT whose tasks the policy was unsure of (adaptive overlap): the
-- HIT's assignments after the extension, decided and stored before the backend is told
-- (MTurk: CreateAdditionalAssignmentsForHIT with `token`), then marked sent.
CREATE TABLE IF NOT EXISTS hit_extensions (
    hit_id      TEXT NOT NULL REFERENCES hit_hits(hit_id),
    assignments INTEGER NOT NULL,
    token       TEXT NOT NULL UNIQUE,
    decided_at  REAL NOT NULL,
    sent_at     REAL,
    PRIMARY KEY (hit_id, assignments)
);
-- Unguessable links for the local web app: workers, the admin and experts.
CREATE TABLE IF NOT EXISTS local_people (
    token      TEXT PRIMARY KEY,
    person     TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('worker', 'admin', 'expert')),
    created_at REAL NOT NULL,
    UNIQUE (person, role)
);
"""

# Labels that are not knowledge-base ids.
NIL = "NIL"
NOT_ENOUGH_INFO = "NEI"
NOT_A_PERSON = "NOT_PERSON"
MISSING = "MISSING"
# What an entity-linking item offers besides its candidates.
EL_CHOICES = (NIL, NOT_ENOUGH_INFO, NOT_A_PERSON)


def open_tables(store: Store) -> Store:
    store.declare(DDL)
    return store


@dataclass(frozen=True)
class Batch:
    batch_id: str
    kind: str
    lang: str
    state: str
    backend: str | None
    environment: str | None
    reward: float
    assignments: int


def batch(store: Store, batch_id: str) -> Batch:
    """A batch, or an error listing the batches there are."""
    open_tables(store)
    row = store.query("SELECT * FROM hit_batches WHERE batch_id = ?", (batch_id,))
    if not row:
        known = [r[0] for r in store.query("SELECT batch_id FROM hit_batches ORDER BY batch_id")]
        raise XelError(
            f"no batch {batch_id!r} in {store.path}: known batches are "
            f"{', '.join(known) or 'none (run `hits make` first)'}"
        )
    r = row[0]
    return Batch(r["batch_id"], r["kind"], r["lang"], r["state"], r["backend"],
                 r["environment"], r["reward"], r["assignments"])


def batches(store: Store, state: str | None = None) -> list[Batch]:
    open_tables(store)
    ids = store.query(
        "SELECT batch_id FROM hit_batches WHERE ? IS NULL OR state = ? ORDER BY created_at, "
        "batch_id", (state, state)
    )
    return [batch(store, r[0]) for r in ids]


# SQL for the assignments HIT `h` of batch `b` asks for now: the batch's, or its extension's.
TARGET = ("COALESCE((SELECT MAX(e.assignments) FROM hit_extensions e WHERE e.hit_id = "
          "h.hit_id), b.assignments)")


def hit_target(store: Store, hit_id: str) -> int:
    """How many assignments a HIT asks for now (more once extended)."""
    return int(store.scalar(f"SELECT {TARGET} FROM hit_hits h JOIN hit_batches b "
                            "USING (batch_id) WHERE h.hit_id = ?", (hit_id,)))


def reopen(store: Store, batch_id: str) -> None:
    """Send a batch whose HITs were extended back to `published`: the one backward move,
    made in the transaction that stores the extensions."""
    store.execute("UPDATE hit_batches SET state = 'published', updated_at = ? WHERE "
                  "batch_id = ?", (time.time(), batch_id))


def set_state(store: Store, batch_id: str, state: str, **fields: str | None) -> None:
    """Move a batch forward; a state is never moved backwards."""
    current = batch(store, batch_id).state
    if STATES.index(state) < STATES.index(current):
        return
    sets = ", ".join(f"{k} = ?" for k in fields)
    store.execute(
        f"UPDATE hit_batches SET state = ?, updated_at = ?{', ' + sets if sets else ''}"
        " WHERE batch_id = ?",
        (state, time.time(), *fields.values(), batch_id),
    )


@dataclass(frozen=True)
class Item:
    hit_id: str
    position: int
    task: str
    query_id: str
    gold: bool
    gold_answer: str | None
    shown: list[str]


def items(store: Store, hit_id: str) -> list[Item]:
    rows = store.query("SELECT * FROM hit_items WHERE hit_id = ? ORDER BY position", (hit_id,))
    return [
        Item(r["hit_id"], r["position"], r["task"], r["query_id"], bool(r["gold"]),
             r["gold_answer"], json.loads(r["shown"]))
        for r in rows
    ]


@dataclass(frozen=True)
class Submission:
    """One worker's answers to one HIT, as a backend returns it."""

    assignment_id: str
    worker: str
    answers: dict[str, str]  # form field -> value, e.g. item-3 -> Q42
    submitted_at: float
    accepted_at: float | None
    raw: str
    simulated: bool = False


def record_submission(store: Store, hit_id: str, sub: Submission) -> bool:
    """Store an assignment and its judgments (idempotent); False if it was already stored.

    Runs in one transaction, so a submission is either wholly stored or not at all; callers
    acknowledge it (to a worker or a backend page) only after this returns.
    """
    with store.transaction():
        if store.scalar("SELECT 1 FROM hit_assignments WHERE assignment_id = ?",
                        (sub.assignment_id,)):
            return False
        batch_id = store.scalar("SELECT batch_id FROM hit_hits WHERE hit_id = ?", (hit_id,))
        if batch_id is None:
            raise XelError(f"submission {sub.assignment_id} names unknown HIT {hit_id!r}")
        shown = items(store, hit_id)
        seconds = None
        if sub.accepted_at is not None and shown:
            seconds = max(0.0, sub.submitted_at - sub.accepted_at) / len(shown)
        store.execute(
            "INSERT INTO hit_assignments VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (sub.assignment_id, hit_id, batch_id, sub.worker, sub.accepted_at,
             sub.submitted_at, sub.raw, int(sub.simulated)),
        )
        store.executemany(
            "INSERT INTO judgments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (sub.assignment_id, batch_id, hit_id, it.position, it.task, sub.worker,
                 sub.answers.get(field_name(it.position), "").strip(), int(it.gold), seconds,
                 json.dumps(it.shown, ensure_ascii=False), int(sub.simulated))
                for it in shown
            ],
        )
    return True


def field_name(position: int) -> str:
    """The form field of an item: the same in the HTML, MTurk's Answer XML and the store."""
    return f"item-{position}"


def insert_rows(store: Store, table: str, rows: Iterable[tuple[object, ...]]) -> None:
    rows = list(rows)
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        store.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
