"""Name priors for the aligner: English name tokens tied to the target words that read as them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xel.align import AlignJob, Texts, align_texts, decode_links, eflomal, eflomal_priors
from xel.config import AlignConfig, Config, TokenizeConfig
from xel.names.match import make_matcher
from xel.priors import name_priors, read_links

CONFIG = Config.model_validate({"name": "test", "corpus": {"path": "corpus"},
                                "kb": {"path": "kb.jsonl"}})


def test_names_are_tied_to_the_words_that_read_as_them() -> None:
    matcher = make_matcher("rus", CONFIG, ["Vladimir Putin"])
    src = ["Vladimir", "Putin", "met", "the", "press"]
    tgt = ["Владимир", "Путин", "встретился", "с", "прессой"]
    assert read_links(src[:2], tgt, matcher) == [(0, [0]), (1, [1])]
    priors = name_priors([(src, tgt, [(0, 1)])], matcher, 10)
    assert priors == {("Vladimir", "Владимир"): 10, ("Putin", "Путин"): 10}
    # Inflected forms read as the name too (`Путина`); words that do not are never tied.
    priors = name_priors([(["Putin", "said"], ["сказал", "Путина", "брат"], [(0, 0)]),
                          (["Putin", "left"], ["Путин", "ушёл"], [(0, 0)])], matcher, 2.5)
    assert priors == {("Putin", "Путина"): 2.5, ("Putin", "Путин"): 2.5}


def test_a_name_nothing_reads_as_adds_no_prior() -> None:
    matcher = make_matcher("rus", CONFIG, ["Putin"])
    assert name_priors([(["Putin", "spoke"], ["Он", "выступил"], [(0, 0)])], matcher, 10) == {}
    # Punctuation inside a mention is not a name token.
    assert name_priors([(["Putin", "-"], ["-", "Путин"], [(0, 1)])], matcher, 1) == {
        ("Putin", "Путин"): 1}


def test_name_priors_are_written_as_the_token_files_write_tokens(tmp_path: Path) -> None:
    (tmp_path / "src").write_text("kim jong_un spoke\n", encoding="utf-8")
    (tmp_path / "tgt").write_text("ким чен_ын выступил\n", encoding="utf-8")
    written = eflomal_priors(tmp_path, AlignConfig(), {("Kim", "Ким"): 10,
                                                       ("Jong un", "Чен ын"): 4})
    assert written is not None
    assert written.read_text(encoding="utf-8").splitlines() == [
        "LEX\tjong_un\tчен_ын\t4", "LEX\tkim\tким\t10"]
    assert eflomal_priors(tmp_path, AlignConfig(), {}) is None


NAMES = ["Boris", "Dmitri", "Farid", "Greta", "Olga", "Viktor", "Nadia", "Pavel", "Irina",
         "Yuri", "Ivan", "Anton", "Sergei", "Tamara"]
CYRILLIC = ["Борис", "Дмитрий", "Фарид", "Грета", "Ольга", "Виктор", "Надя", "Павел", "Ирина",
            "Юрий", "Иван", "Антон", "Сергей", "Тамара"]
WORDS = {"sees": "видит", "hears": "слышит", "likes": "любит", "calls": "зовёт"}
THINGS = {"house": "дом", "car": "машину", "tree": "дерево", "boat": "лодку", "cat": "кошку"}


def corpus() -> tuple[list[list[str]], list[list[str]]]:
    """`Name V the O day-k` / `день-k O' V' Name'`: every name once, beside a word as rare at
    the other end of the sentence, which is where the aligner links a word it knows nothing of."""
    verbs, things = list(WORDS), list(THINGS)
    src, tgt = [], []
    for k, (name, written) in enumerate(zip(NAMES, CYRILLIC, strict=True)):
        v, o = verbs[k % 4], things[k % 5]
        src.append([name, v, "the", o, f"day{k}"])
        tgt.append([f"день{k}", THINGS[o], WORDS[v], written])
    return src, tgt


def test_name_priors_make_a_small_corpus_align_its_names() -> None:
    """Every name once: with the priors each links to its Cyrillic form; without them not
    all do."""
    src, tgt = corpus()
    matcher = make_matcher("rus", CONFIG, NAMES)
    priors = name_priors([(s, t, [(0, 0)]) for s, t in zip(src, tgt, strict=True)], matcher, 5)
    assert set(priors) == set(zip(NAMES, CYRILLIC, strict=True))
    config = AlignConfig()
    with_priors = list(eflomal(src, tgt, config, priors=priors))
    assert all((0, 3) in x for x in with_priors)
    without = list(eflomal(src, tgt, config))
    assert not all((0, 3) in x for x in without)


def test_the_align_job_reads_its_mentions_for_name_priors(monkeypatch: Any) -> None:
    """`align.name_prior` sends the config and each wanted pair's mentions with the job, and
    the worker hands the aligner the priors of those mentions only."""
    seen: dict[str, Any] = {}

    def aligner(src: Any, tgt: Any, config: AlignConfig, wanted: Any, priors: Any) -> Any:
        seen["priors"] = priors
        return iter([set() for _ in wanted])

    import xel.align

    monkeypatch.setattr(xel.align.aligners, "get", lambda name: aligner)
    src = Texts(["Putin met Boris.", "The weather is fine.", "Olga sang."])
    tgt = Texts(["Путин встретил Бориса.", "Погода хорошая.", "Ольга пела."])
    config = CONFIG.model_copy(update={"align": AlignConfig(name_prior=3)})
    job = AlignJob("eng", "rus", src, tgt, [0, 2], TokenizeConfig(), config.align, config,
                   [[(0, 5), (10, 15)], [(0, 4)]])
    result = align_texts(job)
    assert seen["priors"] == {("Putin", "Путин"): 3, ("Boris", "Бориса"): 3,
                              ("Olga", "Ольга"): 3}
    assert [decode_links(x) for x in result.links] == [set(), set()]


def test_the_align_signature_records_the_name_models_only_with_name_priors(
        tmp_path: Path) -> None:
    """Name priors make alignment depend on the name models: a changed model realigns."""
    from xel.align import align_signature
    from xel.corpus import DDL
    from xel.store import Store

    store = Store(tmp_path / "s.sqlite")
    store.declare(DDL)
    store.execute("INSERT INTO languages VALUES ('eng', 'source', 'Latn', 'English', 'e', 1, 0)")
    plain = align_signature(store, CONFIG, "rus")
    named = align_signature(store, CONFIG.model_copy(
        update={"align": AlignConfig(name_prior=5)}), "rus")
    assert plain["align"] != named["align"]
    assert set(named) - set(plain) and all(k.startswith(("to-english", "from-english",
                                                          "threshold", "lexicon"))
                                           for k in set(named) - set(plain))


def test_gold_is_aligned_with_the_priors_of_its_english_mentions(monkeypatch: Any) -> None:
    """`xel eval projection` aligns gold sentences as a collection would: with name priors from
    the English mentions (never from the gold's target side or links)."""
    from xel.evaluate import GoldMention, GoldSentence, align_gold

    seen: dict[str, Any] = {}

    def aligner(src: Any, tgt: Any, config: AlignConfig, wanted: Any, priors: Any) -> Any:
        seen["priors"] = priors
        return iter([set() for _ in wanted])

    import xel.align

    monkeypatch.setattr(xel.align.aligners, "get", lambda name: aligner)
    gold = [GoldSentence(["Putin", "met", "Olga"], ["Путин", "встретил", "Ольгу"]),
            GoldSentence(["He", "left"], ["Он", "ушёл"])]
    mentions = [GoldMention(0, 0, 0, (0, 0)), GoldMention(0, 2, 2, (2, 2))]
    config = CONFIG.model_copy(update={"align": AlignConfig(name_prior=2)})
    links, extra = align_gold(gold, "rus", config, False, mentions)
    assert links == [set(), set()] and extra == 0
    assert seen["priors"] == {("Putin", "Путин"): 2, ("Olga", "Ольгу"): 2}
    align_gold(gold, "rus", CONFIG, False, mentions)
    assert seen["priors"] is None
