"""Crowd backends behind one interface: publish, list submissions, approve, reject, block, bonus,
expire. They are chosen by name from `xel.registry.crowd_backends` (`mturk`, `local`,
`simulated`); each factory takes `(store, config, **options)`.

Every call that changes the outside world carries an idempotency token or is safe to repeat, so
the workflow can replay a step after a crash.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from hits.store import Submission
from xel.config import Config
from xel.registry import crowd_backends
from xel.store import Store


@dataclass(frozen=True)
class HitRequest:
    """What a backend needs to publish one HIT."""

    hit_id: str
    token: str  # idempotency token, unique per HIT and collection
    kind: str  # el or name
    title: str
    reward: float  # dollars per assignment
    assignments: int


class CrowdBackend(Protocol):
    name: str
    environment: str  # sandbox, live, local or simulated
    simulated: bool

    def publish(self, hit: HitRequest) -> str:
        """Create the HIT (idempotent on `hit.token`) and return the backend's HIT id."""
        ...

    def submissions(self, hit_id: str, external_id: str) -> Iterator[list[Submission]]:
        """Submitted assignments of a HIT, one page at a time."""
        ...

    def approve(self, assignment_id: str, feedback: str) -> None: ...

    def reject(self, assignment_id: str, feedback: str) -> None: ...

    def block(self, worker: str, reason: str) -> None: ...

    def bonus(self, worker: str, assignment_id: str, amount: float, reason: str,
              token: str) -> None: ...

    def expire(self, external_id: str) -> None: ...

    def extend(self, external_id: str, hit_id: str, assignments: int, token: str) -> None:
        """Ask one more worker of a HIT (now `assignments` in all); idempotent on `token`."""
        ...


def get_backend(name: str, store: Store, config: Config, **options: Any) -> CrowdBackend:
    """The named backend, built for this store and config."""
    factory = crowd_backends.get(name)
    backend: CrowdBackend = factory(store, config, **options)
    return backend
