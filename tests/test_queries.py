"""Query filters, their attrition, the manual review pass, and stage skipping."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xel.config import Config, CorpusConfig, KbConfig, QueriesConfig
from xel.errors import XelError
from xel.names.english import name_key
from xel.pipeline import run
from xel.queries import (
    PERSON_CHECK,
    Mention,
    apply_filters,
    cap_per_name,
    drop_rare,
    drop_short,
    export_review,
    filters,
    longest_only,
    query_id,
    read_review,
)
from xel.store import Store

REPO = Path(__file__).resolve().parents[1]


def mention(i: int, doc: str, name: str) -> Mention:
    return Mention(i, doc, i, 0, len(name), name, name_key(name))


def test_each_filter_removes_what_it_says() -> None:
    ms = [mention(1, "a", "Trump"), mention(2, "a", "Donald Trump"), mention(3, "b", "Kim Jong"),
          mention(4, "b", "Kim Jong Un"), mention(5, "c", "Kim Jong")]
    assert [m.mention_id for m in drop_short(2)(ms)] == [2, 3, 4, 5]
    # `Kim Jong` goes where `Kim Jong Un` is in the same document, stays elsewhere.
    assert [m.mention_id for m in longest_only(ms)] == [2, 4, 5]
    assert [m.mention_id for m in drop_rare(2)(ms)] == [3, 5]
    many = [mention(i, f"d{i % 4}", "Jane Roe") for i in range(12)]
    assert {m.doc_id for m in cap_per_name(2)(many)} == {"d0", "d1"}


def test_attrition_counts_every_step() -> None:
    ms = [mention(1, "a", "May"), mention(2, "a", "Jane Roe"), mention(3, "b", "Jane Roe"),
          mention(4, "b", "John Doe")]
    kept, steps = apply_filters(ms, filters(QueriesConfig(), set()))
    assert [m.mention_id for m in kept] == [2, 3]
    assert [(s.mentions_before, s.mentions_after) for s in steps] == [
        (4, 3), (3, 3), (3, 2), (2, 2)]
    assert steps[0].names_before == 3 and steps[-1].names_after == 1


def test_query_ids_are_stable() -> None:
    assert query_id("doc1", "jane roe") == query_id("doc1", "jane roe")
    assert query_id("doc1", "jane roe") != query_id("doc2", "jane roe")


def test_review_file(tmp_path: Path) -> None:
    path = tmp_path / "review.tsv"
    path.write_text("name\tname_key\tdocuments\tmentions\tperson\texample\n"
                    "Rapid Vienna\trapid vienna\t2\t2\tno\t...\n"
                    "Jane Roe\tjane roe\t3\t4\t\t...\n"
                    "\n"
                    "John Doe\t\t2\t2\tyes\t...\n", encoding="utf-8")
    assert read_review(path) == {"rapid vienna"}
    path.write_text("name\tperson\nJane Roe\tmaybe\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"review\.tsv, line 2: person column is 'maybe'"):
        read_review(path)
    path.write_text("who\nJane\n", encoding="utf-8")
    with pytest.raises(XelError, match="line 1: expected a header"):
        read_review(path)


def small_config(tmp: Path, **queries: object) -> Config:
    lines = [
        ("d1", "Jane Roe met Kim Jong Un in Hanoi.", "Jane Roe traf Kim Jong Un."),
        ("d1", "Later Kim Jong spoke.", "Später sprach Kim Jong."),
        ("d2", "Jane Roe's lawyer, Mr John Doe, objected.", "Der Anwalt von Jane Roe widersprach."),
        ("d3", "Kim Jong-un's visit ended; John Doe left.", "Der Besuch endete."),
        ("d4", "", ""),
    ]
    (tmp / "c.en").write_text("".join(e + "\n" for _, e, _ in lines), encoding="utf-8")
    (tmp / "c.de").write_text("".join(d + "\n" for _, _, d in lines), encoding="utf-8")
    (tmp / "docs").write_text("".join(d + "\n" for d, _, _ in lines), encoding="utf-8")
    (tmp / "kb.jsonl").write_text(json.dumps({"id": "P1", "name": "Jane Roe"}) + "\n",
                                  encoding="utf-8")
    return Config(name="t", root=str(tmp), store="s.sqlite",
                  corpus=CorpusConfig(path=str(tmp), format="moses", source="eng",
                                      files={"eng": "c.en", "deu": "c.de"}, doc_ids="docs"),
                  kb=KbConfig(path="kb.jsonl"), queries=QueriesConfig.model_validate(queries))


def test_changing_a_filter_reruns_only_what_depends_on_it(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with Store(tmp_path / "s.sqlite") as store:
        run(store, config, ["import"])
        assert not run(store, config, ["ner"])[0].skipped
        run(store, config, ["kb", "persons"])
        first = run(store, config, ["queries"])[0]
        assert not first.skipped
        names = {r[0] for r in store.query("SELECT name FROM queries")}
        assert names == {"Jane Roe", "Kim Jong Un", "John Doe"}
        # Kim Jong-un (d3) and Kim Jong Un (d1) are one name; its display form is the
        # more frequent spelling, and no query is a possessive form.
        assert store.scalar("SELECT COUNT(*) FROM queries WHERE name_key = 'kim jong un'") == 2
        assert not store.scalar("SELECT COUNT(*) FROM queries WHERE name LIKE '%''s'")

        assert run(store, config, ["ner"])[0].skipped
        assert run(store, config, ["queries"])[0].skipped
        stricter = small_config(tmp_path, max_per_name=1)
        assert run(store, stricter, ["ner"])[0].skipped
        rerun = run(store, stricter, ["queries"])[0]
        assert not rerun.skipped
        assert rerun.summary["queries"] == 3


def test_review_export_then_apply(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    with Store(tmp_path / "s.sqlite") as store:
        run(store, config, ["import"])
        run(store, config, ["ner"])
        run(store, config, ["kb", "persons"])
        review = tmp_path / "names.tsv"
        assert export_review(store, review) >= 3
        rows = review.read_text(encoding="utf-8").splitlines()
        edited = [r.replace("\t\t", "\tno\t", 1) if r.startswith("John Doe\t") else r
                  for r in rows]
        review.write_text("\n".join(edited) + "\n", encoding="utf-8")
        reviewed = small_config(tmp_path, review=str(review))
        done = run(store, reviewed, ["queries"])[0]
        assert not done.skipped
        names = {r[0] for r in store.query("SELECT name FROM queries")}
        assert names == {"Jane Roe", "Kim Jong Un"}
        steps = [r["filter"] for r in store.query("SELECT filter FROM attrition ORDER BY step")]
        assert "reviewed as not a person" in steps


def test_ntrex_queries(shared_data: Path, tmp_path: Path) -> None:
    config = Config(name="t", root=str(tmp_path), store="s.sqlite",
                    corpus=CorpusConfig(path=str(shared_data / "ntrex128"), languages=["deu"]),
                    kb=KbConfig(path=str(shared_data / "kb" / "persons.jsonl")))
    with Store(tmp_path / "s.sqlite") as store:
        run(store, config, ["import"])
        ner = run(store, config, ["ner"])[0]
        assert 850 <= ner.summary["mentions"] <= 1050  # the data README: about 940
        run(store, config, ["kb", "persons"])
        done = run(store, config, ["queries"])[0]
        assert done.summary["names"] >= 40 and done.summary["queries"] >= 100
        names = [r[0] for r in store.query("SELECT name FROM queries")]
        assert not [n for n in names if n.endswith(("'s", "’s", "'"))]
        assert all(len(n.split()) >= 2 for n in names)
        assert {"Donald Trump", "Mike Pompeo", "Theresa May"} <= set(names)
        per_name = store.query("SELECT COUNT(*) FROM queries GROUP BY name_key")
        assert max(r[0] for r in per_name) <= 10
        # The person check against our truth for the default queries: every person's query
        # kept, the known non-persons (Rapid Vienna, twice) gone.
        truth = dict(line.split("\t") for line in (REPO / "corpora/ntrex128/el-reference.tsv")
                     .read_text(encoding="utf-8").splitlines() if line.startswith("EN-"))
        kept = {r[0] for r in store.query("SELECT query_id FROM queries")}
        assert {q for q, a in truth.items() if a != "NOT_PERSON"} <= kept
        assert not {q for q, a in truth.items() if a == "NOT_PERSON"} & kept
        steps = {r["filter"]: r for r in store.query("SELECT * FROM attrition")}
        assert steps[PERSON_CHECK]["mentions_after"] < steps[PERSON_CHECK]["mentions_before"]
