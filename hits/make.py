"""Making batches of HITs: tasks that still need judgments, mixed with known-answer gold items.

Entity-linking gold (Lawrie et al. mixed two known-answer items into every HIT) comes from the
reference file `hits.gold` when one is configured; otherwise a query is gold when its best
candidate's KB name is exactly the query name (ignoring case), no other candidate has that
name, and the entity is popular (popularity at least the median of all candidates), i.e. an
unambiguous famous person whose link any attentive reader gets right. Name-curation gold is a
round-trip-accepted (A1) projection from triage.
"""

from __future__ import annotations

import json
import random
import statistics
import time
import uuid
from collections.abc import Sequence

from hits.policy import get_policy
from hits.reference import read_reference
from hits.store import DDL, STATES, insert_rows
from xel.config import Config
from xel.errors import XelError
from xel.link import read_candidates, read_kb_entries
from xel.queries import read_queries
from xel.store import Store
from xel.triage import read_triage


def name_task(lang: str, query_id: str) -> str:
    return f"{lang}:{query_id}"


def task_query(task: str, lang: str) -> str:
    """The query id of a task (query ids may themselves contain colons)."""
    return task.removeprefix(f"{lang}:") if lang else task


def candidate_ids(store: Store, query_id: str) -> list[str]:
    """The linker's top three candidates of a query, best first."""
    return [c.kb_id for c in read_candidates(store, query_id).get(query_id, [])[:3]]


def el_gold(store: Store, config: Config) -> dict[str, str]:
    """Query id -> known answer (see the module docstring for where they come from)."""
    queries = read_queries(store)
    if config.hits.gold:
        known = read_reference(config.resolve(config.hits.gold))
        asked = {q.query_id for q in queries}
        return {q: a for q, a in known.items() if q in asked}
    entries = read_kb_entries(store)
    pops = [e.popularity for e in entries.values() if e.popularity is not None]
    floor = statistics.median(pops) if pops else 0.0
    candidates = read_candidates(store)
    gold = {}
    for q in queries:
        top = [entries[c.kb_id] for c in candidates.get(q.query_id, []) if c.kb_id in entries][:3]
        exact = [e for e in top if e.name.casefold() == q.name.casefold()]
        if (len(exact) == 1 and top[0].kb_id == exact[0].kb_id
                and (exact[0].popularity or 0.0) >= floor):
            gold[q.query_id] = exact[0].kb_id
    return gold


def name_gold(store: Store, lang: str) -> dict[str, str]:
    """Task -> projection, for the round-trip-accepted (A1) projections of one language."""
    return {name_task(lang, t.query_id): t.projection for t in read_triage(store, lang)
            if t.outcome == "A1" and t.projection != ""}


def pending_tasks(store: Store, candidates: Sequence[str], needed: int, max_asks: int) -> list[str]:
    """Tasks never asked, then tasks whose kept judgments fell short (requeued).

    A task is asked in at most `max_asks` batches (1: never requeued), and requeued only after
    every batch that asked it was reviewed.
    """
    asked = {
        r[0]: (r[1], r[2])
        for r in store.query(
            "SELECT i.task, COUNT(DISTINCT h.batch_id), MIN(b.state IN ('reviewed', 'sent', "
            "'aggregated')) FROM hit_items i JOIN hit_hits h USING (hit_id) "
            "JOIN hit_batches b USING (batch_id) WHERE i.gold = 0 GROUP BY i.task"
        )
    }
    fresh = [t for t in candidates if t not in asked]
    if max_asks <= 1:
        return fresh
    kept = {
        r[0]: r[1]
        for r in store.query(
            "SELECT j.task, COUNT(*) FROM judgments j JOIN worker_gold w "
            "ON w.batch_id = j.batch_id AND w.worker = j.worker "
            "WHERE j.gold = 0 AND w.dropped = 0 AND j.label != '' GROUP BY j.task"
        )
    }
    short = [
        t for t in candidates
        if t in asked and asked[t][0] < max_asks and asked[t][1] and kept.get(t, 0) < needed
    ]
    return fresh + short


def _next_batch_id(store: Store, kind: str, lang: str) -> str:
    """`el-001`, `name-deu-002`: numbered per kind and language."""
    n = store.scalar("SELECT COUNT(*) FROM hit_batches WHERE kind = ? AND lang = ?", (kind, lang))
    return f"{kind}-{lang + '-' if lang else ''}{n + 1:03d}"


def _plan(
    tasks: list[str], gold: dict[str, str], per_hit: int, gold_per_hit: int, max_hits: int,
    rng: random.Random,
) -> list[list[tuple[str, bool]]]:
    """HITs as lists of (task, is_gold), gold items at random positions."""
    if gold_per_hit and len(gold) < gold_per_hit:
        raise XelError(
            f"only {len(gold)} gold item(s) known but {gold_per_hit} are needed per HIT: give "
            "more known answers (hits.gold reference file, or A1 projections) or lower "
            "hits.el_gold / hits.name_gold"
        )
    slots = per_hit - gold_per_hit
    if slots < 1:
        raise XelError("hits: gold items per HIT must be fewer than items per HIT")
    pool = sorted(gold)
    plan = []
    for start in range(0, min(len(tasks), slots * max_hits), slots):
        chosen = [(t, False) for t in tasks[start:start + slots]]
        taken = {t for t, _ in chosen}
        golds = rng.sample([g for g in pool if g not in taken] or pool, gold_per_hit)
        hit = chosen + [(g, True) for g in golds]
        rng.shuffle(hit)
        plan.append(hit)
    return plan


def _write_batch(
    store: Store, config: Config, kind: str, lang: str,
    plan: list[list[tuple[str, bool]]], gold: dict[str, str], rng: random.Random,
    assignments: int,
) -> str:
    now = time.time()
    with store.transaction():
        batch_id = _next_batch_id(store, kind, lang)
        store.execute(
            "INSERT INTO hit_batches VALUES (?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?)",
            (batch_id, kind, lang, STATES[0], config.hits.reward, assignments, now, now),
        )
        nonce = uuid.uuid4().hex[:16]
        for number, hit in enumerate(plan, start=1):
            hit_id = f"{batch_id}-h{number:03d}"
            store.execute(
                "INSERT INTO hit_hits VALUES (?, ?, ?, ?, NULL, NULL, NULL)",
                (hit_id, batch_id, number, f"xel-{hit_id}-{nonce}"),
            )
            rows = []
            for position, (task, is_gold) in enumerate(hit, start=1):
                query_id = task_query(task, lang)
                shown = candidate_ids(store, query_id) if kind == "el" else []
                rng.shuffle(shown)
                rows.append((hit_id, position, task, query_id, int(is_gold),
                             gold.get(task) if is_gold else None, json.dumps(shown)))
            insert_rows(store, "hit_items", rows)
    return batch_id


def _tasks(store: Store, config: Config, candidates: list[str],
           unsure: Sequence[str]) -> tuple[list[str], int]:
    """The tasks of the next batch and its workers per HIT: tasks still to ask (first), else
    the `unsure` ones (tasks the policy left undecided, whose HITs were not worth extending),
    asked of one more worker each."""
    policy = get_policy(config.hits.policy)
    first = policy.first_assignments(config.hits)
    tasks = pending_tasks(store, candidates, first, policy.max_asks(config.hits))
    if tasks:
        return tasks, first
    wanted = set(candidates)
    return [t for t in unsure if t in wanted], 1


def make_el_batch(store: Store, config: Config, unsure: Sequence[str] = ()) -> str | None:
    """A new batch of entity-linking HITs for the queries still needing judgments, or None."""
    store.declare(DDL)
    gold = el_gold(store, config)
    queries = [q.query_id for q in read_queries(store)]
    tasks, assignments = _tasks(store, config, [q for q in queries if q not in gold], unsure)
    if not tasks:
        return None
    rng = random.Random(f"{config.hits.seed}:el:{len(tasks)}")
    plan = _plan(tasks, gold, config.hits.el_items, config.hits.el_gold,
                 config.hits.batch_size, rng)
    return _write_batch(store, config, "el", "", plan, gold, rng, assignments)


def make_name_batch(store: Store, config: Config, lang: str,
                    unsure: Sequence[str] = ()) -> str | None:
    """A new batch of name-curation HITs for one language's projections to curate, or None."""
    store.declare(DDL)
    gold = name_gold(store, lang)
    curate = [t.query_id for t in read_triage(store, lang) if t.outcome == "curate"]
    tasks, assignments = _tasks(store, config, [name_task(lang, q) for q in curate], unsure)
    if not tasks:
        return None
    rng = random.Random(f"{config.hits.seed}:name:{lang}:{len(tasks)}")
    # A language where round trip accepted too few projections has too few gold items: its
    # HITs carry what there is (maybe none), and its workers go unchecked (see `gold_shortfall`).
    plan = _plan(tasks, gold, config.hits.name_items, min(config.hits.name_gold, len(gold)),
                 config.hits.batch_size, rng)
    return _write_batch(store, config, "name", lang, plan, gold, rng, assignments)


def gold_shortfall(store: Store, config: Config, lang: str) -> int:
    """How many gold items each name-curation HIT of `lang` lacks (0: quality is checked)."""
    return max(0, config.hits.name_gold - len(name_gold(store, lang)))
