"""The collection as researchers load it: a Hugging Face datasets layout and Croissant metadata.

Inside `<output>/collection/`, beside the TAC-KBP files:
    data/<lang>/<split>-<digest>.parquet     the queries of one language and partition
    data/documents/<lang>-<digest>.parquet   the documents those queries point into
    croissant.json                  MLCommons Croissant metadata for the same files
and the card's YAML header (`card_header`) declares each language a config and each partition
a split, so `datasets.load_dataset(folder, "deu")` needs no loading script, and the documents
load as `datasets.load_dataset(folder, "documents", split="deu")`. Partitions become the
split names `datasets` expects (`devtest` is `validation`); split names cannot hold `-`, so a
language's documents split writes it as `_` (`zho_TW`).

Every record is written with one fixed Arrow schema (`QUERY_SCHEMA`), so every file of every
language has the same features; a record's `votes` (label -> count in the JSONL) is a list of
`{label, count}` here, the form Arrow can hold with labels that differ between queries.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

SPLIT_NAMES = {"devtest": "validation"}  # xel's partition -> the split name `datasets` expects

QUERY_FIELDS: list[tuple[str, pa.DataType, str]] = [
    ("id", pa.string(), "the query id in this language (XEL-<lang>-<hash>)"),
    ("lang", pa.string(), "the language of the name and document (ISO 639-3, with a region"
                          " or script suffix where the corpus has one)"),
    ("partition", pa.string(), "train, devtest or test, as xel partitioned the queries"),
    ("query_id", pa.string(), "the English query this one was projected from"),
    ("name", pa.string(), "the query's name string as the document writes it"),
    ("doc_id", pa.string(), "the document the name occurs in"),
    ("beg", pa.int32(), "offset of the name's first character in the document text"),
    ("end", pa.int32(), "offset of the name's last character (inclusive, as TAC-KBP)"),
    ("kb_id", pa.string(), "the knowledge-base id the name refers to, or NIL"),
    ("type", pa.string(), "the entity's coarse type: PER, ORG, LOC or EVENT (a NIL query's"
                          " too: NIL_ORG is kb_id NIL, type ORG)"),
    ("kb_name", pa.string(), "the knowledge-base entry's name (empty for NIL)"),
    ("english_name", pa.string(), "the English name the query was made from"),
    ("outcome", pa.string(), "how the name was accepted: source, A1, A2, A3 or E"),
    ("back_translation", pa.string(), "the round trip's translation of the name to English"),
    ("link_support", pa.float64(), "the crowd's support for the link"),
    ("votes", pa.list_(pa.struct([("label", pa.string()), ("count", pa.int32())])),
     "the crowd's non-gold judgments of the query, per label"),
    ("simulated", pa.bool_(), "whether the crowd decisions are simulated, not people's"),
    ("prior_rank", pa.int32(), "the gold entity's rank under the alias prior alone"),
    ("seen_in_train", pa.bool_(), "another train query has the same entity or English name"),
    ("nil_type", pa.string(), "for NIL queries: not-a-person (not-an-organization, not-a-place,"
                              " ... in collections of more types), no-kb-name or kb-namesake"),
    ("slices", pa.list_(pa.string()), "the query's slices (prior:*, train:*, nil:*)"),
]
QUERY_SCHEMA = pa.schema([(name, kind) for name, kind, _ in QUERY_FIELDS])
DOCUMENT_FIELDS: list[tuple[str, pa.DataType, str]] = [
    ("lang", pa.string(), "the document's language"),
    ("doc_id", pa.string(), "the id queries give in doc_id"),
    ("text", pa.string(), "the document text: its sentences joined by newlines (offsets"
                          " count its characters)"),
]
DOCUMENT_SCHEMA = pa.schema([(name, kind) for name, kind, _ in DOCUMENT_FIELDS])


# What the names of a people-only collection (True) or of one of more types (False) are.
KEYWORD = {True: "person names", False: "named entities"}


def split_name(partition: str) -> str:
    return SPLIT_NAMES.get(partition, partition)


def documents_split(lang: str) -> str:
    """A language code as a split name (`datasets` allows only word characters and dots)."""
    return lang.replace("-", "_")


def query_row(record: Mapping[str, Any], slices: Sequence[str]) -> dict[str, Any]:
    """An exported record (the JSONL form) as a row of `QUERY_SCHEMA`."""
    row = {name: record.get(name) for name, _, _ in QUERY_FIELDS}
    row["votes"] = [{"label": label, "count": int(n)}
                    for label, n in sorted(record.get("votes", {}).items())]
    row["slices"] = list(slices)
    return row


def parquet_bytes(rows: Sequence[Mapping[str, Any]], schema: pa.Schema) -> bytes:
    """Rows as one Parquet file, the same bytes every time (no pandas index, no time)."""
    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pylist(list(rows), schema=schema), sink, compression="zstd",
                   write_statistics=False)
    return bytes(sink.getvalue().to_pybytes())


def write_named(out: Path, stem: str, data: bytes) -> str:
    """Write `data` as `<stem>-<digest>.parquet` and return its path relative to `out`. The
    content's digest is in the name because `datasets` caches a folder's configs by their
    file names: a rebuilt collection with the old names would load the old rows."""
    path = f"{stem}-{hashlib.sha256(data).hexdigest()[:12]}.parquet"
    (out / path).parent.mkdir(parents=True, exist_ok=True)
    (out / path).write_bytes(data)
    return path


@dataclass(frozen=True)
class HubFiles:
    """The Parquet files of a collection, relative to its folder."""

    queries: dict[str, dict[str, str]]  # lang -> split -> path
    documents: dict[str, str]  # lang -> path
    rows: dict[str, dict[str, int]]  # lang -> split -> queries


def write_hub_files(out: Path, records: Sequence[Mapping[str, Any]],
                    slices: Mapping[str, Sequence[str]],
                    documents: Mapping[str, Mapping[str, str]]) -> HubFiles:
    """Write `data/`: each language's queries per partition, and the documents they point
    into (`documents`: lang -> doc id -> text)."""
    by_file: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_file[(r["lang"], split_name(r["partition"]))].append(query_row(r, slices[r["id"]]))
    queries: dict[str, dict[str, str]] = defaultdict(dict)
    rows: dict[str, dict[str, int]] = defaultdict(dict)
    for (lang, split), found in sorted(by_file.items()):
        queries[lang][split] = write_named(out, f"data/{lang}/{split}",
                                           parquet_bytes(found, QUERY_SCHEMA))
        rows[lang][split] = len(found)
    docs = {lang: write_named(out, f"data/documents/{lang}", parquet_bytes(
        [{"lang": lang, "doc_id": d, "text": t} for d, t in sorted(documents.get(lang, {})
                                                                   .items())], DOCUMENT_SCHEMA))
        for lang in sorted(queries)}
    return HubFiles(dict(queries), docs, dict(rows))


def read_hub_files(collection: Path) -> HubFiles:
    """The Parquet files an export wrote (for the card, rewritten after the baselines)."""
    queries: dict[str, dict[str, str]] = defaultdict(dict)
    rows: dict[str, dict[str, int]] = defaultdict(dict)
    docs = {}
    for path in sorted((collection / "data").glob("*/*.parquet")):
        lang_or_docs, stem = path.parent.name, path.stem.rsplit("-", 1)[0]
        rel = path.relative_to(collection).as_posix()
        if lang_or_docs == "documents":
            docs[stem] = rel
        else:
            queries[lang_or_docs][stem] = rel
            rows[lang_or_docs][stem] = pq.ParquetFile(path).metadata.num_rows
    return HubFiles(dict(queries), docs, dict(rows))


# --- the dataset card's YAML header --------------------------------------------------------

SIZE_CATEGORIES = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                   (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")]


def size_category(n: int) -> str:
    return next((name for limit, name in SIZE_CATEGORIES if n < limit), "n>10M")


def hf_language(lang: str) -> str:
    """A corpus code as the card's `language` list writes it: the ISO 639-3 part (`zho-TW`
    is `zho`); the full code stays the config name."""
    return lang.split("-")[0].lower()


def card_header(name: str, files: HubFiles, licenses: Sequence[str], source: str,
                people_only: bool = True) -> dict[str, Any]:
    """The card's YAML metadata: a config per language (the source language first, then the
    others in order) with a split per partition, and a `documents` config."""
    order = sorted(files.queries, key=lambda lang: (lang != source, lang))
    configs: list[dict[str, Any]] = [
        {"config_name": lang,
         "data_files": [{"split": split, "path": path}
                        for split, path in sorted(files.queries[lang].items(),
                                                  key=lambda kv: _split_order(kv[0]))]}
        for lang in order]
    configs[0]["default"] = True
    configs.append({"config_name": "documents",
                    "data_files": [{"split": documents_split(lang), "path": path}
                                   for lang, path in sorted(files.documents.items())]})
    total = sum(n for splits in files.rows.values() for n in splits.values())
    return {
        "pretty_name": name,
        "language": sorted({hf_language(lang) for lang in files.queries}),
        "multilinguality": "multilingual" if len(files.queries) > 1 else "monolingual",
        "license": list(licenses) or ["other"],
        "task_categories": ["token-classification", "text-retrieval"],
        "task_ids": ["entity-linking-retrieval"],
        "tags": ["entity-linking", "cross-language", KEYWORD[people_only].replace(" ", "-"),
                 "xel"],
        "size_categories": [size_category(total)],
        "configs": configs,
    }


def _split_order(split: str) -> tuple[int, str]:
    known = ["train", "validation", "test"]
    return (known.index(split) if split in known else len(known), split)


# --- Croissant -----------------------------------------------------------------------------

CROISSANT_CONTEXT: dict[str, Any] = {
    "@language": "en", "@vocab": "https://schema.org/", "citeAs": "cr:citeAs",
    "column": "cr:column", "conformsTo": "dct:conformsTo", "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/", "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"}, "dct": "http://purl.org/dc/terms/",
    "examples": {"@id": "cr:examples", "@type": "@json"}, "extract": "cr:extract",
    "field": "cr:field", "fileProperty": "cr:fileProperty", "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet", "format": "cr:format", "includes": "cr:includes",
    "equivalentProperty": "cr:equivalentProperty", "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath", "key": "cr:key",
    "md5": "cr:md5", "parentField": "cr:parentField", "path": "cr:path",
    "recordSet": "cr:recordSet", "references": "cr:references", "regex": "cr:regex",
    "repeated": "cr:repeated", "replace": "cr:replace", "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator", "source": "cr:source", "subField": "cr:subField",
    "transform": "cr:transform",
}
CROISSANT_TYPES = {pa.string(): "sc:Text", pa.int32(): "sc:Integer", pa.float64(): "sc:Float",
                   pa.bool_(): "sc:Boolean"}
PARQUET = "application/x-parquet"


def _fields(record_set: str, file_id: str, fields: Sequence[tuple[str, pa.DataType, str]],
            split: str | None = None) -> list[dict[str, Any]]:
    found = []
    for name, kind, description in fields:
        if pa.types.is_list(kind) and pa.types.is_struct(kind.value_type):
            continue  # votes: nested label counts, read from the Parquet files themselves
        repeated = pa.types.is_list(kind)
        field: dict[str, Any] = {
            "@type": "cr:Field", "@id": f"{record_set}/{name}", "name": name,
            "description": description,
            "dataType": CROISSANT_TYPES[kind.value_type if repeated else kind],
            "source": {"fileSet": {"@id": file_id}, "extract": {"column": name}},
        }
        if repeated:
            field["repeated"] = True
        found.append(field)
    return found


def croissant(name: str, description: str, licenses: Sequence[str], files: HubFiles,
              url: str, version: str, people_only: bool = True) -> dict[str, Any]:
    """Croissant 1.0 metadata for `data/`: a file set and a record set per split (`train`,
    `validation`, `test`: every language's queries of that split) and one for the documents;
    paths are relative to the folder `croissant.json` is in."""
    distribution: list[dict[str, Any]] = []
    record_sets: list[dict[str, Any]] = []
    splits = sorted({s for by_split in files.queries.values() for s in by_split},
                    key=_split_order)
    groups = [(split, [files.queries[lang][split] for lang in sorted(files.queries)
                       if split in files.queries[lang]], QUERY_FIELDS,
               f"the queries of the {split} split, every language") for split in splits]
    groups.append(("documents", [files.documents[lang] for lang in sorted(files.documents)],
                   DOCUMENT_FIELDS, "the documents the queries point into, every language"))
    for group, paths, fields, about in groups:
        file_set = f"{group}-files"
        distribution.append({"@type": "cr:FileSet", "@id": file_set, "name": file_set,
                             "description": about, "encodingFormat": PARQUET,
                             "includes": paths})
        record_sets.append({"@type": "cr:RecordSet", "@id": group, "name": group,
                            "description": about, "field": _fields(group, file_set, fields)})
    return {
        "@context": CROISSANT_CONTEXT, "@type": "sc:Dataset",
        "conformsTo": "http://mlcommons.org/croissant/1.0",
        "name": name, "description": description, "url": url, "version": version,
        "license": [license_url(lic) for lic in licenses] or ["other"],
        "citeAs": CITATION, "keywords": ["entity linking", "cross-language", KEYWORD[people_only]],
        "distribution": distribution, "recordSet": record_sets,
    }


CITATION = ("Lawrie, D., Mayfield, J., McNamee, P., & Oard, D. W. (2015). Cross-Language "
            "Person-Entity Linking from 20 Languages. JASIST 66(6), 1106-1123.")
LICENSE_URLS = {"cc-by-sa-4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
                "cc-by-4.0": "https://creativecommons.org/licenses/by/4.0/",
                "cc0-1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
                "mit": "https://opensource.org/licenses/MIT",
                "apache-2.0": "https://www.apache.org/licenses/LICENSE-2.0"}


def license_url(license_id: str) -> str:
    return LICENSE_URLS.get(license_id, license_id)


def write_croissant(out: Path, metadata: Mapping[str, Any]) -> None:
    (out / "croissant.json").write_text(json.dumps(metadata, ensure_ascii=False, indent=2)
                                        + "\n", encoding="utf-8")
