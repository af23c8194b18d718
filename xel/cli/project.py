"""`xel project` and `xel triage`: name projection into every language, and round-trip triage."""

from __future__ import annotations

import typer
from rich.table import Table

from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.project import project_languages
from xel.stages import StageRun
from xel.store import Store
from xel.triage import triage_languages


def _table(title: str, runs: dict[str, StageRun], columns: list[str]) -> Table:
    table = Table(title=title)
    table.add_column("language")
    table.add_column("state")
    for c in columns:
        table.add_column(c, justify="right")
    for lang, run in runs.items():
        table.add_row(lang, "skipped" if run.skipped else "done",
                      *(str(run.summary.get(c, "")) for c in columns))
    return table


@app.command("project")
def project_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    lang: list[str] = typer.Option([], "--lang", help="only these languages (repeatable)"),
    force: bool = typer.Option(False, help="realign and reproject even if nothing changed"),
) -> None:
    """Word-align each language with English and project every English person mention.

    Each language is its own stage (`align:<lang>`, `project:<lang>`), so an interrupted run
    resumes language by language. Needs `xel queries` (for NER) first.
    """
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        runs = project_languages(store, cfg, lang or None, force=force)
    console.print(_table("projection", runs,
                         ["mentions", "failures", "name_match", "parentheses", "names"]))


@app.command("triage")
def triage_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    lang: list[str] = typer.Option([], "--lang", help="only these languages (repeatable)"),
    force: bool = typer.Option(False, help="triage again even if nothing changed"),
) -> None:
    """Back-translate each query's projection: A1 accepted, D1 discarded, or to curate."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        runs = triage_languages(store, cfg, lang or None, force=force)
    console.print(_table("round-trip triage", runs, ["queries", "A1", "D1", "curate", "backend"]))
