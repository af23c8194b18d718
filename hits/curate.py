"""Expert curation of the names the crowd disagreed on (Lawrie et al.'s local-language expert).

An expert either gives the name (a span of the target document, clicked or typed, which must
occur in it) or discards the query. Every decision is stored with who and when, and becomes
outcome E. The same queue goes out and comes back as CSV for experts working offline.
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hits.results import expert_pending
from xel.corpus import document, source_language
from xel.entity_types import noun
from xel.errors import XelError
from xel.queries import read_queries
from xel.store import Store
from xel.triage import read_triage

DISCARD = "DISCARD"
CSV_FIELDS = ["lang", "query_id", "english_name", "doc_id", "projection", "back_translation",
              "answers", "decision"]


@dataclass(frozen=True)
class Choice:
    """One distinct answer: who gave it, each with their estimated accuracy (None: unscored)."""

    label: str
    workers: list[tuple[str, float | None]]

    @property
    def support(self) -> float:
        """The answer's weight: its workers' estimated accuracies summed (1 each unscored)."""
        return sum(1.0 if score is None else score for _, score in self.workers)


@dataclass(frozen=True)
class Case:
    """One disagreement as the expert sees it."""

    lang: str
    query_id: str
    name: str
    doc_id: str
    projection: str
    back_translation: str
    answers: list[tuple[str, str]]  # (worker, label)
    scores: dict[str, float] = field(default_factory=dict)
    type: str = "PER"

    @property
    def noun(self) -> str:
        return noun(self.type)

    @property
    def choices(self) -> list[Choice]:
        """The distinct answers, best supported first (the name as a worker copied it)."""
        grouped: dict[str, list[tuple[str, float | None]]] = {}
        for worker, label in self.answers:
            grouped.setdefault(label, []).append((worker, self.scores.get(worker)))
        found = [Choice(label, workers) for label, workers in grouped.items()]
        return sorted(found, key=lambda c: (-c.support, c.label))


def pending(store: Store, lang: str | None = None) -> list[Case]:
    """Queued disagreements without an expert decision, in query order."""
    queries = {q.query_id: q for q in read_queries(store)}
    triaged = {(t.lang, t.query_id): t for t in read_triage(store, lang)}
    cases = []
    for x in expert_pending(store, lang):
        q = queries.get(x.query_id)
        if q is None:
            continue
        t = triaged.get((x.lang, x.query_id))
        cases.append((x.lang, q.ordinal, Case(
            x.lang, x.query_id, q.name, q.doc_id, t.projection if t else "",
            (t.back_translation if t else None) or "", x.answers, x.scores, q.type)))
    return [c for _, _, c in sorted(cases, key=lambda c: (c[0], c[1]))]


def case(store: Store, lang: str, query_id: str) -> Case:
    for c in pending(store, lang):
        if c.query_id == query_id:
            return c
    raise XelError(f"{lang}:{query_id} is not waiting for an expert (decided, or never queued)")


def english_document(store: Store, doc_id: str) -> list[tuple[int, str]]:
    return document(store, source_language(store), doc_id)


def locate(sentences: list[tuple[int, str]], name: str, seg: int | None = None,
           start: int | None = None) -> tuple[int, int, int]:
    """Where the name occurs: the given span if it holds the name, else its first occurrence."""
    if seg is not None and start is not None:
        for s, text in sentences:
            if s == seg and text[start:start + len(name)] == name:
                return s, start, start + len(name)
    for s, text in sentences:
        at = text.find(name)
        if at >= 0:
            return s, at, at + len(name)
    raise XelError(f"{name!r} does not occur in the target document: copy it as written there")


def record_expert_decision(store: Store, lang: str, query_id: str, expert: str, name: str | None,
           seg: int | None = None, start: int | None = None) -> None:
    """Record an expert's decision (a name that occurs in the document, or None to discard)."""
    if not expert.strip():
        raise XelError("an expert decision needs the expert's name")
    c = case(store, lang, query_id)
    where: tuple[int | None, int | None, int | None] = (None, None, None)
    if name is not None:
        name = name.strip()
        if not name:
            raise XelError("give the name, or discard the query")
        where = locate(document(store, lang, c.doc_id), name, seg, start)
    now = time.time()
    with store.transaction():
        store.execute(
            "INSERT INTO expert_decisions(lang, query_id, expert, action, name, seg, start, end, "
            "decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (lang, query_id, expert, "discard" if name is None else "name", name, *where, now),
        )
        store.execute(
            "INSERT OR REPLACE INTO name_outcomes VALUES (?, ?, 'E', ?, ?, 0, ?)",
            (lang, query_id, name, f"expert:{expert}", now),
        )


def export_csv(store: Store, path: str | Path, lang: str | None = None) -> int:
    """Write the pending cases for offline work; the expert fills `decision` (a name, or
    DISCARD) and sends the file back to `import_csv`."""
    cases = pending(store, lang)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, CSV_FIELDS)
        writer.writeheader()
        for c in cases:
            writer.writerow({
                "lang": c.lang, "query_id": c.query_id, "english_name": c.name,
                "doc_id": c.doc_id, "projection": c.projection,
                "back_translation": c.back_translation,
                "answers": "; ".join(f"{w}: {label}" for w, label in c.answers), "decision": "",
            })
    return len(cases)


def import_csv(store: Store, path: str | Path, expert: str) -> dict[str, int]:
    """Record the decisions of a filled-in export; rows left blank stay pending. All rows are
    checked before any is stored, so a bad row changes nothing."""
    path = Path(path)
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except FileNotFoundError:
        raise XelError(f"{path}: file not found") from None
    if rows and not {"lang", "query_id", "decision"} <= set(rows[0]):
        raise XelError(f"{path}: needs columns lang, query_id and decision (from `hits curate "
                       "--export`)")
    decisions: list[dict[str, Any]] = []
    for line, row in enumerate(rows, start=2):
        decision = (row.get("decision") or "").strip()
        if not decision:
            continue
        try:
            c = case(store, row["lang"], row["query_id"])
            name = None if decision == DISCARD else decision
            if name is not None:
                locate(document(store, c.lang, c.doc_id), name)
        except XelError as e:
            raise XelError(f"{path}, line {line}: {e}") from None
        decisions.append({"lang": c.lang, "query_id": c.query_id, "name": name})
    with store.transaction():
        for d in decisions:
            record_expert_decision(store, d["lang"], d["query_id"], expert, d["name"])
    return {"decided": len(decisions), "pending": len(rows) - len(decisions)}
