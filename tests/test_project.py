"""Projection: the paper's aligned span, the name-aware refinements, ranking, and the stage."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from xel.config import Config, ProjectConfig, load_config
from xel.errors import XelError
from xel.names.mandarin import heard_runs, reads_as
from xel.names.match import NameMatcher, make_matcher
from xel.names.script import orthographic, whole_characters
from xel.ner import DDL as NER_DDL
from xel.pipeline import STAGES, languages, run, signature
from xel.project import rank_projections
from xel.spans import Pair, cut_between_words, function_words, project_mention
from xel.stages import StageRun
from xel.store import Store
from xel.tokenizers import word_spans

PAPER = ProjectConfig(name_aware=False)
AWARE = ProjectConfig()


def bare_config(**sections: Any) -> Config:
    """A config with the given sections (the shipped name models unless `names` says)."""
    return Config.model_validate({"name": "test", "corpus": {"path": "corpus"},
                                  "kb": {"path": "kb.jsonl"}, **sections})


MODELS = bare_config()


def pair(src: str, tgt: str, links: set[tuple[int, int]],
         tgt_tokens: list[str] | None = None) -> Pair:
    """A pair tokenized by Unicode words (or the given target tokens, located in order)."""
    if tgt_tokens is None:
        spans = word_spans(tgt)
    else:
        spans, pos = [], 0
        for tok in tgt_tokens:
            pos = tgt.index(tok, pos)
            spans.append((pos, pos + len(tok)))
            pos += len(tok)
    return Pair(src, word_spans(src), tgt, spans, links)


def project(p: Pair, name: str, lang: str, config: ProjectConfig = AWARE,
            matcher: NameMatcher | None = None, stops: frozenset[str] = frozenset()) -> str:
    start = p.src_text.index(name)
    matcher = matcher or NameMatcher(lang, None, config.min_similarity)
    out = project_mention(p, start, start + len(name), name, matcher, stops, config)
    return "" if out.start is None else p.tgt_text[out.start:out.end]


def test_paper_span_is_the_shortest_cover_of_aligned_tokens() -> None:
    p = pair("Kenny Miler joined last month", "Kenny Miler kam im letzten Monat",
             {(0, 0), (1, 1), (1, 4)})
    assert project(p, "Kenny Miler", "deu", PAPER) == "Kenny Miler kam im letzten"


def test_name_aware_span_does_not_swallow_neighbouring_words() -> None:
    p = pair("Kenny Miler joined last month", "Kenny Miler kam im letzten Monat",
             {(0, 0), (1, 1), (1, 4), (2, 2), (3, 4), (4, 5)})
    assert project(p, "Kenny Miler", "deu") == "Kenny Miler"


def test_name_aware_span_does_not_drop_a_part_of_the_name() -> None:
    p = pair("Kenny Miler joined", "Gestern kam Kenny Miler an", {(1, 3)})
    assert project(p, "Kenny Miler", "deu", PAPER) == "Miler"
    assert project(p, "Kenny Miler", "deu") == "Kenny Miler"


def test_a_bad_alignment_is_overridden_by_the_spelling() -> None:
    p = pair("Donald Trump met him", "встреча Дональда Трампа с ним", {(0, 0), (1, 0)})
    assert project(p, "Donald Trump", "rus", PAPER) == "встреча"
    # Inflected forms are kept as they occur in the text.
    assert project(p, "Donald Trump", "rus") == "Дональда Трампа"


def test_function_words_and_punctuation_are_trimmed_from_the_edges() -> None:
    p = pair("said Emmanuel Macron today", "a dit le Emmanuel Macron , aujourd'hui",
             {(1, 2), (1, 3), (2, 4), (2, 5)})
    stops = frozenset({"le", "a"})
    assert project(p, "Emmanuel Macron", "fra", PAPER) == "le Emmanuel Macron ,"
    assert project(p, "Emmanuel Macron", "fra", stops=stops) == "Emmanuel Macron"
    assert project(p, "Emmanuel Macron", "fra", ProjectConfig(trim=False, name_match=False),
                   stops=stops) == "le Emmanuel Macron ,"


@pytest.mark.parametrize("lang", ["fra", "deu", "rus", "zho-CN", "amh", "srp-Latn"])
def test_function_words_are_spacys_stop_words(lang: str) -> None:
    """Read from spaCy's stop-word file without importing spaCy, they are the words its
    language class says; a language spaCy has none for (Fijian) has none."""
    import spacy.util

    from xel.languages import language

    code = language(lang).iso1
    assert code is not None
    expected = spacy.util.get_lang_class(code).Defaults.stop_words
    assert function_words(lang) == frozenset(w.casefold() for w in expected)
    assert function_words(lang)
    assert function_words("fij") == frozenset()


def test_a_function_word_that_spells_the_name_stays() -> None:
    # Russian `ли` is a particle and the name Lee.
    p = pair("Lee said", "Ли сказал", {(0, 0)})
    assert project(p, "Lee", "rus", stops=frozenset({"ли"})) == "Ли"


def test_target_name_beside_an_english_copy_in_parentheses() -> None:
    text = "北韓領導人金正恩 (Kim Jong Un) 表示"
    tokens = ["北韓", "領導人", "金正恩", "(", "Kim", "Jong", "Un", ")", "表示"]
    p = pair("Kim Jong Un said", text, {(0, 4), (1, 5), (2, 6), (3, 8)}, tokens)
    assert project(p, "Kim Jong Un", "zho-TW", PAPER) == "Kim Jong Un"
    assert project(p, "Kim Jong Un", "zho-TW") == "金正恩"
    off = ProjectConfig(parentheses=False)
    assert project(p, "Kim Jong Un", "zho-TW", off) == "Kim Jong Un"


def test_spaced_script_parentheses_take_as_many_words_as_the_name() -> None:
    p = pair("Kim Jong Un said", "قال الزعيم كيم جونغ أون (Kim Jong Un) أمس",
             {(0, 6), (1, 7), (2, 8)})
    assert project(p, "Kim Jong Un", "arb") == "كيم جونغ أون"


def test_empty_target_and_no_links_are_failures() -> None:
    assert project(pair("Kim said", "", set()), "Kim", "deu") == ""
    assert project(pair("Kim said", "Er sagte", set()), "Kim", "deu") == ""


def test_unmatched_bracket_is_cut_off() -> None:
    p = pair("Chris Harris said", "哈里斯 (Chris", {(0, 2), (1, 0)}, ["哈里斯", "(", "Chris"])
    assert project(p, "Chris Harris", "zho-TW") == "哈里斯"


def test_orthographic_similarity() -> None:
    assert orthographic("trump", "trampa") >= 0.75  # inflected Cyrillic, transliterated
    assert orthographic("donald", "dwnald", abjad=True) >= 0.75  # Arabic writes few vowels
    assert orthographic("lee", "li") >= 0.75
    assert orthographic("ed", "ad") == 0.0
    assert orthographic("smith", "monat") < 0.5


def test_name_models_spell_names_in_other_scripts() -> None:
    config = MODELS.project
    matcher = make_matcher("zho-TW", MODELS)
    assert matcher.score("kim", "金") == 1.0
    assert matcher.name_like("卡瓦諾") and not matcher.name_like("總統")
    text = "美國總統川普與特蕾莎·梅會面"
    tokens = ["美國", "總統", "川普", "與", "特", "蕾", "莎", "·", "梅", "會面"]
    p = pair("Trump met Theresa May", text, {(0, 0), (0, 1), (0, 2), (3, 8)}, tokens)
    assert project(p, "Trump", "zho-TW", config, matcher) == "川普"
    assert project(p, "Theresa May", "zho-TW", config, matcher) == "特蕾莎·梅"


def test_ranking_frequency_then_token_count_then_length_then_text() -> None:
    items = [("donald trump", "Trump", 2, True)] * 3 + [
        ("donald trump", "Donald Trump", 2, True)] * 3 + [
        ("donald trump", "", 2, False)] * 5 + [
        ("kim", "Kim", 1, True), ("kim", "Kims", 1, True)]
    ranks = rank_projections(items, "deu", group=False, prefer_matched=True)
    assert [r[2] for r in ranks if r[0] == "donald trump"] == ["Donald Trump", "Trump"]
    assert [r[2] for r in ranks if r[0] == "kim"] == ["Kims", "Kim"]  # longer span wins


def test_ranking_groups_inflections_and_puts_english_copies_last() -> None:
    items = [("trump", "Трамп", 1, True)] * 3 + [("trump", "Трампа", 1, True)] * 2 + [
        ("trump", "вице", 1, False)] * 4
    ranks = rank_projections(items, "rus", group=True, prefer_matched=True)
    assert [r[2] for r in ranks] == ["Трамп", "Трампа", "вице"]
    assert ranks[0][4] == 5  # group frequency
    ungrouped = rank_projections(items, "rus", group=False, prefer_matched=True)
    assert ungrouped[0][2] == "вице"
    copies = [("trump", "Trump", 1, True)] * 5 + [("trump", "川普", 1, False)]
    assert rank_projections(copies, "zho-TW", True, True)[0][2] == "川普"


# --- the stage on a small corpus -------------------------------------------------------------

ENGLISH = [
    "Donald Trump met Angela Merkel in Berlin.",
    "Angela Merkel said the talks were good.",
    "Trump left on <b>Tuesday</b> <script>alert(1)</script>.",
    "Kenny Miler joined the club last month.",
    "The weather was bad.",
]
GERMAN = [
    "Donald Trump traf Angela Merkel in Berlin.",
    "Angela Merkel sagte, die Gespräche seien gut gewesen.",
    "Trump reiste am <b>Dienstag</b> <script>alert(1)</script> ab.",
    "",
    "Das Wetter war schlecht.",
]
MENTIONS = [  # (seg, name)
    (0, "Donald Trump"), (0, "Angela Merkel"), (1, "Angela Merkel"), (2, "Trump"),
    (3, "Kenny Miler"),
]


def small_store(tmp_path: Path, repeat: int = 6, lang: str = "deu",
                target: list[str] = GERMAN, models: str | None = None,
                also: tuple[str, ...] = ()) -> tuple[Store, Config]:
    """A two-document English-German corpus (or another language's), imported, with person
    mentions inserted; no transliteration models unless `models` says. The languages `also`
    get the same target sentences."""
    en, de = ENGLISH * repeat, target * repeat
    (tmp_path / "en.txt").write_text("\n".join(en) + "\n", encoding="utf-8")
    (tmp_path / "de.txt").write_text("\n".join(de) + "\n", encoding="utf-8")
    docs = ["d1" if k < len(en) // 2 else "d2" for k in range(len(en))]
    (tmp_path / "docs.txt").write_text("\n".join(docs) + "\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({
        "name": "t", "store": str(tmp_path / "x.sqlite"),
        "corpus": {"path": str(tmp_path), "format": "moses", "files": {"eng": "en.txt",
                   lang: "de.txt", **{code: "de.txt" for code in also}},
                   "doc_ids": "docs.txt"},
        "kb": {"path": "kb.jsonl"}, "names": {"models": models}}), encoding="utf-8")
    config = load_config(tmp_path / "c.yaml")
    store = Store(config.resolve(config.store))
    run(store, config, ["import"])
    store.declare(NER_DDL)
    rows = []
    for seg in range(len(en)):
        for s, name in MENTIONS:
            if seg % len(ENGLISH) == s:
                start = en[seg].index(name)
                key = name.lower()
                rows.append((docs[seg], seg, start, start + len(name), name, name, key, None,
                             len(name.split())))
    store.executemany("INSERT INTO mentions(doc_id, seg, start, end, surface, name, name_key,"
                      " honorific, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    as_if_run(store, config, "ner")
    return store, config


def as_if_run(store: Store, config: Config, name: str) -> None:
    """Record a stage as run with its current signature (its output was written by hand), so
    the commands' runner takes it as done."""
    stage = STAGES[name]
    sig = signature(store, config, stage, "", languages(store, config))
    store.record_stage(sig.stage, sig.digest, sig.text, {})


def projected(store: Store, config: Config, langs: list[str] | None = None) -> dict[str, StageRun]:
    """Align and project (each language its own stages); the project runs by language."""
    return {r.name.partition(":")[2]: r for r in run(store, config, ["align", "project"],
                                                      langs=langs) if r.name.startswith("project:")}


def test_project_stage_writes_every_table_and_resumes(tmp_path: Path) -> None:
    store, config = small_store(tmp_path)
    runs = projected(store, config)
    assert list(runs) == ["deu"] and not runs["deu"].skipped
    summary = runs["deu"].summary
    assert summary["mentions"] == 30
    assert summary["failures"] == 6  # Kenny Miler's sentence has no translation
    rows = store.query("SELECT p.text, m.name FROM projections p JOIN mentions m"
                       " USING (mention_id) WHERE p.failed = 0")
    assert all(r["text"] == r["name"] for r in rows)
    chosen = {r["name_key"]: r["text"] for r in store.query("SELECT * FROM chosen_projections")}
    assert chosen == {"donald trump": "Donald Trump", "angela merkel": "Angela Merkel",
                      "trump": "Trump"}
    counts = store.query("SELECT * FROM projection_counts")[0]
    assert (counts["mentions"], counts["failures"]) == (30, 6)
    # Only the pairs with a person mention keep their tokens and links (what projection reads).
    mentioned = store.scalar("SELECT COUNT(DISTINCT seg) FROM mentions")
    assert store.query("SELECT COUNT(*) FROM alignments")[0][0] == mentioned < 30
    # Unchanged: skipped language by language; a changed refinement reruns projection only.
    assert projected(store, config, ["de"])["deu"].skipped
    changed = config.model_copy(update={"project": config.project.model_copy(
        update={"trim": False})})
    before = store.stage_digest("align:deu")
    assert not projected(store, changed)["deu"].skipped
    assert store.stage_digest("align:deu") == before
    # the packages that read names are in the signature: a new `regex` reprojects
    text = store.query("SELECT signature FROM stages WHERE name = 'project:deu'")[0][0]
    assert all(f"|{p}=" in text for p in ("regex", "rapidfuzz", "PyICU", "jieba", "Janome"))


def test_project_stage_needs_its_inputs(tmp_path: Path) -> None:
    store, config = small_store(tmp_path, repeat=1)
    with pytest.raises(XelError, match="unknown language code 'fra'"):
        projected(store, config, ["fra"])
    store.forget_stage("ner")
    with pytest.raises(XelError, match="xel queries"):
        projected(store, config)


def test_characters_spaced_out_by_a_gold_tokenization_still_spell_the_name() -> None:
    config = MODELS.project
    matcher = make_matcher("zho-TW", MODELS)
    text = "美 國 總 統 與 特 蕾 莎 · 梅 會 面"
    p = pair("the president met Theresa May", text, {(4, 11)}, text.split())
    assert project(p, "Theresa May", "zho-TW", config, matcher) == "特 蕾 莎 · 梅"


def test_arabic_proclitic_is_left_out_of_the_name() -> None:
    p = pair("and Justin Thomas won", "وجاستن توماس فاز", {(1, 0), (2, 1)})
    assert project(p, "Justin Thomas", "arb") == "جاستن توماس"
    p = pair("Boris won", "بوريس فاز", {(0, 0)})  # a name that starts with ب keeps it
    assert project(p, "Boris", "arb") == "بوريس"
    p = pair("Walid won", "وليد فاز", {(0, 0)})  # and one that starts with و keeps it too
    assert project(p, "Walid", "arb") == "وليد"


def test_katakana_names_are_taken_whole() -> None:
    from xel.names.japanese import katakana_word

    text = "フランチェスコ・モリナリ組は「ジャスティン・トーマス」と衝突したペナルティ"

    def cut(a: int, b: int) -> str:
        s, e = katakana_word(text, a, b)
        return text[s:e]
    assert cut(5, 13) == "フランチェスコ・モリナリ"  # `スコ・モリナリ組`
    assert cut(17, 26) == "ジャスティン・トーマス"  # `スティン・トーマス`
    assert cut(17, len(text)) == "ジャスティン・トーマス"  # not on to `ペナルティ`
    assert katakana_word("金正恩氏", 0, 3) == (0, 3)


def test_a_letter_is_never_cut_from_its_combining_marks() -> None:

    text = "โดนัลด์ ทรัมป์"
    assert whole_characters(text, 3, 14) == (2, 14)  # the piece began with the vowel sign ั
    assert whole_characters("abc", 0, 3) == (0, 3)


def test_korean_particles_are_left_out_of_the_name() -> None:
    p = pair("Donald Trump said", "도널드 트럼프는 말했다", {(0, 0), (1, 1)})
    assert project(p, "Donald Trump", "kor") == "도널드 트럼프"
    p = pair("Dolly Menga scored", "돌리 멘가 득점", {(0, 0), (1, 1)})  # `가` is part of Menga
    assert project(p, "Dolly Menga", "kor") == "돌리 멘가"


def test_hebrew_geresh_stays_with_its_letter() -> None:
    text = "הפועל ג'ורדן ספית"
    tokens = ["הפועל", "ג", "'", "ורדן", "ספית"]
    p = pair("Jordan Spieth won", text, {(0, 3), (1, 4)}, tokens)
    assert project(p, "Jordan Spieth", "heb") == "ג'ורדן ספית"


def test_a_partial_match_grows_by_aligned_words_only_to_the_name_length() -> None:
    # `Jinping` is not spelled alike in `Dschinping`; `Team` is aligned to the name too.
    p = pair("Xi Jinping spoke", "Xi Dschinping Team sprach", {(0, 0), (1, 1), (1, 2)})
    assert project(p, "Xi Jinping", "deu") == "Xi Dschinping"


@pytest.fixture
def zh() -> tuple[ProjectConfig, NameMatcher]:
    return MODELS.project, make_matcher("zho-TW", MODELS)


def test_chinese_spans_snap_to_the_name_across_learned_pieces(
        zh: tuple[ProjectConfig, NameMatcher]) -> None:
    """Real NTREX sentences whose learned pieces (`對卡瓦諾`, `梅首相`) run the name into
    neighbouring characters."""
    config, matcher = zh
    cases = [
        ("FBI 對卡瓦諾的新調查", ["FBI", "對卡瓦諾", "的", "新", "調查"],
         "the FBI investigation of Kavanaugh", "Kavanaugh", {(4, 1)}, "卡瓦諾"),
        ("柏納李在網路中立辯論中", ["柏納李", "在", "網路", "中", "立", "辯", "論", "中"],
         "Berners-Lee in the net neutrality debate", "Berners-Lee",
         {(0, 0), (0, 1), (0, 4)}, "柏納李"),
        ("美國總統川普表示", ["美國", "總統", "川", "普", "表示"],
         "US President Trump said", "Trump", {(2, 1), (2, 2), (2, 3)}, "川普"),
        ("哈靈頓以其在 HBO", ["哈", "靈", "頓", "以", "其", "在", "HBO"],
         "Harington is known for HBO", "Harington", {(0, 1), (0, 2)}, "哈靈頓"),
        ("英國梅首相 (Theresa May) 將在今天宣布", ["英國", "梅首相", "(", "Theresa", "May",
                                                ")", "將在", "今天", "宣布"],
         "Theresa May will announce today", "Theresa May", {(0, 3), (1, 4)}, "梅"),
        ("他的父親陶德‧裴琳 (Todd Palin)。", ["他的", "父親", "陶", "德", "‧", "裴琳", "(",
                                         "Todd", "Palin", ")", "。"],
         "his father Todd Palin.", "Todd Palin", {(2, 7), (3, 8)}, "陶德‧裴琳"),
        ("和美國總統唐納德·川普 (Donald Trump)", ["和", "美國", "總統", "唐納德", "·", "川普",
                                            "(", "Donald", "Trump", ")"],
         "and US President Donald Trump", "Donald Trump", {(3, 7), (4, 8)}, "唐納德·川普"),
        ("金正恩與川普會面", ["金正恩與", "川普", "會面"], "Kim Jong-un met Trump",
         "Kim Jong-un", {(0, 0), (1, 0), (2, 0), (3, 0)}, "金正恩"),  # `正` is rare in the
    ]                                                                # dictionary, but aligned
    for tgt, tokens, src, name, links, want in cases:
        p = pair(src, tgt, links, tokens)
        assert project(p, name, "zho-TW", config, matcher) == want, tgt
    off = config.model_copy(update={"characters": False})
    p = pair(cases[0][2], cases[0][0], cases[0][4], cases[0][1])
    assert project(p, "Kavanaugh", "zho-TW", off, matcher) == "對卡瓦諾"


def test_a_chinese_name_cut_short_goes_on_to_the_end_of_its_run(
        zh: tuple[ProjectConfig, NameMatcher]) -> None:
    """A character written in many transliterated names right beside the span goes with it
    where the name reads as well (PUD: `伊蓮娜`, `耶穌`); a left one that reads worse stays out."""
    config, matcher = zh
    cases = [
        ("伊蓮娜說她很好", ["伊蓮", "娜", "說", "她", "很", "好"], "Elaine said she is fine",
         "Elaine", {(0, 0)}, "伊蓮娜"),
        ("耶穌的門徒", ["耶", "穌", "的", "門徒"], "the disciples of Jesus", "Jesus",
         {(3, 1)}, "耶穌"),
        ("蒂娜·安塞密爾說", ["蒂娜", "·", "安塞密", "爾說"], "Tina Anselmi said",
         "Tina Anselmi", {(0, 0), (1, 2)}, "蒂娜·安塞密爾"),
        ("在德圖特摩斯時代", ["在", "德", "圖特摩斯", "時代"], "in the age of Thutmose",
         "Thutmose", {(4, 2)}, "圖特摩斯"),
    ]
    for tgt, tokens, src, name, links, want in cases:
        p = pair(src, tgt, links, tokens)
        assert project(p, name, "zho-TW", config, matcher) == want, tgt


def test_a_homophone_of_a_dictionary_form_is_not_the_name(
        zh: tuple[ProjectConfig, NameMatcher]) -> None:
    _, matcher = zh
    assert matcher.score("may", "梅") == 1.0
    assert matcher.score("may", "每") < matcher.min_similarity  # `mei`, but `every`
    assert matcher.score("palin", "裴琳") >= matcher.min_similarity  # Taiwan's `佩林`


def test_katakana_names_take_every_part() -> None:
    from xel.names.japanese import katakana_name

    def cut(text: str, part: str, n_english: int) -> str:
        a = text.index(part)
        s, e = katakana_name(text, a, a + len(part), n_english)
        return text[s:e]
    assert cut("弁護士のポール マナフォートは", "ポール", 2) == "ポール マナフォート"
    assert cut("息子ロバート・レイ・ブラック＝ダレーが", "ロバート・レイ・ブラック", 4) \
        == "ロバート・レイ・ブラック＝ダレー"
    assert cut("ジョージ・W・ブッシュ大統領", "ジョージ", 3) == "ジョージ・W・ブッシュ"
    assert cut("デーブ・シュバルツ氏は", "シュバルツ", 2) == "デーブ・シュバルツ"
    assert cut("ドナルド・トランプ大統領", "トランプ", 1) == "トランプ"  # no more than English
    assert cut("トランプ 大統領", "トランプ 大統領", 2) == "トランプ"  # kanji are not parts
    assert katakana_name("金正恩氏", 0, 3, 3) == (0, 3)


def test_latin_words_stay_whole_in_unspaced_scripts() -> None:
    from xel.names.script import whole_latin_words

    text = "キャプテンのCraig Halkettは"
    a = text.index("raig")
    s, e = whole_latin_words(text, a, text.index("Halkett") + 6)
    assert text[s:e] == "Craig Halkett"
    assert whole_latin_words(text, 0, 5) == (0, 5)


def test_han_names_that_are_not_transliterations_are_kept_whole(
        zh: tuple[ProjectConfig, NameMatcher]) -> None:
    """Chinese, Korean and Japanese people's names are written by meaning: only a surname (or
    nothing) is spelled like the English, so the whole aligned name is kept (issue 13)."""
    config, matcher = zh
    chars = list  # every Han character its own token, as the gold tokenizations have them
    cases = [
        # a surname that transliterations also use (`李` is Lee), the rest aligned: whole
        ("李光耀領導新加坡三十多年。", "Lee Kuan Yew led Singapore", "Lee Kuan Yew",
         {(0, 0), (1, 1), (2, 2), (2, 3), (3, 4)}, "李光耀"),
        # the Korean reading of the whole run spells the name (`김대중`, Kim Dae-jung)
        ("金大中於一九九八年就任總統。", "Kim Dae-jung took office in 1998", "Kim Dae-jung",
         {(0, 0), (1, 1)}, "金大中"),
    ]
    for tgt, src, name, links, want in cases:
        p = pair(src, tgt, links, chars(tgt))
        assert project(p, name, "zho-TW", config, matcher) == want, tgt
    # the whole name, but never past the aligned characters or into grammatical ones
    p = pair("Lee Kuan Yew led Singapore", "李光耀的新加坡", {(0, 0), (1, 1), (2, 2), (2, 3)},
             chars("李光耀的新加坡"))
    assert project(p, "Lee Kuan Yew", "zho-TW", config, matcher) == "李光耀"
    assert matcher.score("de", "的") == 0.0  # `Charles de Gaulle`: `的` is grammar


def test_a_single_kana_is_not_a_romanized_name() -> None:
    matcher = make_matcher("jpn", MODELS, ["Seii"])
    assert matcher.score("seii", "さ") < matcher.min_similarity
    assert matcher.score("trump", "トランプ") >= matcher.min_similarity


def test_a_name_without_numbers_has_none_in_its_span() -> None:
    from xel.spans import without_digits

    text = "日本外相川口顺子29日宣布"
    s, e = without_digits(text, 4, 11)  # a date was aligned with the name too
    assert text[s:e] == "川口顺子"
    assert without_digits("ab 123", 3, 6) == (3, 6)  # nothing but numbers: left to others
    assert without_digits("၁၁ နာရီ", 0, 7) == (2, 7)  # Burmese digits are numbers
    assert without_digits("ဂ်ိဳကို ၀ီဒိုဒို", 0, 16) == (0, 16)  # but for a wa typed as zero
    p = pair("Minister Yoriko Kawaguchi announced", "外相 川口顺子29日 宣布", {(1, 1), (2, 1)})
    assert project(p, "Yoriko Kawaguchi", "zho-CN") == "川口顺子"
    p = pair("Louis 14 spoke", "Louis 14 a parlé", {(0, 0), (1, 1)})
    assert project(p, "Louis 14", "fra") == "Louis 14"  # the English has the number


def test_a_japanese_name_glossed_with_its_reading_is_found_by_it() -> None:
    text = "初名は冬実（ふゆざね）・昭尹（あきただ）。"
    p = pair("His childhood name was Akitada.", text, {(4, 0)}, list(text))
    assert project(p, "Akitada", "jpn") == "昭尹"  # though aligned with `初`


def test_the_kth_mention_of_a_name_gets_its_kth_occurrence() -> None:
    text = "萨隆说,如果阿拉法贯彻协议,将允许阿拉法离开"
    src = "Sharon said if Arafat implements it, he will allow Arafat to leave"
    tokens = ["萨隆", "说", ",", "如果", "阿拉法", "贯彻", "协议", ",", "将", "允许", "阿拉法",
              "离开"]
    # The aligner linked both Arafats with the first 阿拉法.
    p = pair(src, text, {(0, 0), (3, 4), (10, 4)}, tokens)
    second = src.rindex("Arafat")
    out = project_mention(p, second, second + 6, "Arafat", NameMatcher("zho-CN", None, 0.75),
                          frozenset(), AWARE)
    assert (out.start, out.end) == (text.rindex("阿拉法"), text.rindex("阿拉法") + 3)
    assert project(p, "Arafat", "zho-CN") == "阿拉法"  # the first stays the first
    p = pair("Arafat met Arafat's aide", "阿拉法会见助手", {(0, 0), (2, 0)}, ["阿拉法", "会见",
                                                                      "助手"])
    out = project_mention(p, 11, 17, "Arafat", NameMatcher("zho-CN", None, 0.75), frozenset(),
                          AWARE)
    assert out.start == 0  # written once: nothing to choose


def test_a_span_of_numbers_is_no_name() -> None:
    p = pair("He served Emperor Kosai (111th)", "光西天皇（111代）に仕え", {(3, 2)},
             ["光西", "天皇", "（", "111", "代", "）", "に", "仕え"])
    assert project(p, "Kosai", "jpn") == ""


def test_characters_aligned_with_common_english_words_are_claimed() -> None:
    from xel.spans import Pair, claimed_characters

    src = "the author Ki no Yoshimochi and Kim said"
    tgt = "作者紀淑望と金正恩"
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", src)]
    pieces = [(0, 2), (2, 5), (5, 6), (6, 9)]
    # author-作者, Ki/Yoshimochi-紀淑望, Kim-金正恩 (another mention of the same person)
    pair = Pair(src, words, tgt, pieces, {(1, 0), (2, 1), (4, 1), (6, 3)})
    assert claimed_characters(pair, [2, 3, 4], 2, 5) == frozenset({0, 1})
    assert claimed_characters(pair, [6], 6, 9) == frozenset({0, 1})  # not 紀淑望: a name's


def test_unspaced_name_grown_to_the_aligned_pieces_of_its_missing_part() -> None:
    # Dzongkha (NTREX): Donald is `དྲོ་ལནདྲ`, which does not read as Donald; the aligner gave
    # `ལནདྲ` to another word. Trump matches by sound; Donald's side is filled to the alignment.
    text = "སྲིད་བློན་དྲོ་ལནདྲ་ཀྲམཔ་གཉིས་ཀྱི་ཞལ་འཛོམས"
    tokens = ["སྲིད", "བློན", "དྲོ", "ལནདྲ", "ཀྲམཔ", "གཉིས", "ཀྱི", "ཞལ", "འཛོམས"]
    links = {(0, 2), (1, 4), (2, 3), (3, 7)}
    p = pair("Donald Trump and the summit", text, links, tokens)
    assert project(p, "Donald Trump", "dzo") == "དྲོ་ལནདྲ་ཀྲམཔ"
    # Nothing is missing after Trump: the piece aligned after it stays out.
    p = pair("Donald Trump and the summit", text, links | {(1, 5)}, tokens)
    assert project(p, "Donald Trump", "dzo") == "དྲོ་ལནདྲ་ཀྲམཔ"
    # Never across punctuation.
    text = "དྲོ། ཀྲམཔ་གཉིས"
    p = pair("Donald Trump and", text, {(0, 0), (1, 2)}, ["དྲོ", "།", "ཀྲམཔ", "གཉིས"])
    assert project(p, "Donald Trump", "dzo") == "ཀྲམཔ"


def test_a_title_before_the_name_is_left_out() -> None:
    # Khmer (NTREX): `លោក ដូណាល់ត្រាំ`, Mr Donald Trump, the title aligned with Donald.
    text = "ដោយលោក គីម ជុងអ៊ុន និងលោក ដូណាល់ត្រាំ នៅ"
    tokens = ["ដោយ", "លោក", "គីម", "ជុង", "អ៊ុន", "និង", "លោក", "ដូ", "ណាល់", "ត្រាំ", "នៅ"]
    p = pair("by Kim Jong Un and Donald Trump at", text,
             {(0, 0), (1, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (5, 7), (6, 9)}, tokens)
    assert project(p, "Donald Trump", "khm", PAPER) == "លោក ដូណាល់ត្រាំ"
    assert project(p, "Donald Trump", "khm") == "ដូណាល់ត្រាំ"
    assert project(p, "Kim Jong Un", "khm") == "គីម ជុងអ៊ុន"


def test_a_zawgyi_letter_in_a_mark_code_point_is_not_drawn_into_the_name() -> None:
    """Zawgyi writes na as U+108F, a mark to Unicode: `ႏွင့္` (and) after Trump is a word of
    its own, so a span that ends before it stays there (NTREX)."""
    text = "ေဒၚနယ္ ထရမ္ပ္ႏွင့္ အစိုးရ"
    end = text.index("ႏ")
    assert whole_characters(text, 0, end) == (0, end)


def test_a_zawgyi_vowel_written_before_its_consonant_begins_the_name() -> None:
    text = "ႏွင့္ ေဒၚနယ္ထရန္႔တို႔"  # NTREX: `ေ` is a spacing mark after a space
    start = text.index("ေ")
    assert whole_characters(text, start, len(text))[0] == start


def test_a_name_written_by_sound_grows_to_the_words_that_read_as_the_rest() -> None:
    # NTREX Burmese: the aligner gave McGregor's two written words to other English words.
    src = "Rangers goalkeeper Allan McGregor stopped it"
    tgt = "ရိမ္းဂ်ား ဂိုးသမား အလမ္ မက္ ဂရီဂါ မွ ပုတ္ထုတ္ခဲ့"
    p = pair(src, tgt, {(0, 0), (1, 1), (2, 2), (4, 6)})
    assert project(p, "Allan McGregor", "mya") == "အလမ္ မက္ ဂရီဂါ"
    # Nothing beside the name reads as the rest of it: the span stays.
    p = pair("star Phil Mickelson struggled", "ၾကယ္ပြင့္ ေဖးလ္ သည္ ရုန္းကန္", {(0, 0), (1, 1), (3, 3)})
    assert project(p, "Phil Mickelson", "mya") == "ေဖးလ္"


def test_a_name_written_by_sound_is_cut_to_the_words_that_read_as_it() -> None:
    # NTREX Dzongkha: the aligner ran Kim Jong-un on into `ལུ` (to) and `བསྟོད་དེ་སྦེ` (praising)
    tgt = "ཀིམ༌ཇོང༌ཨན༌ལུ༌བསྟོད༌དེ༌སྦེ"
    syllables = ["ཀིམ", "ཇོང", "ཨན", "ལུ", "བསྟོད", "དེ", "སྦེ"]
    links = {(0, 4), (1, 0), *((2, k) for k in range(1, 7))}
    p = pair("praised Kim Jong-un", tgt, links, syllables)
    assert project(p, "Kim Jong-un", "dzo") == "ཀིམ༌ཇོང༌ཨན"
    # a span no part of which reads as the whole name stays as the aligner gave it
    tgt = "ཀིམ༌ལུ༌བསྟོད༌དེ༌སྦེ"
    p = pair("praised Kim Jong-un", tgt, {(0, 2), (1, 0), (2, 1), (2, 3), (2, 4)},
             ["ཀིམ", "ལུ", "བསྟོད", "དེ", "སྦེ"])
    assert project(p, "Kim Jong-un", "dzo") == tgt
    # NTREX Kannada: `ಹಗ್` does not read as Hugh, and Jackman alone sounds like the whole
    # name; in a spaced script the cut keeps a word for each English one
    p = pair("actor Hugh Jackman said", "ನಟ ಹಗ್ ಜಾಕ್ಮನ್ ಹೇಳಿದರು", {(1, 1), (2, 2), (2, 3)})
    assert project(p, "Hugh Jackman", "kan") != "ಜಾಕ್ಮನ್"
    # never inside a written word (Khmer `មែងហ្គា`, Menga)
    assert not cut_between_words("យក មែងហ្គា", 3, 6, 0, 10)
    assert cut_between_words("ཀིམ༌ཇོང༌ཨན༌ལུ", 0, 10, 0, 13)


def test_a_burmese_wa_typed_as_the_digit_zero_is_a_letter() -> None:
    text = "သမၼတ ဂ်ိဳကို ၀ီဒိုဒိုက အင္ဒိုနီးရွား"
    p = pair("President Joko Widodo made Indonesia", text, {(0, 0), (1, 1), (2, 2), (4, 3)})
    assert project(p, "Joko Widodo", "mya") == "ဂ်ိဳကို ၀ီဒိုဒို"  # the particle `က` left out


def test_a_chinese_name_the_models_spell_otherwise_is_found_by_its_sound(
        zh: tuple[ProjectConfig, NameMatcher]) -> None:
    """PUD sentences: the aligner links Caracalla to `皇帝` (emperor) and Villeneuve to
    nothing; the models spell them `卡拉卡拉` and `維爾納夫`, so no spelling matches, but the
    runs of names' characters read as them syllable by syllable."""
    config, matcher = zh
    text = "到了3世紀時，卡瑞卡拉皇帝提出了一個新的分區"
    tokens = ["到了", "3", "世紀", "時", "，", "卡", "瑞", "卡", "拉", "皇", "帝", "提出",
              "了一個", "新的", "分", "區"]
    p = pair("By the 3rd century the emperor Caracalla made a new division", text,
             {(5, 9), (5, 10), (6, 11)}, tokens)
    assert project(p, "Caracalla", "zho-TW", config, matcher) == "卡瑞卡拉"
    text = "維勒訥沃艦隊的堵塞導致了侵略英倫三島的計劃"
    p = pair("The blockade of Villeneuve's fleet ended the plan", text, {(4, 4), (4, 5)},
             list(text[:6]) + ["的", "堵塞", "導致", "了", "侵略", "英倫", "三島", "的", "計劃"])
    assert project(p, "Villeneuve", "zho-TW", config, matcher) == "維勒訥沃"


def test_common_words_are_not_heard_as_names(zh: tuple[ProjectConfig, NameMatcher]) -> None:
    """`謝謝` (thanks) reads as Thomas, syllable for consonant, but is a common word and too
    short to be heard: the aligned `比昂` stays (NTREX: the translator named him otherwise);
    a token spelling matches is never looked for by sound."""
    config, matcher = zh
    text = "非常謝謝比昂獨具慧眼相信我。"
    tokens = ["非常", "謝", "謝", "比", "昂", "獨具", "慧眼", "相信", "我", "。"]
    assert reads_as("謝謝", "Thomas") and reads_as("謝謝恩", "Hussein", to_the_end=True)
    assert matcher.family.heard(text, pair("x", text, set(), tokens).tgt, "Thomas",
                                matcher.char_count) == []
    assert heard_runs("謝謝恩", [(0, 1), (1, 2), (2, 3)], "Hussein", lambda k: 2) == []
    assert heard_runs("卡瑞卡拉", [(0, 4)], "Caracalla", lambda k: 2) == [(0, 0)]
    assert heard_runs("卡瑞卡拉", [(0, 4)], "Caracalla", lambda k: 1 if k == 0 else 2) == []
    assert heard_runs("卡瑞卡拉", [(0, 4)], "Caracalla", lambda k: 1 if k == 1 else 2) == [
        (0, 0)]  # one rare character inside a name, not at its edge
    p = pair("So thankful for Thomas to pick me", text, {(3, 3), (3, 4)}, tokens)
    assert project(p, "Thomas", "zho-TW", config, matcher) == "比昂"
    found = [[(0, 0, 1.0)], []]
    assert matcher.heard(["Kim", "Caracalla"], "金卡瑞卡拉", [(0, 1), (1, 2), (2, 3), (3, 4),
                                                            (4, 5)], found) == [
        [(0, 0, 1.0)], [(1, 4, matcher.min_similarity)]]
    # In a name of several tokens a run is heard only beside another token's match.
    assert matcher.heard(["Kim", "Caracalla"], "金的卡瑞卡拉", [(0, 1), (1, 2), (2, 3),
                                                              (3, 4), (4, 5), (5, 6)],
                         found) == [[(0, 0, 1.0)], []]
    assert matcher.heard(["Kim", "Caracalla"], "金·卡瑞卡拉", [(0, 1), (1, 2), (2, 6)],
                         found) == [[(0, 0, 1.0)], [(2, 2, matcher.min_similarity)]]
    assert make_matcher("jpn", MODELS).family.heard("卡瑞卡拉", [(0, 4)], "Caracalla",
                                                   matcher.char_count) == []  # Chinese only


def test_a_one_character_form_of_a_longer_chinese_name_is_a_part_of_it(
        zh: tuple[ProjectConfig, NameMatcher]) -> None:
    """The models give `耶` among Geyer's forms; Mandarin writes two syllables with two
    characters, so the aligned `蓋耶` (PUD) is the name, not `耶` alone; Kim stays `金`."""
    config, matcher = zh
    assert "耶" in matcher.models.forms("geyer")  # type: ignore[union-attr]
    assert matcher.score("Geyer", "耶") < matcher.min_similarity <= matcher.score("Geyer", "蓋耶")
    assert matcher.score("Kim", "金") == 1.0
    text = "在故鄉澳大利亞到達職業巔峰後，蓋耶於1984年回到洛杉磯定居"
    tokens = ["在", "故", "鄉", "澳大利亞", "到", "達", "職", "業", "巔", "峰", "後", "，", "蓋",
              "耶", "於", "1984", "年", "回到", "洛", "杉", "磯", "定", "居"]
    p = pair("After reaching the peak of her career in her native Australia Geyer moved to LA",
             text, {(10, 3), (11, 12), (11, 13)}, tokens)
    assert project(p, "Geyer", "zho-TW", config, matcher) == "蓋耶"


def test_dialogue_names_keep_the_characters_that_read_as_them() -> None:
    """TVsub's subtitles (the second tuning set): a transliteration whose last character few
    names have is kept whole, given back from the aligned span, or read with the name after
    it; a simplified form is the model's traditional one."""
    matcher = make_matcher("zho-CN", MODELS, ["Rach", "Rachel", "Green", "Whale"])
    stops = function_words("zho-CN")
    p = pair("Hey, Rach.", "瑞秋", {(2, 0)}, ["瑞秋"])
    assert project(p, "Rach", "zho-CN", matcher=matcher) == "瑞秋"
    text = "你有想过跟瑞秋之间的可能性吗？"
    p = pair("about you and Rachel?", text, {(3, 5), (3, 6), (3, 7)},
             ["你", "有", "想", "过", "跟", "瑞秋", "之间的", "可能", "性", "吗", "？"])
    assert project(p, "Rachel", "zho-CN", matcher=matcher, stops=stops) == "瑞秋"
    p = pair("Oh, my God. Rachel Green?", "天哪，瑞秋格林？", {(5, 3), (5, 4), (6, 4), (6, 5)},
             ["天", "哪", "，", "瑞", "秋", "格", "林", "？"])
    assert project(p, "Rachel Green", "zho-CN", matcher=matcher) == "瑞秋格林"
    p = pair("Dr. Whale.", "威尔医生", {(0, 1), (0, 2)}, ["威", "尔", "医生"])
    assert project(p, "Whale", "zho-CN", matcher=matcher) == "威尔"
    assert matcher.score("Whale", "威尔") == matcher.score("Whale", "威爾") == 1.0


def test_reading_as_a_whole_name_and_the_familiar_prefix() -> None:
    from xel.names.han import read_back, reads_as_name, with_familiar

    assert reads_as_name("瑞秋格林", ["Rachel", "Green"]) and reads_as_name("瑞秋", ["Rachel"])
    assert reads_as_name("菲比·布菲", ["Phoebe", "Buffay"])
    assert not reads_as_name("瑞", ["Rachel"]) and not reads_as_name("格林", ["Rachel", "Green"])
    def anything(k: int) -> bool:
        return True

    text = "跟瑞秋之间"
    assert read_back(text, (1, 2), (1, 5), ["Rachel"], anything) == (1, 3)
    assert read_back(text, (1, 2), (1, 2), ["Rachel"], anything) == (1, 2)  # the span given
    # A title read as the given name is not given back: `总统` is a word, `菜鸟` no name's.
    text = "总统特朗普说"
    assert read_back(text, (2, 5), (0, 5), ["Donald", "Trump"], anything) == (2, 5)
    text = "菜鸟弗利伍德"
    assert read_back(text, (2, 6), (0, 6), ["Tommy", "Fleetwood"], lambda k: k >= 2) == (2, 6)
    assert read_back(text, (2, 6), (0, 6), ["Tommy", "Fleetwood"], anything) == (0, 6)
    text = "有的话小莱莱早跳脚了"
    a = text.index("莱莱")
    assert with_familiar(text, a, a + 2, ["Lenny"]) == a - 1
    assert with_familiar(text, a, a + 2, ["Lenny", "Lee"]) == a  # a pet name is one word
    text = "大小汤姆"  # `小` ends a word
    assert with_familiar(text, 2, 4, ["Tom"]) == 2
