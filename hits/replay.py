"""`hits eval aggregation`: replay a table of real crowd answers under each policy and budget.

A requester chooses a policy from past HIT results, and anyone can check xel's figures on their
own data. A seeded share of the tasks with truth become gold (their answers are known to the
policies, as gold items in HITs are, and they are not scored), or the known answers a round's
HITs really showed (`--gold`). Each other task's answers are taken in one seeded order: budget
`k` uses its first `k`, `all` every one, `adaptive` starts with `hits.min_assignments` and
asks one more (the next in the order) of every task the policy has not decided, until it
decides or `hits.max_assignments` is reached. Each policy decides as it does in a live round
(`hits.policy.Policy.decide`: its worker rule, then its aggregator); a table of answers is one
batch. crowd-kit's MajorityVote and DawidSkene (`crowd-kit-mv`, `crowd-kit-ds`) run beside
them on the same answers, deciding every task, as references.
"""

from __future__ import annotations

import csv
import random
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from hits.aggregate import COLUMNS
from hits.policy import get_policy
from hits.quality import GoldCheck, gold_check
from xel.config import HitsConfig
from xel.errors import XelError
from xel.stages import Signature, code_digest, digest_of, file_digest, versions


def _majority_vote() -> Any:
    from crowdkit.aggregation import MajorityVote

    return MajorityVote()


def _dawid_skene() -> Any:
    from crowdkit.aggregation import DawidSkene

    return DawidSkene(n_iter=100)


# crowd-kit's models, run beside the policies on the same answers, deciding every task.
REFERENCES: dict[str, Callable[[], Any]] = {"crowd-kit-mv": _majority_vote,
                                            "crowd-kit-ds": _dawid_skene}


@dataclass(frozen=True)
class Row:
    policy: str
    budget: str
    accuracy: float | None  # on the kept (decided) tasks with truth
    coverage: float  # share of tasks with truth decided
    accuracy_all: float  # right / tasks with truth (a dropped task counts as wrong)
    judgments_per_task: float  # non-gold judgments used per non-gold task
    single_judgment_decisions: int  # decided tasks resting on one judgment
    # the policy on its gold tasks, hidden a fifth at a time and cut to the budget (fixed
    # budgets of policies, not references): does it hold what its posteriors promise?
    gold_check: GoldCheck | None = None
    dropped: tuple[str, ...] = ()  # workers the policy's rule dropped, whose answers it ignored
    decided: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False, compare=False)


def read_table(path: Path, columns: Sequence[str], names: Sequence[str]) -> pd.DataFrame:
    """The named columns of a CSV file (header line first), renamed to `names`; an error names
    the file, the line and the fix."""
    if len(columns) != len(names):
        raise XelError(f"{path}: give {len(names)} column names ({', '.join(names)}), got "
                       f"{len(columns)}: {', '.join(columns)}")
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            missing = [c for c in columns if c not in header]
            if missing:
                raise XelError(f"{path}, line 1: no column {', '.join(missing)} (the header has "
                               f"{', '.join(header) or 'nothing'}): pass the right names")
            rows = []
            for number, row in enumerate(reader, start=2):
                values = [(row.get(c) or "").strip() for c in columns]
                if not all(values):
                    raise XelError(f"{path}, line {number}: empty {columns[values.index('')]}; "
                                   "every row needs a value in each named column")
                rows.append(values)
    except OSError as e:
        raise XelError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise XelError(f"{path} is not UTF-8 text ({e.reason})") from None
    return pd.DataFrame(rows, columns=list(names))


def read_answers(path: Path, columns: Sequence[str]) -> pd.DataFrame:
    answers = read_table(path, columns, ("task", "worker", "label"))
    if answers.empty:
        raise XelError(f"{path}: no answers")
    return answers.drop_duplicates(["task", "worker"], keep="first").reset_index(drop=True)


def read_truth(path: Path, columns: Sequence[str]) -> dict[str, str]:
    table = read_table(path, columns, ("task", "truth"))
    truth: dict[str, str] = {}
    for number, (task, answer) in enumerate(zip(table["task"], table["truth"], strict=True), 2):
        if truth.get(task, answer) != answer:
            raise XelError(f"{path}, line {number}: task {task!r} has two truths "
                           f"({truth[task]!r}, {answer!r}): keep one")
        truth[task] = answer
    return truth


def split_gold(truth: Mapping[str, str], share: float, seed: int) -> dict[str, str]:
    """A seeded `share` of the tasks with truth, as gold."""
    tasks = sorted(truth)
    chosen = random.Random(f"gold:{seed}").sample(tasks, round(len(tasks) * share))
    return {t: truth[t] for t in chosen}


def ordered(answers: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Each task's answers in one seeded order, numbered from 0 (`turn`); `row` keeps their
    place in the file."""
    answers = answers.assign(row=range(len(answers)))
    shuffled = answers.sample(frac=1.0, random_state=random.Random(seed).randrange(2**32))
    shuffled = shuffled.sort_values("task", kind="stable")
    return shuffled.assign(turn=shuffled.groupby("task").cumcount()).reset_index(drop=True)


def reference_decisions(name: str, data: pd.DataFrame, gold: Mapping[str, str]) -> pd.DataFrame:
    """crowd-kit's model `name` (`REFERENCES`) on the non-gold answers, deciding every task."""
    # In the file's order, as crowd-kit would get them (its ties go by first seen).
    asked = data[~data["task"].isin(list(gold))].sort_values("row")[["task", "worker", "label"]]
    labels = REFERENCES[name]().fit_predict(asked)
    size = asked.groupby("task").size()
    return pd.DataFrame({"task": labels.index, "label": labels.to_numpy(),
                         "support": 1.0, "judgments": size.reindex(labels.index).to_numpy()})


def replay_decisions(name: str, data: pd.DataFrame, gold: Mapping[str, str],
                     config: HitsConfig, final: Collection[str]) -> pd.DataFrame:
    """A policy's decisions on `data` as a live round makes them (`Policy.decide`), or a
    reference's; `final`: the tasks that will get no more answers."""
    if name in REFERENCES:
        return reference_decisions(name, data, gold)
    return get_policy(name).decide(data, gold, config, final)[0]


def _dropped(name: str, data: pd.DataFrame, gold: Mapping[str, str],
             config: HitsConfig) -> tuple[str, ...]:
    if name in REFERENCES:
        return ()
    policy = get_policy(name)
    if policy.weighs_everyone:
        return ()
    return tuple(sorted({w for _, w in policy.dropped(data, gold, config)}))


def replay(answers: pd.DataFrame, truth: Mapping[str, str], gold: Mapping[str, str],
           policy: str, budget: str, config: HitsConfig, seed: int) -> Row:
    """One policy at one budget: its figures on the non-gold tasks with truth."""
    turns = ordered(answers, seed)
    on_gold = turns[turns["task"].isin(list(gold))]
    asked = turns[~turns["task"].isin(list(gold))]
    available = asked.groupby("task").size()
    check = None
    if budget == "adaptive" and policy not in REFERENCES and get_policy(policy).adaptive:
        used = asked[asked["turn"] < config.min_assignments]
        while True:
            counts = used.groupby("task").size()
            final = counts[(counts >= config.max_assignments)
                           | (counts >= available.reindex(counts.index))].index
            data = pd.concat([on_gold, used])
            decided = replay_decisions(policy, data, gold, config, list(final))
            open_tasks = set(counts.index) - set(final) - set(decided["task"])
            more = asked[asked["task"].isin(open_tasks)
                         & (asked["turn"] == asked["task"].map(counts).fillna(0))]
            if more.empty:
                break
            used = pd.concat([used, more])
    else:
        if budget == "adaptive":
            limit = config.assignments
        else:
            limit = len(answers) if budget == "all" else int(budget)
        used = asked[asked["turn"] < limit]
        data = pd.concat([on_gold, used])
        decided = replay_decisions(policy, data, gold, config, list(available.index))
        if policy not in REFERENCES:
            check = gold_check(data, gold, lambda d, g, hidden: replay_decisions(
                policy, d, g, config, [*available.index, *hidden]), seed=seed, limit=limit)
    present = set(asked["task"])
    scored = [t for t in truth if t not in gold and t in present]
    if not scored:
        raise XelError("no task with truth is left to score after taking the gold share: "
                       "lower --gold-share or give more truth")
    labels = dict(zip(decided["task"], decided["label"], strict=True))
    kept = [t for t in scored if t in labels]
    right = sum(str(labels[t]) == truth[t] for t in kept)
    judgments = dict(zip(decided["task"], decided["judgments"], strict=True))
    return Row(policy, budget, right / len(kept) if kept else None, len(kept) / len(scored),
               right / len(scored), len(used) / max(1, used["task"].nunique()),
               sum(int(judgments[t]) == 1 for t in kept), check,
               _dropped(policy, data, gold, config), decided)


def evaluate(answers_path: Path, truth_path: Path, columns: Sequence[str],
             truth_columns: Sequence[str], gold_share: float, seed: int,
             policies: Sequence[str], budgets: Sequence[str], config: HitsConfig,
             gold_path: Path | None = None) -> tuple[list[Row], Signature]:
    """Every policy (and the references) at every budget, with the signature of the figures.
    The gold is `gold_path`'s known answers (the gold items a round's HITs showed), else a
    seeded `gold_share` of the truth."""
    for budget in budgets:
        if budget not in ("all", "adaptive") and not (budget.isdigit() and int(budget) > 0):
            raise XelError(f"--budget {budget!r}: give a positive number, all or adaptive")
    if not 0 <= gold_share < 1:
        raise XelError(f"--gold-share {gold_share}: give a share in [0, 1)")
    answers = read_answers(answers_path, columns)
    truth = read_truth(truth_path, truth_columns)
    if not set(truth) & set(answers["task"]):
        raise XelError(f"no task of {truth_path} has an answer in {answers_path}: are the "
                       "--columns and --truth-columns the right ones?")
    present = set(answers["task"])
    if gold_path is not None:
        gold = {t: a for t, a in read_truth(gold_path, truth_columns).items() if t in present}
    else:
        gold = split_gold({t: a for t, a in truth.items() if t in present}, gold_share, seed)
    rows = [replay(answers, truth, gold, policy, budget, config, seed)
            for budget in budgets for policy in [*policies, *REFERENCES]]
    parts = {"answers": file_digest(answers_path), "truth": file_digest(truth_path),
             **({"gold": file_digest(gold_path)} if gold_path is not None else {}),
             "columns": ",".join(columns), "truth_columns": ",".join(truth_columns),
             "gold_share": str(gold_share), "seed": str(seed), "policies": ",".join(policies),
             "budgets": ",".join(budgets), "hits": digest_of(config),
             # the settings a reader compares figures by, readable
             "confusion": config.confusion, "min_posterior": str(config.min_posterior),
             "cap_posterior": str(config.cap_posterior),
             "min_judgments": str(config.min_judgments),
             "code": code_digest(sys.modules[__name__], sys.modules["hits.aggregate"],
                                 sys.modules["hits.anchored"], sys.modules["hits.quality"])}
    parts.update(versions("crowd-kit", "pandas", "numpy", "scipy"))
    return rows, Signature("eval-aggregation", parts)


def write_decisions(rows: Sequence[Row], path: Path) -> int:
    """Every decision of every policy and budget as CSV (policy, budget, task, label, support,
    judgments), for reading them beside a live round's links; returns how many."""
    frames = [r.decided[COLUMNS].assign(policy=r.policy, budget=r.budget) for r in rows]
    table = pd.concat(frames)[["policy", "budget", *COLUMNS]] if frames else pd.DataFrame()
    table.to_csv(path, index=False)
    return len(table)


def as_json(rows: Sequence[Row], signature: Signature) -> dict[str, object]:
    """The figures' rows, then each gold check and the workers each policy's rule dropped
    (with policy and budget), and the signature."""
    extra = ("gold_check", "dropped", "decided")
    return {"rows": [{k: v for k, v in asdict(r).items() if k not in extra} for r in rows],
            "gold_check": [{"policy": r.policy, "budget": r.budget, **asdict(r.gold_check)}
                           for r in rows if r.gold_check],
            "dropped": [{"policy": r.policy, "budget": r.budget, "workers": list(r.dropped)}
                        for r in rows if r.policy not in REFERENCES],
            "signature": signature.text}
