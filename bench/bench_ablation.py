"""Each projection rule switched off in turn, scored on span gold: what every rule earns.

    python bench/bench_ablation.py CONFIG GOLD.tsv [GOLD.tsv ...] [--json OUT]

The collection of CONFIG is aligned once, in a store of its own (a temporary folder; the
config's store is never touched), then projected again for every setting of the
`project` section's switches: the paper's method (`name_aware: false`), xel with all rules,
and xel with one of `name_match`, `trim`, `parentheses` and `characters` off. Each
projection is scored against every span gold file (`xel eval projection --spans`). A rule
earns its place where switching it off loses on every set; the table prints one row per gold
file and setting, with the difference from all rules on.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from xel.config import Config, load_config
from xel.evaluate import evaluate_span_gold
from xel.pipeline import make
from xel.store import Store

RULES = ("name_match", "trim", "parentheses", "characters")


def settings(config: Config) -> dict[str, Config]:
    """The configs to project with: the paper's method, all rules, each rule off."""
    def with_project(**changes: bool) -> Config:
        return config.model_copy(update={"project": config.project.model_copy(update=changes)})

    return {"paper": with_project(name_aware=False), "all rules": config,
            **{f"no {rule}": with_project(**{rule: False}) for rule in RULES}}


def ablate(config_path: Path, gold: list[Path]) -> list[dict[str, Any]]:
    base = load_config(config_path)
    rows = []
    with tempfile.TemporaryDirectory(prefix="xel-ablation-") as tmp:
        base = base.model_copy(update={"store": str(Path(tmp) / "xel.sqlite")})
        with Store(base.resolve(base.store)) as store:
            for name, config in settings(base).items():
                make(store, config, ["project"])
                for path in gold:
                    for row in evaluate_span_gold(store, path, config, with_triage=False):
                        if row["projection"] == "xel":  # `paper` here is the stored aligned span
                            rows.append({"gold": path.name, "lang": row["lang"],
                                         "setting": name, "mentions": row["mentions"],
                                         "fully correct %": row["fully correct %"]})
    return rows


def table(rows: list[dict[str, Any]]) -> list[str]:
    full = {(r["gold"], r["lang"]): r["fully correct %"] for r in rows
            if r["setting"] == "all rules"}
    lines = ["| gold | lang | setting | mentions | fully correct % | against all rules |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        delta = r["fully correct %"] - full[r["gold"], r["lang"]]
        lines.append(f"| {r['gold']} | {r['lang']} | {r['setting']} | {r['mentions']} | "
                     f"{r['fully correct %']:.1f} | {delta:+.1f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("gold", type=Path, nargs="+", help="span gold files (--spans)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = ablate(args.config, args.gold)
    print("\n".join(table(rows)))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
