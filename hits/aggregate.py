"""Aggregators: from the long judgments table (task, worker, label) to one label per task.

Each aggregator is registered by name in `xel.registry.aggregators` and has crowd-kit's shape:
`fit_predict(data) -> DataFrame[task, label, support, judgments]`, keeping only the tasks it is
confident about. `unanimous` is Lawrie et al.'s rule; `majority` keeps a strict majority;
`dawid-skene` and `one-coin-dawid-skene` are crowd-kit's models, kept where the
posterior of the chosen label reaches `hits.min_posterior`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Protocol

import pandas as pd

from hits.store import MISSING
from xel.config import HitsConfig
from xel.registry import aggregators

COLUMNS = ["task", "label", "support", "judgments"]


class Aggregator(Protocol):
    def fit_predict(self, data: pd.DataFrame) -> pd.DataFrame: ...


def _votes(data: pd.DataFrame) -> pd.DataFrame:
    """Per task: the most frequent label, its count and the number of judgments."""
    counts = data.groupby(["task", "label"]).size().rename("votes").reset_index()
    counts = counts.sort_values(["task", "votes", "label"], ascending=[True, False, True])
    top = counts.drop_duplicates("task").set_index("task")
    top["judgments"] = data.groupby("task").size()
    return top.reset_index()


@dataclass
class Unanimous:
    """Every kept judgment agrees, and there are at least `min_judgments` of them."""

    min_judgments: int = 3

    def fit_predict(self, data: pd.DataFrame) -> pd.DataFrame:
        if data.empty:
            return pd.DataFrame(columns=COLUMNS)
        top = _votes(data)
        keep = top[(top["votes"] == top["judgments"]) & (top["judgments"] >= self.min_judgments)]
        return keep.assign(support=1.0)[COLUMNS].reset_index(drop=True)


@dataclass
class Majority:
    """More than half of the kept judgments (at least two) agree."""

    def fit_predict(self, data: pd.DataFrame) -> pd.DataFrame:
        if data.empty:
            return pd.DataFrame(columns=COLUMNS)
        top = _votes(data)
        keep = top[(top["votes"] * 2 > top["judgments"]) & (top["votes"] >= 2)]
        support = keep["votes"] / keep["judgments"]
        return keep.assign(support=support)[COLUMNS].reset_index(drop=True)


@dataclass
class Posterior:
    """A crowd-kit model: the most probable label where its posterior reaches `min_posterior`."""

    model: Any
    min_posterior: float = 0.99

    def fit_predict(self, data: pd.DataFrame) -> pd.DataFrame:
        if data.empty:
            return pd.DataFrame(columns=COLUMNS)
        with warnings.catch_warnings():
            # crowd-kit 1.4 uses pandas keywords that pandas 3 deprecates; not ours to fix.
            warnings.filterwarnings("ignore", category=FutureWarning, module="crowdkit")
            warnings.filterwarnings("ignore", category=DeprecationWarning, module="crowdkit")
            proba = self.model.fit_predict_proba(data[["task", "worker", "label"]])
        best = pd.DataFrame({"label": proba.idxmax(axis=1), "support": proba.max(axis=1)})
        best["judgments"] = data.groupby("task").size()
        best = best[best["support"] >= self.min_posterior]
        return best.rename_axis("task").reset_index()[COLUMNS]


@aggregators.register("unanimous")
def unanimous(config: HitsConfig) -> Aggregator:
    return Unanimous(config.assignments)


@aggregators.register("majority")
def majority(config: HitsConfig) -> Aggregator:
    return Majority()


@aggregators.register("dawid-skene")
def dawid_skene(config: HitsConfig) -> Aggregator:
    from crowdkit.aggregation import DawidSkene

    return Posterior(DawidSkene(n_iter=100), config.min_posterior)


@aggregators.register("one-coin-dawid-skene")
def one_coin_dawid_skene(config: HitsConfig) -> Aggregator:
    from crowdkit.aggregation import OneCoinDawidSkene

    return Posterior(OneCoinDawidSkene(n_iter=100), config.min_posterior)


def get_aggregator(name: str, config: HitsConfig) -> Aggregator:
    factory = aggregators.get(name)
    aggregator: Aggregator = factory(config)
    return aggregator


def name_outcome(labels: list[str]) -> tuple[str, str | None]:
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
