"""`xel eval projection|triage`: projection quality (Figure 3 of Lawrie et al.) and round-trip
acceptance precision, on the shared gold alignments or on any parallel gold a user names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from xel.cli import DEFAULT_CONFIG, app, console, out
from xel.config import COARSE_TYPES, Config, load_config
from xel.errors import XelError
from xel.evaluate import (
    CATEGORIES,
    GoldSet,
    alignment_gold_set,
    conll_gold_set,
    eval_signature,
    evaluate_sets,
    evaluate_span_gold,
    projections_digest,
    read_conll,
    shared_gold_sets,
    tree_digest,
    type_gold,
    type_rows,
)
from xel.languages import canonical
from xel.queries import read_review
from xel.stages import Signature
from xel.store import Store

eval_app = typer.Typer(help="Measure projection and triage against gold.")
app.add_typer(eval_app, name="eval")

CONFIG = typer.Argument(DEFAULT_CONFIG, help="collection config (YAML)")
LANG = typer.Option(None, "--lang", help="target language of --conll-*/--links gold (e.g. deu)")
CONLL_EN = typer.Option(None, "--conll-en", help="English CoNLL file (token ... tag)")
CONLL_TGT = typer.Option(None, "--conll-tgt", help="target CoNLL file, same sentences")
SENTENCES = typer.Option(None, "--sentences", help="gold `src ||| tgt` sentence file")
LINKS = typer.Option(None, "--links", help="gold Pharaoh links (i-j sure, ipj possible)")
ENGLISH = typer.Option("src", "--english", help="which side of --sentences is English")
BASE = typer.Option(1, "--base", help="index base of --links (1 for the WPT files)")
ALIGN_GOLD = typer.Option(None, "--align-gold",
                          help="folder of the shared en-fr and ro-en gold (default: "
                               "../shared/data/align_gold when no other gold is named)")
MENTIONS = typer.Option("ner,caps", "--mentions",
                        help="for alignment gold: ner (English NER persons), caps (capitalized "
                             "name runs), or both")
EXTRA = typer.Option(True, "--corpus/--gold-only",
                     help="also train the aligner on the config corpus's sentence pairs of the "
                          "gold's language (where it has them) and those of align.learn_from, "
                          "as a collection would be")
REVIEW = typer.Option(None, "--review",
                      help="names a person checked (TSV with name and person columns, as "
                           "`xel queries --export-review` writes; e.g. corpora/align_gold/"
                           "review-en.tsv): adds `ner, reviewed`, NER's mentions without the "
                           "names marked not a person")
SPANS = typer.Option(None, "--spans",
                     help="annotated names in the collection's translations (e.g. corpora/"
                          "ntrex128/projection-gold.tsv), scored against the projections in "
                          "the config's store")
TYPES = typer.Option("PER", "--types",
                     help="entity types to score, comma-separated (PER, ORG, LOC, EVENT, OTHER): "
                          "CoNLL gold pairs English and target entities of each type; typed "
                          "--spans files (a `type` column, e.g. corpora/ntrex_types/gold-tune.tsv)"
                          " are scored per type; default people only")
JSON_OUT = typer.Option(None, "--json", help="also write the figures and their signature as "
                                              "JSON here")
SHOW_MISSES = typer.Option(False, "--show", help="also list the mentions xel's projection "
                           "did not get fully correct, with the gold name")
SHOW_WRONG = typer.Option(False, "--show", help="also list the accepted projections that are "
                          "not fully correct, with the gold name")
SHOW = typer.Option(False, "--show", help="also list the entities typed wrong")


def parse_types(types: str) -> tuple[str, ...]:
    """`--types PER,ORG,LOC` as coarse types, checked, in the order given."""
    kinds = tuple(dict.fromkeys(k.strip().upper() for k in types.split(",") if k.strip()))
    if not kinds:
        raise XelError("--types: name at least one type, e.g. PER or PER,ORG,LOC")
    if bad := [k for k in kinds if k not in COARSE_TYPES]:
        raise XelError(f"--types: unknown type {bad[0]!r}: the types are "
                       f"{', '.join(COARSE_TYPES)}")
    return kinds


def _sets(cfg: Config, lang: str | None, conll_en: Path | None, conll_tgt: Path | None,
          sentences: Path | None, links: Path | None, english: str, base: int,
          align_gold: Path | None, mentions: str,
          not_person: set[str] | None = None, types: tuple[str, ...] = ("PER",)
          ) -> list[GoldSet]:
    kinds = [k.strip() for k in mentions.split(",") if k.strip()]
    if bad := [k for k in kinds if k not in ("ner", "caps")]:
        raise XelError(f"--mentions: unknown kind {bad[0]!r}: say ner, caps or ner,caps")
    sets = []
    if conll_en or conll_tgt:
        if not (conll_en and conll_tgt and lang):
            raise XelError("CoNLL gold needs --conll-en, --conll-tgt and --lang together")
        sets.append(conll_gold_set(conll_tgt.name, canonical(lang), conll_en, conll_tgt, cfg,
                                   types))
    if sentences or links:
        if not (sentences and links and lang):
            raise XelError("alignment gold needs --sentences, --links and --lang together")
        if english not in ("src", "tgt"):
            raise XelError("--english is src or tgt")
        sets.append(alignment_gold_set(links.name, canonical(lang), sentences, links, english,
                                       base, kinds, cfg, not_person))
    if align_gold or not sets:
        folder = align_gold or cfg.resolve("../shared/data/align_gold")
        if not folder.is_dir():
            raise XelError(f"{folder}: no gold alignments there: name gold with --align-gold, "
                           "--sentences/--links or --conll-en/--conll-tgt")
        sets.extend(shared_gold_sets(folder, kinds, cfg, not_person))
    return sets


def _rows(cfg: Config, lang: str | None, conll_en: Path | None, conll_tgt: Path | None,
          sentences: Path | None, links: Path | None, english: str, base: int,
          align_gold: Path | None, mentions: str, extra: bool, spans: Path | None,
          review: Path | None, with_triage: bool, types: str = "PER"
          ) -> tuple[list[dict[str, Any]], Signature]:
    """Figures for the gold named: annotated spans alone, or gold sentences (shared by
    default), of the `types` (CoNLL and typed span gold; alignment gold is people); and
    the signature of what produced them."""
    kinds = parse_types(types)
    rows: list[dict[str, Any]] = []
    gold: dict[str, Path | None] = {"spans": spans, "review": review}
    options: dict[str, object] = {"types": ",".join(kinds)}
    collection = None
    if spans:
        with Store(cfg.resolve(cfg.store)) as store:
            rows += evaluate_span_gold(store, spans, cfg, with_triage, kinds,
                                       canonical(lang) if lang else None)
            collection = projections_digest(store)
    if not spans or any((conll_en, conll_tgt, sentences, links, align_gold)):
        if not any((conll_en, conll_tgt, sentences, links)):
            align_gold = align_gold or cfg.resolve("../shared/data/align_gold")
        sets = _sets(cfg, lang, conll_en, conll_tgt, sentences, links, english, base,
                     align_gold, mentions, read_review(review) if review else None, kinds)
        rows += evaluate_sets(sets, cfg, with_triage=with_triage, extra=extra)
        gold.update({"conll-en": conll_en, "conll-tgt": conll_tgt, "sentences": sentences,
                     "links": links, "align-gold": align_gold})
        options.update({"mentions": mentions, "corpus": "yes" if extra else "no",
                        "english": english, "base": base, "lang": lang or "-"})
    kind = "triage" if with_triage else "projection"
    return rows, eval_signature(kind, cfg, gold, options, collection)


def _write(rows: list[dict[str, object]], signature: Signature, path: Path | None) -> None:
    """Print the signature under the figures; with --json, write both."""
    out.print(f"signature: {signature.text}", soft_wrap=True)
    if path:
        path.write_text(json.dumps({"signature": signature.text, "rows": rows}, indent=2,
                                   ensure_ascii=False) + "\n", encoding="utf-8")
        console.print(f"written to {path}")


@eval_app.command("projection")
def projection_command(config: str = CONFIG, lang: str | None = LANG,
                       conll_en: Path | None = CONLL_EN, conll_tgt: Path | None = CONLL_TGT,
                       sentences: Path | None = SENTENCES, links: Path | None = LINKS,
                       english: str = ENGLISH, base: int = BASE,
                       align_gold: Path | None = ALIGN_GOLD, mentions: str = MENTIONS,
                       extra: bool = EXTRA, spans: Path | None = SPANS,
                       review: Path | None = REVIEW, types: str = TYPES,
                       show: bool = SHOW_MISSES, json_out: Path | None = JSON_OUT) -> None:
    """Projection quality as Figure 3 of Lawrie et al., paper vs name-aware, with AER (the
    JSON rows list each row's misses)."""
    cfg = load_config(config)
    rows, signature = _rows(cfg, lang, conll_en, conll_tgt, sentences, links, english, base,
                            align_gold, mentions, extra, spans, review, with_triage=False,
                            types=types)
    table = Table(title="projection quality")
    for c in ["gold", "mentions from", "type", "projection", "mentions", *CATEGORIES, "failures",
              "fully correct %", "AER", "left out"]:
        table.add_column(c)
    for r in rows:
        table.add_row(*(str(r[c]) for c in table_columns(table)))
    console.print(table)
    _print_training(rows)
    if show:
        _print_misses(rows)
    _write(rows, signature, json_out)


def _print_misses(rows: list[dict[str, Any]], what: str = "not fully correct") -> None:
    """xel's misses, row by row: the English, what was projected, the gold."""
    for r in rows:
        if r["projection"] == "xel" and r["misses"]:
            out.print(f"{r['gold']} {r['type']}: {what}")
            for m in r["misses"]:
                out.print(f"  [{m['category']}] {m['english']!r} -> {m['projected']!r} "
                          f"(gold {m['gold']!r})", soft_wrap=True)


def _print_training(rows: list[dict[str, object]]) -> None:
    for gold, trained in dict.fromkeys((r["gold"], r["aligner trained on"]) for r in rows):
        console.print(f"{gold}: aligner trained on {trained}")


@eval_app.command("triage")
def triage_command(config: str = CONFIG, lang: str | None = LANG,
                   conll_en: Path | None = CONLL_EN, conll_tgt: Path | None = CONLL_TGT,
                   sentences: Path | None = SENTENCES, links: Path | None = LINKS,
                   english: str = ENGLISH, base: int = BASE,
                   align_gold: Path | None = ALIGN_GOLD, mentions: str = MENTIONS,
                   extra: bool = EXTRA, spans: Path | None = SPANS,
                   review: Path | None = REVIEW, types: str = TYPES,
                   show: bool = SHOW_WRONG, json_out: Path | None = JSON_OUT) -> None:
    """Round-trip acceptance rate and its precision (accepted and fully correct; the JSON rows
    list the accepted projections that are not)."""
    cfg = load_config(config)
    found, signature = _rows(cfg, lang, conll_en, conll_tgt, sentences, links, english, base,
                             align_gold, mentions, extra, spans, review, with_triage=True,
                             types=types)
    rows = [r for r in found if r["projection"] == "xel"]
    table = Table(title=f"round-trip triage ({cfg.triage.translator})")
    for c in ["gold", "mentions from", "type", "mentions", "accepted", "acceptance %",
              "accepted and fully correct", "precision %"]:
        table.add_column(c)
    for r in rows:
        t = r["triage"]
        table.add_row(r["gold"], r["mentions from"], r["type"], str(t["mentions"]),
                      str(t["accepted"]), str(t["acceptance %"]),
                      str(t["accepted and fully correct"]), str(t["precision %"]))
    console.print(table)
    staged = [r for r in rows if "triage stage" in r]
    if staged:
        stage = Table(title="the triage stage's decisions on the queries at annotated mentions")
        for c in ["gold", "queries", "accepted", "accepted and fully correct", "precision %"]:
            stage.add_column(c)
        for r in staged:
            t = r["triage stage"]
            stage.add_row(r["gold"], str(t["queries"]), str(t["accepted"]),
                          str(t["accepted and fully correct"]), str(t["precision %"]))
        console.print(stage)
    if show:
        _print_misses([{**r, "misses": r["triage"]["wrong accepts"]} for r in rows],
                      "accepted, not fully correct")
    _write(rows, signature, json_out)


@eval_app.command("types")
def types_command(config: str = CONFIG,
                  conll_en: Path = typer.Option(..., "--conll-en",
                                                help="English CoNLL file with typed entities "
                                                     "(`-DOCSTART-` lines begin documents)"),
                  show: bool = SHOW, json_out: Path | None = JSON_OUT) -> None:
    """How many queries on gold entities have the entity's type (the persons stage's type
    check over NER's mentions of the sentences, the config's KB and query filters), beside
    NER's label alone."""
    cfg = load_config(config)
    if cfg.people_only:
        raise XelError(f"{config}: a people-only collection has one type: name a config with "
                       "a `types:` section of several (e.g. configs/ntrex21-types.yaml)")
    found, missed, unjudged = type_gold(read_conll(conll_en), cfg)
    rows = type_rows(found, missed, list(cfg.types))
    table = Table(title="types of the queries on gold entities")
    for c in ["type", "queries", "typed right", "typed right %", "NER label right %",
              "no query"]:
        table.add_column(c)
    for r in rows:
        table.add_row(*(str(r[c]) for c in table_columns(table)))
    console.print(table)
    console.print("queries on no gold entity (not judged), by type: " +
                  ", ".join(f"{k} {n}" for k, n in sorted(unjudged.items())))
    if show:
        for t in found:
            if t.decided != t.gold:
                out.print(f"  {t.name!r}: {t.decided} (gold {t.gold}; NER {t.ner})")
    _write(rows, eval_signature("types", cfg, {"conll-en": conll_en}, {}), json_out)


def table_columns(table: Table) -> list[str]:
    return [str(c.header) for c in table.columns]


TRANSLIT_LANG = typer.Option(..., "--lang", help="language of the target side (e.g. rus, ara, "
                                                 "zho-CN, jpn, kor, heb, ell)")
DIRECTION = typer.Option("both", "--direction", help="to-english, from-english or both")
TOP = typer.Option(5, "--top", help="n of the top-n figure")


@eval_app.command("translit")
def translit_command(pairs: Path = typer.Argument(..., help="pairs file in the wd_ format: "
                                                  "english<TAB>t a r g e t<TAB>count"),
                     lang: str = TRANSLIT_LANG, direction: str = DIRECTION, top: int = TOP,
                     json_out: Path | None = JSON_OUT) -> None:
    """Top-1 and top-n exact-match word accuracy of the shipped transliteration models."""
    from xel.languages import language
    from xel.names import translit

    if direction not in ("both", *translit.DIRECTIONS):
        raise XelError(f"--direction {direction!r}: say to-english, from-english or both")
    script = language(lang).script
    key = translit.model_key(script)
    if key is None:
        raise XelError(f"--lang {lang}: {script} needs no transliteration model")
    rows = translit.read_pairs(pairs)
    directions = translit.DIRECTIONS if direction == "both" else (direction,)
    results: list[dict[str, Any]] = []
    for d in directions:
        model = translit.load(key, d)
        results.append({"pairs": pairs.name, "lang": lang, "model": key,
                        **translit.evaluate(model, rows, top), "signature": model.signature()})
    table = Table(title=f"transliteration, {pairs.name} ({lang}, model {key})")
    for c in ["direction", "words", "top-1", f"top-{top}"]:
        table.add_column(c)
    for r in results:
        table.add_row(r["direction"], str(r["words"]), f"{r['top1']:.3f}", f"{r[f'top{top}']:.3f}")
    console.print(table)
    parts = {"gold:pairs": tree_digest(pairs), "lang": lang, "top": str(top),
             **{f"{r['direction']}:{k}": v for r in results for k, v in r["signature"].items()}}
    _write(results, Signature("eval-translit", parts), json_out)
