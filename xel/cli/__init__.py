"""The `xel` command: a thin layer over the stage functions, one file per command group.

Each module in this package adds its commands to `app` (as spaCy's CLI does); `main` imports
them all and turns an `XelError` into a one-paragraph message and exit status 2.
"""

from __future__ import annotations

import importlib
import sys

import typer
from rich.console import Console

from xel.errors import XelError

app = typer.Typer(
    help="Build cross-language person-entity-linking test collections.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
DEFAULT_CONFIG = "configs/default.yaml"
COMMAND_MODULES = ["corpus", "kb", "queries", "project", "evaluate", "build", "stages",
                   "names"]
console = Console(stderr=True)


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(f"xel.cli.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"xel.cli.{name}":
                raise


def main() -> None:
    _load_commands()
    try:
        app()
    except XelError as e:
        console.print(f"[bold red]error:[/] {e}", highlight=False, markup=True)
        sys.exit(2)
