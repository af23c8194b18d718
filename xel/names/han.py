"""Chinese (Han characters): names are transliterated character by character, so a span snaps
to the characters spelled like the name; a character's simplified form counts as the same."""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import regex

from xel.names.script import Family, Span, is_latin, transliterator

if TYPE_CHECKING:
    from xel.names.match import NameMatcher


@functools.lru_cache(maxsize=65536)
def simplified(ch: str) -> str:
    """The simplified Chinese form of a character (itself where there is none)."""
    return transliterator("Hant-Hans").transliterate(ch)


_HAN_JOINERS = "\u00b7\u30fb\u2027\u2022\uff0e-"


def han_name(text: str, start: int, end: int, english: Sequence[str], matcher: NameMatcher,
             before_bracket: bool = False) -> tuple[int, int]:
    """`_han_name` on the text without its spaces (gold tokenizations space characters out:
    `特 蕾 莎 · 梅`), mapped back to the text's offsets."""
    keep = [k for k, ch in enumerate(text) if not ch.isspace()]
    compact = "".join(text[k] for k in keep)
    s, e = _han_name(compact, bisect.bisect_left(keep, start), bisect.bisect_left(keep, end),
                     english, matcher, before_bracket)
    return (keep[s], keep[e - 1] + 1) if s < e else (start, end)


def _han_name(text: str, start: int, end: int, english: Sequence[str], matcher: NameMatcher,
              before_bracket: bool, pad: int = 3) -> tuple[int, int]:
    """Chinese: snap a span to the name's characters, across learned-piece boundaries.

    Character runs spelled like the English tokens (transliterated, or through the name
    dictionary) form the name's core. A core spelling every English token is the name, with
    the span's name-like characters touching it (`柏納李在網路中立` gives `柏納李`; `卡瓦` of
    `卡瓦諾` gets all three). A window before the `(` of a Latin copy (`before_bracket`) is cut
    to the run of name-like characters through a partial core (`英國梅首相`: `梅`) or, with
    none, next to the bracket (`代表律師舒希茲`: `舒希茲`). Otherwise the span reaches out to
    its best-spelled run (up to `pad` characters: `哈` of `哈靈頓`), and its edge characters
    never used in transliterated names are dropped up to the core or a name-like character
    (`對卡瓦諾`, `總統川普`, `金正恩與` give `卡瓦諾`, `川普`, `金正恩`: an aligned native name
    keeps characters that transliterations rarely use).
    """
    if not regex.search(r"\p{Han}", text[start:end]):
        return start, end

    def name_char(k: int) -> bool:
        ch = text[k]
        return ch.isalpha() and not is_latin(ch) and matcher.name_like(ch)

    def name_run_before(k: int, stop: int) -> int:  # start of the name-like run ending at k
        while k > stop and (name_char(k - 1) or (
                text[k - 1] in _HAN_JOINERS and k - 1 > stop and name_char(k - 2))):
            k -= 1
        return k

    def name_run_after(k: int, stop: int) -> int:  # end of the name-like run starting at k
        while k < stop and (name_char(k) or (
                text[k] in _HAN_JOINERS and k + 1 < stop and name_char(k + 1))):
            k += 1
        return k

    lo, hi = start, end
    while lo > 0 and start - lo < pad and _han_letter(text[lo - 1]):
        lo -= 1
    while hi < len(text) and hi - end < pad and _han_letter(text[hi]):
        hi += 1
    core = _han_core(text, lo, hi, (start, end), english, matcher)
    if core is not None and core[2] >= len(english):  # on through the span's name characters
        return name_run_before(core[0], start), name_run_after(core[1], end)
    if before_bracket:  # a window before the bracket: the name-like run at the core or end
        if core:
            s, e = name_run_before(core[0], start), name_run_after(core[1], end)
        else:
            e = end
            while e > start and not name_char(e - 1):
                e -= 1
            s = name_run_before(e, start)
        return (s, e) if s < e else (start, end)
    keep = range(core[0], core[1]) if core else range(0)
    s, e = (min(start, core[0]), max(end, core[1])) if core else (start, end)
    if not keep and not any(name_char(k) for k in range(s, e)):
        return start, end
    while e > s and e - 1 not in keep and not name_char(e - 1):
        e -= 1
    while s < e and s not in keep and not name_char(s):
        s += 1
    return s, e


def _han_letter(ch: str) -> bool:
    return ch.isalpha() and not is_latin(ch)


def _han_core(text: str, lo: int, hi: int, within: tuple[int, int], english: Sequence[str],
              matcher: NameMatcher, longest: int = 4) -> tuple[int, int, int] | None:
    """The characters spelled like the English name: (start, end, English tokens spelled).

    Anchored on the best match in [lo, hi) that overlaps `within`; the other tokens' best
    matches inside `within` join when at most one character (a joiner) away.
    """
    found = []  # per English token with a match: (score, closeness, start, end)
    for token in english:
        cands = [(matcher.score(token, text[a:b]), -abs(a - within[0]), a, b)
                 for a in range(lo, hi) for b in range(a + 1, min(a + longest, hi) + 1)
                 if all(_han_letter(c) for c in text[a:b])]
        good = [c for c in cands if c[0] >= matcher.min_similarity]
        if good:
            found.append(max(good))
    anchors = [f for f in found if f[2] < within[1] and f[3] > within[0]]
    if not anchors:
        return None
    anchor = max(anchors)
    s, e, count = anchor[2], anchor[3], 1
    for f in sorted(found, key=lambda f: min(abs(f[2] - anchor[3]), abs(anchor[2] - f[3]))):
        a, b = f[2], f[3]
        if f is not anchor and within[0] <= a and b <= within[1] and (
                0 <= a - e <= 1 or 0 <= s - b <= 1):
            s, e, count = min(s, a), max(e, b), count + 1
    return s, e, count



class Han(Family):
    name = "han"
    han = True

    def char_forms(self, ch: str) -> tuple[str, ...]:
        simple = simplified(ch)
        return (ch,) if simple == ch else (ch, simple)

    def characters(self, text: str, start: int, end: int, english: Sequence[str],
                   matcher: NameMatcher, *, enabled: bool, before_bracket: bool) -> Span:
        start, end = super().characters(text, start, end, english, matcher, enabled=enabled,
                                        before_bracket=before_bracket)
        if enabled and matcher.dictionary is not None and english:
            start, end = han_name(text, start, end, english, matcher, before_bracket)
        return start, end
