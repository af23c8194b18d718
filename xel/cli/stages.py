"""`xel stages`: every stage of a config's pipeline, what state it is in, and why."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import typer
from rich.text import Text

from xel.cli import DEFAULT_CONFIG, app, console, out
from xel.config import load_config
from xel.pipeline import status
from xel.store import Store

STYLES = {"done": "green", "stale": "yellow", "never run": "dim", "under way": "cyan",
          "waiting": "magenta", "unknown": "red"}


@app.command("stages")
def stages_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    signatures: bool = typer.Option(False, "--signatures", "-s",
                                    help="also print each recorded signature"),
) -> None:
    """List every stage of the pipeline in order, including those not yet run: done, stale
    (with the part of its signature that changed, or the stage that reruns first), never run,
    or waiting for people; with when it ran, its counts and the command that runs it."""
    cfg = load_config(config)
    path = cfg.resolve(cfg.store)
    # Listing never creates a store: before the first build there is nothing to read.
    with Store(path if Path(path).exists() else ":memory:") as store:
        rows = status(store, cfg)
    width = max((len(s.name) for s in rows), default=0) + 2
    for s in rows:
        line = Text.assemble((s.name.ljust(width), "bold"), (f"{s.state:<10}", STYLES[s.state]))
        if s.why:
            line.append(f"  {s.why}")
        if s.row is not None and s.state in ("done", "stale"):
            when = dt.datetime.fromtimestamp(s.row["finished_at"], dt.UTC)
            counts = ", ".join(f"{k} {v}" for k, v in json.loads(s.row["summary"]).items())
            line.append(f"  ({when:%Y-%m-%d %H:%M}{': ' + counts if counts else ''})", "dim")
        elif s.state != "done":
            line.append(f"  run: {s.stage.how(s.name.partition(':')[2])}", "dim")
        out.print(line, soft_wrap=True)
        if signatures and s.row is not None:
            out.print(Text(f"    {s.row['signature']}", "dim"), soft_wrap=True)
    console.print(f"{sum(s.state == 'done' for s in rows)} of {len(rows)} stages done "
                  f"({path})")
