"""Transliteration benchmark: load time and names per second, per model and direction
(docs/benchmarks.md, "Transliteration").

Load is timed twice: cold (an empty cache folder, so the shipped corpus is decompressed and
compiled into a WFST) and warm (the compiled WFST is reused). Speed is `nbest(tokens, n=5)` on
dev-split tokens of the shared pairs (the romanized model reads the Russian, Arabic, ... dev
tokens in their own scripts).
Usage: `python bench/bench_translit.py [--tokens 2000] [--only russian ...]`.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

from xel.names import translit

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT.parent / "shared" / "data" / "translit"


def tokens(key: str, direction: translit.Direction, count: int) -> list[str]:
    """Distinct dev-split source tokens for the model, as `xel names train` splits them."""
    splits = translit.training_split(PAIRS, key, seed=13, dev_fraction=0.2)
    sources = sorted({translit.source_and_reference(p, "any", direction)[0]
                      for _, dev in splits.values() for p in dev})
    return random.Random(0).sample(sources, min(count, len(sources)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=2000)
    parser.add_argument("--only", nargs="+", default=list(translit.KEYS), choices=translit.KEYS)
    args = parser.parse_args()
    print(f"workers={translit.WORKERS}, tokens per run={args.tokens}, n=5")
    print("| model | direction | cold load s | warm load s | tokens | seconds | names/s |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as shared:
        os.environ["XEL_CACHE"] = shared
        translit.romanize("warm up uroman")  # its tables and the fallback model load once
        translit.load("romanized", "to-english")
        for key in args.only:
            for direction in translit.DIRECTIONS:
                print(row(key, direction, tokens(key, direction, args.tokens)), flush=True)


def row(key: str, direction: translit.Direction, words: list[str]) -> str:
    """Cold load (empty cache), warm load and `nbest` speed of one model."""
    with tempfile.TemporaryDirectory() as cache:
        shared, os.environ["XEL_CACHE"] = os.environ["XEL_CACHE"], cache
        start = time.perf_counter()
        translit.load.__wrapped__(key, direction)  # bypass the in-process cache
        cold = time.perf_counter() - start
        start = time.perf_counter()
        model = translit.load.__wrapped__(key, direction)
        warm = time.perf_counter() - start
        start = time.perf_counter()
        model.nbest(words, n=5)
        seconds = time.perf_counter() - start
        os.environ["XEL_CACHE"] = shared
    return (f"| {key} | {direction} | {cold:.1f} | {warm:.2f} | {len(words)} | {seconds:.1f} | "
            f"{len(words) / seconds:,.0f} |")


if __name__ == "__main__":
    main()
