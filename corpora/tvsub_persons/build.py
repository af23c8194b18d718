"""Rebuild the TVsub Chinese subtitle collection, its person gold and its 100k learning pairs.

    python corpora/tvsub_persons/build.py SOURCE [OUT]
    python corpora/tvsub_persons/build.py SOURCE OUT --draw SEED N

SOURCE is a clone (or bare git directory) of github.com/longyuewangdcu/tvsub (the DCU-Tencent
Chinese-English dialogue corpus: subtitles of US television episodes, one file per episode and
side, line-aligned), read at commit `RELEASE`. OUT defaults to work/tvsub. Written there:

- `corpus/{eng,zho-CN}.txt`, `corpus/doc_ids.txt`: the collection `configs/tvsub-chinese.yaml`
  reads: lines 1 to `LINES` of each of `EPISODES` episodes drawn with a seeded draw
  (`gold_episodes`), a document per episode (line 0 is often the show's or the episode's
  title on one side only);
- `learn/{eng,zho-CN}.txt`: `LEARN` pairs of the other episodes, in episode order, for the
  aligner to learn from (`configs/tvsub-chinese-100k.yaml`, `align.learn_from`);
- `gold-{tune,heldout}.tsv`: `annotations.tsv` as span gold (`xel eval projection --spans`),
  in halves by episode with a seeded draw (`half`);
- `tune2/corpus/...` and `gold-tune2.tsv`: a second set, all of it tune gold
  (`annotations-tune2.tsv`, `configs/tvsub-chinese-tune2.yaml`): `EPISODES` more episodes,
  drawn from those neither the first set nor the learning pairs hold, so that what fails in
  dialogue can be learned without reading the held-out half's misses.

`--draw SEED N [--tune2]` instead runs xel's English NER over the collection's English
(`xel.evaluate.draw_persons`), draws N mentions with `random.Random(SEED).sample` and writes
the annotator's sheet `OUT/sheet.tsv`: the columns of `annotations.tsv` with `gold` empty, and
the English and Chinese line (of the second set with `--tune2`). The sheet is all the
annotator reads.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from xel.evaluate import (  # noqa: E402
    annotated_halves,
    draw_sheet,
    span_gold_counts,
    write_span_gold,
)

RELEASE = "76a07be477ea311d7ab3becfe7b264936992b20d"
FOLDER = "data/orignal/train/separated"
ALL_EPISODES = 2959  # files 0 to 2958 of each side
EPISODES, LINES = 40, 60  # the collection: about 2.4k pairs, with NTREX the ~2k-pair case
LEARN = 100_000
FORMATTING = re.compile(r"^(?:,,\d{4},\d{4},\d{4},,)+")

Row = tuple[str, str, str]  # (document, English, Chinese)


def git_dir(source: Path) -> Path:
    return source / ".git" if (source / ".git").exists() else source


def episode(source: Path, n: int) -> list[tuple[str, str]]:
    """The (English, Chinese) lines of episode `n`: line 0 left out, pairs with a side empty
    too, and the subtitle formatting some Chinese lines keep (`,,0000,0000,0000,,`)."""
    sides = [subprocess.run(["git", "--git-dir", str(git_dir(source)), "show",
                             f"{RELEASE}:{FOLDER}/{n}.{ext}"], capture_output=True,
                            text=True, check=True).stdout.split("\n") for ext in ("en", "zh")]
    if len(sides[0]) != len(sides[1]):
        raise SystemExit(f"{FOLDER}/{n}: {len(sides[0])} English lines, {len(sides[1])} Chinese")
    pairs = [(en.strip(), FORMATTING.sub("", zh).strip())
             for en, zh in zip(*sides, strict=True)][1:]
    return [(en, zh) for en, zh in pairs if en and zh]


def gold_episodes() -> list[int]:
    return sorted(random.Random("tvsub gold").sample(range(ALL_EPISODES), EPISODES))


def collection(source: Path, episodes: list[int]) -> list[Row]:
    return [(f"tvsub.{n}", en, zh) for n in episodes for en, zh in episode(source, n)[:LINES]]


def learning(source: Path) -> tuple[list[tuple[str, str]], int]:
    """The learning pairs and the last episode they take from."""
    taken = set(gold_episodes())
    pairs: list[tuple[str, str]] = []
    for n in range(ALL_EPISODES):
        if n not in taken:
            pairs += episode(source, n)
        if len(pairs) >= LEARN:
            return pairs[:LEARN], n
    raise SystemExit(f"only {len(pairs)} learning pairs")


def second_episodes(last_learned: int) -> list[int]:
    """The second set's episodes: drawn from those after the learning pairs' last one, none of
    the first set's."""
    taken = set(gold_episodes())
    free = [n for n in range(last_learned + 1, ALL_EPISODES) if n not in taken]
    return sorted(random.Random("tvsub tune 2").sample(free, EPISODES))


def half(doc: str) -> str:
    return "tune" if random.Random(f"tvsub:{doc}").random() < 0.5 else "heldout"


def write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path, nargs="?", default=Path("work/tvsub"))
    parser.add_argument("--draw", type=int, nargs=2, metavar=("SEED", "N"))
    parser.add_argument("--tune2", action="store_true", help="draw from the second set")
    args = parser.parse_args()
    rows = collection(args.source, gold_episodes())
    learned, last_learned = learning(args.source)
    rows2 = collection(args.source, second_episodes(last_learned))
    if args.draw:
        seed, n = args.draw
        found = draw_sheet(rows2 if args.tune2 else rows, args.out / "sheet.tsv", seed, n,
                           "chinese")
        print(f"{found} PERSON mentions; {n} drawn (seed {seed}) to {args.out / 'sheet.tsv'}")
        return
    for folder, written in ((args.out / "corpus", rows), (args.out / "tune2" / "corpus", rows2)):
        for name, column in (("doc_ids.txt", 0), ("eng.txt", 1), ("zho-CN.txt", 2)):
            write_lines(folder / name, [r[column] for r in written])
    write_lines(args.out / "learn" / "eng.txt", [en for en, _ in learned])
    write_lines(args.out / "learn" / "zho-CN.txt", [zh for _, zh in learned])
    gold = annotated_halves(HERE / "annotations.tsv", rows, "zho-CN", half)
    gold["tune2"] = annotated_halves(HERE / "annotations-tune2.tsv", rows2, "zho-CN",
                                     lambda _: "tune")["tune"]
    for part, lines in gold.items():
        drawn = ("episodes drawn with seed tvsub tune 2" if part == "tune2" else
                 f"{part} half, episodes drawn with seed tvsub:<document id>")
        write_span_gold(args.out / f"gold-{part}.tsv",
                        f"TVsub en-zh person mentions ({drawn}), from corpora/tvsub_persons",
                        lines)
    counts = {p: span_gold_counts(g) for p, g in gold.items()}
    print(f"{len(rows)} sentence pairs, {len({r[0] for r in rows})} episodes in "
          f"{args.out}/corpus, {len(rows2)} in {args.out}/tune2/corpus, {len(learned):,} "
          f"learning pairs; person mentions: {counts}")


if __name__ == "__main__":
    main()
