"""Checks and plots for `hits eval aggregation` on public crowd answer sets.

    python bench/bench_aggregation.py reproduce DIR...      # DIR holds answer.csv, truth.csv
    python bench/bench_aggregation.py plot OUT.svg EVAL.json...

`reproduce` runs crowd-kit's MajorityVote and DawidSkene straight on each set's files (every
answer, no gold) and beside them the replay's reference rows (`--gold-share 0 --budget all`),
so a reader can see that the replay reads the answers as crowd-kit does. `plot` draws, per
set, each policy's accuracy on kept tasks against judgments per task (budgets 2, 3, 5,
adaptive; all), from the JSON files `hits eval aggregation --json` wrote.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pandas as pd

from hits.replay import evaluate
from xel.config import HitsConfig

COLUMNS = ["question", "worker", "answer"]


def reproduce(folder: Path) -> dict[str, float]:
    """Accuracy (%) of crowd-kit run directly, and of the replay's reference rows."""
    from crowdkit.aggregation import DawidSkene, MajorityVote

    answers = pd.read_csv(folder / "answer.csv", dtype=str).rename(
        columns={"question": "task", "answer": "label"})
    truth = pd.read_csv(folder / "truth.csv", dtype=str).set_index("question")["truth"]
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, model in (("mv", MajorityVote()), ("ds", DawidSkene(n_iter=100))):
            labels = model.fit_predict(answers[["task", "worker", "label"]])
            scored = truth[truth.index.isin(labels.index)]
            found[f"crowd-kit {name}"] = 100 * float((labels[scored.index] == scored).mean())
        rows, _ = evaluate(folder / "answer.csv", folder / "truth.csv", COLUMNS,
                           ["question", "truth"], 0.0, 1, [], ["all"], HitsConfig())
    for r in rows:
        found[f"replay {r.policy}"] = 100 * (r.accuracy or 0.0)
    return found


def plot(out: Path, files: list[Path]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    columns = min(4, len(files))
    rows_of_plots = -(-len(files) // columns)
    fig, axes = plt.subplots(rows_of_plots, columns, figsize=(4.2 * columns, 3.6 * rows_of_plots),
                             squeeze=False)
    for ax in axes.flat[len(files):]:
        ax.set_visible(False)
    for ax, path in zip(list(axes.flat)[:len(files)], files, strict=True):
        rows = pd.DataFrame(json.loads(path.read_text(encoding="utf-8"))["rows"])
        rows = rows[rows["accuracy"].notna()]
        for policy, group in rows.groupby("policy", sort=False):
            fixed = group[group["budget"] != "adaptive"].sort_values("judgments_per_task")
            line = ax.plot(fixed["judgments_per_task"], 100 * fixed["accuracy"], marker="o",
                           label=str(policy))[0]
            adaptive = group[group["budget"] == "adaptive"]
            ax.scatter(adaptive["judgments_per_task"], 100 * adaptive["accuracy"],
                       marker="*", s=120, color=line.get_color())
        ax.set_xscale("log")
        ax.set_title(path.stem.replace("_", " "))
        ax.set_xlabel("judgments per task (star: adaptive)")
        ax.set_ylabel("accuracy on kept tasks (%)")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, format="svg", metadata={"Date": None})


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "reproduce":
        for folder in map(Path, sys.argv[2:]):
            figures = reproduce(folder)
            print(folder.name, {k: round(v, 2) for k, v in figures.items()})
    elif len(sys.argv) > 3 and sys.argv[1] == "plot":
        plot(Path(sys.argv[2]), [Path(p) for p in sys.argv[3:]])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
