"""The agreement threshold of each transliteration model, chosen on its development pairs.

Triage's calibrated policy accepts a projection whose every part agrees with the English name
at its model's threshold. The threshold is chosen where acceptance is precise: on pairs the
model never saw (the dev split `xel names train` held out, by the same seed), each true pair
(`trump`, `трамп`) is scored beside a false one, the same target with the nearest other
English token (`trumper`), and the threshold is the lowest score whose acceptances are at
least `precision` right. A pair's score is the best probability either direction's n-best
gives it (`LanguageModels.score`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Indel

from xel.names.translit import Pair, training_split
from xel.names.transliterate import THRESHOLDS, LanguageModels

SAMPLE = 1000  # true pairs per model; as many false ones
PRECISION = 0.95


def negatives(dev: list[Pair], seed: int) -> list[Pair]:
    """For each pair, its target with the nearest other English token of the dev pairs that
    is not also a reading of that target (nor the same name spelled nearly alike)."""
    readings: dict[str, set[str]] = {}
    for p in dev:
        readings.setdefault(p.target, set()).add(p.english)
    english = sorted({p.english for p in dev})
    rng = random.Random(seed)
    out = []
    for p in dev:
        pool = rng.sample(english, min(len(english), 300))
        ranked = process.extract(p.english, pool, scorer=Indel.normalized_similarity, limit=10)
        other = next((e for e, score, _ in ranked if e not in readings[p.target] and
                      score < 0.9), None)
        if other:
            out.append(Pair(other, p.target))
    return out


def threshold(scored: list[tuple[float, bool]], precision: float) -> tuple[float, float, float]:
    """The lowest score at which acceptances are at least `precision` right: (threshold,
    precision there, recall there); 1.0 where no score is."""
    ranked = sorted(scored, key=lambda x: -x[0])
    positives = sum(ok for _, ok in scored)
    best = (1.0, 1.0, 0.0)
    right = taken = 0
    for k, (score, ok) in enumerate(ranked):
        right += ok
        taken += 1
        if k + 1 < len(ranked) and ranked[k + 1][0] == score:
            continue  # a threshold takes every pair with its score
        if score > 0 and right / taken >= precision:
            best = (score, right / taken, right / positives if positives else 0.0)
    return best


def calibrate(pairs: Path, key: str, folder: Path, *, seed: int, dev_fraction: float,
              precision: float = PRECISION) -> dict[str, Any]:
    """Choose `key`'s threshold on its dev pairs (the split training used)."""
    dev = [p for _, held_out in training_split(pairs, key, seed, dev_fraction).values()
           for p in held_out]
    rng = random.Random(seed)
    true = rng.sample(dev, min(SAMPLE, len(dev)))
    false = negatives(true, seed)
    models = LanguageModels(f"calibrate-{key}", folder, key=key)
    models.prepare(english=[p.english for p in true + false],
                   parts=[p.target for p in true + false])
    scored = [(models.score([p.target], [p.english])[0], ok)
              for ps, ok in ((true, True), (false, False)) for p in ps]
    value, reached, recall = threshold(scored, precision)
    return {"threshold": round(value, 4), "precision": round(reached, 4),
            "recall": round(recall, 4), "true pairs": len(true), "false pairs": len(false),
            "seed": seed, "dev_fraction": dev_fraction}


def write_thresholds(found: dict[str, dict[str, Any]], folder: Path) -> Path:
    path = folder / THRESHOLDS
    known = json.loads(path.read_text("utf-8")) if path.is_file() else {}
    known.update(found)
    path.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path
