"""Transliteration models: tiny ones trained here, the shipped ones, errors, `xel eval translit`."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xel.errors import XelError
from xel.names import translit

# A made-up script rule, so the tiny model has something exact to learn: Latin syllables
# written in Cyrillic, with two digraphs (sh -> ш, ch -> ч) that need a 2:1 alignment.
_LETTERS = {"a": "а", "e": "е", "i": "и", "o": "о", "u": "у", "b": "б", "d": "д", "k": "к",
            "l": "л", "m": "м", "n": "н", "p": "п", "r": "р", "s": "с", "t": "т", "v": "в",
            "z": "з", "sh": "ш", "ch": "ч"}
_ONSETS = ["b", "d", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "sh", "ch"]
_VOWELS = ["a", "e", "i", "o", "u"]
UNSEEN = ("shakira", "chumbavo")


def _word(rng: random.Random) -> list[str]:
    return [p for _ in range(rng.randint(2, 3)) for p in (rng.choice(_ONSETS),
                                                            rng.choice(_VOWELS))]


def _cyrillic(parts: list[str]) -> str:
    return " ".join(_LETTERS[p] for p in parts)


@pytest.fixture(scope="module")
def synthetic_pairs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rng = random.Random(7)
    words: dict[str, str] = {}
    while len(words) < 300:
        parts = _word(rng)
        english = "".join(parts)
        if english not in UNSEEN:
            words[english] = _cyrillic(parts)
    path = tmp_path_factory.mktemp("pairs") / "wd_russian_80"
    path.write_text("".join(f"{e}\t{c}\t1\n" for e, c in words.items()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def tiny(synthetic_pairs: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("models")
    figures = translit.train(synthetic_pairs, "russian", out, seed=3, dev_fraction=0.2)
    return out, figures


def test_tiny_model_learns_both_directions(tiny: tuple[Path, dict]) -> None:
    out, figures = tiny
    for direction in translit.DIRECTIONS:
        assert figures[direction]["words"] >= 55
        assert figures[direction]["top1"] >= 0.9, figures
    to_en = translit.load("russian", "to-english", out)
    from_en = translit.load("russian", "from-english", out)
    # unseen words, casefolded input; scores are probability-like and best first
    shakira, chumbavo = to_en.nbest(["ШАКИРА", "чумбаво"], n=3)
    assert shakira[0][0] == "shakira" and chumbavo[0][0] == "chumbavo"
    for candidates in (shakira, chumbavo):
        scores = [s for _, s in candidates]
        assert all(0 < s <= 1 for s in scores) and scores == sorted(scores, reverse=True)
        assert sum(scores) <= 1 + 1e-9
    assert [c[0][0] for c in from_en.nbest(["Shakira", "chumbavo"])] == ["шакира", "чумбаво"]


def test_tiny_model_on_pairs_it_saw(tiny: tuple[Path, dict], synthetic_pairs: Path) -> None:
    out, _ = tiny
    pairs = translit.read_pairs(synthetic_pairs)[:40]
    for direction in translit.DIRECTIONS:
        result = translit.evaluate(translit.load("russian", direction, out), pairs)
        assert result["top1"] >= 0.95 and result["top5"] >= result["top1"]


def test_nbest_edge_cases(tiny: tuple[Path, dict]) -> None:
    model = translit.load("russian", "to-english", tiny[0])
    assert model.nbest([]) == []
    empty, blank, word = model.nbest(["", "  ", "Шакира"], n=2)
    assert empty == [] and blank == [] and len(word) <= 2
    same = model.nbest(["шакира", "шакира"], n=2)
    assert same[0] == same[1] == word


def test_rebuild_is_byte_identical(synthetic_pairs: Path, tiny: tuple[Path, dict],
                                   tmp_path: Path) -> None:
    translit.train(synthetic_pairs, "russian", tmp_path, seed=3, dev_fraction=0.2)
    for name in sorted(p.name for p in tiny[0].iterdir()):
        assert (tmp_path / name).read_bytes() == (tiny[0] / name).read_bytes(), name
    sidecar = json.loads((tmp_path / "russian.to-english.json").read_text(encoding="utf-8"))
    assert sidecar["seed"] == 3 and sidecar["tool"].startswith("phonetisaurus ")
    signature = translit.load("russian", "to-english", tmp_path).signature()
    assert set(signature) == {"model", "data", "tool", "seed", "fallback"}
    assert set(translit.load("russian", "from-english", tmp_path).signature()) == {
        "model", "data", "tool", "seed"}


def test_missing_model_names_the_file_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(XelError, match=r"russian\.to-english\.corpus\.xz.*xel names train"):
        translit.load("russian", "to-english", tmp_path)
    with pytest.raises(XelError, match="keys are"):
        translit.load("klingon", "to-english", tmp_path)


def test_corrupt_model_names_the_file_and_the_fix(tiny: tuple[Path, dict],
                                                  tmp_path: Path) -> None:
    for path in tiny[0].iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    corpus, sidecar = translit.model_paths("russian", "from-english", tmp_path)
    blob = bytearray(corpus.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    corpus.write_bytes(bytes(blob))
    with pytest.raises(XelError, match=r"corrupt.*xel names train"):
        translit.load("russian", "from-english", tmp_path)
    _, sidecar = translit.model_paths("russian", "to-english", tmp_path)
    sidecar.write_text("{not json", encoding="utf-8")
    with pytest.raises(XelError, match=r"russian\.to-english\.json.*xel names train"):
        translit.load("russian", "to-english", tmp_path)


def test_bad_pairs_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.write_text("trump\tт р а м п\t3\nno tab here\n", encoding="utf-8")
    with pytest.raises(XelError, match="bad, line 2"):
        translit.read_pairs(bad)
    latin1 = tmp_path / "latin1"
    latin1.write_bytes("müller\tm ü l l e r\t1\n".encode("latin-1"))
    with pytest.raises(XelError, match="not UTF-8"):
        translit.read_pairs(latin1)
    with pytest.raises(XelError, match="no such pairs file"):
        translit.read_pairs(tmp_path / "absent")


def test_model_keys() -> None:
    assert translit.model_key("Cyrl") == "russian"
    assert translit.model_key("Hant") == translit.model_key("Hans") == "chinese"
    assert translit.model_key("Jpan") == "katakana" and translit.model_key("Kore") == "korean"
    assert translit.model_key("Grek") == translit.model_key("Deva") == "romanized"
    assert translit.model_key("Latn") is None
    assert translit.romanize("Трамп") == "tramp"


@pytest.mark.slow
def test_shipped_models_know_a_famous_name() -> None:
    to_en = translit.load("russian", "to-english")
    from_en = translit.load("russian", "from-english")
    assert "trump" in [text for text, _ in to_en.nbest(["Трамп"])[0]]
    assert "трамп" in [text for text, _ in from_en.nbest(["Trump"])[0]]
    greek = translit.load("romanized", "to-english").nbest(["Τραμπ"])[0]
    assert "trump" in [text for text, _ in greek]
    for key in translit.KEYS:  # every model ships, small, with its dev figures and digest
        for direction in translit.DIRECTIONS:
            corpus, sidecar_path = translit.model_paths(key, direction)
            sidecar = json.loads(sidecar_path.read_text(encoding="utf-8"))
            assert sidecar["dev"] and sidecar["tool"].startswith("phonetisaurus")
            assert corpus.stat().st_size < 5_000_000
            assert hashlib.sha256(corpus.read_bytes()).hexdigest() == sidecar["model_sha256"]


@pytest.mark.slow
def test_eval_translit_command(tmp_path: Path) -> None:
    from xel.cli import _load_commands, app

    _load_commands()
    pairs = tmp_path / "wd_few"
    pairs.write_text("trump\tт р а м п\t9\nbiden\tб а й д е н\t4\nmerkel\tм е р к е л ь\t2\n",
                     encoding="utf-8")
    out = tmp_path / "figures.json"
    result = CliRunner().invoke(app, ["eval", "translit", str(pairs), "--lang", "rus",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text(encoding="utf-8"))
    rows = figures["rows"]
    assert figures["signature"].startswith("eval-translit|") and "gold:pairs=" in figures[
        "signature"]
    assert [r["direction"] for r in rows] == ["to-english", "from-english"]
    for row in rows:
        assert row["words"] == 3 and row["model"] == "russian"
        assert 0.6 <= row["top5"] <= 1 and row["top1"] <= row["top5"]
    result = CliRunner().invoke(app, ["eval", "translit", str(pairs), "--lang", "eng"])
    assert result.exit_code != 0


def test_shared_pairs_train_a_real_tiny_model(shared_data: Path, tmp_path: Path) -> None:
    lines = (shared_data / "translit" / "wd_russian_80").read_text(encoding="utf-8")
    sample = tmp_path / "wd_russian_80"
    sample.write_text("".join(lines.splitlines(keepends=True)[:400]), encoding="utf-8")
    figures = translit.train(sample, "russian", tmp_path / "m", seed=1, dev_fraction=0.25)
    # 300 real pairs teach the common letters: a fair share of unseen names comes out right
    assert figures["from-english"]["top5"] >= 0.3 and figures["to-english"]["top5"] >= 0.2


def test_path_shares_survive_costs_too_high_to_exponentiate(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """A long token's paths can all cost more than exp() can represent; their shares are
    still relative to the best path (a ZeroDivisionError once stopped `xel eval triage`)."""
    monkeypatch.setattr(translit, "_run", lambda args, what: (
        "x\t900.0\ta b\nx\t901.0\ta c\ny\t1.0\td\n"))
    model = translit.Transliterator.__new__(translit.Transliterator)
    model.fst = tmp_path / "m.fst"
    shares = model._decode_share(["x", "y"], 5)
    assert [t for t, _ in shares["x"]] == ["ab", "ac"]
    assert shares["x"][0][1] == pytest.approx(1 / (1 + 2.718281828 ** -1))
    assert shares["y"] == [("d", 1.0)]


@pytest.mark.slow
def test_languages_sharing_a_model_decode_a_token_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a model decoded for one language serves every language reading through it
    (`xel.names.transliterate.decoded`): Bulgarian after Russian decodes no English token
    again, and its readings and forms are those it gets decoding alone."""
    from xel.names import transliterate

    names, english = ["Доналд Тръмп", "Борис Джонсън", "Ким Чен Ун"], ["Trump", "Johnson", "Kim"]

    def fresh() -> None:
        transliterate.decoded.cache_clear()
        transliterate.language_models.cache_clear()

    def answers(lang: str) -> tuple[list[list[str]], list[list[str]]]:
        models = transliterate.language_models(lang)
        return [models.readings(n) for n in names], [models.forms(e) for e in english]

    fresh()
    alone = answers("bul")
    fresh()
    russian = transliterate.language_models("rus")
    russian.prepare(english=english, parts=[p for n in names for p in n.split()])
    asked: list[tuple[str, list[str]]] = []
    decode = translit.Transliterator._decode

    def counted(self: translit.Transliterator, words: list[str], k: int) -> dict:
        asked.append((self.direction, words))
        return decode(self, words, k)

    monkeypatch.setattr(translit.Transliterator, "_decode", counted)
    assert answers("bul") == alone
    assert not [words for direction, words in asked if direction == "from-english"]
    assert asked  # Bulgarian spellings (`Тръмп`) are new to the model: those are decoded
    fresh()


def test_decodings_are_kept_on_disk_per_model(tiny: tuple[Path, dict], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A decoded token is read back from `decoded.sqlite` (no decoder run) by any process;
    each compiled model keeps its own answers; an unusable file only costs decoding."""
    monkeypatch.setenv("XEL_DECODED", str(tmp_path / "decoded.sqlite"))
    to_en = translit.load("russian", "to-english", tiny[0])
    first = to_en.nbest(["шакира", "чумбаво"], n=3)
    runs: list[list[str]] = []
    decode_share = translit.Transliterator._decode_share

    def counted(self: translit.Transliterator, words: list[str], k: int) -> dict:
        runs.append(words)
        return decode_share(self, words, k)

    monkeypatch.setattr(translit.Transliterator, "_decode_share", counted)
    assert to_en.nbest(["чумбаво", "шакира"], n=3) == first[::-1] and runs == []
    to_en.nbest(["шакира", "ботаро"])
    assert runs == [["ботаро"]]  # only what the file lacks
    from_en = translit.load("russian", "from-english", tiny[0])
    assert from_en.nbest(["shakira"])[0][0][0] == "шакира" and runs[-1] == ["shakira"]
    monkeypatch.setenv("XEL_DECODED", str(tmp_path))  # a folder: no database can open there
    assert to_en.nbest(["шакира", "чумбаво"], n=3) == first and runs[-1] == ["чумбаво", "шакира"]


def test_compile_command_fills_the_cache(tiny: tuple[Path, dict], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from xel.cli import _load_commands, app

    monkeypatch.setenv("XEL_CACHE", str(tmp_path))
    translit.load.cache_clear()
    translit._uroman.cache_clear()
    _load_commands()
    result = CliRunner().invoke(app, ["names", "compile", "--out", str(tiny[0])])
    assert result.exit_code == 0, result.output
    built = sorted(p.name.split(".")[:2] for p in (tmp_path / "translit").glob("*.fst"))
    assert built == [["russian", "from-english"], ["russian", "to-english"]]
    assert list((tmp_path / "translit").glob("uroman-*.pickle"))
    assert "russian.to-english" in result.output
    translit.load.cache_clear()


def test_model_tables_are_kept_beside_the_compiled_model(tiny: tuple[Path, dict],
                                                         tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A model's letters and training pairs are worked out once and read back after; a
    damaged file is worked out again."""
    monkeypatch.setenv("XEL_CACHE", str(tmp_path))
    translit.load.cache_clear()
    first = translit.load("russian", "to-english", tiny[0])
    kept = first.fst.with_suffix(".tables.pickle")
    assert kept.is_file() and first.seen and first.letters

    def never(corpus: str) -> None:
        raise AssertionError("worked out again")

    translit.load.cache_clear()
    with monkeypatch.context() as m:
        m.setattr(translit, "_seen", never)
        again = translit.load("russian", "to-english", tiny[0])
    assert (again.seen, again.letters) == (first.seen, first.letters)
    kept.write_bytes(b"not a pickle")
    translit.load.cache_clear()
    rebuilt = translit.load("russian", "to-english", tiny[0])
    assert rebuilt.seen == first.seen and kept.read_bytes() != b"not a pickle"
    translit.load.cache_clear()


def test_the_romanizer_is_kept_in_the_cache(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """uroman's romanizer is built once and read back after (its default for unknown numbers
    included); a damaged file is built again; it romanizes as a freshly built one does."""
    import uroman

    monkeypatch.setenv("XEL_CACHE", str(tmp_path))
    text = "ཀི་རི་ཀྲའིན Дональд दोनाल्ड ጆንግ-ኡን 金正恩 ½"
    translit._uroman.cache_clear()
    first = translit._uroman()
    kept = list((tmp_path / "translit").glob("uroman-*.pickle"))
    assert len(kept) == 1
    translit._uroman.cache_clear()
    with monkeypatch.context() as m:
        m.setattr(uroman, "Uroman", lambda: pytest.fail("built again"))
        again = translit._uroman()
    assert again is not first
    assert again.romanize_string(text) == first.romanize_string(text) \
        == uroman.Uroman().romanize_string(text)
    assert again.dict_num["not a number"] is None
    kept[0].write_bytes(b"not a pickle")
    translit._uroman.cache_clear()
    assert translit._uroman().romanize_string(text) == first.romanize_string(text)
    assert kept[0].read_bytes() != b"not a pickle"
    translit._uroman.cache_clear()
