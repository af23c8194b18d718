"""Progress for long work: a bar with the rate and the time left on stderr (rich), quiet when
XEL_QUIET is set or output is not a terminal; and the same figures as text for `xel stages`."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], description: str, total: int | None = None,
             unit: str = "items", size: Callable[[T], int] | None = None) -> Iterator[T]:
    """Iterate with a progress bar where a person is watching: done of `total` in `unit`s
    (an item counts `size(item)`, e.g. a chunk's sentences), per second, and time left."""
    if os.environ.get("XEL_QUIET") or not sys.stderr.isatty():
        yield from items
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"{unit}, {task.speed:,.0f}/s" if task.speed else unit)

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
               TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task, size(item) if size else 1)


def rate_text(done: int, total: int | None, seconds: float, unit: str) -> str:
    """`40,000 of 100,000 sentences, 1,200 sentences/s, about 50 s left`."""
    text = f"{done:,} of {total:,} {unit}" if total else f"{done:,} {unit}"
    if seconds > 0 and done:
        rate = done / seconds
        text += f", {rate:,.0f} {unit}/s"
        if total and total > done:
            text += f", about {_duration((total - done) / rate)} left"
    return text


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
