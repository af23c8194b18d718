"""`xel build`, `xel export`, `xel report`, `xel score`, `xel baseline`."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.text import Text

from xel.build import build
from xel.clel import clel_run, write_run
from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.corpus import source_language
from xel.errors import XelError
from xel.export import collection_folder
from xel.kb import KnowledgeBase, build_kb
from xel.pipeline import make
from xel.report import report_path
from xel.score import (
    as_dict,
    baseline_run,
    read_facts,
    read_gold,
    read_run,
    row_dict,
    score,
    score_signature,
    slice_table,
    slices_text,
    table6,
    table6_text,
    type_table,
)
from xel.score import table as score_table
from xel.store import Store


@app.command("build")
def build_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    crowd: str = typer.Option(None, help="crowd backend: simulated, local or mturk "
                                         "(default: hits.crowd in the config)"),
    force: bool = typer.Option(False, help="rerun every automatic stage"),
    live: bool = typer.Option(False, help="MTurk live (real money): needs "
                                          "hits.mturk.environment: live as well"),
    yes: bool = typer.Option(False, help="do not ask before spending (scripts)"),
) -> None:
    """Everything from corpus to exported collection and report, resuming where it stopped."""
    cfg = load_config(config)
    chosen = crowd or cfg.hits.crowd
    if live and chosen != "mturk":
        raise XelError(f"--live is for the mturk crowd, and this build uses {chosen!r} "
                       "(hits.crowd in the config, or --crowd)")

    def ask(cost: str) -> bool:
        console.print(f"publish {cost}")
        return yes or typer.confirm("Publish on live MTurk and pay this?")

    with Store(cfg.resolve(cfg.store)) as store:
        result = build(store, cfg, crowd=chosen, force=force, live=live, confirm=ask,
                       say=console.print)
    if result.pending:
        console.print(Text("waiting for people:", style="bold yellow"))
        for line in result.pending:
            console.print(f"  - {line}")
        raise typer.Exit(3)


@app.command("export")
def export_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    force: bool = typer.Option(False, help="partition and export even if nothing changed"),
) -> None:
    """Partition and write the collection files from what the store holds now (the crowd's
    results as they are; automatic stages that are missing or stale run first)."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        runs = make(store, cfg, ["partition", "export"], force=force)
    console.print(f"collection in {collection_folder(cfg)}: {runs[-1].summary}"
                  + (" (unchanged)" if runs[-1].skipped else ""))


@app.command("report")
def report_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    force: bool = typer.Option(False, help="write it even if nothing changed"),
) -> None:
    """Write the HTML report (attrition, per-language yield, agreement, workers, cost)."""
    cfg = load_config(config)
    with Store(cfg.resolve(cfg.store)) as store:
        runs = make(store, cfg, ["report"], force=force)
    console.print(f"report in {report_path(cfg)}" + (" (unchanged)" if runs[-1].skipped else ""))


@app.command("score")
def score_command(
    collection: Path = typer.Argument(..., help="an exported collection folder"),
    runs: list[Path] = typer.Argument(..., help="runs: `query id<TAB>KB id or NIL` lines (a "
                                                "file or folder of files each); the file name "
                                                "names the system"),
    partition: str = typer.Option("test", help="the partition Table 6 and the slices cover "
                                               "(`all` for every query)"),
    json_out: Path | None = typer.Option(None, "--json", help="also write the figures and "
                                                              "their signature as JSON here"),
) -> None:
    """Lawrie et al.'s Table 6 for every run given (Success@1 with NIL, in-KB and NIL accuracy
    per language, beside the same system's figure on the same queries in English), Success@1
    per slice, and every partition's figures; with the signature of what produced them."""
    gold, facts = read_gold(collection), read_facts(collection)
    if partition != "all" and partition not in {g.partition for g in gold}:
        raise XelError(f"--partition {partition!r}: the collection's partitions are "
                       f"{', '.join(sorted({g.partition for g in gold}))} (or all)")
    answers: dict[str, dict[str, str]] = {}
    for path in runs:
        name = path.stem if path.stem not in answers else f"{path.stem}{len(answers) + 1}"
        answers[name] = read_run(path)
    scores = {name: score(gold, a) for name, a in answers.items()}
    table, slices = table6(gold, answers, facts, partition), slice_table(gold, answers, facts,
                                                                         partition)
    signature = score_signature(collection, runs, partition)
    kinds = type_table(gold, answers, facts, partition)
    print(table6_text(table, partition))
    if kinds:
        print("\nPer entity type (every language but English pooled):\n"
              + table6_text(kinds, partition))
    if slices:
        print("\n" + slices_text(slices, partition))
    for name, figures in scores.items():
        print(f"\n{name}: every partition\n{score_table(figures)}")
    print(f"signature: {signature.text}")
    if json_out:
        json_out.write_text(json.dumps({
            "signature": signature.text, "partition": partition,
            "table6": {lang: [row_dict(r) for r in rows] for lang, rows in table.items()},
            "table6_by_type": {kind: [row_dict(r) for r in rows] for kind, rows in kinds.items()},
            "slices": [{"lang": lang, "slice": name, "systems": [row_dict(r) for r in rows]}
                       for (lang, name), rows in slices.items()],
            "scores": [{"system": name, **as_dict(s)} for name, f in scores.items() for s in f],
        }, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        console.print(f"written to {json_out}")


@app.command("baseline")
def baseline_command(
    collection: Path = typer.Argument(..., help="an exported collection folder"),
    out: Path = typer.Argument(..., help="where to write the baseline run"),
    config: str = typer.Option(DEFAULT_CONFIG, help="config naming the KB (and, for clel, the "
                                                    "store with the collection's alignments)"),
    system: str = typer.Option("names", help="names: the name-matching baseline; clel: the "
                                             "cross-language linker learned on train"),
) -> None:
    """A baseline run. `names`: the target-language name's English readings (the
    transliteration models; endings undone) against KB names. `clel`: candidates by those
    readings, features for name, popularity and translated context, weights learned on the
    train partition, the NIL threshold on devtest and train's out-of-fold answers (weights
    written beside the run)."""
    if system not in ("names", "clel"):
        raise XelError(f"--system {system!r}: the baselines are `names` and `clel`")
    cfg = load_config(config)
    build_kb(cfg)
    with KnowledgeBase.open(cfg) as kb:
        if system == "names":
            n = baseline_run(collection, kb, out, cfg.models_folder())
        else:
            with Store(cfg.resolve(cfg.store)) as store:
                run = clel_run(cfg, collection, source_language(store))
            weights = write_run(run, out)
            n = len(run.answers)
            console.print(f"weights in {weights}")
    console.print(f"{n} answers in {out}; score with `xel score {collection} {out}`")
