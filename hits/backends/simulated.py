"""Simulated workers, for planning a collection and for tests. Never mistaken for people:
worker ids start with `SIM-`, assignments and judgments carry `simulated = 1`, and every
report built on them says so.

Each worker's accuracy is drawn once from a normal distribution (default mean 94.6%, sd 11.3%,
as Lawrie et al. observed) clipped to [0, 1]. Shares of the pool behave as real crowds' workers
do (`hits.simulated`): `spammers` answer at random; `first_choice` workers always pick the
first option shown; `colluders` work in pairs giving one shared random answer; `tiring`
workers lose a tenth of their accuracy with each HIT of a batch (down to 30% of it); `fast`
clickers are right half the time and take a second an item. A HIT extended to more workers
(adaptive overlap) draws the next workers of its own seeded order, never one who answered it
or one who was excluded. Truth comes from the reference file `hits.simulated.truth` when
given; otherwise from the gold answers, then from what the pipeline proposed (the linker's
best candidate, the projection), which is only a planning assumption.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hits.backends import HitRequest
from hits.reference import read_reference
from hits.render import shown_targets
from hits.store import (
    EL_CHOICES,
    MISSING,
    NIL,
    Item,
    Submission,
    field_name,
    hit_target,
    items,
)
from xel.config import Config, SimulatedCrowdConfig
from xel.registry import crowd_backends
from xel.store import Store
from xel.triage import read_triage

KINDS = ("spammer", "first_choice", "colluder", "tiring", "fast")


@dataclass(frozen=True)
class SimWorker:
    worker: str
    accuracy: float
    kind: str = "normal"  # or one of KINDS
    pair: int = -1  # a colluder's pair

    @property
    def spammer(self) -> bool:
        return self.kind == "spammer"


def draw_workers(config: SimulatedCrowdConfig) -> list[SimWorker]:
    """The simulated pool, the same for the same seed."""
    rng = random.Random(f"workers:{config.seed}")
    shares = [config.spammers, config.first_choice, config.colluders, config.tiring, config.fast]
    pool = []
    colluders = 0
    for n in range(config.workers):
        accuracy = min(1.0, max(0.0, rng.gauss(config.accuracy_mean, config.accuracy_sd)))
        draw, kind, bound = rng.random(), "normal", 0.0
        for name, share in zip(KINDS, shares, strict=True):
            bound += share
            if draw < bound:
                kind = name
                break
        pair = colluders // 2 if kind == "colluder" else -1
        colluders += kind == "colluder"
        pool.append(SimWorker(f"SIM-{n:04d}", accuracy, kind, pair))
    return pool


def true_answer(store: Store, item: Item, lang: str, truth: dict[str, str]) -> str:
    """What a perfect worker would answer (see the module docstring for the order)."""
    if item.task in truth:
        return truth[item.task]
    if item.gold and item.gold_answer is not None:
        return item.gold_answer
    if not lang:
        return item.shown[0] if item.shown else NIL
    found = read_triage(store, lang, item.query_id)
    return (found[0].projection if found else "") or MISSING


def answer(rng: random.Random, worker: SimWorker, truth: str, options: list[str],
           done: int = 0, shared: random.Random | None = None) -> str:
    """One simulated answer: right with the worker's accuracy (after `done` HITs of the batch,
    for a tiring worker), else a wrong option; `shared` is a colluding pair's common draw."""
    if worker.kind == "spammer":
        return rng.choice(options)
    if worker.kind == "first_choice":
        return options[0]
    if worker.kind == "colluder":
        return (shared or rng).choice(options)
    accuracy = worker.accuracy
    if worker.kind == "tiring":
        accuracy *= max(0.3, 1.0 - 0.1 * done)
    elif worker.kind == "fast":
        accuracy = 0.5
    if rng.random() < accuracy:
        return truth
    wrong = [o for o in options if o != truth]
    return rng.choice(wrong) if wrong else truth


class SimulatedBackend:
    name = "simulated"
    environment = "simulated"
    simulated = True

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config.hits.simulated
        self.workers = draw_workers(self.config)
        self.truth = read_reference(config.resolve(self.config.truth)) if self.config.truth else {}

    def publish(self, hit: HitRequest) -> str:
        return f"sim-{hit.hit_id}"

    def _options(self, item: Item, lang: str) -> list[str]:
        if not lang:
            return [*item.shown, *EL_CHOICES]
        words = shown_targets(self.store, item, lang).split()
        return [*dict.fromkeys(words), MISSING]

    def chosen(self, hit_id: str) -> list[SimWorker]:
        """The HIT's workers: its seeded order of the pool, those who answered it kept, then
        the next ones not excluded who never judged any of its tasks elsewhere, up to the
        assignments it asks for now."""
        order = random.Random(f"{self.config.seed}:{hit_id}").sample(self.workers,
                                                                     len(self.workers))
        answered = {r[0] for r in self.store.query(
            "SELECT worker FROM hit_assignments WHERE hit_id = ?", (hit_id,))}
        barred = {r[0] for r in self.store.query(
            "SELECT worker FROM worker_actions UNION SELECT j.worker FROM judgments j JOIN "
            "hit_items i ON i.task = j.task AND i.gold = 0 WHERE i.hit_id = ? AND "
            "j.hit_id != ? AND j.gold = 0", (hit_id, hit_id))}
        wanted = hit_target(self.store, hit_id)
        return [w for w in order if w.worker in answered or w.worker not in barred][:wanted]

    def submissions(self, hit_id: str, external_id: str) -> Iterator[list[Submission]]:
        """The same answers every time for the same HIT and worker, so a rerun collects
        nothing new."""
        shown = items(self.store, hit_id)
        batch_id, lang, ordinal = self.store.query(
            "SELECT b.batch_id, b.lang, h.ordinal FROM hit_hits h JOIN hit_batches b "
            "USING (batch_id) WHERE h.hit_id = ?", (hit_id,))[0]
        page = []
        for worker in self.chosen(hit_id):
            rng = random.Random(f"{self.config.seed}:{hit_id}:{worker.worker}")
            shared = random.Random(f"{self.config.seed}:{hit_id}:pair{worker.pair}")
            done = self.store.scalar(
                "SELECT COUNT(*) FROM hit_assignments a JOIN hit_hits h USING (hit_id) WHERE "
                "a.batch_id = ? AND a.worker = ? AND h.ordinal < ?",
                (batch_id, worker.worker, ordinal))
            answers = {}
            for item in shown:
                answers[field_name(item.position)] = answer(
                    rng, worker, true_answer(self.store, item, lang, self.truth),
                    self._options(item, lang), done, shared,
                )
            started = time.time()
            mean = 1.0 if worker.kind == "fast" else self.config.seconds_mean
            seconds = sum(rng.expovariate(1 / mean) for _ in shown)
            page.append(Submission(
                assignment_id=f"SIM-{hit_id}-{worker.worker}", worker=worker.worker,
                answers=answers, submitted_at=started + seconds, accepted_at=started,
                raw=json.dumps({"simulated": True, **answers}, ensure_ascii=False),
                simulated=True,
            ))
        yield page

    def approve(self, assignment_id: str, feedback: str) -> None:
        """Simulated workers are not paid: the decision in `payments` is the record."""

    def reject(self, assignment_id: str, feedback: str) -> None:
        """Simulated workers are not paid: the decision in `payments` is the record."""

    def block(self, worker: str, reason: str) -> None:
        """Nothing to send for a simulated worker."""

    def bonus(self, worker: str, assignment_id: str, amount: float, reason: str,
              token: str) -> None:
        """Simulated workers are not paid."""

    def expire(self, external_id: str) -> None:
        """Simulated HITs end when their answers are drawn."""

    def extend(self, external_id: str, hit_id: str, assignments: int, token: str) -> None:
        """Nothing to send: `submissions` draws the HIT's next workers (`hit_extensions`)."""


@crowd_backends.register("simulated")
def simulated_backend(store: Store, config: Config, **options: Any) -> SimulatedBackend:
    return SimulatedBackend(store, config)
