"""Scoring runs against a collection, and the name-matching baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xel.errors import XelError
from xel.score import baseline_answer, latin, read_gold, read_run, score, score_signature, table


def collection(tmp: Path) -> Path:
    (tmp / "deu").mkdir(parents=True)
    (tmp / "deu" / "test.tab").write_text("q1\tE1\tPER\nq2\tNIL\tPER\nq3\tE2\tPER\n")
    (tmp / "deu" / "train.tab").write_text("q4\tNIL\tPER\n")
    return tmp


def test_success_at_1_counts_nil_and_missing(tmp_path: Path) -> None:
    gold = read_gold(collection(tmp_path / "c"))
    run = tmp_path / "run.tab"
    run.write_text("q1\tE1\t0.9\nq2\tE5\nq4\tNIL\n")
    scores = {(s.lang, s.partition): s for s in score(gold, read_run(run))}
    test = scores[("deu", "test")]
    assert (test.queries, test.correct, test.missing) == (3, 1, 1)
    assert test.in_kb_accuracy == 0.5 and test.nil_accuracy == 0.0
    assert scores[("deu", "train")].success_at_1 == 1.0
    assert scores[("deu", "all")].queries == 4
    text = table(list(scores.values()))
    assert "S@1" in text and "deu" in text


def test_bad_runs_are_named(tmp_path: Path) -> None:
    gold = read_gold(collection(tmp_path / "c"))
    run = tmp_path / "run.tab"
    run.write_text("q1\tE1\nq1\tE2\n")
    with pytest.raises(XelError, match=r"run\.tab, line 2: query q1 answered twice"):
        read_run(run)
    run.write_text("q1 E1\n")
    with pytest.raises(XelError, match=r"run\.tab, line 1: expected"):
        read_run(run)
    run.write_text("x1\tE1\n")
    with pytest.raises(XelError, match="none of the run's query ids"):
        score(gold, read_run(run))
    with pytest.raises(XelError, match="no <lang>/<partition>.tab"):
        read_gold(tmp_path)


def test_latin_transliteration() -> None:
    assert latin("Дональд Трамп") == "Donal'd Tramp"
    assert latin("Ντόναλντ Τραμπ") == "Ntonalnt Tramp"
    assert latin("Angela Merkel") == "Angela Merkel"


class FakeKb:
    """The two lookups the baseline makes, over a dict (the real index is tested elsewhere)."""

    def __init__(self, names: dict[str, list[str]]) -> None:
        self.names = names

    def by_key(self, name: str, kind: str, type: str | None = None) -> list[object]:
        from xel.kb import Found, KbEntity

        ids = self.names.get(name.lower(), []) if kind == "name" else []
        return [Found(KbEntity(kb_id, name)) for kb_id in ids]


def test_baseline_answer_prefers_names_then_nil() -> None:
    kb = FakeKb({"sarah palin": ["E1"], "boris johnson": ["E2", "E3"]})
    assert baseline_answer(kb, "Sarah Palin") == "E1"  # type: ignore[arg-type]
    assert baseline_answer(kb, "Boris Johnson") == "E2"  # type: ignore[arg-type]
    assert baseline_answer(kb, "Тереза Мэй") == "NIL"  # type: ignore[arg-type]


def test_baseline_on_real_kb(shared_data: Path, tmp_path: Path) -> None:
    from xel.config import Config, CorpusConfig, KbConfig
    from xel.kb import KnowledgeBase, build_kb
    from xel.score import baseline_run

    config = Config(name="t", root=str(tmp_path), corpus=CorpusConfig(path="x"),
                    kb=KbConfig(path=str(shared_data / "kb" / "persons.jsonl"), index="kb.sqlite"))
    build_kb(config)
    coll = tmp_path / "c"
    for lang, records in {
        "deu": [{"id": "d1", "name": "Sarah Palin"}, {"id": "d2", "name": "Theresa May"}],
        # The names models read Bulgarian `Доналд Тръмп` as Donald Trump (ICU romanization
        # gives `Donald Tr"mp`); Kim Jong Un is not in this KB; Croatian endings are undone.
        "bul": [{"id": "b1", "name": "Доналд Тръмп"}, {"id": "b2", "name": "Ким Чен Ун"}],
        "hrv": [{"id": "h1", "name": "Sarah Palinu"}],
    }.items():
        (coll / lang).mkdir(parents=True)
        (coll / lang / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    with KnowledgeBase.open(config) as kb:
        assert baseline_run(coll, kb, tmp_path / "run.tab") == 5
        assert baseline_run(coll, kb, tmp_path / "icu.tab", models=None) == 5
    answers = read_run(tmp_path / "run.tab")
    assert answers == {"d1": "enwiki:2941511", "d2": "NIL", "b1": "enwiki:4848272", "b2": "NIL",
                       "h1": "enwiki:2941511"}
    assert read_run(tmp_path / "icu.tab")["b1"] == "NIL"


def test_score_prints_its_signature_and_writes_it_with_the_figures(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from xel.cli import _load_commands, app

    _load_commands()
    coll = collection(tmp_path / "c")
    (coll / "README.md").write_text("# x\n\n- signature: `export|after:partition=ab|xel=1`\n")
    run = tmp_path / "run.tab"
    run.write_text("q1\tE1\nq2\tNIL\n")
    out = tmp_path / "scores.json"
    result = CliRunner().invoke(app, ["score", str(coll), str(run), "--json", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    signature = figures["signature"]
    assert f"signature: {signature}" in result.output
    parts = dict(p.split("=", 1) for p in signature.split("|")[1:])
    assert signature.startswith("score|") and parts["nil"] == "counted"
    assert parts["metric"] == "success@1" and parts["collection"] != "unsigned"
    deu = next(s for s in figures["scores"] if (s["lang"], s["partition"]) == ("deu", "all"))
    assert deu["queries"] == 4 and deu["success_at_1"] == 0.5
    # Another run, or another collection, is another signature.
    run.write_text("q1\tE1\n")
    again = score_signature(coll, run)
    assert again.parts["run"] != parts["run"] and again.parts["gold"] == parts["gold"]
    (coll / "deu" / "test.tab").write_text("q1\tE9\tPER\n")
    assert score_signature(coll, run).parts["gold"] != parts["gold"]
