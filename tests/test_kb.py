"""KB readers (Wikidata dump, JSONL), the index build and its skip, and candidate generation."""

from __future__ import annotations

import bz2
import gzip
import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xel import kb as kb_module
from xel.config import Config, CorpusConfig, KbConfig
from xel.errors import XelError
from xel.kb import KnowledgeBase, build_kb, foreign_key, fragments, read_jsonl, read_wikidata
from xel.registry import kb_readers
from xel.store import Store

BERLIN = {  # a non-person item: P31 is city (Q515), not human
    "id": "Q64", "type": "item", "labels": {"en": {"language": "en", "value": "Berlin"}},
    "claims": {"P31": [{"mainsnak": {"snaktype": "value", "property": "P31", "datavalue": {
        "value": {"entity-type": "item", "numeric-id": 515, "id": "Q515"},
        "type": "wikibase-entityid"}}, "type": "statement"}]},
    "sitelinks": {"enwiki": {"site": "enwiki", "title": "Berlin"}},
}
NO_ENGLISH = {  # a human with neither an English label nor an English Wikipedia page
    "id": "Q99", "labels": {"de": {"language": "de", "value": "Hans Muster"}},
    "claims": {"P31": [{"mainsnak": {"datavalue": {"value": {"numeric-id": 5}}}}]},
}
MUL_ONLY = {  # a human named by a `mul` label only, as Wikidata now does for many names
    "id": "Q8", "labels": {"mul": {"language": "mul", "value": "Ngozi Okonjo-Iweala"}},
    "aliases": {"mul": [{"language": "mul", "value": "Ngozi Okonjo Iweala"}],
                "en": [{"language": "en", "value": "Okonjo-Iweala"}]},
    "claims": {"P31": [{"mainsnak": {"datavalue": {"value": {"id": "Q5"}}}}]},
}
Q15 = {  # P31 Q15 is not Q5, even though `"Q5` is a prefix of it
    "id": "Q7", "labels": {"en": {"language": "en", "value": "Not A Person"}},
    "claims": {"P31": [{"mainsnak": {"datavalue": {"value": {"id": "Q15", "numeric-id": 15}}}}]},
}


def config_for(tmp_path: Path, kb_file: Path, fmt: str = "jsonl") -> Config:
    return Config(
        name="test", root=str(tmp_path), corpus=CorpusConfig(path=str(tmp_path)),
        kb=KbConfig(path=str(kb_file), format=fmt, index=str(tmp_path / "kb.sqlite")),
    )


def dump_lines(sample: Path) -> list[str]:
    """The genuine sample's entity lines plus a city, a human without English, and a Q15."""
    entities = [line for line in sample.read_text(encoding="utf-8").splitlines()
                if line.startswith("{")]
    extra = [json.dumps(e) + "," for e in (BERLIN, NO_ENGLISH, Q15)]
    body = [e if e.endswith(",") else e + "," for e in entities] + extra
    body[-1] = body[-1].removesuffix(",")
    return ["[", *body, "]"]


def write(path: Path, lines: list[str]) -> Path:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if path.name.endswith(".gz"):
        data = gzip.compress(data)
    elif path.name.endswith(".bz2"):
        data = bz2.compress(data)
    path.write_bytes(data)
    return path


def places_kb(tmp_path: Path, records: list[str]) -> KnowledgeBase:
    """A KB index built from these JSONL records (`places.jsonl`), to open with `with`."""
    build_kb(config_for(tmp_path, write(tmp_path / "places.jsonl", records)))
    return KnowledgeBase(tmp_path / "kb.sqlite")


@pytest.fixture(scope="module")
def sample(shared_data: Path) -> Path:
    return shared_data / "kb" / "wikidata-persons-sample.json"


@pytest.fixture(scope="module")
def persons_kb(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    tmp = tmp_path_factory.mktemp("persons")
    build_kb(config_for(tmp, shared_data / "kb" / "persons.jsonl"))
    return KnowledgeBase(tmp / "kb.sqlite")


# --- Wikidata reader ---------------------------------------------------------------------


def test_registry_lists_both_readers() -> None:
    assert kb_readers.names() == ["jsonl", "wikidata"]


def test_genuine_sample_reads_the_three_people(sample: Path) -> None:
    people = {e.kb_id: e for e in read_wikidata(sample)}
    assert set(people) == {"Q42", "Q328212", "Q646148"}
    adams = people["Q42"]
    assert adams.name == "Douglas Adams"
    assert "Douglas Noël Adams" in adams.aliases
    assert adams.description == "English writer and humorist"
    assert adams.wikipedia == "Douglas Adams"
    assert adams.popularity == 101  # sitelinks


def test_numeric_id_only_claims_count_as_human(sample: Path) -> None:
    # Q328212's P31 value is {"numeric-id": 5, "entity-type": "item"} with no "id".
    roth = next(e for e in read_wikidata(sample) if e.kb_id == "Q328212")
    assert (roth.name, roth.description, roth.wikipedia) == (
        "Veronica Roth", "American author", "Veronica Roth")


def test_mul_label_names_a_person(tmp_path: Path) -> None:
    dump = write(tmp_path / "mul.json", ["[", json.dumps(MUL_ONLY), "]"])
    (person,) = read_wikidata(dump)
    assert person.name == "Ngozi Okonjo-Iweala"
    assert person.aliases == ("Okonjo-Iweala", "Ngozi Okonjo Iweala")
    assert person.wikipedia is None and person.popularity is None


@pytest.mark.parametrize("suffix", [".json", ".json.gz", ".json.bz2"])
def test_compressed_dumps_stream_the_same_people(
    sample: Path, tmp_path: Path, suffix: str
) -> None:
    dump = write(tmp_path / f"dump{suffix}", dump_lines(sample))
    found = [(e.kb_id, e.type) for e in read_wikidata(dump)]
    # Q99 (no English name) and Q7 (P31 Q15, no English Wikipedia page) are not taken; Berlin
    # is, as OTHER: its class has no P279 path to a root in this dump, but it has an enwiki page.
    assert found == [("Q42", "PER"), ("Q328212", "PER"), ("Q646148", "PER"), ("Q64", "OTHER")]


def test_malformed_line_is_named(sample: Path, tmp_path: Path) -> None:
    lines = dump_lines(sample)
    lines.insert(2, '{"id": "Q1", "claims": {"P31": [}},')
    dump = write(tmp_path / "dump.json", lines)
    with pytest.raises(XelError, match=r"dump\.json, line 3, column \d+: not valid JSON"):
        list(read_wikidata(dump))


def test_truncated_line_is_named_without_parsing(tmp_path: Path) -> None:
    dump = write(tmp_path / "cut.json", ["[", json.dumps(BERLIN) + ",", '{"id": "Q2", "lab'])
    with pytest.raises(XelError, match=r"cut\.json, line 3: not a Wikidata entity"):
        list(read_wikidata(dump))


def test_invalid_utf8_names_line_and_byte(tmp_path: Path) -> None:
    dump = tmp_path / "latin1.json"
    dump.write_bytes(b'[\n{"id": "Q1", "labels": {"en": {"value": "Ren\xe9"}}}\n]\n')
    with pytest.raises(XelError, match=r"latin1\.json, line 2: invalid UTF-8 \(byte 0xe9"):
        list(read_wikidata(dump))


@pytest.mark.parametrize("content", [b"", b"  \n\n", gzip.compress(b"")])
def test_empty_file_is_an_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.json"
    path.write_bytes(content)
    with pytest.raises(XelError, match="file is empty"):
        list(read_wikidata(path))


@pytest.mark.parametrize("damage", ["truncated", "corrupted"])
def test_damaged_gzip_is_an_error(sample: Path, tmp_path: Path, damage: str) -> None:
    whole = gzip.compress(sample.read_bytes())
    path = tmp_path / "damaged.json.gz"
    # Corrupted: the first deflate block's header inverted, which zlib rejects.
    path.write_bytes(whole[: len(whole) // 2] if damage == "truncated"
                     else whole[:12] + bytes(b ^ 0xFF for b in whole[12:20]) + whole[20:])
    with pytest.raises(XelError, match=r"damaged\.json\.gz: cannot decompress"):
        list(read_wikidata(path))


def test_entity_without_id_is_an_error(tmp_path: Path) -> None:
    no_id = {k: v for k, v in NO_ENGLISH.items() if k != "id"}
    dump = write(tmp_path / "noid.json", ["[", json.dumps(no_id), "]"])
    with pytest.raises(XelError, match=r"line 2: entity has no \"id\""):
        list(read_wikidata(dump))


def test_no_people_is_an_error(tmp_path: Path) -> None:
    # An untyped item without an English Wikipedia page, and a human without an English name.
    dump = write(tmp_path / "cities.json", ["[", json.dumps(Q15) + ",", json.dumps(NO_ENGLISH),
                                            "]"])
    with pytest.raises(XelError, match="no entities found"):
        build_kb(config_for(tmp_path, dump, "wikidata"))


# --- JSONL reader ------------------------------------------------------------------------


def test_real_jsonl_reads_every_person(shared_data: Path) -> None:
    people = list(read_jsonl(shared_data / "kb" / "persons.jsonl"))
    assert len(people) == 12302
    pompeo = next(e for e in people if e.kb_id == "Q473239")
    assert pompeo.name == "Mike Pompeo" and pompeo.popularity is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"name": "A B"}', r'line 2: record has no "id"'),
        ('{"id": "x2", "name": "  "}', r'line 2: record x2 has no "name"'),
        ('{"id": "x2", "name": "A B", "aliases": "A"}', r"line 2: `aliases` must be a list"),
        ('{"id": "x2", "name": "A B", "popularity": "high"}', r"line 2: `popularity` must be"),
        ('{"id": "x2", "name": "A B"', r"line 2, column \d+: not valid JSON"),
        ('["x2", "A B"]', r"line 2: expected a JSON object"),
    ],
)
def test_bad_jsonl_records_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path / "kb.jsonl", ['{"id": "x1", "name": "Ann Lee"}', line])
    with pytest.raises(XelError, match=message):
        list(read_jsonl(path))


def test_records_keep_their_coarse_type(tmp_path: Path) -> None:
    path = write(tmp_path / "kb.jsonl", [
        '{"id": "x1", "name": "Ann Lee"}',
        '{"id": "x2", "name": "Acme Corp", "type": "ORG"}',
        '{"id": "x3", "name": "Berlin", "type": "GPE", "labels": {"ru": ["Берлин", "Берлине"]}}',
        '{"id": "x4", "name": "Kim Jong-un", "type": "PERSON"}',
    ])
    found = list(read_jsonl(path))
    assert [(e.kb_id, e.type) for e in found] == [
        ("x1", "PER"), ("x2", "ORG"), ("x3", "LOC"), ("x4", "PER")]
    assert found[2].labels == (("ru", "Берлин"), ("ru", "Берлине"))


def test_a_label_of_one_han_character_is_not_looked_for(tmp_path: Path) -> None:
    # a source's translations cut `广州` (Guangzhou) to `广`, which every word with that
    # character would match: the index keeps two characters or more
    path = write(tmp_path / "kb.jsonl", [
        '{"id": "Q16572", "name": "Guangzhou", "type": "LOC", '
        '"labels": {"zh-hans": ["广"], "ja": ["広"], "ru": ["Гуанчжоу"]}}',
        '{"id": "Q42622", "name": "Suzhou", "type": "LOC", "labels": {"zh-hans": ["苏", "苏州"]}}',
    ])
    build_kb(config_for(tmp_path, path))
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert kb.foreign_labels("Q16572", ["zh-hans", "ja"]) == []
        assert kb.foreign_labels("Q16572", ["ru"]) == ["Гуанчжоу"]
        assert kb.foreign_labels("Q42622", ["zh-hans"]) == ["苏州"]
        assert kb.by_foreign_key("广", "zh-hans") == []


def test_an_entitys_labels_are_read_in_every_code_asked(tmp_path: Path) -> None:
    # a Chinese sentence is matched against both scripts' labels, folded: one script's label
    # may be a slip (Natural Earth's Traditional `巴塘` for Padang, beside `巴东`)
    path = write(tmp_path / "kb.jsonl", [
        '{"id": "Q7253", "name": "Padang", "type": "LOC", '
        '"labels": {"zh-hant": ["巴塘"], "zh-hans": ["巴东", "巴塘"]}}'])
    build_kb(config_for(tmp_path, path))
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert kb.foreign_labels("Q7253", ["zh-hant", "zh-hans"]) == ["巴塘", "巴东"]


def test_an_unknown_type_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "kb.jsonl", ['{"id": "x1", "name": "Ann Lee"}',
                                         '{"id": "x2", "name": "Sirius", "type": "STAR"}'])
    with pytest.raises(XelError, match=r"line 2: record x2 has type 'STAR': use one of PER"):
        list(read_jsonl(path))


def test_candidates_of_one_type_from_several_files(tmp_path: Path) -> None:
    people = write(tmp_path / "people.jsonl", [
        '{"id": "P1", "name": "Georgia Smith", "popularity": 10}',
        '{"id": "P2", "name": "Paris Hilton", "popularity": 50}'])
    places = write(tmp_path / "places.jsonl", [
        '{"id": "Q230", "name": "Georgia", "type": "LOC", "popularity": 900, '
        '"labels": {"de": "Georgien", "ru": ["Грузия", "Сакартвело"]}}',
        '{"id": "Q90", "name": "Paris", "type": "LOC", "aliases": ["City of Light"], '
        '"popularity": 1000}',
        '{"id": "Q458", "name": "European Union", "type": "ORG", "aliases": ["EU"]}'])
    config = config_for(tmp_path, people)
    config.kb.path = [str(people), str(places)]
    assert build_kb(config).summary["entities"] == 5
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert {f.entity.kb_id for f in kb.candidates("Paris", type="LOC")} == {"Q90"}
        assert "Q90" not in {f.entity.kb_id for f in kb.candidates("Paris Hilton", type="PER")}
        assert [f.entity.kb_id for f in kb.candidates("EU", type="ORG")] == ["Q458"]
        assert [f.entity.kb_id for f in kb.by_key("E.U.", "alias", "ORG")] == ["Q458"]
        assert kb.types_named("Georgia") == {"LOC"}
        georgia = kb.entity("Q230")
        assert georgia is not None and georgia.type == "LOC"
        forms = kb.conn.execute("SELECT lang, form, key FROM foreign_forms f JOIN entities e"
                                " USING (entity) WHERE e.kb_id = 'Q230' ORDER BY lang, form")
        assert [tuple(r) for r in forms] == [("de", "Georgien", "georgien"),
                                             ("ru", "Грузия", "грузия"),
                                             ("ru", "Сакартвело", "сакартвело")]
        # every English name and alias beside every form in the languages asked for
        assert sorted(kb.translations(["ru", "de"])) == [
            ("Georgia", "Georgien"), ("Georgia", "Грузия"), ("Georgia", "Сакартвело")]
        assert kb.translations(["fr"]) == []
    # a second file changes the index's signature: adding one rebuilds it
    config.kb.path = [str(people)]
    assert build_kb(config).summary["entities"] == 2


def test_a_place_named_for_its_government_takes_the_places_labels(tmp_path: Path) -> None:
    from xel.translated import entities_named, translated_labels

    records = [
        '{"id": "Q956", "name": "Beijing", "type": "LOC", "labels": {"de": "Peking",'
        ' "ar": "بكين"}}',
        '{"id": "Q1", "name": "Jordan", "type": "LOC", "labels": {"de": "Jordanien"}}',
        '{"id": "Q2", "name": "Jordan", "type": "ORG", "labels": {"de": "Jordan-Team"}}']
    with places_kb(tmp_path, records) as kb:
        # `Beijing said`: no organization is named so; the place's labels
        assert translated_labels(kb, "Beijing", "ORG", "deu") == ("Peking",)
        # where one of the type is, its labels alone
        assert translated_labels(kb, "Jordan", "ORG", "deu") == ("Jordan-Team",)
        assert translated_labels(kb, "Beijing", "PER", "deu") == ()
        # NTREX's Standard Arabic (`arb`) is labelled `ar`, its macrolanguage's code
        assert translated_labels(kb, "Beijing", "LOC", "arb") == ("بكين",)
        # the round trip's link candidates keep to the query's type, as the linker's do
        assert entities_named(kb, "Beijing", "ORG") == []
        assert [e.kb_id for e in entities_named(kb, "Beijing", "LOC")] == ["Q956"]


def test_british_spellings_are_found_as_american_news_spells_them(tmp_path: Path) -> None:
    from xel.names.english import american
    from xel.translated import translated_labels

    assert american("Shanghai Cooperation Organisation") == "Shanghai Cooperation Organization"
    assert american("World Trade Centre") == "World Trade Center"
    assert american("UN ENVIRONMENT PROGRAMME") == "UN ENVIRONMENT PROGRAM"
    assert american("Labour Party") == "Labour Party"  # not the Labor Party
    records = [
        '{"id": "Q485207", "name": "Shanghai Cooperation Organisation", "type": "ORG",'
        ' "labels": {"ru": "Шанхайская организация сотрудничества"}}',
        '{"id": "P9", "name": "Centre Smith", "popularity": 1}']
    with places_kb(tmp_path, records) as kb:
        assert translated_labels(kb, "Shanghai Cooperation Organization", "ORG", "rus") == (
            "Шанхайская организация сотрудничества",)
        assert kb.by_key("Center Smith", "name") == []  # people keep their own spelling


def test_a_natural_features_one_word_name_takes_the_features_labels(tmp_path: Path) -> None:
    from xel.translated import translated_labels

    records = [
        '{"id": "Q3392", "name": "Nile River", "type": "LOC", "labels": {"de": "Nil"}}',
        '{"id": "Q1", "name": "Georgia", "type": "LOC", "labels": {"de": "Georgien"}}',
        '{"id": "Q2", "name": "Georgia Lake", "type": "LOC", "labels": {"de": "Georgiasee"}}',
        '{"id": "Q3", "name": "Amazon River", "type": "LOC", "labels": {"de": "Amazonas"}}',
        '{"id": "Q4", "name": "Kamchatka", "type": "LOC", "labels": {"ru": "Камчатский край"}}',
        '{"id": "Q5", "name": "Kamchatka Peninsula", "type": "LOC", '
        '"labels": {"de": "Kamtschatka", "ru": "Камчатка"}}']
    with places_kb(tmp_path, records) as kb:
        assert translated_labels(kb, "Nile", "LOC", "deu") == ("Nil",)  # `the Nile`
        # a place of the name itself is what it names
        assert translated_labels(kb, "Georgia", "LOC", "deu") == ("Georgien",)
        # only for places: the company is not the river
        assert translated_labels(kb, "Amazon", "ORG", "deu") == ()
        assert translated_labels(kb, "Amazon", "LOC", "deu") == ("Amazonas",)
        assert translated_labels(kb, "Nile Basin", "LOC", "deu") == ()  # one word only
        # a place of the name with no label in the language: the feature's
        assert translated_labels(kb, "Kamchatka", "LOC", "deu") == ("Kamtschatka",)
        assert translated_labels(kb, "Kamchatka", "LOC", "rus") == ("Камчатский край",)


def test_a_places_formal_name_takes_the_labels_of_the_name_it_is_formally_called(
        tmp_path: Path) -> None:
    from xel.translated import translated_labels

    records = [
        '{"id": "Q90", "name": "France", "type": "LOC", "labels": {"zh-hant": "法國"}}',
        '{"id": "Q1486", "name": "Buenos Aires", "type": "LOC", "labels": {"de": "Buenos Aires"}}',
        '{"id": "Q1", "name": "Kingdom of Sardinia", "type": "LOC", "labels": {"de": "Sardinien"}}',
        '{"id": "Q2", "name": "Bank of France", "type": "ORG", "labels": {"de": "Banque"}}']
    with places_kb(tmp_path, records) as kb:
        # PUD: `Kingdom of France` is `法國`, `City of Buenos Aires` `Stadt Buenos Aires`
        assert translated_labels(kb, "Kingdom of France", "LOC", "zho-TW") == ("法國",)
        assert translated_labels(kb, "City of Buenos Aires", "LOC", "deu") == ("Buenos Aires",)
        # an entity of the formal name keeps its own labels
        assert translated_labels(kb, "Kingdom of Sardinia", "LOC", "deu") == ("Sardinien",)
        # places only, and only formal words before `of`
        assert translated_labels(kb, "Bank of France", "LOC", "zho-TW") == ()
        assert translated_labels(kb, "Gulf of France", "LOC", "zho-TW") == ()


def test_foreign_key_folds_case_accents_and_punctuation() -> None:
    assert foreign_key("Union Européenne") == "union europeenne"
    assert foreign_key("«Манчестер Юнайтед»") == "манчестер юнаитед"
    assert foreign_key("北大西洋公约组织") == "北大西洋公约组织"
    assert foreign_key("मुंबई") == "मुंबई"  # Devanagari keeps its vowel signs


# --- building the index ------------------------------------------------------------------


def test_rebuild_is_skipped_when_unchanged_and_redone_when_the_file_changes(
    tmp_path: Path,
) -> None:
    kb_file = write(tmp_path / "kb.jsonl", ['{"id": "x1", "name": "Ann Lee"}'])
    config = config_for(tmp_path, kb_file)
    first = build_kb(config)
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        rows = kb.conn.execute("SELECT entity, kb_id FROM entities").fetchall()
    second = build_kb(config)
    assert not first.skipped and second.skipped
    assert second.summary == first.summary
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert kb.conn.execute("SELECT entity, kb_id FROM entities").fetchall() == rows
    write(kb_file, ['{"id": "x1", "name": "Ann Lee"}', '{"id": "x2", "name": "Bo Chen"}'])
    third = build_kb(config)
    assert not third.skipped and third.summary["entities"] == 2
    assert build_kb(config, force=True).skipped is False


def test_wikidata_bz2_builds_a_searchable_index(sample: Path, tmp_path: Path) -> None:
    dump = write(tmp_path / "dump.json.bz2", dump_lines(sample))
    run = build_kb(config_for(tmp_path, dump, "wikidata"))
    assert run.summary["entities"] == 4  # the three people and Berlin (OTHER)
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert [f.entity.kb_id for f in kb.by_key("veronica roth", "name")] == ["Q328212"]
        assert [f.entity.kb_id for f in kb.by_key("DNA", "alias")] == ["Q42"]


def test_duplicate_ids_are_kept_apart(tmp_path: Path) -> None:
    kb_file = write(tmp_path / "kb.jsonl", [
        '{"id": "bioguide:None", "name": "Ulysses Grant"}',
        '{"id": "bioguide:None", "name": "William Taft"}',
        '{"id": "bioguide:None", "name": "Herbert Hoover"}',
    ])
    run = build_kb(config_for(tmp_path, kb_file))
    assert run.summary["renamed_duplicate_ids"] == 2
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert kb.entity("bioguide:None#2").name == "William Taft"  # type: ignore[union-attr]
        assert kb.entity("bioguide:None#3").name == "Herbert Hoover"  # type: ignore[union-attr]


def test_missing_index_says_how_to_build(tmp_path: Path) -> None:
    with pytest.raises(XelError, match="xel kb build"):
        KnowledgeBase(tmp_path / "absent.sqlite")


def test_index_of_another_schema_must_be_rebuilt(tmp_path: Path) -> None:
    kb_file = write(tmp_path / "kb.jsonl", ['{"id": "x1", "name": "Ann Lee"}'])
    build_kb(config_for(tmp_path, kb_file))
    with Store(tmp_path / "kb.sqlite") as store:
        store.execute("UPDATE stages SET signature = replace(signature, ?, 'schema=0|')",
                      (f"schema={kb_module.SCHEMA}|",))
    with pytest.raises(XelError, match="run `xel kb build`"):
        KnowledgeBase(tmp_path / "kb.sqlite")


def test_missing_kb_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(XelError, match="absent.jsonl not found"):
        build_kb(config_for(tmp_path, tmp_path / "absent.jsonl"))


# --- fragments and candidate generation --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Mike Pompeo", [("mike", "given"), ("pompeo", "family")]),
        ("Martin Luther King Jr.", [("martin", "given"), ("luther", "middle"), ("king", "family")]),
        ("Joseph II, Holy Roman Emperor", [("joseph", "family")]),
        ("Maria Theresa of Austria", [("maria", "given"), ("theresa", "family")]),
        ("J. R. R. Tolkien", [("tolkien", "family")]),
        ("Kim Jong-un", [("kim", "given"), ("jong", "middle"), ("un", "family")]),
        ("", []),
    ],
)
def test_fragments(name: str, expected: list[tuple[str, str]]) -> None:
    assert fragments(name) == expected


def test_index_holds_every_person(persons_kb: KnowledgeBase) -> None:
    assert len(persons_kb) == 12302
    assert persons_kb.entity("Q473239").name == "Mike Pompeo"  # type: ignore[union-attr]
    assert persons_kb.entity("Q0") is None


def test_exact_name(persons_kb: KnowledgeBase) -> None:
    found = persons_kb.by_key("DONALD  trump", "name")
    assert [f.entity.kb_id for f in found] == ["enwiki:4848272"]
    assert found[0].why == [{"via": "exact", "form": "Donald Trump"}]


def test_alias(persons_kb: KnowledgeBase) -> None:
    found = persons_kb.by_key("Bernie Sanders", "alias")
    assert [f.entity.name for f in found] == ["Bernard Sanders"]
    assert found[0].why == [{"via": "alias", "form": "Bernie Sanders"}]


def test_family_name_fragment_finds_every_pompeo(persons_kb: KnowledgeBase) -> None:
    found = {f.entity.kb_id: f.why for f in persons_kb.by_fragment("Pompeo", 20)}
    assert found["Q473239"] == [{"via": "fragment", "token": "pompeo", "role": "family"}]
    assert "enwiki:1690486" in found  # Ellen Pompeo


def test_ngrams_find_a_misspelling(persons_kb: KnowledgeBase) -> None:
    assert persons_kb.by_key("Donlad Trmp", "name") == []
    found = persons_kb.by_ngrams("Donlad Trmp", 20)
    assert found[0].entity.kb_id == "enwiki:4848272"
    assert found[0].why == [{"via": "ngram", "form": "Donald Trump"}]


def test_candidates_merge_every_reason(persons_kb: KnowledgeBase) -> None:
    found = persons_kb.candidates("Mike Pompeo", 20)
    assert found[0].entity.kb_id == "Q473239"
    # `mike` is too common a given name for an unpopular Mike to make the fragment's top 20.
    assert found[0].why == [
        {"via": "exact", "form": "Mike Pompeo"},
        {"via": "fragment", "token": "pompeo", "role": "family"},
        {"via": "ngram", "form": "Mike Pompeo"},
    ]
    assert len({f.entity.kb_id for f in found}) == len(found)


def test_ngrams_skip_common_trigrams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kb_file = write(tmp_path / "kb.jsonl", ['{"id": "x1", "name": "Ann Lee"}',
                                            '{"id": "x2", "name": "Ann Leigh"}'])
    build_kb(config_for(tmp_path, kb_file))
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert {f.entity.kb_id for f in kb.by_ngrams("Ann Leeh", 5)} == {"x1", "x2"}
        # Every trigram in two names counts as common: only `lee` (Ann Lee's) is searched.
        monkeypatch.setattr(kb_module, "COMMON_GRAM_FLOOR", 1)
        assert [f.entity.kb_id for f in kb.by_ngrams("Ann Leeh", 5)] == ["x1"]
        # Nothing but common trigrams: the rarest are searched rather than none.
        assert {f.entity.kb_id for f in kb.by_ngrams("Ann Le", 5)} == {"x1", "x2"}


def test_ngrams_rank_in_memory_as_sqlite_does(persons_kb: KnowledgeBase,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-memory ranking gives FTS5's bm25 order and limit, ties included, for names
    spelled right and wrong, readings of other scripts, and per type; an index too large for
    memory is ranked by SQLite."""
    names = [e.name for e in itertools.islice(persons_kb.entities(), 0, 3000, 20)]
    names += [n[:3] + n[4:] for n in names[:60]] + [n[::-1] for n in names[:30]]
    names += ["Donlad Trmp", "Kimu Jonu", "Waalid El Maulem", "Ann", "xyzzy", "the"]
    kb = KnowledgeBase(persons_kb.path)

    def found() -> list[list[tuple[str, list[dict[str, str]]]]]:
        return [[(f.entity.kb_id, f.why) for f in kb.by_ngrams(name, 30, type)]
                for type in (None, "PER", "ORG") for name in names]

    in_memory = found()
    index = kb._gram_index()
    assert isinstance(index, kb_module.GramIndex)
    assert KnowledgeBase(persons_kb.path)._gram_index() is index  # read once
    monkeypatch.setattr(kb_module, "GRAMS_IN_MEMORY", 0)
    monkeypatch.setattr(kb_module, "_GRAM_INDEXES", {})
    by_sqlite = found()
    assert kb._gram_index() is None
    for (k, name), mine, theirs in zip(enumerate(names * 3), in_memory, by_sqlite,
                                       strict=True):
        assert mine == theirs, (k, name)
    assert any(in_memory) and not any(in_memory[2 * len(names):])  # no ORG in this KB


def test_ngram_ties_come_in_index_order(tmp_path: Path) -> None:
    kb_file = write(tmp_path / "kb.jsonl", [f'{{"id": "x{k}", "name": "Ann Lee"}}'
                                            for k in (3, 1, 2)])
    build_kb(config_for(tmp_path, kb_file))
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert [f.entity.kb_id for f in kb.by_ngrams("Ann Leeh", 5)] == ["x3", "x1", "x2"]
        assert [f.entity.kb_id for f in kb.by_ngrams("Ann Leeh", 2)] == ["x3", "x1"]


@pytest.mark.parametrize("name", ["", "!!", "a"])
def test_nameless_queries_get_nothing(persons_kb: KnowledgeBase, name: str) -> None:
    assert persons_kb.candidates(name) == []


def test_prior_is_log_scaled_and_neutral_when_absent(persons_kb: KnowledgeBase) -> None:
    sql = "SELECT max(popularity), min(popularity) FROM entities"
    top = persons_kb.conn.execute(sql).fetchone()
    assert persons_kb.prior(top[0]) == pytest.approx(1.0)
    assert persons_kb.prior(top[1]) == pytest.approx(0.0)
    trump = persons_kb.prior(18473809.0)
    assert persons_kb.prior(top[1]) < persons_kb.prior(None) < trump < 1.0


# --- command line ------------------------------------------------------------------------


def test_cli_builds_skips_and_searches(sample: Path, tmp_path: Path) -> None:
    import xel.cli.kb  # noqa: F401  (adds the `kb` commands to the app)
    from xel.cli import app

    write(tmp_path / "dump.json.gz", dump_lines(sample))
    config = tmp_path / "kb.yaml"
    config.write_text(
        f"name: t\nroot: {tmp_path}\ncorpus: {{path: .}}\n"
        "kb: {path: dump.json.gz, format: wikidata, index: kb.sqlite}\n", encoding="utf-8")
    runner = CliRunner()
    built = runner.invoke(app, ["kb", "build", str(config)])
    assert built.exit_code == 0, built.output
    assert "built" in built.output and "entities: 4" in built.output  # with Berlin
    again = runner.invoke(app, ["kb", "build", str(config)])
    assert "unchanged, skipped" in again.output
    found = runner.invoke(app, ["kb", "search", "Veronika Rot", "--config", str(config)],
                          env={"COLUMNS": "200"})
    assert found.exit_code == 0, found.output
    assert "Q328212" in found.output and "ngram: Veronica Roth" in found.output


def test_an_index_an_older_schema_wrote_is_rebuilt(tmp_path: Path) -> None:
    kb_file = write(tmp_path / "kb.jsonl", ['{"id": "x1", "name": "Ann Lee"}'])
    with Store(tmp_path / "kb.sqlite") as store:  # schema 3: entities had no type
        store.execute("CREATE TABLE entities (entity INTEGER PRIMARY KEY, kb_id TEXT, name TEXT,"
                      " aliases TEXT, description TEXT, wikipedia TEXT, popularity REAL)")
        store.execute("INSERT INTO entities VALUES (1, 'old', 'Old One', '[]', '', NULL, NULL)")
    assert build_kb(config_for(tmp_path, kb_file)).summary["entities"] == 1
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        ann = kb.entity("x1")
        assert ann is not None and ann.type == "PER" and kb.entity("old") is None


def test_the_names_baseline_reads_a_translated_name_through_the_kbs_labels(tmp_path: Path
                                                                          ) -> None:
    from xel.score import baseline_answer

    kb_file = write(tmp_path / "kb.jsonl", [
        '{"id": "Q183", "name": "Germany", "type": "LOC", "popularity": 90, '
        '"labels": {"de": ["Deutschland", "BRD"], "ru": "Германия"}}',
        '{"id": "P1", "name": "Deutschland Smith", "popularity": 5}'])
    build_kb(config_for(tmp_path, kb_file))
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        assert baseline_answer(kb, "Deutschland", "deu", None, "LOC") == "Q183"
        assert baseline_answer(kb, "Германия", "rus", None) == "Q183"
        # a person query is not answered by a place's label
        assert baseline_answer(kb, "Deutschland", "deu", None, "PER") == "NIL"
