"""The `xel` command: a thin layer over the stage functions, one file per command group.

Each module in this package adds its commands to `app` (as spaCy's CLI does); `main` imports
them all and turns an `XelError` into a one-paragraph message and exit status 2. Output is plain
text: paths, names and messages are never read as rich markup (styles are given as `Text`).
"""

from __future__ import annotations

import importlib
import sys

import typer
from botocore.exceptions import ClientError
from rich.console import Console
from rich.text import Text

from xel.errors import XelError

app = typer.Typer(
    help="Build cross-language entity-linking test collections: people, as Lawrie et al.'s, "
         "or every type a config names.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
DEFAULT_CONFIG = "configs/default.yaml"
COMMAND_MODULES = ["corpus", "kb", "queries", "project", "evaluate", "build", "stages",
                   "names", "types"]
# Piped or redirected, rich would squeeze tables to 80 columns and cut figures to `0.…`.
console = Console(stderr=True, markup=False, highlight=False,
                  width=None if sys.stderr.isatty() else 160)
out = Console(markup=False, highlight=False, width=None if sys.stdout.isatty() else 160)


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
        console.print(Text.assemble(("error: ", "bold red"), str(e)), soft_wrap=True)
        sys.exit(2)
    except ClientError as e:
        console.print(Text.assemble(("error: ", "bold red"), f"MTurk refused the request: {e}"),
                      soft_wrap=True)
        sys.exit(2)
