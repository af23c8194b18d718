"""Where an English mention falls in its target sentence, through the word alignment.

The paper's projection (Lawrie et al. 2015) is the shortest target span covering every token
aligned to the mention (`paper_span`); on ~2k sentence pairs the alignment of rare names is
weak, so the name-aware refinements (on by default, each switchable) use what the name looks
like: target tokens orthographically close to the English name tokens (after ICU
transliteration to Latin, or through the shipped transliteration models) anchor the span,
edges that are punctuation, function words or aligned to other English words are trimmed, and
an English copy of the name in parentheses gives way to the target-language name beside it. In
unspaced scripts the span is then fixed character by character, since learned pieces run names
into their neighbours (`han_name`, `katakana_name`). `project_mention` projects a name written
by sound, as people's are; `xel.translated` builds on it for names that are translated.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import regex

from xel.align import Links, decode_links, decode_spans
from xel.config import ProjectConfig
from xel.languages import language
from xel.names.agree import LETTER_DIGITS, agreement
from xel.names.english import tokens as name_tokens
from xel.names.han import (
    traditional,
)
from xel.names.match import WORDLIKE, NameMatcher
from xel.names.script import is_latin, whole_characters
from xel.tokenizers import Span

# --- tokens and spans -----------------------------------------------------------------------


def covered(spans: Sequence[Span], start: int, end: int) -> list[int]:
    """Indices of the tokens overlapping characters [start, end)."""
    return [k for k, (s, e) in enumerate(spans) if s < end and e > start]


def aligned_tokens(mention: Sequence[int], links: Links) -> set[int]:
    mention_set = set(mention)
    return {j for i, j in links if i in mention_set}


def paper_span(targets: set[int]) -> tuple[int, int] | None:
    """Lawrie et al.: the shortest contiguous token span covering every aligned token."""
    return (min(targets), max(targets)) if targets else None


# --- what a name looks like in the target ---------------------------------------------------


@functools.lru_cache(maxsize=256)
def function_words(lang: str) -> frozenset[str]:
    """spaCy's stop words of a language (empty where spaCy has none), read from its
    `spacy/lang/<code>/stop_words.py` alone: importing spaCy and the language's class cost
    each projection worker 3-4 s and every language its tokenizer exceptions."""
    code = language(lang).iso1
    spacy = importlib.util.find_spec("spacy")
    if not code or spacy is None or spacy.origin is None:
        return frozenset()
    path = Path(spacy.origin).parent / "lang" / code / "stop_words.py"
    if not path.is_file():
        return frozenset()
    found = importlib.util.spec_from_file_location(f"_xel_stop_words_{code}", path)
    if found is None or found.loader is None:
        return frozenset()
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    words = frozenset(w.casefold() for w in getattr(module, "STOP_WORDS", ()))
    if language(lang).script == "Hant":  # spaCy's are simplified: `於` as well as `于`
        words |= {traditional(w) for w in words}
    return words


# --- projecting one mention -----------------------------------------------------------------


LETTER = regex.compile(r"\p{L}")


@dataclass(frozen=True)
class Projected:
    start: int | None  # characters in the target sentence
    end: int | None
    method: str
    aligned: tuple[int, int] | None  # the paper's span, characters

    @property
    def failed(self) -> bool:
        return self.start is None


@dataclass(frozen=True)
class Pair:
    """A tokenized, aligned sentence pair."""

    src_text: str
    src: list[Span]
    tgt_text: str
    tgt: list[Span]
    links: Links

    @classmethod
    def decode(cls, src_text: str, tgt_text: str, src_tokens: bytes, tgt_tokens: bytes,
               links: bytes) -> Pair:
        """A pair from its texts and its tokens and links as `alignments` stores them."""
        return cls(src_text, decode_spans(src_tokens), tgt_text, decode_spans(tgt_tokens),
                   decode_links(links))


def project_mention(pair: Pair, start: int, end: int, name: str, matcher: NameMatcher | None,
                    stops: frozenset[str], config: ProjectConfig) -> Projected:
    """Project the English name at characters [start, end) of the source sentence."""
    at, until = start, end
    mention = covered(pair.src, start, end)
    targets = aligned_tokens(mention, pair.links)
    base = paper_span(targets)
    aligned = token_chars(pair.tgt, base)
    if not config.name_aware:
        if aligned is None:
            return Projected(None, None, "none", None)
        return Projected(aligned[0], aligned[1], "aligned", aligned)
    english = name_tokens(name)
    if matcher is not None and config.name_match:
        exact = matcher.family.read_exactly(pair.tgt_text, english)
        if exact:
            near = aligned[0] if aligned else 0
            start, end = min(exact, key=lambda span: abs(span[0] - near))
            start, end = in_turn(pair, at, until, start, end, matcher.family.unspaced)
            return Projected(start, end, "reading", aligned)
    outside = {j for i, j in pair.links if i not in set(mention)}
    matched: tuple[int, int] | None = None
    count = 0
    if config.name_match and matcher is not None and english:
        barriers = bracket_tokens(pair)
        found = best_cluster(matcher.heard(english, pair.tgt_text, pair.tgt, matcher.matches(
            english, pair.tgt_text, pair.tgt)), targets, len(english), barriers)
        if found is None or found[1] < len(english):
            found = nearest_whole(matcher.whole(english, pair.tgt_text, pair.tgt), targets) or found
        if found:
            matched, count = found
    method = "name-match" if matched else "aligned"
    span = matched or base
    if span is None:
        return Projected(None, None, "none", aligned)
    if matched and count < len(english):
        if matcher is not None and matcher.family.unspaced and matcher.family.by_sound:
            span = _fill_to_alignment(pair, matched, targets, _missing_sides(
                matcher.matches(english, pair.tgt_text, pair.tgt), matched), len(english))
        else:
            span = _extend(pair, matched, targets, outside, stops, len(english), matcher)
    if config.trim:

        def is_name(token: str) -> bool:
            return matcher is not None and any(
                matcher.score(e, token) >= config.min_similarity for e in english)

        span = _trim(pair, span, targets, outside, stops, matched, is_name)
    if span is not None:
        span = _balance(pair, span, latin_target=matcher is None or matcher.latin_script)
    if span is not None and matcher is not None and matcher.knows_names and not matched:
        span = _trim_unnamelike(pair, span, matcher, protect=matched)
    if span is not None and config.parentheses:
        moved = _outside_parentheses(pair, span, targets, len(english), matcher,
                                     config.characters)
        if moved != span:
            span, method = moved, "parentheses"
    if span is None:
        return Projected(None, None, "none", aligned)
    chars = token_chars(pair.tgt, span)
    assert chars is not None
    start, end = chars
    if matcher is not None:
        rules = matcher.family
        start, end = rules.edges(pair.tgt_text, start, end, english, matcher)
        claimed = claimed_characters(pair, mention, start, end)
        start, end = rules.characters(pair.tgt_text, start, end, english, matcher,
                                      enabled=config.characters,
                                      before_bracket=method == "parentheses", aligned=aligned,
                                      claimed=claimed)
    start, end = whole_characters(pair.tgt_text, start, end)
    if not any(ch.isdigit() for ch in name):
        start, end = without_digits(pair.tgt_text, start, end)
    if matcher is not None and matcher.family.by_sound and config.name_match:
        start, end = whole_by_sound(pair, start, end, name, matcher)
    if not LETTER.search(pair.tgt_text[start:end]):
        return Projected(None, None, "none", aligned)  # numbers or punctuation: no name
    start, end = in_turn(pair, at, until, start, end,
                         matcher is not None and matcher.family.unspaced)
    return Projected(start, end, method, aligned)


def claimed_characters(pair: Pair, mention: Sequence[int], start: int, end: int
                       ) -> frozenset[int]:
    """Target characters outside [start, end) aligned with a lower-case English word outside
    the mention (`作者` with "author", `女` with "daughter"): that word's, not the name's. A
    capitalized word may be another mention of the same person (`金正恩` for both `Kim Jong
    Un` and a later `Kim`)."""
    inside = set(mention)
    common = {j for i, j in pair.links if i not in inside
              and src_token(pair, i)[:1].islower()}
    return frozenset(k for j in common if pair.tgt[j][1] <= start or pair.tgt[j][0] >= end
                     for k in range(*pair.tgt[j]))


def in_turn(pair: Pair, at: int, until: int, start: int, end: int, unspaced: bool
            ) -> tuple[int, int]:
    """The k-th occurrence of the projected name for the k-th mention of the English name,
    where both sentences write it equally often (an aligner may link both `Arafat`s of a
    sentence with one `阿拉法`)."""
    name = pair.src_text[at:until]
    if pair.src_text.count(name) < 2:  # written once (most mentions): nothing to choose
        return start, end
    english = word_starts(pair.src_text, name, True)
    target = word_starts(pair.tgt_text, pair.tgt_text[start:end], not unspaced)
    if len(english) < 2 or len(english) != len(target) or at not in english:
        return start, end
    k = target[english.index(at)]
    return k, k + end - start


def word_starts(text: str, word: str, whole: bool) -> list[int]:
    """Where `word` occurs in `text` (as a whole word with `whole`)."""
    return [m.start() for m in _occurrences(word, whole).finditer(text)]


@functools.lru_cache(maxsize=4096)
def _occurrences(word: str, whole: bool) -> regex.Pattern[str]:
    """A word's pattern, compiled once: compiling one per mention was a tenth of
    projection's time."""
    edge = r"[\p{L}\p{M}\p{N}]"
    return regex.compile(rf"(?<!{edge}){regex.escape(word)}(?!{edge})" if whole
                         else regex.escape(word))


def without_digits(text: str, start: int, end: int) -> tuple[int, int]:
    """A name without numbers has none in its span: the longest piece between them
    (`川口顺子29日` is `川口顺子`: a date was aligned too)."""
    pieces = [(start + m.start(), start + m.end())
              for m in regex.finditer(rf"(?:[^\d]|{LETTER_DIGITS})+", text[start:end])]
    named = [p for p in pieces if LETTER.search(text[p[0]:p[1]])]
    return max(named, key=lambda p: p[1] - p[0]) if named else (start, end)


def token_chars(spans: Sequence[Span], tokens: tuple[int, int] | None) -> tuple[int, int] | None:
    return (spans[tokens[0]][0], spans[tokens[1]][1]) if tokens else None


def best_cluster(found: list[list[tuple[int, int, float]]], targets: set[int],
                  n_english: int, barriers: Sequence[int] = ()
                  ) -> tuple[tuple[int, int], int] | None:
    """The tightest group of matches covering the most English tokens, near the alignment.

    Each English token's matches are candidate places; anchored on each candidate, every
    other English token takes its best match within a name's reach. Groups are ranked by
    tokens covered, then total similarity, then agreement with the alignment, then position.
    """
    reach = n_english + 2
    best: tuple[tuple[float, ...], tuple[int, int]] | None = None
    for k, cands in enumerate(found):
        for a, b, s in cands:
            first, last, total, count = a, b, s, 1
            for other, others in enumerate(found):
                if other == k:
                    continue
                near = [(s2, -abs(a2 - a), a2, b2) for a2, b2, s2 in others
                        if abs(a2 - a) <= reach and (b2 < a or a2 > b)
                        and not any(min(a, a2) < x < max(b, b2) for x in barriers)]
                if near:
                    s2, _, a2, b2 = max(near)
                    first, last = min(first, a2), max(last, b2)
                    total += s2
                    count += 1
            overlap = len(targets & set(range(first, last + 1)))
            distance = min((abs(t - first) for t in targets), default=0)
            rank = (count, round(total, 3), overlap, -distance, -first)
            if best is None or rank > best[0]:
                best = (rank, (first, last))
    if best is None:
        return None
    # A single weak match of a multi-token name, far from the alignment, is not evidence.
    n_found, similarity, near_alignment = int(best[0][0]), best[0][1], best[0][2]
    if n_found == 1 and n_english > 1 and similarity < 0.8 and targets and not near_alignment:
        return None
    return best[1], n_found


def nearest_whole(wholes: list[tuple[int, int, float]], targets: set[int],
             ) -> tuple[tuple[int, int], int] | None:
    """Of the token runs read as the whole name, the best read, then nearest the alignment."""
    if not wholes:
        return None

    def rank(w: tuple[int, int, float]) -> tuple[float, int, int]:
        covered = set(range(w[0], w[1] + 1))
        distance = min((abs(t - w[0]) for t in targets), default=0)
        return w[2], len(targets & covered), -distance

    a, b, _ = max(wholes, key=rank)
    return (a, b), b - a + 1


def bracket_tokens(pair: Pair) -> list[int]:
    """The target's bracket tokens, which no name's words are gathered across."""
    return [k for k in range(len(pair.tgt)) if tgt_token(pair, k) in _BRACKET_CHARS]


def is_word_token(pair: Pair, k: int) -> bool:
    s, e = pair.tgt[k]
    return bool(WORDLIKE.search(pair.tgt_text[s:e]))


def tgt_token(pair: Pair, k: int) -> str:
    s, e = pair.tgt[k]
    return pair.tgt_text[s:e]


def src_token(pair: Pair, i: int) -> str:
    s, e = pair.src[i]
    return pair.src_text[s:e]


def _extend(pair: Pair, span: tuple[int, int], targets: set[int], outside: set[int],
            stops: frozenset[str], n_english: int,
            matcher: NameMatcher | None) -> tuple[int, int]:
    """Grow a partial name match by adjacent tokens that belong to the name though not spelled
    alike: in spaced scripts, words aligned only to the mention (up to as many tokens as the
    English name: `브렛 캐버노의`, not on to `청문회`, hearing); in unspaced scripts with a name
    dictionary, name-like characters and joiners (`特蕾莎·梅` from `梅`, up to six characters
    per English token: katakana is long)."""
    first, last = span
    if matcher is not None and matcher.knows_names:
        limit = 6 * n_english + 1

        for step in (-1, 1):
            k = first + step if step < 0 else last + 1
            while 0 <= k < len(pair.tgt):
                tok = tgt_token(pair, k)
                nxt = k + step
                if tok in _JOINERS and 0 <= nxt < len(pair.tgt) and is_word_token(pair, nxt) \
                        and matcher.name_like(tgt_token(pair, nxt)):
                    k = nxt
                    continue
                if not (is_word_token(pair, k) and matcher.name_like(tok) and not is_latin(tok)):
                    break
                new_first, new_last = min(first, k), max(last, k)
                if pair.tgt[new_last][1] - pair.tgt[new_first][0] > limit:
                    break
                first, last = new_first, new_last
                k += step
        return first, last
    limit = n_english
    grown = True
    while grown and last - first + 1 < limit:
        grown = False
        for k in (first - 1, last + 1):
            if (0 <= k < len(pair.tgt) and k in targets and k not in outside
                    and is_word_token(pair, k) and tgt_token(pair, k).casefold() not in stops):
                first, last = min(first, k), max(last, k)
                grown = True
                break
    return first, last


# Learned pieces of unspaced scripts are syllables or parts of words: an English token is
# written with up to this many (Khmer `ដូ` `ណាល់`, Donald).
PIECES_PER_TOKEN = 3


def whole_by_sound(pair: Pair, start: int, end: int, name: str, matcher: NameMatcher
                   ) -> tuple[int, int]:
    """In scripts that write names by sound, a span that does not sound like the whole name
    cut to the fewest of its tokens that do (Dzongkha `ཀིམ༌ཇོང༌ཨན༌ལུ༌བསྟོད༌དེ༌སྦེ` to
    `ཀིམ༌ཇོང༌ཨན`, Kim Jong-un and "to praise"), where words part, with a word for each of
    the English name's in spaced scripts, and with no part forgiven (`ಜಾಕ್ಮನ್` alone is
    not Hugh Jackman, nor `ಸ್ಲಾಟ್`, slot, Scott); else grown by the fewest neighbouring tokens
    that make it so, clitics and titles left out (Burmese `ေဖးလ္ မိုက္` to
    `ေဖးလ္ မိုက္ကယ္ဆန္`, Phil Mickelson; `အလမ္` to `အလမ္ မက္ ဂရီဂါ`, Allan McGregor): the
    aligner gave the rest of the name to other words. Never across punctuation, and within
    `PIECES_PER_TOKEN` tokens per English token."""
    text, lang, rules = pair.tgt_text, matcher.family.lang, matcher.family
    if not text[start:end].strip() or agreement(text[start:end], name, lang).score > 0:
        return start, end
    inside = [k for k, (s, e) in enumerate(pair.tgt) if s < end and e > start]
    if not inside:
        return start, end
    english = name_tokens(name)
    limit = PIECES_PER_TOKEN * len(english)
    first, last = inside[0], inside[-1]
    cuts = [] if any(ch.isdigit() for ch in name) else [  # `Nord Stream 2` keeps its 2
        (a, b) for a in inside for b in inside if a <= b < a + limit and (a, b) != (first, last)]
    for a, b in sorted(cuts, key=lambda ab: (ab[1] - ab[0], ab[0])):
        s, e = rules.edges(text, pair.tgt[a][0], pair.tgt[b][1], english, matcher)
        if s < e and cut_between_words(text, s, e, start, end) and (
                rules.unspaced or len(text[s:e].split()) >= len(english)):
            agreed = agreement(text[s:e], name, lang)
            if agreed.score > 0 and not agreed.forgiven:
                return s, e  # the aligner ran the span on past the name
    lefts = [first - d for d in range(limit) if first - d >= 0
             and all(is_word_token(pair, k) for k in range(first - d, first))]
    rights = [last + d for d in range(limit) if last + d < len(pair.tgt)
              and all(is_word_token(pair, k) for k in range(last + 1, last + d + 1))]
    for a, b in sorted(((a, b) for a in lefts for b in rights if (a, b) != (first, last)
                        and b - a < limit), key=lambda ab: (first - ab[0] + ab[1] - last, -ab[0])):
        s = start if a == first else pair.tgt[a][0]
        e = end if b == last else pair.tgt[b][1]
        s, e = rules.edges(text, s, e, english, matcher)
        if s < e and agreement(text[s:e], name, lang).score > 0:
            return s, e
    return start, end


# Where a name written by sound may be cut from the words beside it: a space, a zero-width
# space (Lao), or the tsheg that ends every Tibetan syllable.
WORD_BREAKS = regex.compile(r"[\s\u200b\u0f0b\u0f0c]|\p{P}")


def cut_between_words(text: str, s: int, e: int, start: int, end: int) -> bool:
    """Whether [s, e) inside [start, end) begins and ends where words part (`WORD_BREAKS`),
    not inside a written word (Khmer `មែងហ្គា`, Menga, is not cut to `មែង`)."""
    return ((s == start or bool(WORD_BREAKS.match(text[s - 1])))
            and (e == end or bool(WORD_BREAKS.match(text[e]))))


def _missing_sides(found: list[list[tuple[int, int, float]]], span: tuple[int, int]
                   ) -> tuple[bool, bool]:
    """Whether English tokens before the first and after the last one matched inside `span`
    are missing from it (names keep their order: Donald is before Trump)."""
    inside = [any(span[0] <= a and b <= span[1] for a, b, _ in f) for f in found]
    if not any(inside):
        return False, False
    first = inside.index(True)
    last = len(inside) - 1 - inside[::-1].index(True)
    return first > 0, last < len(inside) - 1


def _fill_to_alignment(pair: Pair, span: tuple[int, int], targets: set[int],
                       sides: tuple[bool, bool], n_english: int) -> tuple[int, int]:
    """In unspaced scripts that write names by sound, a partial match grown on the side where
    English tokens are missing to the farthest piece aligned with the mention, taking in the
    pieces between (which the aligner may have given other words: `དྲོ་ལནདྲ་ཀྲམཔ`, Donald
    Trump), never across punctuation and within `PIECES_PER_TOKEN` pieces per English token."""
    first, last = span
    limit = PIECES_PER_TOKEN * n_english
    before, after = sides
    for k in sorted(targets):
        if before and k < first and last - k < limit and all(
                is_word_token(pair, j) for j in range(k, first)):
            first = k
        if after and k > last and k - first < limit and all(
                is_word_token(pair, j) for j in range(last + 1, k + 1)):
            last = k
    return first, last


def _trim(pair: Pair, span: tuple[int, int], targets: set[int], outside: set[int],
          stops: frozenset[str], protect: tuple[int, int] | None,
          is_name: Callable[[str], bool]) -> tuple[int, int] | None:
    """Drop edge tokens that are punctuation, function words, or aligned elsewhere only;
    never a token spelled like the name (Russian `ли` is a particle and `Lee`)."""
    first, last = span
    keep = set(range(protect[0], protect[1] + 1)) if protect else set()

    def droppable(k: int) -> bool:
        if k in keep or is_name(tgt_token(pair, k)):
            return False
        if not is_word_token(pair, k) or tgt_token(pair, k).casefold() in stops:
            return True
        return k in outside and k not in targets

    while first <= last and droppable(first):
        first += 1
    while last >= first and droppable(last):
        last -= 1
    return (first, last) if first <= last else None


_JOINERS = "\u00b7\u30fb\u2027\u2022-\u2010'\u2019"


def _outside_parentheses(pair: Pair, span: tuple[int, int], targets: set[int], n_english: int,
                         matcher: NameMatcher | None, by_characters: bool) -> tuple[int, int]:
    """`金正恩 (Kim Jong Un)`: a Latin copy in parentheses after a non-Latin name yields that name.

    The target name is the run of non-Latin word tokens (and joiners such as `·`) just before
    the `(`: at most as many words as the English name in spaced scripts, characters that occur
    in transliterated names in unspaced ones (where the name dictionary knows them; with
    `by_characters`, up to 12 characters, which `han_name`/`katakana_name` then cut to the
    name).
    """
    text = pair.tgt_text
    first, last = span
    inside = text[pair.tgt[first][0]:pair.tgt[last][1]]
    if not is_latin(inside):
        return span
    open_k = first - 1  # the bracket, before the span or before Latin words (`(George W. Bush`)
    while open_k >= 0 and first - open_k <= 6 and tgt_token(pair, open_k) not in "(（" and (
            is_latin(tgt_token(pair, open_k)) or tgt_token(pair, open_k) in ".-'"):
        open_k -= 1
    if open_k <= 0 or tgt_token(pair, open_k) not in "(（":
        return span
    unspaced = matcher is not None and matcher.max_ngram > 1
    run: list[int] = []
    words = 0
    k = open_k - 1
    while k >= 0:
        tok = tgt_token(pair, k)
        if by_characters and unspaced and pair.tgt[open_k][0] - pair.tgt[k][0] > 12:
            break
        if is_word_token(pair, k):
            if is_latin(tok) or (unspaced and matcher is not None and not by_characters
                                 and not matcher.name_like(tok)):
                break
        elif tok not in _JOINERS:
            break
        run.insert(0, k)
        if not unspaced and pair.tgt[k][0] > 0 and text[pair.tgt[k][0] - 1].isspace():
            words += 1
            if words >= n_english:
                break
        k -= 1
    while run and not is_word_token(pair, run[0]):
        run.pop(0)
    if not run:
        return span
    if unspaced and (matcher is None or not matcher.knows_names):
        chosen = [k for k in run if k in targets]
        return (min(chosen), run[-1]) if chosen else (run[-1], run[-1])
    return run[0], run[-1]


_BRACKETS = {"(": ")", "（": "）", "[": "]", "«": "»", "“": "”", "„": "“", "「": "」", "《": "》"}


_BRACKET_CHARS = set(_BRACKETS) | set(_BRACKETS.values())


def _balance(pair: Pair, span: tuple[int, int], latin_target: bool) -> tuple[int, int] | None:
    """Cut a span at an unmatched bracket (`哈里斯 (Chris`), keeping the part written in the
    target's script (for Latin-script targets, the part with more words)."""
    first, last = span
    opened: list[int] = []
    for k in range(first, last + 1):
        tok = tgt_token(pair, k)
        if tok in _BRACKETS:
            opened.append(k)
        elif tok in _BRACKETS.values() and opened:
            opened.pop()
        elif tok in _BRACKETS.values():
            opened.append(k)
    if not opened:
        return span
    cut = opened[0]
    parts = [p for p in ((first, cut - 1), (cut + 1, last)) if p[0] <= p[1]]

    def score(part: tuple[int, int]) -> tuple[int, int]:
        words = [k for k in range(part[0], part[1] + 1) if is_word_token(pair, k)]
        native = sum(is_latin(tgt_token(pair, k)) == latin_target for k in words)
        return native, len(words)

    parts = [p for p in parts if score(p)[1]]
    return max(parts, key=score) if parts else None


def _trim_unnamelike(pair: Pair, span: tuple[int, int], matcher: NameMatcher,
                     protect: tuple[int, int] | None) -> tuple[int, int]:
    """In unspaced scripts, drop edge tokens with characters never seen in transliterated
    names (`美國總統川普` -> `川普`), unless nothing name-like would remain."""
    first, last = span
    keep = set(range(protect[0], protect[1] + 1)) if protect else set()
    if not any(matcher.name_like(tgt_token(pair, k)) for k in range(first, last + 1)):
        return span
    while first < last and first not in keep and not matcher.name_like(tgt_token(pair, first)):
        first += 1
    while last > first and last not in keep and not matcher.name_like(tgt_token(pair, last)):
        last -= 1
    return first, last
