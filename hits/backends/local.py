"""The local backend: your own annotators answer the very same HTML through `hits serve`.

The web app (hits.server) stores each submission as it arrives, so there is nothing to fetch;
payments to local annotators happen outside xel, so approvals only need recording.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hits.backends import HitRequest
from hits.store import Submission
from xel.config import Config
from xel.registry import crowd_backends
from xel.store import Store


class LocalBackend:
    name = "local"
    environment = "local"
    simulated = False

    def publish(self, hit: HitRequest) -> str:
        return f"local-{hit.hit_id}"

    def submissions(self, hit_id: str, external_id: str) -> Iterator[list[Submission]]:
        return iter(())

    def approve(self, assignment_id: str, feedback: str) -> None:
        """Nothing to send: the decision in `payments` is the record."""

    def reject(self, assignment_id: str, feedback: str) -> None:
        """Nothing to send: the decision in `payments` is the record."""

    def block(self, worker: str, reason: str) -> None:
        """Nothing to send: `hits serve` stops giving work to a dropped worker's link."""

    def bonus(self, worker: str, assignment_id: str, amount: float, reason: str,
              token: str) -> None:
        """Nothing to send: local annotators are paid outside xel."""

    def expire(self, external_id: str) -> None:
        """Nothing to send: `hits serve` shows only HITs that are not expired."""

    def extend(self, external_id: str, hit_id: str, assignments: int, token: str) -> None:
        """Nothing to send: `hits serve` offers the reopened HIT to workers who have not
        answered it until it has its new number of assignments (`hit_extensions`)."""


@crowd_backends.register("local")
def local_backend(store: Store, config: Config, **options: Any) -> LocalBackend:
    return LocalBackend()
