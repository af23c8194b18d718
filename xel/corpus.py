"""Multi-way parallel corpora: readers for NTREX-128, WMT XML and Moses-style files, and import.

A corpus is a sequence of segments; segment `seg` of every language is a translation of the
same source sentence (sentence alignment is shared segment numbers), and every segment belongs
to a document. Readers stream `Segment`s; `import_corpus` writes them in one transaction, so a
bad line anywhere leaves the store as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET

from xel.config import Config, CorpusConfig
from xel.errors import XelError
from xel.languages import canonical, language
from xel.progress import progress
from xel.registry import corpus_readers
from xel.stages import Work, digest_of, file_digest, versions
from xel.store import Store
from xel.textfile import read_lines

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
CREATE INDEX IF NOT EXISTS sentences_doc ON sentences(lang, doc_id, pos);
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


def read_corpus_lines(path: Path) -> list[str]:
    """A corpus file's lines; an empty file is an error (see `textfile.read_lines`)."""
    lines = read_lines(path, "corpus file")
    if not any(line.strip() for line in lines):
        raise XelError(f"{path}: file is empty: a corpus file needs one line per segment")
    return lines


def _aligned(files: dict[str, Path], doc_file: Path, doc_column: int = 0) -> Iterator[Segment]:
    """Segments from line-aligned files plus a document-id file, after checking line counts."""
    doc_lines = read_corpus_lines(doc_file)
    doc_ids = []
    for number, line in enumerate(doc_lines, start=1):
        fields = line.split("\t")
        doc_id = fields[doc_column].strip() if len(fields) > doc_column else ""
        if not doc_id:
            raise XelError(f"{doc_file}, line {number}: no document id")
        doc_ids.append(doc_id)
    texts: dict[str, list[str]] = {}
    for lang, path in files.items():
        lines = read_corpus_lines(path)
        if len(lines) != len(doc_ids):
            shorter = path if len(lines) < len(doc_ids) else doc_file
            raise XelError(
                f"{path} has {len(lines)} lines but {doc_file} has {len(doc_ids)}: {shorter} is "
                f"shorter by {abs(len(lines) - len(doc_ids))} (a line lost or joined somewhere "
                "in it); the files must be line-aligned, one segment per line"
            )
        texts[lang] = lines
    for i, doc_id in enumerate(doc_ids):
        yield Segment(doc_id, {lang: lines[i] for lang, lines in texts.items()})


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
    """Line-aligned files, one per language (`files:` in the config), plus a doc-id file."""
    if not config.files or not config.doc_ids:
        raise XelError(
            "corpus.format moses needs corpus.files (language code -> file) and "
            "corpus.doc_ids (one document id per line)"
        )
    found = {canonical(code): path / file for code, file in config.files.items()}
    for code in found:
        language(code)
    chosen = _select(list(found), config, path)
    files = {code: found[code] for code in chosen}
    return CorpusSource(chosen, files, _aligned(files, path / config.doc_ids))


@corpus_readers.register("wmt-xml")
def read_wmt_xml(path: Path, config: CorpusConfig) -> CorpusSource:
    """WMT 2021+ XML: `<doc id>` with `<src lang>` and `<ref lang>` of `<seg id>` segments.

    Parsed with defusedxml (entity expansion and external entities are refused). Where a
    document has several references for one language, the first is used.
    """
    if not path.is_file():
        raise XelError(f"{path}: WMT XML is one file")
    try:
        root = SafeET.parse(path).getroot()
    except SafeET.ParseError as e:
        line, column = e.position
        raise XelError(f"{path}, line {line}, column {column}: not well-formed XML: {e}") from None
    except UnicodeDecodeError:
        raise XelError(f"{path}: invalid UTF-8: convert the file to UTF-8") from None
    except DefusedXmlException as e:
        raise XelError(
            f"{path}: refused unsafe XML ({e}): WMT files need no DTD or entities"
        ) from None
    docs: list[tuple[str, dict[str, dict[str, str]]]] = []
    seen: list[str] = []
    for doc in root.iter("doc"):
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
            if code in sides:
                continue
            sides[code] = {seg.get("id", ""): "".join(seg.itertext()) for seg in side.iter("seg")}
            if code not in seen:
                seen.append(code)
        docs.append((doc_id, sides))
    if not docs:
        raise XelError(f"{path}: no <doc> elements: is this a WMT XML test set?")
    chosen = _select(seen, config, path)
    source = chosen[0]

    def segments() -> Iterator[Segment]:
        for doc_id, sides in docs:
            if source not in sides:
                raise XelError(f"{path}: doc {doc_id} has no {source} side")
            for seg_id, text in sides[source].items():
                yield Segment(
                    doc_id, {c: sides.get(c, {}).get(seg_id, "") if c != source else text
                             for c in chosen}
                )

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


def import_signature(store: Store, config: Config) -> dict[str, str]:
    """The corpus settings and the digest of every file read."""
    source = read_source(config)
    parts = {"config": digest_of(config.corpus), **versions()}
    for code, file in source.files.items():
        parts[f"file:{code}"] = file_digest(file)
    return parts


def import_corpus(store: Store, config: Config) -> Work:
    """The import stage: read the configured corpus; its writer replaces the store's corpus."""
    store.declare(DDL)
    source = read_source(config)
    return lambda s: _write(s, source)


def _write(store: Store, source: CorpusSource) -> dict[str, Any]:
    for table in ("sentences", "documents", "languages"):
        store.execute(f"DELETE FROM {table}")
    doc_order: dict[str, int] = {}
    doc_first: dict[str, int] = {}
    doc_count: dict[str, int] = {}
    offsets: dict[tuple[str, str], int] = {}
    non_empty = dict.fromkeys(source.languages, 0)
    rows = []
    seg = -1
    for seg, segment in enumerate(progress(source.segments, "import segments")):
        doc = segment.doc_id
        if doc not in doc_order:
            doc_order[doc] = len(doc_order)
            doc_first[doc] = seg
            doc_count[doc] = 0
        elif doc_first[doc] + doc_count[doc] != seg:
            raise XelError(
                f"document {doc!r} is split: its segments must be consecutive (segment {seg + 1})"
            )
        pos = doc_count[doc]
        doc_count[doc] += 1
        for lang in source.languages:
            text = segment.texts.get(lang, "")
            start = offsets.get((lang, doc), 0)
            offsets[(lang, doc)] = start + len(text) + 1
            non_empty[lang] += bool(text.strip())
            rows.append((lang, seg, doc, pos, start, text))
        if len(rows) >= 50_000:
            store.executemany("INSERT INTO sentences VALUES (?, ?, ?, ?, ?, ?)", rows)
            rows = []
    store.executemany("INSERT INTO sentences VALUES (?, ?, ?, ?, ?, ?)", rows)
    if seg < 0:
        raise XelError("the corpus has no segments")
    store.executemany(
        "INSERT INTO documents VALUES (?, ?, ?, ?)",
        [(d, doc_order[d], doc_first[d], doc_count[d]) for d in doc_order],
    )
    for ordinal, code in enumerate(source.languages):
        info = language(code)
        store.execute(
            "INSERT INTO languages VALUES (?, ?, ?, ?, ?, ?, ?)",
            (code, "source" if ordinal == 0 else "target", info.script, info.name,
             str(source.files[code]), non_empty[code], ordinal),
        )
    return {"segments": seg + 1, "documents": len(doc_order), "languages": len(source.languages)}


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


def sentences(store: Store, lang: str) -> list[tuple[int, str, str]]:
    """(seg, doc_id, text) of one language, in corpus order."""
    rows = store.query(
        "SELECT seg, doc_id, text FROM sentences WHERE lang = ? ORDER BY seg", (lang,)
    )
    return [(r["seg"], r["doc_id"], r["text"]) for r in rows]


def document(store: Store, lang: str, doc_id: str) -> list[tuple[int, str]]:
    """(seg, text) of a document's sentences in one language, in order."""
    store.declare(DDL)
    rows = store.query("SELECT seg, text FROM sentences WHERE lang = ? AND doc_id = ? "
                       "ORDER BY pos", (lang, doc_id))
    return [(r[0], r[1]) for r in rows]


def document_text(store: Store, lang: str, doc_id: str) -> str:
    """A document's text in one language: its sentences joined by newlines."""
    rows = store.query(
        "SELECT text FROM sentences WHERE lang = ? AND doc_id = ? ORDER BY pos", (lang, doc_id)
    )
    return "\n".join(r["text"] for r in rows)
