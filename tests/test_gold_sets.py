"""The annotated Chinese and Japanese gold sets: well-formed, and their builders' helpers."""

from __future__ import annotations

import csv
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_script

from xel.errors import XelError
from xel.evaluate import (
    annotated_halves,
    occurrence,
    read_span_gold,
    span_gold_row,
    write_span_gold,
)

ROOT = Path(__file__).resolve().parents[1]


def builder(name: str) -> ModuleType:
    return load_script(ROOT / "corpora" / name / "build.py", name)


@pytest.mark.parametrize(("name", "file", "named"), [
    ("kyoto_persons", "annotations.tsv", 180), ("kyoto_persons", "annotations-fresh.tsv", 108),
    ("kyoto_persons", "annotations-third.tsv", 117),
    ("kyoto_persons", "annotations-fourth.tsv", 126),
    ("kyoto_persons", "annotations-fifth.tsv", 110),
    ("kyoto_persons", "annotations-sixth.tsv", 102),
    ("kyoto_persons", "annotations-seventh.tsv", 95),
    ("kyoto_persons", "annotations-eighth.tsv", 106),
    ("nist_persons", "annotations.tsv", 71), ("wmt22_persons", "annotations.tsv", 235),
    ("tvsub_persons", "annotations.tsv", 176), ("tvsub_persons", "annotations-tune2.tsv", 126)])
def test_annotations_are_complete(name: str, file: str, named: int) -> None:
    with open(ROOT / "corpora" / name / file, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for row in rows:
        assert row["gold"], row
        assert int(row["en_end"]) - int(row["en_start"]) == len(row["english"]), row
    assert sum(r["gold"] not in ("ABSENT", "NOT_PERSON") for r in rows) == named


def test_kyoto_builder_recases_surnames_and_finds_the_kth_occurrence() -> None:
    kyoto = builder("kyoto_persons")
    assert kyoto.recase("Hideyoshi TOYOTOMI served Emperor GO-YOZEI II") == (
        "Hideyoshi Toyotomi served Emperor Go-yozei II")
    assert occurrence("父は山名教豊、または教豊の養子", "教豊#2") == (10, 12)
    with pytest.raises(XelError, match="ambiguous"):
        occurrence("教豊と教豊", "教豊")
    assert {kyoto.half(f"PNM{k:05d}") for k in range(40)} == {"tune", "heldout"}


def test_nist_builder_detokenizes_and_converts_links() -> None:
    nist = builder("nist_persons")
    assert nist.detok_zh("新华社 雅加达 3月 22日 电 ( 记者 麦 棠 源 )") == (
        "新华社雅加达3月22日电(记者麦棠源)")
    assert nist.detok_zh("F - 16 战机") == "F-16战机"
    assert nist.detok_en("Xinhua News Agency , Jakarta -LRB- Reporter -RRB- said .") == (
        "Xinhua News Agency, Jakarta (Reporter) said.")
    assert nist.links("0-0 1-0 3-4-P") == "0-0 1-0 3p4"
    assert nist.documents(["Powell to Hold Talks", "He said so .", "Another Headline Here",
                           "It went on ."]) == ["nist02-00", "nist02-00", "nist02-01",
                                                "nist02-01"]


def test_wmt22_builder_reads_the_general_collection_and_refuses_misaligned_documents() -> None:
    wmt = builder("wmt22_persons")
    xml = """<dataset><collection id="general"><doc id="news_1">
      <src lang="zh"><p><seg id="1">习近平 讲话 &lt;b&gt;</seg><seg id="2">好</seg></p></src>
      <ref lang="en" translator="A"><p><seg id="1">Xi Jinping  spoke</seg><seg id="2">Good
      </seg></p></ref><ref lang="en" translator="B"><p><seg id="1">no</seg></p></ref>
    </doc></collection><collection id="other"><doc id="x"/></collection></dataset>"""
    assert wmt.documents(xml) == {"news_1": [("Xi Jinping spoke", "习近平 讲话 <b>"),
                                             ("Good", "好")]}
    with pytest.raises(SystemExit, match="news_1"):
        wmt.documents(xml.replace('<seg id="2">Good', '<seg id="3">Good'))
    assert wmt.is_news("news_1") and not wmt.is_news("social_9")


def test_tvsub_builder_strips_subtitle_formatting_and_halves_by_episode() -> None:
    tvsub = builder("tvsub_persons")
    assert tvsub.FORMATTING.sub("", ",,0000,0000,0000,,-然后送给罗斯") == "-然后送给罗斯"
    assert tvsub.FORMATTING.sub("", "罗斯,,0000,0000,0000,,") == "罗斯,,0000,0000,0000,,"
    episodes = tvsub.gold_episodes()
    assert len(set(episodes)) == tvsub.EPISODES and episodes == tvsub.gold_episodes()
    halves = {tvsub.half(f"tvsub.{n}") for n in episodes}
    assert halves == {"tune", "heldout"}
    with open(ROOT / "corpora" / "tvsub_persons" / "annotations.tsv", encoding="utf-8") as f:
        docs = {row["doc"] for row in csv.DictReader(f, delimiter="\t")}
    assert docs <= {f"tvsub.{n}" for n in episodes}
    second = tvsub.second_episodes(101)
    assert len(set(second)) == tvsub.EPISODES and min(second) > 101
    assert not set(second) & set(episodes)
    with open(ROOT / "corpora" / "tvsub_persons" / "annotations-tune2.tsv",
              encoding="utf-8") as f:
        assert {row["doc"] for row in csv.DictReader(f, delimiter="\t")} <= {
            f"tvsub.{n}" for n in second}


def test_annotations_become_halves_and_a_misplaced_one_is_named(tmp_path: Path) -> None:
    rows = [("d1", "Ross met Rachel.", "罗斯见了瑞秋。"), ("d2", "Hi, Ross.", "嗨，罗斯。")]
    path = tmp_path / "annotations.tsv"
    path.write_text("line\tdoc\ten_start\ten_end\tenglish\tgold\tnote\n"
                    "0\td1\t9\t15\tRachel\t瑞秋\t\n1\td2\t4\t8\tRoss\tABSENT\t\n",
                    encoding="utf-8")
    gold = annotated_halves(path, rows, "zho-CN", lambda doc: "tune" if doc == "d1" else "heldout")
    assert gold == {"tune": [["zho-CN", "0", "9", "15", "Rachel", "瑞秋", "4", "6"]],
                    "heldout": [["zho-CN", "1", "4", "8", "Ross", "ABSENT", "", ""]]}
    bare = tmp_path / "bare.tsv"  # a file without the `doc` column: the English alone is checked
    bare.write_text("line\ten_start\ten_end\tenglish\tgold\n1\t4\t8\tRoss\t罗斯\n",
                    encoding="utf-8")
    assert annotated_halves(bare, rows, "zho-CN", lambda doc: "tune")["tune"] == [
        ["zho-CN", "1", "4", "8", "Ross", "罗斯", "2", "4"]]
    with pytest.raises(XelError, match=r"annotations\.tsv: 'Rachel' is not at 9-15 of line 0"):
        annotated_halves(path, [("d1", "Ross met Monica.", "")] + rows[1:], "zho-CN",
                         lambda doc: "tune")


def test_builders_write_span_gold_that_reads_back(tmp_path: Path) -> None:
    rows = [span_gold_row("zho-CN", 3, 0, 6, "Arafat", "阿拉法#2", "阿拉法说阿拉法"),
            span_gold_row("zho-CN", 4, 0, 5, "Gaza", "NOT_PERSON", "加沙")]
    assert rows[0][5:] == ["阿拉法", "4", "7"] and rows[1][5:] == ["NOT_PERSON", "", ""]
    write_span_gold(tmp_path / "g.tsv", "test mentions", rows)
    back = read_span_gold(tmp_path / "g.tsv")
    assert [(g.seg, g.gold, g.start, g.end) for g in back] == [(3, "阿拉法", 4, 7),
                                                                (4, "NOT_PERSON", None, None)]


def test_kyoto_alignment_gold_reads_and_its_halves_share_no_article() -> None:
    from xel.evaluate import read_alignment_gold

    folder = ROOT / "corpora" / "kyoto_persons" / "alignment"
    halves = {}
    for half, size in (("tune", 51), ("heldout", 49)):
        gold = read_alignment_gold(folder / f"{half}.src-tgt", folder / f"{half}.gold")
        assert len(gold) == size and all(g.sure and g.sure <= g.possible for g in gold)
        with open(folder / f"{half}.pairs.tsv", encoding="utf-8") as f:
            pairs = list(csv.DictReader(f, delimiter="\t"))
        assert len(pairs) == size
        halves[half] = {p["doc"] for p in pairs}
    assert not halves["tune"] & halves["heldout"]
