"""`xel names train`: rebuild the shipped transliteration models from the Wikidata pairs;
`xel names lexicon`: the shipped lexicon of Japanese names."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from xel.cli import DEFAULT_CONFIG, app, console
from xel.errors import XelError
from xel.names import translit

names_app = typer.Typer(help="Name knowledge: transliteration models and name lexicons.")
app.add_typer(names_app, name="names")

PAIRS = typer.Option(Path("../shared/data/translit"), "--pairs",
                     help="folder of the wd_<script>_80 pair files")
OUT = typer.Option(translit.MODELS, "--out", help="where the models go (default: the package's)")
ONLY = typer.Option(None, "--only", help=f"train only these keys ({', '.join(translit.KEYS)})")
SEED = typer.Option(13, "--seed", help="seed of the train/dev split")
DEV = typer.Option(0.2, "--dev-fraction", help="share of each pairs file held out for dev")


def _keys(pairs: Path, only: list[str] | None) -> list[str]:
    """The model keys to work on, once the pairs folder is known to be there."""
    if not pairs.is_dir():
        raise XelError(f"{pairs}: no pairs folder there: name the folder holding the "
                       "wd_<script>_80 files with --pairs")
    keys = only or list(translit.KEYS)
    if bad := [k for k in keys if k not in translit.KEYS]:
        raise XelError(f"--only: no model {bad[0]!r}: the keys are {', '.join(translit.KEYS)}")
    return keys


@names_app.command("train")
def train_command(pairs: Path = PAIRS, out: Path = OUT, only: list[str] | None = ONLY,
                  seed: int = SEED, dev_fraction: float = DEV) -> None:
    """Rebuild the transliteration models (both directions) and print their dev figures."""
    keys = _keys(pairs, only)
    table = Table(title=f"transliteration, dev split (seed {seed}, {dev_fraction:.0%} held out)")
    for column in ["model", "direction", "dev pairs of", "words", "top-1", "top-5"]:
        table.add_column(column)
    for key in keys:
        console.print(f"training {key} ...")
        for direction, dev in translit.train(pairs, key, out, seed=seed,
                                             dev_fraction=dev_fraction).items():
            for script, row in (dev.items() if key == "romanized" else [(key, dev)]):
                table.add_row(key, direction, script, str(row["words"]),
                              f"{row['top1']:.3f}", f"{row['top5']:.3f}")
    console.print(table)
    console.print(f"models written to {out}")


@names_app.command("compile")
def compile_command(models: Path = OUT) -> None:
    """Compile the transliteration models into the cache ($XEL_CACHE or ~/.cache/xel), as
    their first use would (`./setup` does it once)."""
    for fst in translit.compile_models(models):
        console.print(f"{fst.name}: {fst.stat().st_size / 2**20:.0f} MiB")


@names_app.command("calibrate")
def calibrate_command(pairs: Path = PAIRS, models: Path = OUT, only: list[str] | None = ONLY,
                      seed: int = SEED, dev_fraction: float = DEV) -> None:
    """Choose each model's acceptance threshold on its dev pairs (>= 95% precision)."""
    from xel.names.calibrate import PRECISION, calibrate, write_thresholds

    keys = _keys(pairs, only)
    found = {key: calibrate(pairs, key, models, seed=seed, dev_fraction=dev_fraction)
             for key in keys}
    table = Table(title=f"agreement thresholds for {PRECISION:.0%} precision on dev pairs")
    for column in ["model", "threshold", "precision", "recall", "true", "false"]:
        table.add_column(column)
    for key, row in found.items():
        table.add_row(key, f"{row['threshold']:.4g}", f"{row['precision']:.3f}",
                      f"{row['recall']:.3f}", str(row["true pairs"]), str(row["false pairs"]))
    console.print(table)
    console.print(f"thresholds written to {write_thresholds(found, models)}")


@names_app.command("pairs")
def pairs_command(
    config: str = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML) whose KB to read"),
    lang: str = typer.Option(..., "--lang", help="language of the labels (e.g. ell)"),
    out: Path = typer.Option(..., "--out", help="pairs file to write (wd_ format)"),
) -> None:
    """Name-token pairs from the KB's labels in one language, to train a model for a script
    xel ships none for (`xel names train --pairs FOLDER --only romanized` or your own key)."""
    from xel.config import load_config
    from xel.kb import KnowledgeBase
    from xel.languages import canonical
    from xel.names.pairs import token_pairs, wikidata_codes, write_pairs

    cfg = load_config(config)
    code = canonical(lang)
    with KnowledgeBase.open(cfg) as kb:
        names = kb.labels(wikidata_codes(code))
    if not names:
        raise XelError(f"the KB of {config} has no labels in {code} ("
                       f"{', '.join(wikidata_codes(code))}): build it from a Wikidata dump "
                       "(kb.format: wikidata) or JSONL with `labels`")
    count = write_pairs(token_pairs(names, code), out)
    console.print(f"{count} name-token pairs from {len(names)} labels written to {out}")


@names_app.command("lexicon")
def lexicon_command(
    source: Path = typer.Argument(..., help="kyoto_lexicon.csv of the Kyoto corpus, or a "
                                  "copy of the corpus (github.com/venali/BilingualCorpus)"),
    out: Path = typer.Option(None, "--out", help="lexicon to write (default: the package's)"),
) -> None:
    """Rebuild the shipped lexicon of Japanese names from the Kyoto lexicon's person names."""
    from xel.names.japanese import reads_as
    from xel.names.lexicon import JAPANESE, read_kyoto_csv, write_lexicon

    entries = read_kyoto_csv(source, reads_as)
    if not entries:
        raise XelError(f"{source}: no person names in it (`Given SURNAME`, `SURNAME no "
                       "Given`, `Emperor X`): is it the Kyoto lexicon?")
    target = out or JAPANESE
    count = write_lexicon(entries, target)
    console.print(f"{count} names written to {target}")
