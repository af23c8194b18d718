"""`xel types train`: rebuild the shipped mention typer (`xel.mention_typer`)."""

from __future__ import annotations

from pathlib import Path

import typer

from xel.cli import app, console
from xel.config import NerConfig
from xel.errors import XelError
from xel.mention_typer import MODEL, Training, train

types_app = typer.Typer(help="Entity types: the learned mention typer of the type check.")
app.add_typer(types_app, name="types")


@types_app.command("train")
def train_command(
    conll: Path = typer.Option(..., "--conll", help="CoNLL file of typed English entities "
                               "(the shipped typer: CoNLL-2003's English train set)"),
    out: Path = typer.Option(None, "--out", help="where the typer goes (default: the "
                             "package's xel/models/mention_typer.npz)"),
    epochs: float = typer.Option(Training.epochs, "--epochs", help="passes over the entities"),
    seed: int = typer.Option(Training.seed, "--seed", help="seed of the weights' start and "
                             "of the order sentences are read in"),
    ner_model: str = typer.Option(NerConfig().model, "--ner-model",
                                  help="spaCy model whose labels the typer reads"),
) -> None:
    """Learn the mention typer from a CoNLL file (about 6 minutes for CoNLL-2003's train set
    on 2 cores) and write it."""
    from xel.evaluate import read_conll
    from xel.ner import load_pipeline

    if not conll.is_file():
        raise XelError(f"{conll}: no such file: name a CoNLL file of typed entities with --conll")
    sentences = [(s.tokens, s.entities) for s in read_conll(conll)]
    typer_model, n = train(sentences, load_pipeline(ner_model), str(conll),
                           Training(epochs=epochs, seed=seed))
    typer_model.save(out or MODEL)
    console.print(f"mention typer learned from {n:,} entities of {conll}: "
                  f"written to {out or MODEL}")
