"""corpora/ntrex128/el-reference-types.tsv and el-gold-types.tsv: well-formed, the gold a subset
of the reference, the people's answers el-reference.tsv's, and (with ../shared/data) every KB
answer an entity of the query's type; the checker's helpers on small cases."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import load_script

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "corpora" / "ntrex128"
STORE = ROOT / "work" / "ntrex-types-gold" / "xel.sqlite"
KB_ID = re.compile(r"^(Q[1-9][0-9]*|[a-z][a-z0-9-]*:[^\s#]+)$")


tr = load_script(HERE / "types_reference.py", "ntrex128_types_reference")


def rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def reference() -> dict[str, str]:
    return tr.read_answers(tr.REFERENCE)


@pytest.fixture(scope="module")
def gold() -> dict[str, str]:
    return tr.read_answers(tr.GOLD)


@pytest.mark.parametrize("path", [tr.REFERENCE, tr.GOLD])
def test_files_parse_with_unique_ids_and_well_formed_answers(path: Path) -> None:
    lines = rows(path)
    assert lines and all(len(row) == 2 for row in lines)
    ids = [q for q, _ in lines]
    assert len(ids) == len(set(ids)), [q for q, n in Counter(ids).items() if n > 1]
    assert all(re.fullmatch(r"EN-[0-9A-F]{10}", q) for q in ids)
    for q, answer in lines:
        assert answer in (tr.NIL, tr.NOT_TYPE) or KB_ID.match(answer), (q, answer)
    groups = tr.read_groups(path)
    assert set(groups) == set(ids), "every row sits under a `# <name> (<type>)` line"
    assert {kind for _, kind in groups.values()} <= set(tr.TYPES)


def test_every_type_is_annotated(reference: dict[str, str]) -> None:
    groups = tr.read_groups(tr.REFERENCE)
    per_type = Counter(kind for _, kind in groups.values())
    assert per_type == {"PER": 143, "ORG": 131, "LOC": 245, "EVENT": 10}
    assert len({g for g in groups.values() if g[1] != "PER"}) == 117
    assert len(reference) == sum(per_type.values())


def test_gold_is_a_subset_of_the_reference(reference: dict[str, str],
                                           gold: dict[str, str]) -> None:
    assert set(gold) <= set(reference)
    assert all(reference[q] == answer for q, answer in gold.items())
    groups, gold_groups = tr.read_groups(tr.REFERENCE), tr.read_groups(tr.GOLD)
    assert all(gold_groups[q] == groups[q] for q in gold)
    for kind in tr.TYPES:
        n = sum(1 for g in groups.values() if g[1] == kind)
        drawn = [q for q in gold if groups[q][1] == kind]
        assert abs(len(drawn) - n / 4) <= 1, (kind, len(drawn), n)
        # spread over names: no name gives two items while another of that type gives none
        per_name = Counter(groups[q][0] for q in drawn)
        if len({g for g in groups.values() if g[1] == kind}) > len(drawn):
            assert max(per_name.values()) <= 1 or kind == "PER", (kind, per_name)


def test_people_agree_with_el_reference(reference: dict[str, str], gold: dict[str, str]) -> None:
    people = tr.read_answers(tr.PERSON_REFERENCE)
    groups = tr.read_groups(tr.REFERENCE)
    # a query of another type answers another question (`Rapid Vienna`: no person, an ORG NIL)
    shared = [q for q in reference if q in people and groups[q][1] == "PER"]
    assert all(reference[q] == people[q] for q in shared), [
        (q, reference[q], people[q]) for q in shared if reference[q] != people[q]]
    per = [q for q in reference if groups[q][1] == "PER"]
    assert len([q for q in per if q not in people]) == 4  # annotated here
    person_gold = tr.read_answers(tr.PERSON_GOLD)
    assert all(gold.get(q) == a for q, a in person_gold.items()
               if q in reference and groups[q][1] == "PER")


def test_kb_answers_are_entities_of_the_query_type(shared_data: Path,
                                                   reference: dict[str, str]) -> None:
    persons = shared_data / "kb" / "persons.jsonl"
    if not persons.is_file():
        pytest.skip(f"needs {persons} (absent here)")
    groups = tr.read_groups(tr.REFERENCE)
    ids = {a for a in reference.values() if tr.in_kb(a)}
    kb_types = tr.kb_types_from_files([persons, ROOT / "corpora/kb_types/entities.jsonl.gz"], ids)
    assert ids <= set(kb_types), sorted(ids - set(kb_types))
    wrong = [(q, a, kb_types[a], groups[q][1]) for q, a in reference.items()
             if tr.in_kb(a) and kb_types[a] != groups[q][1]]
    assert not wrong


def test_the_files_fit_the_store(reference: dict[str, str], gold: dict[str, str]) -> None:
    if not STORE.is_file():
        pytest.skip(f"needs a build of configs/ntrex-types-gold.yaml at {STORE} (absent here)")
    queries = tr.store_queries(STORE)
    groups = tr.read_groups(tr.REFERENCE)
    assert all(groups[q][1] == queries[q].type for q in reference if q in queries)
    index = ROOT / "work" / "kb" / "all-types.sqlite"
    if index.is_file():
        kb_types = tr.kb_types_from_index(index, reference.values())
        assert tr.check(reference, gold, queries, kb_types) == []


def q(query_id: str, name: str, kind: str, ordinal: int) -> Any:
    return tr.Query(query_id, name, kind, ordinal)


def test_check_names_every_problem() -> None:
    queries = {"a": q("a", "Paris", "LOC", 1), "b": q("b", "NATO", "ORG", 2),
               "c": q("c", "UN", "ORG", 3)}
    reference = {"a": "Q90", "b": "Q90", "x": "NIL"}
    problems = tr.check(reference, {"a": "NIL", "y": "NIL"}, queries,
                        {"Q90": "LOC"})
    assert problems == [
        "c (UN, ORG) has no answer", "x is answered but is not a query of the store",
        "b (NATO): Q90 is a LOC, the query a ORG",
        "gold item a answers NIL, the reference Q90", "gold item y is not in the reference"]
    assert tr.check({"a": "Q90", "b": "NOT_PERSON", "c": "Q9"}, {}, queries,
                    {"Q90": "LOC"}) == ["c (UN): Q9 is not in the KB"]


def test_counts_and_top1() -> None:
    queries = {"a": q("a", "Paris", "LOC", 1), "b": q("b", "Paris", "LOC", 2),
               "c": q("c", "Brexit", "LOC", 3), "d": q("d", "FBI", "ORG", 4)}
    reference = {"a": "Q90", "b": "Q90", "c": "NOT_PERSON", "d": "NIL"}
    table = tr.counts(reference, queries, {"a": "Q90", "b": "geonames:2988507", "d": "Q1"})
    assert table == {"ORG": {"queries": 1, "nil": 1, "top1": 0},
                     "LOC": {"queries": 3, "in_kb": 2, "not_type": 1, "top1": 1}}


def test_gold_draw_is_seeded_and_spread_over_names() -> None:
    queries = {f"{n}{i}": q(f"{n}{i}", n, "LOC", 10 * k + i)
               for k, n in enumerate("ABCDEFGH") for i in range(3 if n == "A" else 2)}
    reference = {x: "NIL" for x in queries}
    first = tr.draw_gold(reference, queries, [])
    assert first == tr.draw_gold(reference, queries, [])
    assert len(first) == round(len(queries) / 4)
    assert len({queries[x].name for x in first}) == len(first)
    kept = tr.draw_gold(reference, queries, ["A0", "A1", "nowhere"])
    assert {"A0", "A1"} <= set(kept) and len(kept) == len(first)
