"""Bounded load test of the local crowd server (docs/benchmarks.md, "Local crowd server").

Makes a synthetic collection (documents, queries, candidates, a KB, triage) with one batch of
entity-linking HITs and one of name-curation HITs published on the `local` backend, starts
`hits serve`'s app with uvicorn on 127.0.0.1 in its own process, and runs simulated workers
(threads with httpx) for a fixed time. Each worker asks for its next HIT and answers it from
what the page shows; now and then it sends an invalid submission instead: an answer not
offered, an item left out, a HIT never shown to it, a forged page token, a second submission,
a post from another origin, or an unknown link. At the end it checks from the database that
no HIT has more assignments than it asks for (and finished HITs exactly that many), that
every stored judgment is among what was shown, that no worker answered a HIT twice, and that
every refused submission is in `refusals` with the reason the client saw; the figures go to
stdout (and `--json`).

The app runs with `hold=0` by default: pages served to others do not steer workers apart, so
they collide on the same HITs and the capacity check is exercised as hard as it can be.

Usage: `python bench/bench_server_load.py [--seconds 120] [--workers 16] [--el-hits 600]
[--name-hits 200] [--hold 0] [--json FILE]`.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import platform
import random
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from hits.backends import get_backend
from hits.make import make_el_batch, make_name_batch
from hits.reference import write_reference
from hits.server import person_link
from hits.workflow import publish_batch
from xel.config import Config
from xel.corpus import DDL as CORPUS_DDL
from xel.link import DDL as LINK_DDL
from xel.queries import DDL as QUERIES_DDL
from xel.store import Store
from xel.triage import DDL as TRIAGE_DDL

GIVEN = ["Anna", "Ben", "Carla", "David", "Eva", "Farid", "Grace", "Hana", "Ivan", "Julia"]
FAMILY = ["Meyer", "Okafor", "Silva", "Nakamura", "Kowalski", "Haddad", "Larsen", "Rossi"]
INVALID = ["not-offered", "incomplete", "not-shown", "stale-page", "duplicate",
           "cross-origin", "unknown-link"]


# --- the collection -------------------------------------------------------------------------


def make_collection(folder: Path, el_hits: int, name_hits: int) -> tuple[Config, Store]:
    """A store with enough queries for `el_hits` EL HITs (4 tasks + 2 gold each) and
    `name_hits` curation HITs (9 tasks + 1 gold each), both batches published locally."""
    rng = random.Random(2015)
    n = max(el_hits * 4 + 40, name_hits * 9 * 3 // 2 + 40)
    store = Store(folder / "xel.sqlite")
    for ddl in (CORPUS_DDL, QUERIES_DDL, LINK_DDL, TRIAGE_DDL):
        store.declare(ddl)
    gold: dict[str, str] = {}
    with store.transaction():
        store.execute("INSERT INTO languages VALUES ('eng', 'source', 'Latn', 'English', 'x', "
                      "0, 0)")
        store.execute("INSERT INTO languages VALUES ('deu', 'target', 'Latn', 'German', 'x', "
                      "0, 1)")
        for q in range(n):
            doc, seg = f"doc{q:05d}", q * 2
            name = f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}{q}"
            german = name if q % 4 else name.replace("a", "ä", 1)
            store.execute("INSERT INTO documents VALUES (?, ?, ?, ?)", (doc, q, seg, 2))
            pairs = [(f"Officials said {name} spoke on Monday.",
                      f"Beamte sagten, {german} sprach am Montag."),
                     (f"Later, {name} left <b>the</b> room.",
                      f"Später verließ {german} den Raum.")]
            for pos, (en, de) in enumerate(pairs):
                for code, text in (("eng", en), ("deu", de)):
                    store.execute("INSERT INTO sentences VALUES (?, ?, ?, ?, ?, ?)",
                                  (code, seg + pos, doc, pos, 0, text))
            qid = f"q{q:05d}"
            start = pairs[0][0].index(name)
            store.execute(
                "INSERT INTO queries(query_id, name, name_key, doc_id, mention_id, seg, start, "
                "end, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (qid, name, name.lower(), doc, q, seg, start, start + len(name), q))
            for rank in range(1, 4):
                kb_id = f"Q{q * 3 + rank}"
                store.execute("INSERT INTO candidates(query_id, rank, kb_id, score, name_score, "
                              "prior_score, context_score, why) VALUES (?, ?, ?, ?, 0, 0, 0, "
                              "'[]')", (qid, rank, kb_id, 1 / rank))
                store.execute("INSERT INTO kb_entries(kb_id, name, aliases, description, "
                              "wikipedia, popularity) VALUES (?, ?, '[]', ?, NULL, ?)",
                              (kb_id, name if rank == 1 else f"{name} ({rank})",
                               f"Person number {kb_id}", 10.0 * rank))
            if q < 40:
                gold[qid] = f"Q{q * 3 + 1}"
            store.execute("INSERT INTO triage(lang, query_id, projection, seg, start, end, "
                          "back_translation, backend, outcome) VALUES ('deu', ?, ?, ?, 0, 0, ?, "
                          "'bench', ?)", (qid, german, seg, name, "A1" if q < 40 else "curate"))
    write_reference(folder / "el-gold.tsv", gold)
    config = Config.model_validate({
        "name": "load", "root": str(folder), "store": str(folder / "xel.sqlite"),
        "corpus": {"path": str(folder)}, "kb": {"path": str(folder / "kb.jsonl")},
        "hits": {"crowd": "local", "gold": str(folder / "el-gold.tsv"),
                 "batch_size": max(el_hits, name_hits)},
    })
    (folder / "load.yaml").write_text(yaml.safe_dump(config.model_dump(
        mode="json", exclude={"source_file"})), encoding="utf-8")
    local = get_backend("local", store, config)
    config.hits.batch_size = el_hits
    el = make_el_batch(store, config)
    config.hits.batch_size = name_hits
    names = make_name_batch(store, config, "deu")
    assert el and names
    for batch_id in (el, names):
        publish_batch(store, config, batch_id, local)
    return config, store


# --- the server ------------------------------------------------------------------------------


SERVE = """
import sys, uvicorn
from hits.server import create_app
uvicorn.run(create_app(sys.argv[1], hold=float(sys.argv[3])), host="127.0.0.1",
            port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(store_path: Path, port: int, hold: float) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(store_path), str(port),
                               str(hold)])
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/static/hits.css", timeout=1)
            return server
        except httpx.TransportError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start within 30 s")


# --- the workers ------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the clients saw, merged over all workers."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: Counter[str] = field(default_factory=Counter)
    accepted: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # reason, as the server said
    invalid_sent: Counter[str] = field(default_factory=Counter)  # kind, as the client meant
    invalid_stored: int = 0  # an invalid submission the server accepted: must stay 0
    unexpected: Counter[str] = field(default_factory=Counter)  # reason != intended (not full)
    errors: Counter[str] = field(default_factory=Counter)
    latency: dict[str, list[float]] = field(default_factory=lambda: {"GET": [], "POST": []})


@dataclass
class Page:
    hit_id: str
    action: str
    token: str
    answers: dict[str, str]  # a valid answer per item
    offered: dict[str, list[str]]


FORM = re.compile(r'<form id="hit-form" method="post" action="([^"]+)"')
TOKEN = re.compile(r'name="page" value="([^"]+)"')
RADIO = re.compile(r'<input type="radio" name="(item-\d+)" value="([^"]+)"')
NAME_ITEM = re.compile(r'<fieldset class="item name-item".*?</fieldset>', re.S)
TARGET = re.compile(r'<td class="target"[^>]*>(.*?)</td>', re.S)
FIELD = re.compile(r'name="(item-\d+)"')


def read_page(text: str, rng: random.Random) -> Page | None:
    """The HIT page's form and a valid answer to each item, chosen like a (random) worker."""
    form, token = FORM.search(text), TOKEN.search(text)
    if not form or not token:
        return None
    offered: dict[str, list[str]] = {}
    for name, value in RADIO.findall(text):
        offered.setdefault(name, []).append(html.unescape(value))
    for block in NAME_ITEM.findall(text):
        words = " ".join(html.unescape(t) for t in TARGET.findall(block)).split()
        offered[FIELD.search(block).group(1)] = [  # type: ignore[union-attr]
            "MISSING", *[w.strip(".,") for w in words]]
    answers = {k: rng.choice(v) for k, v in offered.items()}
    action = html.unescape(form.group(1))
    return Page(action.rsplit("/", 1)[1], action, token.group(1), answers, offered)


class Worker(threading.Thread):
    def __init__(self, n: int, base: str, link: str, hits: list[str], tally: Tally,
                 deadline: float, invalid_share: float) -> None:
        super().__init__(daemon=True)
        self.rng = random.Random(n)
        self.name = f"w{n:02d}"
        self.base, self.link, self.hits, self.tally = base, link, hits, tally
        self.deadline, self.invalid_share = deadline, invalid_share
        self.served: dict[str, Page] = {}  # hit -> the last page served for it
        self.done: set[str] = set()  # HITs this worker's answers were stored for
        self.client = httpx.Client(base_url=base, timeout=60, follow_redirects=False)

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = self.client.request(method, url, **kw)
        except httpx.HTTPError as e:
            with self.tally.lock:
                self.tally.errors[type(e).__name__] += 1
            return None
        with self.tally.lock:
            self.tally.requests[method] += 1
            self.tally.latency[method].append(time.perf_counter() - started)
            if response.status_code >= 500:
                self.tally.errors[f"HTTP {response.status_code}"] += 1
        return response

    def post(self, page: Page, answers: dict[str, str], intended: str = "",
             link: str | None = None, token: str | None = None,
             headers: dict[str, str] | None = None, hit: str | None = None) -> None:
        """Submit; `intended` names the refusal an invalid submission should get."""
        url = f"/w/{link or self.link}/hits/{hit or page.hit_id}"
        data = {**answers, "page": page.token if token is None else token}
        response = self.request("POST", url, data=data, headers=headers or {})
        if response is None:
            return
        reason = response.headers.get("x-refused", "")
        with self.tally.lock:
            if intended:
                self.tally.invalid_sent[intended] += 1
            if response.status_code == 303:
                self.tally.accepted += 1
                self.done.add(hit or page.hit_id)
                if intended:
                    self.tally.invalid_stored += 1
            elif reason:
                self.tally.refused[reason] += 1
                if intended and reason not in (intended, "full"):
                    self.tally.unexpected[f"{intended} -> {reason}"] += 1
            else:
                self.tally.errors[f"HTTP {response.status_code}"] += 1

    def next_page(self) -> Page | None:
        response = self.request("GET", f"/w/{self.link}")
        if response is None or response.status_code != 200:
            return None
        page = read_page(response.text, self.rng)
        if page is not None:
            self.served[page.hit_id] = page
        return page

    def invalid(self, page: Page | None) -> None:
        kind = self.rng.choice(INVALID)
        anyone = page or next(iter(self.served.values()), None)
        if anyone is None:
            return
        if kind == "not-offered" and page:
            item = self.rng.choice(sorted(page.answers))
            bad = self.rng.choice(["enwiki:307", "Q1", "<script>x</script>", "Nobody Atall"])
            if bad not in page.offered[item]:
                self.post(page, {**page.answers, item: bad}, kind)
        elif kind == "incomplete" and page:
            dropped = dict(page.answers)
            dropped.pop(self.rng.choice(sorted(dropped)))
            self.post(page, dropped, kind)
        elif kind == "not-shown":
            never = [h for h in self.hits if h not in self.served]
            if never:
                self.post(anyone, anyone.answers, kind, hit=self.rng.choice(never))
        elif kind == "stale-page" and page:
            self.post(page, page.answers, kind, token="forged-" + page.token[:8])
        elif kind == "duplicate" and self.done:
            hit = self.rng.choice(sorted(self.done))
            self.post(self.served[hit], self.served[hit].answers, kind)
        elif kind == "cross-origin" and page:
            self.post(page, page.answers, kind, headers={"Origin": "http://evil.example"})
        elif kind == "unknown-link":
            self.post(anyone, anyone.answers, kind, link="no-such-link-" + self.name)

    def run(self) -> None:
        while time.time() < self.deadline:
            page = self.next_page()
            if self.rng.random() < self.invalid_share:
                self.invalid(page)
            elif page is not None:
                time.sleep(self.rng.uniform(0, 0.05))  # reading, clicking
                self.post(page, page.answers)
            else:
                self.invalid(None)
                time.sleep(0.2)  # no work: look again soon
        self.client.close()


# --- the checks ---------------------------------------------------------------------------------


def check(store_path: Path, tally: Tally, started: float) -> dict[str, Any]:
    """What the database says, and whether it agrees with the clients."""
    db = sqlite3.connect(store_path)
    db.row_factory = sqlite3.Row
    per_hit = Counter({r[0]: r[1] for r in db.execute(
        "SELECT h.hit_id, (SELECT COUNT(*) FROM hit_assignments a WHERE a.hit_id = h.hit_id) "
        "FROM hit_hits h")})
    wanted = {r[0]: r[1] for r in db.execute(
        "SELECT h.hit_id, b.assignments FROM hit_hits h JOIN hit_batches b USING (batch_id)")}
    over = [h for h, n in per_hit.items() if n > wanted[h]]
    twice = db.execute("SELECT COUNT(*) FROM (SELECT hit_id, worker FROM hit_assignments "
                       "GROUP BY hit_id, worker HAVING COUNT(*) > 1)").fetchone()[0]
    refused = Counter({r[0]: r[1] for r in db.execute(
        "SELECT reason, COUNT(*) FROM refusals GROUP BY reason")})
    stored = db.execute("SELECT COUNT(*) FROM hit_assignments").fetchone()[0]
    bad_labels = 0
    for j in db.execute("SELECT j.label, j.shown, b.kind, j.hit_id, j.position FROM judgments j "
                        "JOIN hit_batches b USING (batch_id)"):
        if j["kind"] == "el":
            ok = j["label"] in [*json.loads(j["shown"]), "NIL", "NEI", "NOT_PERSON"]
        else:
            query = db.execute("SELECT query_id FROM hit_items WHERE hit_id = ? AND position = ?",
                               (j["hit_id"], j["position"])).fetchone()[0]
            text = " ".join(r[0] for r in db.execute(
                "SELECT t.text FROM sentences t JOIN queries q ON t.doc_id = q.doc_id "
                "WHERE t.lang = 'deu' AND q.query_id = ?", (query,)))
            ok = j["label"] == "MISSING" or j["label"] in text
        bad_labels += not ok
    seconds = [r[0] for r in db.execute("SELECT submitted_at - accepted_at FROM hit_assignments")]
    last = db.execute("SELECT MAX(submitted_at) FROM hit_assignments").fetchone()[0]
    db.close()
    return {
        "hits": len(wanted), "hits complete": sum(per_hit[h] == n for h, n in wanted.items()),
        "last assignment stored at s": round(last - started, 1) if last else None,
        "assignments per HIT": dict(sorted(Counter(per_hit[h] for h in wanted).items())),
        "HITs over their assignments": len(over), "worker twice on a HIT": twice,
        "assignments stored": stored, "judgments outside what was shown": bad_labels,
        "refusals in the database": dict(refused.most_common()),
        "database agrees with clients": refused == tally.refused and stored == tally.accepted,
        "negative time on task": sum(s < 0 for s in seconds),
    }


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--el-hits", type=int, default=600)
    parser.add_argument("--name-hits", type=int, default=200)
    parser.add_argument("--invalid", type=float, default=0.3, help="share of invalid posts")
    parser.add_argument("--hold", type=float, default=0.0, help="the app's soft hold (s)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made = time.perf_counter()
        config, store = make_collection(folder, args.el_hits, args.name_hits)
        hits = [r[0] for r in store.query("SELECT hit_id FROM hit_hits ORDER BY hit_id")]
        links = [person_link(store, f"w{n:02d}", "worker") for n in range(args.workers)]
        store.close()
        made = time.perf_counter() - made
        port = free_port()
        server = start_server(folder / "xel.sqlite", port, args.hold)
        tally = Tally()
        try:
            started = time.time()
            deadline = started + args.seconds
            workers = [Worker(n, f"http://127.0.0.1:{port}", link, hits, tally, deadline,
                              args.invalid) for n, link in enumerate(links)]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            elapsed = time.time() - started
        finally:
            server.terminate()
            server.wait(30)
        result = check(folder / "xel.sqlite", tally, started)

    figures = {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
                   f"{platform.release()}, Python {platform.python_version()}, SQLite "
                   f"{sqlite3.sqlite_version}",
        "load average at end": os.getloadavg(),
        "settings": vars(args) | {"json": str(args.json) if args.json else None},
        "collection made in s": round(made, 1),
        "seconds": round(elapsed, 1),
        "requests": dict(tally.requests), "requests per s": round(
            sum(tally.requests.values()) / elapsed, 1),
        "accepted": tally.accepted,
        "refused (server's reason)": dict(tally.refused.most_common()),
        "invalid sent (client's intent)": dict(tally.invalid_sent.most_common()),
        "invalid stored": tally.invalid_stored,
        "refused for another reason than intended (not full)": dict(tally.unexpected),
        "errors": dict(tally.errors),
        "latency ms (p50, p95, max)": {m: [round(1000 * quantile(v, 50), 1),
                                           round(1000 * quantile(v, 95), 1),
                                           round(1000 * max(v), 1)] if v else []
                                       for m, v in tally.latency.items()},
        **result,
    }
    print(json.dumps(figures, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    passed = (result["HITs over their assignments"] == 0 and result["worker twice on a HIT"] == 0
              and result["judgments outside what was shown"] == 0 and tally.invalid_stored == 0
              and result["database agrees with clients"] and not tally.errors
              and not tally.unexpected and result["hits complete"] == result["hits"])
    print("PASS" if passed else "FAIL")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
