"""Large corpora: TMX and per-session inputs, readers that stream (memory counted, not timed),
imports and NER that resume after an interruption, and the compact alignment store."""

from __future__ import annotations

import pickle
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_queries import small_config

import xel.corpus
import xel.ner
from xel.align import Texts, decode_links, decode_spans, eflomal, encode_links, encode_spans
from xel.config import AlignConfig, Config, ExecutorConfig
from xel.corpus import document_text, read_source, sentences
from xel.errors import XelError
from xel.executors import LocalExecutor, executor
from xel.pipeline import run, status
from xel.progress import rate_text
from xel.store import Store

TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
<header creationtool="opus" srclang="en" datatype="plaintext" segtype="sentence" o-tmf="x"
        adminlang="en"/>
<body>
  <tu tuid="1"><prop type="x-doc">ep-00-01-17</prop>
    <tuv xml:lang="en">
      <seg>Mrs Lynne spoke <bpt i="1">&lt;b&gt;</bpt>first<ept i="1">&lt;/b&gt;</ept>.</seg></tuv>
    <tuv xml:lang="de"><seg>Frau Lynne sprach <hi>zuerst</hi>.</seg></tuv>
  </tu>
  <tu tuid="2"><prop type="x-doc">ep-00-01-17</prop>
    <tuv xml:lang="en"><seg>&lt;script&gt;alert(1)&lt;/script&gt; Mr Smith</seg></tuv>
  </tu>
  <tu tuid="3"><prop type="x-doc">ep-00-01-18</prop>
    <tuv lang="DE"><seg>Herr Barón Crespo.</seg></tuv>
    <tuv xml:lang="en"><seg>Mr Barón Crespo.</seg></tuv>
  </tu>
</body></tmx>
"""


def tmx_config(make_config: Any, tmp: Path, text: str = TMX, **corpus: Any) -> Config:
    (tmp / "c.tmx").write_text(text, encoding="utf-8")
    return make_config(tmp, corpus={"path": str(tmp / "c.tmx"), "format": "tmx",
                                    "source": "en", **corpus})


def test_tmx_reader_takes_units_languages_and_documents(tmp_path: Path,
                                                        make_config: Any) -> None:
    config = tmx_config(make_config, tmp_path)
    with Store(tmp_path / "s.sqlite") as store:
        [done] = run(store, config, ["import"])
        assert done.summary == {"segments": 3, "documents": 2, "languages": 2}
        eng = sentences(store, "eng")
        # Inline codes (<bpt>, <ept>) are markup, not text; escaped text stays verbatim.
        assert [t for _, _, t in eng] == ["Mrs Lynne spoke first.",
                                          "<script>alert(1)</script> Mr Smith", "Mr Barón Crespo."]
        assert [d for _, d, _ in eng] == ["ep-00-01-17", "ep-00-01-17", "ep-00-01-18"]
        # A language missing from a unit is an empty segment there; `lang` (TMX 1.1) works.
        assert document_text(store, "deu", "ep-00-01-17") == "Frau Lynne sprach zuerst.\n"
        assert document_text(store, "deu", "ep-00-01-18") == "Herr Barón Crespo."


def test_tmx_document_ids_from_a_file_or_an_error_saying_how(tmp_path: Path,
                                                             make_config: Any) -> None:
    plain = TMX.replace('<prop type="x-doc">ep-00-01-17</prop>', "").replace(
        '<prop type="x-doc">ep-00-01-18</prop>', "")
    (tmp_path / "ids.txt").write_text("a\na\nb\n", encoding="utf-8")
    config = tmx_config(make_config, tmp_path, plain, doc_ids="ids.txt")
    assert [s.doc_id for s in read_source(config).segments] == ["a", "a", "b"]
    (tmp_path / "ids.txt").write_text("a\na\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"ids\.txt, line 3: no document id"):
        list(read_source(config).segments)
    config = tmx_config(make_config, tmp_path, plain)
    with pytest.raises(XelError, match=r"<tu> number 1 has no <prop type=\"x-doc\">.*doc_ids"):
        list(read_source(config).segments)
    config = tmx_config(make_config, tmp_path, TMX.replace("</body>", ""))
    with pytest.raises(XelError, match=r"c\.tmx, line \d+, column \d+: not well-formed XML"):
        list(read_source(config).segments)


def test_per_session_folders_are_documents(tmp_path: Path, make_config: Any) -> None:
    sessions = {"en": ["Hello.", "Mr Pöttering spoke."], "de": ["Hallo.", "Herr X."]}
    for lang, lines in sessions.items():
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "ep-00-01-17.txt").write_text("\n".join(lines) + "\n", "utf-8")
        (tmp_path / lang / "ep-00-01-18.txt").write_text("Bye.\n", "utf-8")
    config = make_config(tmp_path, corpus={"path": str(tmp_path), "format": "moses",
                                           "source": "en", "files": {"en": "en", "de": "de"}})
    with Store(tmp_path / "s.sqlite") as store:
        [done] = run(store, config, ["import"])
        assert done.summary["documents"] == 2
        assert document_text(store, "deu", "ep-00-01-17") == "Hallo.\nHerr X."
        # A session missing in one language, or a line short, is an error naming the file.
        (tmp_path / "de" / "ep-00-01-18.txt").unlink()
        with pytest.raises(XelError, match=r"de/ep-00-01-18\.txt: missing"):
            run(store, config, ["import"])
        (tmp_path / "de" / "ep-00-01-18.txt").write_text("", "utf-8")
        with pytest.raises(XelError, match=r"ep-00-01-18\.txt: file is empty"):
            run(store, config, ["import"])


# --- streaming: memory counted ---------------------------------------------------------------

LINES = 60_000


def large_moses(tmp: Path, make_config: Any, bad_line: int | None = None) -> Config:
    """A 60,000-line English-German corpus of about 9 MB, 600 documents."""
    with (tmp / "c.en").open("wb") as en, (tmp / "c.de").open("wb") as de, \
            (tmp / "docs").open("w") as docs:
        for k in range(LINES):
            en.write(f"Sentence {k} where Angela Merkel met Emmanuel Macron again.\n".encode())
            line = f"Satz {k}, in dem Angela Merkel Emmanuel Macron wieder traf.\n".encode()
            de.write(b"\xff" + line if k + 1 == bad_line else line)
            docs.write(f"doc{k // 100}\n")
    return make_config(tmp, corpus={"path": str(tmp), "format": "moses", "source": "en",
                                    "files": {"en": "c.en", "de": "c.de"}, "doc_ids": "docs"})


def peak_bytes(fn: Callable[[], None]) -> int:
    """The most memory allocated at once while `fn` runs (tracemalloc's count)."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def drain(segments: Iterator[Any]) -> None:
    for _ in segments:
        pass


def test_readers_stream_large_files_in_bounded_memory(tmp_path: Path, make_config: Any) -> None:
    config = large_moses(tmp_path, make_config)
    size = (tmp_path / "c.en").stat().st_size + (tmp_path / "c.de").stat().st_size
    moses = peak_bytes(lambda: drain(read_source(config).segments))
    # WMT XML and TMX of the same text, read incrementally.
    with (tmp_path / "big.xml").open("w") as f:
        f.write('<dataset id="x"><collection id="c">')
        for d in range(LINES // 100):
            f.write(f'<doc id="doc{d}"><src lang="en"><p>')
            f.write("".join(f'<seg id="{k}">Sentence {k} where A met B.</seg>'
                            for k in range(100)))
            f.write('</p></src><ref lang="de"><p>')
            f.write("".join(f'<seg id="{k}">Satz {k}, in dem A B traf.</seg>'
                            for k in range(100)))
            f.write("</p></ref></doc>")
        f.write("</collection></dataset>")
    with (tmp_path / "big.tmx").open("w") as f:
        f.write('<tmx version="1.4"><header srclang="en"/><body>')
        for k in range(LINES):
            f.write(f'<tu><prop type="x-doc">doc{k // 100}</prop><tuv xml:lang="en"><seg>'
                    f"Sentence {k} where A met B.</seg></tuv><tuv xml:lang=\"de\"><seg>Satz {k},"
                    " in dem A B traf.</seg></tuv></tu>\n")
        f.write("</body></tmx>")
    wmt = make_config(tmp_path, corpus={"path": str(tmp_path / "big.xml"), "format": "wmt-xml",
                                        "source": "en"})
    tmx = make_config(tmp_path, corpus={"path": str(tmp_path / "big.tmx"), "format": "tmx",
                                        "source": "en"})
    counts = {}
    for name, cfg in {"wmt": wmt, "tmx": tmx}.items():
        counts[name] = sum(1 for _ in read_source(cfg).segments)
        assert counts[name] == LINES
    peaks = {name: peak_bytes(lambda cfg=cfg: drain(read_source(cfg).segments))
             for name, cfg in {"wmt": wmt, "tmx": tmx}.items()}
    # Whole files would need several MB (the text alone is ~9 MB); a streaming reader holds a
    # line, a document or a unit (the parser's buffers are tens of KB).
    assert size > 7_000_000
    assert moses < 300_000, moses
    assert peaks["wmt"] < 1_000_000 and peaks["tmx"] < 1_000_000, peaks


def test_import_memory_is_bounded_by_the_batch(tmp_path: Path, make_config: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    config = large_moses(tmp_path, make_config)
    store = Store(tmp_path / "s.sqlite")
    monkeypatch.setattr(xel.corpus, "IMPORT_BATCH", 2_000)
    small = peak_bytes(lambda: run(store, config, ["import"], force=True))
    monkeypatch.setattr(xel.corpus, "IMPORT_BATCH", 20_000)
    large = peak_bytes(lambda: run(store, config, ["import"], force=True))
    assert store.scalar("SELECT COUNT(*) FROM sentences") == 2 * LINES
    # Ten times the batch, several times the memory: what is held is the batch, not the corpus.
    assert large > 3 * small, (small, large)
    assert small < 3_000_000, small


# --- interrupted and resumed ----------------------------------------------------------------


def test_an_interrupted_import_resumes_after_its_last_batch(
        tmp_path: Path, make_config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    config = large_moses(tmp_path, make_config)
    monkeypatch.setattr(xel.corpus, "IMPORT_BATCH", 10_000)
    seen: list[int] = []
    add = xel.corpus._add

    def crash_at(limit: int) -> Callable[..., None]:
        def counted(store: Store, state: Any, *args: Any) -> None:
            seen.append(1)
            if len(seen) == limit:
                raise KeyboardInterrupt  # the machine went down in the middle of a batch
            add(store, state, *args)
        return counted

    store = Store(tmp_path / "s.sqlite")
    monkeypatch.setattr(xel.corpus, "_add", crash_at(35_000))
    with pytest.raises(KeyboardInterrupt):
        run(store, config, ["import"])
    # Three batches are committed; the stage is not recorded, so nothing downstream runs.
    assert store.scalar("SELECT COUNT(*) FROM sentences WHERE lang = 'eng'") == 30_000
    assert store.stage("import") is None
    seen.clear()
    monkeypatch.setattr(xel.corpus, "_add", crash_at(0))
    [done] = run(store, config, ["import"])
    assert len(seen) == LINES - 30_000  # resumed: only the segments not committed are added
    assert done.summary == {"segments": LINES, "documents": LINES // 100, "languages": 2}
    fresh = Store(tmp_path / "fresh.sqlite")
    run(fresh, config, ["import"])
    for sql in ("SELECT * FROM sentences ORDER BY lang, seg",
                "SELECT * FROM documents ORDER BY ordinal"):
        assert [tuple(r) for r in store.query(sql)] == [tuple(r) for r in fresh.query(sql)]
    assert store.stage_digest("import") == fresh.stage_digest("import")


def test_a_bad_line_deep_in_a_large_file_names_file_and_line(
        tmp_path: Path, make_config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    config = large_moses(tmp_path, make_config, bad_line=54_321)
    monkeypatch.setattr(xel.corpus, "IMPORT_BATCH", 10_000)
    store = Store(tmp_path / "s.sqlite")
    with pytest.raises(XelError, match=r"c\.de, line 54321: invalid UTF-8 \(byte 0xff"):
        run(store, config, ["import"])
    assert store.stage("import") is None
    with pytest.raises(XelError, match="stage 'import' has not run"):
        run(store, config, ["ner"])
    large_moses(tmp_path, make_config)  # fixed: a new input, imported from the start
    [done] = run(store, config, ["import"])
    assert done.summary["segments"] == LINES
    assert store.scalar("SELECT COUNT(*) FROM import_progress") == 0


def test_an_interrupted_ner_resumes_after_its_last_chunk(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    config = small_config(tmp_path)
    config.ner.chunk_size = 1
    with Store(tmp_path / "s.sqlite") as store:
        run(store, config, ["import"])
        run(store, config, ["ner"])
        clean = [tuple(r) for r in store.query("SELECT * FROM mentions ORDER BY mention_id")]
        chunk = xel.ner.ner_chunk
        calls: list[int] = []

        def failing(*args: Any) -> Any:
            calls.append(args[-1][0][0])
            if len(calls) == 3:
                raise RuntimeError("worker lost")
            return chunk(*args)

        monkeypatch.setattr(xel.ner, "ner_chunk", failing)
        with pytest.raises(RuntimeError):
            run(store, config, ["ner"], force=True)
        assert store.scalar("SELECT COUNT(*) FROM ner_batches") == 2
        calls.clear()
        run(store, config, ["ner"], force=True)
        assert calls == [3, 4]  # documents d3 and d4 (segments 3, 4) only
        assert [tuple(r) for r in store.query("SELECT * FROM mentions ORDER BY mention_id")
                ] == clean
        assert store.scalar("SELECT COUNT(*) FROM ner_staged") == 0


def test_small_work_runs_in_this_process() -> None:
    config = ExecutorConfig(workers=2, in_process_below=5000)
    with executor(config, 1997) as ex:
        assert isinstance(ex, LocalExecutor) and ex.workers == 1
    with executor(config, 100_000) as ex:
        assert ex.workers == 2


# --- the compact alignment store --------------------------------------------------------------


def test_tokens_and_links_round_trip_compactly() -> None:
    spans = [(0, 5), (6, 11), (11, 12), (300, 420), (421, 100_000)]
    links = {(0, 0), (1, 2), (2, 1), (4, 300), (200, 3)}
    assert decode_spans(encode_spans(spans)) == spans
    assert decode_links(encode_links(links)) == links
    assert decode_spans(encode_spans([])) == [] and decode_links(encode_links(set())) == set()
    text = " ".join(f"{s}:{e}" for s, e in spans[:3])
    assert len(encode_spans(spans[:3])) < len(text) / 2


def test_job_texts_are_held_compressed_and_read_back_every_sentence() -> None:
    """An alignment job carries its sentences compressed block by block (held as a million
    strings each, the 1M build's alignment peaked at 5.4 GiB): every sentence reads back as
    it was, in order, backwards and across block edges, empty ones and ones no codec likes
    included; what is held and pickled is less than their UTF-8 bytes (counted with
    tracemalloc), and a pickled copy does not carry the open block."""
    kinds = ["Kim Jong-un a rencontré Trump.", "", "金正恩与特朗普会面。", "Ελλάδα  ",
             "lone \udcff surrogate", "کلنٹن"]
    for n in (6000, 2 * Texts.BLOCK, 1):
        sentences = [f"{kinds[k % 6]} {k}" if k % 6 != 1 else "" for k in range(n)]
        utf8 = sum(len(t.encode("utf-8", "surrogatepass")) for t in sentences)
        tracemalloc.start()
        texts = Texts(iter(sentences))
        held, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert len(texts) == n and list(texts) == sentences
        assert [texts[k] for k in reversed(range(n))] == sentences[::-1]
        assert texts[-1] == sentences[-1]
        with pytest.raises(IndexError):
            texts[n]
        if n > 1:
            assert held < utf8 / 2 and len(pickle.dumps(texts)) < utf8 / 2
        copy = pickle.loads(pickle.dumps(texts))
        assert copy._open == (-1, b"") and list(copy) == sentences
    assert list(Texts([])) == [] and len(Texts(["", ""])) == 2 and list(Texts(["", ""])) == ["", ""]


def test_eflomal_keeps_the_wanted_pairs_links_as_a_full_run_has_them() -> None:
    src = [["the", "house", "is", "small"], ["the", "house"], [], ["small", "house"]] * 5
    tgt = [["das", "haus", "ist", "klein"], ["das", "haus"], ["leer"], ["kleines", "haus"]] * 5
    config = AlignConfig()
    full = list(eflomal(src, tgt, config))
    wanted = [3, 0, 2, 17]
    assert list(eflomal(src, tgt, config, wanted)) == [full[k] for k in wanted]
    assert full[2] == set() and full[0]


def test_stages_shows_how_far_an_interrupted_import_got(
        tmp_path: Path, make_config: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    config = large_moses(tmp_path, make_config)
    monkeypatch.setattr(xel.corpus, "IMPORT_BATCH", 10_000)
    add = xel.corpus._add

    def crash(store: Store, state: Any, *args: Any) -> None:
        if state.segments == 20_000:
            raise KeyboardInterrupt
        add(store, state, *args)

    store = Store(tmp_path / "s.sqlite")
    monkeypatch.setattr(xel.corpus, "_add", crash)
    with pytest.raises(KeyboardInterrupt):
        run(store, config, ["import"])
    rows = {s.name: s for s in status(store, config)}
    assert rows["import"].state == "under way"
    assert rows["import"].why.startswith("20,000 segments")
    assert "segments/s" in rows["import"].why and "goes on from there" in rows["import"].why
    assert rows["ner"].state == "never run"


def test_rate_text_says_rate_and_time_left() -> None:
    assert rate_text(40_000, 100_000, 40, "sentences") == (
        "40,000 of 100,000 sentences, 1,000 sentences/s, about 60 s left")
    assert rate_text(0, None, 0, "segments") == "0 segments"
    assert rate_text(1_000, 1_000_000, 1, "sentences").endswith("about 17 min left")
