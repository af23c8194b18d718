"""Projection of names that are translated: organizations, places and events.

"European Union" is `Europäischen Union` after a German preposition, "London" `Лондон` and
`伦敦`: such a name is found in its target sentence by its link candidates' labels and aliases
in that language (inflected forms included, `label_pattern`), by what the corpus and the
dictionaries say its words translate, and by the aligned span read as the name, as the
sentence writes it (`project_entity`); rules that hold for people's names only stay with them
(`xel.spans.project_mention`). The same labels (`translated_labels`) are what triage's round
trip reads a projection back by.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

import regex

from xel.config import ProjectConfig
from xel.kb import KbEntity, KnowledgeBase, foreign_key, is_acronym
from xel.languages import is_chinese, is_unspaced, language
from xel.names.cyrillic import (
    adjective,
    agreeing_noun,
    body_noun,
    finite_verb,
    lemma,
    verb_form,
)
from xel.names.english import ENGLISH_LINKS
from xel.names.english import tokens as name_tokens
from xel.names.han import (
    CONJUNCTIONS,
    FUNCTION_CHARACTERS,
    after_particle,
    at_body_word,
    before_particle,
    before_verb,
    body_word,
    folded,
    kept_apart,
    read_on,
    said_elsewhere,
    translated_words,
    whole_words,
    with_body_word,
    with_glossed_run,
    with_place_word,
    with_translated,
    without_particles,
    word_spans,
)
from xel.names.match import WORDLIKE, NameMatcher
from xel.names.pairs import label_codes
from xel.names.script import is_latin
from xel.spans import (
    LETTER,
    Pair,
    Projected,
    aligned_tokens,
    best_cluster,
    bracket_tokens,
    covered,
    function_words,
    is_word_token,
    nearest_whole,
    paper_span,
    project_mention,
    src_token,
    tgt_token,
    token_chars,
    word_starts,
)
from xel.tokenizers import Span

# --- the KB's labels in the sentence --------------------------------------------------------

# Scripts whose words take clitics in front (`والاتحاد`: and-the-union): a label word may
# follow up to two letters of them.
PREFIXED_SCRIPTS = frozenset({"Arab", "Hebr"})


# A letter or digit of a script written apart from Han and kana: Chinese and Japanese write
# Latin words right against their characters (`Gateway Pundit和RedState`).
LATIN_LETTER = r"[^\W\p{Han}\p{Hiragana}\p{Katakana}]"


# A case ending written after an apostrophe belongs to the name as written (Turkish
# `Kuzey Kore'yi`, `Reuters'da`); not the Han or kana written on after an English possessive
# (`Sainsbury's的两家门店`).
APOSTROPHE_SUFFIX = r"(?:['\u2019]" + LATIN_LETTER + r"{1,6})?"


# Languages that write a name's case ending after an apostrophe (Turkish `Meksika'nın`), so
# that letters against a one-word name make another word (`Meksikalı`, a Mexican; `Amerikan`).
APOSTROPHE_ENDINGS = frozenset({"tur"})


# What languages that barely inflect a name write after its last word (a plural's or
# genitive's `s`; German's `-es`, `-n`): the letters a label's stem takes elsewhere would also
# take the name's derivations, written capitalized (`Londoner`, `New Yorker`; Dutch
# `Europese`, European; French `Chinois`, `Européen`; Portuguese `Chinês`).
NAME_ENDINGS = {"deu": r"(?:e?[sn])?", "ltz": r"(?:e?[sn])?", "nld": "s?", "afr": "s?",
                "fra": "s?", "spa": "s?", "por": "s?", "ita": "s?", "cat": "s?", "glg": "s?"}


# The Arabic script's adjective ending (nisba: `امریکی`, American, from `امریکا`; `الأمريكية`):
# no inflection of a label without it, where the label is read as a name.
NISBA = regex.compile(r"(?:[يی]|ية|يين|يون)$")


NOT_NISBA = r"(?<![يی]|ية|يين|يون)"


def _stem(word: str) -> str:
    """A label word as its inflected forms begin: all but the ending a case may change
    (`Северная` -> `Северн`, `Лондон` -> `Лондо`); short words whole."""
    return word[:-2] if len(word) >= 6 else word[:-1] if len(word) == 5 else word


# A vowel of the scripts that decline names: a four-letter label word that ends in one
# changes it (Croatian `Kina`, China: `Kinu`, `Kine`; Czech `Čína`: `Číně`, `Čínou`;
# Albanian `Kinë`: `Kina`), where a longer one keeps letters before its ending (`_stem`).
VOWEL = r"[aeiouyáàâäãåæéèêëěíìîïıóòôöõøœúùûüůýÿăąęėįųəаеёиоуыэюяіїєαεηιουωάέήίόύώ]"


def inflected(word: str) -> str:
    """A pattern of a label word as a case may write it: its stem (`_stem`) and any ending,
    or a four-letter word's first three letters and a vowel's ending."""
    if len(word) == 4 and regex.fullmatch(VOWEL, word[-1], regex.IGNORECASE):
        return regex.escape(word[:-1]) + VOWEL + r"\w{0,2}"
    return regex.escape(_stem(word)) + r"\w{0,5}"


# Russian and Belarusian print `ё` as `е` more often than not (`Соединенного Королевства`
# for the label `Соединённое Королевство`).
YO_FOLDED = str.maketrans("ёЁ", "еЕ")


def label_text(text: str, lang: str) -> str:
    """A sentence, projection or label as labels are matched in it: Chinese in simplified
    characters, Cyrillic with `ё` as `е`, one for one (so the places stay)."""
    if is_chinese(lang):
        return folded(text)
    return text.translate(YO_FOLDED) if language(lang).script == "Cyrl" else text


# After an apostrophe, Turkic `-li` (of, from) makes a name its people or its adjective
# (`ABD'li`, American; `Kore'li`), which is no case of the name.
NOT_LI = r"(?!['\u2019]l[ıiuü])"


# The ending an abbreviation takes: after an apostrophe or colon (Turkish `ABD'nin`, Finnish
# `YK:n`, Swedish `FN:s`) or a genitive's letters against it (Danish `USAs`).
CAPITALS_ENDING = r"(?:[:'\u2019]\p{Ll}{1,6}|\p{Ll}{1,2})?"


def capitals_label(form: str) -> bool:
    """A label written in capitals, an abbreviation (`США`, `UN`, `EE. UU.`): sentences
    write it so, its ending apart (`CAPITALS_ENDING`)."""
    letters = regex.sub(r"[\s.\-]", "", form)
    return 2 <= len(letters) <= 6 and letters.isalpha() and letters.isupper()


def abbreviation(form: str) -> str:
    """A pattern of an abbreviation as written, or with its letters all dotted or none
    (the KB's Romanian `S.U.A.` is written `SUA`; `U.S.` is `US`)."""
    letters = [regex.escape(ch) for ch in form if ch.isalpha()]
    written = r"\s*".join(regex.escape(w) for w in form.split())
    dotted = r"\s?".join(ch + r"\." for ch in letters)
    return f"(?:{written}|{''.join(letters)}|{dotted})"


def initials(label: str) -> set[str]:
    """The abbreviations a label of two words or more may be written as: its words' first
    letters in capitals, with and without its short lower-case words (`Unión Europea`: `UE`;
    `Европейски съюз`: `ЕС`; `Organização das Nações Unidas`: `ONU`)."""
    words = regex.findall(r"\w+", label)
    if len(words) < 2:
        return set()
    content = [w for w in words if not (w.islower() and len(w) <= 3)]
    return {foreign_key("".join(w[0] for w in kept)).upper()  # `ΕΕ`, not `ΕΈ`
            for kept in (words, content) if len(kept) >= 2}


@functools.lru_cache(maxsize=4096)
def label_pattern(form: str, lang: str, as_name: bool = True) -> regex.Pattern[str]:
    """A label as `lang` may write it in a sentence (as `label_text` gives it), in group
    `name`: in a spaced script each word inflected (`Лондоне`, `Северную`, `Europäischen`,
    `Lontoossa`, `Kore'yi`; each part of a hyphened word, `Isossa-Britanniassa` for
    `Iso-Britannia`), the first after clitics where the script has them (left out of
    the name: `والاتحاد`); in an unspaced one, as it is. `as_name`: not as the adjective
    its stem also begins, which a capitalized label's lower case (`британское`, British, for
    `Британия`), an Arabic-script nisba ending (`امریکی`, American), where endings follow
    an apostrophe, letters against the name (`Meksikalı`) or `-li` after it (`ABD'li`), and
    where names barely inflect, letters past the last word's own (`Londoner`, `Chinois`)
    write."""
    if is_unspaced(lang):  # spaces between its characters where a text is segmented
        written = r"\s?".join(regex.escape(ch) for ch in label_text(form, lang) if ch != " ")
        return regex.compile(f"(?P<name>{written})", regex.IGNORECASE)
    not_li = NOT_LI if as_name else ""
    if capitals_label(form):  # as written: `UN` is not in `und`, nor `RU` in `rueda`
        return regex.compile(r"(?<!\w)(?P<name>" + abbreviation(label_text(form, lang))
                             + not_li + CAPITALS_ENDING + r")(?!\w)")
    no_nisba = as_name and language(lang).script == "Arab"
    words = [w for w in regex.split(r"[\s\-]+", label_text(form, lang)) if w]
    if as_name and lang in APOSTROPHE_ENDINGS and len(words) == 1:  # `Meksika'nın` only
        parts = [regex.escape(words[0])]
    else:
        parts = [inflected(w) + (NOT_NISBA if no_nisba and not NISBA.search(w) else "")
                 for w in words]
        if as_name and lang in NAME_ENDINGS:  # `Londons`, not `Londoner`
            parts[-1] = regex.escape(words[-1]) + NAME_ENDINGS[lang]
    lead = r"\w{0,2}?" if language(lang).script in PREFIXED_SCRIPTS else ""
    if as_name and form[:1].isupper():
        lead += r"(?=(?-i:\p{Lu}))"
    return regex.compile(r"(?<!\w)" + lead + "(?P<name>" + r"[\s\-]+".join(parts)
                         + not_li + APOSTROPHE_SUFFIX + r")(?!\w)", regex.IGNORECASE)


def label_spans(text: str, forms: Iterable[str], lang: str, as_name: bool = True
                ) -> list[tuple[int, int]]:
    """Where a sentence in `lang` writes one of an entity's labels or aliases (inflected
    forms included; with `as_name`, not their adjectives: `label_pattern`), longest first
    where two overlap."""
    text = label_text(text, lang)
    found = sorted({(m.start("name"), m.end("name")) for form in forms if form.strip()
                    for m in label_pattern(form.strip(), lang, as_name).finditer(text)},
                   key=lambda s: (s[0] - s[1], s[0]))
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if all(end <= a or start >= b for a, b in kept):
            kept.append((start, end))
    return sorted(kept)


SHORTENED_LABEL = 4  # characters a Chinese label needs to be looked for shortened


SHORTENED_NAME = 3  # characters the shortened form keeps, at least


def shortened_spans(text: str, tokens: Sequence[Span], forms: Iterable[str], lang: str
                    ) -> list[tuple[int, int]]:
    """Chinese shortens a long name by keeping some of its characters, in order (`歐洲央行` for
    the label `欧洲中央银行`, the European Central Bank): where no label is written whole,
    runs of at least `SHORTENED_NAME` characters that begin and end as a label does and keep
    its other characters in order, none added, and begin and end where the sentence's
    tokens do (`布宜諾斯` in `布宜諾斯艾利斯` is no name), longest first where two overlap."""
    if not is_chinese(lang):
        return []
    starts, ends = {a for a, _ in tokens}, {b for _, b in tokens}
    patterns = []
    for form in forms:
        chars = [regex.escape(ch) for ch in label_text(form, lang) if not ch.isspace()]
        if len(chars) >= SHORTENED_LABEL:
            middle = "".join(rf"(?:\s?{ch})?" for ch in chars[1:-1])
            patterns.append(regex.compile(rf"{chars[0]}{middle}\s?{chars[-1]}"))
    written = label_text(text, lang)
    found = {(m.start(), m.end()) for pattern in patterns
             for m in pattern.finditer(written, overlapped=True)
             if len(regex.sub(r"\s", "", m.group())) >= SHORTENED_NAME
             and m.start() in starts and m.end() in ends}
    kept: list[tuple[int, int]] = []
    for start, end in sorted(found, key=lambda s: (s[0] - s[1], s[0])):
        if all(end <= a or start >= b for a, b in kept):
            kept.append((start, end))
    return sorted(kept)


# Languages that write a name inside a compound noun (`Nordalgerien`, `Südosteuropas`).
COMPOUNDING = frozenset({"afr", "dan", "deu", "fao", "isl", "ltz", "nld", "nno", "nob", "swe"})


COMPOUNDED_LABEL = 4  # letters a label needs to be looked for inside a word


COMPOUND_ENDING = 2  # letters of a case ending after it (`Südosteuropa-s`)


def compound_spans(text: str, forms: Iterable[str], lang: str) -> list[tuple[int, int]]:
    """Capitalized words that end in a one-word label, in a language that compounds: the
    whole word is the name as the sentence writes it (German `Nordalgerien` for Algeria's
    `Algerien`, `Südosteuropas` for `Europa`). A compound's head is its last part, so only
    there does the word still name the place: `Washingtonskvaller` (Washington gossip) and
    `Irakkrieg` (the Iraq war) do not."""
    if lang not in COMPOUNDING:
        return []
    labels = {form.casefold() for form in map(str.strip, forms)
              if len(form) >= COMPOUNDED_LABEL and form.isalpha()}
    found = []
    for m in regex.finditer(r"\w+", text):
        word = m.group()
        folded = word.casefold()
        if word[0].isupper() and any(len(label) < len(word) and
                                     label in folded[-len(label) - COMPOUND_ENDING:]
                                     for label in labels):
            found.append((m.start(), m.end()))
    return found


def within_written(text: str, spans: Sequence[tuple[int, int]], name: str
                   ) -> list[tuple[int, int]]:
    """Label spans, each widened to the English name written around it, its last word
    inflected (`El Salvadora` where Croatian's label is `Salvador`): where a sentence keeps
    the whole English name, that is the name it writes, not the KB's shorter label."""
    written = [(m.start(), m.end()) for m in regex.finditer(
        r"(?<!\w)" + regex.escape(name) + r"\w{0,5}" + APOSTROPHE_SUFFIX + r"(?!\w)", text)]
    return [next(((a, b) for a, b in written if a <= start and end <= b), (start, end))
            for start, end in spans]


def unclaimed(pair: Pair, spans: Sequence[tuple[int, int]], mention: Sequence[int],
              start: int, end: int) -> list[tuple[int, int]]:
    """Label occurrences but those the aligner links with another occurrence of the English
    name and not with this one: `Republika Severna Makedonija` is the Republic of North
    Macedonia's, not that of the Macedonia named before it (`Makedonija`)."""
    if not spans:
        return []
    name = pair.src_text[start:end]
    others = {i for at in word_starts(pair.src_text, name, True) if at != start
              for i in covered(pair.src, at, at + len(name))}
    if not others:
        return list(spans)
    inside = set(mention)

    def claimed(span: tuple[int, int]) -> bool:
        tokens = set(covered(pair.tgt, *span))
        linked = {i for i, j in pair.links if j in tokens}
        return bool(linked & others) and not linked & inside

    return [span for span in spans if not claimed(span)]


def bracketed(text: str, at: int) -> bool:
    """The text at `at` follows an opening bracket (spaces between)."""
    return text[:at].rstrip()[-1:] in ("(", "（", "[")


def english_copy(text: str, at: int, name: str) -> bool:
    """Whether the English `name` written at `at` is the copy in brackets after the name a
    translation in another script writes (`巴吞鲁日 (Baton Rouge)`); an acronym is not, since
    translations keep it (`理事會（RECO）`)."""
    return bracketed(text, at) and not written_acronym(name)


def project_entity(pair: Pair, start: int, end: int, name: str, forms: Sequence[str],
                   stops: frozenset[str], config: ProjectConfig, lang: str,
                   matcher: NameMatcher | None = None, kind: str | None = None,
                   lexicon: Lexicon | None = None) -> Projected:
    """Project a name that is translated rather than transliterated (an organization, place or
    event): where the sentence writes one of its KB entities' labels in the language (widened to
    the English name written around it, `within_written`; else, where the language compounds,
    the word a label is part of, `compound_spans`), or else the English name itself (brands,
    acronyms, also written against Han characters; first for an acronym English writes in
    brackets after its expansion, which is a name of its own), or else a label as Chinese
    shortens it (`shortened_spans`), the occurrence nearest the aligned span (a label the
    aligner gives another mention of the name only where nothing else is found, `unclaimed`,
    and a label's adjective, `indonésien`, only before the aligned span; abbreviations in
    capitals as written, `capitals_label`); an acronym's words
    written out (`expansions`); else words that read as every word of the name (`Krasnojarsk`,
    `Теско`; in Chinese made whole, `哈佛` for Harvard, `whole_reading`); else the
    aligned span as the paper takes it, trimmed of function words (as the sentence writes
    them, `as_written`), punctuation and words the aligner ran on
    (`run_on_edges`, `clause_piece`), in Chinese widened to the dictionary words it cuts
    (`whole_words`), or else the nearest run of words whose dictionary English says more of the
    name (`with_glossed_run`: `最高法院` where the aligner linked `職務`; in other spaced
    scripts, given a `lexicon`, words the corpus's links say translate it, `with_learned_run`:
    `ФБР` where the aligner linked `адрес`), begun after a
    preposition or verb the aligner ran back to (`after_particle`), without a verb at an edge
    that translates a word of the English outside the name (`said_elsewhere`: `参加中价协`,
    *participate* in ...), ended before a particle it ran on to (`before_particle`), and an
    organization's ended at its body's word
    (`at_body_word`: `最高法院`, not `最高法院法官`); in Cyrillic, begun at the name's capital
    (`capital_led`: `США`, not `санкциями США`); where the aligner ran across a quotation
    mark, the words between the marks (`quoted_name`). Then the name's
    other half the language writes beside it: a capitalized adjective's noun (`with_head_noun`),
    a Romance name's `of` part (`with_of_part`), a Russian or Bulgarian body's field after
    `по` (`with_field_part`), a Chinese organization's noun for its kind of body
    (`with_body_word`). The person rules (surnames, given names) do not apply."""
    mention = covered(pair.src, start, end)
    targets = aligned_tokens(mention, pair.links)
    aligned = token_chars(pair.tgt, paper_span(targets))
    stops = as_written(pair, stops, lang)

    def nearest(found: Sequence[tuple[int, int]], method: str) -> Projected:
        near = _where(pair, start, aligned)
        at, until = min(found, key=lambda s: (abs(s[0] - near), s[0]))
        if (method == "label" and FORMAL_OF.match(name) and _cased(pair.tgt_text)
                and lang not in CAPITALIZED_NOUNS):
            at, until = formally_named(pair, (at, until), targets, stops)
        if method == "label" and is_chinese(lang):
            # `北` + `朝鮮`: the KB's label without the word Chinese translates (North Korea)
            at = with_translated(pair.tgt_text, at, translated_words(name_tokens(name))[1])
        at, until = with_of_part(pair.tgt_text, at, until, name, lang)
        return Projected(at, placed(pair.tgt_text, until, lang), method, aligned)

    if config.name_aware and config.name_match:
        latin_target = language(lang).script == "Latn"
        found = label_spans(pair.tgt_text, forms, lang)
        if latin_target:
            found = within_written(pair.tgt_text, found, name)
        found = found or compound_spans(pair.tgt_text, forms, lang)
        others, others_method = found, "label"  # another mention's: the last resort
        found = unclaimed(pair, found, mention, start, end)
        method = "label"
        if not found or (written_acronym(name) and bracketed(pair.src_text, start)):
            kept = kept_spellings(pair.tgt_text, name, latin_target)
            if not others:
                others, others_method = kept, "spelled"
            kept = unclaimed(pair, kept, mention, start, end)
            if kept:
                found, method = kept, "spelled"
        if not found:
            found = shortened_spans(pair.tgt_text, pair.tgt, forms, lang)
        if not found and written_acronym(name):
            found, method = expansions(pair.tgt_text, name.upper()), "expansion"
        if found:
            return nearest(found, method)
        read = None if matcher is None else read_translated(pair, targets, name, matcher, lang,
                                                            stops)
        if read is not None:
            at, until = with_head_noun(pair.tgt_text, read[0], read[1], lang, kind, stops)
            return Projected(at, placed(pair.tgt_text, until, lang), "reading", aligned)
        if others:  # the name as the sentence writes it all the same, not an adjective
            return nearest(others, others_method)
        if adjectives := label_spans(pair.tgt_text, forms, lang, as_name=False):
            return nearest(adjectives, "label")  # `indonésien`: nearer than what it aligned
    projected = project_mention(pair, start, end, name, None, stops, config)
    if not config.name_aware:
        return projected
    if projected.start is None or projected.end is None:
        where = _where(pair, start, aligned)
        if config.trim and lexicon is not None:
            near = next((k for k, (s, _) in enumerate(pair.tgt) if s >= where),
                        len(pair.tgt) - 1)
            first, last = with_learned_run(pair, near, near - 1, mention, lexicon, lang,
                                           stops, matcher)
            if first <= last:
                return Projected(pair.tgt[first][0], pair.tgt[last][1], "learned", aligned)
        if config.trim and is_chinese(lang):
            at, until = with_glossed_run(pair.tgt_text, where, where, content_words(name))
            if at < until:
                return Projected(at, until, "glossed", aligned)
        return projected
    at, until = projected.start, projected.end
    method = projected.method
    if config.trim:
        tokens = covered(pair.tgt, at, until)
        first, last = run_on_edges(pair, mention, tokens, stops, lang, kind, lexicon)
        if is_chinese(lang):
            first, last = densest_piece(pair, mention, range(first, last + 1), name)
        elif _cased(pair.tgt_text):
            a, b = clause_piece(pair, mention, first, last, name)
            a, b = gap_piece(pair, mention, a, b, name, lang)
            first, last = run_on_edges(pair, mention, range(a, b + 1), stops, lang, kind,
                                       lexicon)
            first = capital_led(pair, first, last, name, stops, lang, lexicon)
        elif not is_unspaced(lang):
            a, b = gap_piece(pair, mention, first, last, name)
            first, last = run_on_edges(pair, mention, range(a, b + 1), stops, lang, kind,
                                       lexicon)
        if matcher is not None and _cased(pair.tgt_text) and lang not in CAPITALIZED_NOUNS:
            first, last = _with_read_neighbours(pair, first, last, name_tokens(name), matcher,
                                                stops)
        if matcher is not None and _cased(pair.tgt_text):
            first, last = quoted_after(pair, first, last, name_tokens(name), matcher)
        learned = (first, last) if lexicon is None else with_learned_run(
            pair, first, last, mention, lexicon, lang, stops, matcher)
        moved = learned != (first, last)
        if moved:
            (first, last), method = learned, "learned"
        at = pair.tgt[first][0] if moved or first != tokens[0] else at
        until = pair.tgt[last][1] if moved or last != tokens[-1] else until
        if is_chinese(lang):
            english, outside = content_words(name), words_outside(pair, mention)
            wide = whole_words(pair.tgt_text, at, until)
            if not kept_apart(pair.tgt_text, (at, until), wide, english, outside):
                at, until = wide
            at, until = without_particles(pair.tgt_text, at, until)
            glossed = with_glossed_run(pair.tgt_text, at, until, english)
            if glossed != (at, until):
                (at, until), method = glossed, "glossed"
            at = after_particle(pair.tgt_text, at, until, english, method == "parentheses")
            at, until = said_elsewhere(pair.tgt_text, at, until, english, outside)
            until = before_particle(pair.tgt_text, at, until, english, says_and(name))
            until = before_verb(pair.tgt_text, at, until, english)
            if kind == "ORG" and at < until:
                until = with_body_word(pair.tgt_text, at, at_body_word(
                    pair.tgt_text, at, until, english), english)
                at = with_owner(pair, end, at)
            if at >= until:
                return Projected(None, None, "none", aligned)  # `於` (at) for European Union
    if matcher is not None and config.characters:
        text = pair.tgt_text[at:until]
        if text[:1] in TRANSLATED_PROCLITICS and any(
                matcher.family.proclitic(text, e, matcher) for e in name_tokens(name)):
            at += 1  # `لرويترز`: Reuters
    if config.trim and not is_unspaced(lang):
        at, until = quoted_name(pair.tgt_text, at, until, aligned)
        at, until = whole_abbreviation(pair.tgt_text, at, until)
    at, until = with_head_noun(pair.tgt_text, at, until, lang, kind, stops)
    at, until = with_of_part(pair.tgt_text, at, until, name, lang)
    at, until = with_field_part(pair.tgt_text, at, until, name, lang, kind)
    at = with_body_noun(pair.tgt_text, at, until, name, lang, kind)
    until = with_adjectives_noun(pair.tgt_text, at, until, name, lang, kind)
    suffix = regex.match(APOSTROPHE_SUFFIX + r"(?!\w)", pair.tgt_text[until:])
    until += len(suffix.group()) if suffix else 0
    return replace(projected, start=at, end=placed(pair.tgt_text, until, lang), method=method)


# --- the span as the sentence writes it -----------------------------------------------------


# Tokens after which a word is a sentence's first, whose capital says nothing.
SENTENCE_ENDS = frozenset({".", "!", "?", "…", ":", "\"", "“", "«", "„", "¿", "¡"})


def as_written(pair: Pair, stops: frozenset[str], lang: str) -> frozenset[str]:
    """A sentence's function words among the stop words: not those it writes only with a
    capital inside a sentence, where a cased script capitalizes names alone. spaCy's lists
    hold content words too (Portuguese `conselho`, Bulgarian `година`), which a name may
    begin with (`Conselho Imobiliário de Ontario`). Not where every noun is capitalized."""
    if lang in CAPITALIZED_NOUNS or not _cased(pair.tgt_text):
        return stops
    capital: set[str] = set()
    lower: set[str] = set()
    for k in range(len(pair.tgt)):
        word = tgt_token(pair, k)
        if word.casefold() not in stops:
            continue
        initial = k == 0 or tgt_token(pair, k - 1) in SENTENCE_ENDS
        (capital if word[:1].isupper() and not initial else lower).add(word.casefold())
    return stops - (capital - lower)


def formally_named(pair: Pair, span: tuple[int, int], targets: set[int],
                   stops: frozenset[str]) -> tuple[int, int]:
    """A place's label widened to its formal name where the translation writes that as a
    name, in capitals (`República Popular da China`, `Förbundsrepubliken Kamerun`), not as
    a description (`cidade de Buenos Aires`, `kungadömet Frankrike`): the capitalized words
    beside it, function words between, that the aligner linked with the English name."""
    tokens = covered(pair.tgt, *span)
    if not tokens:
        return span
    first, last = tokens[0], tokens[-1]
    for step in (-1, 1):
        k = (first if step < 0 else last) + step
        while 0 <= k < len(pair.tgt):
            if tgt_token(pair, k).casefold() not in stops:
                if k not in targets or not tgt_token(pair, k)[:1].isupper():
                    break
                first, last = (k, last) if step < 0 else (first, k)
            k += step
    return pair.tgt[first][0], pair.tgt[last][1]


# A Latin word's edges: no such letter beside it (a Han or kana character may be).
BEFORE_LATIN = rf"(?<!{LATIN_LETTER})"


AFTER_LATIN = rf"(?!{LATIN_LETTER})"


def kept_spellings(text: str, name: str, latin_target: bool) -> list[tuple[int, int]]:
    """Where a translation keeps the English name as written (brands, acronyms; `dpa` in
    either case, as others write it `DPA`); in another script, not its copy in brackets
    after the translated name."""
    flags = regex.IGNORECASE if name.islower() and written_acronym(name) else 0
    return [(m.start(), m.end()) for m in regex.finditer(
        BEFORE_LATIN + regex.escape(name) + APOSTROPHE_SUFFIX + AFTER_LATIN, text, flags)
        if latin_target or not english_copy(text, m.start(), name)]


def _where(pair: Pair, start: int, aligned: tuple[int, int] | None) -> int:
    """Where in the target sentence a name should be: its aligned span's start, else as far
    into the sentence as the English name is into its own."""
    return aligned[0] if aligned else len(pair.tgt_text) * start // max(1, len(pair.src_text))


def content_words(name: str) -> list[str]:
    """An English name's words of two letters or more, case-folded, without the links
    (`of`, `the`), possessive endings and acronyms' dots."""
    name = regex.sub(r"['’]s\b", "", name.casefold()).replace(".", "")  # `U.N.`: un
    return [w for w in regex.findall(r"\p{L}{2,}", name) if w not in ENGLISH_LINKS]


def says_and(name: str) -> bool:
    """Whether an English name has `and` among its words (`Human Resources and Social
    Security`), which a translation writes as a conjunction inside the name (not `&`:
    `Marks & Spencer` is `瑪莎百貨`)."""
    return "and" in {w.casefold() for w in name.split()}


def written_acronym(name: str) -> bool:
    """A name written as capitals only (`RSC`, `IRENA`), or as small letters only (`dpa`):
    wider than `xel.kb.is_acronym`, whose two to four capitals the KB writes dotted."""
    return 2 <= len(name) <= 6 and name.isalpha() and (name.isupper() or name.islower())


def expansions(text: str, acronym: str) -> list[tuple[int, int]]:
    """Where a translation writes an acronym's words in full (`Royal Shakespeare Company`
    for RSC, kept in English; Croatian `Ujedinjenoj Kraljevini` for UK): runs of capitalized
    Latin words whose initials spell it, English function words between them passed over
    (`Society for the Protection`); not a target language's (Turkish `Un ile Singapur`, with
    Singapore, is not US)."""
    words = [(m.start(), m.end(), m.group()) for m in regex.finditer(r"\p{Latin}[\p{L}'\-]*",
                                                                     text)]
    found = []
    for k, (start, _, word) in enumerate(words):
        if word[0] != acronym[0]:
            continue
        spelled, j = "", k
        while j < len(words) and len(spelled) < len(acronym) and (
                j == k or not text[words[j - 1][1]:words[j][0]].strip()):  # one phrase
            w = words[j][2]
            if w[0].isupper():
                spelled += w[0]
            elif w.casefold() not in ENGLISH_LINKS:
                break
            if not acronym.startswith(spelled):
                break
            j += 1
        if spelled == acronym and j - k > 1:
            found.append((start, words[j - 1][1]))
    return found


def placed(text: str, end: int, lang: str) -> int:
    """Chinese writes what a place is after its name, as part of it (`萨拉索塔市`)."""
    chinese = is_chinese(lang)
    return with_place_word(text, end) if chinese else end


# --- the name's words around the span (heads, `of` parts, adjectives) -----------------------


# Languages whose orthography writes an adjective with a capital only inside a proper name
# (`Османской империи`, `Republikanischen Partei`, `Stilla havet`; the lower-case adjective
# of `британское правительство`, `britische Regierung`, `franska regeringen` is not one this
# joins, though trimming may keep it, `run_on_edges`): the endings of
# their adjectives that no noun's case ending shares (not Russian `-ом`, `-ой`: `Лондоном`,
# `Москвой`), the nouns a name's adjective goes with (German's all capitalized; Swedish
# names' in the definite form: `havet`, `unionen`), and the types whose names are made so (a
# Russian place's adjective names something else: `Тихоокеанской лагуне`, a Pacific lagoon).
class HeadNouns(NamedTuple):
    adjective: regex.Pattern[str]
    noun: regex.Pattern[str]
    kinds: frozenset[str]


NAME_ADJECTIVES = {
    "rus": HeadNouns(regex.compile(r"\p{Lu}\p{Ll}+(?:[ое]го|[ое]му|[ая]я|[ое]е|[ыи]е|[ую]ю"
                                   r"|[ыи]х|[ыи]ми|[сц]кий|[сц]кой|ный|ной)"),
                     regex.compile(r"\p{Ll}+"), frozenset({"ORG"})),
    "deu": HeadNouns(regex.compile(r"\p{Lu}\p{Ll}+(?:isch|lich|ig|al)(?:e|en|er|es|em)"),
                     regex.compile(r"\p{Lu}\p{Ll}+"), frozenset({"ORG"})),
    "swe": HeadNouns(regex.compile(r"\p{Lu}\p{Ll}*(?:ska|la|da|ta|ra|ya)"),  # not `Afrika`
                     regex.compile(r"\p{Ll}+(?:en|et|na)"), frozenset({"ORG", "LOC"})),
}


def with_head_noun(text: str, start: int, end: int, lang: str, kind: str | None,
                   stops: frozenset[str]) -> tuple[int, int]:
    """A name's capitalized adjective and the noun after it make one name (`Оттоманской` to
    `Оттоманской империи`, `империи` to `Османской империи`; the GOP's `Республиканской
    партии` and `Republikanischen Partei`; the Pacific's `Stilla havet`), where the
    orthography capitalizes adjectives only in names (`NAME_ADJECTIVES`); never at a
    sentence's start, where every word has a capital. In Russian, the adjective is one to
    pymorphy3 (not the noun `Дубая`, Dubai's, which ends as one) and the noun no verb
    (`Правительство Дубая`, not `... сообщило`, announced)."""
    rules = NAME_ADJECTIVES.get(lang)
    if rules is None or kind not in rules.kinds:
        return start, end
    words = [m.span() for m in regex.finditer(r"\w+(?:-\w+)*", text)]
    inside = [k for k, (a, b) in enumerate(words) if a < end and b > start]
    if not inside:
        return start, end
    first, last = inside[0], inside[-1]

    def named_adjective(k: int) -> bool:
        a, b = words[k]
        return (k > 0 and rules.adjective.fullmatch(text, a, b) is not None
                and regex.search(r"[.!?…]\s*$", text[:a]) is None
                and (lang != "rus" or adjective(text[a:b].casefold(), lang)))  # not `Дубая`

    def noun(k: int) -> bool:
        a, b = words[k]
        return (rules.noun.fullmatch(text, a, b) is not None
                and rules.adjective.fullmatch(text, a, b) is None
                and text[a:b].casefold() not in stops and not verb_form(text[a:b], lang)
                and regex.fullmatch(r"\s+", text[words[k - 1][1]:a]) is not None)

    if last + 1 < len(words) and named_adjective(last) and noun(last + 1):
        end = words[last + 1][1]
    elif first == last and first > 0 and noun(first) and named_adjective(first - 1):
        start = words[first - 1][0]
    return start, end


# Romance languages write an English name's `of` part after a preposition, its article
# after or within it (`Departamento do Trabalho`, PUD's `de o`; `Estados Unidos de a América`,
# `Consejo de Estado`, `Città del Messico`).
OF_PARTS = {
    "por": r"d[eoa]s?|de\s+(?:o|a|os|as)",
    "glg": r"d[eoa]s?|de\s+(?:o|a|os|as)",
    "spa": r"del?|de\s+(?:la|los|las)",
    "cat": r"del?|d'|de\s+(?:la|les)",
    "fra": r"d[eu]|des|d['’]|de\s+la",
    "ita": r"d(?:i|el|ella|ello|ei|egli|elle)|d['’]",
}


def with_of_part(text: str, start: int, end: int, name: str, lang: str) -> tuple[int, int]:
    """A translated name that stops before its `of` part, the English name's words after
    `of` written after it as capitalized words (`Departamento` to `Departamento do Trabalho`
    for the Department of Labor); not where the span holds such a part already."""
    connector = OF_PARTS.get(lang)
    english = name.split()
    if connector is None or "of" not in english[1:-1]:
        return start, end
    after = len(english) - english.index("of") - 1
    if regex.search(rf"(?<!\w)(?:{connector})\s+\p{{Lu}}", text[start:end]):
        return start, end
    word = r"\p{Lu}[\w'’-]*"
    found = regex.match(rf"\s+(?:{connector})\s*{word}(?:\s+{word}){{0,{after - 1}}}(?!\w)",
                        text[end:])
    return (start, end + found.end()) if found else (start, end)


# Languages that name a body for its field after a preposition, in lower case (`Совет по
# апелляциям иммигрантов`, Board of Immigrant Appeals; `Комисията по правата на човека`).
FIELD_PARTS = {"rus": "по", "bul": "по"}


def with_field_part(text: str, start: int, end: int, name: str, lang: str, kind: str | None
                    ) -> tuple[int, int]:
    """An organization's span that stops before the field its body is for: the lower-case
    words after `по` (on), of two letters or more, as many as the English name has words the
    span does not (`Советом` to `Советом по апелляциям иммигрантов`)."""
    connector = FIELD_PARTS.get(lang)
    if connector is None or kind != "ORG":
        return start, end
    missing = len(content_words(name)) - len(regex.findall(r"\p{L}{2,}", text[start:end]))
    if missing < 1:
        return start, end
    found = regex.match(rf"\s+{connector}(?:\s+\p{{Ll}}[\w-]+){{1,{missing}}}(?!\w)",
                        text[end:])
    return (start, end + found.end()) if found else (start, end)


def body_heads(name: str) -> set[str]:
    """The English words that may say an organization's kind of body: its last word, and
    its first before `of` (`Ministry of Defense`)."""
    words = [w.casefold() for w in regex.findall(r"[\w'’.-]+", name)]
    heads = set(words[-1:])
    if "of" in words[1:]:
        heads.add(words[words.index("of") - 1])
    return heads


def with_body_noun(text: str, start: int, end: int, name: str, lang: str, kind: str | None
                   ) -> int:
    """The start of an organization's span widened to its body's noun just before it (`по`
    between), where the English name says that kind of body and no word of the span does
    (`отдела` + `глобальных исследований`, Global Research Department: the aligner linked
    `Department` with nothing); Russian only (`BODY_NOUNS`)."""
    if kind != "ORG" or lang != "rus" or start >= end:
        return start
    heads = body_heads(name)
    if any(body_noun(w, heads, lang) for w in regex.findall(r"\p{L}+", text[start:end])):
        return start
    found = regex.search(r"(\p{L}+)(?:\s+по)?\s+$", text[:start])
    return found.start() if found and body_noun(found[1], heads, lang) else start


def with_adjectives_noun(text: str, start: int, end: int, name: str, lang: str,
                         kind: str | None) -> int:
    """The end of an organization's span of words that ends with an adjective, moved past
    the noun it agrees with just after it: a Russian name of several words never ends with
    one (`Института открытых` to `Института открытых данных`, Open Data Institute;
    `шотландской легкой атлетики`, Scottish Athletics); not where the name is one English
    word, whose translation may be the adjective alone (`лейбористское правительство`, the
    Labour government, is not the party; nor `евро-азиатской интеграции` for Euro-Asia);
    Russian only (pymorphy3)."""
    if (kind != "ORG" or lang != "rus" or len(content_words(name.replace("-", ""))) < 2
            or len(text[start:end].split()) < 2):
        return end
    last = regex.search(r"(\p{L}+)$", text[start:end])
    after = regex.match(r"\s+(\p{Ll}+)(?!\w)", text[end:])
    if last is None or after is None or not agreeing_noun(last[1], after[1], lang):
        return end
    return end + after.end()


# Arabic-script proclitics left off a translated name's aligned span where the rest reads
# better as the name (and, to, with: `وساراسوتا`, `لرويترز`); not `ف`, `ك`, which begin many
# place names (`فرجينيا`, `كندا`) whose readings the models do not know well.
TRANSLATED_PROCLITICS = frozenset("وبل")


# --- what the corpus says a word translates -------------------------------------------------

Lexicon = Mapping[str, Counter[str]]


# How often a word must have been linked before its links say what it translates; a word
# translates the English words linked with it at least LEXICON_SHARE as often as its likeliest
# (a run of the name's words: its likeliest alone).
LEXICON_MIN = 5


LEXICON_SHARE = 0.5


RUN_SHARE = 1.0


def _counted(english: str) -> bool:
    """Whether the lexicon counts a case-folded English word: a word of two letters or more
    (not `U.S.`'s `s`, not punctuation)."""
    return len(english) > 1 and english[:1].isalnum()


def link_lexicon(pairs: Iterable[Pair], lang: str) -> dict[str, Counter[str]]:
    """How often the aligner linked each target word (as `lemma` folds it) with each English
    word (case-folded), over a language's pairs: what a word translates across the corpus,
    where one sentence's links may be wrong."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for pair in pairs:
        for i, j in pair.links:
            e, f = src_token(pair, i).casefold(), tgt_token(pair, j)
            if _counted(e) and f[:1].isalnum():
                counts[lemma(f, lang)][e] += 1
    return counts


def lexicon_words(pair: Pair, mention: Sequence[int]) -> set[str]:
    """The English name's words as the lexicon counts them, but for `of`, `the` and the
    other links, which no translation need say."""
    return {w for i in mention if _counted(w := src_token(pair, i).casefold())
            } - ENGLISH_LINKS


def learns_words(lang: str) -> bool:
    """Whether translated names are checked against the words the corpus links: in spaced
    scripts (Chinese has CC-CEDICT's glosses, `with_glossed_run`)."""
    return not is_unspaced(lang)


def learned_translations(lexicon: Lexicon, key: str, share: float = LEXICON_SHARE
                         ) -> frozenset[str]:
    """The English words the corpus links a word with most (at least half as often as its
    likeliest; `округе`: district, county), where it was linked often enough to tell."""
    counts = {e: n for e, n in lexicon.get(key, {}).items() if e not in ENGLISH_LINKS}
    if sum(counts.values()) < LEXICON_MIN:
        return frozenset()
    best = max(counts.values())
    return frozenset(e for e, n in counts.items() if n >= share * best)


def says_other(lexicon: Lexicon, key: str, english: set[str]) -> bool:
    """Whether the corpus links a word with other words than the name's (`заседании`, a
    session, for the General Assembly; not `округе`, whose links say district, then county)."""
    said = learned_translations(lexicon, key)
    return bool(said) and not said & english


Run = tuple[int, int, set[str]]  # first and last token, the name's words they say


def said_runs(pair: Pair, said: Sequence[set[str]], stops: frozenset[str]) -> list[Run]:
    """Maximal runs of words that each say a word of the name, function words between them."""
    runs: list[Run] = []
    k = 0
    while k < len(said):
        if not said[k]:
            k += 1
            continue
        a = b = j = k
        words = set(said[k])
        while j + 1 < len(said) and (said[j + 1] or tgt_token(pair, j + 1).casefold() in stops):
            j += 1
            if said[j]:
                b, words = j, words | said[j]
        runs.append((a, b, words))
        k = b + 1
    return runs


def with_learned_run(pair: Pair, first: int, last: int, mention: Sequence[int],
                     lexicon: Lexicon, lang: str, stops: frozenset[str],
                     matcher: NameMatcher | None) -> tuple[int, int]:
    """A translated name's aligned tokens, or else the run of words nearest them whose
    translations across the corpus say more than half of the name's words and more of them
    than the span says (`ФБР`, where the aligner linked `адрес`): the corpus corrects the
    sentence's links. A run may hold function words inside; an empty span is `first > last`."""
    english = lexicon_words(pair, mention)

    def says(word: str) -> set[str]:
        """The name's words a word is the likeliest translation of, or spells."""
        if word.casefold() in stops or len(word) < 2:
            return set()
        learned = learned_translations(lexicon, lemma(word, lang), RUN_SHARE)
        return set(learned | {word.casefold()}) & english

    said = [says(tgt_token(pair, k)) for k in range(len(pair.tgt))]
    inside = set().union(*said[first:last + 1]) if first <= last else set()
    if matcher is not None:
        inside |= {e for e in english for k in range(first, last + 1)
                   if matcher.score(e, tgt_token(pair, k)) >= matcher.min_similarity}
    # A run apart from the span replaces it only where the span says none of the name and is
    # not the run's words inflected (`korkeimmassa oikeudessa`, `korkeimman oikeuden`): a
    # name said twice in a sentence is not moved to its other place.
    def stems(a: int, b: int) -> set[str]:
        return {tgt_token(pair, k).casefold()[:5] for k in range(a, b + 1)
                if len(tgt_token(pair, k)) >= 5}

    def apart(r: Run) -> bool:
        return r[1] < first or last < r[0]

    runs = [r for r in said_runs(pair, said, stops)
            if 2 * len(r[2]) > len(english) and len(r[2]) > len(inside)
            and not (apart(r) and (inside or stems(first, last) & stems(r[0], r[1])))]
    if not runs:
        return first, last
    a, b, _ = max(runs, key=lambda r: (len(r[2]), -abs(r[0] - first)))
    return a, b


# --- the aligned span read as the name ------------------------------------------------------


# Scripts whose orthographies capitalize a name's first word, as French's `ministère de la
# Santé` does not: a lower-case word is never a name's first there.
CAPITAL_FIRST_SCRIPTS = frozenset({"Cyrl"})


# Languages that capitalize every noun: a lower-case word is never a name's first or last.
CAPITALIZED_NOUNS = frozenset({"deu", "ltz"})


def read_translated(pair: Pair, targets: set[int], name: str, matcher: NameMatcher,
                    lang: str, stops: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """Characters of target words that read as every word of a translated-type name, nearest
    the alignment (`targets`, the tokens aligned with the name): a place or company the
    translation spells or transliterates (`Krasnojarsk`, `Теско`; `Гонконгу`, one word for
    `Hong Kong`) though the aligner linked other words. In spaced scripts, cased ones only,
    and the words must start with a capital there, so a common word spelled alike is not
    taken, and not where the first or last word read is a function word (`На референдуме в
    Новой Каледонии`, `На` read as New, `_misread`); clitics are left out as for people.
    Chinese: `read_chinese`, made whole (`whole_reading`), not for an acronym, which is
    spelled, not said (`EU` is not `一`, yi)."""
    english = name_tokens(name)
    if is_chinese(lang):
        read = None if is_acronym(name.replace(".", "")) else read_chinese(
            pair, targets, english, matcher, stops)
        return None if read is None else whole_reading(pair.tgt_text, read, english, matcher)
    if not english or matcher.family.unspaced or not _cased(pair.tgt_text):
        return None
    found = _read_all(pair, targets, english, matcher, matcher.matches(
        english, pair.tgt_text, pair.tgt))
    if (found is None or not tgt_token(pair, found[0])[:1].isupper()
            or _misread(pair, found[0], english, stops)
            or _misread(pair, found[1], english, stops)):
        return None
    start, end = pair.tgt[found[0]][0], pair.tgt[found[1]][1]
    return matcher.family.edges(pair.tgt_text, start, end, english, matcher)


def _misread(pair: Pair, k: int, english: Sequence[str], stops: frozenset[str]) -> bool:
    """A function word read as a word of the name it is not written as, in lower case or
    first in its sentence (`На`, on, as New; `su` as the S of U.S.); not `Los` of Los
    Angeles, nor Italian `Stato` (State; `stato`, been) capitalized inside a sentence, nor
    the `И` of `Ф.Б.И` (F.B.I.; `и`, and) after a stop written against it."""
    word = tgt_token(pair, k)
    start = pair.tgt[k][0]
    first = k == 0 or (tgt_token(pair, k - 1) in SENTENCE_ENDS
                       and (tgt_token(pair, k - 1) != "." or pair.tgt_text[start - 1].isspace()))
    return (word.casefold() in stops and word.casefold() not in english
            and (first or not word[:1].isupper()))


def whole_reading(text: str, read: tuple[int, int], english: Sequence[str],
                  matcher: NameMatcher) -> tuple[int, int]:
    """Chinese characters read as a name, with the dictionary words they cut (`whole_words`:
    `哈佛`, Harvard, where learned pieces and a stop word left `佛`) and, for a name of one
    word, the characters beside them that make it read better (`read_on`: `瓦德拉` + `馬`,
    Valderrama)."""
    joined = joined_words(english)

    def reading(a: int, b: int) -> float:
        return matcher.score(joined, "".join(text[a:b].split()))

    read = whole_words(text, *read, reading)
    return read_on(text, *read, reading) if len(english) == 1 else read


def read_chinese(pair: Pair, targets: set[int], english: Sequence[str], matcher: NameMatcher,
                 stops: frozenset[str]) -> tuple[int, int] | None:
    """Chinese characters that read as a translated-type name: its words Chinese translates
    (`西`, West) written before the rest, read (`西弗吉尼亚`), else every word read (`紐約`,
    New York) unless that takes in the translated word written after (`克斯蒂文以北`, north
    of Kesteven)."""
    read, written = translated_words(english)
    part = _read_chinese(pair, targets, read, matcher, stops) if written and read else None
    if part is not None:
        start = with_translated(pair.tgt_text, part[0], written)
        if folded(pair.tgt_text[start:part[1]]).replace(" ", "").startswith(written):
            return start, part[1]
    whole = _read_chinese(pair, targets, english, matcher, stops)
    if part is not None and (whole is None or written in folded(pair.tgt_text[slice(*whole)])):
        return part  # the translated word stands elsewhere (`克斯蒂文以北`, north of Kesteven)
    return whole


def _read_chinese(pair: Pair, targets: set[int], english: Sequence[str], matcher: NameMatcher,
                  stops: frozenset[str]) -> tuple[int, int] | None:
    """The characters that read as these words of a name: not the English copy in brackets
    (`巴吞鲁日 (Baton Rouge)`), nor particles read as its sounds (`馬其頓 及`, ma-qi-dun-ji).
    Where only the first words read, what follows up to the word for the kind of body
    (`諾丁漢 日報`, Nottingham Journal; `迪卡 唱片 公司`, Decca Records)."""
    matches = [[m for m in ms if not any(is_latin(tgt_token(pair, k))
                                         for k in range(m[0], m[1] + 1))]
               for ms in matcher.matches(list(english), pair.tgt_text, pair.tgt)]
    found = _read_all(pair, targets, english, matcher, matches)
    if found is None:
        found = _read_with_head(pair, targets, english, matches, stops)
    if found is None:
        return None
    first, last = found
    while last > first and folded(tgt_token(pair, last)) in stops:
        last -= 1
    while first < last and folded(tgt_token(pair, first)) in stops:
        first += 1
    start, end = pair.tgt[first][0], pair.tgt[last][1]
    return matcher.family.edges(pair.tgt_text, start, end, english, matcher)


def _read_all(pair: Pair, targets: set[int], english: Sequence[str], matcher: NameMatcher,
              matches: list[list[tuple[int, int, float]]]) -> tuple[int, int] | None:
    """The first and last token of the words that read as every word of the name, or as the
    whole name, nearest the alignment."""
    barriers = bracket_tokens(pair)
    found = best_cluster(matches, targets, len(english), barriers)
    if found is None or found[1] < len(english):
        found = nearest_whole(matcher.whole(list(english), pair.tgt_text, pair.tgt)
                         + _read_joined(pair, english, matcher), targets)
    return None if found is None else found[0]


def _read_with_head(pair: Pair, targets: set[int], english: Sequence[str],
                    matches: list[list[tuple[int, int, float]]], stops: frozenset[str]
                    ) -> tuple[int, int] | None:
    """Chinese: the name's first words read, then at most one token more than the English
    words left, up to one that ends in the word for a kind of body (`報`, `公司`)."""
    barriers = bracket_tokens(pair)
    for read in range(len(english) - 1, 0, -1):
        found = best_cluster(matches[:read], targets, read, barriers)
        if found is None or found[1] < read:
            continue
        first, last = found[0]
        for k in range(last + 1, min(len(pair.tgt), last + 2 + len(english) - read)):
            word = folded(tgt_token(pair, k))
            if word in stops or word in PIECE_BREAKS or not is_word_token(pair, k):
                break
            if body_word(word):
                return first, k
    return None


JOINED = 0.75  # a name's words read as one target word: at least this similar


JOINED_MARGIN = 0.05  # and this much more than as any one of its words


def _read_joined(pair: Pair, english: Sequence[str], matcher: NameMatcher
                 ) -> list[tuple[int, int, float]]:
    """Target words that read as a name of several English words written as one
    (`Гонконгу`, `Hongkong`), better than as any one of them (`Африка` is Africa, not South
    Africa)."""
    if len(english) < 2:
        return []
    joined = joined_words(english)
    found = []
    for k in range(len(pair.tgt)):
        word = tgt_token(pair, k)
        whole = matcher.score(joined, word) if is_word_token(pair, k) else 0.0
        if whole >= max(matcher.min_similarity, JOINED) and whole > JOINED_MARGIN + max(
                matcher.score(e, word) for e in english):
            found.append((k, k, whole))
    return found


def joined_words(english: Sequence[str]) -> str:
    """A name's words written as one (`HongKong`): what `_read_joined` reads target words as."""
    return "".join(english)


def names_read(names: Iterable[str], translated: Iterable[str] = ()) -> set[str]:
    """The names a matcher is prepared with (their forms decoded in one batch): every
    mention's, and each translated name of several words written as one, which the decoder
    would otherwise start afresh for, name by name."""
    return {*names, *(joined_words(w) for n in translated if len(w := name_tokens(n)) > 1)}


# --- names quoted, and spans run on past the name -------------------------------------------


# Quotation marks a name may be written between (`ЧВК "Вагнер"`, `партия «Право и
# справедливость»`), each opening mark with the marks that close it; a straight mark opens
# after a space or the sentence's start and closes after a letter.
QUOTES = {"«": "»", "„": "“”", "“": "”", '"': '"'}


# Words between quotation marks that may all be a name; more are a quotation of speech.
QUOTED_NAME_WORDS = 6


def quoted_runs(text: str) -> list[tuple[int, int]]:
    """Character positions of each opening quotation mark and the mark that closes it."""
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(text):
        closers = QUOTES.get(text[k])
        close = None
        if (closers is not None and text[k + 1:k + 2].strip()
                and (text[k] != '"' or k == 0 or text[k - 1].isspace() or text[k - 1] in "([{")):
            close = next((j for j in range(k + 1, len(text))
                          if text[j] in closers and not text[j - 1].isspace()), None)
        if close is None:
            k += 1
        else:
            runs.append((k, close))
            k = close + 1
    return runs


def quoted_name(text: str, at: int, until: int, aligned: tuple[int, int] | None
                ) -> tuple[int, int]:
    """A translated name written between quotation marks that the aligner ran into or out
    of (its span holds one mark of the pair): the words between the marks, as a sentence
    writes a name there after the noun for its kind (`Право и справедливость`, not
    `справедливость", нарушают`; `بوسطن جلوب`, not `ذكرت صحيفة "بوسطن`, reported the
    newspaper "Boston); not where the marks hold more than a name's words (a quotation), so
    not in scripts written without spaces, whose words the marks' text does not show."""
    if aligned is None:
        return at, until
    for o, c in quoted_runs(text):
        inner = text[o + 1:c]
        crossed = (aligned[0] <= o < aligned[1]) != (aligned[0] <= c < aligned[1])
        if (not crossed or not at < c or not o + 1 < until
                or len(inner.split()) > QUOTED_NAME_WORDS):
            continue
        lead = len(inner) - len(inner.lstrip())
        return o + 1 + lead, o + 1 + len(inner.rstrip())
    return at, until


def quoted_after(pair: Pair, first: int, last: int, english: Sequence[str],
                 matcher: NameMatcher) -> tuple[int, int]:
    """The words between the quotation marks right after a span, where the span is the noun
    for the name's kind of body the aligner linked and the quoted words are the name: none of
    the span's words reads as a word of the English name and one of the quoted words does
    (`МИА "Казинформ"`, Kazinform International News Agency, where the aligner linked `МИА`
    and left `Казинформ` out; Albanian `rrjetit farmaceutik “Lloyds”`; not Serbian
    `Teksaškom festivalu „Tribun”`, whose `festivalu` reads as the name's Festival); not a
    quotation (more than a name's words)."""
    opening = last + 1
    if opening >= len(pair.tgt) or tgt_token(pair, opening) not in QUOTES:
        return first, last
    at = pair.tgt[opening][0]
    closing = next((c for o, c in quoted_runs(pair.tgt_text) if o == at), None)
    if closing is None:
        return first, last
    inner = [k for k in range(opening + 1, len(pair.tgt)) if pair.tgt[k][1] <= closing]
    if not inner or len(inner) > QUOTED_NAME_WORDS or not tgt_token(pair, inner[0])[:1].isupper():
        return first, last
    if (any(words_read(pair, k, english, matcher) for k in range(first, last + 1))
            or not any(words_read(pair, k, english, matcher) for k in inner)):
        return first, last
    return inner[0], inner[-1]


# An abbreviation written with a stop after each part (`I. A.`, `EE. UU.`, `U.S.`).
DOTTED = regex.compile(r"(?<!\w)\p{Lu}{1,3}\.(?:\s?\p{Lu}{1,3}\.)+")


def whole_abbreviation(text: str, at: int, until: int) -> tuple[int, int]:
    """A span inside an abbreviation written with stops is the whole abbreviation (`I`
    to `I. A.`, Spanish for AI; `EE. UU` to `EE. UU.`, the U.S.)."""
    for found in DOTTED.finditer(text):
        if found.start() <= at < until <= found.end():
            return found.span()
    return at, until


def _cased(text: str) -> bool:
    return any(ch.isupper() for ch in text)


def run_on_edges(pair: Pair, mention: Sequence[int], tokens: Sequence[int],
                 stops: frozenset[str], lang: str, kind: str | None = None,
                 lexicon: Lexicon | None = None) -> tuple[int, int]:
    """The first and last token of a translated name's aligned span without the words the
    aligner ran on at its edges (`Medelhavet på samma sätt`, `Antarktis zu durchqueren`): in
    a cased script, while the rest of the span has a capitalized word, a lower-case edge word
    not aligned with the name, or aligned only with name words another word of the span
    stands for and apart from the name by a word not aligned with it; where every noun is
    capitalized, any lower-case edge word (`Ostafrika angespült`); then function words and
    punctuation. A lower-case word beside the name's words stays (`Республиканской партии`,
    `Europeiska unionen`), but not before them in Cyrillic, whose names begin with a
    capital as the English does, where the aligner linked it with other words too
    (`клиенты Банка Шотландии`, customers of the Bank of Scotland; not `округ Колумбия`).
    Where every noun is capitalized, an organization's lower-case first word right before a
    capitalized one stays where it alone stands for a capitalized word of the name
    (`britische Regierung`, the UK Government; `deutschen Marine`). A Russian verb,
    participle or gerund at an edge is one the aligner ran on (`verb_form`: `ВМС США
    сообщают`, the U.S. Navy reports), and a Russian verb as such though no word of the
    span has a capital (`finite_verb`: `чемпионате мира означает`, the World Cup means); so
    is a Cyrillic lower-case first word the corpus links with other words than the name's
    (`says_other`, given a `lexicon`: `заседании Генассамблеи ООН`, a session of the UN
    General Assembly)."""
    first, last = tokens[0], tokens[-1]
    inside = set(mention)
    named: dict[int, set[int]] = defaultdict(set)
    elsewhere: set[int] = set()  # target words linked with an English word outside the name
    for i, j in pair.links:
        if i in inside:
            named[j].add(i)
        else:
            elsewhere.add(j)

    capital_first = (language(lang).script in CAPITAL_FIRST_SCRIPTS and bool(mention)
                     and src_token(pair, mention[0])[:1].isupper())
    name_words = lexicon_words(pair, mention)
    # An acronym's letters say nothing of what its words translate to (`округ Колумбия`, D.C.).
    spelled_out = not all(word.replace(".", "").isupper() for i in mention
                          if WORDLIKE.search(word := src_token(pair, i)))

    def ran_on(k: int, rest: range, inner: int, leading: bool) -> bool:
        if not tgt_token(pair, k)[:1].islower() or not any(
                tgt_token(pair, o)[:1].isupper() for o in rest):
            return False
        if verb_form(tgt_token(pair, k), lang):
            return True  # `Министерство обороны США создало`, the Defense Department created
        if leading and capital_first and spelled_out and lexicon is not None and says_other(
                lexicon, lemma(tgt_token(pair, k), lang), name_words):
            return True  # `клиенты Банка Шотландии`, customers of the Bank of Scotland
        others = {i for o in rest for i in named[o]}  # name words the rest stands for
        if (lang in CAPITALIZED_NOUNS and leading and kind == "ORG"
                and tgt_token(pair, k + 1)[:1].isupper()
                and any(src_token(pair, i)[:1].isupper() for i in named[k] - others)):
            return False  # `britische Regierung`, UK Government
        if lang in CAPITALIZED_NOUNS or not named[k] or (
                leading and capital_first and k in elsewhere):
            return True
        return not named[inner] and named[k] <= others

    def droppable(k: int, rest: range, inner: int, leading: bool) -> bool:
        return (ran_on(k, rest, inner, leading) or tgt_token(pair, k).casefold() in stops
                or not is_word_token(pair, k) or finite_verb(tgt_token(pair, k), lang))

    while first < last and droppable(first, range(first + 1, last + 1), first + 1, True):
        first += 1
    while last > first and droppable(last, range(first, last), last - 1, False):
        last -= 1
    return first, last


def capital_led(pair: Pair, first: int, last: int, name: str, stops: frozenset[str],
                lang: str, lexicon: Lexicon | None = None) -> int:
    """Cyrillic, which begins a name with a capital as English does: a span's first token
    is its first capitalized word where the words from there have as many as the English
    name (`Банка Шотландии`, not `клиенты Банка Шотландии`, customers of the Bank of Scotland;
    `Федерального верховного суда`, not `судья ...`, a judge of), but for words before it that
    are part of the name: a Russian adjective, which agrees with the name's noun (`зимних
    Олимпийских игр`, Winter Olympics), or a word the corpus links with a word of the name
    (`полиция округа Эйвон и Сомерсет` for Somerset Police, with a `lexicon`). A word before a
    name with a word more stays (`округ Колумбия`, District of Columbia). An English acronym's
    letters say nothing of how many words it has: its span begins at an acronym that ends it
    (`США`, not `санкциями США`) or stays (`округ Колумбия` for D.C.)."""
    if language(lang).script not in CAPITAL_FIRST_SCRIPTS or not name[:1].isupper():
        return first
    capital = next((k for k in range(first, last + 1) if tgt_token(pair, k)[:1].isupper()), first)
    if name.replace(".", "").isupper() and " " not in name:
        return capital if capital == last and tgt_token(pair, last).isupper() else first
    words = sum(bool(LETTER.search(tgt_token(pair, k)))
                and tgt_token(pair, k).casefold() not in stops for k in range(capital, last + 1))
    english = content_words(name)
    if words < len(english) or lexicon is not None and any(
            learned_translations(lexicon, lemma(tgt_token(pair, k), lang)).intersection(english)
            for k in range(first, capital)):
        return first
    while capital > first and adjective(tgt_token(pair, capital - 1), lang):
        capital -= 1
    return capital


def words_read(pair: Pair, k: int, english: Sequence[str], matcher: NameMatcher) -> set[str]:
    """The words of an English name that the k-th target word reads as."""
    return {e for e in english if matcher.score(e, tgt_token(pair, k)) >= matcher.min_similarity}


def _with_read_neighbours(pair: Pair, first: int, last: int, english: Sequence[str],
                          matcher: NameMatcher, stops: frozenset[str]) -> tuple[int, int]:
    """An aligned span with the capitalized word beside it (function words between) that
    reads as a word of the name none of the span's words reads as (`Ilha` + `de Gezira`,
    Gezira Island), where the span then begins and ends with capitals: a span that still
    begins with a word the aligner ran on (`candidato al Tribunal`) is left as it was rather
    than made more of a name. Not where every noun is capitalized (German `Demokratin im
    Justizausschuss`)."""
    def reads(k: int) -> set[str]:
        return words_read(pair, k, english, matcher)

    inside = set().union(*(reads(k) for k in range(first, last + 1)))
    grown = first, last
    for step in (-1, 1):
        k = (first if step < 0 else last) + step
        while 0 <= k < len(pair.tgt) and tgt_token(pair, k).casefold() in stops:
            k += step
        if 0 <= k < len(pair.tgt) and tgt_token(pair, k)[:1].isupper() and reads(k) - inside:
            grown = (k, grown[1]) if step < 0 else (grown[0], k)
    if all(tgt_token(pair, k)[:1].isupper() for k in grown):
        return grown
    return first, last


# Where Chinese parts a clause, a list or a phrase (`X 的 Y`, X's Y; `和`, and): an aligned
# span across one has run on.
PIECE_BREAKS = frozenset({"，", ",", "、", "；", ";", "：", ":", "。", "的", "和", "与", "及"})


def _pieces(tokens: Iterable[int], parts: Callable[[int], bool]) -> list[list[int]]:
    """The runs of tokens between those that `parts` says part a span (the breaks left out)."""
    pieces: list[list[int]] = [[]]
    for k in tokens:
        if parts(k):
            pieces.append([])
        else:
            pieces[-1].append(k)
    return [p for p in pieces if p]


# Where a sentence parts clauses or list items: a translated name's span across one (that
# the English name has not) has run on.
CLAUSE_BREAKS = frozenset({",", ";", ":"})


def clause_piece(pair: Pair, mention: Sequence[int], first: int, last: int, name: str
                 ) -> tuple[int, int]:
    """Cased scripts: of a span's pieces between clause breaks (a break followed by a space:
    not `YK:n`, `FN:s`), the one that alone has a capital inside the sentence or an acronym,
    else the most tokens aligned with the name, else alone spells a word of it
    (`UN - Umweltprogramms , Erik Solheim` -> `UN - Umweltprogramms` for UN Environment, the
    aligner having linked `Solheim`; `ABD , yapay zeka` -> `ABD`; not `Samedi , le ministre`
    for North Korea); the span as it is where none of these decides."""
    def parts(k: int) -> bool:
        after = pair.tgt[k][1]
        return (tgt_token(pair, k) in CLAUSE_BREAKS and tgt_token(pair, k) not in name
                and pair.tgt_text[after:after + 1].isspace())

    piece = _best_piece(pair, mention, _pieces(range(first, last + 1), parts), name)
    return (first, last) if piece is None else (piece[0], piece[-1])


# Tokens between two of a span's words that the aligner linked with content words of the
# sentence outside the name (none with the name): so many, and the span has run on to
# another mention's words (a name said twice, a word linked amiss).
GAP = 2


def gap_piece(pair: Pair, mention: Sequence[int], first: int, last: int, name: str,
              lang: str = "") -> tuple[int, int]:
    """Spaced scripts: a span's tokens the aligner linked with the name, in pieces parted by
    `GAP` or more tokens it linked with other English content words, and of them the piece
    `clause_piece` would choose, with no such run left at the span's edges: `Polizei von
    Newport stahlen am Freitagmorgen in Newport on the Levee Diebe ... Geldautomaten` ->
    `Polizei von Newport` (the aligner linked `US` of `US-Dollar` after it, which trimming
    took off), Arabic `الجمعية العامة التي تعقد سنويا ...` -> `الجمعية العامة`. Tokens it linked
    with nothing, punctuation or function words part nothing (`Французский совет по вопросам
    цифровых технологий`, whose `совет по вопросам` it did not link, stays whole; so does
    `Агентство по безопасности в области ...`, whose `по` and `в` it linked with a comma and
    `the`), nor is a piece cut before a capital, where a name's next word may be (Turkish
    `Harvard Tıp Fakültesi`, whose `Fakültesi` it linked with another word), but in a
    language that capitalizes every noun, a noun linked with an English word in lower case
    is that word's (`am Nikolaustag Geschenke auf die ein oder andere Art`: *gifts*)."""
    aligned = aligned_tokens(mention, pair.links)
    inside, english = set(mention), function_words("eng")

    def content(i: int) -> bool:  # links of punctuation and function words say little
        word = src_token(pair, i)
        return any(ch.isalpha() for ch in word) and word.casefold() not in english

    outside = [(i, j) for i, j in pair.links if i not in inside and content(i)]
    elsewhere = {j for _, j in outside} - aligned
    common = ({j for i, j in outside if src_token(pair, i)[:1].islower()}
              if lang in CAPITALIZED_NOUNS else set())
    linked = [k for k in range(first, last + 1) if k in aligned]
    if not linked:
        return first, last

    def parted(a: int, b: int) -> bool:  # tokens a..b-1 are a gap
        return len(elsewhere.intersection(range(a, b))) >= GAP

    pieces = [[linked[0]]]
    for before, k in itertools.pairwise(linked):
        if parted(before + 1, k):
            pieces.append([])
        pieces[-1].append(k)
    piece = pieces[0] if len(pieces) == 1 else _best_piece(pair, mention, pieces, name)
    if piece is None:
        return first, last

    def goes_on(k: int) -> bool:  # a capital beside the piece: the name may go on there
        return first <= k <= last and tgt_token(pair, k)[:1].isupper() and k not in common

    start = first if (piece is pieces[0] and not parted(first, piece[0])
                      or goes_on(piece[0] - 1)) else piece[0]
    end = last if (piece is pieces[-1] and not parted(piece[-1] + 1, last + 1)
                   or goes_on(piece[-1] + 1)) else piece[-1]
    return start, end


def _best_piece(pair: Pair, mention: Sequence[int], pieces: list[list[int]], name: str
                ) -> list[int] | None:
    """Of two pieces or more, the one that alone has a capital inside the sentence or an
    acronym, else the most tokens aligned with the name, else alone spells a word of it;
    None where there is one piece or none of these decides."""
    if len(pieces) < 2:
        return None
    aligned = aligned_tokens(mention, pair.links)
    words = set(name_tokens(name))  # case-folded already

    def capital(k: int) -> bool:  # an acronym anywhere, a capital not a sentence's first
        word = tgt_token(pair, k)
        return word[:1].isupper() and (
            word.isupper() and len(word) > 1
            or k > 0 and tgt_token(pair, k - 1) not in SENTENCE_ENDS)

    def evidence(piece: list[int]) -> tuple[bool, int, bool]:
        return (any(capital(k) for k in piece),
                len(aligned.intersection(piece)),
                any(tgt_token(pair, k).casefold() in words for k in piece))

    ranked = sorted((evidence(p), p) for p in pieces)
    (best, piece), (second, _) = ranked[-1], ranked[-2]
    return piece if best > second else None


def densest_piece(pair: Pair, mention: Sequence[int], tokens: range, name: str
                  ) -> tuple[int, int]:
    """Chinese: the piece of an aligned span between breaks (`PIECE_BREAKS`) with the most
    tokens aligned with the name, the later on a tie, since Chinese puts a phrase's head
    last (`同時 對 ... 的 法國 數字 委員會` -> `法國 數字 委員會`). A break is a word of its own
    in jieba's cut of the sentence (learned pieces cut `协和` of `北京协和医院`, Peking Union
    Medical College Hospital, and `和平`, peace, as `协 和` and `和 平`), and `和` is no break
    where the name says `and` and tokens on both sides are aligned with it
    (`人力资源和社会保障局`, Human Resources and Social Security)."""
    if not any(folded(tgt_token(pair, k)) in PIECE_BREAKS for k in tokens):
        return tokens[0], tokens[-1]
    words = word_spans(pair.tgt_text)
    aligned = aligned_tokens(mention, pair.links)
    said_and = says_and(name)

    def breaks(k: int) -> bool:
        token = folded(tgt_token(pair, k))
        return (token in PIECE_BREAKS and pair.tgt[k] in words and not (
            said_and and token in CONJUNCTIONS
            and any(j in aligned for j in tokens if j < k)
            and any(j in aligned for j in tokens if j > k)))

    pieces = _pieces(tokens, breaks)
    if len(pieces) < 2:
        return tokens[0], tokens[-1]
    best = max(pieces, key=lambda p: (len(aligned.intersection(p)), p[0]))
    return best[0], best[-1]


# The owner English names after a body's name (`of the Central Military Commission`, `of
# Vietnam`), also after another body's it shares (`Ministry of Education` + `and Ministry of
# Justice of the US`): capitalized words, `of`, `and` and `the` between them.
OWNER = regex.compile(r"(?:\s+and\s+(?:the\s+)?\p{Lu}[\w’'.-]*(?:\s+of\s+\p{Lu}[\w’'.-]*)?)?"
                      r"(?:(?<=\bof)|\s+of)\s+(?:the\s+)?(\p{Lu}[\w’'.-]*"
                      r"(?:\s+(?:(?:of|and)\s+)?(?:the\s+)?\p{Lu}[\w’'.-]*)*)")


def with_owner(pair: Pair, end: int, at: int) -> int:
    """The start of a Chinese organization's span with its owner, where English names the owner
    after the name (NER's `Department of Education` + `of Guangxi Zhuang Autonomous Region`,
    `Fire Department of` + `the Ministry of Public Security`) and the words aligned with it
    (one other word of Han characters between, not a particle) end right before the span, or
    in the token the span begins in: Chinese writes the owner first, as part of the name
    (`广西壮族自治区教育厅`, `公安部消防局`, `美国教育部`). It begins at a word's start
    (`流动站`, not `站`)."""
    found = OWNER.match(pair.src_text, end)
    owner = set() if not found else aligned_tokens(covered(pair.src, *found.span(1)),
                                                   pair.links)
    if not owner:
        return at
    words = word_spans(pair.tgt_text)

    def between(k: int) -> bool:  # Han characters, not a particle standing as a word (`的`)
        word = tgt_token(pair, k)
        return bool(regex.fullmatch(r"\p{Han}+", word)) and not (
            word in FUNCTION_CHARACTERS and pair.tgt[k] in words)

    first = sum(1 for s, _ in pair.tgt if s < at)  # the tokens before the span or begun so
    while first > 0 and (first - 1 in owner or first > 1 and first - 2 in owner
                         and between(first - 1)):
        first -= 1
    if not any(k in owner for k in range(first, len(pair.tgt)) if pair.tgt[k][0] < at):
        return at
    start = pair.tgt[first][0]
    return next((a for a, b in words if a < start < b), start)


def words_outside(pair: Pair, mention: Sequence[int]) -> list[str]:
    """The English sentence's words outside a name, case-folded."""
    inside = set(mention)
    return [word.casefold() for i in range(len(pair.src))
            if i not in inside and (word := src_token(pair, i)).isalpha()]


def entities_named(kb: KnowledgeBase, name: str, kind: str | None = None,
                   but: str = "") -> list[KbEntity]:
    """The KB entities of type `kind` (else of the translated types but `but`) whose name or
    an alias is `name`: the link candidates a translated name's labels come from."""
    found = {f.entity.kb_id: f.entity for how in ("name", "alias")
             for f in kb.by_key(name, how, kind)
             if kind is not None or f.entity.type not in ("PER", but)}
    return list(found.values())


def with_labels(kb: KnowledgeBase, entities: Iterable[KbEntity], lang: str
                ) -> list[tuple[KbEntity, list[str]]]:
    """Each entity with its labels and aliases in `lang` (the KB's label codes for it)."""
    codes = label_codes(lang)
    return [(e, kb.foreign_labels(e.kb_id, codes)) for e in entities]


# Words the KB writes after a natural feature's one-word name (`Nile River`), which English
# often leaves out (`the Nile`); the KB keeps no one-word alias (`Amazon` would be a place).
FEATURE_WORDS = ("River", "Lake", "Sea", "Island", "Islands", "Mountains", "Peninsula",
                 "Desert")


# What a place is called formally before the name translations write alone (`City of Buenos
# Aires`: `布宜諾斯艾利斯`, `Stadt Buenos Aires`; `Kingdom of France`: `法國`).
FORMAL_OF = regex.compile(
    r"^(?:the\s+)?(?:(?:Federal|People\s*['\u2019]s|Islamic|Democratic|Socialist|United|Grand)\s+)*"
    r"(?:City|Town|Kingdom|Republic|Empire|Duchy|Principality|State|Province|County|"
    r"Commonwealth|Emirate|Sultanate|Municipality|Prefecture|Governorate)\s+of\s+(?:the\s+)?"
    r"(\p{Lu}.*)$")


def translated_labels(kb: KnowledgeBase, name: str, kind: str, lang: str) -> tuple[str, ...]:
    """What `project_entity` looks for: the labels and aliases in `lang` of the KB entities
    of type `kind` named `name`; where there is none, those of the other translated types
    named so (a place named for its government, `Beijing said`, or a team for its country,
    is translated as the place is); where these have no label in `lang`, a place's are those
    of the natural features named so with one of `FEATURE_WORDS` (`Nile`: `Nile River`'s
    `尼羅河`; `Kamchatka`, a region with no Chinese label: `Kamchatka Peninsula`'s); and
    where a place's formal name has none, those of the name it is formally called
    (`FORMAL_OF`)."""
    entities = entities_named(kb, name, kind) or (
        entities_named(kb, name, but=kind) if kind != "PER" else [])
    forms = [form for _, found in with_labels(kb, entities, lang) for form in found]
    if not forms and kind == "LOC" and len(name.split()) == 1:
        features = [e for word in FEATURE_WORDS for e in entities_named(kb, f"{name} {word}", kind)]
        forms = [form for _, found in with_labels(kb, features, lang) for form in found]
    if not forms and kind == "LOC" and (formal := FORMAL_OF.match(name)):
        return translated_labels(kb, formal[1], kind, lang)
    return tuple(dict.fromkeys(forms))
