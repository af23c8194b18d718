"""Name priors for the aligner (`align.name_prior`) against projection quality on span gold.

    python bench/bench_priors.py CONFIG GOLD.tsv [GOLD.tsv ...] [--priors 0 10]
        [--seeds 2015 1 2] [--json OUT]

For every prior and seed, the collection of CONFIG is built up to projection in a store of its
own (a temporary folder; the config's own store is never touched), seeded as the align stage
seeds eflomal, and its paper and name-aware projections are scored against each span gold
file (`xel eval projection --spans`). A seed changes eflomal's sampling, so one run per
setting is noise at a few thousand pairs: the table gives the mean and range over seeds, per
gold file, with AER absent (span gold has no links; `bench/bench_schedule.py` gives AER).
Prints one row per gold file and prior; writes every run with `--json`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from xel.config import load_config
from xel.evaluate import evaluate_span_gold
from xel.pipeline import make
from xel.store import Store


def run_once(config_path: Path, gold: list[Path], prior: float, seed: int) -> list[dict[str, Any]]:
    """Build to projection with this prior and seed; the span scores of each gold file."""
    base = load_config(config_path)
    with tempfile.TemporaryDirectory(prefix="xel-priors-") as tmp:
        config = base.model_copy(update={
            "align": base.align.model_copy(update={"name_prior": prior, "seed": seed}),
            "store": str(Path(tmp) / "xel.sqlite")})
        started = time.perf_counter()
        with Store(config.resolve(config.store)) as store:
            make(store, config, ["align", "project"])
            seconds = time.perf_counter() - started
            rows = []
            for path in gold:
                for row in evaluate_span_gold(store, path, config, with_triage=False):
                    rows.append({"gold": path.name, "lang": row["lang"],
                                 "projection": row["projection"], "prior": prior, "seed": seed,
                                 "mentions": row["mentions"],
                                 "fully correct %": row["fully correct %"],
                                 "seconds": round(seconds, 1)})
    return rows


def summary(runs: list[dict[str, Any]]) -> list[str]:
    """Mean (min-max) fully correct % over seeds, per gold file, projection and prior."""
    groups: dict[tuple[str, str, float, str], list[float]] = {}
    for r in runs:
        key = (r["gold"], r["lang"], r["prior"], r["projection"])
        groups.setdefault(key, []).append(r["fully correct %"])
    lines = ["| gold | lang | prior | projection | fully correct % (mean, min-max) | seeds |",
             "|---|---|---|---|---|---|"]
    for (gold, lang, prior, method), values in sorted(groups.items()):
        lines.append(f"| {gold} | {lang} | {prior:g} | {method} | {statistics.mean(values):.1f} "
                     f"({min(values):.1f}-{max(values):.1f}) | {len(values)} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("gold", type=Path, nargs="+", help="span gold files (--spans)")
    parser.add_argument("--priors", type=float, nargs="+", default=[0, 10])
    parser.add_argument("--seeds", type=int, nargs="+", default=[2015, 1, 2])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    runs = []
    for prior in args.priors:
        for seed in args.seeds:
            runs += run_once(args.config, args.gold, prior, seed)
            print(f"prior {prior:g} seed {seed}: " + ", ".join(
                f"{r['gold']} {r['projection']} {r['fully correct %']}" for r in runs[-2 * len(
                    args.gold):]), flush=True)
    print("\n".join(summary(runs)))
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
