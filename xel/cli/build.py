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
from xel.score import as_dict, baseline_run, read_gold, read_run, score, score_signature, table
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
    run: Path = typer.Argument(..., help="a run: `query id<TAB>KB id or NIL` lines (file or "
                                         "folder of files)"),
    json_out: Path | None = typer.Option(None, "--json", help="also write the figures and "
                                                              "their signature as JSON here"),
) -> None:
    """Success@1 (NIL included), in-KB and NIL accuracy per language and partition, with the
    signature of what produced the figures (collection, run, rules, version)."""
    scores = score(read_gold(collection), read_run(run))
    signature = score_signature(collection, run)
    print(table(scores))
    print(f"signature: {signature.text}")
    if json_out:
        json_out.write_text(json.dumps(
            {"signature": signature.text, "scores": [as_dict(s) for s in scores]}, indent=2,
            ensure_ascii=False) + "\n", encoding="utf-8")
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
    train partition and the NIL threshold on devtest (weights written beside the run)."""
    if system not in ("names", "clel"):
        raise XelError(f"--system {system!r}: the baselines are `names` and `clel`")
    cfg = load_config(config)
    build_kb(cfg)
    with KnowledgeBase.open(cfg) as kb:
        if system == "names":
            n = baseline_run(collection, kb, out, cfg.models_folder())
        else:
            with Store(cfg.resolve(cfg.store)) as store:
                run = clel_run(store, kb, collection, cfg.baseline, cfg.models_folder(),
                               source_language(store))
            weights = write_run(run, out)
            n = len(run.answers)
            console.print(f"weights in {weights}")
    console.print(f"{n} answers in {out}; score with `xel score {collection} {out}`")
