"""Evaluation: gold readers (alignments, parallel CoNLL NER), Figure 3 categories, the CLI."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from xel.errors import XelError
from xel.evaluate import (
    GoldMention,
    Outcome,
    alignment_gold_mentions,
    capitalized_spans,
    category,
    pair_persons,
    person_spans,
    read_alignment_gold,
    read_conll,
    summarize,
)
from xel.names.match import NameMatcher


def test_person_spans_in_every_tag_scheme() -> None:
    assert person_spans(["B-PER", "I-PER", "O", "B-PER", "B-PER"]) == [(0, 1), (3, 3), (4, 4)]
    assert person_spans(["I-PER", "I-PER", "O", "I-PER", "B-PER"]) == [(0, 1), (3, 3), (4, 4)]
    assert person_spans(["B-PERSON", "E-PERSON", "S-PER", "O", "B-LOC"]) == [(0, 1), (2, 2)]
    assert person_spans(["U-PER", "B-PER", "L-PER"]) == [(0, 0), (1, 2)]
    assert person_spans(["PER", "PER", "O", "I-ORG"]) == [(0, 1)]
    assert person_spans(["B-ORG", "I-PER"]) == [(1, 1)]
    assert person_spans([]) == []


def test_read_conll_is_tolerant(tmp_path: Path) -> None:
    iob2 = tmp_path / "en.conll"
    iob2.write_text("\ufeff-DOCSTART- -X- O O\n\nDonald\tNNP\tB-PER\nTrump\tNNP\tI-PER\n"
                    "spoke\tVBD\tO\n\n\n\nMerkel B-PERSON\nlistened O\n", encoding="utf-8")
    sentences = read_conll(iob2)
    assert [s.tokens for s in sentences] == [["Donald", "Trump", "spoke"], ["Merkel", "listened"]]
    assert [s.persons for s in sentences] == [[(0, 1)], [(0, 0)]]
    bioes = tmp_path / "de.conll"
    bioes.write_text("Donald S-PER\nTrump S-PER\n\nAngela B-PER\nMerkel E-PER\n",
                     encoding="utf-8")
    assert [s.persons for s in read_conll(bioes)] == [[(0, 0), (1, 1)], [(0, 1)]]
    broken = tmp_path / "broken.conll"
    broken.write_text("Donald B-PER\nTrump\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"broken.conll, line 2"):
        read_conll(broken)


def test_alignment_gold_index_base_and_side(tmp_path: Path) -> None:
    sents = tmp_path / "s.txt"
    links = tmp_path / "g.txt"
    sents.write_text("de Cornel Nistorescu ||| by Cornel Nistorescu\n", encoding="utf-8")
    links.write_text("1-1 2-2 3p3\n", encoding="utf-8")
    gold = read_alignment_gold(sents, links, english="tgt")
    assert gold[0].src == ["by", "Cornel", "Nistorescu"]
    assert gold[0].sure == {(0, 0), (1, 1)} and gold[0].possible == {(0, 0), (1, 1), (2, 2)}
    links.write_text("0-0 3-3\n", encoding="utf-8")
    with pytest.raises(XelError, match="is the file 1-based"):
        read_alignment_gold(sents, links)
    links.write_text("1-1\n\n", encoding="utf-8")
    with pytest.raises(XelError, match="has 2 lines but"):
        read_alignment_gold(sents, links)


def test_shared_gold_is_one_based_like_the_wpt_file(shared_data: Path) -> None:
    folder = shared_data / "align_gold" / "en-fr"
    gold = read_alignment_gold(folder / "enfr.src-tgt", folder / "enfr.gold")
    wa: dict[int, set[tuple[int, int, str]]] = {}
    for line in (folder / "test.wa.nullalign").read_text().splitlines():
        sid, i, j, kind = line.split()
        if i != "0" and j != "0":  # 0 is the NULL word
            wa.setdefault(int(sid), set()).add((int(i) - 1, int(j) - 1, kind))
    for n, g in enumerate(gold, start=1):
        ours = {(i, j, "S") for i, j in g.sure} | {(i, j, "P") for i, j in g.possible - g.sure}
        assert ours == wa.get(n, set())
    ro = read_alignment_gold(shared_data / "align_gold" / "ro-en" / "roen.src-tgt",
                             shared_data / "align_gold" / "ro-en" / "roen.gold", english="tgt")
    assert ro[1].src == ["by", "Cornel", "Nistorescu"] and (1, 1) in ro[1].sure


def test_gold_projection_from_links_and_capitalized_runs(tmp_path: Path) -> None:
    sents = tmp_path / "s.txt"
    links = tmp_path / "g.txt"
    sents.write_text("I met Mr. Jean Chretien today ||| j' ai vu M. Jean Chrétien aujourd'hui\n"
                     "nothing here ||| rien\n", encoding="utf-8")
    links.write_text("1-1 1-2 2-3 3-4 4-5 5-6 6-7\n1-1\n", encoding="utf-8")
    gold = read_alignment_gold(sents, links)
    spans = capitalized_spans([g.src for g in gold])
    assert spans == [(0, 3, 4)]  # `Mr.` is a title; sentence-initial and `I` are not names
    mentions, unlinked = alignment_gold_mentions(gold, spans + [(1, 1, 1)])
    assert mentions == [GoldMention(0, 3, 4, (4, 5))] and unlinked == 1


def test_figure_3_categories() -> None:
    assert category({4, 5}, (4, 5)) == "fully correct"
    assert category({3, 4, 5}, (4, 5)) == "extra words"
    assert category({5, 6}, (4, 5)) == "partially correct"
    assert category({7}, (4, 5)) == "wrong"
    assert category(set(), (4, 5)) == "wrong"
    m = GoldMention(0, 0, 0, (0, 0))
    outs = [Outcome(m, "A", "A", {0}, "fully correct", gold_text="A"),
            Outcome(m, "A", "", set(), "wrong", gold_text="A")]
    assert summarize(outs) == {"mentions": 2, "fully correct": 1, "extra words": 0,
                               "partially correct": 0, "wrong": 1, "failures": 1,
                               "fully correct %": 50.0,
                               "misses": [{"english": "A", "projected": "", "gold": "A",
                                           "category": "wrong"}]}


def test_conll_persons_pair_by_spelling(tmp_path: Path) -> None:
    en = tmp_path / "en"
    de = tmp_path / "de"
    en.write_text("Merkel B-PER\nmet O\nTrump B-PER\n\nnobody O\n\nKim B-PER\n",
                  encoding="utf-8")
    de.write_text("Trump B-PER\ntraf O\nMerkel B-PER\n\nniemand O\n\nder O\n", encoding="utf-8")
    matcher = NameMatcher("deu", None, 0.75)
    mentions, unmatched = pair_persons(read_conll(en), read_conll(de), matcher)
    assert mentions == [GoldMention(0, 0, 0, (2, 2)), GoldMention(0, 2, 2, (0, 0))]
    assert unmatched == 1


PEOPLE = [("Angela Merkel", "Angela Merkel"), ("Donald Trump", "Donald Trump"),
          ("Kenny Miler", "Kenny Miler"), ("Emmanuel Macron", "Emmanuel Macron")]
FRAMES = [("{} said that the talks were good", "{} sagte , die Gespräche seien gut"),
          ("yesterday {} visited the city", "gestern besuchte {} die Stadt"),
          ("the president met {} in the morning", "der Präsident traf {} am Morgen")]


def conll_files(tmp_path: Path) -> tuple[Path, Path]:
    en_lines: list[str] = []
    de_lines: list[str] = []
    for en_frame, de_frame in FRAMES * 3:
        for en_name, de_name in PEOPLE:
            for frame, name, out in ((en_frame, en_name, en_lines),
                                     (de_frame, de_name, de_lines)):
                for word in frame.split():
                    if word == "{}":
                        parts = name.split()
                        out.extend(f"{p}\t{'B' if k == 0 else 'I'}-PER"
                                   for k, p in enumerate(parts))
                    else:
                        out.append(f"{word}\tO")
                out.append("")
    en, de = tmp_path / "en.conll", tmp_path / "de.conll"
    en.write_text("\n".join(en_lines), encoding="utf-8")
    de.write_text("\n".join(de_lines), encoding="utf-8")
    return en, de


def bare_config(tmp_path: Path) -> Path:
    """A config file naming nothing but a corpus folder and a KB file (gold-only evaluation)."""
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"name": "t", "corpus": {"path": "."},
                                      "kb": {"path": "kb.jsonl"}}), encoding="utf-8")
    return config


def test_eval_cli_on_parallel_conll_gold(tmp_path: Path) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    en, de = conll_files(tmp_path)
    config = bare_config(tmp_path)
    out = tmp_path / "figures.json"
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--conll-en", str(en),
                                      "--conll-tgt", str(de), "--lang", "de", "--json",
                                      str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    rows = figures["rows"]
    assert [r["projection"] for r in rows] == ["paper", "xel"]
    # The figures carry what produced them (sacrebleu's habit), printed and in the JSON.
    signature = figures["signature"]
    assert signature.startswith("eval-projection|") and "|gold:conll-en=" in signature
    assert "|mentions=ner,caps|" in signature and f"signature: {signature}" in result.output
    # and the versions of the packages that read names and align (regex's Unicode tables,
    # Janome's dictionary): a figure that moves between machines shows why
    assert f"|regex={metadata.version('regex')}|" in signature and "|Janome=" in signature
    assert "|numpy=" in signature and "|sentencepiece=" in signature
    xel = rows[1]
    assert xel["mentions"] == 36 and xel["AER"] is None and xel["left out"] == 0
    assert xel["fully correct"] == 36
    result = CliRunner().invoke(app, ["eval", "triage", str(config), "--conll-en", str(en),
                                      "--conll-tgt", str(de), "--lang", "deu", "--json",
                                      str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    triage = figures["rows"][0]["triage"]
    assert figures["signature"].startswith("eval-triage|") and "|triage=" in figures["signature"]
    assert figures["signature"] != signature  # triage settings and code are in it too
    assert triage["accepted"] == 36 and triage["precision %"] == 100.0
    assert triage["wrong accepts"] == []


def test_eval_triage_shows_the_accepted_projections_that_are_not_right(tmp_path: Path) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    en, de = conll_files(tmp_path)
    # the gold of one sentence takes the verb before the name in: `traf Angela Merkel`
    text = de.read_text(encoding="utf-8")
    de.write_text(text.replace("traf\tO\nAngela\tB-PER", "traf\tB-PER\nAngela\tI-PER", 1),
                  encoding="utf-8")
    config = bare_config(tmp_path)
    out = tmp_path / "figures.json"
    result = CliRunner().invoke(app, ["eval", "triage", str(config), "--conll-en", str(en),
                                      "--conll-tgt", str(de), "--lang", "deu", "--show",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    triage = json.loads(out.read_text())["rows"][0]["triage"]
    assert (triage["accepted"], triage["accepted and fully correct"]) == (36, 35)
    assert triage["wrong accepts"] == [{"english": "Angela Merkel", "projected": "Angela Merkel",
                                        "gold": "traf Angela Merkel",
                                        "category": "partially correct"}]
    assert "accepted, not fully correct" in result.output
    assert "[partially correct] 'Angela Merkel' -> 'Angela Merkel' (gold 'traf Angela " \
           "Merkel')" in result.output


def test_eval_cli_reports_bad_options(tmp_path: Path) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    config = bare_config(tmp_path)
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--conll-en", "x"])
    assert isinstance(result.exception, XelError)
    assert "--conll-en, --conll-tgt and --lang together" in str(result.exception)


def test_ner_slips_on_titles_and_common_words_are_not_person_names() -> None:
    from xel.evaluate import is_person_name

    assert is_person_name(["Jean", "Chretien"])
    assert not is_person_name(["Speaker"])
    assert not is_person_name(["bush"])


SPAN_GOLD = """# a comment
lang\tseg\ten_start\ten_end\tenglish\tgold\tstart\tend
zho-TW\t0\t10\t22\tTheresa May\t梅\t2\t3
zho-TW\t0\t0\t5\tWelsh\tNOT_PERSON\t\t
zho-TW\t1\t0\t11\tBoris Johnson\t強生\t0\t2
"""


def span_store(tmp_path: Path) -> Path:
    """A collection store holding two sentences, their mentions and projections."""
    from xel.corpus import DDL as CORPUS_DDL
    from xel.ner import DDL as NER_DDL
    from xel.project import DDL as PROJECT_DDL
    from xel.store import Store

    with Store(tmp_path / "s.sqlite") as store:
        for ddl in (CORPUS_DDL, NER_DDL, PROJECT_DDL):
            store.declare(ddl)
        with store.transaction() as s:
            s.executemany("INSERT INTO languages VALUES (?, ?, ?, ?, '', 2, ?)", [
                ("eng", "source", "Latn", "English", 0),
                ("zho-TW", "target", "Hant", "Chinese (Taiwan)", 1)])
            s.executemany("INSERT INTO sentences VALUES (?, ?, 'd', ?, 0, ?)", [
                ("eng", 0, 0, "Welsh PM, Theresa May, spoke"),
                ("zho-TW", 0, 0, "英國梅首相 (Theresa May) 說"),
                ("eng", 1, 1, "Boris Johnson spoke"),
                ("zho-TW", 1, 1, "強生說")])
            s.executemany(
                "INSERT INTO mentions VALUES (?, 'd', ?, ?, ?, ?, ?, ?, NULL, 2, 'PER')", [
                (1, 0, 10, 21, "Theresa May", "Theresa May", "theresa may"),
                (2, 0, 0, 5, "Welsh", "Welsh", "welsh"),
                (3, 1, 0, 13, "Boris Johnson", "Boris Johnson", "boris johnson")])
            s.executemany("INSERT INTO projections VALUES ('zho-TW', ?, ?, ?, ?, ?, 0, 'x', ?, ?)",
                          [(1, 0, 2, 3, "梅", 2, 18), (2, 0, 0, 2, "英國", 0, 2),
                           (3, 1, 1, 2, "生", 0, 3)])
    return tmp_path / "s.sqlite"


def span_collection(tmp_path: Path, gold_text: str) -> tuple[Path, Path]:
    """`span_store`'s collection and a span gold file: (config, gold)."""
    from xel.cli import _load_commands

    _load_commands()
    span_store(tmp_path)
    gold = tmp_path / "gold.tsv"
    gold.write_text(gold_text, encoding="utf-8")
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"name": "t", "store": "s.sqlite", "corpus": {"path": "."},
                                      "kb": {"path": "kb.jsonl"}}), encoding="utf-8")
    return config, gold


def test_annotated_spans_score_the_collection_projections(tmp_path: Path) -> None:
    from xel.cli import app

    config, gold = span_collection(tmp_path, SPAN_GOLD)
    out = tmp_path / "figures.json"
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--spans", str(gold),
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    paper, xel = figures["rows"]
    assert "|gold:spans=" in figures["signature"] and "|collection=" in figures["signature"]
    assert (paper["projection"], xel["projection"]) == ("paper", "xel")
    assert paper["mentions"] == xel["mentions"] == 2 and xel["left out"] == 1  # NOT_PERSON
    # paper: `梅首相 (Theresa May` and `強生說` hold the names and more;
    # xel: `梅`, and only `生` of `強生`
    assert (paper["extra words"], paper["fully correct"]) == (2, 0)
    assert (xel["fully correct"], xel["partially correct"]) == (1, 1)
    assert xel["misses"] == [{"english": "Boris Johnson", "projected": "生", "gold": "強生",
                              "category": "partially correct"}]
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--spans", str(gold),
                                      "--show"])
    assert result.exit_code == 0, result.output
    assert "[partially correct] 'Boris Johnson' -> '生' (gold '強生')" in result.output
    assert "Theresa May' ->" not in result.output  # fully correct: not listed

    gold.write_text(SPAN_GOLD.replace("\t梅\t2\t3", "\t梅\t3\t4"), encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--spans", str(gold)])
    assert isinstance(result.exception, XelError)
    assert f"{gold}, line 3: '梅' is not at characters 3-4" in str(result.exception)


def test_span_gold_of_several_collections_scores_the_store_languages(tmp_path: Path) -> None:
    """One gold file may annotate two collections (corpora/wmt22_types: Russian and German):
    each store is scored on its own languages, and a language it lacks is named."""
    from xel.cli import app

    config, gold = span_collection(tmp_path, SPAN_GOLD + "rus\t0\t0\t5\tWelsh\tУэльс\t0\t5\n")
    out = tmp_path / "figures.json"
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--spans", str(gold),
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert {r["lang"] for r in json.loads(out.read_text())["rows"]} == {"zho-TW"}
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--spans", str(gold),
                                      "--lang", "rus"])
    assert isinstance(result.exception, XelError)
    assert "no annotated names in rus" in str(result.exception)
    assert "zho-TW)" in str(result.exception)  # the languages the store holds


def test_span_gold_on_a_store_never_projected_says_what_to_run(tmp_path: Path) -> None:
    """A typed store that was queried but never projected: the error names the command, not
    SQLite's missing table."""
    import sqlite3

    from xel.cli import app

    config, gold = span_collection(tmp_path, SPAN_GOLD)
    with sqlite3.connect(tmp_path / "s.sqlite") as conn:
        conn.execute("DROP TABLE projections")
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--spans", str(gold)])
    assert isinstance(result.exception, XelError), result.output
    assert "no projections in" in str(result.exception)
    assert "run `xel project CONFIG` first" in str(result.exception)


def test_span_gold_reader_names_the_bad_line(tmp_path: Path) -> None:
    from xel.evaluate import read_span_gold

    gold = tmp_path / "gold.tsv"
    gold.write_text("lang\tseg\tenglish\n", encoding="utf-8")
    with pytest.raises(XelError, match="line 1: expected the header"):
        read_span_gold(gold)
    gold.write_text(SPAN_GOLD.replace("zho-TW\t1\t0", "zho-TW\tone\t0"), encoding="utf-8")
    with pytest.raises(XelError, match="line 5: seg, en_start, en_end"):
        read_span_gold(gold)


def test_gold_alignment_also_trains_on_the_corpus(shared_data: Path) -> None:
    from xel.config import load_config
    from xel.evaluate import corpus_pairs

    config = load_config(Path(__file__).parents[1] / "configs" / "default.yaml")
    english, romanian = corpus_pairs(config, "ron")  # not among the config's languages
    assert 1900 <= len(english) == len(romanian) <= 1997
    assert english[0][:3] == ["Welsh", "AMs", "worried"] and all(romanian)
    assert corpus_pairs(config, "xx-not-a-language") == ([], [])


def test_a_review_tells_ner_slips_from_projection_errors(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import xel.evaluate as evaluate
    from xel.config import Config

    sentences, links = tmp_path / "s.txt", tmp_path / "g.txt"
    sentences.write_text("the Bill of Mr Carter ||| le projet de loi de M. Carter\n",
                         encoding="utf-8")
    links.write_text("1-1 2-2 2-3 2-4 3-5 4-6 5-7\n", encoding="utf-8")
    monkeypatch.setattr(evaluate, "ner_spans", lambda sents, config: [(0, 1, 1), (0, 4, 4)])
    config = Config.model_validate({"name": "t", "corpus": {"path": "."},
                                    "kb": {"path": "kb.jsonl"}})
    gs = evaluate.alignment_gold_set("g", "fra", sentences, links, "src", 1, ["ner"], config,
                                     not_person={"bill"})
    assert [(m.first, m.gold) for m in gs.mentions["ner"]] == [(1, (1, 3)), (4, (6, 6))]
    assert [(m.first, m.gold) for m in gs.mentions["ner, reviewed"]] == [(4, (6, 6))]
    plain = evaluate.alignment_gold_set("g", "fra", sentences, links, "src", 1, ["ner"], config)
    assert list(plain.mentions) == ["ner"]


def test_a_token_that_is_a_unicode_space_keeps_its_place(tmp_path: Path) -> None:
    """Gold files separate tokens with ASCII spaces; a KFTT line can have an ideographic space
    (U+3000) as a token of its own, which must count, or later links fall outside."""
    sents = tmp_path / "kftt.txt"
    links = tmp_path / "kftt.links"
    sents.write_text("Ichiro Suzuki said . ||| 鈴木 一郎 \u3000 は 言っ た 。\n"
                     "Ichiro Suzuki left . ||| 鈴木 一郎 は 去っ た 。\n", encoding="utf-8")
    links.write_text("1-1 2-2 3-6 3-5 4-7\n1-1 2-2 3-5 4-6\n", encoding="utf-8")
    gold = read_alignment_gold(sents, links)
    assert gold[0].tgt == ["鈴木", "一郎", "\u3000", "は", "言っ", "た", "。"]
    assert (3, 6) in gold[0].sure and len(gold[1].tgt) == 6

    from xel.cli import _load_commands, app

    _load_commands()
    config = bare_config(tmp_path)
    result = CliRunner().invoke(app, ["eval", "projection", str(config), "--sentences",
                                      str(sents), "--links", str(links), "--lang", "jpn",
                                      "--mentions", "caps", "--gold-only"])
    assert result.exit_code == 0, result.output
    assert "outside the sentence" not in result.output


def test_the_triage_stage_is_scored_at_annotated_mentions(tmp_path: Path) -> None:
    """A query's A1 counts as right only where its located name is the gold name's characters
    (a right name elsewhere, or another part of the name, is not)."""
    from xel.evaluate import SpanGold, stage_triage
    from xel.store import Store

    store = Store(tmp_path / "s.sqlite")
    store.execute("CREATE TABLE queries (query_id TEXT, seg INTEGER, start INTEGER, "
                  "end INTEGER)")
    store.execute("CREATE TABLE triage (lang TEXT, query_id TEXT, outcome TEXT, seg INTEGER,"
                  " start INTEGER, end INTEGER)")
    store.executemany("INSERT INTO queries VALUES (?, ?, ?, ?)",
                      [("q1", 1, 0, 12), ("q2", 2, 4, 9), ("q3", 3, 0, 5)])
    store.executemany("INSERT INTO triage VALUES ('zho-TW', ?, ?, ?, ?, ?)",
                      [("q1", "A1", 1, 4, 6), ("q2", "A1", 9, 0, 2), ("q3", "curate", 3, 0, 2)])
    gold = [SpanGold(2, "zho-TW", 1, 0, 12, "Donald Trump", "川普", 4, 6),
            SpanGold(3, "zho-TW", 2, 4, 9, "Trump", "川普", 0, 2),
            SpanGold(4, "zho-TW", 3, 0, 5, "Trump", "川普", 0, 2),
            SpanGold(5, "zho-TW", 4, 0, 5, "Trump", "川普", 0, 2),  # no query there
            SpanGold(6, "zho-TW", 1, 20, 25, "Smith", "NOT_PERSON", None, None)]
    assert stage_triage(store, gold, "zho-TW") == {
        "queries": 3, "accepted": 2, "accepted and fully correct": 1, "precision %": 50.0}
