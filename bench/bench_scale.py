"""Scale benchmark: xel's stages on corpora of 10k, 100k and 1M English sentences made of
NTREX-128's real documents, beside plain spaCy NER and plain `eflomal-align` on the same input.

    python bench/bench_scale.py run --size 10000 --langs deu fra --plain ner eflomal
    python bench/bench_scale.py run --size 1000000 --langs deu fra \
        --stages import ner align project --plain eflomal
    python bench/bench_scale.py dask --size 100000 --langs deu fra --workers 1 2 4 --export
    python bench/bench_scale.py contention --size 100000 --sentences 20000
    python bench/bench_scale.py table work/scale/results.jsonl

`--langs ntrex21` takes the 20 targets of configs/ntrex21.yaml.

**The corpus recipe** (`make_corpus`, seeded): NTREX-128's 123 documents are read with xel's own
reader; new documents are drawn one after another, each the concatenation of 1 to 3 NTREX
documents chosen at random (with replacement), until the corpus has `--size` segments (the
last document is cut there). Every new document gets a new id (`s<seed>-<number>`); its
sentences keep their real translations, so names and sentence alignment stay real. The corpus
is written as Moses-style line files (one per language) plus a document-id file, the format
OPUS ships, and read by xel's `moses` reader.

**What is measured.** Each stage of the pipeline (as `xel build` runs them, the simulated crowd
answering) runs in its own process; for each: wall time of the stage itself (not the interpreter
start), CPU time of the process and every process it waited for (workers, eflomal), the peak
of the summed resident memory of the process tree (sampled every 0.2 s), the store's size after
it (WAL checkpointed), and the sentences per second. The plain runs (`--plain ner eflomal`) are
measured the same way: spaCy with only the NER component over the English sentences (one
process, as a user would), and `eflomal-align` on token files written exactly as xel writes
them, one language after another with eflomal's own seeding and threads (tokenizing is not
timed).

The simulated crowd has no truth file here (the shipped ones name NTREX's own query ids): it
takes the linker's best candidate as the truth, which changes nothing of what is timed.

Results are appended as JSON lines to `--results` (default `<work>/results.jsonl`);
`python bench/bench_scale.py table RESULTS` prints the Markdown tables of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psutil
import yaml

ROOT = Path(__file__).resolve().parents[1]
NTREX = ROOT.parent / "shared/data/ntrex128"
SEED = 2026


def ntrex21() -> list[str]:
    config = yaml.safe_load((ROOT / "configs/ntrex21.yaml").read_text(encoding="utf-8"))
    return list(config["corpus"]["languages"])


# --- the corpus ----------------------------------------------------------------------------


def make_corpus(folder: Path, size: int, langs: list[str], seed: int = SEED) -> Path:
    """Write the scale corpus (see the module docstring) and its config; returns the config."""
    from xel.config import CorpusConfig
    from xel.corpus import read_ntrex

    config_path = folder / "config.yaml"
    if config_path.exists():
        return config_path
    folder.mkdir(parents=True, exist_ok=True)
    source = read_ntrex(NTREX, CorpusConfig(path=str(NTREX), languages=langs))
    docs: dict[str, list[dict[str, str]]] = {}
    for segment in source.segments:
        docs.setdefault(segment.doc_id, []).append(segment.texts)
    ids = sorted(docs)
    rng = random.Random(seed)
    files = {code: (folder / f"corpus.{code}").open("w", encoding="utf-8")
             for code in source.languages}
    with (folder / "docs.txt").open("w", encoding="utf-8") as doc_file:
        written, number = 0, 0
        while written < size:
            number += 1
            parts = [docs[rng.choice(ids)] for _ in range(rng.randint(1, 3))]
            for texts in [t for part in parts for t in part][:size - written]:
                doc_file.write(f"s{seed}-{number:07d}\n")
                for code, f in files.items():
                    f.write(texts[code].replace("\n", " ") + "\n")
                written += 1
    for f in files.values():
        f.close()
    config = {
        "name": f"scale-{size}", "root": str(ROOT), "store": str(folder / "xel.sqlite"),
        "output": str(folder / "out"),
        "corpus": {"path": str(folder), "format": "moses", "source": "eng",
                   "files": {code: f"corpus.{code}" for code in source.languages},
                   "doc_ids": "docs.txt"},
        "kb": {"path": "../shared/data/kb/persons.jsonl", "index": "work/kb/persons.sqlite"},
        "hits": {"crowd": "simulated"},
    }
    config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return config_path


# --- measuring a child process -------------------------------------------------------------


def measured(command: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run a command; its JSON output plus peak tree RSS and per-process CPU (sampled)."""
    process = psutil.Popen(command, stdout=subprocess.PIPE, text=True,
                           env={**os.environ, **(env or {})})
    peak = 0
    cpu: dict[int, tuple[str, float]] = {}
    own_peak: dict[int, int] = {}
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            try:
                procs = [process, *process.children(recursive=True)]
            except psutil.Error:
                break
            total = 0
            for p in procs:
                try:
                    rss = p.memory_info().rss
                    total += rss
                    own_peak[p.pid] = max(own_peak.get(p.pid, 0), rss)
                    t = p.cpu_times()
                    cpu[p.pid] = (" ".join(p.cmdline()[:3])[-60:],
                                  t.user + t.system + t.children_user + t.children_system)
                except psutil.Error:
                    pass
            peak = max(peak, total)
            done.wait(0.2)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, _ = process.communicate()
    done.set()
    watcher.join()
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed (exit {process.returncode})")
    result = json.loads(out.strip().splitlines()[-1])
    result["peak_rss_mib"] = round(peak / 2**20, 1)
    result["process_cpu_s"] = {f"{pid} {name}": round(s, 1) for pid, (name, s) in cpu.items()
                               if s >= 1}
    result["process_peak_mib"] = {f"{pid} {name}": round(own_peak.get(pid, 0) / 2**20, 1)
                                  for pid, (name, _) in cpu.items()
                                  if own_peak.get(pid, 0) >= 50 * 2**20}
    return result


def child(fn: str, *args: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "_" + fn, *args]


def usage() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def store_bytes(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def table_bytes(path: Path) -> dict[str, int]:
    """Bytes per table and index (SQLite's dbstat), where this SQLite has it."""
    try:
        with sqlite3.connect(path) as conn:
            rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:
        return {}
    return {name: size for name, size in rows if size > 100_000}


# --- what the children run -------------------------------------------------------------------


def stage_main(config_path: str, name: str, executor: str, workers: str) -> None:
    """One stage of the pipeline, in every language, with the simulated crowd."""
    from xel.config import load_config
    from xel.pipeline import STAGES, Crowd, run_stage, stage_languages
    from xel.store import Store

    config = load_config(config_path)
    config.executor = config.executor.model_copy(update={"name": executor,
                                                         "workers": int(workers)})
    store = Store(config.resolve(config.store))
    stage = STAGES[name]
    cpu, wall = usage(), time.perf_counter()
    runs = run_stage(store, config, stage, stage_languages(store, config, stage),
                     crowd=Crowd("simulated"))
    wall, cpu = time.perf_counter() - wall, usage() - cpu
    print(json.dumps({"wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                      "skipped": all(r.skipped for r in runs),
                      "summary": runs[0].summary if len(runs) == 1 else len(runs)}))


def plain_ner_main(config_path: str, limit: str = "0") -> None:
    """spaCy with only the NER component over the English sentences (what xel loads; the
    first `limit` of them, if not 0), importing spaCy included, as xel's stage includes it."""
    from xel.config import load_config
    from xel.store import Store

    config = load_config(config_path)
    store = Store(config.resolve(config.store))
    texts = [r[0] for r in store.query("SELECT text FROM sentences WHERE lang = 'eng' "
                                       "ORDER BY seg") if r[0].strip()]
    texts = texts[: int(limit)] if int(limit) else texts
    model = config.ner.model
    cpu, wall = usage(), time.perf_counter()
    import spacy

    full = spacy.load(model)
    nlp = spacy.load(model, exclude=[p for p in full.pipe_names if p != "ner"])
    del full
    for _ in nlp.pipe(texts, batch_size=config.ner.batch_size):
        pass
    print(json.dumps({"wall_s": round(time.perf_counter() - wall, 2),
                      "cpu_s": round(usage() - cpu, 2), "sentences": len(texts)}))


def plain_eflomal_main(config_path: str, *langs: str) -> None:
    """`eflomal-align` on xel's token files, one language after another (not timed: writing)."""
    from xel.align import _write_pairs, eflomal_command, eflomal_priors
    from xel.config import load_config
    from xel.store import Store
    from xel.tokenizers import tokenizer_for

    config = load_config(config_path)
    store = Store(config.resolve(config.store))
    src = [r[0] for r in store.query("SELECT text FROM sentences WHERE lang = 'eng' "
                                     "ORDER BY seg")]
    wall = cpu = 0.0
    for lang in langs:
        tgt = [r[0] for r in store.query("SELECT text FROM sentences WHERE lang = ? "
                                         "ORDER BY seg", (lang,))]
        from xel.align import Tokens

        s_tok, t_tok = tokenizer_for("eng", src, config.tokenize), tokenizer_for(
            lang, tgt, config.tokenize)
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            kept = _write_pairs(d, Tokens(src, s_tok), Tokens(tgt, t_tok),
                                config.align.lowercase)
            command = eflomal_command(d / "src", d / "tgt", d / "fwd", d / "rev", config.align,
                                      len(kept), eflomal_priors(d, config.align))
            c, w = usage(), time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            wall += time.perf_counter() - w
            cpu += usage() - c
    print(json.dumps({"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "aligned": len(langs)}))


# --- the runs --------------------------------------------------------------------------------

ALL = ["import", "ner", "queries", "kb", "link", "el", "align", "project", "triage", "names",
       "expert", "partition", "export", "baseline", "report"]


def record(results: Path, row: dict[str, Any]) -> None:
    row = {"date": time.strftime("%Y-%m-%d %H:%M"), "host": platform.node(),
           "load": os.getloadavg()[0], **row}
    with results.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    print(json.dumps(row), flush=True)


def run_size(args: argparse.Namespace) -> None:
    langs = ntrex21() if args.langs == ["ntrex21"] else args.langs
    folder = Path(args.work) / f"{args.size}-{len(langs)}"
    config = make_corpus(folder, args.size, langs)
    results = Path(args.results or Path(args.work) / "results.jsonl")
    store = folder / "xel.sqlite"
    base = {"size": args.size, "languages": len(langs) + 1, "run": args.tag}
    stages = ALL if args.stages == ["all"] else args.stages
    for name in stages:
        row = measured(child("stage", str(config), name, args.executor, str(args.workers)))
        row.update(stage=name, store_bytes=store_bytes(store))
        record(results, {**base, **row})
        if name == "project" and "eflomal" in args.plain:
            plain = measured(child("plain_eflomal", str(config), *langs))
            record(results, {**base, "stage": "plain-eflomal", **plain})
        if name == "ner" and "ner" in args.plain:
            plain = measured(child("plain_ner", str(config)))
            record(results, {**base, "stage": "plain-ner", **plain})
    record(results, {**base, "stage": "store", "store_bytes": store_bytes(store),
                     "tables": table_bytes(store)})


def run_dask(args: argparse.Namespace) -> None:
    """Alignment and projection (then the rest, for the exports) on a Dask LocalCluster of
    each number of workers, from a copy of a store that has the corpus and NER."""
    langs = args.langs
    folder = Path(args.work) / f"{args.size}-{len(langs)}"
    config = make_corpus(folder, args.size, langs)
    results = Path(args.results or Path(args.work) / "results.jsonl")
    for workers in args.workers:
        for executor in args.executors:
            name = f"{executor}-{workers}"
            copy = folder / name
            copy.mkdir(exist_ok=True)
            store = copy / "xel.sqlite"
            for p in copy.glob("xel.sqlite*"):
                p.unlink()
            with sqlite3.connect(folder / "xel.sqlite") as src, sqlite3.connect(store) as dst:
                src.backup(dst)  # a consistent copy, even while another run writes
            raw = yaml.safe_load(config.read_text(encoding="utf-8"))
            raw.update(store=str(store), output=str(copy / "out"))
            (copy / "config.yaml").write_text(yaml.safe_dump(raw), encoding="utf-8")
            with sqlite3.connect(store) as conn:
                conn.execute("DELETE FROM stages WHERE name LIKE 'align:%' OR name LIKE "
                             "'project:%'")
            for stage in ["align", "project"] + (["triage", "names", "expert", "partition",
                                                   "export"] if args.export else []):
                row = measured(child("stage", str(copy / "config.yaml"), stage, executor,
                                     str(workers)))
                record(results, {"size": args.size, "languages": len(langs) + 1,
                                 "run": f"{args.tag}{name}", "stage": stage, **row})
            if args.export:
                differ = differences(folder / "out/collection", copy / "out/collection")
                record(results, {"size": args.size, "run": f"{args.tag}{name}",
                                 "stage": "exports vs local", "identical": not differ,
                                 "differ": differ[:20]})


def run_contention(args: argparse.Namespace) -> None:
    """Plain spaCy NER over the same first `--sentences` English sentences in one process
    alone, then in two processes at once: the CPU each needs per sentence says whether this
    machine's two cores run two workers at full speed (what a 2-worker speed-up can be)."""
    folder = Path(args.work) / f"{args.size}-{len(args.langs)}"
    config = make_corpus(folder, args.size, args.langs)
    results = Path(args.results or Path(args.work) / "results.jsonl")
    base = {"size": args.sentences, "languages": 1, "run": args.tag}
    command = child("plain_ner", str(config), str(args.sentences))
    record(results, {**base, "stage": "contention-alone", **measured(command)})
    with ThreadPoolExecutor(2) as pool:
        pair = list(pool.map(lambda _: measured(command), range(2)))
    for k, row in enumerate(pair, start=1):
        record(results, {**base, "stage": f"contention-pair-{k}", **row})


def differences(a: Path, b: Path) -> list[str]:
    """Files that differ between two exported collections (or exist in only one)."""
    names = {p.relative_to(a) for p in a.rglob("*") if p.is_file()} | {
        p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    return sorted(str(n) for n in names if not (a / n).is_file() or not (b / n).is_file()
                  or (a / n).read_bytes() != (b / n).read_bytes())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "dask", "contention"):
        p = sub.add_parser(name)
        p.add_argument("--size", type=int, required=True)
        p.add_argument("--langs", nargs="+", default=["deu", "fra"])
        p.add_argument("--work", default=str(ROOT / "work/scale"))
        p.add_argument("--results")
        p.add_argument("--tag", default="")
    run_p = sub.choices["run"]
    run_p.add_argument("--stages", nargs="+", default=["all"])
    run_p.add_argument("--plain", nargs="*", default=[], choices=["ner", "eflomal"],
                       help="plain runs beside xel's (--plain ner eflomal)")
    run_p.add_argument("--executor", default="local")
    run_p.add_argument("--workers", type=int, default=2)
    dask_p = sub.choices["dask"]
    dask_p.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    dask_p.add_argument("--executors", nargs="+", default=["dask"])
    dask_p.add_argument("--export", action="store_true")
    sub.choices["contention"].add_argument("--sentences", type=int, default=20000)
    table_p = sub.add_parser("table")
    table_p.add_argument("results", nargs="+")
    table_p.add_argument("--plot", help="also draw time and memory against size (SVG)")
    table_p.add_argument("--run", default="", help="the plot's rows: those of this --tag")
    args = parser.parse_args()
    os.environ["XEL_QUIET"] = "1"
    if args.command == "run":
        run_size(args)
    elif args.command == "dask":
        run_dask(args)
    elif args.command == "contention":
        run_contention(args)
    else:
        rows = [json.loads(line) for path in args.results
                for line in Path(path).read_text(encoding="utf-8").splitlines()]
        table(rows)
        if args.plot:
            plot([r for r in rows if r.get("run", "") == args.run], Path(args.plot))


def plot(rows: list[dict[str, Any]], out: Path) -> None:
    """CPU and wall time per 1,000 sentences, and peak memory, against corpus size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_time, ax_mem) = plt.subplots(1, 2, figsize=(10, 3.8))
    for stage in ("import", "ner", "align", "project", "plain-ner", "plain-eflomal"):
        found = sorted(((r["size"], r) for r in rows if r.get("stage") == stage
                        and "cpu_s" in r), key=lambda x: x[0])
        if not found:
            continue
        sizes = [size for size, _ in found]
        line = ax_time.plot(sizes, [r["cpu_s"] / size * 1000 for size, r in found], "o-",
                            label=f"{stage} CPU")[0]
        ax_time.plot(sizes, [r["wall_s"] / size * 1000 for size, r in found], "o:",
                     color=line.get_color(), alpha=0.5)
        ax_mem.plot(sizes, [r["peak_rss_mib"] for _, r in found], "o-", label=stage)
    for ax, label in ((ax_time, "seconds per 1,000 sentences (solid CPU, dotted wall)"),
                      (ax_mem, "peak RSS of the process tree, MiB")):
        ax.set_xscale("log")
        ax.set_xlabel("English sentences (2 target languages)")
        ax.set_ylabel(label, fontsize=8)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, metadata={"Date": None})


def table(rows: list[dict[str, Any]]) -> None:
    print("| size | languages | run | stage | wall s | CPU s | wall µs/sentence | CPU µs/sentence "
          "| peak RSS MiB | store MiB | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "wall_s" not in r:
            continue
        per, cpu = r["wall_s"] / r["size"] * 1e6, r["cpu_s"] / r["size"] * 1e6
        store = f"{r['store_bytes'] / 2**20:.1f}" if "store_bytes" in r else ""
        print(f"| {r['size']:,} | {r['languages']} | {r['run']} | {r['stage']} | {r['wall_s']:.1f}"
              f" | {r['cpu_s']:.1f} | {per:.0f} | {cpu:.0f} | {r['peak_rss_mib']:.0f} | {store} | "
              f"{r['load']:.1f} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1].startswith("_"):
        {"_stage": stage_main, "_plain_ner": plain_ner_main,
         "_plain_eflomal": plain_eflomal_main}[sys.argv[1]](*sys.argv[2:])
    else:
        main()
