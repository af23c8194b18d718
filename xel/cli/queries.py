"""`xel queries`: English NER, query filters and linking, in one resumable command."""

from __future__ import annotations

from pathlib import Path

import typer

from xel.cli import DEFAULT_CONFIG, app, console
from xel.config import load_config
from xel.pipeline import make
from xel.queries import export_review, write_queries_file
from xel.stages import StageRun
from xel.store import Store


def say(runs: list[StageRun], said: set[str]) -> None:
    """One line per stage run (each stage once)."""
    for run in runs:
        if run.name not in said:
            said.add(run.name)
            state = "unchanged, skipped" if run.skipped else "done"
            counts = ", ".join(f"{k} {v}" for k, v in sorted(run.summary.items()))
            console.print(f"{run.name:>8}: {state}  {counts}")


@app.command("queries")
def queries_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    export_review_to: Path | None = typer.Option(
        None, "--export-review", help="also write the deduplicated name list for manual review"
    ),
    review: str | None = typer.Option(
        None, "--review", "--apply-review",
        help="apply a reviewed name list (overrides queries.review in the config)"
    ),
    force: bool = typer.Option(False, help="rerun every stage even if nothing changed"),
) -> None:
    """Find English names of the config's types, filter them into queries and link them to
    the KB.

    Runs the link stage and what it needs (import, ner, kb, persons, queries); stages whose
    inputs and settings are unchanged are skipped. The queries and their candidates go to the
    store and to <output>/queries.tsv.
    """
    cfg = load_config(config)
    if review is not None:
        cfg.queries.review = str(Path(review).resolve())
    said: set[str] = set()
    with Store(cfg.resolve(cfg.store)) as store:
        say(make(store, cfg, ["import", "ner", "kb", "persons"] if force else ["persons"],
                 force=force), said)
        if export_review_to is not None:
            n = export_review(store, export_review_to, cfg.people_only)
            what = ("mark `person` no for names that are not people (yes for a person the "
                    "person check rejected)" if cfg.people_only else
                    f"write a type ({', '.join(cfg.types)}) in `type` for a name the type "
                    "check typed wrong, or none for a name that is none of them")
            console.print(f"wrote {n} names for review to {export_review_to}: {what}, then "
                          "rerun with --apply-review")
        say(make(store, cfg, ["queries", "link"] if force else ["link"], force=force),
            said)
        out = cfg.resolve(cfg.output) / "queries.tsv"
        n = write_queries_file(store, out)
    console.print(f"{n} queries with candidates in {out}")
