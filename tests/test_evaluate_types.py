"""Issue 36: projection gold of every type (ORG, LOC, EVENT), `--types`, and the pairing of
translated names in parallel NER gold."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import load_script
from test_evaluate import SPAN_GOLD, span_store
from typer.testing import CliRunner

from xel.errors import XelError
from xel.evaluate import (
    INFLECTED_LABEL,
    TYPED_SPAN_HEADER,
    UNSCORED,
    ConllSentence,
    GoldMention,
    SpanGold,
    as_named,
    entity_spans,
    name_cue,
    pair_entities,
    pair_persons,
    read_conll,
    read_span_gold,
    typed_gold_mentions,
    unannotated_names,
)
from xel.names.match import NameMatcher

ROOT = Path(__file__).resolve().parents[1]
TYPES = ROOT / "corpora" / "ntrex_types"
PUD = ROOT / "corpora" / "pud_types"
MIRROR = Path("/work/.mirror")  # where the fetch tool puts the UNER repositories


def test_entity_spans_keep_every_type() -> None:
    tags = ["B-ORG", "I-ORG", "O", "B-LOC", "B-GPE", "I-PER", "B-MISC", "S-EVENT"]
    assert entity_spans(tags) == [(0, 1, "ORG"), (3, 3, "LOC"), (4, 4, "LOC"), (5, 5, "PER"),
                                  (6, 6, "OTHER"), (7, 7, "EVENT")]
    assert entity_spans(["LOC", "LOC", "ORG"]) == [(0, 1, "LOC"), (2, 2, "ORG")]


def test_a_gold_mention_is_projected_as_the_pipeline_names_it() -> None:
    # UNER's span takes the article; the pipeline's mention, and so the KB lookup, does not
    assert as_named("the Andes", "LOC") == ("Andes", 4, 9)
    assert as_named("The Hague", "LOC") == ("The Hague", 0, 9)
    assert as_named("the Doctor", "PER") == ("the Doctor", 0, 10)


def test_translated_names_pair() -> None:
    deu = NameMatcher("deu", None, 0.75)
    # `European Union` is tied to `Europäischen Union` by spelling; `Germany` and
    # `Deutschland` are what is left, one on each side, so they pair by order.
    assert pair_entities(["Germany", "European Union"], ["Europäischen Union", "Deutschland"],
                         deu) == {1: 0, 0: 1}
    # Translated names alone pair by order where the counts agree...
    assert pair_entities(["London", "Paris"], ["Лондон", "Париж"], None) == {0: 0, 1: 1}
    # ...the KB's labels tie them where the counts do not...
    labels = {"london": {"лондон"}}
    assert pair_entities(["Moscow", "London"], ["Лондон"], None, labels) == {1: 0}
    # ...and with no cue and unequal counts nothing is guessed.
    assert pair_entities(["Moscow", "London"], ["Лондон"], None) == {}
    # Folded letters are a cue: the same name in another case and accents.
    assert pair_entities(["NATO", "EU"], ["EU", "Nato"], None) == {0: 1, 1: 0}


def test_a_repeated_name_pairs_with_the_occurrence_at_its_place() -> None:
    # "Spain had expelled ...; many left Spain for Portugal": the English annotation has only
    # the second Spain, the translation both; it pairs with the Spanien at its own place
    labels = {"spain": {"spanien"}, "portugal": {"portugal"}}
    assert pair_entities(["Spain", "Portugal"], ["Spanien", "Spanien", "Portugal"], None,
                         labels, [15 / 26, 17 / 26], [0 / 27, 16 / 27, 18 / 27]) == {
                             0: 1, 1: 2}
    # without positions, the order among the names decides, as before
    assert pair_entities(["Spain", "Portugal"], ["Spanien", "Spanien", "Portugal"], None,
                         labels) == {0: 0, 1: 2}


def test_a_kb_label_written_inflected_is_a_cue() -> None:
    labels = {"france": {"frankreich"}, "cameroun": {"kamerun"}}
    # the genitive `Frankreichs` is France's label inflected; `Kameruns` likewise
    assert name_cue("France", "Frankreichs", None, labels, "deu") == INFLECTED_LABEL
    assert pair_entities(["Cameroun", "France"], ["Kameruns", "Frankreichs"], None, labels,
                         lang="deu") == {0: 0, 1: 1}
    assert name_cue("France", "Frankreichs", None, labels) == 0.0  # no language: no stems
    assert name_cue("France", "Frankfurt", None, labels, "deu") == 0.0


def test_a_label_is_surer_than_spelling_and_the_nearest_label_wins() -> None:
    labels = {"africa": {"африка"}}
    rus = NameMatcher("rus", None, 0.75)
    # "... East Africa ... the two tallest peaks in Africa": `Африки` is Africa's label
    # inflected; `Восточная Африка` only shares a word with it
    assert pair_entities(["Africa"], ["Восточная Африка", "Африки"], rus, labels,
                         [0.9], [0.3, 0.8], "rus") == {0: 1}
    # "France integrated ... with that of France", the first France not annotated as a
    # place: the second takes the `Frankreichs` at its place, the label as sure inflected
    labels = {"france": {"frankreich"}}
    assert pair_entities(["France"], ["Frankreich", "Frankreichs"], None, labels,
                         [0.4], [0.0, 0.35], "deu") == {0: 1}
    # a spelling cue is never as sure as a label
    assert name_cue("Brisbane", "Brisbane's", rus) < INFLECTED_LABEL


def test_names_the_annotations_type_apart_pair_by_letters_or_labels() -> None:
    # "Shenzhen 's traffic police": English tags Shenzhen ORG; German tags the police ORG
    # and Shenzhen LOC. Order within the type would pair Shenzhen with the police.
    pairs = pair_entities(["Shenzhen"], ["Verkehrspolizei", "Shenzhen"], None,
                          english_types=["ORG"], target_types=["ORG", "LOC"])
    assert pairs == {0: 1}
    # a name typed alike still comes first where both are tied
    assert pair_entities(["Albania"], ["Albanien", "Albanien"], None,
                         english_types=["LOC"], target_types=["ORG", "LOC"]) == {0: 1}
    # without letters or a label, nothing pairs across types, not even by order
    assert pair_entities(["London"], ["Лондон"], None, english_types=["ORG"],
                         target_types=["LOC"]) == {}


def test_london_pairs_with_its_cyrillic_spelling() -> None:
    rus = NameMatcher("rus", None, 0.75)
    # reordered in the translation: the transliteration likeness finds London
    pairs = pair_entities(["London", "Germany"], ["Германия", "Лондон"], rus)
    assert pairs == {0: 1, 1: 0}


def test_conll_gold_pairs_each_type_apart(tmp_path: Path) -> None:
    en, de = tmp_path / "en", tmp_path / "de"
    en.write_text("Merkel B-PER\nleft O\nthe O\nEuropean B-ORG\nUnion I-ORG\nfor O\n"
                  "Germany B-LOC\n\nLondon B-LOC\nand O\nParis B-LOC\n\n", encoding="utf-8")
    de.write_text("Merkel B-PER\nverließ O\nfür O\nDeutschland B-LOC\ndie O\nEuropäische B-ORG\n"
                  "Union I-ORG\n\nLondon B-LOC\n\n", encoding="utf-8")
    english, german = read_conll(en), read_conll(de)
    matcher = NameMatcher("deu", None, 0.75)
    typed = typed_gold_mentions(english, german, matcher)
    orgs, left = typed["ORG"]
    assert orgs == [GoldMention(0, 3, 4, (5, 6))] and left == 0
    places, left = typed["LOC"]
    # sentence 2: London is tied by spelling, Paris has no German place left
    assert places == [GoldMention(0, 6, 6, (3, 3)), GoldMention(1, 0, 0, (0, 0))] and left == 1
    people, left = pair_persons(english, german, matcher)
    assert people == [GoldMention(0, 0, 0, (0, 0))] and left == 0


def test_conll_gold_pairs_a_name_typed_apart(tmp_path: Path) -> None:
    en, de = tmp_path / "en", tmp_path / "de"
    en.write_text("Shenzhen B-ORG\n's O\ntraffic O\npolice O\nacted O\n\n", encoding="utf-8")
    de.write_text("Die O\nVerkehrspolizei B-ORG\nin O\nShenzhen B-LOC\n\n", encoding="utf-8")
    orgs, left = typed_gold_mentions(read_conll(en), read_conll(de), None)["ORG"]
    assert orgs == [GoldMention(0, 0, 0, (3, 3))] and left == 0


def test_a_person_in_english_keeps_its_target_from_other_names(tmp_path: Path) -> None:
    # PUD: the German annotation types Villeneuve a place and leaves `britischen Inseln`
    # out; Villeneuve pairs with the English person, so the British Isles have no gold
    # (they were paired with Villeneuve by order)
    english = read_conll_text(tmp_path, "The O\nfleet O\nof O\nVilleneuve B-PER\ngave O\n"
                              "up O\nthe O\nBritish B-LOC\nIsles I-LOC\n")
    german = read_conll_text(tmp_path, "Die O\nFlotte O\nvon O\nVilleneuve B-LOC\ngab O\n"
                             "die O\nbritischen O\nInseln O\nauf O\n")
    typed = typed_gold_mentions([english], [german], None)
    assert typed["LOC"] == ([], 1) and "PER" not in typed


def test_a_name_the_english_writes_unannotated_pairs_by_no_order(tmp_path: Path) -> None:
    # the English leaves *Treaty of London* unannotated, the German annotates `London`: it is
    # not the gold of the one English place left (`Balkan`, which German writes in a word)
    assert unannotated_names(read_conll_text(
        tmp_path, "The O\nTreaty O\nof O\nLondon O\ngave O\nthe O\nBalkan B-LOC\n"
                  "allies O\nAlbania B-LOC\n")) == ["Treaty", "London"]
    kinds = ["LOC", "LOC"]
    assert pair_entities(["Balkan", "Albania"], ["London", "Albanien"], None,
                         {"albania": {"albanien"}}, english_types=kinds, target_types=kinds,
                         unannotated=["Treaty", "London"]) == {1: 1}
    # without the English sentence's other names, order pairs the two left
    assert pair_entities(["Balkan", "Albania"], ["London", "Albanien"], None,
                         {"albania": {"albanien"}}, english_types=kinds,
                         target_types=kinds) == {1: 1, 0: 0}


def read_conll_text(tmp_path: Path, text: str) -> ConllSentence:
    path = tmp_path / "one.conll"
    path.write_text(text + "\n", encoding="utf-8")
    return read_conll(path)[0]


def conll_pair(tmp_path: Path) -> tuple[Path, Path]:
    frames = [("{} said that the talks were good", "{} sagte , die Gespräche seien gut"),
              ("yesterday {} visited the city", "gestern besuchte {} die Stadt")]
    names = [("Angela Merkel", "Angela Merkel", "PER"), ("Toyota", "Toyota", "ORG"),
             ("Burnaston", "Burnaston", "LOC"), ("Reuters", "Reuters", "ORG")]
    en_lines: list[str] = []
    de_lines: list[str] = []
    for en_frame, de_frame in frames * 3:
        for en_name, de_name, kind in names:
            for frame, name, lines in ((en_frame, en_name, en_lines),
                                       (de_frame, de_name, de_lines)):
                for word in frame.split():
                    if word == "{}":
                        lines += [f"{w} {'B' if k == 0 else 'I'}-{kind}"
                                  for k, w in enumerate(name.split())]
                    else:
                        lines.append(f"{word} O")
                lines.append("")
    en, de = tmp_path / "en.conll", tmp_path / "de.conll"
    en.write_text("\n".join(en_lines) + "\n", encoding="utf-8")
    de.write_text("\n".join(de_lines) + "\n", encoding="utf-8")
    return en, de


def test_types_option_chooses_what_is_scored(tmp_path: Path) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    en, de = conll_pair(tmp_path)
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"name": "t", "corpus": {"path": "."},
                                      "kb": {"path": "kb.jsonl"}}), encoding="utf-8")
    out = tmp_path / "figures.json"
    base = ["eval", "projection", str(config), "--conll-en", str(en), "--conll-tgt", str(de),
            "--lang", "deu", "--json", str(out)]
    result = CliRunner().invoke(app, base)
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())["rows"]
    # the default: people only, named as before
    assert [(r["mentions from"], r["type"]) for r in rows] == [("persons", "PER")] * 2
    assert rows[1]["mentions"] == 6
    result = CliRunner().invoke(app, [*base, "--types", "ORG,LOC"])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    rows = figures["rows"]
    assert [(r["mentions from"], r["type"], r["projection"]) for r in rows] == [
        ("organizations", "ORG", "paper"), ("organizations", "ORG", "xel"),
        ("places", "LOC", "paper"), ("places", "LOC", "xel")]
    assert [r["mentions"] for r in rows] == [12, 12, 6, 6]
    assert "|types=ORG,LOC|" in figures["signature"]
    result = CliRunner().invoke(app, [*base, "--types", "PER,TIME"])
    assert isinstance(result.exception, XelError) and "unknown type 'TIME'" in str(
        result.exception)


TYPED_GOLD = SPAN_GOLD.replace(
    "lang\tseg\ten_start\ten_end\tenglish\tgold\tstart\tend",
    "\t".join(TYPED_SPAN_HEADER)).replace(
    "\t梅\t2\t3", "\t梅\t2\t3\tPER\tPERSON\tPER").replace(
    "\tNOT_PERSON\t\t", "\tNOT_ENTITY\t\t\tLOC\tGPE\tOTHER").replace(
    "\t強生\t0\t2", "\t強生\t0\t2\tORG\tORG\tPER")


def test_typed_span_gold_is_scored_per_type(tmp_path: Path) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    span_store(tmp_path)
    gold = tmp_path / "gold.tsv"
    gold.write_text(TYPED_GOLD, encoding="utf-8")
    rows = read_span_gold(gold)
    assert [(r.type, r.label, r.gold_type) for r in rows] == [
        ("PER", "PERSON", "PER"), ("LOC", "GPE", "OTHER"), ("ORG", "ORG", "PER")]
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({"name": "t", "store": "s.sqlite", "corpus": {"path": "."},
                                      "kb": {"path": "kb.jsonl"}}), encoding="utf-8")
    out = tmp_path / "figures.json"
    base = ["eval", "projection", str(config), "--spans", str(gold), "--json", str(out)]
    result = CliRunner().invoke(app, base)
    assert result.exit_code == 0, result.output
    found = json.loads(out.read_text())["rows"]
    assert [(r["type"], r["mentions"]) for r in found] == [("PER", 1), ("PER", 1)]
    result = CliRunner().invoke(app, [*base, "--types", "PER,ORG,LOC"])
    assert result.exit_code == 0, result.output
    found = json.loads(out.read_text())["rows"]
    assert [(r["type"], r["projection"], r["mentions"], r["left out"]) for r in found] == [
        ("PER", "paper", 1, 0), ("PER", "xel", 1, 0), ("LOC", "paper", 0, 1),
        ("LOC", "xel", 0, 1), ("ORG", "paper", 1, 0), ("ORG", "xel", 1, 0)]
    # an untyped file is people: today's figures
    gold.write_text(SPAN_GOLD, encoding="utf-8")
    result = CliRunner().invoke(app, [*base, "--types", "ORG"])
    assert result.exit_code == 0 and json.loads(out.read_text())["rows"] == []


# --- the NTREX type gold -------------------------------------------------------------------

ORGS = TYPES / "orgs"  # the second set: organizations in German, Russian and Chinese


def gold_halves(folder: Path = TYPES) -> dict[str, list[SpanGold]]:
    return {part: read_span_gold(folder / f"gold-{part}.tsv") for part in ("tune", "heldout")}


def test_ntrex_type_gold_counts_per_half() -> None:
    halves = gold_halves()
    named = {part: Counter((r.lang, r.type) for r in rows if r.gold not in UNSCORED)
             for part, rows in halves.items()}
    assert sum(named["tune"].values()) == 146 and sum(named["heldout"].values()) == 139
    langs = {r.lang for rows in halves.values() for r in rows}
    assert langs == {"deu", "fra", "spa", "tur", "rus", "zho-CN", "arb"}
    for lang in langs:
        assert sum(named["tune"][(lang, t)] + named["heldout"][(lang, t)]
                   for t in ("ORG", "LOC", "EVENT")) >= 40
        assert named["tune"][(lang, "LOC")] >= 11 and named["heldout"][(lang, "ORG")] >= 7
    for rows in halves.values():
        for r in rows:
            assert (r.gold == "NOT_ENTITY") == (r.gold_type != r.type)
            assert r.gold != "NOT_PERSON"
    every = [r for rows in halves.values() for r in rows]
    assert Counter(r.type for r in every) == {"ORG": 24 * 7, "LOC": 22 * 7, "EVENT": 6 * 7}


def test_ntrex_org_gold_counts_per_half() -> None:
    """The second set: 80 more of NER's ORG mentions, none of the first set's, 46 of them
    organizations, named in each of its three languages but one (Russian leaves Unite out)."""
    halves = gold_halves(ORGS)
    named = {part: Counter(r.lang for r in rows if r.gold not in UNSCORED)
             for part, rows in halves.items()}
    assert named == {"tune": {"deu": 23, "rus": 22, "zho-CN": 23},
                     "heldout": {"deu": 23, "rus": 23, "zho-CN": 23}}
    every = [r for rows in halves.values() for r in rows]
    assert Counter(r.type for r in every) == {"ORG": 80 * 3}
    assert all((r.gold == "NOT_ENTITY") == (r.gold_type != "ORG") for r in every)
    first = {(r.seg, r.en_end) for rows in gold_halves().values() for r in rows}
    assert not first & {(r.seg, r.en_end) for r in every}


@pytest.mark.parametrize("folder", [TYPES, ORGS])
def test_ntrex_type_gold_halves_are_disjoint_by_document(shared_data: Path, folder: Path
                                                         ) -> None:
    docs = (shared_data / "ntrex128" / "DOCUMENT_IDS.tsv").read_text().split("\n")
    halves = {part: gold_halves(folder)[part] + gold_halves(TYPES)[part]
              for part in ("tune", "heldout")}
    tune = {docs[r.seg] for r in halves["tune"]}
    heldout = {docs[r.seg] for r in halves["heldout"]}
    assert tune and heldout and not tune & heldout


@pytest.mark.parametrize(("which", "folder"), [("types", TYPES), ("orgs", ORGS)])
def test_ntrex_type_gold_offsets_and_rebuild(shared_data: Path, tmp_path: Path, which: str,
                                             folder: Path) -> None:
    ntrex = shared_data / "ntrex128" / "NTREX-128"
    english = (ntrex / "newstest2019-src.eng.txt").read_text(encoding="utf-8").split("\n")
    for rows in gold_halves(folder).values():
        for r in rows:
            assert english[r.seg][r.en_start:r.en_end] == r.english
            if r.start is not None:
                text = (ntrex / f"newstest2019-ref.{r.lang}.txt").read_text(
                    encoding="utf-8").split("\n")[r.seg]
                assert text[r.start:r.end] == r.gold
    sys.path.insert(0, str(TYPES))
    try:
        import build as types_build
    finally:
        sys.path.remove(str(TYPES))
    types_build.build(shared_data / "ntrex128", tmp_path, quiet=True, which=which)
    for part in ("tune", "heldout"):
        assert (tmp_path / f"gold-{part}.tsv").read_text() == (
            folder / f"gold-{part}.tsv").read_text()
    sys.modules.pop("build", None)


WMT22 = Path(__file__).parents[1] / "corpora" / "wmt22_types"


def test_wmt22_type_gold_counts_and_halves() -> None:
    """WMT22's Russian, German and Chinese gold (another source than NTREX and PUD): the drawn
    mentions in both halves, NOT_ENTITY exactly where the real type is not NER's, halves by
    document as corpora/wmt22_persons draws them."""
    halves = gold_halves(WMT22)
    named = {part: Counter((r.lang, r.type) for r in rows if r.gold not in UNSCORED)
             for part, rows in halves.items()}
    assert named == {"tune": {("rus", "ORG"): 35, ("rus", "LOC"): 14, ("deu", "ORG"): 30,
                              ("deu", "LOC"): 7, ("zho-CN", "ORG"): 72, ("zho-CN", "LOC"): 12},
                     "heldout": {("rus", "ORG"): 33, ("rus", "LOC"): 10, ("deu", "ORG"): 21,
                                 ("deu", "LOC"): 16, ("zho-CN", "ORG"): 37,
                                 ("zho-CN", "LOC"): 11}}
    every = [r for rows in halves.values() for r in rows]
    assert Counter(r.lang for r in every) == {"rus": 150, "deu": 150, "zho-CN": 250}
    # Chinese's third draw is from tune-half documents only
    assert Counter(r.lang for r in halves["heldout"]) == {"rus": 71, "deu": 67, "zho-CN": 77}
    assert all((r.gold == "NOT_ENTITY") == (r.gold_type != r.type) for r in every)
    sys.path.insert(0, str(WMT22.parent / "wmt22_persons"))
    try:
        import build as persons
    finally:
        sys.path.remove(str(WMT22.parent / "wmt22_persons"))
    sys.modules.pop("build", None)
    for lang in ("rus", "deu", "zho-CN"):
        lines = (WMT22 / f"english-{lang}.tsv").read_text(encoding="utf-8").splitlines()
        docs = {(int(f[0]), int(f[2])): f[1] for f in (x.split("\t") for x in lines)
                if f[0].isdigit()}
        for part, rows in halves.items():
            assert all(persons.half(docs[(r.seg, r.en_start)]) == part
                       for r in rows if r.lang == lang)


# --- the UNER PUD gold ---------------------------------------------------------------------

def test_pud_types_build_from_the_uner_repositories(tmp_path: Path) -> None:
    if not (MIRROR / "UniversalNER+UNER_English-PUD").is_dir():
        pytest.skip(f"needs the UNER PUD repositories fetched under {MIRROR} (absent here); "
                    "see corpora/pud_types/README.md")
    run = subprocess.run([sys.executable, str(PUD / "build.py"), str(MIRROR), str(tmp_path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    en = {part: read_conll(tmp_path / f"en-{part}.conll") for part in ("tune", "heldout")}
    assert len(en["tune"]) + len(en["heldout"]) == 1000
    for lang in ("deu", "por", "rus", "swe", "zho-TW"):
        for part in ("tune", "heldout"):
            target = read_conll(tmp_path / f"{lang}-{part}.conll")
            assert len(target) == len(en[part])
            assert [s.doc for s in target] == [s.doc for s in en[part]]
    # 397 PUD documents, each begun by `-DOCSTART-`
    assert sum(len({s.doc for s in en[part]}) for part in en) == 397
    # the Hansel-typed English: the same sentences, metonymic countries typed as places
    for part in en:
        hansel = read_conll(tmp_path / f"en-{part}-hansel.conll")
        assert [s.tokens for s in hansel] == [s.tokens for s in en[part]]
        changed = {(" ".join(s.tokens[a:b + 1]), kind, h[2])
                   for s, t in zip(en[part], hansel, strict=True)
                   for (a, b, kind), h in zip(s.entities, t.entities, strict=True)
                   if kind != h[2]}
        assert ("Russia", "ORG", "LOC") in changed and all(k != h for _, k, h in changed)


def test_uner_ewt_conll_keeps_documents_and_types() -> None:
    build = load_script(ROOT / "corpora" / "uner_ewt" / "build.py", "uner_ewt_build")
    iob2 = ("# newdoc id = a\n# sent_id = a-1\n# text = Go to Home Depot\n1\tGo\tO\t-\t-\n"
            "2\tto\tO\t-\t-\n3\tHome\tB-LOC\t-\t-\n4\tDepot\tI-LOC\t-\t-\n\n"
            "# newdoc id = b\n# sent_id = b-1\n1\tAda\tB-PER\t-\t-\n2\tNew York\tB-LOC\t-\t-\n")
    lines, counts = build.conll(iob2)
    assert lines == ["-DOCSTART-", "", "Go\tO", "to\tO", "Home\tB-LOC", "Depot\tI-LOC", "",
                     "-DOCSTART-", "", "Ada\tB-PER", "New_York\tB-LOC", ""]
    assert counts == {"LOC": 2, "PER": 1}
    # Hansel's types where UNER's differ: a business UNER tags as a place is an organization.
    used: set[tuple[str, str, str]] = set()
    hansel = {("dev", "LOC", "Home Depot"): "ORG", ("dev", "LOC", "Nowhere"): "LOC"}
    assert build.hansel_lines(lines, "dev", hansel, used) == [
        "-DOCSTART-", "", "Go\tO", "to\tO", "Home\tB-ORG", "Depot\tI-ORG", "", "-DOCSTART-", "",
        "Ada\tB-PER", "New_York\tB-LOC", ""]
    assert used == {("dev", "LOC", "Home Depot")}
    assert build.hansel_lines(lines, "test", hansel, set()) == lines  # keyed by part


def build_from_mirror(corpus: str, repository: str, out: Path) -> None:
    """Run `corpora/<corpus>/build.py` on the fetched `repository` (owner+name under
    `MIRROR`), writing to `out`; skip where it was not fetched."""
    if not (MIRROR / repository).is_dir():
        pytest.skip(f"needs {repository.replace('+', '/')} fetched under {MIRROR} (absent "
                    f"here); see corpora/{corpus}/README.md")
    run = subprocess.run([sys.executable, str(ROOT / "corpora" / corpus / "build.py"),
                          str(MIRROR), str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_uner_ewt_builds_from_the_repository(tmp_path: Path) -> None:
    build_from_mirror("uner_ewt", "UniversalNER+UNER_English-EWT", tmp_path)
    dev = read_conll(tmp_path / "en-dev.conll")
    assert len({s.doc for s in dev}) == 318
    assert Counter(k for s in dev for _, _, k in s.entities) == {"PER": 343, "ORG": 224,
                                                                 "LOC": 399}
    retyped = read_conll(tmp_path / "en-dev-hansel.conll")
    assert [s.tokens for s in retyped] == [s.tokens for s in dev]
    kinds = Counter(k for s in retyped for _, _, k in s.entities)
    assert kinds["ORG"] > 224 and kinds["LOC"] < 399 and kinds["OTHER"] > 0


def test_wnut17_posts_become_documents_with_coarse_types() -> None:
    build = load_script(ROOT / "corpora" / "wnut17" / "build.py", "wnut17_build")
    posts = ("@Ada\tO\nSoulja\tB-person\nBoy\tI-person\nin\tO\nATL\tB-location\n\n"
             "my\tO\niPhone\tB-product\nfrom\tO\nApple\tB-corporation\n")
    lines, counts = build.conll(posts, "posts.conll")
    assert lines == ["-DOCSTART-", "", "@Ada\tO", "Soulja\tB-PER", "Boy\tI-PER", "in\tO",
                     "ATL\tB-LOC", "", "-DOCSTART-", "", "my\tO", "iPhone\tB-MISC",
                     "from\tO", "Apple\tB-ORG", ""]
    assert counts == {"PER": 1, "LOC": 1, "OTHER": 1, "ORG": 1}
    with pytest.raises(SystemExit, match=r"posts\.conll, line 1: tag 'B-city'"):
        build.conll("Paris\tB-city\n", "posts.conll")


def test_wnut17_builds_its_halves_from_the_repository(tmp_path: Path) -> None:
    build_from_mirror("wnut17", "leondz+emerging_entities_17", tmp_path)
    tune, heldout = (read_conll(tmp_path / f"en-{h}.conll") for h in ("tune", "heldout"))
    assert len({s.doc for s in tune}) == 3394 and len({s.doc for s in heldout}) == 2296
    assert Counter(k for s in heldout for _, _, k in s.entities) == {
        "PER": 899, "ORG": 304, "LOC": 224, "OTHER": 488}


TYPED_CONLL = """-DOCSTART-

Angela\tB-PER
Merkel\tI-PER
met\tO
workers\tO
in\tO
Capua\tB-LOC
on\tO
Monday\tO
.\tO

Merkel\tB-PER
later\tO
flew\tO
to\tO
Berlin\tB-LOC
.\tO

-DOCSTART-

The\tO
European\tB-ORG
Union\tI-ORG
and\tO
Microsoft\tB-ORG
signed\tO
the\tO
deal\tO
in\tO
Brussels\tB-LOC
.\tO
"""


def test_eval_types_scores_the_queries_on_gold_entities(tmp_path: Path) -> None:
    """`xel eval types`: NER, the type check and each type's filters over CoNLL sentences,
    read at the gold entities; documents from `-DOCSTART-`."""
    from xel.cli import _load_commands, app
    from xel.config import load_config
    from xel.kb import build_kb

    _load_commands()
    conll = tmp_path / "en.conll"
    conll.write_text(TYPED_CONLL, encoding="utf-8")
    assert [s.doc for s in read_conll(conll)] == [0, 0, 1]
    kb = tmp_path / "kb.jsonl"
    kb.write_text("\n".join(json.dumps(r) for r in [
        {"id": "Q567", "name": "Angela Merkel", "type": "PER"},
        {"id": "Q64", "name": "Berlin", "type": "LOC"},
        {"id": "Q239", "name": "Brussels", "type": "LOC"},
        {"id": "Q458", "name": "European Union", "type": "ORG"}]) + "\n", encoding="utf-8")
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({
        "name": "t", "corpus": {"path": "."}, "kb": {"path": "kb.jsonl", "index": "kb.sqlite"},
        "types": {"PER": ["PERSON"], "ORG": ["ORG"], "LOC": ["GPE", "LOC", "FAC"]},
        "queries": {"by_type": {"ORG": {"min_tokens": 1}, "LOC": {"min_tokens": 1}}}}),
        encoding="utf-8")
    build_kb(load_config(config))
    out = tmp_path / "types.json"
    result = CliRunner().invoke(app, ["eval", "types", str(config), "--conll-en", str(conll),
                                      "--json", str(out), "--show"])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    rows = {r["type"]: r for r in figures["rows"]}
    # one-word people are no queries (Lawrie et al.): `Merkel` has none
    assert [(k, rows[k]["queries"], rows[k]["typed right"], rows[k]["no query"])
            for k in ("PER", "ORG", "LOC", "all")] == [
        ("PER", 1, 1, 1), ("ORG", 2, 2, 0), ("LOC", 3, 3, 0), ("all", 6, 6, 1)]
    assert figures["signature"].startswith("eval-types|") and "|kb=" in figures["signature"]
    people_only = tmp_path / "p.yaml"
    people_only.write_text(yaml.safe_dump({"name": "p", "corpus": {"path": "."},
                                           "kb": {"path": "kb.jsonl"}}), encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", "types", str(people_only), "--conll-en",
                                      str(conll)])
    assert isinstance(result.exception, XelError) and "one type" in str(result.exception)
