"""Export the finished collection: TAC-KBP style query XML + gold tab, JSONL, documents, a
Hugging Face datasets layout with its dataset card, and Croissant metadata.

Layout of `<output>/collection/`:
    README.md                      the dataset card: YAML metadata (configs, splits, languages,
                                   licence, sizes) over the datasheet (provenance, signature,
                                   attrition and crowd figures, counts, slices, definitions)
    <lang>/<partition>.xml         <query id><name><docid><beg><end> (TAC-KBP entity linking)
    <lang>/<partition>.tab         query id, KB id or NIL, entity type (PER, ORG, LOC, EVENT)
    <lang>/<partition>.jsonl       the full record of every query
    <lang>/docs/<doc_id>.txt       each document a query points into, in that language
    data/, croissant.json          the same queries and documents as Parquet for
                                   `datasets.load_dataset`, and their Croissant metadata
                                   (`xel.hub`)

Offsets are characters into the document text (its sentences joined by newlines), `end`
inclusive as TAC writes it. Nothing here depends on the clock or on dict order, so rebuilding
with the same config reproduces the files byte for byte. The new collection is written beside
the old one and swapped in at once (`swap_in`), so `collection/` is never missing or
half-written; folders left by a killed export are removed by the next one.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Protocol
from xml.etree import ElementTree as ET

import yaml

from xel import __version__, hub
from xel.config import Config
from xel.corpus import document_text, source_language
from xel.entity_types import a_noun, noun
from xel.kb import KnowledgeBase
from xel.link import read_kb_entries
from xel.partition import read_partitions
from xel.queries import Query, read_queries
from xel.stages import Work, code_digest, digest_of, versions
from xel.store import Store
from xel.triage import read_triage

NIL = "NIL"
NOT_A_PERSON = "NOT_PERSON"  # the crowd's label (hits.store.NOT_A_PERSON)
KEPT_OUTCOMES = ("A1", "A2", "A3", "E")
OUTCOME_MEANING = {
    "source": "the English query itself",
    "A1": "round trip gave back the English name (exactly, or agreeing part by part through"
          " the calibrated name models)",
    "A2": "three crowd workers agreed on the name",
    "A3": "two crowd workers agreed and one said the name was missing",
    "D1": "no aligned sentence or empty projection (discarded)",
    "D2": "two or more workers said the name was missing (discarded)",
    "E": "decided by a local-language expert",
}


@dataclass(frozen=True)
class Record:
    id: str
    lang: str
    partition: str
    query_id: str  # the English query it comes from
    name: str
    doc_id: str
    beg: int
    end: int  # inclusive
    kb_id: str  # NIL when the person is not in the KB
    kb_name: str | None
    english_name: str
    outcome: str
    back_translation: str | None
    link_support: float
    votes: dict[str, Any]
    simulated: bool
    prior_rank: int | None  # the gold entity's rank under the alias prior alone (None: absent)
    seen_in_train: bool  # its entity or English name is another train query's
    nil_type: str | None  # NIL queries: not-a-person, no-kb-name or kb-namesake
    type: str = "PER"  # the coarse type of the query's name (NIL queries typed too)


def export_id(lang: str, query_id: str) -> str:
    """One id per (language, English query), stable across rebuilds."""
    digest = hashlib.sha1(f"{lang}\t{query_id}".encode()).hexdigest()[:10].upper()
    return f"XEL-{lang}-{digest}"


def doc_offsets(store: Store, lang: str, seg: int, start: int, end: int) -> tuple[int, int]:
    """Sentence offsets to document offsets (inclusive end)."""
    base = store.scalar("SELECT start FROM sentences WHERE lang = ? AND seg = ?", (lang, seg))
    return base + start, base + end - 1


# --- slices: what makes a query easy or hard (Hansel's splits) ------------------------------

NIL_TYPES = {
    "not-a-person": "a crowd worker said the name is not a person's",
    "no-kb-name": "no KB entity has the English name as its name or an alias",
    "kb-namesake": "KB entities have the name, but none is this person",
}


def not_of_type(kind: str) -> str:
    """The NIL slice of a query a crowd worker said is not of its type: `not-a-person` (the
    people-only collections' only one), `not-an-organization`, `not-a-place`, ..."""
    return f"not-{a_noun(kind)}".replace(" ", "-")


def nil_types(kinds: Sequence[str]) -> dict[str, str]:
    """What each NIL slice of a collection of `kinds` means (`NIL_TYPES` for people)."""
    if list(kinds) == ["PER"]:
        return NIL_TYPES
    said = {not_of_type(k): f"a crowd worker said the name does not name {a_noun(k)}"
            for k in kinds}
    return {**said, "no-kb-name": NIL_TYPES["no-kb-name"],
            "kb-namesake": "KB entities have the name, but none is this entity"}


@dataclass(frozen=True)
class Slices:
    prior_rank: int | None
    seen_in_train: bool
    nil_type: str | None


def slice_labels(record: Mapping[str, Any]) -> tuple[str, ...]:
    """The slices of an exported record: `prior:top` (the alias prior's first entity is the
    gold one), `prior:lower`, `prior:none` (no alias names it); `train:seen` or `train:new`;
    for NIL queries `nil:<type>`. Records exported before slices existed have none."""
    found = []
    if record.get("kb_id") != NIL and "prior_rank" in record:
        rank = record["prior_rank"]
        found.append("prior:none" if rank is None else "prior:top" if rank == 1
                     else "prior:lower")
    if "seen_in_train" in record:
        found.append("train:seen" if record["seen_in_train"] else "train:new")
    if record.get("kb_id") == NIL and record.get("nil_type"):
        found.append(f"nil:{record['nil_type']}")
    return tuple(found)


def alias_prior(kb: KnowledgeBase, name: str) -> list[str]:
    """The KB ids an alias table gives a name: every entity it names (as name or alias), most
    popular first."""
    found = {f.entity.kb_id: f.entity.popularity or 0.0
             for kind in ("name", "alias") for f in kb.by_key(name, kind)}
    return sorted(found, key=lambda k: (-found[k], k))


def query_slices(queries: Sequence[Query], gold: Mapping[str, str], parts: Mapping[str, str],
                 votes: Mapping[str, dict[str, int]], kb: KnowledgeBase) -> dict[str, Slices]:
    """English query id -> its slices. `seen_in_train`: another train query has the same
    entity or the same name key (for a train query, one other than itself)."""
    train = [q for q in queries if parts.get(q.query_id) == "train"]
    entities = Counter(gold[q.query_id] for q in train if gold[q.query_id] != NIL)
    names = Counter(q.name_key for q in train)
    found = {}
    for q in queries:
        kb_id = gold[q.query_id]
        own = int(parts.get(q.query_id) == "train")
        seen = entities[kb_id] - own > 0 if kb_id != NIL else False
        seen = seen or names[q.name_key] - own > 0
        prior = alias_prior(kb, q.name)
        nil_type = None
        if kb_id == NIL:
            nil_type = (not_of_type(q.type) if votes.get(q.query_id, {}).get(NOT_A_PERSON)
                        else "kb-namesake" if prior else "no-kb-name")
        rank = prior.index(kb_id) + 1 if kb_id in prior else None
        found[q.query_id] = Slices(rank, seen, nil_type)
    return found


# --- what the crowd decided, as the export reads it ------------------------------------------


class Link(Protocol):
    """A query's link as the crowd decided it (or its known answer)."""

    @property
    def label(self) -> str: ...
    @property
    def kb_id(self) -> str | None: ...
    @property
    def support(self) -> float: ...
    @property
    def simulated(self) -> bool: ...


class NameOutcome(Protocol):
    """What became of a query in one language: A1/D1 (triage), A2/A3/D2 (crowd), E (expert)."""

    @property
    def lang(self) -> str: ...
    @property
    def query_id(self) -> str: ...
    @property
    def outcome(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def simulated(self) -> bool: ...


@dataclass(frozen=True)
class CrowdResults:
    """The crowd's results the collection is made from; `xel.pipeline` reads them from `hits`
    (`hits.results`), so this module never reads the crowd's tables."""

    links: Mapping[str, Link]  # query id -> link under the policy, else the known answer
    outcomes: Sequence[NameOutcome]  # ordered by language and query id
    votes: Mapping[str, dict[str, int]]  # task -> label -> non-gold judgments


def collection_records(store: Store, config: Config,
                       crowd: CrowdResults) -> tuple[list[Record], Counter[str]]:
    """Every query of the finished collection, English and each target language, and a count
    of why queries were left out."""
    parts = read_partitions(store)
    kb_names = {kb_id: e.name for kb_id, e in read_kb_entries(store).items()}
    triaged = {(t.lang, t.query_id): t for t in read_triage(store)}
    source = source_language(store)
    left_out: Counter[str] = Counter()
    records: list[Record] = []
    english: dict[str, tuple[Query, Link]] = {}
    for q in read_queries(store):
        link = crowd.links.get(q.query_id)
        if link is None:
            left_out["eng: no crowd agreement"] += 1
            continue
        if link.label not in (NIL,) and link.kb_id is None:
            said = (f"not {a_noun(q.type)}" if link.label == NOT_A_PERSON
                    and not config.people_only else link.label)
            left_out[f"eng: crowd said {said}"] += 1
            continue
        english[q.query_id] = (q, link)
        beg, end = doc_offsets(store, source, q.seg, q.start, q.end)
        records.append(_record(source, q, link, parts, kb_names, q.name, beg, end, "source",
                               None, crowd.votes.get(q.query_id, {})))
    gold = {qid: link.kb_id or NIL for qid, (_, link) in english.items()}
    with KnowledgeBase.open(config) as kb:
        slices = query_slices([q for q, _ in english.values()], gold, parts, crowd.votes, kb)
    records = [replace(r, **asdict(slices[r.query_id])) for r in records]
    texts: dict[tuple[str, str], str] = {}
    for n in crowd.outcomes:
        if n.query_id not in english:
            continue
        if n.outcome not in KEPT_OUTCOMES or not n.name:
            left_out[f"{n.lang}: {n.outcome}"] += 1
            continue
        q, link = english[n.query_id]
        t = triaged.get((n.lang, n.query_id))
        if t is not None and n.name == t.projection and t.seg is not None:
            beg, end = doc_offsets(store, n.lang, t.seg, t.start or 0, t.end or 0)
        else:
            key = (n.lang, q.doc_id)
            if key not in texts:
                texts[key] = document_text(store, n.lang, q.doc_id)
            at = texts[key].find(n.name)  # a curated name, located where it first occurs
            if at < 0:
                left_out[f"{n.lang}: curated name not in the document"] += 1
                continue
            beg, end = at, at + len(n.name) - 1
        records.append(_record(n.lang, q, link, parts, kb_names, n.name, beg, end,
                               n.outcome, t.back_translation if t else None,
                               crowd.votes.get(f"{n.lang}:{n.query_id}", {}),
                               simulated=bool(n.simulated), slices=slices[n.query_id]))
    records.sort(key=lambda rec: (rec.lang != source, rec.lang, rec.partition, rec.id))
    return records, left_out


def _record(lang: str, q: Query, link: Link, parts: dict[str, str], kb_names: dict[str, str],
            name: str, beg: int, end: int, outcome: str, back: str | None,
            votes: dict[str, int], simulated: bool = False,
            slices: Slices = Slices(None, False, None)) -> Record:
    kb_id = link.kb_id or NIL
    return Record(
        id=export_id(lang, q.query_id), lang=lang, partition=parts.get(q.query_id, "test"),
        query_id=q.query_id, name=name, doc_id=q.doc_id, beg=beg, end=end, kb_id=kb_id,
        kb_name=kb_names.get(kb_id), english_name=q.name, outcome=outcome,
        back_translation=back, link_support=round(float(link.support), 6),
        votes=votes, simulated=simulated or bool(link.simulated), **asdict(slices),
        type=q.type,
    )


# --- writing ---------------------------------------------------------------------------------


def query_xml(records: list[Record]) -> bytes:
    root = ET.Element("kbpentlink")
    for rec in records:
        q = ET.SubElement(root, "query", id=rec.id)
        for tag, value in (("name", rec.name), ("docid", rec.doc_id), ("beg", str(rec.beg)),
                           ("end", str(rec.end))):
            ET.SubElement(q, tag).text = value
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def gold_tab(records: list[Record]) -> str:
    return "".join(f"{r.id}\t{r.kb_id}\t{r.type}\n" for r in records)


def jsonl(records: list[Record]) -> str:
    return "".join(json.dumps(asdict(r), ensure_ascii=False, sort_keys=True) + "\n"
                   for r in records)


def safe_name(doc_id: str) -> str:
    """A document id as a file name (ids are corpus data: keep them out of other folders)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", doc_id).lstrip(".") or "_"


def types_section(records: Sequence[Record], types: Sequence[str], source: str) -> list[str]:
    """Queries per type: English, and across the other languages, non-NIL and NIL."""
    english: Counter[tuple[str, str]] = Counter()
    others: Counter[tuple[str, str]] = Counter()
    for r in records:
        (english if r.lang == source else others)[(r.type, "NIL" if r.kb_id == NIL
                                                   else "non-NIL")] += 1
    lines = ["", "## Queries by type", "",
             "| type | English non-NIL | English NIL | other languages non-NIL | NIL |",
             "|---|---|---|---|---|"]
    for t in types:
        lines.append(f"| {t} ({noun(t)}) | {english[(t, 'non-NIL')]} | {english[(t, 'NIL')]} "
                     f"| {others[(t, 'non-NIL')]} | {others[(t, 'NIL')]} |")
    return lines


@dataclass(frozen=True)
class Datasheet:
    """What the card says beyond the records: how the collection was made (`signature`, the
    export's; `provenance`, the signatures of the stages it is made from) and the figures the
    report shows, as Markdown sections (`xel.report.card_sections`: attrition, crowd, and the
    Table 6 baselines once they have run)."""

    signature: str
    provenance: Sequence[str]
    sections: Sequence[str] = ()


def datasheet(config: Config, store: Store, records: list[Record], left_out: Counter[str],
              sheet: Datasheet) -> str:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        counts[r.lang][r.partition] += 1
        counts[r.lang]["non-NIL" if r.kb_id != NIL else "NIL"] += 1
    partitions = list(config.partition.shares)
    simulated = any(r.simulated for r in records)
    source = source_language(store)
    what = "person" if config.people_only else "entity"
    lines = [f"# {config.name}: a cross-language {what}-linking test collection", ""]
    if simulated:
        lines += [SIMULATED_WARNING, ""]
    names = ("English person names" if config.people_only else "English names of "
             + ", ".join(f"{noun(t)}s ({t})" for t in config.types))
    lines += [
        "Built by xel from a parallel corpus in the manner of Lawrie, Mayfield, McNamee and "
        f"Oard (JASIST 2015): {names} found by NER and linked by the crowd, then "
        "projected into each language by word alignment and checked by round-trip translation, "
        "the crowd and experts.", "",
        "## Loading", "",
        "Each language is a config and each partition a split (`devtest` is `validation`); "
        "the documents are the `documents` config, one split per language (`-` written `_`):",
        "", "```python", "import datasets",
        f'queries = datasets.load_dataset("path/to/collection", "{source}")',
        f'documents = datasets.load_dataset("path/to/collection", "documents", '
        f'split="{hub.documents_split(source)}")', "```", "",
        "`croissant.json` describes the same files for `mlcroissant`.", "",
        "## Provenance", "",
        f"- corpus: `{config.corpus.path}` ({config.corpus.format}), "
        f"source `{config.corpus.source}`",
        f"- knowledge base: {', '.join(f'`{p}`' for p in config.kb.paths)} "
        f"({config.kb.format})",
        f"- licences: {', '.join(config.export.license) or 'not given (export.license)'}",
        f"- crowd policy: `{config.hits.policy}`, gold threshold {config.hits.threshold}",
        f"- partition: {json.dumps(config.partition.shares)} seed {config.partition.seed}, "
        f"grouped by {config.partition.group}",
        f"- signature: `{sheet.signature}`",
        "", "Stages that produced it:", "",
    ]
    lines += [f"- `{text}`" for text in sheet.provenance]
    lines += ["", "## Queries", "",
              "| language | " + " | ".join(partitions) + " | non-NIL | NIL |",
              "|---|" + "---|" * (len(partitions) + 2)]
    for lang in sorted(counts, key=lambda c: (c != source, c)):
        c = counts[lang]
        lines.append(f"| {lang} | " + " | ".join(str(c[p]) for p in partitions)
                     + f" | {c['non-NIL']} | {c['NIL']} |")
    if not config.people_only:
        lines += types_section(records, list(config.types), source)
    for section in sheet.sections:
        lines += ["", section.rstrip("\n")]
    lines += slices_section(records, source, list(config.types))
    lines += ["", "## Left out", "", "| reason | queries |", "|---|---|"]
    lines += [f"| {reason} | {n} |" for reason, n in sorted(left_out.items())]
    lines += ["", "## Files and definitions", "",
              "- `<lang>/<partition>.xml`: queries, TAC-KBP style (`<query id>` with `<name>`, "
              "`<docid>`, `<beg>`, `<end>`).",
              "- `<lang>/<partition>.tab`: query id, KB id or NIL, entity type ("
              f"{', '.join(config.types)}; a NIL query's too, Hansel's NIL_<type>).",
              "- `<lang>/<partition>.jsonl`: the full record of each query.",
              "- `<lang>/docs/<doc_id>.txt`: the documents, in that language.",
              "- `data/<lang>/<split>-<digest>.parquet`, `data/documents/<lang>-<digest>."
              "parquet`: the same "
              "records and documents for `datasets` (`votes` as a list of label and count).",
              "- `croissant.json`: Croissant 1.0 metadata of the Parquet files.",
              "- Offsets count characters of the document text (sentences joined by newlines); "
              "`end` is inclusive.", "", "Outcome codes:", ""]
    lines += [f"- `{code}`: {meaning}" for code, meaning in OUTCOME_MEANING.items()]
    lines += ["", "Score a system with `xel score <this folder> <run.tab>`.", ""]
    return "\n".join(lines)


SIMULATED_WARNING = ("**SIMULATED CROWD.** The links and curated names here come from simulated "
                     "workers (xel's `simulated` crowd backend), not from people: use this "
                     "collection to test pipelines, never to report linking results.")


def dataset_card(config: Config, store: Store, records: list[Record], left_out: Counter[str],
                 sheet: Datasheet, files: hub.HubFiles) -> str:
    """The collection's README.md: the Hub's YAML metadata over the datasheet."""
    header = hub.card_header(config.name, files, config.export.license,
                             source_language(store), config.people_only)
    return ("---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=1000)
            + "---\n\n" + datasheet(config, store, records, left_out, sheet))


def slices_section(records: Sequence[Record], source: str, kinds: Sequence[str]
                   ) -> list[str]:
    """The datasheet's count of queries per slice and language."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        counts[r.lang].update(slice_labels(asdict(r)))
    names = sorted({n for c in counts.values() for n in c})
    lines = ["", "## Slices", "",
             "Queries per slice (`xel score` gives Success@1 per slice): `prior:top` when the "
             "alias prior alone (KB entities named by the English name, most popular first) "
             "ranks the gold entity first, `prior:lower` when lower, `prior:none` when it "
             "misses it; `train:seen` when another train query has the same entity or English "
             "name, else `train:new`; NIL queries by type:", ""]
    lines += [f"- `nil:{t}`: {meaning}" for t, meaning in nil_types(kinds).items()]
    lines += ["", "| language | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for lang in sorted(counts, key=lambda c: (c != source, c)):
        lines.append(f"| {lang} | " + " | ".join(str(counts[lang][n]) for n in names) + " |")
    return lines


def export_signature(store: Store, config: Config) -> dict[str, str]:
    return {"config": digest_of({"policy": config.hits.policy, "export": config.export}),
            "code": EXPORT_CODE, **versions()}


EXPORT_CODE = code_digest(sys.modules[__name__], hub)
NEW_PREFIX, OLD_PREFIX = ".collection-new-", ".collection-old-"


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 with RENAME_EXCHANGE); False where the
    system or file system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def swap_in(new: Path, dest: Path) -> None:
    """Put the folder `new` at `dest`, removing the old `dest`: atomically where the system
    can exchange two paths, else by two renames a moment apart."""
    if not dest.exists():
        new.rename(dest)
        return
    if not _exchange(new, dest):
        old = Path(tempfile.mkdtemp(prefix=OLD_PREFIX, dir=dest.parent))
        old.rmdir()
        dest.rename(old)
        new.rename(dest)
        new = old
    shutil.rmtree(new)  # now the old collection


def remove_leftovers(parent: Path) -> list[Path]:
    """Remove what killed exports left in the output folder: our `.collection-new-*` and
    `.collection-old-*` folders, and earlier versions' `tmp*/collection` folders."""
    found = [p for p in parent.glob(".collection-*-*")
             if p.name.startswith((NEW_PREFIX, OLD_PREFIX))]
    found += [p for p in parent.glob("tmp*")
              if p.is_dir() and [c.name for c in p.iterdir()] == ["collection"]]
    for p in found:
        shutil.rmtree(p, ignore_errors=True)
    return found


def write_collection(out: Path, config: Config, store: Store, records: list[Record],
                     left_out: Counter[str], sheet: Datasheet) -> None:
    by_file: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for r in records:
        by_file[(r.lang, r.partition)].append(r)
    documents: dict[str, dict[str, str]] = defaultdict(dict)
    for (lang, part), recs in sorted(by_file.items()):
        folder = out / lang
        (folder / "docs").mkdir(parents=True, exist_ok=True)
        (folder / f"{part}.xml").write_bytes(query_xml(recs))
        (folder / f"{part}.tab").write_text(gold_tab(recs), encoding="utf-8")
        (folder / f"{part}.jsonl").write_text(jsonl(recs), encoding="utf-8")
        for doc_id in sorted({r.doc_id for r in recs} - set(documents[lang])):
            documents[lang][doc_id] = document_text(store, lang, doc_id)
            (folder / "docs" / f"{safe_name(doc_id)}.txt").write_text(
                documents[lang][doc_id] + "\n", encoding="utf-8")
    rows = [asdict(r) for r in records]
    files = hub.write_hub_files(out, rows, {row["id"]: slice_labels(row) for row in rows},
                                documents)
    what = "person-entity" if config.people_only else "entity"
    hub.write_croissant(out, hub.croissant(
        config.name, f"{config.name}: a cross-language {what}-linking test collection "
        "built by xel (queries linked to a knowledge base, with the documents they occur in).",
        config.export.license, files, config.export.url, __version__, config.people_only))
    write_card(out, dataset_card(config, store, records, left_out, sheet, files))


def write_card(out: Path, card: str) -> None:
    (out / "README.md").write_text(card, encoding="utf-8")


def collection_folder(config: Config) -> Path:
    return config.resolve(config.output) / "collection"


def export_collection(store: Store, config: Config, crowd: CrowdResults,
                      sheet: Datasheet) -> Work:
    """The export stage: write the collection folder beside the old one and swap it in; the
    writer only returns the counts. `sheet` is what the card says of how it was made."""
    dest = collection_folder(config)
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(dest.parent)
    records, left_out = collection_records(store, config, crowd)
    out = Path(tempfile.mkdtemp(prefix=NEW_PREFIX, dir=dest.parent))
    try:
        write_collection(out, config, store, records, left_out, sheet)
        out.chmod(0o755)  # mkdtemp makes it private; the collection is for sharing
        swap_in(out, dest)
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    summary = {"queries": len(records), "languages": len({r.lang for r in records}),
               "left_out": sum(left_out.values())}
    return lambda s: summary
