"""The knowledge base: readers, a searchable SQLite index, and candidate generation.

A KB is reused by many collections, so its index is its own SQLite file (`kb.index` in the
config) carrying its own signature: source file digest, format, index schema and xel version.
Readers stream `KbEntity`s with bounded memory, so a full Wikidata dump can be indexed.

Candidate generation follows the linker of Lawrie et al. (after McNamee et al.): an entity is
proposed when one of its names or aliases equals the query under `name_key` (exact, alias),
when it shares a name fragment (given or family name), or when its names share many character
trigrams with the query (SQLite FTS5 with the trigram tokenizer), which catches misspellings.
Every proposal keeps the reasons it was found (`why`), for diagnostics.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import math
import sqlite3
import sys
import unicodedata
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import regex

from xel.config import Config
from xel.errors import XelError
from xel.names.english import american, name_key
from xel.progress import progress
from xel.registry import kb_readers
from xel.stages import (
    Signature,
    StageRun,
    Work,
    code_digest,
    file_digest,
    run_unless_current,
    versions,
)
from xel.store import Store
from xel.textfile import decode_line

# Bump when the index tables change, so an index built by older code is rebuilt.
SCHEMA = "4"
# The readers and the index builder: a changed reader rebuilds every index it wrote.
KB_CODE = code_digest(sys.modules[__name__])

DDL = """
CREATE TABLE IF NOT EXISTS entities (
    entity      INTEGER PRIMARY KEY,
    kb_id       TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    aliases     TEXT NOT NULL,          -- JSON list
    description TEXT NOT NULL,
    wikipedia   TEXT,
    popularity  REAL,
    type        TEXT NOT NULL DEFAULT 'PER'   -- coarse type: PER, ORG, LOC, EVENT, OTHER
);
CREATE INDEX IF NOT EXISTS entities_type ON entities(type);
-- Every name and alias of every entity under its `name_key`.
CREATE TABLE IF NOT EXISTS forms (
    form_id INTEGER PRIMARY KEY,
    entity  INTEGER NOT NULL,
    kind    TEXT NOT NULL,              -- 'name' or 'alias'
    form    TEXT NOT NULL,
    key     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS forms_key ON forms(key);
CREATE VIRTUAL TABLE IF NOT EXISTS forms_grams
    USING fts5(key, content='forms', content_rowid='form_id', tokenize='trigram');
-- How many names each trigram occurs in, read from the FTS index itself.
CREATE VIRTUAL TABLE IF NOT EXISTS forms_vocab USING fts5vocab(forms_grams, 'row');
CREATE TABLE IF NOT EXISTS fragments (
    token  TEXT NOT NULL,
    role   TEXT NOT NULL,               -- 'given', 'family' or 'middle'
    entity INTEGER NOT NULL,
    PRIMARY KEY (token, role, entity)
) WITHOUT ROWID;
-- Each entity's name in other languages (a Wikidata dump's labels; `labels` in JSONL), under
-- the source's language code (`el`, `zh-hans`, `sr-el`): pairs for transliteration models.
CREATE TABLE IF NOT EXISTS labels (
    entity INTEGER NOT NULL,
    lang   TEXT NOT NULL,
    label  TEXT NOT NULL,
    PRIMARY KEY (entity, lang)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS labels_lang ON labels(lang);
-- Every label and alias in another language, under `foreign_key`: translated names
-- (`Vereinigtes Königreich`) are found by these, as English names are by `forms`.
CREATE TABLE IF NOT EXISTS foreign_forms (
    entity INTEGER NOT NULL,
    lang   TEXT NOT NULL,
    form   TEXT NOT NULL,
    key    TEXT NOT NULL,
    PRIMARY KEY (lang, key, entity)
) WITHOUT ROWID;
-- Whole-KB figures: the log-popularity range and mean, the number of names.
CREATE TABLE IF NOT EXISTS stats (
    key   TEXT PRIMARY KEY,
    value REAL NOT NULL
);
"""

# Generational suffixes are not family names (`Martin Luther King Jr.` is a King).
SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v", "junior", "senior"})

# A trigram in more names than this (`an `, `mar`) is left out of n-gram search: it says
# little about who is meant (BM25 gives it almost no weight) and its posting list is what
# would make a search over millions of names slow.
COMMON_GRAM_SHARE = 0.01
COMMON_GRAM_FLOOR = 1000
LOOKUPS_KEPT = 20_000  # name lookups a KnowledgeBase keeps before it starts afresh
GRAMS_IN_MEMORY = 5_000_000  # trigram postings ranked in memory; a larger index asks SQLite
BM25_K1, BM25_B = 1.2, 0.75  # FTS5's bm25() constants


@dataclass(frozen=True)
class KbEntity:
    """One entity as a reader found it."""

    kb_id: str
    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""
    wikipedia: str | None = None
    popularity: float | None = None
    # (language code, name) in other languages: the label first, then that language's aliases
    labels: tuple[tuple[str, str], ...] = ()
    type: str = "PER"


# A record's `type` as sources write it -> the coarse type (Hansel's, GPE and FAC in LOC).
RECORD_TYPES = {"PER": "PER", "PERSON": "PER", "ORG": "ORG", "LOC": "LOC", "GPE": "LOC",
                "FAC": "LOC", "EVENT": "EVENT", "OTHER": "OTHER"}


# A label of one Han or kana character is a name cut short or abbreviated (`广` for Guangzhou
# in a source's translations, `杭` for Hangzhou): found inside every word that has it, and
# read back as the entity from any such character, it is no name to look for.
ONE_CHARACTER = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")


def foreign_key(form: str) -> str:
    """A name in any language, case, width, accents and punctuation folded (`Union
    européenne` = `union europeenne`); scripts that need their marks keep them."""
    decomposed = unicodedata.normalize("NFKD", form.casefold())
    kept = unicodedata.normalize("NFC", "".join(
        ch for ch in decomposed if not "\u0300" <= ch <= "\u036f"))  # Latin/Greek/Cyrillic marks
    return " ".join("".join(ch if ch.isalnum() or unicodedata.category(ch).startswith("M")
                            else " " for ch in kept).split())


@dataclass
class Found:
    """A candidate entity and every reason candidate generation proposed it."""

    entity: KbEntity
    why: list[dict[str, Any]] = field(default_factory=list)


# --- reading sources ---------------------------------------------------------------------


def open_source(path: Path) -> io.BufferedIOBase:
    """The file's bytes, decompressed when it starts with the gzip or bzip2 magic number."""
    try:
        with open(path, "rb") as f:
            magic = f.read(3)
    except FileNotFoundError:
        raise XelError(f"{path}: KB file not found (kb.path in the config)") from None
    if magic[:2] == b"\x1f\x8b":
        return gzip.GzipFile(path, "rb")
    if magic == b"BZh":
        return bz2.BZ2File(path, "rb")
    return open(path, "rb")


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Non-blank lines as text with 1-based numbers; invalid UTF-8 or no content is an error."""
    seen = False
    with open_source(path) as f:
        try:
            for number, raw in enumerate(f, start=1):
                text = decode_line(path, number, raw)
                if text.strip():
                    seen = True
                    yield number, text
        except (OSError, EOFError, zlib.error) as e:
            raise XelError(f"{path}: cannot decompress ({e}): is the file complete?") from None
    if not seen:
        raise XelError(f"{path}: file is empty: a KB file needs one entity per line")


def _parse(path: Path, number: int, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise XelError(
            f"{path}, line {number}, column {e.colno}: not valid JSON ({e.msg}): each line "
            "must hold one complete JSON object"
        ) from None


def _strings(path: Path, number: int, name: str, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise XelError(f"{path}, line {number}: `{name}` must be a list of strings")
    return tuple(v.strip() for v in value if v.strip())


@kb_readers.register("jsonl")
def read_jsonl(path: Path) -> Iterator[KbEntity]:
    """One JSON object per line: `id`, `name`, optional `aliases`, `description`, `wikipedia`,
    `popularity` (e.g. page views), `labels` (language code -> the name in that language, or a
    list: the label, then aliases) and `type` (PER when absent; ORG, LOC, EVENT, OTHER, or
    PERSON, GPE, FAC as NER writes them).
    """
    for number, text in numbered_lines(path):
        record = _parse(path, number, text)
        if not isinstance(record, dict):
            raise XelError(f"{path}, line {number}: expected a JSON object, one per line")
        kb_id, name = record.get("id"), record.get("name")
        if not isinstance(kb_id, str) or not kb_id.strip():
            raise XelError(f'{path}, line {number}: record has no "id": give every entity one')
        if not isinstance(name, str) or not name.strip():
            raise XelError(f'{path}, line {number}: record {kb_id} has no "name"')
        kind = RECORD_TYPES.get(str(record.get("type") or "PER").upper())
        if kind is None:
            raise XelError(f"{path}, line {number}: record {kb_id} has type "
                           f"{record.get('type')!r}: use one of {', '.join(RECORD_TYPES)}")
        popularity = record.get("popularity")
        if popularity is not None and not isinstance(popularity, int | float):
            raise XelError(f"{path}, line {number}: `popularity` must be a number or null")
        yield KbEntity(
            kb_id=kb_id.strip(),
            name=name.strip(),
            aliases=_strings(path, number, "aliases", record.get("aliases")),
            description=str(record.get("description") or ""),
            wikipedia=record.get("wikipedia") or None,
            popularity=None if popularity is None else float(popularity),
            labels=_labels(path, number, record.get("labels")),
            type=kind,
        )


def _labels(path: Path, number: int, value: Any) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    def names(v: Any) -> list[str] | None:
        if isinstance(v, str):
            return [v]
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return v
        return None

    if not isinstance(value, dict) or not all(
            isinstance(k, str) and names(v) is not None for k, v in value.items()):
        raise XelError(f"{path}, line {number}: `labels` must map language codes to names, "
                       'e.g. {"el": "Ντάγκλας Άνταμς"} or {"de": ["Vereinigtes Königreich", '
                       '"Großbritannien"]}')
    return tuple((k, n.strip()) for k in sorted(value) for n in names(value[k]) or ()
                 if n.strip())


# Hansel's coarse classes (Xu et al., WSDM 2023): an item has a type when one of its P31
# (instance of) classes is the type's root or reaches it through P279 (subclass of).
TYPE_ROOTS = {"LOC": 618123,     # geographical feature: Hansel's LOC merges GPE, LOC and FAC
              "ORG": 43229,      # organization
              "EVENT": 1656682,  # event
              "PER": 215627}     # person
# An item whose classes reach several roots takes the first of these. Places come first
# because the classes of GPEs and FACs (countries, municipalities, hospitals, airports) also
# reach organization, and Hansel's LOC takes both; person comes last because organizations
# reach it too, through legal person (Q3778211). Humans (P31 Q5) are PER before any of this.
TYPE_PRIORITY = ("LOC", "ORG", "EVENT", "PER")
HUMAN = 5
# Wikimedia-internal classes (Hansel's Table 7): disambiguation page, category, template,
# list article, Wikimedia internal item. Their instances, and their subclasses' instances,
# are pages about the wiki, not entities: they are dropped whatever else they are.
INTERNAL_ROOTS = (4167410, 4167836, 11266439, 13406463, 17442446)
INTERNAL = 1 << len(TYPE_PRIORITY)  # the root bit of every internal class

# English first, then `mul`, the label Wikidata now gives a name written the same in many
# languages (editors drop an English label that repeats it).
NAME_LANGUAGES = ("en", "mul")
T = TypeVar("T")


@dataclass(frozen=True)
class ClassRoots:
    """The classes that reach a coarse root through P279, and which roots each reaches (a bit
    per `TYPE_PRIORITY` entry, and `INTERNAL`): sorted numeric ids, with a mask each. Classes
    looked up are remembered: items use far fewer classes than there are, and a dict lookup is
    a tenth of numpy's per call."""

    ids: np.ndarray
    masks: np.ndarray
    _known: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    def mask(self, classes: Sequence[int]) -> int:
        """The roots any of `classes` reaches."""
        found = 0
        for cls in classes:
            bits = self._known.get(cls)
            if bits is None:
                at = int(np.searchsorted(self.ids, cls))
                bits = int(self.masks[at]) if at < len(self.ids) and self.ids[at] == cls else 0
                self._known[cls] = bits
            found |= bits
        return found

    def type_of(self, classes: Sequence[int]) -> str | None:
        """The coarse type of an item of these P31 classes: PER for a human, else the first
        root of `TYPE_PRIORITY` they reach, else OTHER; None for a Wikimedia-internal item."""
        if HUMAN in classes:
            return "PER"
        mask = self.mask(classes)
        if mask & INTERNAL:
            return None
        return next((kind for bit, kind in enumerate(TYPE_PRIORITY) if mask >> bit & 1),
                    "OTHER")


def class_roots(edges: Iterable[tuple[int, int]]) -> ClassRoots:
    """Which roots each class reaches, from (class, superclass) P279 edges (numeric ids).

    The edges are held as 32-bit ids, then as indexes into the sorted list of classes, so
    memory is that of the class graph, not the dump (about 80 bytes an edge at the peak;
    a full dump has some millions); each root's subclasses are found level by level, cycles
    and all.
    """
    roots = [(1 << bit, TYPE_ROOTS[kind]) for bit, kind in enumerate(TYPE_PRIORITY)]
    roots += [(INTERNAL, root) for root in INTERNAL_ROOTS]
    pairs = np.fromiter((i for edge in edges for i in edge), dtype=np.uint32)
    count = len(pairs) // 2
    nodes, dense = np.unique(np.concatenate([pairs, np.array([r for _, r in roots],
                                                             dtype=np.uint32)]),
                             return_inverse=True)
    del pairs
    dense = dense[:2 * count].astype(np.int32)
    order = np.argsort(dense[1::2], kind="stable")
    children = dense[0::2][order]  # subclasses, grouped by superclass
    starts = np.searchsorted(dense[1::2][order], np.arange(len(nodes) + 1))
    del dense, order
    masks = np.zeros(len(nodes), dtype=np.uint8)
    for bit, root in roots:
        reached = np.zeros(len(nodes), dtype=bool)
        frontier = np.searchsorted(nodes, [root])
        reached[frontier] = True
        while len(frontier):
            low, counts = starts[frontier], starts[frontier + 1] - starts[frontier]
            offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
            found = children[np.repeat(low, counts) + offsets]
            frontier = np.unique(found[~reached[found]])
            reached[frontier] = True
        masks[reached] |= bit
    kept = masks != 0
    return ClassRoots(nodes[kept], masks[kept])


def _qid(text: str) -> int | None:
    """`Q515` -> 515; None for another kind of id (`P31`, `L7`)."""
    digits = text[1:]
    return int(digits) if text[:1] == "Q" and digits.isascii() and digits.isdigit() else None


def _item_ids(claims: Any, prop: str) -> list[int]:
    """The numeric ids of the items `prop`'s claims name (`Q515` is 515), in the current form
    (`id`) or the older one (`numeric-id` only); claims without a value are passed over."""
    found: list[int] = []
    for claim in (claims.get(prop) or ()) if isinstance(claims, dict) else ():
        snak = claim.get("mainsnak") if isinstance(claim, dict) else None
        datavalue = snak.get("datavalue") if isinstance(snak, dict) else None
        value = datavalue.get("value") if isinstance(datavalue, dict) else None
        if not isinstance(value, dict):
            continue
        qid, number = value.get("id"), value.get("numeric-id")
        if isinstance(qid, str):
            if (item := _qid(qid)) is not None:
                found.append(item)
        elif isinstance(number, int) and value.get("entity-type", "item") == "item":
            found.append(number)
    return found


def _is_human(claims: Any) -> bool:
    """P31 (instance of) includes Q5 (human), in the current or the older `numeric-id` form."""
    return HUMAN in _item_ids(claims, "P31")


def _term(values: Any, language: str) -> str:
    value = values.get(language) if isinstance(values, dict) else None
    return str(value.get("value", "")).strip() if isinstance(value, dict) else ""


def _alias_terms(values: Any, language: str) -> list[str]:
    terms = values.get(language) if isinstance(values, dict) else None
    return [str(t.get("value", "")).strip() for t in terms or () if isinstance(t, dict)]


def _aliases(values: Any) -> tuple[str, ...]:
    found = [a for language in NAME_LANGUAGES for a in _alias_terms(values, language)]
    return tuple(dict.fromkeys(a for a in found if a))


def _all_labels(labels: Any, aliases: Any) -> tuple[tuple[str, str], ...]:
    """(language, name) of every language's label and aliases: languages in code order, each
    its label first, then its aliases in the dump's order, repeats dropped."""
    languages = sorted({*(labels if isinstance(labels, dict) else ()),
                        *(aliases if isinstance(aliases, dict) else ())})
    return tuple((lang, name) for lang in languages
                 for name in dict.fromkeys([_term(labels, lang), *_alias_terms(aliases, lang)])
                 if name)


def _batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _entity_lines(path: Path, marker: str, what: str) -> Iterator[tuple[int, str]]:
    """The dump's entity lines that contain `marker`, each without its trailing ","; every
    line's shape is checked, but only these are returned (to be parsed). Progress counts lines
    a thousand at a time: an update per line added a sixth to a pass's time on a terminal."""
    batches = progress(_batched(numbered_lines(path), 1000), f"{path.name}: {what}",
                       unit="lines", size=len)
    for number, text in (line for batch in batches for line in batch):
        line = text.strip()
        if line in ("[", "]"):
            continue
        line = line.removesuffix(",")
        if not (line.startswith("{") and line.endswith("}")):
            raise XelError(
                f"{path}, line {number}: not a Wikidata entity (expected one JSON object per "
                "line inside a JSON array): is the file truncated or not a Wikidata dump?"
            )
        if marker in line:
            yield number, line


def _entity(path: Path, number: int, line: str) -> tuple[str, dict[str, Any]]:
    record = _parse(path, number, line)
    kb_id = record.get("id") if isinstance(record, dict) else None
    if not isinstance(kb_id, str) or not kb_id:
        raise XelError(f'{path}, line {number}: entity has no "id"')
    return kb_id, record


def read_classes(path: Path) -> ClassRoots:
    """A dump's first pass: its P279 (subclass of) edges, and the roots each class reaches.
    Only lines that contain `"P279"` are parsed (classes: a few percent of a full dump)."""
    def edges() -> Iterator[tuple[int, int]]:
        for number, line in _entity_lines(path, '"P279"', "classes (pass 1 of 2)"):
            kb_id, record = _entity(path, number, line)
            if (item := _qid(kb_id)) is not None:
                for parent in _item_ids(record.get("claims"), "P279"):
                    yield item, parent

    return class_roots(edges())


@kb_readers.register("wikidata")
def read_wikidata(path: Path) -> Iterator[KbEntity]:
    """Entities of every type from a Wikidata JSON dump (`.json`, `.json.gz` or `.json.bz2`),
    streamed twice.

    The dump is one JSON array with one entity per line, each line ending in ",". The first
    pass reads only the P279 (subclass of) claims and finds which classes reach the roots of
    Hansel's coarse types (`TYPE_ROOTS`); the second types each item by its P31 (instance of)
    classes: a human (Q5) is PER; an item of several types takes the first in
    `TYPE_PRIORITY` (LOC, ORG, EVENT, PER); Wikimedia-internal items (disambiguation pages,
    categories, templates, lists: `INTERNAL_ROOTS` and their subclasses) are dropped; an item
    whose classes reach no root is kept as OTHER only if it has an English Wikipedia page,
    else skipped; so are items without P31, and properties and lexemes.

    The name is the English label, else the `mul` label, else the English Wikipedia title;
    items with none of these are skipped. Aliases are the English and `mul` ones. Every
    language's label and aliases (the label first; languages in code order) are kept as the
    entity's names in that language (`labels`: for transliteration pairs and for finding
    translated names). The popularity prior is the number of sitelinks (Wikipedia editions and
    sister projects with a page on the entity); the description is the English one. Lines that
    cannot be an entity of a type (no `"P31"`) are checked for shape but not parsed, nor in the
    first pass are lines without `"P279"`: most of the time saved on a full dump.
    """
    classes = read_classes(path)
    for number, line in _entity_lines(path, '"P31"', "entities (pass 2 of 2)"):
        kb_id, record = _entity(path, number, line)
        instance_of = _item_ids(record.get("claims"), "P31")
        if _qid(kb_id) is None or not instance_of:
            continue
        kind = classes.type_of(instance_of)
        sitelinks = record.get("sitelinks") or {}
        enwiki = (sitelinks.get("enwiki") or {}).get("title") or None
        if kind is None or (kind == "OTHER" and not enwiki):
            continue
        labels = record.get("labels")
        name = next((t for lang in NAME_LANGUAGES if (t := _term(labels, lang))), enwiki)
        if not name:
            continue
        yield KbEntity(
            kb_id=kb_id,
            name=name,
            aliases=tuple(a for a in _aliases(record.get("aliases")) if a != name),
            description=_term(record.get("descriptions"), "en"),
            wikipedia=enwiki,
            popularity=float(len(sitelinks)) if sitelinks else None,
            labels=_all_labels(labels, record.get("aliases")),
            type=kind,
        )


# --- name fragments ----------------------------------------------------------------------


def fragments(name: str) -> list[tuple[str, str]]:
    """(token, role) of a name: first token given, last family, the rest middle.

    Designations after a comma or `of` are not names (`Joseph II, Holy Roman Emperor`,
    `Maria Theresa of Austria`), nor are generational suffixes or one-letter initials.
    """
    words = name_key(name.split(",")[0]).split()
    if "of" in words[1:]:
        words = words[: words.index("of", 1)]
    while len(words) > 1 and words[-1] in SUFFIXES:
        words.pop()
    words = [w for w in words if len(w) > 1]
    if len(words) < 2:
        return [(w, "family") for w in words]
    roles = ["given"] + ["middle"] * (len(words) - 2) + ["family"]
    return list(zip(words, roles, strict=True))


# --- building the index ------------------------------------------------------------------


class PriorStats:
    """Running min, max and mean of log popularity, so normalising needs no second pass."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.low = math.inf
        self.high = -math.inf

    def add(self, popularity: float | None) -> None:
        if popularity is None or popularity < 0:
            return
        value = math.log1p(popularity)
        self.count += 1
        self.total += value
        self.low = min(self.low, value)
        self.high = max(self.high, value)

    def values(self) -> dict[str, float]:
        if not self.count:
            return {}
        return {"low": self.low, "high": self.high, "mean": self.total / self.count}


def index_path(config: Config) -> Path:
    return config.resolve(config.kb.index)


def kb_files(config: Config) -> list[Path]:
    """The KB files of `kb.path`, each checked to exist."""
    files = [config.resolve(p) for p in config.kb.paths]
    for source in files:
        if not source.is_file():
            raise XelError(f"KB file {source} not found (kb.path in "
                           f"{config.source_file or 'config'})")
    return files


def kb_signature(store: Store, config: Config) -> dict[str, str]:
    """Source files' digests, format, index schema, the readers' code and versions (`store`
    is the index's own)."""
    digests = [file_digest(source) for source in kb_files(config)]
    return {"file": digests[0] if len(digests) == 1 else ",".join(digests),
            "format": config.kb.format, "schema": SCHEMA, "code": KB_CODE, **versions()}


def index_kb(store: Store, config: Config) -> Work:
    """The kb stage: its writer fills the index (`store`, the KB's own) from `kb.path`."""
    _drop_older(store)
    store.declare(DDL)
    reader = kb_readers.get(config.kb.format)
    files = kb_files(config)
    return lambda s: _write(s, files, (e for source in files for e in reader(source)))


def _drop_older(store: Store) -> None:
    """Drop the tables of an index an older schema wrote (they are refilled in full)."""
    columns = {r["name"] for r in store.query("PRAGMA table_info(entities)")}
    if columns and "type" not in columns:
        for table in ("forms_vocab", "forms_grams", "fragments", "forms", "labels", "entities",
                      "stats"):
            store.execute(f"DROP TABLE IF EXISTS {table}")


def build_kb(config: Config, *, force: bool = False) -> StageRun:
    """Build the KB index alone (`xel kb build`): skipped when source, format and xel are
    unchanged. The kb stage has no upstream, so this is all the pipeline would do."""
    with Store(index_path(config)) as store:
        signature = Signature("kb", kb_signature(store, config))
        return run_unless_current(store, signature, lambda: index_kb(store, config), force=force)


def _write(store: Store, sources: list[Path], entities: Iterable[KbEntity]) -> dict[str, Any]:
    for table in ("fragments", "forms", "labels", "foreign_forms", "entities", "stats"):
        store.execute(f"DELETE FROM {table}")
    store.execute("INSERT INTO forms_grams(forms_grams) VALUES ('delete-all')")
    stats = PriorStats()
    count = forms = renamed = 0
    for entity in progress(entities, "kb entities"):
        kb_id = _unique_id(store, entity.kb_id)
        renamed += kb_id != entity.kb_id
        cursor = store.execute(
            "INSERT INTO entities(kb_id, name, aliases, description, wikipedia, popularity,"
            " type) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (kb_id, entity.name, json.dumps(list(entity.aliases), ensure_ascii=False),
             entity.description, entity.wikipedia, entity.popularity, entity.type),
        )
        row = cursor.lastrowid
        store.executemany("INSERT OR IGNORE INTO labels VALUES (?, ?, ?)",
                          [(row, lang, label) for lang, label in entity.labels])
        store.executemany("INSERT OR IGNORE INTO foreign_forms VALUES (?, ?, ?, ?)",
                          [(row, lang, label, key) for lang, label in entity.labels
                           if (key := foreign_key(label)) and not ONE_CHARACTER.fullmatch(label)])
        stats.add(entity.popularity)
        count += 1
        seen: set[str] = set()
        for kind, form in english_forms(entity):
            key = name_key(form)
            if not key or key in seen:
                continue
            seen.add(key)
            forms += 1
            store.execute(
                "INSERT INTO forms(entity, kind, form, key) VALUES (?, ?, ?, ?)",
                (row, kind, form, key),
            )
            if entity.type == "PER":  # given and family names are a person's
                store.executemany(
                    "INSERT OR IGNORE INTO fragments(token, role, entity) VALUES (?, ?, ?)",
                    [(token, role, row) for token, role in fragments(form)],
                )
    if not count:
        raise XelError(f"{', '.join(map(str, sources))}: no entities found: check kb.format "
                       "and the file's contents")
    store.execute("INSERT INTO forms_grams(forms_grams) VALUES ('rebuild')")
    store.executemany("INSERT INTO stats VALUES (?, ?)", [*stats.values().items(),
                                                           ("forms", forms)])
    return {"entities": count, "forms": forms, "with_popularity": stats.count,
            "renamed_duplicate_ids": renamed}


def english_forms(entity: KbEntity) -> list[tuple[str, str]]:
    """The English forms an entity is found by, each as `name` or `alias`: its name, its
    aliases and, but for a person's, its acronyms dotted (`U.S.` and `U.K.` as news writes
    `US` and `UK`) and its British spellings as American news spells them (`Shanghai
    Cooperation Organization`, `World Trade Center`)."""
    forms = [("name", entity.name)] + [("alias", a) for a in entity.aliases]
    if entity.type != "PER":
        forms += [("alias", dotted(a)) for a in entity.aliases if is_acronym(a)]
        forms += [("alias", spelled) for _, form in forms
                  if (spelled := american(form)) != form]
    return forms


def is_acronym(form: str) -> bool:
    """Two to four capitals (`US`, `UK`, `NATO`)."""
    return 2 <= len(form) <= 4 and form.isalpha() and form.isupper()


def dotted(acronym: str) -> str:
    """An acronym with a full stop after each letter (`U.S.`)."""
    return "".join(f"{letter}." for letter in acronym)


def _unique_id(store: Store, kb_id: str) -> str:
    """`kb_id`, or `kb_id#2`, `#3`, ... when taken: real KBs repeat broken ids (persons.jsonl
    has seven different presidents under `bioguide:None`) and every person must stay findable.
    The suffix follows file order, so it is stable while the file is unchanged."""
    candidate, n = kb_id, 1
    while store.scalar("SELECT 1 FROM entities WHERE kb_id = ?", (candidate,)):
        n += 1
        candidate = f"{kb_id}#{n}"
    return candidate


# --- reading the index -------------------------------------------------------------------


@dataclass(frozen=True)
class GramIndex:
    """The names' trigram postings in memory, ranked as FTS5's bm25() ranks the index (its
    formula, constants and order of sums: the same scores; ties by form, as SQLite returns
    them): a tenth of the SQL query's time, which the baselines pay for every reading of every
    name in every language."""

    postings: dict[str, tuple[np.ndarray, np.ndarray]]  # trigram -> (forms, times in each)
    lengths: np.ndarray  # trigrams in each form, by form id
    types: np.ndarray  # the type of each form's entity, by form id
    rows: int
    average: float  # trigrams per form

    @classmethod
    def read(cls, conn: sqlite3.Connection) -> GramIndex | None:
        """The index's postings, or None where it has more than GRAMS_IN_MEMORY of them."""
        total = conn.execute("SELECT coalesce(sum(cnt), 0) FROM forms_vocab").fetchone()[0]
        if total > GRAMS_IN_MEMORY:
            return None
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.forms_instances"
                     " USING fts5vocab(main, forms_grams, instance)")
        rows = conn.execute("SELECT term, doc, count(*) FROM temp.forms_instances"
                            " GROUP BY term, doc ORDER BY term, doc").fetchall()
        top = conn.execute("SELECT coalesce(max(form_id), 0) FROM forms").fetchone()[0]
        lengths = np.zeros(top + 1)
        grouped: dict[str, list[tuple[int, int]]] = {}
        for term, doc, times in rows:
            grouped.setdefault(term, []).append((doc, times))
            lengths[doc] += times
        postings = {term: (np.array([d for d, _ in pairs], dtype=np.int64),
                           np.array([t for _, t in pairs], dtype=np.float64))
                    for term, pairs in grouped.items()}
        types = np.full(top + 1, "", dtype=object)
        for form, type in conn.execute("SELECT f.form_id, e.type FROM forms f"
                                       " JOIN entities e USING (entity)"):
            types[form] = type
        count = conn.execute("SELECT count(*) FROM forms_grams").fetchone()[0]
        return cls(postings, lengths, types, count, float(lengths.sum()) / max(count, 1))

    def names_with(self, gram: str) -> int:
        return len(self.postings[gram][0]) if gram in self.postings else 0

    def ranked(self, grams: Sequence[str], limit: int, type: str | None = None) -> list[int]:
        """The `limit` forms (of `type`'s entities, if given) with one of `grams`, best bm25
        first (FTS5's `MATCH "g1" OR "g2" ... ORDER BY rank LIMIT`)."""
        parts = [self.postings[g] for g in grams if g in self.postings]
        if not parts:
            return []
        forms = np.concatenate([docs for docs, _ in parts])
        added = []
        for docs, times in parts:
            idf = math.log((self.rows - len(docs) + 0.5) / (len(docs) + 0.5))
            idf = idf if idf > 0 else 1e-6
            norm = 1 - BM25_B + BM25_B * self.lengths[docs] / self.average
            added.append(idf * ((times * (BM25_K1 + 1.0)) / (times + BM25_K1 * norm)))
        unique, where = np.unique(forms, return_inverse=True)
        scores = np.zeros(len(unique))
        np.add.at(scores, where, np.concatenate(added))  # in gram order, as FTS5 sums
        best = unique[np.lexsort((unique, -scores))]
        if type is not None:
            best = best[self.types[best] == type]
        return [int(f) for f in best[:limit]]


_GRAM_INDEXES: dict[tuple[str, str], GramIndex | None] = {}


class KnowledgeBase:
    """Read access to a built index: entity lookup and candidate generation with reasons."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise XelError(f"no KB index at {self.path}: run `xel kb build` first")
        self._resolved = self.path.resolve()  # resolved once: every n-gram search keys on it
        self.conn = sqlite3.connect(f"{self._resolved.as_uri()}?mode=ro", uri=True)
        self.conn.row_factory = sqlite3.Row
        self._looked_up: dict[tuple[str, tuple[Any, ...]], list[sqlite3.Row]] = {}
        try:
            row = self.conn.execute(
                "SELECT digest, signature FROM stages WHERE name = 'kb'").fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row is None or f"|schema={SCHEMA}|" not in row["signature"]:
            self.conn.close()
            raise XelError(
                f"{self.path} is not a complete KB index of this xel version: run `xel kb build`"
            )
        self.digest: str = row["digest"]
        self._stats = dict(self.conn.execute("SELECT key, value FROM stats").fetchall())

    @classmethod
    def open(cls, config: Config) -> KnowledgeBase:
        return cls(index_path(config))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM entities").fetchone()[0])

    @staticmethod
    def _entity(row: sqlite3.Row) -> KbEntity:
        return KbEntity(row["kb_id"], row["name"], tuple(json.loads(row["aliases"])),
                        row["description"], row["wikipedia"], row["popularity"],
                        type=row["type"])

    def foreign_labels(self, kb_id: str, langs: Sequence[str]) -> list[str]:
        """An entity's labels and aliases in `langs` (label codes: `de`; `zh-hant` and then
        `zh-hans`, which a Chinese sentence is matched against folded: one script's label may
        be a slip, Natural Earth's `巴塘` for Padang beside `巴东`), in that order, once each."""
        forms: dict[str, None] = {}
        for lang in langs:
            forms.update(dict.fromkeys(r[0] for r in self._lookup(
                "SELECT f.form FROM foreign_forms f JOIN entities e USING (entity)"
                " WHERE e.kb_id = ? AND f.lang = ? ORDER BY f.form", (kb_id, lang))))
        return list(forms)

    def by_foreign_key(self, form: str, lang: str, type: str | None = None) -> list[KbEntity]:
        """Entities (of `type`, if given) with a label or alias in `lang` equal to `form`
        under `foreign_key`, most popular first."""
        rows = self._lookup(
            "SELECT DISTINCT e.* FROM foreign_forms f JOIN entities e USING (entity)"
            " WHERE f.lang = ? AND f.key = ? AND (? IS NULL OR e.type = ?)"
            " ORDER BY e.popularity DESC, e.kb_id", (lang, foreign_key(form), type, type))
        return [self._entity(r) for r in rows]

    def name_roles(self, word: str) -> set[str]:
        """The parts (`given`, `middle`, `family`) a word is of the KB's people's names
        (`seagal`: family): the type check's evidence that a name is written as a person's."""
        return {r[0] for r in self._lookup("SELECT DISTINCT role FROM fragments WHERE token = ?",
                                           (word,))}

    def types_named(self, name: str) -> set[str]:
        """The types of the entities with this name or alias (the type check's KB vote)."""
        return {f.entity.type for kind in ("name", "alias") for f in self.by_key(name, kind)}

    def entity(self, kb_id: str) -> KbEntity | None:
        row = self.conn.execute("SELECT * FROM entities WHERE kb_id = ?", (kb_id,)).fetchone()
        return None if row is None else self._entity(row)

    def entities(self) -> Iterator[KbEntity]:
        """Every entity, in index order (what a retrieval model's statistics are taken over)."""
        for row in self.conn.execute("SELECT * FROM entities ORDER BY entity"):
            yield self._entity(row)

    def labels(self, langs: Sequence[str]) -> list[tuple[str, str]]:
        """(English name, label) of every entity with a label in one of the language codes
        (the source's: `el`, `zh-hans`), the first code that has one."""
        found: dict[str, tuple[str, str]] = {}
        for lang in langs:
            for row in self._rows("SELECT e.kb_id, e.name, l.label FROM labels l JOIN entities e"
                                  " USING (entity) WHERE l.lang = ? ORDER BY e.entity", (lang,)):
                found.setdefault(row["kb_id"], (row["name"], row["label"]))
        return list(found.values())

    def translations(self, langs: Sequence[str]) -> list[tuple[str, str]]:
        """(English name or alias, label or alias) of every entity with a form in any of the
        language codes: every way the KB says a name translates."""
        out = []
        for lang in langs:
            for row in self._rows("SELECT e.name, e.aliases, f.form FROM foreign_forms f"
                                  " JOIN entities e USING (entity) WHERE f.lang = ?", (lang,)):
                out += [(name, row["form"]) for name in [row["name"], *json.loads(row["aliases"])]]
        return out

    def prior(self, popularity: float | None) -> float:
        """Log popularity scaled to [0, 1] over the KB; an entity without one (or a KB without
        any) gets the KB's mean, so a missing prior neither helps nor hurts."""
        if "mean" not in self._stats:
            return 0.5
        low, high, mean = self._stats["low"], self._stats["high"], self._stats["mean"]
        span = high - low
        if span <= 0:
            return 0.5
        value = mean if popularity is None or popularity < 0 else math.log1p(popularity)
        return min(1.0, max(0.0, (value - low) / span))

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def _lookup(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        """`_rows` of a name lookup, kept (the index is read-only): the baselines look up the
        same readings of a name in every language of a collection."""
        key = (sql, params)
        if key not in self._looked_up:
            if len(self._looked_up) >= LOOKUPS_KEPT:
                self._looked_up.clear()
            self._looked_up[key] = self._rows(sql, params)
        return self._looked_up[key]

    def by_key(self, name: str, kind: str, type: str | None = None) -> list[Found]:
        """Entities (of `type`, if given) with a name (kind 'name') or alias (kind 'alias')
        equal to `name`'s key."""
        rows = self._lookup(
            "SELECT e.*, f.form FROM forms f JOIN entities e USING (entity)"
            " WHERE f.key = ? AND f.kind = ? AND (? IS NULL OR e.type = ?)"
            " ORDER BY e.popularity DESC, e.kb_id",
            (name_key(name), kind, type, type),
        )
        via = "exact" if kind == "name" else "alias"
        return [Found(self._entity(r), [{"via": via, "form": r["form"]}]) for r in rows]

    def by_fragment(self, name: str, limit: int) -> list[Found]:
        """Entities sharing a name fragment, the same role first (family with family), then the
        more popular; at most `limit` per fragment so a common given name cannot flood."""
        found = []
        for token, role in fragments(name):
            rows = self._lookup(
                "SELECT e.*, g.role FROM fragments g JOIN entities e USING (entity)"
                " WHERE g.token = ? ORDER BY g.role = ? DESC, e.popularity DESC, e.kb_id"
                " LIMIT ?",
                (token, role, limit),
            )
            found += [
                Found(self._entity(r), [{"via": "fragment", "token": token, "role": r["role"]}])
                for r in rows
            ]
        return found

    def by_ngrams(self, name: str, limit: int, type: str | None = None) -> list[Found]:
        """Entities whose names share the most character trigrams with `name` (BM25-ranked),
        which finds misspellings and spacing variants that no key matches. Trigrams too common
        to tell names apart are skipped, unless nothing else is left."""
        key = name_key(name)
        grams = list(dict.fromkeys(key[i:i + 3] for i in range(len(key) - 2)))
        if not grams:
            return []
        index = self._gram_index()
        if index is not None:
            counts = {g: n for g in sorted(grams) if (n := index.names_with(g))}
        else:
            marks = ", ".join("?" * len(grams))
            counts = {r["term"]: r["doc"] for r in self._lookup(
                f"SELECT term, doc FROM forms_vocab WHERE term IN ({marks})", tuple(grams))}
        common = max(COMMON_GRAM_FLOOR, COMMON_GRAM_SHARE * self._stats.get("forms", 0))
        useful = [g for g in grams if 0 < counts.get(g, 0) <= common]
        useful = useful or sorted(counts, key=counts.__getitem__)[:3]
        if not useful:
            return []
        rows = (self._form_rows(index.ranked(useful, limit, type)) if index is not None
                else self._lookup(
                    "SELECT e.*, f.form, bm25(forms_grams) AS rank FROM forms_grams"
                    " JOIN forms f ON f.form_id = forms_grams.rowid JOIN entities e"
                    " USING (entity) WHERE forms_grams MATCH ? AND (? IS NULL OR e.type = ?)"
                    " ORDER BY rank LIMIT ?",
                    (" OR ".join('"' + g.replace('"', '""') + '"' for g in useful),
                     type, type, limit)))
        return [Found(self._entity(r), [{"via": "ngram", "form": r["form"]}]) for r in rows]

    def _gram_index(self) -> GramIndex | None:
        """This index's `GramIndex`, read on the first n-gram search of the process (each
        language's worker job opens the KB afresh)."""
        key = (str(self._resolved), self.digest)
        if key not in _GRAM_INDEXES:
            _GRAM_INDEXES.clear()  # one KB's postings at a time
            _GRAM_INDEXES[key] = GramIndex.read(self.conn)
        return _GRAM_INDEXES[key]

    def _form_rows(self, forms: list[int]) -> list[sqlite3.Row]:
        """Each form's row with its entity's, in the order given."""
        if not forms:
            return []
        rows = {r["form_id"]: r for r in self._lookup(
            "SELECT e.*, f.form, f.form_id FROM forms f JOIN entities e USING (entity)"
            f" WHERE f.form_id IN ({', '.join('?' * len(forms))})", tuple(forms))}
        return [rows[f] for f in forms]

    def candidates(self, name: str, limit: int = 50, type: str | None = None) -> list[Found]:
        """Every entity (of `type`, if given) any path proposes (exact, alias, fragment,
        n-gram), reasons merged, in the order first found; at most `limit` from each of the
        fragment and n-gram paths (fragments are people's given and family names)."""
        merged: dict[str, Found] = {}
        paths = (self.by_key(name, "name", type) + self.by_key(name, "alias", type)
                 + (self.by_fragment(name, limit) if type in (None, "PER") else [])
                 + self.by_ngrams(name, limit, type))
        for found in paths:
            known = merged.setdefault(found.entity.kb_id, Found(found.entity))
            known.why += [w for w in found.why if w not in known.why]
        return list(merged.values())
