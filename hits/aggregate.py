"""Aggregators: from the long judgments table (task, worker, label) to one label per task.

Each aggregator has crowd-kit's shape: `fit_predict(data, gold, final) -> DataFrame[task,
label, support, judgments]`, where `data` holds the judgments of gold tasks too, `gold` their
known answers and `final` the tasks that will get no more judgments; it returns only the
non-gold tasks it decided. `GoldAnchored` (the default policy's) is
`hits.anchored.GoldDawidSkene`, deciding a task where its posterior reaches
`hits.min_posterior` (a final entity-linking task: `hits.cap_posterior`) on at least
`hits.min_judgments` judgments; `Unanimous` and `Majority` are plain votes; `Posterior` wraps
crowd-kit's models (no use of gold), kept at `hits.min_posterior`. A policy (`hits.policy`)
pairs an aggregator with the workers it sees. A task an aggregator did not decide is one more
worker could settle (`hits.workflow`).
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import pandas as pd

from hits.anchored import GoldDawidSkene
from xel.config import HitsConfig

COLUMNS = ["task", "label", "support", "judgments"]


class Aggregator(Protocol):
    def fit_predict(self, data: pd.DataFrame, gold: Mapping[str, str],
                    final: Collection[str] = ()) -> pd.DataFrame: ...


def without_gold(data: pd.DataFrame, gold: Mapping[str, str]) -> pd.DataFrame:
    """The judgments of tasks that are not gold (what vote-based rules decide on)."""
    return data[~data["task"].isin(list(gold))]


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

    def fit_predict(self, data: pd.DataFrame, gold: Mapping[str, str],
                    final: Collection[str] = ()) -> pd.DataFrame:
        data = without_gold(data, gold)
        if data.empty:
            return pd.DataFrame(columns=COLUMNS)
        top = _votes(data)
        keep = top[(top["votes"] == top["judgments"]) & (top["judgments"] >= self.min_judgments)]
        return keep.assign(support=1.0)[COLUMNS].reset_index(drop=True)


@dataclass
class Majority:
    """More than half of the kept judgments (at least two) agree."""

    def fit_predict(self, data: pd.DataFrame, gold: Mapping[str, str],
                    final: Collection[str] = ()) -> pd.DataFrame:
        data = without_gold(data, gold)
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

    def fit_predict(self, data: pd.DataFrame, gold: Mapping[str, str],
                    final: Collection[str] = ()) -> pd.DataFrame:
        data = without_gold(data, gold)
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


@dataclass
class GoldAnchored:
    """`GoldDawidSkene`'s most probable label where its posterior reaches `min_posterior` and
    at least `min_judgments` judgments back it (one lucky answer never decides a task).

    A task that will get no more judgments (`final`: at `hits.max_assignments`, or out of
    answers in a replay) is kept from `cap_posterior` up: asking more is no longer possible,
    and dropping a task both models think 90% likely loses it for nothing better."""

    model: GoldDawidSkene
    min_posterior: float = 0.99
    min_judgments: int = 2
    cap_posterior: float = 0.99

    def fit_predict(self, data: pd.DataFrame, gold: Mapping[str, str],
                    final: Collection[str] = ()) -> pd.DataFrame:
        if without_gold(data, gold).empty:
            return pd.DataFrame(columns=COLUMNS)
        found = self.model.fit(data, gold).labels_
        needed = found["task"].isin(list(final)).map(
            {True: min(self.cap_posterior, self.min_posterior), False: self.min_posterior})
        keep = found[~found["gold"] & (found["posterior"] >= needed)
                     & (found["judgments"] >= self.min_judgments)]
        return keep.rename(columns={"posterior": "support"})[COLUMNS].reset_index(drop=True)


# Each factory takes the round's settings and whether its labels are an open set (names);
# `hits.policy` pairs them with worker rules.
def gold_anchored(config: HitsConfig, open_labels: bool = False) -> Aggregator:
    model = GoldDawidSkene(config.prior_right, config.prior_wrong, open_labels=open_labels,
                           open_options=config.open_options, confusion=config.confusion)
    # A name unsure at the cap goes to the expert, who can do better than keep it.
    cap = config.min_posterior if open_labels else config.cap_posterior
    return GoldAnchored(model, config.min_posterior, config.min_judgments, cap)


def unanimous(config: HitsConfig, open_labels: bool = False) -> Aggregator:
    return Unanimous(config.assignments)


def majority(config: HitsConfig, open_labels: bool = False) -> Aggregator:
    return Majority()


def dawid_skene(config: HitsConfig, open_labels: bool = False) -> Aggregator:
    from crowdkit.aggregation import DawidSkene

    return Posterior(DawidSkene(n_iter=100), config.min_posterior)


def one_coin_dawid_skene(config: HitsConfig, open_labels: bool = False) -> Aggregator:
    from crowdkit.aggregation import OneCoinDawidSkene

    return Posterior(OneCoinDawidSkene(n_iter=100), config.min_posterior)
