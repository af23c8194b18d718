"""The Wikidata reader's types: a first pass over P279 (subclass of) to Hansel's coarse roots, a
second that types items by P31 (instance of); Wikimedia-internal items dropped; every language's
labels and aliases kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_kb import config_for, write

from xel.errors import XelError
from xel.kb import INTERNAL, TYPE_PRIORITY, KbEntity, KnowledgeBase, build_kb, class_roots
from xel.kb import read_wikidata as read

PERSON, ORGANIZATION, EVENT, GEO_FEATURE = 215627, 43229, 1656682, 618123
DISAMBIGUATION, CATEGORY = 4167410, 4167836


def claims(prop: str, ids: tuple[int, ...], old: bool) -> list[dict[str, Any]]:
    """`prop`'s statements naming items, in the current form or the older `numeric-id` one."""
    return [{"mainsnak": {"snaktype": "value", "property": prop, "datavalue": {
        "value": {"entity-type": "item", "numeric-id": n} | ({} if old else {"id": f"Q{n}"}),
        "type": "wikibase-entityid"}}, "type": "statement", "rank": "normal"} for n in ids]


def item(qid: int, en: str | None = None, p31: tuple[int, ...] = (),
         p279: tuple[int, ...] = (), enwiki: str | None = None,
         labels: dict[str, str] | None = None, aliases: dict[str, list[str]] | None = None,
         old: bool = False) -> dict[str, Any]:
    names = ({"en": en} if en else {}) | (labels or {})
    record: dict[str, Any] = {
        "type": "item", "id": f"Q{qid}",
        "labels": {lang: {"language": lang, "value": v} for lang, v in names.items()},
        "aliases": {lang: [{"language": lang, "value": v} for v in vs]
                    for lang, vs in (aliases or {}).items()},
        "claims": ({"P31": claims("P31", p31, old)} if p31 else {})
        | ({"P279": claims("P279", p279, old)} if p279 else {}),
        "sitelinks": {"enwiki": {"site": "enwiki", "title": enwiki}} if enwiki else {},
    }
    return record


CLASSES = [  # a small class graph, real ids, with a cycle
    item(515, "city", p279=(486972,)),                  # city < human settlement
    item(486972, "human settlement", p279=(2221906,)),  # < geographic location
    item(2221906, "geographic location", p279=(GEO_FEATURE, 486972)),  # < feature (and back)
    item(6881511, "enterprise", p279=(4830453,), old=True),  # < business, the older form
    item(4830453, "business", p279=(ORGANIZATION, 3778211)),  # < organization, legal person
    item(3778211, "legal person", p279=(PERSON,)),
    item(178561, "battle", p279=(1656682,)),
    item(15407973, "disambiguation page of names", p279=(DISAMBIGUATION,)),
]
ITEMS = [
    item(90001, "Springfield", p31=(515,), enwiki="Springfield",
         labels={"de": "Springfeld", "el": "Σπρίνγκφιλντ"},
         aliases={"de": ["Springfield", "Springfeld (Stadt)", "Springfeld"], "en": ["Spfd"],
                  "ru": ["Спрингфилд"]}),
    item(90002, "Acme Corporation", p31=(6881511,), old=True),   # ORG over legal person's PER
    item(90003, "Battle of Nowhere", p31=(178561,), enwiki="Battle of Nowhere"),
    item(90004, "Springfield (disambiguation)", p31=(DISAMBIGUATION,), enwiki="Springfield"),
    item(90005, "Category:Cities", p31=(CATEGORY,), enwiki="Category:Cities"),
    item(90006, "Smith", p31=(15407973,), enwiki="Smith"),      # a subclass of one: dropped
    item(90007, "Widget 3000", p31=(7397,), enwiki="Widget 3000"),  # software: no root
    item(90008, "Widget 2000", p31=(7397,)),                    # the same, no enwiki: skipped
    item(90009, "Monaco-on-Sea", p31=(ORGANIZATION, 515), enwiki="Monaco-on-Sea"),  # LOC wins
    item(90010, "Ann Example", p31=(5,), aliases={"mul": ["A. Example"]}),
    item(90011, "Nameless place", p31=()),                      # no P31: skipped
]
EXPECTED = [("Q90001", "LOC"), ("Q90002", "ORG"), ("Q90003", "EVENT"), ("Q90007", "OTHER"),
            ("Q90009", "LOC"), ("Q90010", "PER")]


def dump(tmp_path: Path, name: str = "typed.json",
         records: list[dict[str, Any]] | None = None) -> Path:
    """A dump in Wikidata's layout: `[`, one entity per line ending in `,` but the last, `]`."""
    body = [json.dumps(r, ensure_ascii=False) + "," for r in records or ITEMS + CLASSES]
    body[-1] = body[-1].removesuffix(",")
    return write(tmp_path / name, ["[", *body, "]"])


def by_id(path: Path) -> dict[str, KbEntity]:
    return {e.kb_id: e for e in read(path)}


@pytest.mark.parametrize("name", ["typed.json", "typed.json.gz", "typed.json.bz2"])
def test_items_are_typed_through_their_classes(tmp_path: Path, name: str) -> None:
    assert [(e.kb_id, e.type) for e in read(dump(tmp_path, name))] == EXPECTED


def test_classes_before_their_instances_type_them_too(tmp_path: Path) -> None:
    # The first pass reads the whole dump, so where a class stands does not matter.
    assert [(e.kb_id, e.type) for e in read(dump(tmp_path, records=CLASSES + ITEMS))] == EXPECTED


def test_labels_and_aliases_of_every_language_are_kept_in_order(tmp_path: Path) -> None:
    springfield = by_id(dump(tmp_path))["Q90001"]
    assert springfield.name == "Springfield" and springfield.aliases == ("Spfd",)
    assert springfield.labels == (
        ("de", "Springfeld"), ("de", "Springfield"), ("de", "Springfeld (Stadt)"),
        ("el", "Σπρίνγκφιλντ"), ("en", "Springfield"), ("en", "Spfd"), ("ru", "Спрингфилд"))
    assert (springfield.wikipedia, springfield.popularity) == ("Springfield", 1)


def test_humans_keep_their_names_and_mul_aliases(tmp_path: Path) -> None:
    ann = by_id(dump(tmp_path))["Q90010"]
    assert (ann.type, ann.name, ann.aliases) == ("PER", "Ann Example", ("A. Example",))
    assert ann.labels == (("en", "Ann Example"), ("mul", "A. Example"))


def test_genuine_people_read_as_before(shared_data: Path) -> None:
    sample = shared_data / "kb" / "wikidata-persons-sample.json"
    if not sample.is_file():
        pytest.skip(f"{sample} is absent: the genuine Wikidata records are not installed")
    people = by_id(sample)
    assert {k: (e.type, e.name) for k, e in people.items()} == {
        "Q42": ("PER", "Douglas Adams"), "Q328212": ("PER", "Veronica Roth"),
        "Q646148": ("PER", "Henning Christophersen")}
    assert people["Q42"].labels == (("en", "Douglas Adams"), ("en", "Douglas Noël Adams"),
                                    ("en", "Douglas Noel Adams"), ("en", "Douglas N. Adams"),
                                    ("en", "DNA"))


def test_class_roots_follow_cycles_and_keep_every_root_reached() -> None:
    roots = class_roots([(101, 102), (102, 103), (103, 102), (103, GEO_FEATURE),
                         (104, ORGANIZATION), (104, 105), (105, PERSON), (106, DISAMBIGUATION)])
    loc, org, per = (1 << TYPE_PRIORITY.index(t) for t in ("LOC", "ORG", "PER"))
    assert [roots.mask([c]) for c in range(101, 108)] == [loc, loc, loc, org | per, per,
                                                          INTERNAL, 0]
    assert [roots.type_of(c) for c in ([101], [104], [105], [101, 104], [107], [106, 104],
                                       [106, 5])] == [
        "LOC", "ORG", "PER", "LOC", "OTHER", None, "PER"]  # a human (Q5) is PER whatever else
    assert class_roots([]).type_of([GEO_FEATURE]) == "LOC"  # a root is its own class


def test_errors_surface_in_the_first_pass_before_any_entity(tmp_path: Path) -> None:
    records = [json.dumps(r) + "," for r in ITEMS + CLASSES]
    lines = ["[", *records[:3], '{"id": "Q1", "claims": {"P279": [}},', *records[3:], "]"]
    entities = read(write(tmp_path / "bad.json", lines))
    with pytest.raises(XelError, match=r"bad\.json, line 5, column \d+: not valid JSON"):
        next(entities)


def test_lines_without_the_properties_are_not_parsed(tmp_path: Path) -> None:
    # Not JSON inside, but neither "P31" nor "P279" in it: shape-checked only, never parsed.
    records = [json.dumps(r) + "," for r in ITEMS + CLASSES]
    lines = ["[", '{"id": "Q2", "labels": {oops}},', *records, "]"]
    assert [(e.kb_id, e.type) for e in read(write(tmp_path / "d.json", lines))] == EXPECTED


def test_properties_and_p31_outside_claims_are_not_entities(tmp_path: Path) -> None:
    prop = {"type": "property", "id": "P9999", "labels": {"en": {"value": "member of"}},
            "claims": {"P31": claims("P31", (ORGANIZATION,), False)}}
    quoted = item(90012, "Quoting Item", enwiki="Quoting Item")
    quoted["claims"] = {"P1545": [{"mainsnak": {}, "qualifiers": {"P31": []}}]}
    path = dump(tmp_path, records=[prop, quoted, *ITEMS, *CLASSES])
    assert [(e.kb_id, e.type) for e in read(path)] == EXPECTED


def test_the_index_keeps_types_labels_and_foreign_forms(tmp_path: Path) -> None:
    run = build_kb(config_for(tmp_path, dump(tmp_path, "typed.json.bz2"), "wikidata"))
    assert run.summary["entities"] == len(EXPECTED)
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert kb.entity("Q90004") is None and kb.entity("Q90008") is None
        assert [f.entity.kb_id for f in kb.by_key("springfield", "name", "LOC")] == ["Q90001"]
        assert kb.by_key("springfield", "name", "ORG") == []
        assert kb.labels(["de"]) == [("Springfield", "Springfeld")]  # the label, not an alias
        assert kb.foreign_labels("Q90001", ["de"]) == [
            "Springfeld", "Springfeld (Stadt)", "Springfield"]
        assert [e.kb_id for e in kb.by_foreign_key("springfeld stadt", "de", "LOC")] == [
            "Q90001"]
