"""Multi-way parallel corpora: readers for NTREX-128, WMT XML, TMX and Moses-style files (line
files or per-session folders), and import.

A corpus is a sequence of segments; segment `seg` of every language is a translation of the
same source sentence (sentence alignment is shared segment numbers), and every segment belongs
to a document. Readers stream `Segment`s (a line, a WMT document or a TMX unit in memory at a
time); `import_corpus` writes them in committed batches and records the stage only at the end,
so an interrupted import resumes where it stopped and nothing downstream reads half a corpus.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

from xel.config import Config, CorpusConfig
from xel.errors import XelError
from xel.languages import canonical, language
from xel.progress import progress, rate_text
from xel.registry import corpus_readers
from xel.stages import Work, digest_of, file_digest, versions
from xel.store import Store
from xel.textfile import count_lines, iter_lines

DDL = """
CREATE TABLE IF NOT EXISTS languages (
    code     TEXT PRIMARY KEY,
    role     TEXT NOT NULL,          -- 'source' or 'target'
    script   TEXT NOT NULL,
    name     TEXT NOT NULL,
    file     TEXT NOT NULL,
    segments INTEGER NOT NULL,       -- non-empty segments
    ordinal  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
    doc_id    TEXT PRIMARY KEY,
    ordinal   INTEGER NOT NULL,
    first_seg INTEGER NOT NULL,
    n_segs    INTEGER NOT NULL
);
-- `start` is the sentence's character offset in its document's text, which is the document's
-- sentences in that language joined by newlines.
CREATE TABLE IF NOT EXISTS sentences (
    lang   TEXT NOT NULL,
    seg    INTEGER NOT NULL,
    doc_id TEXT NOT NULL,
    pos    INTEGER NOT NULL,
    start  INTEGER NOT NULL,
    text   TEXT NOT NULL,
    PRIMARY KEY (lang, seg)
) WITHOUT ROWID;
-- A document's sentences are the segments first_seg .. first_seg + n_segs - 1 (`document`), so
-- no index on doc_id is kept: it would cost a tenth of the store.
-- An import under way: the digest of its signature and where it stands (`ImportState`).
CREATE TABLE IF NOT EXISTS import_progress (
    key   TEXT NOT NULL,
    state TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Segment:
    doc_id: str
    texts: dict[str, str]  # language code -> sentence ("" where a language lacks it)


@dataclass(frozen=True)
class CorpusSource:
    """What a reader found: the languages (source first), their files, and the segments."""

    languages: list[str]
    files: dict[str, Path]
    segments: Iterator[Segment]


# --- reading line-aligned files ------------------------------------------------------------


def require_text(path: Path) -> None:
    """An empty (or all-blank) corpus file is an error; reads only up to its first text."""
    if not any(line.strip() for line in iter_lines(path, "corpus file")):
        raise XelError(f"{path}: file is empty: a corpus file needs one line per segment")


def _mismatch(path: Path, ref: Path) -> XelError:
    """The error for two files that should be line-aligned but are not (lines counted)."""
    n, m = count_lines(path), count_lines(ref)
    shorter = path if n < m else ref
    return XelError(
        f"{path} has {n} lines but {ref} has {m}: {shorter} is shorter by {abs(n - m)} (a line "
        "lost or joined somewhere in it); the files must be line-aligned, one segment per line"
    )


def _lockstep(files: dict[str, Path], ref: Path,
              doc_id: Callable[[int, str], str]) -> Iterator[Segment]:
    """Segments from line-aligned files read side by side, one line of each held at a time;
    `ref` (the document-id file, or one of `files`) gives each line's document id."""
    for path in dict.fromkeys([ref, *files.values()]):
        require_text(path)
    readers = {lang: iter_lines(path, "corpus file") for lang, path in files.items()
               if path != ref}
    for number, line in enumerate(iter_lines(ref, "corpus file"), start=1):
        doc = doc_id(number, line)
        texts = {}
        for lang, path in files.items():
            text = line if path == ref else next(readers[lang], None)
            if text is None:
                raise _mismatch(path, ref)
            texts[lang] = text
        yield Segment(doc, texts)
    for lang, reader in readers.items():
        if next(reader, None) is not None:
            raise _mismatch(files[lang], ref)


def _aligned(files: dict[str, Path], doc_file: Path, doc_column: int = 0) -> Iterator[Segment]:
    """Segments from line-aligned files plus a document-id file (one id per line)."""

    def doc_id(number: int, line: str) -> str:
        fields = line.split("\t")
        found = fields[doc_column].strip() if len(fields) > doc_column else ""
        if not found:
            raise XelError(f"{doc_file}, line {number}: no document id")
        return found

    return _lockstep(files, doc_file, doc_id)


def _sessions(folders: dict[str, Path]) -> Iterator[Segment]:
    """Europarl-style folders of per-session files, one folder per language: each file of the
    source language's folder is a document (its id the file name without suffix) and is
    line-aligned with the file of the same name in every other folder."""
    source = next(iter(folders.values()))
    for file in sorted(p for p in source.iterdir() if p.is_file()):
        files = {lang: folder / file.name for lang, folder in folders.items()}
        for path in files.values():
            if not path.is_file():
                raise XelError(f"{path}: missing: every language's folder needs a file named "
                               f"like {file} (one per session, line-aligned with it)")
        yield from _lockstep(files, file, _constant(file.stem))


def _constant(doc: str) -> Callable[[int, str], str]:
    """Every line's document id is `doc` (a file that is one document)."""
    return lambda _number, _line: doc


def _select(available: list[str], config: CorpusConfig, where: Path) -> list[str]:
    """The source language followed by the requested targets, as canonical codes."""
    source = canonical(config.source, available)
    if config.languages == "all":
        targets = [code for code in available if code != source]
    else:
        targets = [canonical(code, available) for code in config.languages]
    if not available:
        raise XelError(f"{where}: no corpus files found")
    return [source] + [t for t in dict.fromkeys(targets) if t != source]


# --- readers ------------------------------------------------------------------------------

_NTREX_FILE = re.compile(r"^newstest2019-(src|ref)\.([A-Za-z]{2,3}(?:-[A-Za-z]{2,4})?)\.txt$")


@corpus_readers.register("ntrex")
def read_ntrex(path: Path, config: CorpusConfig) -> CorpusSource:
    """NTREX-128: `NTREX-128/newstest2019-{src,ref}.<code>.txt` and `DOCUMENT_IDS.tsv`."""
    folder = path / "NTREX-128" if (path / "NTREX-128").is_dir() else path
    if not folder.is_dir():
        raise XelError(f"{path}: not a folder: NTREX-128 is a folder of line-aligned files")
    found: dict[str, Path] = {}
    for file in sorted(folder.iterdir()):
        m = _NTREX_FILE.match(file.name)
        if m:
            code = m.group(2)
            language(code)  # validates the code
            found[code] = file
    doc_file = path / "DOCUMENT_IDS.tsv"
    if not doc_file.exists():
        raise XelError(f"{doc_file}: missing: NTREX-128 gives each line's document id there")
    chosen = _select(list(found), config, folder)
    files = {code: found[code] for code in chosen}
    return CorpusSource(chosen, files, _aligned(files, doc_file))


@corpus_readers.register("moses")
def read_moses(path: Path, config: CorpusConfig) -> CorpusSource:
    """Line-aligned files, one per language (`files:` in the config), plus a doc-id file; or
    one folder per language of Europarl-style per-session files (a document each)."""
    folders_only = bool(config.files) and all((path / f).is_dir()
                                              for f in config.files.values())
    if not config.files or not (config.doc_ids or folders_only):
        raise XelError(
            "corpus.format moses needs corpus.files (language code -> file) and "
            "corpus.doc_ids (one document id per line), or corpus.files naming one folder of "
            "per-session files per language (each file a document)"
        )
    found = {canonical(code): path / file for code, file in config.files.items()}
    for code in found:
        language(code)
    chosen = _select(list(found), config, path)
    files = {code: found[code] for code in chosen}
    folders = [f for f in files.values() if f.is_dir()]
    if folders and len(folders) != len(files):
        raise XelError(f"corpus.files: {folders[0]} is a folder but not every language's entry "
                       "is: give per-session folders for every language, or files for all")
    if folders or not config.doc_ids:
        return CorpusSource(chosen, files, _sessions(files))
    return CorpusSource(chosen, files, _aligned(files, path / config.doc_ids))


def _xml_error(path: Path, e: Exception) -> XelError:
    if isinstance(e, SafeET.ParseError):
        line, column = e.position
        return XelError(f"{path}, line {line}, column {column}: not well-formed XML: {e}")
    if isinstance(e, UnicodeDecodeError):
        return XelError(f"{path}: invalid UTF-8: convert the file to UTF-8")
    return XelError(f"{path}: refused unsafe XML ({e}): the file needs no DTD or entities")


def xml_elements(path: Path, tag: str) -> Iterator[Any]:
    """Each `tag` element of an XML file as it closes, parsed incrementally and dropped from
    the tree once the caller moves on, so memory holds one element whatever the file's size.

    Parsed with defusedxml (entity expansion and external entities are refused)."""
    stack: list[Any] = []
    try:
        for event, elem in SafeET.iterparse(path, events=("start", "end")):
            if event == "start":
                stack.append(elem)
                continue
            stack.pop()
            if elem.tag == tag:
                yield elem
                if stack:
                    stack[-1].remove(elem)
    except (SafeET.ParseError, UnicodeDecodeError, DefusedXmlException) as e:
        raise _xml_error(path, e) from None


def _wmt_sides(path: Path, doc: Any) -> dict[str, dict[str, str]]:
    """A WMT document's segments by language and segment id (the first reference of each)."""
    doc_id = doc.get("id")
    if not doc_id:
        raise XelError(f"{path}: a <doc> has no id attribute")
    sides: dict[str, dict[str, str]] = {}
    for side in list(doc.findall("src")) + list(doc.findall("ref")):
        lang_attr = side.get("lang")
        if not lang_attr:
            raise XelError(f"{path}: <{side.tag}> in doc {doc_id} has no lang attribute")
        code = canonical(lang_attr)
        language(code)
        if code not in sides:
            sides[code] = {seg.get("id", ""): "".join(seg.itertext()) for seg in side.iter("seg")}
    return sides


@corpus_readers.register("wmt-xml")
def read_wmt_xml(path: Path, config: CorpusConfig) -> CorpusSource:
    """WMT 2021+ XML: `<doc id>` with `<src lang>` and `<ref lang>` of `<seg id>` segments.

    Read twice, incrementally: once for the languages, once for the segments, one document
    in memory at a time. Where a document has several references for one language, the
    first is used.
    """
    if not path.is_file():
        raise XelError(f"{path}: WMT XML is one file")
    seen: dict[str, None] = {}
    for doc in xml_elements(path, "doc"):
        seen.update(dict.fromkeys(_wmt_sides(path, doc)))
    if not seen:
        raise XelError(f"{path}: no <doc> elements: is this a WMT XML test set?")
    chosen = _select(list(seen), config, path)
    source = chosen[0]

    def segments() -> Iterator[Segment]:
        for doc in xml_elements(path, "doc"):
            doc_id, sides = doc.get("id"), _wmt_sides(path, doc)
            if source not in sides:
                raise XelError(f"{path}: doc {doc_id} has no {source} side")
            for seg_id, text in sides[source].items():
                yield Segment(
                    doc_id, {c: sides.get(c, {}).get(seg_id, "") if c != source else text
                             for c in chosen}
                )

    return CorpusSource(chosen, {code: path for code in chosen}, segments())


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_TMX_CODES = {"bpt", "ept", "ph", "it", "ut"}  # inline markup: native codes, not text


def _tmx_text(seg: Any) -> str:
    """A TMX `<seg>`'s text: its own and that of `<hi>`/`<sub>`, without inline codes."""
    parts = [seg.text or ""]
    for child in seg:
        if child.tag not in _TMX_CODES:
            parts.append(_tmx_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _tmx_unit(path: Path, number: int, tu: Any) -> tuple[str | None, dict[str, str]]:
    """A `<tu>`'s document (`<prop type="x-doc">`, if any) and text per language."""
    doc = next((p.text.strip() for p in tu.findall("prop")
                if p.get("type") == "x-doc" and p.text and p.text.strip()), None)
    texts: dict[str, str] = {}
    for tuv in tu.findall("tuv"):
        attr = tuv.get(_XML_LANG) or tuv.get("lang")
        if not attr:
            raise XelError(f"{path}: <tuv> in <tu> number {number} has no xml:lang attribute")
        code = canonical(attr)
        language(code)
        seg = tuv.find("seg")
        texts.setdefault(code, _tmx_text(seg) if seg is not None else "")
    return doc, texts


@corpus_readers.register("tmx")
def read_tmx(path: Path, config: CorpusConfig) -> CorpusSource:
    """TMX, as OPUS ships its corpora: each `<tu>` one segment, each `<tuv xml:lang>` one
    language's text of it. Document ids come from `corpus.doc_ids` (a file with one id per
    `<tu>`, as for moses) or from each unit's `<prop type="x-doc">`.

    Read twice, incrementally (languages, then segments), one unit in memory at a time.
    """
    if not path.is_file():
        raise XelError(f"{path}: TMX is one file")
    seen: dict[str, None] = {}
    units = 0
    for units, tu in enumerate(xml_elements(path, "tu"), start=1):
        seen.update(dict.fromkeys(_tmx_unit(path, units, tu)[1]))
    if not units:
        raise XelError(f"{path}: no <tu> elements: is this a TMX file?")
    chosen = _select(list(seen), config, path)
    doc_file = path.parent / config.doc_ids if config.doc_ids else None

    def segments() -> Iterator[Segment]:
        ids = iter_lines(doc_file, "document-id file") if doc_file else None
        for number, tu in enumerate(xml_elements(path, "tu"), start=1):
            doc, texts = _tmx_unit(path, number, tu)
            if ids is not None:
                doc = next(ids, "").split("\t")[0].strip() or None
                if doc is None:
                    raise XelError(f"{doc_file}, line {number}: no document id (one line per "
                                   f"<tu> of {path}, which has {units})")
            elif doc is None:
                raise XelError(f"{path}: <tu> number {number} has no <prop type=\"x-doc\">: "
                               "give document ids in corpus.doc_ids (one line per <tu>)")
            yield Segment(doc, {code: texts.get(code, "") for code in chosen})
        if ids is not None and next(ids, None) is not None:
            raise XelError(f"{doc_file} has more lines than {path} has <tu> units ({units})")

    return CorpusSource(chosen, {code: path for code in chosen}, segments())


# --- import stage -----------------------------------------------------------------------------


def read_source(config: Config) -> CorpusSource:
    """The configured corpus, opened with its reader (segments are read lazily)."""
    path = config.resolve(config.corpus.path)
    if not path.exists():
        raise XelError(
            f"corpus path {path} does not exist (corpus.path in {config.source_file}); "
            "for NTREX-128 run `xel corpus download` where the network allows"
        )
    return corpus_readers.get(config.corpus.format)(path, config.corpus)


def source_digest(path: Path) -> str:
    """A corpus source's digest: its file's, or (a folder of files) the digests of the files
    directly in it, by name."""
    if path.is_dir():
        return digest_of([(p.name, file_digest(p)) for p in sorted(path.iterdir()) if p.is_file()])
    return file_digest(path)


def import_signature(store: Store, config: Config) -> dict[str, str]:
    """The corpus settings and the digest of every file read."""
    source = read_source(config)
    parts = {"config": digest_of(config.corpus), **versions()}
    for code, file in source.files.items():
        parts[f"file:{code}"] = source_digest(file)
    return parts


# Segments per committed batch: what memory holds, and the most a crash makes read again.
IMPORT_BATCH = 20_000


@dataclass
class ImportState:
    """Where an import stands after its last committed batch (so a rerun resumes there)."""

    segments: int = 0  # segments committed
    documents: int = 0  # documents begun
    doc: str = ""  # the open document: its id, first segment, segments so far, text offsets
    first: int = 0
    count: int = 0
    offsets: dict[str, int] = field(default_factory=dict)
    non_empty: dict[str, int] = field(default_factory=dict)
    started: float = field(default_factory=time.time)  # when the import began, and its last
    updated: float = 0.0  # committed batch (for the rate `xel stages` shows)


def import_corpus(store: Store, config: Config) -> Work:
    """The import stage: read the configured corpus into the store in batches of
    `IMPORT_BATCH` segments, each committed as it is read; the writer commits the last one
    with the languages and the stage's record.

    A rerun of an interrupted import of the same input (same signature) skips the segments
    already committed; a different input starts afresh, and its first batch removes the old
    corpus and its record, so nothing downstream reads a half-imported corpus."""
    store.declare(DDL)
    source = read_source(config)
    key = digest_of(import_signature(store, config))
    state, rows, docs = _resume(store, key, source.languages)
    segments = islice(source.segments, state.segments, None)  # committed ones: read, skipped
    for segment in progress(segments, "import", unit="segments"):
        _add(store, state, segment, source.languages, rows, docs)
        if len(rows) >= IMPORT_BATCH * len(source.languages):
            with store.transaction():
                _flush(store, state, rows, docs, key)
    return lambda s: _finish(s, source, state, rows, docs, key)


def _resume(store: Store, key: str, langs: list[str]
            ) -> tuple[ImportState, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The state of an interrupted import of the same input, else a fresh one."""
    row = store.query("SELECT state FROM import_progress WHERE key = ?", (key,))
    if row:
        return ImportState(**json.loads(row[0][0])), [], []
    return ImportState(non_empty=dict.fromkeys(langs, 0)), [], []


def _add(store: Store, state: ImportState, segment: Segment, langs: list[str],
         rows: list[tuple[Any, ...]], docs: list[tuple[Any, ...]]) -> None:
    """One segment's rows, checking its document continues or is new."""
    seg = state.segments + len(rows) // len(langs)
    if segment.doc_id != state.doc or not state.count:
        if state.count:
            docs.append((state.doc, state.documents - 1, state.first, state.count))
        doc = segment.doc_id
        # Before its first batch is committed, the store's documents are the old corpus's.
        if any(d[0] == doc for d in docs) or state.segments and store.scalar(
                "SELECT 1 FROM documents WHERE doc_id = ?", (doc,)):
            raise XelError(
                f"document {doc!r} is split: its segments must be consecutive (segment {seg + 1})"
            )
        state.doc, state.first, state.count, state.offsets = doc, seg, 0, {}
        state.documents += 1
    for lang in langs:
        text = segment.texts.get(lang, "")
        start = state.offsets.get(lang, 0)
        state.offsets[lang] = start + len(text) + 1
        state.non_empty[lang] += bool(text.strip())
        rows.append((lang, seg, state.doc, state.count, start, text))
    state.count += 1


def _flush(store: Store, state: ImportState, rows: list[tuple[Any, ...]],
           docs: list[tuple[Any, ...]], key: str) -> None:
    """Write a batch and where the import stands (inside the caller's transaction)."""
    if not state.segments and not store.scalar(
            "SELECT 1 FROM import_progress WHERE key = ?", (key,)):
        for table in ("sentences", "documents", "languages", "import_progress"):
            store.execute(f"DELETE FROM {table}")
        store.forget_stage("import")
    store.executemany("INSERT INTO sentences VALUES (?, ?, ?, ?, ?, ?)", rows)
    store.executemany("INSERT INTO documents VALUES (?, ?, ?, ?)", docs)
    state.segments += len(rows) // len(state.non_empty)
    rows.clear()
    docs.clear()
    state.updated = time.time()
    store.execute("DELETE FROM import_progress")
    store.execute("INSERT INTO import_progress VALUES (?, ?)", (key, json.dumps(vars(state))))


def import_under_way(store: Store) -> str | None:
    """How far an unfinished import got and its rate (for `xel stages`); a rerun resumes it."""
    store.declare(DDL)
    row = store.query("SELECT state FROM import_progress")
    if not row:
        return None
    state = ImportState(**json.loads(row[0][0]))
    return (rate_text(state.segments, None, state.updated - state.started, "segments")
            + " committed; a rerun goes on from there")


def _finish(store: Store, source: CorpusSource, state: ImportState,
            rows: list[tuple[Any, ...]], docs: list[tuple[Any, ...]], key: str) -> dict[str, Any]:
    if state.count:
        docs.append((state.doc, state.documents - 1, state.first, state.count))
    if not state.segments and not rows:
        raise XelError("the corpus has no segments")
    _flush(store, state, rows, docs, key)
    store.execute("DELETE FROM import_progress")
    for ordinal, code in enumerate(source.languages):
        info = language(code)
        store.execute(
            "INSERT INTO languages VALUES (?, ?, ?, ?, ?, ?, ?)",
            (code, "source" if ordinal == 0 else "target", info.script, info.name,
             str(source.files[code]), state.non_empty[code], ordinal),
        )
    return {"segments": state.segments, "documents": state.documents,
            "languages": len(source.languages)}


# --- fetching NTREX-128 -------------------------------------------------------------------

NTREX_ARCHIVE = "https://github.com/MicrosoftTranslator/NTREX/archive/refs/heads/main.tar.gz"


def download_ntrex(dest: Path, url: str = NTREX_ARCHIVE, timeout: float = 20) -> Path:
    """Fetch NTREX-128 from its public repository into `dest` (the layout the reader expects).

    Offline this fails at once with a message saying so, and leaves `dest` untouched.
    """
    import tarfile
    import tempfile
    import urllib.error
    import urllib.request

    if (dest / "DOCUMENT_IDS.tsv").exists():
        return dest
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "ntrex.tar.gz"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response, archive.open("wb") as f:
                while block := response.read(1 << 20):
                    f.write(block)
        except (urllib.error.URLError, TimeoutError, OSError) as e:
            raise XelError(
                f"cannot download NTREX-128 from {url} ({e}): this machine seems to be offline; "
                "copy the NTREX repository's folder here by other means, or point corpus.path "
                "at an existing copy (such as ../shared/data/ntrex128)"
            ) from None
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        top = next(p for p in Path(tmp).iterdir() if p.is_dir())
        dest.parent.mkdir(parents=True, exist_ok=True)
        top.rename(dest)
    return dest


# --- reading back -------------------------------------------------------------------------------


def source_language(store: Store) -> str:
    store.declare(DDL)
    code = store.scalar("SELECT code FROM languages WHERE role = 'source'")
    if code is None:
        raise XelError(f"no corpus in {store.path}: run `xel corpus import` first")
    return str(code)


def target_languages(store: Store) -> list[str]:
    store.declare(DDL)
    rows = store.query("SELECT code FROM languages WHERE role = 'target' ORDER BY ordinal")
    return [r["code"] for r in rows]


def sentence_count(store: Store, lang: str) -> int:
    """How many sentences one language has (what sizes a stage's work)."""
    return int(store.scalar("SELECT COUNT(*) FROM sentences WHERE lang = ?", (lang,)))


def sentences(store: Store, lang: str) -> list[tuple[int, str, str]]:
    """(seg, doc_id, text) of one language, in corpus order."""
    rows = store.query(
        "SELECT seg, doc_id, text FROM sentences WHERE lang = ? ORDER BY seg", (lang,)
    )
    return [(r["seg"], r["doc_id"], r["text"]) for r in rows]


def document(store: Store, lang: str, doc_id: str) -> list[tuple[int, str]]:
    """(seg, text) of a document's sentences in one language, in order."""
    store.declare(DDL)
    rows = store.query("SELECT s.seg, s.text FROM documents d JOIN sentences s ON s.lang = ? AND"
                       " s.seg BETWEEN d.first_seg AND d.first_seg + d.n_segs - 1"
                       " WHERE d.doc_id = ? ORDER BY s.seg", (lang, doc_id))
    return [(r[0], r[1]) for r in rows]


def document_text(store: Store, lang: str, doc_id: str) -> str:
    """A document's text in one language: its sentences joined by newlines."""
    return "\n".join(text for _, text in document(store, lang, doc_id))
