"""`xel corpus import|languages|download`."""

from __future__ import annotations

from pathlib import Path

import typer

from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.corpus import DDL, download_ntrex
from xel.errors import XelError
from xel.pipeline import make
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
        [run] = make(store, cfg, ["import"], force=force)
    state = "unchanged, skipped" if run.skipped else "imported"
    console.print(f"corpus {state}: {run.summary}")


@corpus_app.command("languages")
def languages_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
) -> None:
    """List the imported languages with their script and non-empty segment counts."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        store.declare(DDL)
        rows = store.query("SELECT * FROM languages ORDER BY ordinal")
    if not rows:
        raise XelError(f"no corpus in {cfg.resolve(cfg.store)}: run `xel corpus import` first")
    for r in rows:
        console.print(f"{r['code']:<10} {r['role']:<7} {r['script']:<5} {r['segments']:>7}  "
                      f"{r['name']}", highlight=False)


@corpus_app.command("download")
def download_command(
    dest: Path = typer.Argument(Path("corpora/ntrex128"), help="folder to put NTREX-128 in"),
) -> None:
    """Fetch NTREX-128 from its public repository (needs the network)."""
    console.print(f"NTREX-128 is in {download_ntrex(dest)}")
