"""kill -9 in the middle of an adaptive extension round on the local backend, then a rerun:
no judgment lost, none asked twice, the same decisions as a round nobody interrupted.

Workers answer through `hits serve` over HTTP as a browser would (open their link, read the
form, post it); `hits round` takes the round forward between their answers. Both run as real
processes, and each is killed with SIGKILL once: the server while a worker's answers are on
the wire, the round command as soon as it has stored an extension.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from hits.server import PAGE_FIELD, person_link
from hits.store import items
from xel.store import Store

pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent
WORKERS = ["ada", "spam", "bo", "cy", "di", "ed"]
# `spam` answers at random, and every HIT meets it first: some tasks stay unsure after two
# workers, and their HITs are extended.


def answer(worker: str, task: str, truth: str, offered: list[str]) -> str:
    """A worker's answer to an item: the truth, except the spammer's seeded guess."""
    if worker != "spam" and truth in offered:
        return truth
    digest = int(hashlib.sha256(f"{worker}:{task}".encode()).hexdigest(), 16)
    return offered[digest % len(offered)]


@dataclass
class Crowd:
    """The server process and the workers' links, with every answer acknowledged so far."""

    config: Path
    store_path: Path
    truth: dict[str, str]
    links: dict[str, str] = field(default_factory=dict)
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # (worker, task)
    server: subprocess.Popen[bytes] | None = None
    restarts: int = 0
    url: str = ""

    def start_server(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.server = subprocess.Popen(
            [str(BIN / "hits"), "serve", "--port", str(port), "-c", str(self.config)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                httpx.get(f"{self.url}/w/none", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("hits serve did not start")

    def kill_server(self) -> None:
        assert self.server is not None
        os.kill(self.server.pid, signal.SIGKILL)
        self.server.wait()

    def form(self, worker: str) -> tuple[str, dict[str, str]] | None:
        """The worker opens their link: the HIT's form action and the answers they give, or
        None when there is no work for them."""
        page = httpx.get(f"{self.url}/w/{self.links[worker]}", timeout=10).text
        action = re.search(r'<form id="hit-form" method="post" action="([^"]+)"', page)
        if action is None:
            assert "no more work" in page, page[:500]
            return None
        hit_id = action.group(1).rsplit("/", 1)[1]
        token = re.search(rf'name="{PAGE_FIELD}" value="([^"]+)"', page)
        assert token is not None
        fields = {PAGE_FIELD: token.group(1)}
        with Store(self.store_path) as store:
            shown = items(store, hit_id)
        for item in shown:
            name = f"item-{item.position}"
            offered = re.findall(rf'name="{name}" value="([^"]+)"', page)
            fields[name] = answer(worker, item.task, self.truth.get(item.task, ""), offered)
        return action.group(1), fields

    def post(self, worker: str, action: str, fields: dict[str, str]) -> None:
        response = httpx.post(f"{self.url}{action}", data=fields, timeout=10)
        assert response.status_code == 303, response.text[:500]
        hit_id = action.rsplit("/", 1)[1]
        with Store(self.store_path) as store:
            self.acknowledged += [(worker, i.task) for i in items(store, hit_id)]

    def work(self, kill_after: int | None = None) -> None:
        """Every worker in turn takes HITs until none is left; with `kill_after`, the server
        is killed while the answers after that many are on the wire, then restarted, and the
        worker carries on from their link."""
        done = 0
        for worker in WORKERS:
            while (found := self.form(worker)) is not None:
                action, fields = found
                if kill_after is not None and done == kill_after:
                    on_the_wire = threading.Thread(target=self._post_unacknowledged,
                                                   args=(action, fields))
                    on_the_wire.start()
                    time.sleep(0.02)
                    self.kill_server()
                    on_the_wire.join()
                    self.start_server()
                    self.restarts += 1
                    kill_after = None
                    continue
                self.post(worker, action, fields)
                done += 1

    def _post_unacknowledged(self, action: str, fields: dict[str, str]) -> None:
        # The server may die with the answers on the wire: the worker then tries again.
        with contextlib.suppress(httpx.TransportError):
            httpx.post(f"{self.url}{action}", data=fields, timeout=10)


def round_command(config: Path, *, kill_on_extension: Path | None = None) -> int:
    """`hits round` for the local crowd; with `kill_on_extension` (the store), SIGKILL it as
    soon as it has stored a new extension."""
    command = [str(BIN / "hits"), "round", "--backend", "local", "-c", str(config)]
    if kill_on_extension is None:
        return subprocess.run(command, capture_output=True).returncode
    with Store(kill_on_extension) as store:
        before = store.scalar("SELECT COUNT(*) FROM hit_extensions")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while process.poll() is None:
        with Store(kill_on_extension) as store:
            if store.scalar("SELECT COUNT(*) FROM hit_extensions") > before:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
                return -9
        time.sleep(0.002)
    return process.returncode


def state(store_path: Path) -> dict[str, Any]:
    """What the round decided and asked, in terms that do not depend on generated ids."""
    with Store(store_path) as store:
        return {
            "links": dict(store.query("SELECT query_id, label FROM links WHERE policy = "
                                      "'gold-dawid-skene' ORDER BY 1")),
            "judgments": sorted(tuple(r) for r in store.query(
                "SELECT worker, task, label, gold FROM judgments")),
            "hits": sorted(tuple(r) for r in store.query(
                "SELECT h.batch_id, h.ordinal, (SELECT COUNT(*) FROM hit_assignments a WHERE "
                "a.hit_id = h.hit_id), (SELECT MAX(assignments) FROM hit_extensions e WHERE "
                "e.hit_id = h.hit_id) FROM hit_hits h")),
            "extensions_unsent": store.scalar(
                "SELECT COUNT(*) FROM hit_extensions WHERE sent_at IS NULL"),
            "states": sorted(tuple(r) for r in store.query(
                "SELECT batch_id, state FROM hit_batches")),
        }


def run_crowd(tmp: Path, crowd_store: Any, sim_config: Any, *, kill: bool) -> tuple[Crowd,
                                                                                     Any]:
    store, el_truth, _ = crowd_store(tmp, n_queries=26, n_gold=8)
    config = sim_config(tmp, policy="gold-dawid-skene", crowd="local", min_assignments=2,
                        max_assignments=4, el_items=6, el_gold=2)
    path = tmp / "collection.yaml"
    path.write_text(yaml.safe_dump(config.model_dump(mode="json", exclude={"source_file"})))
    links = {w: person_link(store, w, "worker") for w in WORKERS}
    store.close()
    crowd = Crowd(path, tmp / "xel.sqlite", el_truth, links)
    crowd.start_server()
    try:
        assert round_command(path) == 3  # published; waiting for the workers
        crowd.work()
        # Reviewed and sent; unsure HITs extended by one worker each.
        code = round_command(path, kill_on_extension=crowd.store_path if kill else None)
        assert code == (-9 if kill else 3)
        if kill:
            assert round_command(path) == 3  # the rerun finishes what the killed one began
        extended = state(crowd.store_path)["hits"]
        assert any(target for *_, target in extended), "no HIT was extended"
        crowd.work(kill_after=2 if kill else None)
        assert crowd.restarts == int(kill)
        for _ in range(6):  # more extensions, until every task is decided or at the cap
            code = round_command(path)
            if code == 0:
                break
            assert code == 3
            crowd.work()
        assert code == 0
    finally:
        crowd.kill_server()
    return crowd, state(crowd.store_path)


def test_a_killed_round_and_server_lose_nothing_and_decide_alike(
        tmp_path: Path, crowd_store: Any, sim_config: Any) -> None:
    calm, calm_state = run_crowd(tmp_path / "calm", crowd_store, sim_config, kill=False)
    killed, killed_state = run_crowd(tmp_path / "killed", crowd_store, sim_config, kill=True)

    # No judgment lost: every answer a worker was told was received is stored.
    stored = {(w, t) for w, t, _, _ in killed_state["judgments"]}
    assert set(killed.acknowledged) <= stored
    # None asked twice: one answer per worker and task (a known-answer item may come back in
    # another HIT), no HIT over what it asked for.
    asked = [(w, t) for w, t, _, gold in killed_state["judgments"] if not gold]
    assert asked and len(set(asked)) == len(asked)
    for batch_id, ordinal, taken, extended in killed_state["hits"]:
        assert taken <= (extended or 2), (batch_id, ordinal)
    assert killed_state["extensions_unsent"] == 0
    # The same round as if nothing had happened.
    assert killed_state == calm_state
    assert calm_state["links"] and all(s == "aggregated" for _, s in calm_state["states"])
