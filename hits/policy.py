"""Crowd decision policies: everything that decides how a crowd's answers become decisions.

A `Policy` is registered by name (`xel.registry.policies`; `hits.policy` chooses one) and
carries the whole rule, so a live round (`hits.workflow`), a replay of past answers
(`hits.replay`), HIT making (`hits.make`) and the report ask it rather than comparing names:

- its aggregator (`hits.aggregate`), the model that decides tasks;
- its worker rule: how each worker is scored (`WorkerRule`), on each batch alone (Lawrie et
  al.) or on the whole round, and whether the model still sees the answers of workers the rule
  drops (dropping always decides pay and later work);
- whether it is adaptive (HITs start with `hits.min_assignments` workers and get more only
  where it is unsure) or asks `hits.assignments` workers of every HIT;
- its outcome rule for a curated name: Figure 4's vote count or the model's decision.

`paper` is Lawrie et al.'s: three workers, those under 80% on a batch's gold dropped, the rest
unanimous. `gold-dawid-skene` (the default) weighs every worker in a gold-anchored model; the
vote rules and crowd-kit's models see the workers the credible rule keeps.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from hits.aggregate import (
    COLUMNS,
    Aggregator,
    dawid_skene,
    gold_anchored,
    majority,
    one_coin_dawid_skene,
    unanimous,
)
from hits.quality import credible_scores, gold_accuracy
from hits.store import MISSING
from xel.config import HitsConfig
from xel.registry import policies


class WorkerScore(Protocol):
    """A worker's evidence under a rule: dropped (and not paid) under a threshold, and why."""

    @property
    def skill(self) -> float | None: ...

    def dropped(self, threshold: float) -> bool: ...

    def reason(self, threshold: float) -> str: ...


# Scores every worker on a long table of judgments (gold tasks included) and its gold answers;
# the flag says whether labels are an open set (curated names).
WorkerRule = Callable[[pd.DataFrame, Mapping[str, str], HitsConfig, bool],
                      Mapping[str, WorkerScore]]
AggregatorFactory = Callable[[HitsConfig, bool], Aggregator]
# (outcome code, name) of a curated name.
Outcome = tuple[str, str | None]


@dataclass(frozen=True)
class Policy:
    name: str
    aggregator: AggregatorFactory
    rule: WorkerRule
    adaptive: bool = True
    per_batch: bool = False  # workers judged on each batch's gold alone, as Lawrie et al. did
    weighs_everyone: bool = False  # the model sees dropped workers' answers too
    figure4: bool = False  # name outcomes by Figure 4's vote count, not the model's decision

    def first_assignments(self, config: HitsConfig) -> int:
        """Workers a new HIT asks for."""
        return config.min_assignments if self.adaptive else config.assignments

    def max_asks(self, config: HitsConfig) -> int:
        """Batches a task may be asked in. Adaptive policies ask again only where they are
        unsure (one more worker, `hits.workflow`), never for a count of judgments."""
        if self.adaptive or config.dropped == "discard":
            return 1
        return config.max_asks

    def worker_scores(self, data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
                      open_labels: bool = False, batch_id: str | None = None
                      ) -> Mapping[str, WorkerScore]:
        """Each worker's score as the rule sees them when `batch_id` is reviewed: on that
        batch's judgments alone for a per-batch rule, else on all of `data`."""
        if self.per_batch and batch_id is not None:
            data = data[data["batch_id"] == batch_id]
        return self.rule(data, gold, config, open_labels)

    def dropped(self, data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
                open_labels: bool = False) -> set[tuple[str, str]]:
        """(batch, worker) pairs the rule drops at `hits.threshold`; a table without a
        `batch_id` column (a replay) is one batch, ''."""
        data = _with_batch(data)[self._dropped_rows(data, gold, config, open_labels)]
        return set(zip(data["batch_id"].astype(str), data["worker"].astype(str), strict=True))

    def seen(self, data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
             open_labels: bool = False) -> pd.DataFrame:
        """The judgments the model decides on: all, or those of workers the rule keeps."""
        if self.weighs_everyone or data.empty:
            return data
        return data[~self._dropped_rows(data, gold, config, open_labels)]

    def _dropped_rows(self, data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
                      open_labels: bool) -> pd.Series:
        """True for each judgment of a worker the rule drops (in that judgment's batch)."""
        batches = _with_batch(data)["batch_id"]
        mask = pd.Series(False, index=data.index)
        for _, part in (data.groupby(batches) if self.per_batch else [("", data)]):
            scores = self.rule(part, gold, config, open_labels)
            out = [w for w, s in scores.items() if s.dropped(config.threshold)]
            mask[part.index] = part["worker"].isin(out)
        return mask

    def decide(self, data: pd.DataFrame, gold: Mapping[str, str], config: HitsConfig,
               final: Collection[str] = (), open_labels: bool = False
               ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The policy's decisions (task, label, support, judgments) on a round's or a replay's
        judgments, every worker's included (`final`: the tasks that get no more answers), and
        the judgments it decided on (`seen`)."""
        seen = self.seen(data, gold, config, open_labels)
        decided = self.aggregator(config, open_labels).fit_predict(seen, gold, final)
        return decided[COLUMNS], seen

    def name_outcome(self, labels: list[str], decided: str | None,
                     config: HitsConfig) -> Outcome | None:
        """Figure 4's code for a curated name, from its kept answers or the model's decision;
        None where Figure 4 has too few answers to say."""
        if self.figure4:
            return figure4(labels) if len(labels) >= config.assignments else None
        if decided is None:
            return "E", None
        return model_outcome(decided, labels)


def _with_batch(data: pd.DataFrame) -> pd.DataFrame:
    return data if "batch_id" in data else data.assign(batch_id="")


def figure4(labels: list[str]) -> Outcome:
    """Lawrie et al.'s Figure 4 for one curation task's kept answers: (outcome, name).

    A2: three (all) agree on a name; A3: all but one agree and that one said missing; D2: two
    or more said missing; anything else goes to the expert ('E', decided later).
    """
    missing = sum(label == MISSING for label in labels)
    names = [label for label in labels if label != MISSING]
    if missing >= 2:
        return "D2", None
    if len(set(names)) == 1 and len(names) >= 2:
        if missing == 0 and len(names) >= 3:
            return "A2", names[0]
        if missing == 1:
            return "A3", names[0]
    return "E", None


def model_outcome(label: str, labels: list[str]) -> Outcome:
    """Figure 4's code for a name the model decided: D2 when it decided MISSING, A2 for a name
    nobody called missing, A3 for one some worker did."""
    if label == MISSING:
        return "D2", None
    return ("A3" if MISSING in labels else "A2"), label


def register(policy: Policy) -> Policy:
    policies.register(policy.name)(policy)
    return policy


def get_policy(name: str) -> Policy:
    policy: Policy = policies.get(name)
    return policy


register(Policy("gold-dawid-skene", gold_anchored, credible_scores, weighs_everyone=True))
register(Policy("paper", unanimous, gold_accuracy, adaptive=False, per_batch=True,
                figure4=True))
register(Policy("unanimous", unanimous, credible_scores))
register(Policy("majority", majority, credible_scores))
register(Policy("dawid-skene", dawid_skene, credible_scores))
register(Policy("one-coin-dawid-skene", one_coin_dawid_skene, credible_scores))
