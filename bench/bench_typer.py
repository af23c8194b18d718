"""Mention typer throughput: the persons stage's typer over a built store's mentions.

    .venv/bin/python bench/bench_typer.py work/ntrex-types-gold/xel.sqlite [--repeat 2]

Reads the English mentions (with their sentences) NER stored, types them with the shipped typer
(`xel.mention_typer`; the model's load is timed apart) and reports mentions per second
and the process's peak memory; the best of --repeat runs is kept. Results go in
docs/benchmarks.md by hand.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sqlite3
import time
from pathlib import Path

from xel.mention_typer import TYPES, Mention, shipped


def mentions(store: Path) -> list[Mention]:
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT s.text, m.start, m.end, m.type FROM mentions m JOIN sentences s"
                          " ON s.seg = m.seg AND s.lang = 'eng' ORDER BY m.mention_id").fetchall()
    return [Mention(*row) for row in rows if row[3] in TYPES]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    found = mentions(args.store)
    print(f"# {platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d')}; {len(found):,} mentions of {args.store}")
    start = time.perf_counter()
    typer = shipped()
    typer(found[:1], list(TYPES))  # loads MiniLM
    print(f"model load: {time.perf_counter() - start:.1f} s")
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        typer(found, list(TYPES))
        best = min(best, time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"typed in {best:.1f} s: {len(found) / best:,.0f} mentions/s; "
          f"peak memory {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
