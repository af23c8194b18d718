"""The typed KB shipped in corpora/kb_types: its shape, and build.py's pure functions."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from conftest import load_script

HERE = Path(__file__).resolve().parent.parent / "corpora" / "kb_types"
DATA = HERE / "entities.jsonl.gz"
LANG = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")


build = load_script(HERE / "build.py", "kb_types_build")


@pytest.fixture(scope="module")
def records() -> list[dict]:
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_file_is_small_enough() -> None:
    assert DATA.stat().st_size < 25 * 1024 * 1024


def test_records_have_the_kb_fields(records: list[dict]) -> None:
    assert len(records) > 10_000
    for r in records:
        assert isinstance(r["id"], str) and r["id"]
        assert isinstance(r["name"], str) and r["name"]
        assert isinstance(r["aliases"], list) and all(isinstance(a, str) for a in r["aliases"])
        assert r["type"] in {"ORG", "LOC", "EVENT"}
        assert isinstance(r["description"], str) and r["description"]
        assert r["wikidata"] is None or re.fullmatch(r"Q[1-9][0-9]*", r["wikidata"])
        assert r["id"] == (r["wikidata"] or r["id"])
        if r["wikidata"] is None:
            assert ":" in r["id"]
        assert isinstance(r["popularity"], float) and r["popularity"] >= 0
        assert isinstance(r["sources"], list) and r["sources"]
        labels = r["labels"]
        assert isinstance(labels, dict) and labels["en"][0] == r["name"]
        for lang, names in labels.items():
            assert LANG.match(lang), lang
            assert isinstance(names, list) and names
            assert all(isinstance(n, str) and n == n.strip() and n for n in names)
            assert len(set(names)) == len(names)


def test_ids_are_unique_and_sorted(records: list[dict]) -> None:
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids))
    assert ids == sorted(ids)


def test_every_type_and_the_ntrex21_languages_are_there(records: list[dict]) -> None:
    assert {r["type"] for r in records} == {"ORG", "LOC", "EVENT"}
    langs = {lang for r in records for lang in r["labels"]}
    for code in ("ar", "zh-hant", "ur", "da", "nl", "fi", "it", "pt", "sv", "cs", "fr", "de",
                 "es", "sq", "bg", "hr", "el", "mk", "ro", "sr-latn", "tr"):
        assert code in langs, code


def test_known_entities(records: list[dict]) -> None:
    by_id = {r["id"]: r for r in records}
    assert by_id["Q183"]["name"] == "Germany" and "Deutschland" in by_id["Q183"]["labels"]["de"]
    assert "UK" in by_id["Q145"]["aliases"]
    assert by_id["Q458"]["type"] == "ORG" and "EU" in by_id["Q458"]["aliases"]
    assert by_id["Q1065"]["labels"]["fr"][0] == "Organisation des Nations unies"
    assert "ООН" in by_id["Q1065"]["labels"]["ru"]  # CLDR's short names (ICU's)
    assert {"США", "Соединенные Штаты"} <= set(by_id["Q30"]["labels"]["ru"])
    assert "USA" in by_id["Q30"]["labels"]["de"] and "САЩ" in by_id["Q30"]["labels"]["bg"]


def test_gzip_is_deterministic(tmp_path: Path) -> None:
    rows = [{"id": "b"}, {"id": "a"}]
    build.write_jsonl_gz(rows, tmp_path / "one.gz")
    build.write_jsonl_gz(list(reversed(rows)), tmp_path / "two.gz")
    assert (tmp_path / "one.gz").read_bytes() == (tmp_path / "two.gz").read_bytes()
    assert gzip.decompress((tmp_path / "one.gz").read_bytes()).decode().startswith('{"id": "a"}')


def test_language_codes() -> None:
    assert build.lang_code("zh_TW") == "zh-hant"
    assert build.lang_code("zh-CN") == "zh-hans"
    assert build.lang_code("sr@latin") == "sr-latn"
    assert build.lang_code("pt-BR") == "pt-br"
    assert build.lang_code("deu") == "de"
    assert build.cldr_locale_code("de") == "de"
    assert build.cldr_locale_code("de_AT") is None
    assert build.cldr_locale_code("zh_Hant") == "zh-hant"
    assert build.cldr_locale_code("sr_Latn") == "sr-latn"
    assert build.serbian_code("Nemačka") == "sr-latn"
    assert build.serbian_code("Немачка") == "sr"


def test_scripts() -> None:
    assert build.script_language("Βερολίνο") == "el"
    assert build.script_language("Берлин") is None  # Cyrillic: many languages
    assert build.script_language("Berlin") is None
    assert build.chinese_code("德國") == "zh-hant"
    assert build.chinese_code("德国") == "zh-hans"


def test_cldr_names_from_a_territory_table() -> None:
    tables = {"en": {"DE": "Germany", "150": "Europe"}, "de": {"DE": "Deutschland"},
              "fr": {"DE": "Allemagne"}}
    names = build.cldr_names(tables)
    assert names["DE"] == {"de": ["Deutschland"], "en": ["Germany"], "fr": ["Allemagne"]}
    assert names["150"] == {"en": ["Europe"]}
    alternates = {"de": {"DE": ["BRD", "Deutschland"]}, "en": {"150": ["Europe"]}}
    names = build.cldr_names(tables, alternates)
    assert names["DE"]["de"] == ["Deutschland", "BRD"]  # the full name first, no repeats
    assert names["150"] == {"en": ["Europe"]}


def test_short_and_variant_names_come_from_icu() -> None:
    """babel keeps no `alt` names; ICU's CLDR has them, each in its own language only."""
    russian = build.icu_alternates("ru", ["US", "DE", "CZ"])
    assert russian["US"] == ["США"]
    assert "DE" not in russian  # CLDR has no other Russian name for Germany
    assert russian["CZ"] == ["Чешская Республика"]  # the variant
    assert build.icu_alternates("de", ["US"]) == {"US": ["USA"]}
    assert build.icu_alternates("zh_Hant", ["US"]) == {}  # zh_Hant does not inherit zh's
    assert build.icu_alternates("xx", ["US"]) == {}  # not ICU's default locale's English


def test_csc_record_translations() -> None:
    record = {"name": "Germany", "wikiDataId": "Q183",
              "translations": {"de": "Deutschland", "zh-CN": "德国", "pt-BR": "Alemanha",
                               "pt": "Alemanha", "hr": "Njemačka"}}
    labels = build.csc_translations(record["translations"])
    assert labels == {"de": ["Deutschland"], "hr": ["Njemačka"], "pt": ["Alemanha"],
                      "pt-br": ["Alemanha"], "zh-hans": ["德国"]}
    assert build.qid(record["wikiDataId"]) == "Q183"
    assert build.qid("[No code found.]") is None


def test_mledoze_record() -> None:
    country = {"cca2": "GB", "name": {"common": "United Kingdom",
                                      "official": "United Kingdom of Great Britain and "
                                                  "Northern Ireland"},
               "altSpellings": ["GB", "UK", "Great Britain"],
               "translations": {"deu": {"common": "Vereinigtes Königreich",
                                        "official": "Vereinigtes Königreich Großbritannien"},
                                "srp": {"common": "Ujedinjeno Kraljevstvo", "official": ""},
                                "zho": {"common": "英国", "official": "英国"}}}
    labels = build.mledoze_labels(country)
    assert labels["de"] == ["Vereinigtes Königreich", "Vereinigtes Königreich Großbritannien"]
    assert labels["sr-latn"] == ["Ujedinjeno Kraljevstvo"]
    assert labels["zh-hans"] == ["英国"]
    assert "UK" in build.mledoze_aliases(country)


def test_supraverden_entry() -> None:
    body = {"SPRVD_id": "SPRVD0567566", "Wikidata_code": "Q1065",
            "Entity_type": "International organisation", "Org_family": "UN and affiliates",
            "Name_en": "United Nations", "Abbreviation_en": "UN",
            "Name_fr": "Organisation des Nations unies", "Abbreviation_fr": "ONU",
            "Name_zh": "联合国", "Name_other_en": None}
    e = build.supraverden_entity("United Nations", body)
    assert e is not None and e.wikidata == "Q1065" and e.type == "ORG"
    assert e.labels["fr"] == ["Organisation des Nations unies", "ONU"]
    assert e.labels["zh-hans"] == ["联合国"]
    assert e.aliases == ["UN"]
    assert e.description == "international organization (UN and affiliates)"


def test_event_row() -> None:
    row = {"event": "http://www.wikidata.org/entity/Q327052", "date": "1944-10-21T00:00:00Z",
           "label": "Battle of Aachen"}
    e = build.event_entity(row)
    assert e is not None and e.wikidata == "Q327052" and e.description == "historical event, 1944"
    assert build.event_entity({"event": "http://www.wikidata.org/entity/Q1", "label": "Q1"}) is None


def test_city_matching_prefers_the_nearby_namesake() -> None:
    candidates = [{"id": 1, "name": "Manchester", "latitude": "42.99", "longitude": "-71.45",
                   "wikiDataId": "Q48370"},
                  {"id": 2, "name": "Manchester", "latitude": "53.48", "longitude": "-2.24",
                   "wikiDataId": "Q18125"}]
    assert build.pick_city(candidates, 53.48, -2.24)["id"] == 2
    assert build.pick_city(candidates, 10.0, 10.0) is None


def test_descriptions_and_fold() -> None:
    assert build.region_description("country", "Western Europe", "Europe") == (
        "country in Western Europe")
    assert build.subdivision_description("State", "Germany") == "state of Germany"
    assert build.fold("The  Hague") == "hague"


def test_natural_earth_features_in_the_shipped_file(records: list[dict]) -> None:
    by_id = {r["id"]: r for r in records}
    ocean = by_id["Q1239"]  # Indian Ocean: a place no other source has
    assert ocean["type"] == "LOC" and ocean["sources"] == ["natural-earth"]
    assert ocean["labels"]["zh-hant"] == ["印度洋"] and ocean["labels"]["ru"] == ["Индийский океан"]
    # a river named by one word: `<word> River`, the word no alias (`Red`, `Amazon`)
    assert by_id["Q3392"]["name"] == "Nile River" and "Nile" not in by_id["Q3392"]["aliases"]
    assert by_id["Q3783"]["name"] == "Amazon River" and "Amazon" not in by_id["Q3783"]["aliases"]
    # a place the KB had already (Antarctica, a CLDR territory) leads, and gains the labels
    antarctica = by_id["Q51"]
    assert antarctica["name"] == "Antarctica" and antarctica["description"].startswith("territory")
    assert {"cldr", "natural-earth"} <= set(antarctica["sources"])


NE_RIVER = {"featurecla": "River", "name": "Hong", "name_alt": "Red", "name_en": "Red",
            "wikidataid": "Q206850", "ne_id": "1159109417", "name_de": "Roter Fluss",
            "name_es": "Rojo", "name_fr": "fleuve Rouge", "name_it": "Fiume Rosso",
            "name_zh": "红河", "name_zht": "紅河", "name_ru": ""}


def test_a_natural_earth_river() -> None:
    e = build.ne_entity(NE_RIVER, "10m_physical/ne_10m_rivers_lake_centerlines")
    assert e is not None and e.wikidata == "Q206850" and e.type == "LOC"
    # `Red` alone names no place: neither the name nor an alias
    assert e.name == "Red River" and e.aliases == [] and e.description == "river"
    assert e.labels["zh-hans"] == ["红河"] and e.labels["zh-hant"] == ["紅河"]
    assert "ru" not in e.labels and "en" not in e.labels
    assert build.ne_entity(dict(NE_RIVER, wikidataid=""), "x") is None  # no Wikidata id
    # a name that begins with a preposition is a fragment (`de Gaza`), not a label
    assert build.ne_labels({"name_fr": "de Gaza", "name_de": "Gazastreifen"}) == {
        "de": ["Gazastreifen"]}
    volta = dict(NE_RIVER, name="Nakanbé", name_en="White Volta", name_alt="Nakambé River")
    e = build.ne_entity(volta, "10m_physical/ne_10m_rivers_lake_centerlines")
    assert e is not None and e.name == "White Volta" and e.aliases == ["Nakambé River"]


def test_natural_earth_lakes_regions_and_airports() -> None:
    lake = {"featurecla": "Lake", "name": "Lake Victoria", "name_en": "Nyanza",
            "wikidataid": "Q5505", "name_de": "Victoriasee"}
    e = build.ne_entity(lake, "10m_physical/ne_10m_lakes")
    assert e is not None and e.name == "Lake Victoria" and e.description == "lake"
    assert e.aliases == []  # `Nyanza`, one word
    region = {"FEATURECLA": "Pen/cape", "NAME": "KAMCHATKA PENINSULA", "REGION": "Asia",
              "NAME_EN": "Kamchatka Peninsula", "WIKIDATAID": "Q993", "NAME_RU": "Камчатка"}
    e = build.ne_entity(region, "10m_physical/ne_10m_geography_regions_polys")
    assert e is not None and e.name == "Kamchatka Peninsula" and e.aliases == []
    assert e.description == "peninsula in Asia" and e.labels["ru"] == ["Камчатка"]
    airport = {"featurecla": "Airport", "name": "Ahwaz", "name_en": "Ahvaz International Airport",
               "wikidataid": "Q1432365"}
    e = build.ne_entity(airport, "10m_cultural/ne_10m_airports")
    assert e is not None and e.aliases == []  # `Ahwaz` is the city's name
    assert not build.kept_alias("Grampian Mts.") and not build.kept_alias("GREAT PLAINS")
    assert build.kept_alias("Great Plains") and not build.kept_alias("Superior")


def test_natural_earth_names_the_kbs_cities(records: list[dict]) -> None:
    """Its populated places join the city the KB has by Wikidata or GeoNames id; none added."""
    kb = build.KB()
    london = kb.add(build.Entity(key="csc:1", type="LOC", name="London", description="city",
                                 wikidata="Q84", labels={"es": ["Londres"]}))
    washington = kb.add(build.Entity(key="geonames:4140963", type="LOC", name="Washington",
                                     description="city"))
    rows = [{"WIKIDATAID": "Q84", "GEONAMESID": "2643743.0", "NAME_ES": "Londres",
             "NAME_IT": "Londra", "NAME_AR": "لندن", "NAME_EN": "London"},
            {"WIKIDATAID": "Q61", "GEONAMESID": "4140963.0", "NAME_AR": "واشنطن"},
            {"WIKIDATAID": "Q90", "GEONAMESID": "2988507.0", "NAME_IT": "Parigi"}]
    assert build.join_ne_places(kb, rows) == 2
    assert london.labels == {"es": ["Londres"], "it": ["Londra"], "ar": ["لندن"]}
    assert washington.labels == {"ar": ["واشنطن"]} and "natural-earth" in washington.sources
    assert "Q90" not in kb.entities  # no city is added
    by_id = {r["id"]: r for r in records}
    assert by_id["Q84"]["labels"]["ar"] == ["لندن"] and by_id["Q84"]["labels"]["it"] == ["Londra"]
    assert by_id["geonames:4140963"]["labels"]["ar"] == ["واشنطن"]
