"""Corpus readers and import: real NTREX-128, small Moses/WMT fixtures, and bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xel.config import Config
from xel.corpus import document_text, sentences, target_languages
from xel.errors import XelError
from xel.languages import canonical, is_unspaced, language
from xel.pipeline import run
from xel.stages import StageRun
from xel.store import Store

HOSTILE = '<script>alert(1)</script> "><img src=x onerror=alert(1)> Mr Smith'


def imported(store: Store, config: Config) -> StageRun:
    """Run the import stage."""
    [done] = run(store, config, ["import"])
    return done


def moses(make_config: Any, tmp: Path, files: dict[str, bytes], doc_ids: bytes) -> Config:
    for name, data in files.items():
        (tmp / name).write_bytes(data)
    (tmp / "docs.txt").write_bytes(doc_ids)
    return make_config(tmp, corpus={"path": str(tmp), "format": "moses", "source": "en",
                                     "files": {name.split(".")[-1]: name for name in files},
                                     "doc_ids": "docs.txt"})


def test_ntrex_import_keeps_documents_offsets_and_codes(shared_data: Path, tmp_path: Path,
                                                        make_config: Any) -> None:
    config = make_config(tmp_path, corpus={"path": str(shared_data / "ntrex128"),
                                           "languages": ["de", "zh-TW", "sr-Latn"]})
    with Store(tmp_path / "s.sqlite") as store:
        run = imported(store, config)
        assert run.summary == {"segments": 1997, "documents": 123, "languages": 4}
        assert target_languages(store) == ["deu", "zho-TW", "srp-Latn"]
        first = store.query("SELECT * FROM documents ORDER BY ordinal LIMIT 1")[0]
        assert first["doc_id"] == "bbc.381790" and first["first_seg"] == 0
        # Every sentence sits at its offset in the document text.
        for lang in ("eng", "zho-TW"):
            rows = store.query(
                "SELECT start, text FROM sentences WHERE lang = ? AND doc_id = 'bbc.381790'",
                (lang,),
            )
            doc = document_text(store, lang, "bbc.381790")
            for r in rows:
                assert doc[r["start"]:r["start"] + len(r["text"])] == r["text"]
        assert imported(store, config).skipped


def test_language_codes_and_aliases() -> None:
    known = ["eng", "deu", "zho-CN", "zho-TW", "srp-Latn", "srp-Cyrl", "arb"]
    assert canonical("de", known) == "deu"
    assert canonical("zh", known) == "zho-CN"
    assert canonical("zh-TW", known) == "zho-TW"
    assert canonical("ar", known) == "arb"
    assert canonical("SRP-latn", known) == "srp-Latn"
    assert language("zho-TW").script == "Hant"
    assert is_unspaced("jpn") and is_unspaced("tha") and not is_unspaced("deu")
    with pytest.raises(XelError, match="unknown language code 'xx'"):
        canonical("xx", known)
    with pytest.raises(XelError, match="not a language code"):
        language("german!")


def test_moses_reader_keeps_hostile_text_verbatim(tmp_path: Path, make_config: Any) -> None:
    config = moses(make_config, tmp_path, {
        "c.en": f"Hello Anna Smith.\r\n{HOSTILE}\n\nBye.\n".encode(),
        "c.de": "Hallo Anna Smith.\nX\n\nTschüss.\n".encode(),
    }, b"d1\nd1\nd2\nd2\n")
    with Store(tmp_path / "s.sqlite") as store:
        imported(store, config)
        eng = sentences(store, "eng")
        assert [t for _, _, t in eng] == ["Hello Anna Smith.", HOSTILE, "", "Bye."]
        assert [d for _, d, _ in eng] == ["d1", "d1", "d2", "d2"]
        assert document_text(store, "deu", "d2") == "\nTschüss."


def test_wmt_xml_reader(tmp_path: Path, make_config: Any) -> None:
    xml = """<?xml version="1.0" encoding="utf-8"?>
<dataset id="wmttest2022"><collection id="general">
 <doc id="news.1" origlang="en">
  <src lang="en"><p><seg id="1">Angela Merkel spoke.</seg>
                  <seg id="2">A &lt;b&gt; tag.</seg></p></src>
  <ref lang="de" translator="A"><p><seg id="1">Angela Merkel sprach.</seg>
                                  <seg id="2">Ein Tag.</seg></p></ref>
  <ref lang="de" translator="B"><p><seg id="1">B-Variante.</seg><seg id="2">B.</seg></p></ref>
 </doc>
 <doc id="news.2" origlang="en">
  <src lang="en"><p><seg id="1">Only English here.</seg></p></src>
 </doc>
</collection></dataset>"""
    path = tmp_path / "test.xml"
    path.write_text(xml, encoding="utf-8")
    config = make_config(tmp_path, corpus={"path": str(path), "format": "wmt-xml", "source": "en"})
    with Store(tmp_path / "s.sqlite") as store:
        run = imported(store, config)
        assert run.summary["documents"] == 2
        assert [t for _, _, t in sentences(store, "deu")] == ["Angela Merkel sprach.",
                                                             "Ein Tag.", ""]
        assert sentences(store, "eng")[1][2] == "A <b> tag."


def test_wmt_xml_refuses_entity_expansion(tmp_path: Path, make_config: Any) -> None:
    path = tmp_path / "bomb.xml"
    path.write_text('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]>'
                    '<dataset><doc id="x"><src lang="en"><seg id="1">&a;</seg></src></doc>'
                    "</dataset>")
    config = make_config(tmp_path, corpus={"path": str(path), "format": "wmt-xml", "source": "en"})
    with Store(tmp_path / "s.sqlite") as store, pytest.raises(XelError, match="unsafe XML"):
        imported(store, config)


@pytest.mark.parametrize(
    ("files", "doc_ids", "message"),
    [
        ({"c.en": b"a\nb\nc\n", "c.de": b"a\nb\n"}, b"d\nd\nd\n",
         r"c\.de has 2 lines but \S*docs\.txt has 3: \S*c\.de is shorter by 1"),
        # A line deleted in the middle of the document-id file: it is the shorter one.
        ({"c.en": b"a\nb\nc\nd\n", "c.de": b"a\nb\nc\nd\n"}, b"d\nd\nd\n",
         r"c\.en has 4 lines but \S*docs\.txt has 3: \S*docs\.txt is shorter by 1"),
        ({"c.en": b"a\nb\n", "c.de": b"a\n\xff\xfeb\n"}, b"d\nd\n",
         r"c\.de, line 2: invalid UTF-8 \(byte 0xff at column 1\)"),
        ({"c.en": b"", "c.de": b"a\n"}, b"d\n", r"c\.en: file is empty"),
        ({"c.en": b"a\nb\n", "c.de": b"a\nb\n"}, b"d1\n\n", r"docs\.txt, line 2: no document id"),
        ({"c.en": b"a\nb\nc\n", "c.de": b"a\nb\nc\n"}, b"d1\nd2\nd1\n", "document 'd1' is split"),
        ({"c.en": b"a\n", "c.qqq1": b"a\n"}, b"d\n", "not a language code"),
    ],
)
def test_bad_input_names_file_and_line_and_writes_nothing(
    tmp_path: Path, files: dict[str, bytes], doc_ids: bytes, message: str, make_config: Any
) -> None:
    (tmp_path / "good").mkdir()
    good = moses(make_config, tmp_path / "good", {"c.en": b"Good.\n", "c.de": b"Gut.\n"}, b"g\n")
    store = Store(tmp_path / "s.sqlite")
    imported(store, good)
    before = store.stage_digest("import")
    (tmp_path / "bad").mkdir()
    with pytest.raises(XelError, match=message):
        imported(store, moses(make_config, tmp_path / "bad", files, doc_ids))
    # The failed import left the earlier corpus and its signature untouched.
    assert [t for _, _, t in sentences(store, "eng")] == ["Good."]
    assert store.stage_digest("import") == before


def test_missing_corpus_path_says_how_to_get_it(tmp_path: Path, make_config: Any) -> None:
    config = make_config(tmp_path, corpus={"path": "nowhere"})
    with Store(tmp_path / "s.sqlite") as store, pytest.raises(XelError, match="corpus download"):
        imported(store, config)
