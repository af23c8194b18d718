"""eflomal's iteration schedule against alignment quality: AER and CPU time on the gold we have.

    python bench/bench_schedule.py CONFIG [--fertility 8 16 32 auto] [--samplers 1 2 3]
        [--seeds 2015 1 2] [--workers 2] [--json OUT]

For each language with gold, eflomal learns (seeded, one thread, as the align stage runs it)
from the gold sentences together with the config corpus's pairs of that language, as `xel eval
projection` trains it; then each gold set is scored on its own sentences:

- `en-fr` (Hansards, 447 pairs, sure and possible links) and `ro-en` (248, sure): AER, and AER
  on each half (`tune`: the first half of the sentences, `held out`: the rest);
- `ja-kyoto` (`corpora/kyoto_persons/alignment/`, tune and held-out halves by article): AER;
- `zh-han`, `ja-han` (`corpora/han_names/`): links cover names only, so AER means nothing
  there; the share of gold name links found (recall) is given instead.

A schedule is `auto` (eflomal's own: 5000 / sqrt(pairs) fertility iterations, a quarter of
that for IBM1 and HMM; `xel.align.eflomal_iterations`) or a number of fertility iterations,
capped that way (`--fertility 32`: 8, 8, 32 where auto would run more). CPU seconds are
eflomal's (both directions), so other jobs on the machine change them little. Prints a table
of means over the seeds, one row per schedule, and writes every run with `--json`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xel.align import Links, aer, align
from xel.config import load_config
from xel.evaluate import GoldSentence, corpus_pairs, read_alignment_gold

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "align_gold"
KYOTO = ROOT / "corpora" / "kyoto_persons" / "alignment"
HAN = ROOT / "corpora" / "han_names"


@dataclass(frozen=True)
class GoldSet:
    name: str
    lang: str
    sentences: Path
    links: Path
    english: str
    metric: str  # "aer" (with halves) or "recall" (name links only)
    halves: bool = False


GOLD = [
    GoldSet("en-fr", "fra", SHARED / "en-fr" / "enfr.src-tgt", SHARED / "en-fr" / "enfr.gold",
            "src", "aer", halves=True),
    GoldSet("ro-en", "ron", SHARED / "ro-en" / "roen.src-tgt", SHARED / "ro-en" / "roen.gold",
            "tgt", "aer", halves=True),
    GoldSet("ja-kyoto tune", "jpn", KYOTO / "tune.src-tgt", KYOTO / "tune.gold", "src", "aer"),
    GoldSet("ja-kyoto held out", "jpn", KYOTO / "heldout.src-tgt", KYOTO / "heldout.gold", "src",
            "aer"),
    GoldSet("ja-han", "jpn", HAN / "en-ja.src-tgt", HAN / "en-ja.gold", "src", "recall"),
    GoldSet("zh-han", "zho-CN", HAN / "en-zh.src-tgt", HAN / "en-zh.gold", "src", "recall"),
]


def recall(predicted: Sequence[Links], gold: Sequence[GoldSentence]) -> float:
    """The share of gold (sure) links the aligner found."""
    found = sum(len(p & g.sure) for p, g in zip(predicted, gold, strict=True))
    total = sum(len(g.sure) for g in gold)
    return found / total if total else 0.0


def scores(gold: GoldSet, sentences: list[GoldSentence], links: list[Links]) -> dict[str, float]:
    if gold.metric == "recall":
        return {gold.name: recall(links, sentences)}

    def rate(part: slice) -> float:
        return aer(links[part], [g.sure for g in sentences[part]],
                   [g.possible for g in sentences[part]])

    found = {gold.name: rate(slice(None))}
    if gold.halves:
        half = len(sentences) // 2
        found[f"{gold.name} tune"] = rate(slice(None, half))
        found[f"{gold.name} held out"] = rate(slice(half, None))
    return found


@dataclass(frozen=True)
class Task:
    config: str
    lang: str
    sets: list[tuple[GoldSet, list[GoldSentence]]]
    corpus: tuple[list[list[str]], list[list[str]]]
    fertility: int | None  # None: eflomal's own schedule
    samplers: int
    seed: int


def run_task(task: Task) -> dict[str, Any]:
    """One eflomal run (every gold set of a language at once) and its scores."""
    config = load_config(task.config)
    settings = config.align.model_copy(update={
        "seed": task.seed, "eflomal_samplers": task.samplers,
        "eflomal_max_iterations": task.fertility})
    src = [g.src for _, sentences in task.sets for g in sentences] + task.corpus[0]
    tgt = [g.tgt for _, sentences in task.sets for g in sentences] + task.corpus[1]
    n_gold = sum(len(s) for _, s in task.sets)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    links = list(align(src, tgt, settings, range(n_gold)))
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found: dict[str, float] = {}
    at = 0
    for gold, sentences in task.sets:
        found.update(scores(gold, sentences, links[at:at + len(sentences)]))
        at += len(sentences)
    return {"lang": task.lang, "fertility": task.fertility or "auto", "samplers": task.samplers,
            "seed": task.seed, "pairs": len(src), "wall_s": round(wall, 2),
            "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
                           2),
            "scores": {k: round(v, 4) for k, v in found.items()}}


def table(runs: list[dict[str, Any]]) -> str:
    """Means over seeds: one row per (samplers, fertility), CPU per language and every score."""
    groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in runs:
        groups[(r["samplers"], str(r["fertility"]))].append(r)
    names = sorted({k for r in runs for k in r["scores"]})
    lines = ["| samplers | fertility | CPU s / language | " + " | ".join(names) + " |",
             "|---" * (3 + len(names)) + "|"]
    for (samplers, fertility), rs in sorted(
            groups.items(), key=lambda g: (g[0][0], int(g[0][1]) if g[0][1] != "auto" else 1e9)):
        cpu = statistics.mean(sum(r["cpu_s"] for r in rs if r["seed"] == s)
                              / len({r["lang"] for r in rs})
                              for s in {r["seed"] for r in rs})
        cells = []
        for name in names:
            values = [r["scores"][name] for r in rs if name in r["scores"]]
            cells.append(f"{statistics.mean(values):.3f}" if values else "")
        lines.append(f"| {samplers} | {fertility} | {cpu:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config")
    parser.add_argument("--fertility", nargs="+", default=["auto"],
                        help="fertility iterations to cap at, or auto (eflomal's own)")
    parser.add_argument("--samplers", nargs="+", type=int, default=[3])
    parser.add_argument("--seeds", nargs="+", type=int, default=[2015])
    parser.add_argument("--sets", nargs="+", default=[g.name for g in GOLD])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("XEL_QUIET", "1")
    config = load_config(args.config)
    by_lang: dict[str, list[tuple[GoldSet, list[GoldSentence]]]] = defaultdict(list)
    for gold in GOLD:
        if gold.name in args.sets:
            by_lang[gold.lang].append((gold, read_alignment_gold(
                gold.sentences, gold.links, english=gold.english, base=1)))
    corpora = {lang: corpus_pairs(config, lang) for lang in by_lang}
    tasks = [Task(args.config, lang, sets, corpora[lang],
                  None if f == "auto" else int(f), samplers, seed)
             for seed in args.seeds for samplers in args.samplers for f in args.fertility
             for lang, sets in by_lang.items()]
    runs = []
    with ProcessPoolExecutor(args.workers) as pool:
        for run in pool.map(run_task, tasks):
            runs.append(run)
            print(json.dumps(run), file=sys.stderr, flush=True)
    print(table(runs))
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
