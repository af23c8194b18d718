"""Scoring a linking system against an exported collection, and the name-matching baseline.

A run is a tab-separated file in the collection's gold format: query id, KB id or NIL (further
columns are ignored). Success@1 counts a query right when the system's first answer equals the
gold answer, NIL included; in-KB and NIL accuracy split that by the gold answer, as in Lawrie et
al.'s Table 6. A query the run does not answer counts as wrong (and is reported as missing).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import icu

from xel.errors import XelError
from xel.export import slice_labels
from xel.kb import KnowledgeBase
from xel.names.pairs import wikidata_codes
from xel.names.script import SEPARATORS
from xel.names.translit import MODELS
from xel.names.transliterate import language_models
from xel.stages import Signature, code_digest, digest_of, file_digest, versions
from xel.textfile import read_lines

NIL = "NIL"
EXPORT_SIGNATURE = re.compile(r"^- signature: `(export\|[^`]*)`", re.M)


@dataclass(frozen=True)
class Gold:
    query_id: str
    lang: str
    partition: str
    kb_id: str  # NIL for not in the KB
    type: str = "PER"  # the tab file's third column (PER where a file has none)


@dataclass(frozen=True)
class Score:
    lang: str
    partition: str
    queries: int
    correct: int
    in_kb: int
    in_kb_correct: int
    nil: int
    nil_correct: int
    missing: int

    @property
    def success_at_1(self) -> float:
        return self.correct / self.queries if self.queries else 0.0

    @property
    def in_kb_accuracy(self) -> float | None:
        return self.in_kb_correct / self.in_kb if self.in_kb else None

    @property
    def nil_accuracy(self) -> float | None:
        return self.nil_correct / self.nil if self.nil else None


def read_tab(path: Path) -> list[tuple[int, list[str]]]:
    """Non-empty lines of a tab-separated file with their numbers; errors name file and line."""
    rows = []
    for number, line in enumerate(read_lines(path), start=1):
        if line.strip():
            fields = line.split("\t")
            if len(fields) < 2 or not fields[0].strip() or not fields[1].strip():
                raise XelError(f"{path}, line {number}: expected `query id<TAB>KB id or NIL`")
            rows.append((number, [f.strip() for f in fields]))
    return rows


def read_gold(collection: Path) -> list[Gold]:
    """Every query of an exported collection: `<lang>/<partition>.tab` files."""
    files = sorted(collection.glob("*/*.tab"))
    if not files:
        raise XelError(f"{collection}: no <lang>/<partition>.tab gold files: is this an export "
                       "folder written by `xel build` or `xel export`?")
    return [Gold(f[0], path.parent.name, path.stem, f[1], f[2] if len(f) > 2 and f[2] else "PER")
            for path in files for _, f in read_tab(path)]


def read_run(path: Path) -> dict[str, str]:
    """A system's answers; a file or a folder of files. Duplicate query ids are an error."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    answers: dict[str, str] = {}
    for file in files:
        for number, fields in read_tab(file):
            if fields[0] in answers:
                raise XelError(f"{file}, line {number}: query {fields[0]} answered twice")
            answers[fields[0]] = fields[1]
    return answers


def tally(lang: str, partition: str, items: list[Gold], answers: dict[str, str]) -> Score:
    """One group's figures."""
    right = [answers.get(g.query_id) == g.kb_id for g in items]
    in_kb = [r for g, r in zip(items, right, strict=True) if g.kb_id != NIL]
    nil = [r for g, r in zip(items, right, strict=True) if g.kb_id == NIL]
    return Score(lang, partition, len(items), sum(right), len(in_kb), sum(in_kb), len(nil),
                 sum(nil), sum(g.query_id not in answers for g in items))


def score(gold: list[Gold], answers: dict[str, str]) -> list[Score]:
    """Per (language, partition) scores, plus an `all` partition per language."""
    groups: dict[tuple[str, str], list[Gold]] = defaultdict(list)
    for g in gold:
        groups[(g.lang, g.partition)].append(g)
        groups[(g.lang, "all")].append(g)
    unknown = set(answers) - {g.query_id for g in gold}
    if unknown and len(unknown) == len(answers):
        raise XelError("none of the run's query ids are in the collection: is it a run for "
                       f"another collection? (e.g. {sorted(unknown)[0]})")
    return [tally(lang, part, items, answers) for (lang, part), items in sorted(groups.items())]


# --- Table 6 and slices ---------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What a query's JSONL record says beyond its gold answer: the English query it comes
    from (its export id) and the slices it falls in."""

    english_id: str | None
    slices: tuple[str, ...]


def read_facts(collection: Path) -> dict[str, Facts]:
    """Export id -> facts, from the collection's JSONL records (empty where it has none)."""
    records = []
    for path in sorted(collection.glob("*/*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise XelError(f"{path}, line {number}: not JSON ({e})") from None
    english = {r.get("query_id"): r["id"] for r in records if r.get("outcome") == "source"}
    return {r["id"]: Facts(english.get(r.get("query_id")), slice_labels(r)) for r in records}


@dataclass(frozen=True)
class SystemRow:
    """One language's figures for one system in Table 6, with the English monolingual figure:
    the same system on the English originals of the same queries."""

    system: str
    score: Score
    english: Score | None


def table6(gold: list[Gold], runs: dict[str, dict[str, str]], facts: dict[str, Facts],
           partition: str, only: set[str] | None = None) -> dict[str, list[SystemRow]]:
    """Language -> one row per system, over the queries of `partition` (`all`: every one);
    of the languages in `only`, if given."""
    by_id = {g.query_id: g for g in gold}
    langs: dict[str, list[Gold]] = defaultdict(list)
    for g in gold:
        if partition in ("all", g.partition) and (only is None or g.lang in only):
            langs[g.lang].append(g)
    table = {}
    for lang, items in sorted(langs.items()):
        originals = [by_id[f.english_id] for g in items
                     if (f := facts.get(g.query_id)) and f.english_id in by_id]
        table[lang] = [SystemRow(system, tally(lang, partition, items, answers),
                                 tally("eng", partition, originals, answers) if originals
                                 else None)
                       for system, answers in runs.items()]
    return table


def type_table(gold: list[Gold], runs: dict[str, dict[str, str]], facts: dict[str, Facts],
               partition: str) -> dict[str, list[SystemRow]]:
    """Table 6 per entity type: every language's queries of a type but the English
    originals, pooled, beside the same system on those originals (empty for a collection of
    one type)."""
    if len({g.type for g in gold}) < 2:
        return {}
    by_type: dict[str, list[Gold]] = defaultdict(list)
    for g in gold:
        f = facts.get(g.query_id)
        if partition in ("all", g.partition) and not (f and f.english_id == g.query_id):
            by_type[g.type].append(g)
    return table6([replace(g, lang=g.type) for items in by_type.values() for g in items]
                  + [g for g in gold if (f := facts.get(g.query_id)) and
                     f.english_id == g.query_id],
                  runs, facts, partition, only=set(by_type))


def slice_table(gold: list[Gold], runs: dict[str, dict[str, str]], facts: dict[str, Facts],
                partition: str) -> dict[tuple[str, str], list[SystemRow]]:
    """(language, slice) -> one row per system (no English figure), over `partition`."""
    groups: dict[tuple[str, str], list[Gold]] = defaultdict(list)
    for g in gold:
        if partition in ("all", g.partition) and g.query_id in facts:
            for name in facts[g.query_id].slices:
                groups[(g.lang, name)].append(g)
    return {key: [SystemRow(system, tally(key[0], partition, items, answers), None)
                  for system, answers in runs.items()]
            for key, items in sorted(groups.items())}


def pct(x: float | None) -> str:
    return "    -" if x is None else f"{100 * x:5.1f}"


def table6_text(table: dict[str, list[SystemRow]], partition: str) -> str:
    """Lawrie et al.'s Table 6 per language: for each system S@1, in-KB and NIL accuracy, and
    its S@1 on the same queries in English (`eng`)."""
    systems = [row.system for row in next(iter(table.values()), [])]
    head = f"{'lang':<9}{'queries':>7}{'in-KB':>6}{'NIL':>5}"
    cols = f"{'':<27}"
    for name in systems:
        head += f" |{'S@1':>6}{'in-KB':>6}{'NIL':>6}{'eng':>6}"
        cols += f" | {name[:23]:<23}"
    lines = [f"Table 6 ({partition}): Success@1, in-KB and NIL accuracy (%); eng: the same "
             "system on the same queries in English", cols, head]
    for lang, rows in table.items():
        s = rows[0].score
        line = f"{lang:<9}{s.queries:>7}{s.in_kb:>6}{s.nil:>5}"
        for row in rows:
            eng = row.english.success_at_1 if row.english else None
            line += (f" |{pct(row.score.success_at_1):>6}{pct(row.score.in_kb_accuracy):>6}"
                     f"{pct(row.score.nil_accuracy):>6}{pct(eng):>6}")
        lines.append(line)
    return "\n".join(lines)


def slices_text(table: dict[tuple[str, str], list[SystemRow]], partition: str) -> str:
    """Success@1 of each system per language and slice."""
    systems = [row.system for row in next(iter(table.values()), [])]
    lines = [f"Slices ({partition}): Success@1 (%) per language and slice",
             f"{'lang':<9}{'slice':<20}{'queries':>7}" + "".join(f"{n[:10]:>11}" for n in systems)]
    for (lang, name), rows in table.items():
        lines.append(f"{lang:<9}{name:<20}{rows[0].score.queries:>7}"
                     + "".join(f"{pct(r.score.success_at_1):>11}" for r in rows))
    return "\n".join(lines)


def row_dict(row: SystemRow) -> dict[str, object]:
    return {"system": row.system, **as_dict(row.score),
            "english": as_dict(row.english) if row.english else None}


def as_dict(s: Score) -> dict[str, object]:
    """A score with its rates, for JSON."""
    return {**asdict(s), "success_at_1": s.success_at_1, "in_kb_accuracy": s.in_kb_accuracy,
            "nil_accuracy": s.nil_accuracy}


def score_signature(collection: Path, run: Path | Sequence[Path],
                    partition: str | None = None) -> Signature:
    """What produced a score, printed with it (sacrebleu's habit): the collection (its export
    signature, from the datasheet, and its gold files), the run's files, the scoring rules and
    the code, e.g. `score|code=..|collection=..|gold=..|metric=success@1|missing=wrong|...`."""
    runs = [p for r in ([run] if isinstance(run, Path) else run)
            for p in (sorted(p for p in r.rglob("*") if p.is_file()) if r.is_dir() else [r])]
    sheet = collection / "README.md"
    found = EXPORT_SIGNATURE.search(sheet.read_text(encoding="utf-8")) if sheet.is_file() else None
    parts = {
        "collection": (hashlib.sha256(found.group(1).encode()).hexdigest()[:16] if found
                       else "unsigned"),
        "gold": digest_of([(str(p.relative_to(collection)), file_digest(p))
                           for p in sorted(collection.glob("*/*.tab"))]),
        "run": digest_of([file_digest(p) for p in runs]),
        "metric": "success@1", "nil": "counted", "missing": "wrong",
        **({"partition": partition} if partition else {}),
        "code": code_digest(sys.modules[__name__]), **versions(),
    }
    return Signature("score", parts)


def table(scores: list[Score]) -> str:
    """Every language and partition of one run (Table 6 itself: `table6_text`)."""
    lines = [f"{'lang':<9}{'partition':<10}{'queries':>8}{'S@1':>7}{'in-KB':>7}{'NIL':>7}"
             f"{'missing':>9}"]
    for s in scores:
        lines.append(f"{s.lang:<9}{s.partition:<10}{s.queries:>8}{pct(s.success_at_1):>7}"
                     f"{pct(s.in_kb_accuracy):>7}{pct(s.nil_accuracy):>7}{s.missing:>9}")
    return "\n".join(lines)


# --- the baseline -------------------------------------------------------------------------

_LATIN = icu.Transliterator.createInstance("Any-Latin; Latin-ASCII")


def latin(name: str) -> str:
    """A target-language name in Latin script (`Дональд Трамп` -> `Donal'd Tramp`)."""
    return str(_LATIN.transliterate(name))


def baseline_answer(kb: KnowledgeBase, name: str, lang: str | None = None,
                    models: Path | None = MODELS, type: str | None = None) -> str:
    """The most popular entity (of the query's `type`, where the record gives one) whose
    label or alias in the language is the name (a KB with translations: `Deutschland`), else
    whose name, then alias, matches one of the name's English readings (the transliteration
    models', best first; endings undone), else its ICU romanization; else NIL."""
    for code in wikidata_codes(lang) if lang else ():
        translated = kb.by_foreign_key(name, code, type)  # most popular first
        if translated:
            return translated[0].kb_id
    readings = language_models(lang, models).readings(name, n=25, per_part=5) if (
        lang and models) else []
    for reading in [*readings, latin(name)]:
        for kind in ("name", "alias"):
            found = kb.by_key(reading, kind, type)  # most popular first
            if found:
                return found[0].entity.kb_id
    return NIL


def baseline_run(collection: Path, kb: KnowledgeBase, out: Path,
                 models: Path | None = MODELS) -> int:
    """Write the baseline's answers for every query of the collection (each language's folder
    names its language); returns how many. Each language's names are decoded in one batch."""
    files = sorted(collection.glob("*/*.jsonl"))
    if not files:
        raise XelError(f"{collection}: no <lang>/<partition>.jsonl files to read names from")
    records: dict[str, list[tuple[Path, int, dict[str, str]]]] = defaultdict(list)
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                records[path.parent.name].append((path, number, json.loads(line)))
            except json.JSONDecodeError as e:
                raise XelError(f"{path}, line {number}: not a query record ({e})") from None
    lines = []
    for lang, found in records.items():
        if models:
            language_models(lang, models).prepare(parts=[
                p for _, _, r in found for p in SEPARATORS.split(str(r.get("name", ""))) if p])
        for path, number, record in found:
            try:
                answer = baseline_answer(kb, record["name"], lang, models, record.get("type"))
                lines.append(f"{record['id']}\t{answer}\n")
            except (KeyError, TypeError) as e:
                raise XelError(f"{path}, line {number}: not a query record ({e})") from None
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(lines), encoding="utf-8")
    return len(lines)
