"""KB build benchmark: entities per second and peak memory (docs/benchmarks.md, "KB build").

Builds the index of the real `persons.jsonl` and of synthetic Wikidata dumps (`.json.bz2`, made
here in a temporary folder) of growing size. Each build runs in its own process, which reports
its peak resident memory, so peak memory staying flat as the dump grows shows that reading is
streamed. Usage: `python bench/bench_kb.py [--entities 50000 150000]`.
"""

from __future__ import annotations

import argparse
import bz2
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PERSONS = ROOT.parent / "shared" / "data" / "kb" / "persons.jsonl"
GIVEN = ["Anna", "Ben", "Carla", "David", "Eva", "Farid", "Grace", "Hana", "Ivan", "Julia"]
SYLLABLES = ["ka", "lo", "mi", "ra", "sen", "tu", "vel", "an", "dor", "is", "ber", "gan"]


def entity(i: int, rng: random.Random) -> dict[str, object]:
    """A Wikidata-shaped item: three in five are humans (half in the older `numeric-id`
    claim form), the rest cities; with labels, aliases, descriptions and sitelinks."""
    human = rng.random() < 0.6
    target = 5 if human else 515
    value: dict[str, object] = {"entity-type": "item", "numeric-id": target}
    if rng.random() < 0.5:
        value["id"] = f"Q{target}"
    family = "".join(rng.choice(SYLLABLES) for _ in range(3)).title()
    name = f"{rng.choice(GIVEN)} {family}"
    sites = {f"{code}wiki": {"site": f"{code}wiki", "title": name, "badges": []}
             for code in rng.sample(["en", "de", "fr", "es", "it", "nl", "pl", "ru"],
                                    rng.randint(0, 8))}
    return {
        "type": "item", "id": f"Q{1000 + i}",
        "labels": {lang: {"language": lang, "value": name} for lang in ("en", "de", "fr")},
        "descriptions": {"en": {"language": "en", "value": f"person number {i}" if human
                                else f"city number {i}"}},
        "aliases": {"en": [{"language": "en", "value": f"{name[0]}. {family}"}]},
        "claims": {"P31": [{"mainsnak": {"snaktype": "value", "property": "P31", "datavalue": {
            "value": value, "type": "wikibase-entityid"}, "datatype": "wikibase-item"},
            "type": "statement", "rank": "normal"}],
            "P569": [{"mainsnak": {"snaktype": "value", "property": "P569", "datavalue": {
                "value": {"time": f"+{1900 + i % 100}-01-01T00:00:00Z"}, "type": "time"}}}]},
        "sitelinks": sites,
    }


def write_dump(path: Path, count: int) -> None:
    """A dump as Wikidata lays it out: `[`, one entity per line ending in `,`, `]`."""
    rng = random.Random(count)
    with bz2.open(path, "wt", encoding="utf-8") as f:
        f.write("[\n")
        for i in range(count):
            f.write(json.dumps(entity(i, rng), separators=(",", ":")))
            f.write(",\n" if i < count - 1 else "\n")
        f.write("]\n")


def child(kb_file: str, fmt: str, index: str) -> None:
    """Build one index and print its figures as JSON (run in a fresh process)."""
    from xel.config import Config, CorpusConfig, KbConfig
    from xel.kb import build_kb

    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    config = Config(name="bench", corpus=CorpusConfig(path="."),
                    kb=KbConfig(path=kb_file, format=fmt, index=index))
    start = time.perf_counter()
    run = build_kb(config)
    seconds = time.perf_counter() - start
    print(json.dumps({
        "entities": run.summary["entities"], "seconds": seconds, "skipped": run.skipped,
        "baseline_mib": baseline / 1024,
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "index_mib": Path(index).stat().st_size / 2**20,
    }))


def measure(kb_file: Path, fmt: str, folder: Path) -> dict[str, float]:
    index = folder / f"{kb_file.name}.sqlite"
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(kb_file), fmt, str(index)],
        check=True, capture_output=True, text=True, env={**os.environ, "XEL_QUIET": "1"},
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, nargs="+", default=[50_000, 150_000])
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    print("| source | lines | people indexed | build s | people/s | lines/s | peak RSS MiB "
          "(after imports) | index MiB | unchanged rerun s |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sources: list[tuple[str, Path, str, int]] = []
        if PERSONS.is_file():
            sources.append(("persons.jsonl (real)", PERSONS, "jsonl", 12_302))
        for count in args.entities:
            dump = folder / f"synthetic-{count}.json.bz2"
            write_dump(dump, count)
            size = dump.stat().st_size / 2**20
            sources.append((f"synthetic Wikidata .json.bz2 ({size:.1f} MiB)", dump, "wikidata",
                            count))
        for label, path, fmt, lines in sources:
            r = measure(path, fmt, folder)
            again = measure(path, fmt, folder)  # a new process: the source is hashed again
            print(f"| {label} | {lines:,} | {r['entities']:,} | {r['seconds']:.1f} | "
                  f"{r['entities'] / r['seconds']:,.0f} | {lines / r['seconds']:,.0f} | "
                  f"{r['peak_mib']:.0f} ({r['baseline_mib']:.0f}) | {r['index_mib']:.1f} | "
                  f"{again['seconds']:.3f} ({'skipped' if again['skipped'] else 'rebuilt'}) |")


if __name__ == "__main__":
    main()
