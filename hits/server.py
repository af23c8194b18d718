"""The local web app (`hits serve`): HIT pages for your own annotators, an admin page with
batch progress, and the expert curation queue.

Everyone gets a link with an unguessable token (`people` makes them). A worker's link shows the
next HIT of a batch published with the `local` backend that still needs answers; the answer is
stored (committed) before the worker is sent on, and a double submit is recorded once.
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from hits import curate
from hits.cost import CENT, per_assignment
from hits.render import render, render_hit, shown_targets
from hits.store import MISSING, Submission, batch, batches, field_name, items, record_submission
from hits.store import open_tables as declare
from xel.errors import XelError
from xel.languages import language
from xel.store import Store

_WORD = re.compile(r"\w+")


def person_link(store: Store, person: str, role: str) -> str:
    """The token of a person's link in a role, made on first use."""
    declare(store)
    with store.transaction():
        token = store.scalar("SELECT token FROM local_people WHERE person = ? AND role = ?",
                             (person, role))
        if token is None:
            token = secrets.token_urlsafe(24)
            store.execute("INSERT INTO local_people VALUES (?, ?, ?, ?)",
                          (token, person, role, time.time()))
    return str(token)


def _person(store: Store, token: str, role: str) -> str:
    person = store.scalar("SELECT person FROM local_people WHERE token = ? AND role = ?",
                          (token, role))
    if person is None:
        raise LookupError
    return str(person)


def next_hit(store: Store, worker: str) -> str | None:
    """The first open local HIT this worker has not answered, or None."""
    if store.scalar("SELECT 1 FROM worker_actions WHERE worker = ?", (worker,)):
        return None
    found = store.scalar(
        "SELECT h.hit_id FROM hit_hits h JOIN hit_batches b USING (batch_id) "
        "WHERE b.backend = 'local' AND b.state = 'published' AND h.external_id IS NOT NULL "
        "AND h.expired_at IS NULL "
        "AND (SELECT COUNT(*) FROM hit_assignments a WHERE a.hit_id = h.hit_id) < b.assignments "
        "AND NOT EXISTS (SELECT 1 FROM hit_assignments a WHERE a.hit_id = h.hit_id "
        "AND a.worker = ?) ORDER BY b.created_at, h.ordinal LIMIT 1", (worker,),
    )
    return None if found is None else str(found)


def open_to(store: Store, hit_id: str, worker: str) -> bool:
    """Whether a worker may answer a HIT: a local, published, unexpired one, and a worker not
    excluded (answering the same HIT twice is allowed: it is recorded once)."""
    if store.scalar("SELECT 1 FROM worker_actions WHERE worker = ?", (worker,)):
        return False
    return bool(store.scalar(
        "SELECT 1 FROM hit_hits h JOIN hit_batches b USING (batch_id) WHERE h.hit_id = ? "
        "AND b.backend = 'local' AND b.state = 'published' AND h.expired_at IS NULL",
        (hit_id,),
    ))


def problems(store: Store, hit_id: str, answers: dict[str, str]) -> list[str]:
    """What is wrong with a submitted form: unanswered items, names not in the sentences."""
    found = []
    b = batch(store, store.scalar("SELECT batch_id FROM hit_hits WHERE hit_id = ?", (hit_id,)))
    for number, item in enumerate(items(store, hit_id), start=1):
        value = answers.get(field_name(item.position), "").strip()
        if not value:
            found.append(f"item {number}: no answer")
        elif b.kind == "name" and value != MISSING and value not in shown_targets(
                store, item, b.lang):
            found.append(f"item {number}: {value!r} does not occur in the translated sentences")
    return found


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status_code=status, headers={
        "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; "
                                   "style-src 'unsafe-inline'; img-src 'none'",
        "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    })


def _message(title: str, *lines: str, back: str = "", status: int = 200) -> HTMLResponse:
    return _page(render("message.html", title=title, lines=lines, back=back), status)


def tokens(text: str) -> list[dict[str, Any]]:
    """A sentence as words (clickable) and what lies between them."""
    parts: list[dict[str, Any]] = []
    last = 0
    for m in _WORD.finditer(text):
        parts.append({"word": False, "text": text[last:m.start()]})
        parts.append({"word": True, "text": m.group(), "start": m.start(), "end": m.end()})
        last = m.end()
    parts.append({"word": False, "text": text[last:]})
    return parts


def create_app(store_path: str, max_description: int = 2000) -> Starlette:
    """The app over one collection store (a connection per request)."""

    def open_store() -> Store:
        return declare(Store(store_path))

    def worker_page(request: Request) -> Response:
        token = request.path_params["token"]
        with open_store() as store:
            try:
                worker = _person(store, token, "worker")
            except LookupError:
                return _message("Unknown link", "Ask for a new link.", status=404)
            hit_id = next_hit(store, worker)
            if hit_id is None:
                return _message("Thank you", "There is no more work for you right now.")
            return _page(render_hit(
                store, hit_id, action=f"/w/{token}/hits/{hit_id}",
                hidden={"started": f"{time.time():.3f}"}, max_description=max_description,
            ))

    async def worker_submit(request: Request) -> Response:
        token, hit_id = request.path_params["token"], request.path_params["hit_id"]
        form = await request.form()
        answers = {k: str(v) for k, v in form.multi_items()}
        with open_store() as store:
            try:
                worker = _person(store, token, "worker")
            except LookupError:
                return _message("Unknown link", "Ask for a new link.", status=404)
            if not open_to(store, hit_id, worker):
                return _message("This task is closed", "It may have enough answers already.",
                                back=f"/w/{token}", status=409)
            wrong = problems(store, hit_id, answers)
            if wrong:
                return _message("Please go back and fix", *wrong, back=f"/w/{token}", status=400)
            try:
                started = float(answers.get("started", ""))
            except ValueError:
                started = None
            raw = "&".join(f"{k}={v}" for k, v in sorted(answers.items()))
            record_submission(store, hit_id, Submission(
                assignment_id=f"local-{hit_id}-{worker}", worker=worker, answers=answers,
                submitted_at=time.time(), accepted_at=started, raw=raw,
            ))
        return RedirectResponse(f"/w/{token}", status_code=303)

    def admin_page(request: Request) -> Response:
        with open_store() as store:
            try:
                _person(store, request.path_params["token"], "admin")
            except LookupError:
                return _message("Unknown link", status=404)
            return _page(render("admin.html", title="Crowd work", **admin_view(store)))

    def expert_queue(request: Request) -> Response:
        token = request.path_params["token"]
        with open_store() as store:
            try:
                expert = _person(store, token, "expert")
            except LookupError:
                return _message("Unknown link", status=404)
            return _page(render("expert_queue.html", title="Names to curate", expert=expert,
                                base=f"/expert/{token}", cases=curate.pending(store)))

    async def expert_case(request: Request) -> Response:
        token = request.path_params["token"]
        lang, query_id = request.path_params["lang"], request.path_params["query_id"]
        base = f"/expert/{token}"
        form = await request.form() if request.method == "POST" else None
        with open_store() as store:
            try:
                expert = _person(store, token, "expert")
                case = curate.case(store, lang, query_id)
            except LookupError:
                return _message("Unknown link", status=404)
            except XelError as e:
                return _message("Already decided", str(e), back=base, status=404)
            if form is not None:
                action = str(form.get("action", "name"))
                try:
                    curate.decide(
                        store, lang, query_id, expert,
                        None if action == "discard" else str(form.get("name", "")),
                        _int(form.get("seg")), _int(form.get("start")),
                    )
                except XelError as e:
                    return _message("Not saved", str(e), back=f"{base}/{lang}/{query_id}",
                                    status=400)
                return RedirectResponse(base, status_code=303)
            english = dict(curate.english_document(store, case.doc_id))
            rows = [{"seg": seg, "english": english.get(seg, ""), "target": text,
                     "tokens": tokens(text)}
                    for seg, text in curate.document(store, lang, case.doc_id)]
            return _page(render("expert_case.html", title=case.name, case=case, rows=rows,
                                lang=lang, language=language(lang).name, base=base,
                                action=f"{base}/{lang}/{query_id}"))

    return Starlette(routes=[
        Route("/w/{token}", worker_page),
        Route("/w/{token}/hits/{hit_id}", worker_submit, methods=["POST"]),
        Route("/admin/{token}", admin_page),
        Route("/expert/{token}", expert_queue),
        Route("/expert/{token}/{lang}/{query_id}", expert_case, methods=["GET", "POST"]),
    ])


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def admin_view(store: Store) -> dict[str, Any]:
    """Batch progress, workers and the expert queue, for the admin page."""
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
         "gold": _gold(store, r["person"])}
        for r in store.query("SELECT person, token FROM local_people WHERE role = 'worker' "
                             "ORDER BY person")
    ]
    simulated = bool(store.scalar("SELECT MAX(simulated) FROM hit_assignments"))
    return {"batches": rows, "workers": workers, "simulated": simulated,
            "pending": len(curate.pending(store))}


def _gold(store: Store, worker: str) -> str:
    row = store.query("SELECT SUM(gold_correct), SUM(gold_items) FROM worker_gold "
                      "WHERE worker = ?", (worker,))[0]
    return f"{row[0]} / {row[1]}" if row[1] else "-"

