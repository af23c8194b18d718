"""Wall time, peak memory and time per stage of a whole `xel build` from an empty store.

    python bench/bench_build.py CONFIG [--runs 2] [--work DIR] [--json OUT]

Each run copies CONFIG with `store` and `output` moved to a fresh folder (temporary, or
`--work DIR/run-<k>`, kept for comparing collections; the KB index stays where the config puts
it, built by the first run; the transliteration models' decodings go to the run's folder, so
no build starts with another's), runs `xel build` under `/usr/bin/time -v`, and reports wall
time, peak RSS and the load average (one-minute, sampled every 10 s) while it ran; the median run is
the figure. Each stage's time comes from the store: stage instances finish one after another,
so an instance took from the previous one's finish (or the build's start) to its own, and a
stage's time is the sum over its instances (`align` over every `align:<lang>`).

The interpreter running this script runs the build, so another checkout's code is measured
with that checkout's interpreter: `/work/old/.venv/bin/python bench/bench_build.py
/work/old/configs/ntrex-all.yaml`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml


def stage_seconds(store: Path, started: float) -> dict[str, float]:
    """Seconds per stage of the build that started at `started` (epoch), from the finish
    times of its stage instances, in the order they finished."""
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT name, finished_at FROM stages WHERE finished_at >= ? "
                          "ORDER BY finished_at", (started,)).fetchall()
    seconds: dict[str, float] = defaultdict(float)
    last = started
    for name, finished in rows:
        seconds[name.partition(":")[0]] += finished - last
        last = finished
    return {name: round(s, 1) for name, s in seconds.items()}


class LoadSampler(threading.Thread):
    """The one-minute load average every `every` seconds until stopped."""

    def __init__(self, every: float = 10.0) -> None:
        super().__init__(daemon=True)
        self.every, self.samples, self.done = every, [os.getloadavg()[0]], threading.Event()

    def run(self) -> None:
        while not self.done.wait(self.every):
            self.samples.append(os.getloadavg()[0])

    def summary(self) -> dict[str, float]:
        return {"load_mean": round(statistics.mean(self.samples), 2),
                "load_max": round(max(self.samples), 2)}


def one_run(config: Path, folder: Path) -> dict[str, Any]:
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    root = (config.parent / data.get("root", ".")).resolve()
    data.update(root=str(root), store=f"{folder}/xel.sqlite", output=f"{folder}/out")
    copy = folder / config.name
    if (folder / "xel.sqlite").exists():
        raise SystemExit(f"{folder} holds a store already: a build is measured from an empty "
                         "one (remove it, or give another --work)")
    folder.mkdir(parents=True, exist_ok=True)
    copy.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    load = LoadSampler()
    load.start()
    started = time.time()
    run = subprocess.run(["/usr/bin/time", "-v", sys.executable, "-m", "xel", "build",
                          str(copy)], capture_output=True, text=True, cwd=root,
                         env={**os.environ, "XEL_QUIET": "1",
                              "XEL_DECODED": str(folder / "decoded.sqlite")})
    load.done.set()
    if run.returncode:
        raise SystemExit(f"xel build failed:\n{run.stderr[-3000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", run.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    if not wall or not rss:
        raise SystemExit("could not read /usr/bin/time's report")
    hours, minutes, seconds = (float(g or 0) for g in wall.groups())
    return {"started": time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(started)),
            "wall_s": hours * 3600 + minutes * 60 + seconds,
            "peak_rss_mib": int(rss.group(1)) / 1024, **load.summary(),
            "stages_s": stage_seconds(folder / "xel.sqlite", started)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--work", type=Path, help="keep each run's store and output here")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    runs = []
    for k in range(args.runs):
        if args.work:
            runs.append(one_run(args.config.resolve(), args.work.resolve() / f"run-{k + 1}"))
            continue
        with tempfile.TemporaryDirectory() as tmp:
            runs.append(one_run(args.config.resolve(), Path(tmp)))
    figures = {"config": str(args.config), "python": sys.executable, "runs": runs,
               "median_wall_s": statistics.median(r["wall_s"] for r in runs),
               "max_peak_rss_mib": max(r["peak_rss_mib"] for r in runs)}
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
