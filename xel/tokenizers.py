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
from xel.languages import is_unspaced, language
from xel.registry import tokenizers

Span = tuple[int, int]
Tokenizer = Callable[[str], list[Span]]

# A word is a run of letters, combining marks (Devanagari vowel signs, Arabic harakat), digits
# and the joiners that shape letters inside a word (ZWJ in Sinhala `ක්‍රිස්`, ZWNJ in Persian);
# every other non-space character is a token of its own.
# A zero-width space (Lao and Khmer put one between syllables) separates as a space does.
_WORD = regex.compile(r"(?:[\p{L}\p{M}\p{N}_]|(?<=[\p{L}\p{M}])[\u200c\u200d](?=[\p{L}\p{M}]))+"
                      r"|[^\s\u200b\p{L}\p{M}\p{N}_]")
# Characters of scripts written without spaces: only words with these go to a learned
# segmenter, so a Latin name spaced apart in Chinese text stays one token. (One written onto
# characters, `Pundit和`, is cut with them; making it whole changed people's A1 by -2 of 840
# in the six languages with such words: docs/quality.md, fourteenth pass.)
UNSPACED = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]")


def spaced_spans(tokens: Sequence[str]) -> list[Span]:
    """Each token's span in `" ".join(tokens)`: pre-tokenized text (gold alignments, the
    aligner's tokens) read as one text."""
    spans, pos = [], 0
    for tok in tokens:
        spans.append((pos, pos + len(tok)))
        pos += len(tok) + 1
    return spans


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
            pieces = whole_clusters(word, _locate(word, processor.encode(word, out_type=str)))
            spans.extend((start + s, start + e) for s, e in pieces)
        return spans

    return tokenize


# Tibetan writes a tsheg after every syllable and a shad after a clause; words are one to a few
# syllables, which a few thousand sentences are too few to learn.
# A Latin name is written onto a Tibetan case ending (`Glenn Middletonཡིས`): scripts part words.
_TIBETAN_SYLLABLE = regex.compile(r"(?:(?=\p{Tibetan})[\p{L}\p{M}\p{N}\u0f35\u0f37\u0f39])+"
                                  r"|(?:(?!\p{Tibetan})[\p{L}\p{M}\p{N}_])+"
                                  r"|[^\s\u0f0b-\u0f14\p{L}\p{M}\p{N}_]")


@tokenizers.register("tibetan-syllables")
def tibetan_syllables(texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """Tibetan and Dzongkha syllables, the tsheg and shad left out of every token (a learned
    piece may begin with a tsheg or cross it: `་ནང་ལུ་`). Needs no training."""
    return lambda text: [m.span() for m in _TIBETAN_SYLLABLE.finditer(text)]


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


# Where a learned piece may not end: before a combining mark (`ស` + `ំដៅ`) or a Thai or Lao vowel
# letter written after its consonant (`ก` + `ารณ์`), before a Burmese consonant its killer sign
# ends the syllable with (`အ` + `မ္`; Zawgyi's killer is Unicode's virama, and Unicode's killer
# Zawgyi's medial ya, so that one counts only in words without the other), after a Khmer coeng
# (`ថ` + `្លែង`) and after a vowel written before its consonant (Thai and Lao `เ`, `ໂ`;
# Zawgyi Burmese `ေ`, `ျ`).
_GLUED_AFTER = regex.compile(r"[\u17d2\u0e40-\u0e44\u0ec0-\u0ec4\u1031\u103b\u107e-\u1084]$")
_GLUED_BEFORE = regex.compile(r"^(?:[\p{M}\u0e30\u0e32\u0e33\u0e45\u0eb0\u0eb2\u0eb3]"
                              r"|\p{Myanmar}\u1039)")
_UNICODE_KILLED = regex.compile(r"^\p{Myanmar}\u103a")


def whole_clusters(text: str, spans: list[Span]) -> list[Span]:
    """Pieces joined where a cut would split a written syllable: a letter from its marks, a
    subscript consonant or a vowel written before its consonant from the rest."""
    out: list[Span] = []
    unicode_burmese = "\u1039" not in text
    for start, end in spans:
        piece = text[start:end]
        glued = (_GLUED_BEFORE.match(piece) or _GLUED_AFTER.search(text[out[-1][0]:start])
                 or (unicode_burmese and _UNICODE_KILLED.match(piece))) if out else False
        if glued and out[-1][1] == start:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


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
    if language(lang).script in config.scripts:
        return config.scripts[language(lang).script]
    return config.unspaced if is_unspaced(lang) else config.default


def tokenizer_for(lang: str, texts: Sequence[str], config: TokenizeConfig) -> Tokenizer:
    """Build (and train, where the tokenizer learns) the tokenizer of one language."""
    return tokenizers.get(tokenizer_name(lang, config))(texts, config)
