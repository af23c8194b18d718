"""The local web app in headless Chromium: workers answer HITs, the admin sees progress, an
expert curates; hostile corpus strings show as text and never run."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient

from hits.backends import get_backend
from hits.make import make_el_batch, make_name_batch
from hits.render import static_file
from hits.server import create_app, person_link
from hits.store import items
from hits.workflow import collect_batch, publish_batch, review_batch
from xel.report import rejected, sections
from xel.store import Store

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def local_collection(tmp_path: Path, crowd_store: Any, sim_config: Any,
                     hostile: Any) -> tuple[Store, dict[str, str]]:
    """8 queries: one EL HIT and one curation HIT published locally, one expert case queued."""
    script, img = hostile
    store, _, _ = crowd_store(tmp_path, n_queries=8, n_gold=4)
    cfg = sim_config(tmp_path)
    backend = get_backend("local", store, cfg)
    for batch_id in (make_el_batch(store, cfg), make_name_batch(store, cfg, "deu")):
        assert batch_id
        publish_batch(store, cfg, batch_id, backend)
    with store.transaction():
        store.execute("INSERT INTO expert_queue VALUES ('deu', 'q001', ?, 0)",
                      (json.dumps([["W1", "Anna Meyer1s"], ["W2", script], ["W3", img]]),))
    links = {role: person_link(store, person, role) for person, role in
             (("ada", "worker"), ("admin", "admin"), ("eve", "expert"))}
    person_link(store, script, "worker")
    return store, links


@pytest.fixture
def served(local_collection: Any) -> Iterator[tuple[str, Store, dict[str, str]]]:
    store, links = local_collection
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


def test_worker_admin_and_expert_in_a_browser(served: Any, browser: Any, hostile: Any) -> None:
    script, img = hostile
    url, store, links = served
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    blocked: list[str] = []  # anything the Content-Security-Policy stopped
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: blocked.append(m.text)
            if "Content Security Policy" in m.text else None)

    # An entity-linking HIT: hostile passage text is shown as text. The same link open in a
    # second tab shows the same HIT, whose second submission is refused as already received.
    page.goto(f"{url}/w/{links['worker']}")
    other = context.new_page()
    other.goto(f"{url}/w/{links['worker']}")
    assert page.title() == other.title() == "Which person is this?"
    passage = page.locator(".passage").first.inner_text()
    assert img in passage
    assert script in page.locator(".description").first.inner_text()
    for tab, answer in ((page, "NIL"), (other, "NEI")):
        for n in range(1, 7):
            tab.check(f'input[name="item-{n}"][value="{answer}"]')
    page.click("#submit-button")
    page.wait_for_url(f"{url}/w/{links['worker']}")
    other.click("#submit-button")
    other.wait_for_selector("text=Already received")
    assert "were not stored" in other.inner_text("body")
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
    assert script in page.inner_text("body")
    assert "1 / 3" in page.inner_text("body")  # one of three assignments per HIT received

    # The expert: every worker's answer as text; clicking a token picks the name.
    page.goto(f"{url}/expert/{links['expert']}")
    page.click("text=deu: Anna Meyer1")
    assert script in page.inner_text("body") and img in page.inner_text("body")
    tokens = page.locator('td[data-seg="4"] .token')
    page.click('td[data-seg="4"] .token >> text=Anna')
    page.click('td[data-seg="4"] .token >> text=Meyer1s')
    assert page.input_value("#name") == "Anna Meyer1s"
    assert tokens.count() > 2
    page.click("#save-name")
    page.wait_for_selector("text=Nothing is waiting")
    decision = store.query("SELECT expert, name, seg, start FROM expert_decisions")
    assert [tuple(r) for r in decision] == [("eve", "Anna Meyer1s", 4, 12)]
    assert store.scalar("SELECT outcome FROM name_outcomes WHERE query_id = 'q001'") == "E"
    assert dialogs == []  # no injected script ever ran
    assert blocked == []  # the pages' own script and style load under the CSP


# --- submissions through a real HTTP client against `hits serve`'s app ----------------------


def hit_form(html: str) -> tuple[str, str]:
    """The form's action and its page token, as a browser would post them."""
    action = re.search(r'<form id="hit-form" method="post" action="([^"]+)"', html)
    page = re.search(r'name="page" value="([^"]+)"', html)
    assert action and page, html[:500]
    return action.group(1), page.group(1)


def el_answers(store: Store, hit_id: str, answer: str = "NIL") -> dict[str, str]:
    return {f"item-{it.position}": answer for it in items(store, hit_id)}


def gold_right(store: Store, hit_id: str, right: bool) -> dict[str, str]:
    """Answers to an EL HIT with its gold items right (or all wrong) and NIL elsewhere."""
    return {f"item-{it.position}": (it.gold_answer if right else "NOT_PERSON")
            if it.gold else "NIL" for it in items(store, hit_id)}


def refusals(store: Store) -> list[tuple[str, str, str]]:
    return [(r[0], r[1], r[2]) for r in store.query(
        "SELECT worker, hit_id, reason FROM refusals ORDER BY refusal_id")]


def el_hit(store: Store) -> str:
    return str(store.scalar("SELECT hit_id FROM hit_hits WHERE batch_id = 'el-001'"))


def name_hit(store: Store) -> str:
    return str(store.scalar("SELECT hit_id FROM hit_hits WHERE batch_id = 'name-deu-001'"))


def test_a_hit_never_shown_to_the_worker_is_refused_not_stored(tmp_path: Path,
        local_collection: Any) -> None:
    store, links = local_collection
    bob = person_link(store, "bob", "worker")
    client = TestClient(create_app(str(store.path)))
    action, page = hit_form(client.get(f"/w/{links['worker']}").text)
    assert action == f"/w/{links['worker']}/hits/{el_hit(store)}"
    # bob never opened his link, and ada never got the name HIT: both are refused.
    for link, hit_id, answers in ((bob, el_hit(store), el_answers(store, el_hit(store))),
                                  (links["worker"], name_hit(store), {"item-1": "MISSING"})):
        refused = client.post(f"/w/{link}/hits/{hit_id}", data={**answers, "page": page},
                              follow_redirects=False)
        assert refused.status_code == 403 and "was not given to you" in refused.text
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 0
    assert store.scalar("SELECT COUNT(*) FROM judgments") == 0
    assert refusals(store) == [("bob", el_hit(store), "not-shown"),
                               ("ada", name_hit(store), "not-shown")]


def test_a_fourth_worker_is_refused_on_a_hit_of_three_assignments(tmp_path: Path,
        local_collection: Any) -> None:
    store, _ = local_collection
    client = TestClient(create_app(str(store.path), hold=0))  # nobody is steered away
    workers = [person_link(store, f"w{n}", "worker") for n in range(4)]
    forms = [hit_form(client.get(f"/w/{link}").text) for link in workers]
    assert {action.rsplit("/", 1)[1] for action, _ in forms} == {el_hit(store)}
    statuses = [client.post(action, data={**el_answers(store, el_hit(store)), "page": page},
                            follow_redirects=False).status_code for action, page in forms]
    assert statuses == [303, 303, 303, 409]
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments WHERE hit_id = ?",
                        (el_hit(store),)) == 3
    assert store.scalar("SELECT COUNT(*) FROM judgments WHERE worker = 'w3'") == 0
    assert refusals(store) == [("w3", el_hit(store), "full")]


def test_workers_are_steered_to_hits_that_still_have_room(tmp_path: Path,
        local_collection: Any) -> None:
    store, _ = local_collection
    client = TestClient(create_app(str(store.path)))
    titles = [re.search(r"<title>(.*)</title>", client.get(
        f"/w/{person_link(store, f'w{n}', 'worker')}").text).group(1)  # type: ignore[union-attr]
        for n in range(4)]
    assert titles == ["Which person is this?"] * 3 + ["Find the name in German"]


def test_answers_outside_what_was_shown_are_refused_not_stored(tmp_path: Path,
        local_collection: Any) -> None:
    store, links = local_collection
    client = TestClient(create_app(str(store.path)))
    link = links["worker"]
    action, page = hit_form(client.get(f"/w/{link}").text)
    offered = {*items(store, el_hit(store))[0].shown, "NIL", "NEI", "NOT_PERSON"}
    for bad in ("enwiki:307", "Q1", "<script>x</script>"):
        assert bad not in offered
        answers = {**el_answers(store, el_hit(store)), "item-2": bad, "page": page}
        refused = client.post(action, data=answers, follow_redirects=False)
        assert refused.status_code == 400 and "is not one of the choices shown" in refused.text
        assert "<script>x</script>" not in refused.text  # shown as text
    incomplete = client.post(action, data={"item-1": "NIL", "page": page},
                             follow_redirects=False)
    assert incomplete.status_code == 400 and "item 2: no answer" in incomplete.text
    assert store.scalar("SELECT COUNT(*) FROM judgments") == 0
    assert [r[2] for r in refusals(store)] == ["not-offered"] * 3 + ["incomplete"]
    assert "'Q1' is not one of the choices shown" in store.scalar(
        "SELECT detail FROM refusals WHERE answers LIKE '%Q1%'")
    # The worker can go back and fix: the same page's form is still good.
    assert client.post(action, data={**el_answers(store, el_hit(store)), "page": page},
                       follow_redirects=False).status_code == 303

    # A name answer must occur in the sentences shown, once per item.
    action, page = hit_form(client.get(f"/w/{link}").text)
    shown = items(store, name_hit(store))
    names = {f"item-{it.position}": "MISSING" for it in shown}
    for item, why in (("Nobody Atall", "does not occur in the translated sentences"),
                      (["Anna", "MISSING"], "give one answer, not 2")):
        refused = client.post(action, data={**names, "item-1": item, "page": page},
                              follow_redirects=False)
        assert refused.status_code == 400 and why in refused.text
    assert store.scalar("SELECT COUNT(*) FROM judgments WHERE hit_id = ?",
                        (name_hit(store),)) == 0


def test_time_on_task_runs_from_when_the_page_was_served(tmp_path: Path,
        local_collection: Any) -> None:
    store, links = local_collection
    client = TestClient(create_app(str(store.path)))
    action, page = hit_form(client.get(f"/w/{links['worker']}").text)
    served = store.scalar("SELECT served_at FROM page_views WHERE token = ?", (page,))
    time.sleep(0.05)
    done = client.post(action, data={**el_answers(store, el_hit(store)), "page": page,
                                     "started": "9999999999"}, follow_redirects=False)
    assert done.status_code == 303
    row = store.query("SELECT accepted_at, submitted_at, answer FROM hit_assignments")[0]
    assert row["accepted_at"] == served and row["submitted_at"] - served >= 0.05
    assert "started" not in row["answer"] and "page" not in row["answer"]
    seconds = store.scalar("SELECT MIN(seconds) FROM judgments")
    assert seconds == pytest.approx((row["submitted_at"] - served) / 6)
    assert store.scalar("SELECT used_at FROM page_views WHERE token = ?", (page,)) is not None


def test_a_second_submission_says_it_was_already_received(tmp_path: Path,
        local_collection: Any) -> None:
    store, links = local_collection
    client = TestClient(create_app(str(store.path)))
    action, page = hit_form(client.get(f"/w/{links['worker']}").text)
    first = client.post(action, data={**el_answers(store, el_hit(store)), "page": page},
                        follow_redirects=False)
    assert first.status_code == 303
    again = client.post(action, data={**el_answers(store, el_hit(store), "NEI"), "page": page},
                        follow_redirects=False)
    assert again.status_code == 409 and "Already received" in again.text
    assert "were received already" in again.text
    assert {r[0] for r in store.query("SELECT label FROM judgments")} == {"NIL"}
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 1
    assert refusals(store) == [("ada", el_hit(store), "duplicate")]


def test_posts_need_their_page_token_and_the_same_origin(tmp_path: Path,
        local_collection: Any) -> None:
    store, links = local_collection
    client = TestClient(create_app(str(store.path)))
    action, page = hit_form(client.get(f"/w/{links['worker']}").text)
    answers = el_answers(store, el_hit(store))
    for data, headers in (
        (answers, {}),                                              # no token
        ({**answers, "page": "forged"}, {}),                        # not ours
        ({**answers, "page": page}, {"Origin": "http://evil.example"}),
        ({**answers, "page": page}, {"Sec-Fetch-Site": "cross-site"}),
    ):
        refused = client.post(action, data=data, headers=headers, follow_redirects=False)
        assert refused.status_code == 403 and refused.headers["x-refused"] in (
            "stale-page", "cross-origin")
    assert [r[2] for r in refusals(store)] == ["stale-page", "stale-page", "cross-origin",
                                               "cross-origin"]
    assert store.scalar("SELECT COUNT(*) FROM hit_assignments") == 0
    ok = client.post(action, data={**answers, "page": page}, follow_redirects=False,
                     headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 303

    # The expert's form carries its page's token too.
    case = f"/expert/{links['expert']}/deu/q001"
    assert client.post(case, data={"name": "Anna Meyer1s"}).status_code == 403
    expert_page = client.get(case).text
    token = re.search(r'name="page" value="([^"]+)"', expert_page)
    assert token
    assert client.post(case, data={"name": "Anna Meyer1s", "page": token.group(1)},
                       headers={"Origin": "http://evil.example"}).status_code == 403
    assert store.scalar("SELECT COUNT(*) FROM expert_decisions") == 0
    saved = client.post(case, data={"name": "Anna Meyer1s", "page": token.group(1)},
                        follow_redirects=False)
    assert saved.status_code == 303
    assert store.scalar("SELECT COUNT(*) FROM expert_decisions") == 1


def test_pages_run_no_inline_script(tmp_path: Path, local_collection: Any) -> None:
    store, links = local_collection
    client = TestClient(create_app(str(store.path)))
    worker = links["worker"]
    pages = [client.get(f"/w/{worker}")]
    action, page = hit_form(pages[0].text)
    client.post(action, data={**el_answers(store, el_hit(store)), "page": page})
    pages += [client.get(f"/w/{worker}"), client.get(f"/admin/{links['admin']}"),
              client.get(f"/expert/{links['expert']}"),
              client.get(f"/expert/{links['expert']}/deu/q001"), client.get("/w/unknown")]
    assert "Find the name" in pages[1].text
    for response in pages:
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "img-src 'none'" in csp and "form-action 'self'" in csp
        assert "<style" not in response.text
        for tag in re.findall(r"<script[^>]*>", response.text):
            assert re.fullmatch(r'<script src="/static/(hit|expert)\.js">', tag)
    for name, kind in (("hit.js", "javascript"), ("expert.js", "javascript"),
                       ("hits.css", "text/css")):
        served = client.get(f"/static/{name}")
        assert served.status_code == 200 and kind in served.headers["content-type"]
        assert served.text == static_file(name)


def test_unknown_links_closed_hits_and_excluded_workers_are_refused(tmp_path: Path,
        local_collection: Any) -> None:
    store, links = local_collection
    client = TestClient(create_app(str(store.path)))
    action, page = hit_form(client.get(f"/w/{links['worker']}").text)
    form = {**el_answers(store, el_hit(store)), "page": page}
    assert client.post(f"/w/not-a-link/hits/{el_hit(store)}", data=form).status_code == 404
    assert client.post(f"/w/{links['worker']}/hits/el-001-h999", data=form).status_code == 404
    with store.transaction():
        store.execute("INSERT INTO worker_actions VALUES ('el-000', 'ada', 'exclude', 'test', "
                      "0, NULL)")
    assert client.post(action, data=form).status_code == 403
    with store.transaction():
        store.execute("DELETE FROM worker_actions")
        store.execute("UPDATE hit_hits SET expired_at = 1 WHERE hit_id = ?", (el_hit(store),))
    closed = client.post(action, data=form)
    assert closed.status_code == 409 and "no longer takes answers" in closed.text
    assert refusals(store) == [("", el_hit(store), "unknown-link"),
                               ("ada", "el-001-h999", "no-such-hit"),
                               ("ada", el_hit(store), "excluded"),
                               ("ada", el_hit(store), "closed")]
    assert store.scalar("SELECT COUNT(*) FROM judgments") == 0
    assert client.get("/w/not-a-token").status_code == 404
    assert client.get(f"/admin/{links['worker']}").status_code == 404
    admin = client.get(f"/admin/{links['admin']}").text
    assert "4 submission(s) refused" in admin and "unknown-link" in admin


def test_a_worker_under_the_threshold_on_gold_is_not_paid(tmp_path: Path, sim_config: Any,
        local_collection: Any) -> None:
    """Gold checks drop a worker, and the payment decision follows: reject (not paid)."""
    store, _ = local_collection
    cfg = sim_config(tmp_path)
    client = TestClient(create_app(str(store.path)))
    for n, right in enumerate((True, True, False)):
        action, page = hit_form(client.get(f"/w/{person_link(store, f'w{n}', 'worker')}").text)
        answers = gold_right(store, el_hit(store), right)
        assert client.post(action, data={**answers, "page": page},
                           follow_redirects=False).status_code == 303
    local = get_backend("local", store, cfg)
    collect_batch(store, "el-001", local)
    review_batch(store, cfg, "el-001")
    decided = {r[0]: (r[1], r[2]) for r in store.query(
        "SELECT worker, decision, reason FROM payments")}
    assert decided["w0"] == decided["w1"] == ("approve", "thank you")
    assert decided["w2"][0] == "reject"
    assert "0 of 2 known-answer items right" in decided["w2"][1]
    assert store.scalar("SELECT dropped FROM worker_gold WHERE worker = 'w2'") == 1
    # The report shows the rejection (and refusals, none here).
    names = [s.title for s in sections(store, cfg)]
    assert "Rejected assignments" in names and "Refused submissions" in names
    table = rejected(store)
    assert table.to_dict("records") == [{"batch": "el-001", "worker": "w2", "assignments": 1,
                                         "reason": decided["w2"][1]}]


def test_the_expert_sees_each_answer_with_support_and_scores_and_picks_one_in_a_click(
        tmp_path: Path, local_collection: Any) -> None:
    store, links = local_collection
    with store.transaction():
        store.execute("UPDATE expert_queue SET answers = ? WHERE query_id = 'q001'", (json.dumps(
            [["W1", "Anna Meyer1s", 0.95], ["W2", "Anna Meyer1s", 0.9], ["W3", "Meyer1s", 0.4],
             ["W4", "MISSING", 0.5]]),))
    client = TestClient(create_app(str(store.path)))
    case = f"/expert/{links['expert']}/deu/q001"
    html = client.get(case).text
    table = html.split('class="grid choices"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<td class="answer" lang="deu">([^<]*)</td><td>([^<]*)</td>', table)
    assert rows == [("Anna Meyer1s", "1.85"), ("MISSING", "0.50"), ("Meyer1s", "0.40")]
    assert "W1 (95%), W2 (90%)" in table
    assert "<mark>Anna Meyer1</mark>" in html  # the English name, in the English sentence
    assert re.search(r'class="token proposed"[^>]*>Meyer1s<', html)  # a proposed span
    token = re.search(r'name="page" value="([^"]+)"', html)
    assert token
    # One click: the first choice's own form.
    form = re.search(r'<input type="hidden" name="name" value="([^"]+)">', table)
    assert form and form.group(1) == "Anna Meyer1s"
    saved = client.post(case, data={"page": token.group(1), "name": form.group(1),
                                    "action": "name"}, follow_redirects=False)
    assert saved.status_code == 303
    assert [tuple(r) for r in store.query("SELECT name FROM expert_decisions")] == [
        ("Anna Meyer1s",)]
