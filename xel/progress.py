"""Progress bars for long work (rich), quiet when XEL_QUIET is set or output is not a terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from rich.progress import track

T = TypeVar("T")


def progress(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """Iterate with a progress bar on stderr where a person is watching."""
    if os.environ.get("XEL_QUIET") or not sys.stderr.isatty():
        yield from items
        return
    from rich.console import Console

    yield from track(items, description=description, total=total,
                     console=Console(stderr=True), transient=False)
