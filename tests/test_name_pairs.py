"""Name-token pairs from a KB's labels in other languages: how a user gets training pairs for a
script xel ships no model for."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from test_kb import config_for, dump_lines, write

from xel.errors import XelError
from xel.kb import KnowledgeBase, build_kb, read_jsonl
from xel.names.pairs import token_pairs, wikidata_codes, write_pairs


def test_wikidata_labels_in_every_language_reach_the_index(shared_data: Path,
                                                           tmp_path: Path) -> None:
    dump = write(tmp_path / "dump.json", dump_lines(shared_data / "kb" /
                                                    "wikidata-persons-sample.json"))
    build_kb(config_for(tmp_path, dump, "wikidata"))
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        bulgarian = kb.labels(wikidata_codes("bul"))
        russian = kb.labels(wikidata_codes("rus"))
        chinese = kb.labels(wikidata_codes("zho-CN"))
    assert ("Veronica Roth", "Вероника Рот") in bulgarian
    # Russian writes her surname first, with a comma; Chinese falls back from zh-hans to zh.
    assert token_pairs(russian, "rus") == Counter({("veronica", "вероника"): 1,
                                                   ("roth", "рот"): 1})
    assert dict(token_pairs(chinese, "zho-CN"))[("roth", "罗思")] == 1


def test_labels_pair_token_by_token_only_in_the_language_script() -> None:
    names = [("Donald Trump", "Ντόναλντ Τραμπ"), ("Boris Johnson", "Μπόρις Τζόνσον"),
             ("Donald Trump", "Ντόναλντ Τραμπ"), ("Jean-Claude Juncker", "Ζαν-Κλοντ Γιούνκερ"),
             ("Angela Merkel", "Angela Merkel"),  # a Latin label: nothing learned
             ("George W. Bush", "Τζορτζ Μπους")]  # another number of tokens
    pairs = token_pairs(names, "ell")
    assert pairs[("trump", "τραμπ")] == 2 and pairs[("jean", "ζαν")] == 1
    assert not any(e in ("angela", "george") for e, _ in pairs)


def test_pairs_are_written_in_the_training_format(tmp_path: Path) -> None:
    path = tmp_path / "wd_greek"
    assert write_pairs(Counter({("trump", "τραμπ"): 2, ("boris", "μπόρις"): 1}), path) == 2
    assert path.read_text(encoding="utf-8").splitlines() == ["trump\tτ ρ α μ π\t2",
                                                             "boris\tμ π ό ρ ι ς\t1"]


def test_jsonl_labels_are_read_and_checked(tmp_path: Path) -> None:
    good = write(tmp_path / "kb.jsonl", [json.dumps(
        {"id": "p1", "name": "Veronica Roth", "labels": {"el": "Βερόνικα Ροθ", "ru": " "}})])
    (person,) = read_jsonl(good)
    assert person.labels == (("el", "Βερόνικα Ροθ"),)
    bad = write(tmp_path / "bad.jsonl", [json.dumps({"id": "p1", "name": "X", "labels": ["el"]})])
    with pytest.raises(XelError, match=r"bad.jsonl, line 1: `labels` must map"):
        list(read_jsonl(bad))
