"""`xel build` of a small collection of every entity type with the simulated crowd: typed
queries, KB candidates of the query's type, translated names projected and accepted through
the KB's labels, typed exports, the per-type report and card, and HITs that name the type."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from conftest import write_parallel
from typer.testing import CliRunner

from hits import results
from hits.render import render_hit
from xel.build import build
from xel.cli import _load_commands, app
from xel.config import Config
from xel.entity_types import Typed, write_types
from xel.errors import XelError
from xel.export import CrowdResults, collection_records
from xel.persons import DDL as PERSONS_DDL
from xel.pipeline import run
from xel.queries import export_review, read_queries, read_review_types
from xel.report import crowd_by_type, crowd_results, person_rejections
from xel.store import Store

PEOPLE = {  # name -> (German form, KB id or NIL)
    "Angela Merkel": ("Angela Merkel", "P1"),
    "Boris Johnson": ("Boris Johnson", "P2"),
}
TEMPLATES = [
    ("{n} met reporters in Berlin on Monday.", "{n} traf am Montag Reporter in Berlin."),
    ("Officials said that {n} would meet leaders of the European Union in Brussels.",
     "Beamte sagten, {n} werde Vertreter der Europäischen Union in Brüssel treffen."),
    ("{n} spoke about the future of the European Union.",
     "{n} sprach über die Zukunft der Europäischen Union."),
]
KB = [
    {"id": "P1", "name": "Angela Merkel", "description": "German politician, chancellor",
     "popularity": 900.0},
    {"id": "P2", "name": "Boris Johnson", "description": "British politician, prime minister",
     "popularity": 800.0},
    {"id": "Q458", "name": "European Union", "aliases": ["EU"], "type": "ORG",
     "description": "political and economic union of European states", "popularity": 200.0,
     "labels": {"de": ["Europäische Union", "EU"], "fr": "Union européenne"}},
    {"id": "Q64", "name": "Berlin", "type": "LOC", "description": "capital of Germany",
     "popularity": 3.6e6, "labels": {"de": "Berlin"}},
    {"id": "Q239", "name": "Brussels", "type": "LOC", "description": "capital of Belgium",
     "popularity": 1.2e6, "labels": {"de": "Brüssel", "fr": "Bruxelles"}},
    {"id": "Q1", "name": "Berlin Union", "type": "ORG", "description": "a trade union",
     "popularity": 5.0},
]


def typed_config(make_config: Any, root: Path, documents: int, name: str,
                 **queries: Any) -> Config:
    """The synthetic English-German corpus and KB written under `root`, and a config of
    people, organizations and places over them (one-word organizations and places kept)."""
    write_parallel(root, PEOPLE, TEMPLATES, KB, documents=documents)
    by_type = {"ORG": {"min_tokens": 1}, "LOC": {"min_tokens": 1}}
    return make_config(
        root, name=name, store="work/xel.sqlite", output="work/out",
        corpus={"path": "corpus", "format": "moses", "source": "eng",
                "files": {"eng": "c.en", "deu": "c.de"}, "doc_ids": "docs"},
        kb={"path": "kb.jsonl", "index": "work/kb.sqlite"},
        types={"PER": ["PERSON"], "ORG": ["ORG"], "LOC": ["GPE", "LOC", "FAC"]},
        queries={**queries, "by_type": by_type})


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, make_config: Any) -> tuple[Path, Config]:
    root = tmp_path_factory.mktemp("types")
    config = typed_config(make_config, root, 6, "types")
    with Store(config.resolve(config.store)) as store:
        result = build(store, config, crowd="simulated", say=lambda _: None)
    assert result.pending == [] and result.collection is not None
    return root, config


def records(root: Path, lang: str) -> list[dict[str, Any]]:
    return [json.loads(line) for path in sorted((root / "work/out/collection" / lang).glob(
        "*.jsonl")) for line in path.read_text(encoding="utf-8").splitlines()]


def test_queries_of_every_type_with_candidates_of_their_type(built: tuple[Path, Config]
                                                             ) -> None:
    root, config = built
    english = records(root, "eng")
    by_name = {(r["english_name"], r["type"]) for r in english}
    assert ("Angela Merkel", "PER") in by_name and ("European Union", "ORG") in by_name
    assert ("Berlin", "LOC") in by_name
    with Store(config.resolve(config.store)) as store:
        kinds = {r[0]: r[1] for r in store.query(
            "SELECT c.kb_id, q.type FROM candidates c JOIN queries q USING (query_id)")}
    assert kinds["Q458"] == "ORG" and "P1" not in {k for k, t in kinds.items() if t == "ORG"}
    # the simulated crowd's truth for these is the first candidate it was shown
    assert "Q458" in {r["kb_id"] for r in english if r["english_name"] == "European Union"}


def test_a_translated_name_is_projected_as_written_and_accepted_by_its_label(
        built: tuple[Path, Config]) -> None:
    root, _ = built
    german = {r["english_name"]: r for r in records(root, "deu")}
    eu = german["European Union"]
    assert eu["name"] == "Europäischen Union" and eu["outcome"] == "A1"
    assert eu["back_translation"] == "European Union" and eu["type"] == "ORG"
    assert german["Angela Merkel"]["type"] == "PER"


def test_exports_report_and_card_carry_the_types(built: tuple[Path, Config]) -> None:
    root, _ = built
    collection = root / "work/out/collection"
    tab = {line.split("\t")[2] for path in collection.glob("*/*.tab")
           for line in path.read_text(encoding="utf-8").splitlines()}
    assert tab == {"PER", "ORG", "LOC"}
    card = (collection / "README.md").read_text(encoding="utf-8")
    assert "cross-language entity-linking test collection" in card
    assert "## Queries by type" in card and "## Outcomes per type" in card
    report = (root / "work/out/report.html").read_text(encoding="utf-8")
    assert "Outcomes per type" in report and "organization mentions found by NER" in report
    # what the Hub and Croissant say the collection holds: named entities, not person names
    header = yaml.safe_load(card.split("---\n")[1])
    assert "named-entities" in header["tags"] and "person-names" not in header["tags"]
    croissant = json.loads((collection / "croissant.json").read_text(encoding="utf-8"))
    assert "named entities" in croissant["keywords"]
    assert "person-entity" not in croissant["description"]
    assert "`nil:not-an-organization`: a crowd worker said" in card
    assert "## The crowd's links per type" in card and "links per type</h2>" in report


def test_the_crowds_links_are_counted_per_type(built: tuple[Path, Config]) -> None:
    _, config = built
    with Store(config.resolve(config.store)) as store:
        table = crowd_by_type(store, config)
        kinds = {q.query_id: q.type for q in read_queries(store)}
        said = results.votes(store, kind="el")
    assert list(table["type"]) == ["PER", "ORG", "LOC"]  # the config's order
    for row in table.to_dict("records"):
        asked = [q for q, k in kinds.items() if k == row["type"] and q in said]
        assert row["queries asked"] == len(asked)
        assert row["judgments"] == sum(sum(said[q].values()) for q in asked)
        assert row["linked"] + row["NIL"] + row["not of the type"] + row[
            "not enough information"] + row["no agreement"] == len(asked)
        assert 0.5 < row["agreement"] <= 1.0 if asked else pd.isna(row["agreement"])
    by_type = table.set_index("type")
    # the fixture's places are all known-answer items, never asked: no judgments, no agreement
    assert by_type.loc["ORG", "linked"] >= 1 and by_type.loc["PER", "linked"] >= 1
    assert by_type.loc["LOC", "queries asked"] == 0


def test_a_name_the_crowd_said_is_not_of_its_type_is_left_out_and_sliced_by_type(
        built: tuple[Path, Config]) -> None:
    _, config = built
    with Store(config.resolve(config.store)) as store:
        queries = read_queries(store)
        links = crowd_results(store, config).links
        org = next(q for q in queries if q.type == "ORG")
        place = next(q for q in queries if q.type == "LOC")
        said = {org.query_id: replace(links[org.query_id], label="NOT_PERSON", kb_id=None),
                place.query_id: replace(links[place.query_id], label="NIL", kb_id=None)}
        votes = {place.query_id: {"NIL": 2, "NOT_PERSON": 1}}
        crowd = CrowdResults({**links, **said}, [], votes)
        kept, left_out = collection_records(store, config, crowd)
    assert left_out["eng: crowd said not an organization"] == 1
    assert not any(reason.endswith("NOT_PERSON") for reason in left_out)
    assert org.query_id not in {r.query_id for r in kept}
    nil_place = next(r for r in kept if r.query_id == place.query_id)
    assert nil_place.nil_type == "not-a-place" and nil_place.type == "LOC"


def test_the_reports_person_rejections_give_the_type_each_name_got_instead(tmp_path: Path
                                                                          ) -> None:
    with Store(tmp_path / "xel.sqlite") as store:
        store.declare(PERSONS_DDL)
        store.executemany("INSERT INTO person_check VALUES (?, ?, ?, ?, ?)", [
            ("cromwell", "Cromwell", -2.5, 0, json.dumps({"place context": -2.0})),
            ("brexit", "Brexit", -3.0, 0, json.dumps({"never written as a person": -1.5})),
            ("theresa may", "Theresa May", 2.0, 1, "{}")])
        write_types(store, [Typed("cromwell", "ORG", {"ORG": 3.0}),
                            Typed("brexit", None, {"OTHER": 2}),
                            Typed("theresa may", "PER", {"PER": 4.0})])
        typed = person_rejections(store, people_only=False)
        plain = person_rejections(store)
    assert typed.to_dict("records") == [
        {"name": "Brexit", "score": -3.0, "evidence": "never written as a person -1.5",
         "type": "none"},
        {"name": "Cromwell", "score": -2.5, "evidence": "place context -2.0", "type": "ORG"}]
    assert list(plain.columns) == ["name", "score", "evidence"]
    assert list(plain["name"]) == ["Brexit", "Cromwell"]


def test_hits_name_the_type_of_each_query(built: tuple[Path, Config]) -> None:
    _, config = built
    with Store(config.resolve(config.store)) as store:
        hits = [r[0] for r in store.query("SELECT h.hit_id FROM hit_hits h JOIN hit_batches b"
                                          " USING (batch_id) WHERE b.kind = 'el'")]
        pages = [render_hit(store, hit, action="/submit") for hit in hits]
    text = " ".join(pages)
    assert "Which organization is" in text and "Which place is" in text
    assert "That's not an organization" in text and "That's not a person" in text
    assert "Choose the person the passage is about" not in text


def test_a_people_only_collection_keeps_the_papers_wording(tmp_path: Path,
                                                           make_config: Any) -> None:
    write_parallel(tmp_path, PEOPLE, TEMPLATES[:1], KB[:2], documents=4)
    config = make_config(tmp_path, corpus={"path": "corpus", "format": "moses", "source": "eng",
                                           "files": {"eng": "c.en", "deu": "c.de"},
                                           "doc_ids": "docs"})
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["import", "ner", "kb", "persons", "queries", "link"])
        assert {r[0] for r in store.query("SELECT DISTINCT type FROM queries")} == {"PER"}
        assert {r[0] for r in store.query("SELECT DISTINCT type FROM name_types")} <= {
            "PER", None}


def test_clel_learns_people_and_translated_names_apart(built: tuple[Path, Config]) -> None:
    """The clel baseline keeps a model for people and one for the other types per language
    (the people's under the language's name, as in people-only collections), and its
    features read the KB's labels and the query's type."""
    root, _ = built
    folder = root / "work/out/baselines"
    weights = json.loads((folder / "clel.weights.json").read_text(encoding="utf-8"))
    assert set(weights["models"]) == {"deu", "deu other", "eng", "eng other"}
    assert "label" in weights["features"] and weights["linker_features"][-5:] == [
        "PER", "ORG", "LOC", "EVENT", "OTHER"]
    answered = {line.split("\t")[0] for line in
                (folder / "clel.tsv").read_text(encoding="utf-8").splitlines()}
    assert answered == {r["id"] for lang in ("eng", "deu") for r in records(root, lang)}


def test_a_reviewer_retypes_names_of_a_typed_collection(tmp_path: Path, make_config: Any
                                                        ) -> None:
    config = typed_config(make_config, tmp_path, 6, "review")
    review = tmp_path / "names.tsv"
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["import", "ner", "kb", "persons"])
        # every name, one-word places too, with the type check's verdict beside `type`
        assert export_review(store, review, people_only=False) >= 4
        rows = {r.split("\t")[0]: r.split("\t") for r in
                review.read_text(encoding="utf-8").splitlines()}
        assert rows["name"][4:6] == ["type", "type_check"]
        assert rows["Brussels"][5].startswith("LOC (") and rows["Brussels"][4] == ""
        rows["Brussels"][4], rows["Berlin"][4] = "organization", "none"
        review.write_text("\n".join("\t".join(r) for r in rows.values()) + "\n",
                          encoding="utf-8")
        reviewed = config.model_copy(update={"queries": config.queries.model_copy(
            update={"review": str(review)})})
        run(store, reviewed, ["queries"])
        kinds = {r[0]: r[1] for r in store.query("SELECT name, type FROM queries")}
        steps = {(r[0], r[1]) for r in store.query("SELECT filter, type FROM attrition")}
    assert kinds["Brussels"] == "ORG" and "Berlin" not in kinds
    assert kinds["European Union"] == "ORG" and kinds["Angela Merkel"] == "PER"
    assert ("reviewed as not a place", "LOC") in steps
    rows["Berlin"][4] = "city"
    review.write_text("\n".join("\t".join(r) for r in rows.values()) + "\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"names\.tsv, line \d+: type column is 'city': .* "
                                       r"\(PER, ORG, LOC\) or none"):
        read_review_types(review, ["PER", "ORG", "LOC"])


def test_kb_search_keeps_to_a_type(built: tuple[Path, Config], tmp_path: Path) -> None:
    _, config = built
    _load_commands()
    cli = CliRunner()
    path = str(tmp_path / "config.yaml")
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config.model_dump(mode="json"),
                                                                         sort_keys=False),
                                          encoding="utf-8")
    every = cli.invoke(app, ["kb", "search", "Berlin", "--config", path])
    orgs = cli.invoke(app, ["kb", "search", "Berlin", "--config", path, "--type", "org"])
    assert every.exit_code == 0 and "Q64" in every.output and "Q1" in every.output
    assert orgs.exit_code == 0 and "Q1" in orgs.output and "Q64" not in orgs.output
    wrong = cli.invoke(app, ["kb", "search", "Berlin", "--config", path, "--type", "city"])
    assert isinstance(wrong.exception, XelError)
    assert "the config's types are PER, ORG, LOC" in str(wrong.exception)


def test_no_queries_of_any_type_names_each_types_last_filter(tmp_path: Path, make_config: Any
                                                             ) -> None:
    config = typed_config(make_config, tmp_path, 2, "none", min_documents=100)
    with Store(config.resolve(config.store)) as store, pytest.raises(XelError) as error:
        build(store, config, crowd="simulated", say=lambda _: None)
    message = str(error.value)
    for kind in ("person", "organization", "place"):
        assert f"{kind} mentions, and the filter 'names in fewer than 100 documents'" in message


def test_xel_triage_links_a_typed_collections_queries_first(tmp_path: Path,
                                                            make_config: Any) -> None:
    # `xel triage` alone: translated names go back to English through their KB candidates,
    # so the link stage runs first (without it every one went to curation, silently)
    config = typed_config(make_config, tmp_path, 6, "triage")
    path = tmp_path / "config.yaml"
    path.write_text(yaml.safe_dump(config.model_dump(mode="json"), sort_keys=False),
                    encoding="utf-8")
    _load_commands()
    result = CliRunner().invoke(app, ["triage", str(path)])
    assert result.exit_code == 0, result.output
    with Store(config.resolve(config.store)) as store:
        outcomes = {r[0]: (r[1], r[2]) for r in store.query(
            "SELECT q.name, t.outcome, t.backend FROM triage t JOIN queries q USING (query_id)"
            " WHERE t.lang = 'deu'")}
    assert outcomes["European Union"] == ("A1", "kb")
