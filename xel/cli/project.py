"""`xel project` and `xel triage`: name projection into every language, and round-trip triage."""

from __future__ import annotations

import typer
from rich.table import Table

from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.pipeline import make
from xel.stages import StageRun
from xel.store import Store


def _table(title: str, stage: str, runs: list[StageRun], columns: list[str]) -> Table:
    table = Table(title=title)
    table.add_column("language")
    table.add_column("state")
    for c in columns:
        table.add_column(c, justify="right")
    for run in runs:
        name, _, lang = run.name.partition(":")
        if name == stage:
            table.add_row(lang, "skipped" if run.skipped else "done",
                          *(str(run.summary.get(c, "")) for c in columns))
    return table


@app.command("project")
def project_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    lang: list[str] = typer.Option([], "--lang", help="only these languages (repeatable)"),
    force: bool = typer.Option(False, help="realign and reproject even if nothing changed"),
) -> None:
    """Word-align each language with English and project every English name mention.

    Each language is its own stage (`align:<lang>`, `project:<lang>`), so an interrupted run
    resumes language by language; the corpus import and NER (and in a collection of more
    types than people, the type check) run first if they have not.
    """
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        runs = make(store, cfg, ["align", "project"], langs=lang or None, force=force)
    console.print(_table("projection", "project", runs,
                         ["mentions", "failures", "name_match", "parentheses", "names"]))


@app.command("triage")
def triage_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    lang: list[str] = typer.Option([], "--lang", help="only these languages (repeatable)"),
    force: bool = typer.Option(False, help="triage again even if nothing changed"),
) -> None:
    """Back-translate each query's projection: A1 accepted, D1 discarded, or to curate.

    What triage needs (queries, projection; in a collection of more types than people, the
    queries' KB candidates, whose labels translated names go back to English by) runs first
    if it has not."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        runs = make(store, cfg, ["triage"], langs=lang or None, force=force)
    console.print(_table("round-trip triage", "triage", runs,
                         ["queries", "A1", "D1", "curate", "backend"]))
