"""The local web app (`hits serve`): HIT pages for your own annotators, an admin page with
batch progress and refusals, and the expert curation queue.

Everyone gets a link with an unguessable token (`person_link` makes them). A worker's link shows
the next HIT of a batch published with the `local` backend that still needs answers. Every page
with a form is recorded with its own token (`page_views`), so a POST is accepted only from a
page served to that person for that HIT, and time on task runs from when the page was served.

A submission is stored only for a HIT that is open, was shown to that worker and still needs
assignments, with every item answered by one of the choices shown (entity linking) or by text of
the sentences shown (names). Anything else gets a 4xx page and a row in `refusals` (who, what,
why, when), never a judgment. Checking and storing happen in one immediate transaction, so
concurrent submissions never give a HIT more assignments than it asks for.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from hits import curate
from hits.cost import CENT, per_assignment
from hits.render import offered, render, render_hit, shown_targets
from hits.store import (
    MISSING,
    TARGET,
    Submission,
    batches,
    field_name,
    hit_target,
    items,
    open_tables,
    record_submission,
)
from xel.corpus import document
from xel.errors import XelError
from xel.languages import language
from xel.store import Store

_WORD = re.compile(r"\w+")
PAGE_FIELD = "page"
# A page served to another worker holds one of a HIT's open places for this long, so
# concurrent workers are steered to different HITs (a soft hold: it never refuses anyone).
HOLD_SECONDS = 3600.0

# Why a submission was refused: reason -> (HTTP status, page title).
REFUSALS = {
    "unknown-link": (404, "Unknown link"),
    "cross-origin": (403, "Not accepted"),
    "no-such-hit": (404, "No such task"),
    "closed": (409, "This task is closed"),
    "excluded": (403, "No more work for this link"),
    "duplicate": (409, "Already received"),
    "not-shown": (403, "This task was not given to you"),
    "stale-page": (403, "Please reload the task"),
    "full": (409, "This task is complete"),
    "incomplete": (400, "Please go back and fix"),
    "not-offered": (400, "Please go back and fix"),
}


def open_store(path: str) -> Store:
    """A store with the crowd's tables declared (xel's tables are declared by the functions
    that read them)."""
    return open_tables(Store(path))


def person_link(store: Store, person: str, role: str) -> str:
    """The token of a person's link in a role, made on first use."""
    open_tables(store)
    with store.transaction():
        token = store.scalar("SELECT token FROM local_people WHERE person = ? AND role = ?",
                             (person, role))
        if token is None:
            token = secrets.token_urlsafe(24)
            store.execute("INSERT INTO local_people VALUES (?, ?, ?, ?)",
                          (token, person, role, time.time()))
    return str(token)


def _person(store: Store, token: str, role: str) -> str | None:
    person = store.scalar("SELECT person FROM local_people WHERE token = ? AND role = ?",
                          (token, role))
    return None if person is None else str(person)


def _excluded(store: Store, worker: str) -> bool:
    return bool(store.scalar("SELECT 1 FROM worker_actions WHERE worker = ?", (worker,)))


def next_hit(store: Store, worker: str, now: float, hold: float = HOLD_SECONDS) -> str | None:
    """The HIT to give this worker now, or None: an open local HIT they have not answered that
    still needs assignments; first one whose page they already have, then one whose open
    places are not all held by pages recently served to others, in batch and HIT order."""
    if _excluded(store, worker):
        return None
    found = store.scalar(
        "SELECT hit_id FROM (SELECT h.hit_id, b.created_at, h.ordinal, "
        f" {TARGET} - (SELECT COUNT(*) FROM hit_assignments a WHERE a.hit_id = h.hit_id)"
        "  AS room,"
        " (SELECT COUNT(DISTINCT v.person) FROM page_views v WHERE v.target = h.hit_id AND "
        "  v.role = 'worker' AND v.person != ? AND v.used_at IS NULL AND v.served_at > ? AND "
        "  NOT EXISTS (SELECT 1 FROM hit_assignments a WHERE a.hit_id = h.hit_id AND "
        "  a.worker = v.person)) AS held,"
        " EXISTS (SELECT 1 FROM page_views v WHERE v.target = h.hit_id AND v.role = 'worker' "
        "  AND v.person = ?) AS mine "
        " FROM hit_hits h JOIN hit_batches b USING (batch_id) "
        " WHERE b.backend = 'local' AND b.state = 'published' AND h.external_id IS NOT NULL "
        " AND h.expired_at IS NULL AND NOT EXISTS (SELECT 1 FROM hit_assignments a "
        " WHERE a.hit_id = h.hit_id AND a.worker = ?) AND NOT EXISTS (SELECT 1 FROM hit_items i"
        " JOIN judgments j ON j.task = i.task AND j.gold = 0 WHERE i.hit_id = h.hit_id AND "
        " i.gold = 0 AND j.worker = ?)) "
        "WHERE room > 0 ORDER BY mine DESC, held >= room, created_at, ordinal LIMIT 1",
        (worker, now - hold, worker, worker, worker),
    )
    return None if found is None else str(found)


def serve_page(store: Store, person: str, role: str, target: str, now: float) -> str:
    """Record a page with a form served to a person; its token goes into the form."""
    token = secrets.token_urlsafe(18)
    store.execute("INSERT INTO page_views VALUES (?, ?, ?, ?, ?, NULL)",
                  (token, person, role, target, now))
    return token


def answer_values(fields: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Posted item fields -> their distinct non-empty values (a name item's text box and its
    Missing box share a field; an unticked box or an empty box sends nothing or '')."""
    values: dict[str, list[str]] = {}
    for key, value in fields:
        if key.startswith("item-"):
            found = values.setdefault(key, [])
            if value.strip() and value.strip() not in found:
                found.append(value.strip())
    return values


def answer_problems(store: Store, hit_id: str, kind: str, lang: str,
                    values: dict[str, list[str]]) -> tuple[str, list[str]]:
    """What is wrong with a HIT's answers: ('incomplete' or 'not-offered', problems), or
    ('', []) when every item has exactly one answer among what it showed."""
    missing, wrong = [], []
    for number, item in enumerate(items(store, hit_id), start=1):
        given = values.get(field_name(item.position), [])
        if not given:
            missing.append(f"item {number}: no answer")
        elif len(given) > 1:
            wrong.append(f"item {number}: give one answer, not {len(given)}")
        elif kind == "el" and given[0] not in offered(store, item):
            wrong.append(f"item {number}: {given[0]!r} is not one of the choices shown")
        elif kind == "name" and given[0] != MISSING and given[0] not in shown_targets(
                store, item, lang):
            wrong.append(f"item {number}: {given[0]!r} does not occur in the translated "
                         "sentences")
    if wrong:
        return "not-offered", wrong + missing
    return ("incomplete", missing) if missing else ("", [])


@dataclass(frozen=True)
class Outcome:
    """What became of a submission: stored (reason '') or refused, and the lines to show."""

    reason: str
    lines: tuple[str, ...] = ()
    worker: str = ""

    @property
    def status(self) -> int:
        return REFUSALS[self.reason][0] if self.reason else 303


def _check(store: Store, worker: str, hit_id: str, page: str,
           values: dict[str, list[str]]) -> Outcome | sqlite3.Row:
    """The refusal a submission earns, or the page view it was answered on."""
    hit = store.query(
        "SELECT h.external_id, h.expired_at, b.backend, b.state, b.kind, b.lang, b.assignments "
        "FROM hit_hits h JOIN hit_batches b USING (batch_id) WHERE h.hit_id = ?", (hit_id,))
    if not hit:
        return Outcome("no-such-hit", ("There is no such task.",), worker)
    h = hit[0]
    if (h["backend"] != "local" or h["state"] != "published" or h["external_id"] is None
            or h["expired_at"] is not None):
        return Outcome("closed", ("This task no longer takes answers.",), worker)
    if _excluded(store, worker):
        return Outcome("excluded", ("Answers from this link are no longer collected.",), worker)
    if store.scalar("SELECT 1 FROM hit_assignments WHERE hit_id = ? AND worker = ?",
                    (hit_id, worker)):
        return Outcome("duplicate", ("Your answers to this task were received already; these "
                                     "were not stored.",), worker)
    view = store.query("SELECT * FROM page_views WHERE token = ? AND person = ? AND "
                       "role = 'worker' AND target = ?", (page, worker, hit_id))
    if not view:
        if not store.scalar("SELECT 1 FROM page_views WHERE person = ? AND role = 'worker' "
                            "AND target = ?", (worker, hit_id)):
            return Outcome("not-shown", ("Open your link to get your next task.",), worker)
        return Outcome("stale-page", ("This form did not come from the page you were given: "
                                      "open your link and answer again.",), worker)
    taken = store.scalar("SELECT COUNT(*) FROM hit_assignments WHERE hit_id = ?", (hit_id,))
    if taken >= hit_target(store, hit_id):
        return Outcome("full", ("It has all the answers it needs. Thank you: your link has "
                                "your next task.",), worker)
    reason, problems = answer_problems(store, hit_id, h["kind"], h["lang"], values)
    if reason:
        return Outcome(reason, tuple(problems), worker)
    return view[0]


def submit(store: Store, link: str, hit_id: str, fields: list[tuple[str, str]], *,
           now: float, cross_origin: bool = False) -> Outcome:
    """Check a posted HIT form and store it, or record why it was refused: one immediate
    transaction, so the count of a HIT's assignments is read and raised atomically."""
    open_tables(store)
    values = answer_values(fields)
    page = next((v for k, v in fields if k == PAGE_FIELD), "")
    with store.transaction():
        worker = _person(store, link, "worker")
        if worker is None:
            outcome = Outcome("unknown-link", ("Ask for a new link.",))
        elif cross_origin:
            outcome = Outcome("cross-origin", ("This form was sent from another site.",), worker)
        else:
            checked = _check(store, worker, hit_id, page, values)
            if isinstance(checked, Outcome):
                outcome = checked
            else:
                answers = {k: v[0] for k, v in sorted(values.items()) if v}
                record_submission(store, hit_id, Submission(
                    assignment_id=f"local-{hit_id}-{worker}", worker=worker, answers=answers,
                    submitted_at=now, accepted_at=float(checked["served_at"]),
                    raw=json.dumps(answers, ensure_ascii=False, sort_keys=True),
                ))
                store.execute("UPDATE page_views SET used_at = ? WHERE token = ?", (now, page))
                return Outcome("", (), worker)
        store.execute(
            "INSERT INTO refusals(worker, hit_id, reason, detail, answers, refused_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (outcome.worker, hit_id, outcome.reason, "; ".join(outcome.lines),
             json.dumps(values, ensure_ascii=False), now),
        )
    return outcome


def cross_origin(request: Request) -> bool:
    """Whether a POST says it comes from another site (Origin or Sec-Fetch-Site); the page
    token is the check that does not depend on the browser sending either."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return True
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.url.netloc}"
    return origin is not None and origin != "null" and origin != own


CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'none'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status_code=status, headers={
        "Content-Security-Policy": CSP, "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
    })


def _message(title: str, *lines: str, back: str = "", status: int = 200) -> HTMLResponse:
    return _page(render("message.html", title=title, lines=lines, back=back), status)


def tokens(text: str, marked: Sequence[tuple[int, int]] = ()) -> list[dict[str, Any]]:
    """A sentence as words (clickable, `mark`ed inside a `marked` span) and what lies between."""
    parts: list[dict[str, Any]] = []
    last = 0
    for m in _WORD.finditer(text):
        parts.append({"word": False, "text": text[last:m.start()]})
        inside = any(a <= m.start() and m.end() <= b for a, b in marked)
        parts.append({"word": True, "text": m.group(), "start": m.start(), "end": m.end(),
                      "mark": inside})
        last = m.end()
    parts.append({"word": False, "text": text[last:]})
    return parts


def spans(text: str, needles: Iterable[str]) -> list[tuple[int, int]]:
    """Where each needle occurs in the text (every occurrence)."""
    found = []
    for needle in {n for n in needles if n}:
        at = text.find(needle)
        while at >= 0:
            found.append((at, at + len(needle)))
            at = text.find(needle, at + 1)
    return sorted(found)


def highlighted(text: str, needles: Iterable[str]) -> list[dict[str, Any]]:
    """The text in pieces, those where a needle occurs `mark`ed (overlaps merged)."""
    pieces: list[dict[str, Any]] = []
    last = 0
    for a, b in spans(text, needles):
        if a < last:
            if b > last:
                pieces[-1]["text"] += text[last:b]
                last = b
            continue
        pieces += [{"text": text[last:a], "mark": False}, {"text": text[a:b], "mark": True}]
        last = b
    pieces.append({"text": text[last:], "mark": False})
    return pieces


def create_app(store_path: str, max_description: int = 2000,
               hold: float = HOLD_SECONDS) -> Starlette:
    """The app over one collection store; `hold` is how long a page served to one worker
    steers others to other HITs.

    Requests run in Starlette's thread pool (async handlers only read the form there first),
    each thread with its own connection, so waiting for SQLite's write lock never blocks the
    event loop."""
    open_store(store_path).close()
    connections = threading.local()
    # Writers queue here rather than in SQLite's busy handler, which polls and lets some
    # waiters starve under load (other processes still meet the busy timeout).
    writing = threading.Lock()

    def connection() -> Store:
        store: Store | None = getattr(connections, "store", None)
        if store is None:
            store = connections.store = open_store(store_path)
        return store

    def worker_page(request: Request) -> Response:
        token = request.path_params["token"]
        store = connection()
        worker = _person(store, token, "worker")
        if worker is None:
            return _message("Unknown link", "Ask for a new link.", status=404)
        now = time.time()
        with writing, store.transaction():  # so that two workers do not take the same place
            hit_id = next_hit(store, worker, now, hold)
            page = None if hit_id is None else serve_page(store, worker, "worker", hit_id,
                                                          now)
        if hit_id is None or page is None:
            return _message("Thank you", "There is no more work for you right now.")
        return _page(render_hit(
            store, hit_id, action=f"/w/{token}/hits/{hit_id}", hidden={PAGE_FIELD: page},
            max_description=max_description,
        ))

    async def worker_submit(request: Request) -> Response:
        token, hit_id = request.path_params["token"], request.path_params["hit_id"]
        form = await request.form()
        fields = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
        def store_it() -> Outcome:
            with writing:
                return submit(connection(), token, hit_id, fields, now=time.time(),
                              cross_origin=cross_origin(request))

        outcome = await run_in_threadpool(store_it)
        if not outcome.reason:
            return RedirectResponse(f"/w/{token}", status_code=303)
        title = REFUSALS[outcome.reason][1]
        back = "" if outcome.reason == "unknown-link" else f"/w/{token}"
        page = _message(title, *outcome.lines, back=back, status=outcome.status)
        page.headers["X-Refused"] = outcome.reason  # for scripts and the load benchmark
        return page

    def admin_page(request: Request) -> Response:
        store = connection()
        if _person(store, request.path_params["token"], "admin") is None:
            return _message("Unknown link", status=404)
        return _page(render("admin.html", title="Crowd work", **admin_view(store)))

    def expert_queue(request: Request) -> Response:
        token = request.path_params["token"]
        store = connection()
        expert = _person(store, token, "expert")
        if expert is None:
            return _message("Unknown link", status=404)
        return _page(render("expert_queue.html", title="Names to curate", expert=expert,
                            base=f"/expert/{token}", cases=curate.pending(store)))

    async def expert_case(request: Request) -> Response:
        form = await request.form() if request.method == "POST" else None
        return await run_in_threadpool(expert_case_page, request, form)

    def expert_case_page(request: Request, form: Any) -> Response:
        token = request.path_params["token"]
        lang, query_id = request.path_params["lang"], request.path_params["query_id"]
        base = f"/expert/{token}"
        store = connection()
        expert = _person(store, token, "expert")
        if expert is None:
            return _message("Unknown link", status=404)
        try:
            case = curate.case(store, lang, query_id)
        except XelError as e:
            return _message("Already decided", str(e), back=base, status=404)
        target = f"{lang}/{query_id}"
        if form is not None:
            page = str(form.get(PAGE_FIELD, ""))
            if cross_origin(request) or not store.scalar(
                    "SELECT 1 FROM page_views WHERE token = ? AND person = ? AND "
                    "role = 'expert' AND target = ?", (page, expert, target)):
                return _message("Please reload the case", "This form did not come from "
                                "the page you were given.", back=f"{base}/{target}",
                                status=403)
            action = str(form.get("action", "name"))
            try:
                with writing:
                    curate.record_expert_decision(
                        store, lang, query_id, expert,
                        None if action == "discard" else str(form.get("name", "")),
                        _int(form.get("seg")), _int(form.get("start")),
                    )
            except XelError as e:
                return _message("Not saved", str(e), back=f"{base}/{target}", status=400)
            return RedirectResponse(base, status_code=303)
        with writing, store.transaction():
            page = serve_page(store, expert, "expert", target, time.time())
        english = dict(curate.english_document(store, case.doc_id))
        proposed = [case.projection, *(c.label for c in case.choices if c.label != MISSING)]
        rows = [{"seg": seg, "english": highlighted(english.get(seg, ""), [case.name]),
                 "target": text, "tokens": tokens(text, spans(text, proposed))}
                for seg, text in document(store, lang, case.doc_id)]
        return _page(render("expert_case.html", title=case.name, case=case, rows=rows,
                            lang=lang, language=language(lang).name, base=base,
                            action=f"{base}/{target}", page=page, missing=MISSING))

    static = StaticFiles(directory=str(resources.files("hits").joinpath("static")))
    return Starlette(routes=[
        Route("/w/{token}", worker_page),
        Route("/w/{token}/hits/{hit_id}", worker_submit, methods=["POST"]),
        Route("/admin/{token}", admin_page),
        Route("/expert/{token}", expert_queue),
        Route("/expert/{token}/{lang}/{query_id}", expert_case, methods=["GET", "POST"]),
        Mount("/static", app=static, name="static"),
    ])


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def admin_view(store: Store) -> dict[str, Any]:
    """Batch progress, workers, refusals and the expert queue, for the admin page."""
    rows = []
    for b in batches(store):
        count = store.scalar("SELECT COUNT(*) FROM hit_hits WHERE batch_id = ?", (b.batch_id,))
        approved = store.scalar("SELECT COUNT(*) FROM payments WHERE batch_id = ? AND "
                                "decision = 'approve'", (b.batch_id,))
        rows.append({
            "batch_id": b.batch_id, "kind": b.kind, "lang": b.lang, "state": b.state,
            "backend": b.backend, "environment": b.environment, "hits": count,
            "received": store.scalar("SELECT COUNT(*) FROM hit_assignments WHERE batch_id = ?",
                                     (b.batch_id,)),
            "needed": count * b.assignments,
            "dropped": store.scalar("SELECT COUNT(*) FROM worker_gold WHERE batch_id = ? AND "
                                    "dropped = 1", (b.batch_id,)),
            "cost": (per_assignment(b.reward, b.assignments) * approved).quantize(CENT),
        })
    workers = [
        {"person": r["person"], "link": f"/w/{r['token']}",
         "assignments": store.scalar("SELECT COUNT(*) FROM hit_assignments WHERE worker = ?",
                                     (r["person"],)),
         "refused": store.scalar("SELECT COUNT(*) FROM refusals WHERE worker = ?",
                                 (r["person"],)),
         "gold": _gold(store, r["person"])}
        for r in store.query("SELECT person, token FROM local_people WHERE role = 'worker' "
                             "ORDER BY person")
    ]
    refusals = [dict(r) for r in store.query(
        "SELECT worker, hit_id, reason, detail, refused_at FROM refusals "
        "ORDER BY refused_at DESC, refusal_id DESC LIMIT 50")]
    for r in refusals:
        r["when"] = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r["refused_at"]))
    simulated = bool(store.scalar("SELECT MAX(simulated) FROM hit_assignments"))
    return {"batches": rows, "workers": workers, "simulated": simulated,
            "pending": len(curate.pending(store)), "refusals": refusals,
            "refused": store.scalar("SELECT COUNT(*) FROM refusals")}


def _gold(store: Store, worker: str) -> str:
    row = store.query("SELECT SUM(gold_correct), SUM(gold_items) FROM worker_gold "
                      "WHERE worker = ?", (worker,))[0]
    return f"{row[0]} / {row[1]}" if row[1] else "-"
