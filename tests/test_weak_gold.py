"""The blind projection gold of NTREX-128's weakest languages (corpora/ntrex_weak) and of Hindi
PUD (corpora/pud_persons): well-formed, enough names, halves disjoint by document."""

from __future__ import annotations

import csv
import unicodedata
from collections import Counter
from pathlib import Path

from conftest import load_script

from xel.evaluate import UNSCORED, SpanGold, read_span_gold

ROOT = Path(__file__).resolve().parents[1]
WEAK = ROOT / "corpora" / "ntrex_weak"
PUD = ROOT / "corpora" / "pud_persons"


def halves() -> dict[str, list[SpanGold]]:
    return {part: read_span_gold(WEAK / f"gold-{part}.tsv") for part in ("tune", "heldout")}


def test_every_language_has_the_sample_and_at_least_40_names() -> None:
    weak = load_script(WEAK / "build.py", "ntrex_weak_build")
    gold = halves()
    rows = gold["tune"] + gold["heldout"]
    assert [*dict.fromkeys(r.lang for r in rows)] == weak.LANGUAGES
    sample = read_span_gold(ROOT / "corpora" / "ntrex128" / "projection-gold.tsv")
    mentions = {(r.seg, r.en_start, r.en_end, r.english) for r in sample if r.lang == "zho-TW"}
    not_person = {(r.seg, r.en_start, r.en_end) for r in sample if r.gold == "NOT_PERSON"}
    assert len(mentions) == 90
    for lang in weak.LANGUAGES:
        mine = [r for r in rows if r.lang == lang]
        assert {(r.seg, r.en_start, r.en_end, r.english) for r in mine} == mentions, lang
        assert len(mine) == 90, lang
        assert {(r.seg, r.en_start, r.en_end) for r in mine
                if r.gold == "NOT_PERSON"} == not_person, lang
        named = [r for r in mine if r.gold not in UNSCORED]
        assert len(named) >= 40, lang
        for r in named:
            assert r.start is not None and r.end is not None
            assert r.end - r.start == len(r.gold) > 0, r
    # Bantu and Turkic languages in Latin letters, and at least eight scripts.
    assert {"xho", "nde", "uzb", "aze-Latn"} <= set(weak.LANGUAGES)
    scripts = {lang: Counter(unicodedata.name(r.gold[0]).split()[0] for r in rows
                             if r.lang == lang and r.gold not in UNSCORED).most_common(1)[0][0]
               for lang in weak.LANGUAGES}
    assert len(set(scripts.values())) >= 8, scripts


def test_halves_are_disjoint_by_segment() -> None:
    gold = halves()
    segs = {part: {r.seg for r in rows} for part, rows in gold.items()}
    assert segs["tune"] and segs["heldout"] and not segs["tune"] & segs["heldout"]
    per_lang = {part: Counter(r.lang for r in rows) for part, rows in gold.items()}
    assert len(set(per_lang["tune"].values())) == 1  # the same mentions in every language


def test_offsets_and_halves_against_ntrex(shared_data: Path) -> None:
    weak = load_script(WEAK / "build.py", "ntrex_weak_build")
    ntrex = shared_data / "ntrex128"
    english = weak.ntrex_lines(ntrex, "eng")
    docs = (ntrex / "DOCUMENT_IDS.tsv").read_text(encoding="utf-8").split("\n")
    targets: dict[str, list[str]] = {}
    by_part: dict[str, set[str]] = {}
    for part, rows in halves().items():
        by_part[part] = {docs[r.seg] for r in rows}
        for r in rows:
            assert english[r.seg][r.en_start:r.en_end] == r.english, r
            assert weak.half(docs[r.seg]) == part, r
            if r.gold in UNSCORED:
                continue
            text = targets.setdefault(r.lang, weak.ntrex_lines(ntrex, r.lang))[r.seg]
            assert text[r.start:r.end] == r.gold, r
    assert not by_part["tune"] & by_part["heldout"]


def test_build_writes_the_committed_files(shared_data: Path, tmp_path: Path) -> None:
    weak = load_script(WEAK / "build.py", "ntrex_weak_build")
    weak.build(shared_data / "ntrex128", tmp_path, quiet=True)
    for part in ("tune", "heldout"):
        assert (tmp_path / f"gold-{part}.tsv").read_bytes() == (
            WEAK / f"gold-{part}.tsv").read_bytes()


def test_pud_annotations_are_complete_and_split_by_document() -> None:
    pud = load_script(PUD / "build.py", "pud_persons_build")
    with open(PUD / "annotations.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 60
    for r in rows:
        assert r["gold"], r
        assert int(r["en_end"]) - int(r["en_start"]) == len(r["english"]), r
        assert r["sent_id"].startswith(r["doc"]), r
    assert sum(r["gold"] not in UNSCORED for r in rows) == 52
    parts = {r["doc"]: pud.half(r["doc"]) for r in rows}
    named = Counter(parts[r["doc"]] for r in rows if r["gold"] not in UNSCORED)
    assert named == {"tune": 22, "heldout": 30}
