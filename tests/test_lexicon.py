"""The lexicon of Japanese names: how it is read from the Kyoto lexicon, found in text, and
answered by the round trip."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_project import pair, project
from test_triage import bare_config
from typer.testing import CliRunner

from xel.cli import _load_commands, app
from xel.errors import XelError
from xel.names.families import family
from xel.names.japanese import japanese_lexicon, lexicon_names, reads_as
from xel.names.lexicon import (
    Entry,
    NameLexicon,
    kyoto_entries,
    read_kyoto_csv,
    read_lexicon,
    split_surnames,
    write_lexicon,
)
from xel.translate import Translation, offline

ROWS = [
    ("日本語", "英語"),
    ("足利義満", "Yoshimitsu ASHIKAGA"),
    ("藤原道長", "FUJIWARA no Michinaga"),
    ("一条伊尹", "Koremasa/Koretada ICHIJO"),
    ("安閑天皇", "Emperor Ankan"),
    ("一条通", "Ichijo-dori Street"),  # a street
    ("従三位", "Jusanmi"),  # a rank: one word, not taken
    ("1月15日：成人祭", "15th January: Seijin-sai"),
    ("池上氏", "IKEGAMI"),  # a surname alone
]


def test_person_names_are_read_from_the_kyoto_lexicon() -> None:
    entries = kyoto_entries(ROWS, reads_as)
    assert {(e.surname, e.given, e.english) for e in entries} == {
        ("足利", "義満", "Yoshimitsu Ashikaga"),
        ("藤原", "道長", "Fujiwara no Michinaga"),
        ("一条", "伊尹", "Koremasa Ichijo"),  # the first of two readings
        ("", "安閑", "Ankan"),  # an emperor: the name without 天皇
    }


def test_surnames_part_by_reading_then_by_what_names_share() -> None:
    def never(written: str, english: str) -> bool:
        return False

    names = [("花山院師信", "Kazanin", "Moronobu", False),
             ("花山院定誠", "Kazanin", "Sadanobu", False),
             ("花山院忠長", "Kazanin", "Tadanaga", False)]
    assert {e.surname for e in split_surnames(names, never)} == {"花山院"}
    # Two names that share more than the surname (織田信長, 織田信忠) part where the
    # surname reads as the English.
    oda = [("織田信長", "Oda", "Nobunaga", False), ("織田信忠", "Oda", "Nobutada", False)]
    assert [e.surname for e in split_surnames(oda, reads_as)] == ["織田", "織田"]


def test_a_lexicon_is_written_the_same_way_and_read_back(tmp_path: Path) -> None:
    entries = kyoto_entries(ROWS, reads_as)
    one, two = tmp_path / "a.tsv.xz", tmp_path / "b.tsv.xz"
    assert write_lexicon(entries, one) == 4
    write_lexicon(kyoto_entries(list(reversed(ROWS)), reads_as), two)
    assert one.read_bytes() == two.read_bytes()  # the same names, the same bytes
    assert read_lexicon(one) == entries
    one.write_bytes(b"not xz")
    with pytest.raises(XelError, match="a.tsv.xz.*xel names lexicon"):
        read_lexicon(one)


def test_the_kyoto_csv_is_read_in_a_copy_of_the_corpus_and_bad_bytes_are_named(
        tmp_path: Path) -> None:
    folder = tmp_path / "wiki_corpus_2.01"
    folder.mkdir()
    (folder / "kyoto_lexicon.csv").write_text(
        "".join(f'"{j}","{e}",\n' for j, e in ROWS), encoding="utf-8")
    assert len(read_kyoto_csv(tmp_path, reads_as)) == 4
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("足利義満,Yoshimitsu ASHIKAGA\n".encode("shift_jis"))
    with pytest.raises(XelError, match="latin1.csv.*Kyoto lexicon"):
        read_kyoto_csv(bad, reads_as)


def test_lexicon_lookups_are_blind_to_order_voicing_and_long_vowels() -> None:
    lexicon = NameLexicon([Entry("北条", "時宗", "Hojo", "Tokimune"),
                           Entry("一条", "伊尹", "Ichijo", "Koremasa"),
                           Entry("一条", "伊尹", "Ichijo", "Koretada")],
                          japanese_lexicon().fold)
    assert lexicon.whole(["Tokimune", "Houjou"]) == {"北条時宗"}
    assert lexicon.parts("Hojo") == {"北条"} and lexicon.is_surname("北条")
    assert lexicon.english("北条時宗") == "Tokimune Hojo"
    assert lexicon.english("一条伊尹") is None  # two Englishes: no answer


@pytest.mark.parametrize(("text", "english", "found"), [
    ("足利義満は室町幕府の将軍。", ["Yoshimitsu", "Ashikaga"], ["足利義満"]),
    ("足利義満は", ["Yoshimitsu"], ["足利義満"]),  # a part of the name: the name as written
    ("太政大臣藤原道長の娘", ["Fujiwara", "no", "Michinaga"], ["藤原道長"]),  # rank left out
    ("藤原 道長が", ["Michinaga", "Fujiwara"], ["藤原 道長"]),
    ("安閑天皇の皇子", ["Ankan"], ["安閑"]),
    ("一条天皇の時代", ["Ichijo"], ["一条"]),
    ("一条通を歩く", ["Ichijo"], []),  # a street, not the name
    ("後一条天皇", ["Ichijo"], []),  # another emperor's name holds it
    ("天智天皇の妃", ["Tenji"], ["天智"]),  # the lexicon writes Tenchi
    ("後一条天皇", ["Go-Ichijo"], ["後一条"]),
    ("後一条天皇（ごいちじょう", ["Emperor", "Go", "Ichijo"], ["後一条"]),  # `Go-Ichijo`
    ("円融天皇女御", ["Enyu"], ["円融"]),  # consort of: a title after the name
    ("水野忠光の次男", ["Mizuno"], ["水野忠光"]),  # a surname and two kanji it lacks
    ("母は藤原道長女中宮藤原彰子。", ["Fujiwara", "no", "Shoshi"], ["藤原彰子"]),
    ("", ["Ichijo"], []),
    ("足利義満", [], []),
])
def test_names_the_lexicon_reads_as_the_english_are_found(text: str, english: list[str],
                                                          found: list[str]) -> None:
    assert [text[s:e] for s, e in lexicon_names(text, english)] == found


def test_a_name_the_lexicon_lacks_is_found_from_its_parts() -> None:
    lexicon = japanese_lexicon()
    assert "藤原義満" not in lexicon.whole(["Fujiwara", "Yoshimitsu"])
    text = "父は藤原義満である。"
    assert [text[s:e] for s, e in lexicon_names(text, ["Fujiwara", "no", "Yoshimitsu"])] == [
        "藤原義満"]


def test_projection_finds_a_listed_name_the_aligner_missed() -> None:
    text = "これは足利義満の時代の話である。"
    p = pair("This is a story of the time of Yoshimitsu Ashikaga.", text,
             {(8, 0), (9, 0)}, list(text))  # aligned with `こ`
    assert project(p, "Yoshimitsu Ashikaga", "jpn") == "足利義満"


def test_the_round_trip_answers_a_listed_name_with_its_english() -> None:
    assert family("jpn").known_english("足利 義満") == "Yoshimitsu Ashikaga"
    assert family("zho-CN").known_english("足利义满") is None
    out = offline(["足利義満", "ジョン"], "jpn", bare_config())
    assert out["足利義満"] == Translation("Yoshimitsu Ashikaga", "lexicon")
    assert out["ジョン"].method == "model"


def test_lexicon_command_writes_the_lexicon(tmp_path: Path) -> None:
    source = tmp_path / "kyoto_lexicon.csv"
    source.write_text("".join(f'"{j}","{e}",\n' for j, e in ROWS), encoding="utf-8")
    out = tmp_path / "japanese.names.tsv.xz"
    _load_commands()
    result = CliRunner().invoke(app, ["names", "lexicon", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(read_lexicon(out)) == 4
    empty = tmp_path / "empty.csv"
    empty.write_text('"日本語","英語",\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["names", "lexicon", str(empty), "--out", str(out)])
    assert isinstance(result.exception, XelError)
    assert "empty.csv: no person names" in str(result.exception)
