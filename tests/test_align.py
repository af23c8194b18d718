"""Aligners and symmetrization: eflomal as a separate program, simalign with a tiny model."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from xel.align import (
    aer,
    align,
    eflomal,
    format_links,
    grow_diag_final_and,
    parse_links,
    simalign,
)
from xel.config import AlignConfig
from xel.errors import XelError
from xel.registry import aligners


def test_links_round_trip_and_reverse() -> None:
    assert parse_links("0-1 2-0") == {(0, 1), (2, 0)}
    assert parse_links("0-1 2-0", reverse=True) == {(1, 0), (0, 2)}
    assert format_links({(2, 0), (0, 1)}) == "0-1 2-0"
    assert parse_links("") == set()


def test_symmetrizations() -> None:
    forward = {(0, 0), (1, 1), (2, 1)}
    reverse = {(0, 0), (1, 1), (2, 2)}
    # From the intersection {00, 11}: (2,1) is grown (source 2 unaligned), then the diagonal
    # neighbour (2,2) (target 2 still unaligned).
    assert grow_diag_final_and(forward, reverse) == {(0, 0), (1, 1), (2, 1), (2, 2)}
    # Grown links need an unaligned end: (1,0) joins nothing here.
    assert grow_diag_final_and({(0, 0), (1, 1)}, {(0, 0), (1, 1), (1, 0)}) == {(0, 0), (1, 1)}
    config = AlignConfig(symmetrization="intersection")
    assert config.symmetrization == "intersection"
    # final-and adds a link whose ends are both unaligned, even far from the rest.
    assert grow_diag_final_and({(0, 0), (5, 5)}, {(0, 0)}) == {(0, 0), (5, 5)}


def test_aer() -> None:
    sure = [{(0, 0), (1, 1)}]
    possible = [{(0, 0), (1, 1), (1, 2)}]
    assert aer([{(0, 0), (1, 1)}], sure, possible) == 0.0
    assert aer([{(0, 0), (1, 2)}], sure, possible) == pytest.approx(1 - 3 / 4)
    assert aer([set()], sure, possible) == 1.0


SUBJECTS = {"man": "Mann", "woman": "Frau", "child": "Kind", "dog": "Hund"}
VERBS = {"sees": "sieht", "hears": "hört", "likes": "mag"}
OBJECTS = {"house": "Haus", "car": "Auto", "tree": "Baum", "boat": "Boot", "cat": "Katze"}


def corpus(n: int = 60) -> tuple[list[list[str]], list[list[str]]]:
    """`the S V the O` / `S' V' O'` with words varying independently, so co-occurrence
    tells translations apart."""
    src, tgt = [], []
    for k in range(n):
        s = list(SUBJECTS)[k % 4]
        v = list(VERBS)[k % 3]
        o = list(OBJECTS)[k % 5]
        src.append(["the", s, v, "the", o])
        tgt.append([SUBJECTS[s], VERBS[v], OBJECTS[o]])
    return src, tgt


@pytest.mark.parametrize("method", ["intersection", "union", "grow-diag-final-and"])
def test_eflomal_aligns_a_small_corpus(method: str) -> None:
    src, tgt = corpus()
    src[3], tgt[5] = [], []  # empty sides get no links and do not derail the others
    links = list(eflomal(src, tgt, AlignConfig(symmetrization=method)))
    assert len(links) == len(src)
    assert links[3] == set() and links[5] == set()
    # Subject, verb and object find their translations in nearly every pair (of 58; with
    # the default seed the intersection leaves 9 pairs incomplete on this toy corpus).
    right = sum({(1, 0), (2, 1), (4, 2)} <= x for x in links)
    assert right >= 48


def test_eflomal_refuses_mismatched_sides() -> None:
    with pytest.raises(XelError, match="2 source sentences but 1 target"):
        eflomal([["a"], ["b"]], [["c"]], AlignConfig())


def test_missing_eflomal_program_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.setattr("xel.align.shutil.which", lambda name: None)
    monkeypatch.setattr("xel.align.sys.executable", str(tmp_path / "python"))
    with pytest.raises(XelError, match=r"xel\[eflomal\]"):
        eflomal(*corpus(3), AlignConfig())


def test_registry_lists_both_aligners() -> None:
    assert {"eflomal", "simalign"} <= set(aligners.names())
    with pytest.raises(XelError, match="unknown aligner"):
        align([["a"]], [["b"]], AlignConfig(aligner="giza"))


def test_simalign_without_weights_names_the_missing_path(tmp_path: Path) -> None:
    with pytest.raises(XelError, match="align.simalign_model is not set"):
        simalign([["a"]], [["b"]], AlignConfig(aligner="simalign"))
    missing = tmp_path / "mbert"
    with pytest.raises(XelError, match=f"no model weights at {missing}"):
        simalign([["a"]], [["b"]], AlignConfig(aligner="simalign", simalign_model=str(missing)))


def tiny_bert(folder: Path, words: set[str]) -> Path:
    """A 2-layer BERT with random weights and a WordPiece vocabulary of the test's words."""
    from transformers import BertConfig, BertModel, BertTokenizer

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=32, max_position_embeddings=64)
    BertModel(config).save_pretrained(folder)
    BertTokenizer(vocab_file=str(folder / "vocab.txt"), do_lower_case=True).save_pretrained(folder)
    return folder


def test_simalign_code_path_with_a_tiny_model(tmp_path: Path) -> None:
    import torch

    torch.manual_seed(0)
    src = [["the", "man", "sees", "kim"], []]
    tgt = [["der", "mann", "sieht", "kim"], ["leer"]]
    model = tiny_bert(tmp_path, {w for s in src + tgt for w in s})
    config = AlignConfig(aligner="simalign", simalign_model=str(model), simalign_layer=2)
    links = list(align(src, tgt, config))
    assert links[1] == set()
    # Identical word pieces have identical input embeddings; the argmax of a random model
    # still links every source word somewhere inside the sentence.
    assert links[0] and all(0 <= i < 4 and 0 <= j < 4 for i, j in links[0])


def test_seeded_eflomal_is_reproducible(shared_data: Path) -> None:
    """On real text eflomal's own seeding gives different links run to run; with a seed
    (and one thread) the links are the same every time."""
    folder = shared_data / "ntrex128" / "NTREX-128"

    def words(name: str) -> list[list[str]]:
        lines = (folder / name).read_text(encoding="utf-8").lower().split("\n")[:300]
        return [re.findall(r"\w+|[^\w\s]", line) for line in lines]

    src, tgt = words("newstest2019-src.eng.txt"), words("newstest2019-ref.deu.txt")
    config = AlignConfig(seed=7)
    assert list(eflomal(src, tgt, config)) == list(eflomal(src, tgt, config))


LEARN_EN = ["The man sees the house.", "The woman hears the car.", "The child likes the tree."]
LEARN_DE = ["Der Mann sieht das Haus.", "Die Frau hört das Auto.", "Das Kind mag den Baum."]


def learning_collection(root: Path, make_config: Any, de_lines: list[str]) -> Any:
    """The tiny English-German collection of tests/test_build.py, with `learn/` beside it."""
    from conftest import write_parallel
    from test_build import KB, PEOPLE, TEMPLATES

    write_parallel(root, PEOPLE, TEMPLATES, KB, documents=3)
    (root / "learn").mkdir()
    (root / "learn" / "en.txt").write_text("\n".join(LEARN_EN * 20) + "\n", encoding="utf-8")
    (root / "learn" / "de.txt").write_text("\n".join(de_lines) + "\n", encoding="utf-8")
    return make_config(root, corpus={"path": "corpus", "format": "moses", "source": "eng",
                                     "files": {"eng": "c.en", "deu": "c.de"}, "doc_ids": "docs"},
                       align={"learn_from": {"path": "learn",
                                             "files": {"eng": "en.txt", "deu": "de.txt"}}})


def test_the_aligner_learns_from_more_pairs_than_the_collection_has(
        tmp_path: Path, make_config: Any) -> None:
    from xel.pipeline import run
    from xel.store import Store

    config = learning_collection(tmp_path, make_config, LEARN_DE * 20)
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["import", "ner"])
        run(store, config, ["align"])
        summary = store.stage_summary("align:deu")
        collection = store.scalar("SELECT COUNT(*) FROM sentences WHERE lang = 'eng'")
        aligned = store.scalar("SELECT COUNT(*) FROM alignments WHERE lang = 'deu'")
        mentioned = store.scalar("SELECT COUNT(DISTINCT seg) FROM mentions")
    # Learned from, never stored: only the collection's pairs with a mention have links.
    assert summary["learned_from"] == 60 and summary["pairs"] == collection
    assert aligned == mentioned > 0
    # Other pairs to learn from are another alignment: the stage reruns.
    (tmp_path / "learn" / "de.txt").write_text("\n".join(LEARN_DE * 19) + "\n", encoding="utf-8")
    (tmp_path / "learn" / "en.txt").write_text("\n".join(LEARN_EN * 19) + "\n", encoding="utf-8")
    with Store(config.resolve(config.store)) as store:
        [again] = run(store, config, ["align"])
        assert not again.skipped and store.stage_summary("align:deu")["learned_from"] == 57


def test_pairs_to_learn_from_must_be_line_aligned(tmp_path: Path, make_config: Any) -> None:
    from xel.pipeline import run
    from xel.store import Store

    config = learning_collection(tmp_path, make_config, LEARN_DE * 20 + ["Ein Satz zu viel."])
    with Store(config.resolve(config.store)) as store:
        run(store, config, ["import", "ner"])
        with pytest.raises(XelError, match=r"de\.txt: 61 lines, but .*en\.txt has 60"):
            run(store, config, ["align"])
    config.align.learn_from.files.pop("eng")  # type: ignore[union-attr]
    with Store(config.resolve(config.store)) as store, \
            pytest.raises(XelError, match="none for the source language eng"):
        run(store, config, ["align"])


def test_gold_is_aligned_by_the_aligner_the_collection_runs(tmp_path: Path,
                                                            make_config: Any) -> None:
    """`xel eval projection --sentences` trains on the corpus and `align.learn_from` too."""
    from xel.evaluate import corpus_pairs

    config = learning_collection(tmp_path, make_config, LEARN_DE * 20)
    english, german = corpus_pairs(config, "deu")
    collection = (tmp_path / "corpus" / "c.en").read_text(encoding="utf-8").splitlines()
    assert len(english) == len(german) == len(collection) + 60
    assert english[-1] == ["The", "child", "likes", "the", "tree", "."]
    assert german[-1] == ["Das", "Kind", "mag", "den", "Baum", "."]
    (tmp_path / "learn" / "de.txt").write_text("\n".join(LEARN_DE * 19) + "\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"de\.txt: 57 lines, but .*en\.txt has 60"):
        corpus_pairs(config, "deu")


def test_eflomal_iterations_follow_its_own_schedule_unless_capped() -> None:
    """eflomal's front end runs 5000 / sqrt(pairs) iterations of the last model and a quarter
    of that of the others: 28/28/112 on NTREX's 1,997 pairs; a cap bounds the last model."""
    from xel.align import eflomal_iterations

    assert eflomal_iterations(1997, AlignConfig()) == (28, 28, 112)
    assert eflomal_iterations(1997, AlignConfig(eflomal_max_iterations=32)) == (8, 8, 32)
    assert eflomal_iterations(4_000_000, AlignConfig()) == (2, 1, 2)
    assert eflomal_iterations(1997, AlignConfig(eflomal_model=2)) == (28, 112, 0)


def test_identical_priors_count_the_pairs_that_write_a_token_alike(tmp_path: Path) -> None:
    from xel.align import eflomal_priors, identical_priors

    (tmp_path / "src").write_text("trump met kim , trump said\nmay spoke .\n", encoding="utf-8")
    (tmp_path / "tgt").write_text("trump a rencontré kim , trump\nmay a parlé .\n",
                                  encoding="utf-8")
    priors = identical_priors(tmp_path / "src", tmp_path / "tgt", 5.0)
    # Once per pair however often it is written; punctuation too.
    assert priors == {"trump": 5.0, "kim": 5.0, ",": 5.0, "may": 5.0, ".": 5.0}
    assert eflomal_priors(tmp_path, AlignConfig()) is None
    written = eflomal_priors(tmp_path, AlignConfig(identical_prior=2))
    assert written is not None
    assert "LEX\ttrump\ttrump\t2\n" in written.read_text(encoding="utf-8")


def test_eflomal_links_names_written_alike_with_priors() -> None:
    """With the prior and only two iterations, eflomal links a name to its identical
    spelling wherever the name stands in either sentence."""
    src, tgt = corpus()
    names = ["Anna", "Boris", "Chen", "Dmitri", "Eva", "Farid", "Greta"]
    for k in range(len(src)):
        name = names[k % len(names)]
        src[k] = [name, *src[k]]  # first in English, last in German
        tgt[k] = [*tgt[k], name]
    config = AlignConfig(identical_prior=5, eflomal_max_iterations=2)
    links = list(eflomal(src, tgt, config))
    assert all((0, len(t) - 1) in x for x, t in zip(links, tgt, strict=True))
