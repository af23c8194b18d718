"""Tokenizers: spans into the original text, per-language choice, learned segmenters."""

from __future__ import annotations

import pytest

from xel.config import TokenizeConfig
from xel.errors import XelError
from xel.registry import tokenizers
from xel.tokenizers import tokenizer_for, tokenizer_name, whole_clusters, word_spans


def words(text: str, spans: list[tuple[int, int]]) -> list[str]:
    return [text[s:e] for s, e in spans]


def test_word_spans_are_offsets_into_the_original_text() -> None:
    text = "Kenny  Miler\u00a0(Kim Jong-un) sagte: «Nein»!"
    spans = word_spans(text)
    assert words(text, spans) == ["Kenny", "Miler", "(", "Kim", "Jong", "-", "un", ")", "sagte",
                                  ":", "«", "Nein", "»", "!"]
    assert all(text[s:e].strip() == text[s:e] for s, e in spans)


def test_combining_marks_stay_inside_words() -> None:
    # Devanagari vowel signs and Arabic harakat are combining marks, not word breaks.
    assert words("डोनाल्ड ट्रम्प", word_spans("डोनाल्ड ट्रम्प")) == ["डोनाल्ड", "ट्रम्प"]
    assert len(word_spans("دُونَالد ترامب")) == 2


def test_hostile_html_is_just_text() -> None:
    text = '<script>alert("x")</script> Trump'
    assert words(text, word_spans(text))[-1] == "Trump"
    assert "<" in words(text, word_spans(text))


def test_tokenizer_choice_by_language_and_config() -> None:
    config = TokenizeConfig()
    assert tokenizer_name("deu", config) == "unicode-words"
    assert tokenizer_name("zho-TW", config) == "sentencepiece"
    assert tokenizer_name("tha", config) == "sentencepiece"
    assert tokenizer_name("zho-CN", TokenizeConfig(languages={"zho-CN": "jieba"})) == "jieba"
    assert tokenizer_name("jpn", config) == "janome"  # the default for Japanese
    assert tokenizer_name("jpn", TokenizeConfig(languages={})) == "sentencepiece"
    assert {"unicode-words", "sentencepiece", "jieba", "janome"} <= set(tokenizers.names())


CHINESE = [
    "美國總統川普今天在白宮會見了金正恩 (Kim Jong Un)。",
    "川普說他和金正恩的關係很好。",
    "北韓領導人金正恩表示願意談判。",
    "白宮發言人說總統川普將前往新加坡。",
    "Lithgow 先生今天發表了聲明。",
] * 20


def test_sentencepiece_is_trained_on_the_side_and_keeps_latin_words_whole() -> None:
    tok = tokenizer_for("zho-TW", CHINESE, TokenizeConfig())
    text = CHINESE[0]
    spans = tok(text)
    pieces = words(text, spans)
    assert "".join(pieces) == text.replace(" ", "")
    assert [p for p in pieces if p.isascii() and p.isalpha()] == ["Kim", "Jong", "Un"]
    assert "(" in pieces and ")" in pieces
    assert "Lithgow" in words(CHINESE[4], tok(CHINESE[4]))
    assert tok("") == []
    # Characters never seen in training still come back as spans of the text.
    odd = "☃𝔸川普"
    assert "".join(words(odd, tok(odd))) == odd


def test_sentencepiece_refuses_an_empty_side() -> None:
    with pytest.raises(XelError, match="no text to train on"):
        tokenizer_for("zho-TW", ["", "  "], TokenizeConfig())


def test_jieba_spans() -> None:
    tok = tokenizer_for("zho-CN", [], TokenizeConfig(languages={"zho-CN": "jieba"}))
    text = "特朗普总统会见了金正恩（Kim Jong Un）。"
    pieces = words(text, tok(text))
    assert "".join(pieces) == text.replace(" ", "")
    assert "Kim" in pieces and "（" in pieces


def test_janome_spans_are_morphemes_with_offsets() -> None:
    tok = tokenizer_for("jpn", [], TokenizeConfig())
    text = "豊臣秀吉は織田信長に仕え、<b>Kyoto</b> で  出世した。"
    spans = tok(text)
    pieces = words(text, spans)
    assert "".join(pieces) == text.replace(" ", "")
    assert "豊臣" in pieces and "秀吉" in pieces and "、" in pieces
    assert all(text[a:b].strip() == text[a:b] and a < b for a, b in spans)
    assert tok("") == []


def test_zero_width_space_separates_syllables() -> None:
    # NTREX's Lao writes U+200B between the syllables of `ໂດນາລ` (Donald).
    text = "ໂດ\u200bນາ\u200bລ ທ\u200bຣ້ຳ"
    assert words(text, word_spans(text)) == ["ໂດ", "ນາ", "ລ", "ທ", "ຣ້ຳ"]


def test_tibetan_syllables_leave_out_tsheg_and_shad() -> None:
    # Dzongkha (NTREX): `... ཀིམ་ཇོང་ཨུན་དང་ ... ཀྲམཔ་གིས་ ... ཨིན་མས།`
    text = "འགོ་ཁྲིདཔ་ཀིམ་ཇོང་ཨུན་དང་ ཀྲམཔ་གིས་ ༡༢ ཨིན་མས།"
    assert tokenizer_name("dzo", TokenizeConfig()) == "tibetan-syllables"
    assert tokenizer_name("bod", TokenizeConfig(scripts={})) == "sentencepiece"
    tokenize = tokenizer_for("dzo", [], TokenizeConfig())
    assert words(text, tokenize(text)) == ["འགོ", "ཁྲིདཔ", "ཀིམ", "ཇོང", "ཨུན", "དང", "ཀྲམཔ",
                                           "གིས", "༡༢", "ཨིན", "མས"]
    # Tibetan (NTREX) writes a Latin name onto its case ending.
    text = "Glenn Middletonཡིས་Kim"
    assert words(text, tokenize(text)) == ["Glenn", "Middleton", "ཡིས", "Kim"]


@pytest.mark.parametrize(("lang", "text", "cut", "whole"), [
    # A piece starting with a vowel sign, a Khmer subscript after its coeng.
    ("khm", "សំដៅថ្លែង", ["ស", "ំដៅ", "ថ", "្លែង"], ["សំដៅ", "ថ្លែង"]),
    # Thai: a vowel written before its consonant, and `า` after it (a letter, not a mark).
    ("tha", "เมริการณ์", ["เ", "มริ", "ก", "ารณ์"], ["เมริ", "การณ์"]),
    # Zawgyi Burmese (NTREX): the killed consonant ends the syllable before it; ya-pin `်` is
    # Zawgyi's medial, not Unicode's killer, where the word has Zawgyi's killer `္`.
    ("mya", "ထိပ္ကင္ဂ်ံဳ", ["ထိ", "ပ္", "ကင္", "ဂ်ံဳ"], ["ထိပ္", "ကင္", "ဂ်ံဳ"]),
    # Unicode Burmese: `မြန်မာ` cut before the killed `န်`.
    ("mya", "မြန်မာ", ["မြ", "န်", "မာ"], ["မြန်", "မာ"]),
])
def test_learned_pieces_never_split_a_written_syllable(lang: str, text: str, cut: list[str],
                                                         whole: list[str]) -> None:
    spans, at = [], 0
    for piece in cut:
        spans.append((at, at + len(piece)))
        at += len(piece)
    assert words(text, whole_clusters(text, spans)) == whole
