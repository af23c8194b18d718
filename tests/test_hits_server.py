"""The local web app in headless Chromium: workers answer HITs, the admin sees progress, an
expert curates; hostile corpus strings show as text and never run."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient
from test_hits_fixtures import IMG, SCRIPT, build, sim_config

from hits.backends import get_backend
from hits.make import make_el_batch, make_name_batch
from hits.server import create_app, person_link
from hits.store import items
from hits.workflow import publish_batch
from xel.store import Store

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def local_collection(tmp_path: Path) -> tuple[Store, dict[str, str]]:
    """8 queries: one EL HIT and one curation HIT published locally, one expert case queued."""
    store, _, _ = build(tmp_path, n_queries=8, n_gold=4)
    cfg = sim_config(tmp_path)
    backend = get_backend("local", store, cfg)
    for batch_id in (make_el_batch(store, cfg), make_name_batch(store, cfg, "deu")):
        assert batch_id
        publish_batch(store, cfg, batch_id, backend)
    with store.transaction():
        store.execute("INSERT INTO expert_queue VALUES ('deu', 'q001', ?, 0)",
                      (json.dumps([["W1", "Anna Meyer1s"], ["W2", SCRIPT], ["W3", IMG]]),))
    links = {role: person_link(store, person, role) for person, role in
             (("ada", "worker"), ("admin", "admin"), ("eve", "expert"))}
    person_link(store, SCRIPT, "worker")
    return store, links


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Store, dict[str, str]]]:
    store, links = local_collection(tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(str(store.path)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 10
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", store, links
    server.should_exit = True
    thread.join(5)


@pytest.fixture
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def test_worker_admin_and_expert_in_a_browser(served: Any, browser: Any) -> None:
    url, store, links = served
    page = browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    # An entity-linking HIT: hostile passage text is shown as text.
    page.goto(f"{url}/w/{links['worker']}")
    assert page.title() == "Which person is this?"
    passage = page.locator(".passage").first.inner_text()
    assert IMG in passage
    assert SCRIPT in page.locator(".description").first.inner_text()
    for n in range(1, 7):
        page.check(f'input[name="item-{n}"][value="NIL"]')
    page.click("#submit-button")
    page.wait_for_url(f"{url}/w/{links['worker']}")
    labels = store.query("SELECT label FROM judgments WHERE worker = 'ada'")
    assert [r[0] for r in labels] == ["NIL"] * 6

    # The curation HIT: an answer not in the sentences is refused before submit.
    assert page.title() == "Find the name in German"
    hit_id = store.scalar("SELECT hit_id FROM hit_hits WHERE batch_id = 'name-deu-001'")
    shown = items(store, hit_id)
    page.fill('input.answer[name="item-1"]', "Nobody Atall")
    page.click("#submit-button")
    assert "does not occur in the translated sentences" in page.inner_text("#warning")
    assert store.scalar("SELECT COUNT(*) FROM judgments WHERE hit_id = ?", (hit_id,)) == 0
    expected = {}
    for it in shown:
        if it.position == 2:
            page.check('input.missing[name="item-2"]')
            expected[2] = "MISSING"
        else:
            name = store.scalar("SELECT projection FROM triage WHERE query_id = ?",
                                (it.query_id,))
            page.fill(f'input.answer[name="item-{it.position}"]', name)
            expected[it.position] = name
    page.click("#submit-button")
    page.wait_for_selector("text=There is no more work for you")
    stored = dict(store.query("SELECT position, label FROM judgments WHERE hit_id = ?",
                              (hit_id,)))
    assert stored == expected

    # The admin page: progress, and a hostile worker name as text.
    page.goto(f"{url}/admin/{links['admin']}")
    assert SCRIPT in page.inner_text("body")
    assert "1 / 3" in page.inner_text("body")  # one of three assignments per HIT received

    # The expert: every worker's answer as text; clicking a token picks the name.
    page.goto(f"{url}/expert/{links['expert']}")
    page.click("text=deu: Anna Meyer1")
    assert SCRIPT in page.inner_text("body") and IMG in page.inner_text("body")
    tokens = page.locator('td[data-seg="4"] .token')
    page.click('td[data-seg="4"] .token >> text=Anna')
    page.click('td[data-seg="4"] .token >> text=Meyer1s')
    assert page.input_value("#name") == "Anna Meyer1s"
    assert tokens.count() > 2
    page.click('button[value="name"]')
    page.wait_for_selector("text=Nothing is waiting")
    decision = store.query("SELECT expert, name, seg, start FROM expert_decisions")
    assert [tuple(r) for r in decision] == [("eve", "Anna Meyer1s", 4, 12)]
    assert store.scalar("SELECT outcome FROM name_outcomes WHERE query_id = 'q001'") == "E"
    assert dialogs == []  # no injected script ever ran


def test_submissions_are_stored_once_and_checked(tmp_path: Path) -> None:
    store, links = local_collection(tmp_path)
    client = TestClient(create_app(str(store.path)))
    page = client.get(f"/w/{links['worker']}")
    assert page.status_code == 200 and SCRIPT not in page.text
    assert "img-src 'none'" in page.headers["content-security-policy"]
    hit_id = store.scalar("SELECT hit_id FROM hit_hits WHERE batch_id = 'el-001'")
    form = {f"item-{n}": "NEI" for n in range(1, 7)}
    incomplete = client.post(f"/w/{links['worker']}/hits/{hit_id}", data={"item-1": "NIL"},
                             follow_redirects=False)
    assert incomplete.status_code == 400 and "item 2: no answer" in incomplete.text
    for _ in range(2):
        done = client.post(f"/w/{links['worker']}/hits/{hit_id}", data=form,
                           follow_redirects=False)
        assert done.status_code == 303
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 1
    with store.transaction():
        store.execute("UPDATE hit_hits SET expired_at = 1 WHERE hit_id = ?", (hit_id,))
    closed = client.post(f"/w/{links['worker']}/hits/{hit_id}", data=form)
    assert closed.status_code == 409
    assert client.post(f"/w/{links['worker']}/hits/el-001-h999", data=form).status_code == 409
    assert client.get("/w/not-a-token").status_code == 404
    assert client.get(f"/admin/{links['worker']}").status_code == 404
