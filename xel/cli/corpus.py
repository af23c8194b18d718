"""`xel corpus import|languages|download`."""

from __future__ import annotations

import typer

from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.corpus import import_corpus
from xel.store import Store

corpus_app = typer.Typer(help="Parallel corpora: import, list languages, download NTREX-128.")
app.add_typer(corpus_app, name="corpus")


@corpus_app.command("import")
def import_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    force: bool = typer.Option(False, help="reimport even if nothing changed"),
) -> None:
    """Read the config's corpus into the store."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        run = import_corpus(store, cfg, force=force)
    state = "unchanged, skipped" if run.skipped else "imported"
    console.print(f"corpus {state}: {run.summary}")
