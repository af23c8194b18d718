"""Lexical priors that tie English name tokens to the target words that read as them.

A few thousand sentence pairs leave eflomal unsure of rare words, and names are the rarest:
it links a Japanese given name to a particle beside it, or splits a Khmer name between
neighbours. Before aligning, each token of an English mention is compared with the words of
its target sentence by the language's reading rules and transliteration models (the
`NameMatcher` projection anchors names with); every pair where words read as the token adds
`align.name_prior` pseudo-counts to that token and each of those words, so the aligner starts
from the links a reader would make. Names the matcher cannot read add nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from xel.names.match import WORDLIKE, NameMatcher
from xel.tokenizers import spaced_spans

Prior = tuple[str, str]  # (source token, target token), as the aligner's files write them
# A mention's pair: source tokens, target tokens, and the mention as (first, last) source token.
MentionPair = tuple[Sequence[str], Sequence[str], Sequence[tuple[int, int]]]


def read_links(english: Sequence[str], target: Sequence[str],
               matcher: NameMatcher) -> list[tuple[int, list[int]]]:
    """For each English token (by index) the target tokens of its best-reading runs (a name
    read by two words in one sentence links to both). A token the target writes as the
    English does gets none: the aligner links those by themselves (`align.identical_prior`),
    and a reading beside them is another word."""
    written = {t.casefold() for t in target}
    found = matcher.matches(list(english), " ".join(target), spaced_spans(target))
    links = []
    for i, runs in enumerate(found):
        if not runs or english[i].casefold() in written:
            continue
        best = max(score for _, _, score in runs)
        links.append((i, sorted({k for a, b, score in runs if score == best
                                 for k in range(a, b + 1)})))
    return links


def name_priors(pairs: Iterable[MentionPair], matcher: NameMatcher,
                alpha: float) -> dict[Prior, float]:
    """Pseudo-counts for (English name token, target token) over every mention's pair."""
    priors: defaultdict[Prior, float] = defaultdict(float)
    for src, tgt, mentions in pairs:
        for first, last in mentions:
            at = [i for i in range(first, last + 1) if WORDLIKE.search(src[i])]
            for i, targets in read_links([src[i] for i in at], tgt, matcher):
                for k in targets:
                    priors[src[at[i]], tgt[k]] += alpha
    return dict(priors)
