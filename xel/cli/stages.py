"""`xel stages`: what has run on a store, with each stage's signature."""

from __future__ import annotations

import datetime as dt
import json

import typer
from rich.text import Text

from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.store import Store


@app.command("stages")
def stages_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
) -> None:
    """List finished stages, their summaries and the signatures that produced them."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        rows = store.stages()
    for r in rows:
        when = dt.datetime.fromtimestamp(r["finished_at"], dt.UTC).strftime("%Y-%m-%d %H:%M")
        summary = ", ".join(f"{k} {v}" for k, v in json.loads(r["summary"]).items())
        console.print(Text.assemble((r["name"], "bold"), f"  {when}  {summary}\n  ",
                                    (r["signature"], "dim")))
