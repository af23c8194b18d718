"""Quality control on gold items: per worker per batch accuracy, and who is dropped.

Lawrie et al. dropped every worker under 80% on the gold items of a batch; their other answers
in that batch are then not used (the tasks are re-asked or discarded, `hits.dropped`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import pandas as pd

from hits.store import insert_rows, open_tables
from xel.store import Store


def same_answer(label: str, known: str) -> bool:
    """Answers compare after Unicode NFC and outer whitespace, nothing looser: a name must be
    copied exactly as written."""
    def norm(text: str) -> str:
        return unicodedata.normalize("NFC", text.strip())

    return norm(label) == norm(known)


@dataclass(frozen=True)
class GoldScore:
    worker: str
    gold_items: int
    gold_correct: int

    @property
    def accuracy(self) -> float | None:
        return self.gold_correct / self.gold_items if self.gold_items else None

    def dropped(self, threshold: float) -> bool:
        return self.accuracy is not None and self.accuracy < threshold


def gold_scores(store: Store, batch_id: str) -> list[GoldScore]:
    """Every worker of a batch with their gold items and how many they got right."""
    open_tables(store)
    rows = store.query(
        "SELECT a.worker, j.label, i.gold_answer, j.gold FROM hit_assignments a "
        "LEFT JOIN judgments j USING (assignment_id) "
        "LEFT JOIN hit_items i ON i.hit_id = j.hit_id AND i.position = j.position "
        "WHERE a.batch_id = ? ORDER BY a.worker", (batch_id,),
    )
    seen: dict[str, list[int]] = {}
    for r in rows:
        counts = seen.setdefault(r["worker"], [0, 0])
        if r["gold"]:
            counts[0] += 1
            counts[1] += same_answer(r["label"], r["gold_answer"] or "")
    return [GoldScore(w, n, c) for w, (n, c) in seen.items()]


def score_batch(store: Store, batch_id: str, threshold: float) -> list[GoldScore]:
    """Compute and store (replacing) the batch's worker gold accuracy and dropped flags."""
    scores = gold_scores(store, batch_id)
    with store.transaction():
        store.execute("DELETE FROM worker_gold WHERE batch_id = ?", (batch_id,))
        insert_rows(store, "worker_gold", [
            (batch_id, s.worker, s.gold_items, s.gold_correct, s.accuracy,
             int(s.dropped(threshold)))
            for s in scores
        ])
    return scores


def kept_judgments(store: Store, kind: str, lang: str = "") -> pd.DataFrame:
    """Non-gold judgments of reviewed batches by workers not dropped: task, worker, label
    (+ batch, seconds, simulated), the long table crowd-kit takes."""
    open_tables(store)
    rows = store.query(
        "SELECT j.task, j.worker, j.label, j.batch_id, j.seconds, j.simulated FROM judgments j "
        "JOIN hit_batches b USING (batch_id) JOIN worker_gold w "
        "ON w.batch_id = j.batch_id AND w.worker = j.worker "
        "WHERE b.kind = ? AND b.lang = ? AND b.state IN ('reviewed', 'sent', 'aggregated') "
        "AND j.gold = 0 AND w.dropped = 0 AND j.label != '' ORDER BY j.task, j.worker",
        (kind, lang),
    )
    columns = ["task", "worker", "label", "batch_id", "seconds", "simulated"]
    return pd.DataFrame([tuple(r) for r in rows], columns=columns)
