"""Simulated workers, for planning a collection and for tests. Never mistaken for people:
worker ids start with `SIM-`, assignments and judgments carry `simulated = 1`, and every
report built on them says so.

Each worker's accuracy is drawn once from a normal distribution (default mean 94.6%, sd 11.3%,
as Lawrie et al. observed) clipped to [0, 1]; a share of workers are spammers who answer at
random. Truth comes from the reference file `hits.simulated.truth` when given; otherwise from
the gold answers, then from what the pipeline proposed (the linker's best candidate, the
projection), which is only a planning assumption.
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
    items,
)
from xel.config import Config, SimulatedCrowdConfig
from xel.registry import crowd_backends
from xel.store import Store
from xel.triage import read_triage


@dataclass(frozen=True)
class SimWorker:
    worker: str
    accuracy: float
    spammer: bool


def draw_workers(config: SimulatedCrowdConfig) -> list[SimWorker]:
    """The simulated pool, the same for the same seed."""
    rng = random.Random(f"workers:{config.seed}")
    pool = []
    for n in range(config.workers):
        accuracy = min(1.0, max(0.0, rng.gauss(config.accuracy_mean, config.accuracy_sd)))
        pool.append(SimWorker(f"SIM-{n:04d}", accuracy, rng.random() < config.spammers))
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


def answer(rng: random.Random, worker: SimWorker, truth: str, options: list[str]) -> str:
    """One simulated answer: right with the worker's accuracy, else a wrong option."""
    if worker.spammer:
        return rng.choice(options)
    if rng.random() < worker.accuracy:
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
        self.assignments = config.hits.assignments
        self.workers = draw_workers(self.config)
        self.truth = read_reference(config.resolve(self.config.truth)) if self.config.truth else {}

    def publish(self, hit: HitRequest) -> str:
        return f"sim-{hit.hit_id}"

    def _options(self, item: Item, lang: str) -> list[str]:
        if not lang:
            return [*item.shown, *EL_CHOICES]
        words = shown_targets(self.store, item, lang).split()
        return [*dict.fromkeys(words), MISSING]

    def submissions(self, hit_id: str, external_id: str) -> Iterator[list[Submission]]:
        """The same answers every time for the same HIT, so a rerun collects nothing new."""
        rng = random.Random(f"{self.config.seed}:{hit_id}")
        shown = items(self.store, hit_id)
        lang = self.store.scalar("SELECT b.lang FROM hit_hits h JOIN hit_batches b "
                                 "USING (batch_id) WHERE h.hit_id = ?", (hit_id,))
        chosen = rng.sample(self.workers, min(self.assignments, len(self.workers)))
        page = []
        for worker in chosen:
            answers = {}
            for item in shown:
                answers[field_name(item.position)] = answer(
                    rng, worker, true_answer(self.store, item, lang, self.truth),
                    self._options(item, lang),
                )
            started = time.time()
            seconds = sum(rng.expovariate(1 / self.config.seconds_mean) for _ in shown)
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


@crowd_backends.register("simulated")
def simulated_backend(store: Store, config: Config, **options: Any) -> SimulatedBackend:
    return SimulatedBackend(store, config)
