"""Tokenizers per language, each giving character spans into the original sentence.

Alignment and projection work on tokens, but everything they hand on (projected names, their
places) is character offsets into the stored sentence, so a tokenizer returns spans, never
rewritten text. Spaced scripts use Unicode word classes; scripts written without spaces use a
sentencepiece unigram model trained on that language's side of the corpus (or jieba for
Chinese), as the config chooses.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import regex

from xel.config import TokenizeConfig
from xel.errors import XelError
from xel.languages import is_unspaced
from xel.registry import tokenizers

Span = tuple[int, int]
Tokenizer = Callable[[str], list[Span]]

# A word is a run of letters, combining marks (Devanagari vowel signs, Arabic harakat), digits
# and the joiners that shape letters inside a word (ZWJ in Sinhala `ක්‍රිස්`, ZWNJ in Persian);
# every other non-space character is a token of its own.
_WORD = regex.compile(r"(?:[\p{L}\p{M}\p{N}_]|(?<=[\p{L}\p{M}])[\u200c\u200d](?=[\p{L}\p{M}]))+"
                      r"|[^\s\p{L}\p{M}\p{N}_]")
# Characters of scripts written without spaces: only runs of these go to a learned segmenter,
# so a Latin name inside Chinese text stays one token.
UNSPACED = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]")


def word_spans(text: str) -> list[Span]:
    """Unicode word tokenization: letters+marks+digits runs, punctuation one char each."""
    return [m.span() for m in _WORD.finditer(text)]


@tokenizers.register("unicode-words")
def unicode_words(texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """Needs no training: the texts are ignored."""
    return word_spans


@tokenizers.register("sentencepiece")
def sentencepiece(texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """A unigram model trained on `texts`; pieces are re-split where letters meet punctuation."""
    import sentencepiece as spm

    lines = [t for t in texts if t.strip()]
    if not lines:
        raise XelError("sentencepiece tokenizer: this side of the corpus has no text to train on")
    model = io.BytesIO()
    # The vocabulary must hold every character at least (Chinese has thousands).
    chars = len(set("".join(lines)))
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, model_type="unigram",
        vocab_size=max(config.sentencepiece_vocab, chars + 50), hard_vocab_limit=False,
        max_sentencepiece_length=config.sentencepiece_max_piece,
        normalization_rule_name="identity", character_coverage=1.0, num_threads=1,
        minloglevel=2, seed_sentencepiece_size=100_000,
    )
    processor = spm.SentencePieceProcessor(model_proto=model.getvalue())

    def tokenize(text: str) -> list[Span]:
        spans: list[Span] = []
        for start, end in word_spans(text):
            word = text[start:end]
            if not UNSPACED.search(word):
                spans.append((start, end))
                continue
            pieces = _locate(word, processor.encode(word, out_type=str))
            spans.extend((start + s, start + e) for s, e in pieces)
        return spans

    return tokenize


@tokenizers.register("jieba")
def jieba_words(texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """jieba's dictionary segmenter for Chinese (no training on the corpus)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)

    def tokenize(text: str) -> list[Span]:
        spans = [(start, end) for _, start, end in jieba.tokenize(text)]
        return _split_punctuation(text, [(s, e) for s, e in spans if text[s:e].strip()])

    return tokenize


@tokenizers.register("janome")
def janome_words(texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """Janome's dictionary morphemes for Japanese (IPADIC; no training on the corpus)."""
    from xel.names.morphemes import janome

    def tokenize(text: str) -> list[Span]:
        spans: list[Span] = []
        pos = 0
        for word in janome().tokenize(text):
            start = text.find(word.surface, pos)
            if start < 0:
                return spans + word_spans_from(text, pos)
            pos = start + len(word.surface)
            if word.surface.strip():
                spans.append((start, pos))
        return _split_punctuation(text, spans)

    return tokenize


def _locate(text: str, pieces: list[str]) -> list[Span]:
    """Character spans of sentencepiece pieces (the `▁` space marker removed) in `text`."""
    spans = []
    pos = 0
    for piece in pieces:
        surface = piece.replace("\u2581", "")
        if not surface:
            continue
        found = text.find(surface, pos)
        if found < 0:  # a piece the model rewrote: give up on exact pieces for the rest
            spans.extend(word_spans_from(text, pos))
            return spans
        spans.append((found, found + len(surface)))
        pos = found + len(surface)
    return spans


def word_spans_from(text: str, pos: int) -> list[Span]:
    return [(s + pos, e + pos) for s, e in word_spans(text[pos:])]


def _split_punctuation(text: str, spans: list[Span]) -> list[Span]:
    """Split pieces such as `，「` or `(Kim` where word characters meet punctuation."""
    out: list[Span] = []
    for start, end in spans:
        out.extend((start + s, start + e) for s, e in word_spans(text[start:end]))
    return out


def tokenizer_name(lang: str, config: TokenizeConfig) -> str:
    """The configured tokenizer of a language: per-language choice, else by script."""
    if lang in config.languages:
        return config.languages[lang]
    return config.unspaced if is_unspaced(lang) else config.default


def tokenizer_for(lang: str, texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """Build (and train, where the tokenizer learns) the tokenizer of one language."""
    return tokenizers.get(tokenizer_name(lang, config))(texts, config)
