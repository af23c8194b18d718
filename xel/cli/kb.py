"""`xel kb build|search`: index a knowledge base, and see which candidates a name gets and why."""

from __future__ import annotations

import typer
from rich.table import Table

from xel.cli import DEFAULT_CONFIG, app, console, out
from xel.config import load_config
from xel.errors import XelError
from xel.kb import KnowledgeBase, build_kb, index_path
from xel.link import shortlist

kb_app = typer.Typer(help="Knowledge base: build the searchable index, search it by name.")
app.add_typer(kb_app, name="kb")


@kb_app.command("build")
def build_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)"),
    force: bool = typer.Option(False, help="rebuild even if nothing changed"),
) -> None:
    """Index the config's KB file (kb.path) into kb.index."""
    cfg = load_config(config)
    run = build_kb(cfg, force=force)
    state = "unchanged, skipped" if run.skipped else "built"
    console.print(f"kb index {state}: {index_path(cfg)}")
    for key, value in sorted(run.summary.items()):
        console.print(f"  {key}: {value:,}")


@kb_app.command("search")
def search_command(
    name: str = typer.Argument(..., help="a name, as a query would give it"),
    config: str = typer.Option(DEFAULT_CONFIG, help="collection config (YAML)"),
    limit: int = typer.Option(10, min=1, help="candidates to show"),
    kind: str | None = typer.Option(None, "--type",
                                    help="only entities of this type (PER, ORG, LOC, EVENT), as "
                                    "a query of that type is linked; default: every type"),
) -> None:
    """Candidates for NAME by name similarity and popularity (no document context), with why."""
    cfg = load_config(config)
    if kind is not None and kind.upper() not in cfg.types:
        raise XelError(f"--type {kind}: the config's types are {', '.join(cfg.types)}")
    kind = kind.upper() if kind else None
    with KnowledgeBase.open(cfg) as kb:
        candidates = shortlist(kb, name, max(limit, cfg.link.max_candidates), kind)[:limit]
    if not candidates:
        console.print(f"no candidates for {name!r}" + (f" of type {kind}" if kind else ""))
        return
    table = Table("kb id", "name", "type", "name score", "prior", "why",
                  title=f"candidates for {name!r}")
    for c in candidates:
        why = "; ".join(
            f"{reason['via']}: " + ", ".join(str(v) for k, v in reason.items() if k != "via")
            for reason in c.found.why
        )
        table.add_row(c.found.entity.kb_id, c.found.entity.name, c.found.entity.type,
                      f"{c.name_score:.3f}", f"{c.prior_score:.3f}", why)
    out.print(table)
