"""Quality control on gold items: who is dropped and not paid, and why.

Lawrie et al. dropped every worker under 80% on the gold items of a batch (`threshold`, the
`paper` policy's rule); their other answers in that batch are then not used (the tasks are
re-asked or discarded, `hits.dropped`). One miss on two gold items is 50%, so that rule drops
good workers, and a spammer with two lucky gold answers passes it. Every other policy uses
`credible`: a worker's accuracy has a Beta posterior from the prior (`hits.prior_right`,
`hits.prior_wrong`), their gold answers and how often they agreed with what the
gold-anchored model decided elsewhere; a worker is dropped only when even the 95% credible
upper bound of that accuracy is under the threshold, i.e. when the evidence says so.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

import pandas as pd
from scipy.stats import beta

from hits.anchored import GoldDawidSkene
from hits.store import insert_rows, open_tables
from xel.config import HitsConfig
from xel.store import Store

LEVEL = 0.95  # credible level of the bound a worker is judged by


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

    @property
    def skill(self) -> None:
        """The 80% rule estimates no skill: only the gold share decides."""
        return None

    def dropped(self, threshold: float) -> bool:
        return self.accuracy is not None and self.accuracy < threshold

    def reason(self, threshold: float) -> str:
        if not self.dropped(threshold):
            return "thank you"
        return (f"{self.gold_correct} of {self.gold_items} known-answer items right in this "
                f"batch ({self.accuracy:.0%}), under the {threshold:.0%} needed")


@dataclass(frozen=True)
class CredibleScore:
    """A worker's evidence: gold answers (right of items) and, elsewhere, the (expected)
    number of answers that agreed with the model's decision, with the credible bounds."""

    worker: str
    gold_items: int
    gold_right: int
    items: int
    agreed: float
    lower: float
    upper: float
    skill: float  # the posterior mean


    def dropped(self, threshold: float) -> bool:
        return self.upper < threshold

    def reason(self, threshold: float) -> str:
        evidence = (f"{self.gold_right} of {self.gold_items} known-answer items right and "
                    f"{self.agreed:.1f} of {self.items} other answers agreeing with the decided "
                    f"answer: accuracy {self.lower:.0%} to {self.upper:.0%} ({LEVEL:.0%} credible)")
        if self.dropped(threshold):
            return f"{evidence}, surely under the {threshold:.0%} needed"
        return f"{evidence}; thank you"


def credible_scores(data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
                    open_labels: bool = False) -> dict[str, CredibleScore]:
    """Every worker's `CredibleScore` on `data` (task, worker, label; gold tasks included)."""
    if data.empty:
        return {}
    model = GoldDawidSkene(config.prior_right, config.prior_wrong, open_labels=open_labels,
                           open_options=config.open_options, confusion=config.confusion)
    skills = model.fit(data, gold).skills_
    right = skills["gold_right"] + skills["agreed"]
    wrong = skills["gold_items"] + skills["items"] - right
    a, b = config.prior_right + right, config.prior_wrong + wrong.clip(lower=0)
    lower, upper = beta.ppf(1 - LEVEL, a, b), beta.ppf(LEVEL, a, b)
    return {str(r.worker): CredibleScore(str(r.worker), int(r.gold_items),
                                         int(round(r.gold_right)), int(r.items),
                                         float(r.agreed), float(lo), float(hi),
                                         float(m))
            for r, lo, hi, m in zip(skills.itertuples(), lower, upper, a / (a + b),
                                    strict=True)}


@dataclass(frozen=True)
class GoldCheck:
    """A policy on its own known-answer items, a fifth of them hidden from it at a time: do
    its decisions hold on this crowd? A crowd wrong together (every worker giving one wrong
    answer) makes any model sure and wrong, and only the known answers show it."""

    items: int  # known-answer items checked
    decided: int  # how many the policy decided without their answers
    right: int
    promised: float  # the decided items' summed posteriors: how many it expected right

    @property
    def accuracy(self) -> float | None:
        return self.right / self.decided if self.decided else None

    @property
    def expected(self) -> float | None:
        return self.promised / self.decided if self.decided else None


Decide = Callable[[pd.DataFrame, dict[str, str], Collection[str]], pd.DataFrame]


def gold_check(data: pd.DataFrame, gold: Mapping[str, str], decide: Decide, folds: int = 5,
               seed: int = 0, limit: int | None = None) -> GoldCheck:
    """`decide(data, gold, final)` (an aggregator's `fit_predict`) run `folds` times, each
    with a fold of the gold tasks as ordinary tasks that get no more judgments; `limit`: a
    hidden task keeps only its first `limit` judgments (as many as other tasks had)."""
    tasks = sorted(set(gold) & set(data["task"]))
    random.Random(f"gold-check:{seed}").shuffle(tasks)
    decided = right = 0
    promised = 0.0
    for k in range(min(folds, len(tasks))):
        hidden = set(tasks[k::folds])
        shown = {t: a for t, a in gold.items() if t not in hidden}
        view = data
        if limit is not None:
            turn = data.groupby("task").cumcount()
            view = data[~data["task"].isin(hidden) | (turn < limit)]
        found = decide(view, shown, hidden)
        found = found[found["task"].isin(hidden)]
        decided += len(found)
        right += sum(same_answer(str(label), gold[str(task)])
                     for task, label in zip(found["task"], found["label"], strict=True))
        promised += float(found["support"].sum())
    return GoldCheck(len(tasks), decided, right, promised)


def gold_accuracy(data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
                  open_labels: bool = False) -> dict[str, GoldScore]:
    """Every worker's share right of the gold tasks they answered in `data` (Lawrie et al.'s
    80% rule; a worker who answered no gold task is not judged)."""
    on_gold = data[data["task"].isin(list(gold))]
    right = [same_answer(str(label), gold[str(task)])
             for task, label in zip(on_gold["task"], on_gold["label"], strict=True)]
    counts = pd.DataFrame({"worker": on_gold["worker"].astype(str), "right": right})
    found = counts.groupby("worker")["right"].agg(["size", "sum"])
    return {str(w): GoldScore(str(w), int(n), int(k))
            for w, n, k in zip(found.index, found["size"], found["sum"], strict=True)}


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


def score_batch(store: Store, batch_id: str, dropped: Collection[str]) -> list[GoldScore]:
    """Compute and store (replacing) the batch's worker gold accuracy, with the workers the
    policy's rule drops (`dropped`) flagged."""
    scores = gold_scores(store, batch_id)
    with store.transaction():
        store.execute("DELETE FROM worker_gold WHERE batch_id = ?", (batch_id,))
        insert_rows(store, "worker_gold", [
            (batch_id, s.worker, s.gold_items, s.gold_correct, s.accuracy,
             int(s.worker in dropped))
            for s in scores
        ])
    return scores


def kept_judgments(store: Store, kind: str, lang: str = "", *, gold: bool = False,
                   reviewed: bool = True, everyone: bool = False) -> pd.DataFrame:
    """Judgments of reviewed batches by workers not dropped (`everyone`: dropped too): task,
    worker, label (+ batch, seconds, simulated, gold), the long table crowd-kit takes; gold
    items' only if `gold`. `reviewed=False` takes every collected judgment of every worker."""
    open_tables(store)
    if reviewed:
        rows = store.query(
            "SELECT j.task, j.worker, j.label, j.batch_id, j.seconds, j.simulated, j.gold "
            "FROM judgments j JOIN hit_batches b USING (batch_id) JOIN worker_gold w "
            "ON w.batch_id = j.batch_id AND w.worker = j.worker "
            "WHERE b.kind = ? AND b.lang = ? AND b.state IN ('reviewed', 'sent', 'aggregated')"
            " AND j.gold <= ? AND (? OR w.dropped = 0) AND j.label != '' "
            "ORDER BY j.task, j.worker, j.rowid", (kind, lang, int(gold), int(everyone)),
        )
    else:
        rows = store.query(
            "SELECT j.task, j.worker, j.label, j.batch_id, j.seconds, j.simulated, j.gold "
            "FROM judgments j JOIN hit_batches b USING (batch_id) WHERE b.kind = ? AND "
            "b.lang = ? AND b.state != 'made' AND j.gold <= ? AND j.label != '' "
            "ORDER BY j.task, j.worker, j.rowid", (kind, lang, int(gold)),
        )
    columns = ["task", "worker", "label", "batch_id", "seconds", "simulated", "gold"]
    return pd.DataFrame([tuple(r) for r in rows], columns=columns)


def known_answers(store: Store, kind: str, lang: str = "") -> dict[str, str]:
    """Task -> known answer of the gold items shown in a round's HITs."""
    open_tables(store)
    return {r[0]: r[1] for r in store.query(
        "SELECT DISTINCT i.task, i.gold_answer FROM hit_items i JOIN hit_hits h USING (hit_id) "
        "JOIN hit_batches b USING (batch_id) WHERE i.gold = 1 AND b.kind = ? AND b.lang = ? "
        "AND i.gold_answer IS NOT NULL", (kind, lang))}
