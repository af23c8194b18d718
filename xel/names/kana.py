"""Japanese: foreign names are written in katakana, each part an unbroken run (`ジャスティン`),
the parts joined by `・`, `＝`, a space or a Latin initial; learned pieces split the runs, so
spans are fixed to whole katakana parts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import regex

from xel.names.han import HONORIFICS, compact, han_readings, han_run
from xel.names.script import Family, Span, whole_latin_words

if TYPE_CHECKING:
    from xel.names.match import NameMatcher

_KATAKANA_RUN = regex.compile(r"[\p{Katakana}\u30fc]*\p{Katakana}[\p{Katakana}\u30fc]*")
# Between the katakana parts of one name: `・`, `=`/`＝` (`ブラック＝ダレー`), a space, or a
# Latin initial (`ジョージ・W・ブッシュ`).
_KATAKANA_JOINER = regex.compile(
    r"[\u30fb\uff65=\uff1d]|[ \u3000]|[\u30fb\uff65]\p{Latin}\.?[\u30fb\uff65]")


def katakana_word(text: str, start: int, end: int) -> tuple[int, int]:
    """Japanese writes foreign names in katakana, each part an unbroken run (`ジャスティン`,
    `トーマス`, joined by `・`): a span touching katakana is cut to the katakana parts it
    touches, each taken whole (learned pieces split them: `スティン・トーマス組` becomes
    `ジャスティン・トーマス`)."""
    runs = [m for m in _KATAKANA_RUN.finditer(text) if m.start() < end and m.end() > start]
    if not runs:
        return start, end
    first, last = runs[0].start(), runs[0].end()
    for run in runs[1:]:  # parts of one name are joined by `・` (or nothing) only
        if text[last:run.start()] not in ("", "\u30fb", "\uff65", "="):
            break
        last = run.end()
    return first, last


def katakana_name(text: str, start: int, end: int, n_english: int) -> tuple[int, int]:
    """`katakana_word`, then on to neighbouring katakana parts of the same name (joined by
    `・`, `＝`, a space or a Latin initial) until there are as many parts as English tokens:
    `シュバルツ` (Dave Schwartz) becomes `デーブ・シュバルツ`; `ポール マナフォート` stays whole."""
    runs = list(_KATAKANA_RUN.finditer(text))
    touched = [k for k, r in enumerate(runs) if r.start() < end and r.end() > start]
    if not touched:
        return start, end
    first, last = katakana_word(text, start, end)
    inside = [k for k in touched if runs[k].start() >= first and runs[k].end() <= last]
    a, b = inside[0], inside[-1]

    def joined(k: int) -> bool:  # run k and run k + 1 are parts of one name
        return bool(_KATAKANA_JOINER.fullmatch(text, runs[k].end(), runs[k + 1].start()))

    def parts() -> int:  # a Latin initial between runs is a part too
        return b - a + 1 + sum(bool(regex.search(r"\p{Latin}", text[runs[k].end():
                                                                    runs[k + 1].start()]))
                               for k in range(a, b))

    while parts() < n_english:
        if b + 1 < len(runs) and joined(b):
            b += 1
        elif a > 0 and joined(a - 1):
            a -= 1
        else:
            break
    return runs[a].start(), runs[b].end()



_KANA_ENDING = regex.compile(r"\p{Hiragana}+")


class Kana(Family):
    name = "kana"
    syllabic = True

    def ignorable(self, piece: str) -> bool:
        """Hiragana writes endings and particles, never a name (`さ` is not Seii)."""
        return bool(_KANA_ENDING.fullmatch(piece))

    def readings(self, piece: str) -> list[tuple[str, Callable[[str], str]]]:
        return han_readings(piece)

    def characters(self, text: str, start: int, end: int, english: Sequence[str],
                   matcher: NameMatcher, *, enabled: bool, before_bracket: bool,
                   aligned: Span | None = None) -> Span:
        """Whole katakana parts: with `enabled`, as many as the English name has tokens, kana
        endings and honorifics off the edges (`習氏`), and a name in Han characters kept whole
        (`han_run`); on text without spaces (see `compact`)."""

        def fix(text: str, start: int, end: int, aligned: Span | None) -> Span:
            if not enabled:
                return katakana_word(text, start, end)
            start, end = katakana_name(text, start, end, len(english))
            while end - start > 1 and (self.ignorable(text[start]) or text[start] in HONORIFICS):
                start += 1
            while end - start > 1 and (self.ignorable(text[end - 1])
                                       or text[end - 1] in HONORIFICS):
                end -= 1
            return han_run(text, start, end, english, matcher, aligned)

        if enabled:
            start, end = whole_latin_words(text, start, end)
        return compact(text, start, end, aligned, fix)
