"""Benchmark xel's alignment and projection against plain `eflomal-align` on the same input.

    python bench/bench_align.py CONFIG [--lang deu --lang fra ...] [--repeat 2]

The config's store must already hold the corpus and NER (`xel queries CONFIG`). For the given
languages this times, alternately and `--repeat` times each (the best run counts, since other
jobs share the machine):

- plain: `eflomal-align` on token files written exactly as xel writes them (both directions,
  same options, eflomal's own seeding and all its threads), one language after another;
- xel: the `align:<lang>` stages of all the languages as `xel project` runs them (training
  the tokenizers, tokenizing, eflomal seeded for reproducibility with one thread per language
  and languages in parallel on the configured executor, symmetrization, writing tokens and
  links to the store), then every `project:<lang>` stage (each English person mention,
  name-aware, ranked per name).

It prints one JSON object: seconds, sentence pairs/second, mentions/second, and the ratio of
xel's align+project time to plain eflomal's on the same input.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from xel.align import eflomal_command, eflomal_priors, write_tokens
from xel.config import load_config
from xel.corpus import sentences, source_language
from xel.pipeline import run
from xel.store import Store
from xel.tokenizers import tokenizer_for


def plain_eflomal(store: Store, config_path: str, lang: str) -> tuple[float, int]:
    """Seconds of `eflomal-align` alone on xel's token files, and the pairs it aligned."""
    config = load_config(config_path)
    source = source_language(store)
    src = [t for _, _, t in sentences(store, source)]
    tgt = [t for _, _, t in sentences(store, lang)]
    src_tok = tokenizer_for(source, src, config.tokenize)
    tgt_tok = tokenizer_for(lang, tgt, config.tokenize)
    keep = [k for k in range(len(src)) if src_tok(src[k]) and tgt_tok(tgt[k])]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        write_tokens(d / "src", [[src[k][s:e] for s, e in src_tok(src[k])] for k in keep],
                     config.align.lowercase)
        write_tokens(d / "tgt", [[tgt[k][s:e] for s, e in tgt_tok(tgt[k])] for k in keep],
                     config.align.lowercase)
        command = eflomal_command(d / "src", d / "tgt", d / "fwd", d / "rev", config.align,
                                  len(keep), eflomal_priors(d, config.align))
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return time.perf_counter() - started, len(keep)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config")
    parser.add_argument("--lang", action="append", help="repeatable (default: deu)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    langs = args.lang or ["deu"]
    os.environ.setdefault("XEL_QUIET", "1")
    config = load_config(args.config)
    plain, aligned, projected = [], [], []
    with Store(config.resolve(config.store)) as store:
        mentions = store.scalar("SELECT COUNT(*) FROM mentions") * len(langs)
        for _ in range(args.repeat):
            runs = [plain_eflomal(store, args.config, lang) for lang in langs]
            plain.append(sum(seconds for seconds, _ in runs))
            pairs = sum(n for _, n in runs)
            started = time.perf_counter()
            run(store, config, ["align"], langs=langs, force=True)
            aligned.append(time.perf_counter() - started)
            started = time.perf_counter()
            run(store, config, ["project"], langs=langs, force=True)
            projected.append(time.perf_counter() - started)
    best_plain, best_align, best_project = min(plain), min(aligned), min(projected)
    print(json.dumps({
        "langs": langs, "pairs": pairs, "mentions": mentions, "repeat": args.repeat,
        "executor": config.executor.model_dump(), "seed": config.align.seed,
        "plain eflomal s": [round(x, 2) for x in plain],
        "xel align stages s": [round(x, 2) for x in aligned],
        "xel project stages s": [round(x, 2) for x in projected],
        "plain pairs/s": round(pairs / best_plain, 1),
        "xel align pairs/s": round(pairs / best_align, 1),
        "project mentions/s": round(mentions / best_project, 1),
        "(align + project) / plain": round((best_align + best_project) / best_plain, 3),
    }, indent=2))


if __name__ == "__main__":
    main()
