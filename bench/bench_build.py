"""Wall time and peak memory of a whole `xel build` from an empty store.

    python bench/bench_build.py CONFIG [--runs 2] [--json OUT]

Each run copies CONFIG with `store` and `output` moved to a fresh temporary folder (the KB
index stays where the config puts it, built once beforehand), runs `xel build` under
`/usr/bin/time -v`, and reports wall time and peak RSS; the median run is the figure.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml


def one_run(config: Path) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data = yaml.safe_load(config.read_text(encoding="utf-8"))
        root = (config.parent / data.get("root", ".")).resolve()
        data.update(root=str(root), store=f"{tmp}/xel.sqlite", output=f"{tmp}/out")
        copy = Path(tmp) / config.name
        copy.write_text(yaml.safe_dump(data), encoding="utf-8")
        run = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "xel", "build",
                              str(copy)], capture_output=True, text=True, cwd=root)
        if run.returncode:
            raise SystemExit(f"xel build failed:\n{run.stderr[-3000:]}")
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", run.stderr)
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
        if not wall or not rss:
            raise SystemExit("could not read /usr/bin/time's report")
        hours, minutes, seconds = (float(g or 0) for g in wall.groups())
        return {"wall_s": hours * 3600 + minutes * 60 + seconds,
                "peak_rss_mib": int(rss.group(1)) / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    runs = [one_run(args.config.resolve()) for _ in range(args.runs)]
    figures = {"config": str(args.config), "runs": runs,
               "median_wall_s": statistics.median(r["wall_s"] for r in runs),
               "max_peak_rss_mib": max(r["peak_rss_mib"] for r in runs)}
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
