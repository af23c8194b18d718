"""Hebrew: an abjad with one-letter proclitics (`ו`, `ה`, `ב`, ...) and the geresh, which
writes `j`, `ch`, `zh` as a letter plus an apostrophe (`ג'ורדן`)."""

from __future__ import annotations

from collections.abc import Sequence

from xel.names.script import Family, Scorer, Span

_GERESH = "'\u05f3\u2019"


def geresh(text: str, start: int, end: int) -> Span:
    """Tokenizers split at the geresh, so a span must not start just after it or end just
    before it."""
    if start >= 2 and text[start - 1] in _GERESH and text[start - 2] in "גזצ":
        start -= 2
    if end < len(text) and text[end] in _GERESH and text[end - 1] in "גזצ":
        end += 1
    return start, end


class Hebrew(Family):
    name = "hebrew"
    abjad = True
    proclitics = "והבלמשכ"

    def skeleton(self, text: str) -> str:
        """Without the letters that write vowels (`ו`, `י`, `א`), which spellings vary in."""
        return "".join(ch for ch in text if ch not in "ויא") or text

    def edges(self, text: str, start: int, end: int, english: Sequence[str],
              matcher: Scorer) -> Span:
        start, end = geresh(text, start, end)
        return super().edges(text, start, end, english, matcher)
