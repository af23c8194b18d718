"""The `hits` command: make, publish, collect and review crowd batches; serve; curate; simulate.

Every command reads the collection config (`-c`), opens its store, and turns an `XelError` (or
an error MTurk answered with) into a one-paragraph message and exit status 2. Output is plain
text: names, paths and messages are never read as rich markup.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from botocore.exceptions import ClientError
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table
from rich.text import Text

from hits import curate
from hits.backends import get_backend
from hits.make import make_el_batch, make_name_batch
from hits.reference import read_reference
from hits.report import compare_policies, cost_so_far
from hits.results import refusals, rejections, simulated, worker_gold
from hits.store import batch, batches, open_tables
from hits.workflow import (
    aggregate_el,
    aggregate_names,
    collect_batch,
    estimate,
    expire_batch,
    publish_batch,
    review_batch,
    run_round,
    send_batch,
)
from xel.config import Config, HitsConfig, load_config
from xel.errors import XelError
from xel.queries import read_queries
from xel.store import Store

app = typer.Typer(help="Crowd tasks (HITs) for entity linking and name curation.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
# Piped or redirected, tables keep their figures whole instead of being fit to 80 columns.
out = Console(markup=False, highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, markup=False, highlight=False)

ConfigOption = Annotated[Path, typer.Option("--config", "-c", help="collection config")]
DEFAULT = Path("configs/default.yaml")
SIMULATED = Text("SIMULATED crowd: no person answered these", style="bold magenta")


def _open(config_path: Path) -> tuple[Config, Store]:
    """The config and its store, which `xel queries` (or `xel build`) has filled: HITs ask
    about its queries, so an empty or missing store is an error, not "nothing to ask"."""
    config = load_config(config_path)
    path = config.resolve(config.store)
    if not path.exists():
        raise XelError(f"no collection store at {path}: run `xel queries {config_path}` (or "
                       f"`xel build {config_path}`) first")
    store = open_tables(Store(path))
    if not read_queries(store):
        store.close()
        raise XelError(f"{path} holds no queries: run `xel queries {config_path}` first")
    return config, store


@app.command()
def make(
    kind: Annotated[str, typer.Option(help="el or name")] = "el",
    lang: Annotated[str, typer.Option(help="target language (name batches)")] = "",
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Make a batch of HITs for the tasks that still need judgments."""
    config, store = _open(config_path)
    if kind == "name" and not lang:
        raise XelError("`hits make --kind name` needs --lang (a target language code)")
    made = make_el_batch(store, config) if kind == "el" else make_name_batch(store, config, lang)
    if made is None:
        out.print("nothing to ask: every task has its judgments or is waiting in a batch")
        return
    out.print(f"made {made}: {estimate(store, made)}")


@app.command()
def publish(
    batch_id: str,
    backend: Annotated[str, typer.Option(help="mturk, local or simulated")],
    live: Annotated[bool, typer.Option(help="MTurk live: real money")] = False,
    yes: Annotated[bool, typer.Option(help="do not ask before spending")] = False,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Publish a batch (again after a crash: HITs already published are not repeated)."""
    config, store = _open(config_path)
    crowd = get_backend(backend, store, config, live=live)
    if backend == "mturk":
        out.print(f"{crowd.environment}: {estimate(store, batch_id)}")
        if live and not yes and not typer.confirm("Publish on live MTurk and pay this?"):
            raise typer.Abort()
    n = publish_batch(store, config, batch_id, crowd)
    out.print(f"published {n} HIT(s) of {batch_id} with {backend} ({crowd.environment})")


@app.command()
def collect(
    batch_id: Annotated[str | None, typer.Argument(help="default: every published batch")] = None,
    expire: Annotated[bool, typer.Option(help="stop waiting: end unfinished HITs")] = False,
    live: Annotated[bool, typer.Option(help="MTurk live batches")] = False,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Fetch new submissions (each stored before the next page is fetched)."""
    config, store = _open(config_path)
    chosen = [batch(store, batch_id)] if batch_id else batches(store, "published")
    for b in chosen:
        if b.backend is None:
            raise XelError(f"batch {b.batch_id} is not published: run `hits publish` first")
        crowd = get_backend(str(b.backend), store, config, live=live)
        n = collect_batch(store, b.batch_id, crowd)
        if expire:
            expire_batch(store, b.batch_id, crowd)
        out.print(f"{b.batch_id}: {n} new submission(s); {batch(store, b.batch_id).state}")


@app.command()
def review(
    send: Annotated[bool, typer.Option(help="send approvals/rejections to the backend")] = False,
    live: Annotated[bool, typer.Option(help="MTurk live batches")] = False,
    truth: Annotated[Path | None, typer.Option(help="reference file to score policies")] = None,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Decide payments on gold accuracy, optionally send them, aggregate, and report."""
    config, store = _open(config_path)
    for b in batches(store, "collected"):
        out.print(f"{b.batch_id}: {review_batch(store, config, b.batch_id)}")
    if send:
        for b in batches(store, "reviewed"):
            crowd = get_backend(str(b.backend), store, config, live=live)
            out.print(f"{b.batch_id}: sent {send_batch(store, b.batch_id, crowd)}")
    _report(store, config, read_reference(truth) if truth else None)


def _report(store: Store, config: Config, truth: dict[str, str] | None) -> None:
    if simulated(store):
        out.print(SIMULATED)
    table = Table("batch", "worker", "gold", "accuracy", "dropped", title="Gold accuracy")
    for w in worker_gold(store):
        table.add_row(w.batch_id, w.worker, f"{w.gold_correct}/{w.gold_items}",
                      "-" if w.accuracy is None else f"{w.accuracy:.0%}",
                      "dropped" if w.dropped else "")
    out.print(table)
    if any(b.kind == "el" and b.state in ("sent", "aggregated") for b in batches(store)):
        policies = Table("policy", "queries kept", "NIL", "NEI / not a person", "accuracy",
                         title="Entity-linking agreement")
        for p in compare_policies(store, config, truth):
            policies.add_row(p.policy, str(p.kept), str(p.nil), str(p.not_links),
                             "-" if p.accuracy is None else f"{p.accuracy:.1%}")
        out.print(policies)
    for lang in sorted({b.lang for b in batches(store) if b.kind == "name"
                        and b.state in ("sent", "aggregated")}):
        out.print(f"names {lang}: {aggregate_names(store, config, lang)}")
    refused = Counter(r.reason for r in refusals(store))
    if refused:
        out.print("refused by hits serve (not stored): "
                  + ", ".join(f"{n} {reason}" for reason, n in refused.most_common()))
    rejected = sum(r.assignments for r in rejections(store))
    out.print(f"assignments rejected (not paid): {rejected}")
    out.print(f"cost so far (approved on MTurk): ${cost_so_far(store)}")


@app.command()
def simulate(
    kind: Annotated[str, typer.Option(help="el or name")] = "el",
    lang: Annotated[str, typer.Option(help="target language (name rounds)")] = "",
    config_path: ConfigOption = DEFAULT,
) -> None:
    """A whole round with simulated workers (for planning): marked simulated everywhere."""
    config, store = _open(config_path)
    result = run_round(store, config, kind, lang=lang, backend="simulated")
    out.print(SIMULATED)
    out.print(f"batches: {', '.join(result.batches) or 'none new'}; {result.aggregated}")
    truth = config.hits.simulated.truth
    _report(store, config, read_reference(config.resolve(truth)) if truth else None)


@app.command(name="round")
def round_command(
    kind: Annotated[str, typer.Option(help="el or name")] = "el",
    lang: Annotated[str, typer.Option(help="target language (name rounds)")] = "",
    backend: Annotated[str | None, typer.Option(
        help="mturk, local or simulated (default: hits.crowd)")] = None,
    live: Annotated[bool, typer.Option(help="MTurk live: real money")] = False,
    yes: Annotated[bool, typer.Option(help="do not ask before spending")] = False,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Take a round as far as it goes now: make, publish, collect, review and send batches, ask
    more workers where the policy is unsure, and aggregate once nobody is waited for. Rerun it
    after people have answered: nothing is published or asked twice. Exit 3 while waiting."""
    config, store = _open(config_path)
    if kind not in ("el", "name") or (kind == "name") != bool(lang):
        raise XelError("`hits round` takes --kind el, or --kind name with --lang (a target "
                       "language code)")

    def ask(cost: str) -> bool:
        out.print(f"publish {cost}")
        return yes or typer.confirm("Publish on live MTurk and pay this?")

    result = run_round(store, config, kind, lang=lang, backend=backend or config.hits.crowd,
                       live=live, confirm=ask)
    if result.simulated:
        out.print(SIMULATED)
    out.print(f"new batches: {', '.join(result.batches) or 'none'}")
    if result.pending:
        out.print(f"waiting for people: {', '.join(result.pending)} (run `hits round` again "
                  "once they have answered)")
        raise typer.Exit(3)
    out.print(f"aggregated: {result.aggregated}")


@app.command()
def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    worker: Annotated[list[str] | None, typer.Option(help="a worker's name (repeat)")] = None,
    expert: Annotated[list[str] | None, typer.Option(help="an expert's name (repeat)")] = None,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Serve local HITs, the admin page and the expert queue; prints everyone's link."""
    import uvicorn

    from hits.server import create_app, person_link

    config, store = _open(config_path)
    base = f"http://{host}:{port}"
    out.print(f"admin: {base}/admin/{person_link(store, 'admin', 'admin')}")
    for name in worker or []:
        out.print(f"worker {name}: {base}/w/{person_link(store, name, 'worker')}")
    for name in expert or []:
        out.print(f"expert {name}: {base}/expert/{person_link(store, name, 'expert')}")
    store.close()
    uvicorn.run(create_app(str(config.resolve(config.store)), config.hits.max_description),
                host=host, port=port, log_level="warning")


@app.command(name="curate")
def curate_command(
    export: Annotated[Path | None, typer.Option("--export", help="write pending cases")] = None,
    import_: Annotated[Path | None, typer.Option("--import", help="read decisions")] = None,
    expert: Annotated[str, typer.Option(help="who decided (with --import)")] = "",
    lang: Annotated[str | None, typer.Option(help="one language only")] = None,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """The expert queue: list it, export it as CSV, or import decisions made offline."""
    _, store = _open(config_path)
    if export:
        out.print(f"wrote {curate.export_csv(store, export, lang)} case(s) to {export}")
    elif import_:
        out.print(f"{import_}: {curate.import_csv(store, import_, expert)}")
    else:
        for c in curate.pending(store, lang):
            answers = "; ".join(label for _, label in c.answers)
            out.print(f"{c.lang}:{c.query_id}  {c.name}  ->  {answers}", highlight=False,
                      markup=False)


@app.command(name="aggregate")
def aggregate_command(
    policy: Annotated[str | None, typer.Option(help="default: hits.policy")] = None,
    config_path: ConfigOption = DEFAULT,
) -> None:
    """Write links (query -> KB id or NIL) under a policy from the kept judgments."""
    config, store = _open(config_path)
    out.print(aggregate_el(store, config, policy))


eval_app = typer.Typer(help="Measure crowd aggregation on answers with known truth.",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")


def _names(values: str) -> list[str]:
    return [v.strip() for v in values.split(",") if v.strip()]


@eval_app.command("aggregation")
def eval_aggregation(
    answers: Annotated[Path, typer.Argument(help="CSV of answers, one per row")],
    truth: Annotated[Path, typer.Option(help="CSV of true answers")],
    columns: Annotated[str, typer.Option(help="task,worker,answer columns")] = (
        "question,worker,answer"),
    truth_columns: Annotated[str, typer.Option(help="task,truth columns")] = "question,truth",
    gold_share: Annotated[float, typer.Option(help="share of tasks used as gold")] = 0.1,
    seed: int = 1,
    policy: Annotated[list[str] | None, typer.Option(help="policy (repeat)")] = None,
    budget: Annotated[list[str] | None, typer.Option(
        help="answers per task: a number, all or adaptive (repeat)")] = None,
    json_path: Annotated[Path | None, typer.Option("--json", help="write rows here")] = None,
    config_path: Annotated[Path | None, typer.Option(
        "--config", "-c", help="config whose hits section sets the policies")] = None,
    min_posterior: Annotated[float | None, typer.Option(
        help="decide where the posterior reaches this (default: hits.min_posterior)")] = None,
    cap_posterior: Annotated[float | None, typer.Option(
        help="keep a task that gets no more answers from this posterior up (default: "
             "hits.cap_posterior)")] = None,
    confusion: Annotated[str | None, typer.Option(
        help="both, one-coin or full (default: hits.confusion)")] = None,
    gold: Annotated[Path | None, typer.Option(
        help="CSV of the known answers shown as gold (--truth-columns), not a --gold-share")
    ] = None,
    decisions: Annotated[Path | None, typer.Option(
        help="write every decision here (CSV: policy, budget, task, label, ...)")] = None,
) -> None:
    """Replay answers under each policy and budget, beside crowd-kit's MajorityVote and
    DawidSkene: accuracy on kept tasks, coverage, accuracy counting drops as wrong, cost."""
    import json

    from hits.replay import as_json, evaluate, write_decisions

    hits_config = load_config(config_path).hits if config_path else HitsConfig()
    settings = {"min_posterior": min_posterior, "cap_posterior": cap_posterior,
                "confusion": confusion}
    try:
        hits_config = HitsConfig.model_validate({**hits_config.model_dump(), **{
            k: v for k, v in settings.items() if v is not None}})
    except ValidationError as e:
        error = e.errors()[0]
        option = str(error["loc"][0]).replace("_", "-")
        raise XelError(f"--{option} {error['input']!r}: {error['msg']}") from None
    rows, signature = evaluate(
        answers, truth, _names(columns), _names(truth_columns), gold_share, seed,
        policy or [hits_config.policy, "paper"], budget or ["3"], hits_config, gold)
    table = Table("policy", "budget", "accuracy", "coverage", "accuracy (all)",
                  "judgments/task", "single-judgment", title=f"Aggregation of {answers}")
    for r in rows:
        table.add_row(r.policy, r.budget, "-" if r.accuracy is None else f"{r.accuracy:.1%}",
                      f"{r.coverage:.1%}", f"{r.accuracy_all:.1%}",
                      f"{r.judgments_per_task:.2f}", str(r.single_judgment_decisions))
    out.print(table)
    checks = Table("policy", "budget", "gold items", "decided", "right", "promised",
                   title="Gold items hidden from the policy a fifth at a time")
    for r in rows:
        if (c := r.gold_check) is not None:
            checks.add_row(r.policy, r.budget, str(c.items), str(c.decided),
                           "-" if c.accuracy is None else f"{c.right} ({c.accuracy:.1%})",
                           "-" if c.expected is None else f"{c.expected:.1%}")
    out.print(checks)
    out.print(f"signature: {signature.text}")
    if json_path:
        json_path.write_text(json.dumps(as_json(rows, signature), indent=1) + "\n",
                             encoding="utf-8")
        out.print(f"wrote {json_path}")
    if decisions:
        out.print(f"wrote {write_decisions(rows, decisions)} decisions to {decisions}")


def print_error(console: Console, message: str) -> None:
    """`error: message`, the message as plain text (a path like `[red]x.yaml` stays as is)."""
    console.print(Text.assemble(("error: ", "bold red"), message), soft_wrap=True)


def main() -> None:
    try:
        app()
    except XelError as e:
        print_error(err, str(e))
        sys.exit(2)
    except ClientError as e:
        print_error(err, f"MTurk refused the request: {e}")
        sys.exit(2)
