"""Reading users' text files strictly: UTF-8 only, errors that name the file, line and fix.

Every reader of user files (corpora, KB dumps, review lists, reference and run files) goes
through these, so a bad byte is reported the same way wherever it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from xel.errors import XelError


def decode_line(path: Path, number: int, raw: bytes) -> str:
    """One line's bytes as text; invalid UTF-8 is an error naming file, line and column."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise XelError(
            f"{path}, line {number}: invalid UTF-8 (byte 0x{raw[e.start]:02x} at column "
            f"{e.start + 1}): convert the file to UTF-8, e.g. `iconv -f latin1 -t utf-8`"
        ) from None
    return text.removeprefix("\ufeff") if number == 1 else text


def read_lines(path: Path, what: str = "file") -> list[str]:
    """A file's lines as text, split only at "\\n" (never at Unicode line separators, which
    occur inside sentences), a trailing "\\r" dropped so Windows files read the same."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise XelError(f"{path}: {what} not found") from None
    raw_lines = data.split(b"\n")
    if raw_lines[-1] == b"":
        raw_lines.pop()
    return [decode_line(path, number, raw).removesuffix("\r")
            for number, raw in enumerate(raw_lines, start=1)]


def iter_lines(path: Path, what: str = "file") -> Iterator[str]:
    """`read_lines`, one line at a time: memory holds one line, whatever the file's size."""
    try:
        f = path.open("rb")
    except FileNotFoundError:
        raise XelError(f"{path}: {what} not found") from None
    with f:
        for number, raw in enumerate(f, start=1):
            yield decode_line(path, number, raw.removesuffix(b"\n")).removesuffix("\r")


def count_lines(path: Path) -> int:
    """The number of lines `iter_lines` yields, counted without decoding (for error messages)."""
    count, last = 0, b"\n"
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")
