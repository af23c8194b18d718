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
    conll: list[str] = typer.Option(..., "--conll", help="CoNLL file of typed English "
                                    "entities; repeat for more, FILE:N counts a file N times "
                                    "(the shipped typer: CoNLL-2003's English train set, and "
                                    "UNER's EWT dev set counted 5 times)",
                                    metavar="FILE[:N]"),
    out: Path = typer.Option(None, "--out", help="where the typer goes (default: the "
                             "package's xel/models/mention_typer.npz)"),
    epochs: float = typer.Option(Training.epochs, "--epochs", help="passes over the entities"),
    seed: int = typer.Option(Training.seed, "--seed", help="seed of the weights' start and "
                             "of the order sentences are read in"),
    ner_model: str = typer.Option(NerConfig().model, "--ner-model",
                                  help="spaCy model whose labels the typer reads"),
) -> None:
    """Learn the mention typer from CoNLL files and write it (about 9 minutes on 2 cores for
    the shipped typer's two)."""
    from xel.evaluate import read_conll
    from xel.ner import load_pipeline

    files = [weighted(spec) for spec in conll]
    sentences = [(s.tokens, s.entities) for path, times in files
                 for s in read_conll(path) * times]
    names = " + ".join(f"{path}" + (f" x{times}" if times > 1 else "") for path, times in files)
    typer_model, n = train(sentences, load_pipeline(ner_model), names,
                           Training(epochs=epochs, seed=seed))
    typer_model.save(out or MODEL)
    console.print(f"mention typer learned from {n:,} entities of {names}: "
                  f"written to {out or MODEL}")


def weighted(spec: str) -> tuple[Path, int]:
    """A `--conll` value as its file and how many times it counts: `FILE` once, `FILE:N` N
    times (a file whose own name ends in `:N` is read once, as named)."""
    path, _, times = spec.rpartition(":")
    if Path(spec).is_file() or not path or not times.isdigit():
        path, times = spec, "1"
    if not Path(path).is_file():
        raise XelError(f"{path}: no such file: name a CoNLL file of typed entities with --conll")
    if int(times) < 1:
        raise XelError(f"--conll {spec}: a file counts at least once (FILE:N with N >= 1)")
    return Path(path), int(times)
