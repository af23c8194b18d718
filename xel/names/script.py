"""What every script family shares: romanization, spelling similarity, and the `Family` base.

A `Family` holds how names are written in one family of scripts (clitics written onto names,
character-level span fixes for unspaced scripts, which forms of a name are one name). Its
defaults suit spaced alphabets; `latin`, `cyrillic`, `arabic`, `hebrew`, `han`, `japanese` and
`hangul` override what their names need, and `xel.names.families.family` picks the one for a
language. Span rules take a `Scorer` (in practice `xel.names.match.NameMatcher`), so the
families never import the matcher that holds them.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Sequence
from typing import Protocol

import icu
import regex
from rapidfuzz.distance import Indel

from xel.names.sound import plain, sounds_alike

# A character used in this many transliterated names the model learned from is name-like: in
# Chinese `卡` (2408), `普` (1239), `川` (25) are; `總` (1), `統` (0), `名` (1) are not.
NAME_CHAR_MIN = 20

Span = tuple[int, int]
# Between the parts of one name: spaces, dashes, middle dots, katakana `・`.
SEPARATORS = regex.compile(r"[\s\p{Pd}\u00b7\u30fb\u2027\u2022.]+")
# A prefix may be joined to the name by a hyphen (isiZulu `u-Trump`).
HYPHENS = "-\u2010"
# A reading must spell a whole name this closely: long strings are alike by chance more easily
# (`kawaieyasu` is 0.83 of `tokugawaieyasu`).
WHOLE_NAME_MIN = 0.9


@functools.cache
def transliterator(rules: str) -> icu.Transliterator:
    return icu.Transliterator.createInstance(rules)


def to_latin(text: str) -> str:
    """Lower-case ASCII Latin form of a name in any script (ICU `Any-Latin; Latin-ASCII`)."""
    latin = transliterator("Any-Latin; Latin-ASCII; Lower").transliterate(text)
    return "".join(ch for ch in latin if not unicodedata.combining(ch))


def harmony(classes: dict[str, str], *endings: str) -> tuple[str, ...]:
    """Endings in every form vowel harmony and consonant assimilation give them: each capital
    in an ending stands for one letter of its class (with `{"I": "ıiuü"}`, the Azerbaijani
    genitive `nIn` is `nın`, `nin`, `nun`, `nün`)."""
    out: set[str] = set()
    for ending in endings:
        forms = {""}
        for ch in ending:
            forms = {f + v for f in forms for v in classes.get(ch, ch)}
        out |= forms
    return tuple(sorted(out))


def is_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(
        unicodedata.name(ch, "").startswith("LATIN") for ch in letters
    )


def orthographic(english: str, latin: str, abjad: bool = False, syllabic: bool = False) -> float:
    """Edit similarity tolerant of inflection (`trampa` ~ `tramp`) and, for abjads, vowels.

    Short words must be the same or share their consonants (`Li` ~ `Lee`, `Ed` !~ `Ad`); in
    syllabic scripts, where every character reads as a short word (`和` he, `后` hou), the same.
    """
    if not english or not latin:
        return 0.0
    if min(len(english), len(latin)) <= 2:
        if english == latin:
            return 1.0
        if syllabic:
            return 0.0
        same = english[0] == latin[0] and skeleton(english) == skeleton(latin)
        return 0.8 if same else 0.0
    best = Indel.normalized_similarity(english, latin)
    if len(english) >= 4 and 0 < len(latin) - len(english) <= 3:
        best = max(best, Indel.normalized_similarity(english, latin[:len(english)]) - 0.05)
    if abjad:
        best = max(best, Indel.normalized_similarity(skeleton(english), skeleton(latin)))
    return best


def skeleton(word: str) -> str:
    """Consonants only: abjads (Arabic, Hebrew) write few vowels, and w/y double as vowels."""
    return "".join(ch for ch in word if ch not in "aeiouwyh'")


# Zawgyi Burmese writes the letters na and nya with code points Unicode gives to marks (`ႏ` in
# `ႏွင့္`, and): letters that begin a syllable, not marks of the one before.
_ZAWGYI_LETTERS = frozenset("\u108f\u106a\u106b")


def is_mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M" and ch not in _ZAWGYI_LETTERS


def whole_characters(text: str, start: int, end: int) -> Span:
    """Never cut a letter from its combining marks (a learned Thai piece may begin with `ั`);
    a mark after a space begins the word (Zawgyi Burmese writes `ေ` before its consonant)."""
    while start > 0 and is_mark(text[start]) and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and is_mark(text[end]):
        end += 1
    return start, end


_LATIN_LETTER = regex.compile(r"[\p{Latin}\p{N}]")
# The Latin word just before a position (one space between), and just after one.
_LATIN_WORD_BEFORE = regex.compile(r"(?<![\p{Latin}'-])([\p{Latin}'-]+) $")
_LATIN_WORD_AFTER = regex.compile(r" ([\p{Latin}'-]+)(?![\p{Latin}'-])")


def whole_latin_words(text: str, start: int, end: int, english: Sequence[str] = ()) -> Span:
    """In unspaced scripts, learned pieces can cut a Latin word (`raig Halket` from
    `Craig Halkett`): a span edge inside a Latin word moves out to the word's edge. A name
    kept in Latin is taken whole: the Latin words beside the span that spell the rest of the
    English name join it (`Gay` to `Lindsay Gay`)."""
    if start < end and _LATIN_LETTER.match(text[start]):
        while start > 0 and _LATIN_LETTER.match(text[start - 1]):
            start -= 1
    if start < end and _LATIN_LETTER.match(text[end - 1]):
        while end < len(text) and _LATIN_LETTER.match(text[end]):
            end += 1
    if start >= end or not english:
        return start, end
    wanted = {t.casefold() for t in english}
    while (m := _LATIN_WORD_BEFORE.search(text, 0, start)) and m.group(1).casefold() in wanted \
            and m.group(1).casefold() not in text[start:end].casefold().split():
        start = m.start(1)
    while (m := _LATIN_WORD_AFTER.match(text, end)) and m.group(1).casefold() in wanted \
            and m.group(1).casefold() not in text[start:end].casefold().split():
        end = m.end(1)
    return start, end


class Scorer(Protocol):
    """What span rules ask of a language's name matcher: how a text reads in Latin, how close
    it is to an English name token, and whether its characters write transliterated names."""

    min_similarity: float

    @property
    def knows_names(self) -> bool: ...

    def latin(self, text: str) -> str: ...

    def score(self, english: str, target: str) -> float: ...

    def name_like(self, text: str) -> bool: ...

    def char_count(self, ch: str) -> int: ...


class Family:
    """How names are written in a family of scripts; the defaults suit spaced alphabets."""

    name = "generic"
    # One-letter conjunctions and prepositions written onto the next word (`وجاستن`).
    proclitics = ""
    # Particles written onto the last word of a name (Korean `트럼프는`).
    enclitics: tuple[str, ...] = ()
    # Scripts that write few vowels: spelling is also compared on consonants.
    abjad = False
    # Characters of transliterated names are counted per form: Han also counts a traditional
    # character under its simplified form.
    han = False
    # Every character is a syllable, so short romanizations abound and must match exactly.
    syllabic = False
    # Names are written by sound and read out by `sound_readings`, so projection also finds a
    # name's tokens by how they sound (scripts with no transliteration model of their own).
    by_sound = False
    # Names are written as British English says them, an `r` after a vowel unsaid (Dhivehi
    # `ޖެރާޑް`, Gerrard); elsewhere `Mark` would sound like `Mike`.
    non_rhotic = False

    # Per language (ISO 639-3, without script): endings written onto a name (`Trumpin`,
    # `Bretta`, `Байдена`), tried longest first, and final letters an ending may have replaced
    # (`Therese` for `Theresa`: the stem `Theres` plus `a`).
    suffixes: dict[str, tuple[str, ...]] = {}
    restores: tuple[str, ...] = ()
    # How many endings may be stacked on a name (Malayalam `മൊളിനാരി-യെ-യാണ്`).
    stacked = 1
    # Per language: prefixes written onto a name (Bantu noun-class, possessive and copulative
    # prefixes: isiXhosa `uTrump`, `kukaKavanaugh`), tried longest first, where the family can
    # tell where they end (`prefix_ends`).
    prefixes: dict[str, tuple[str, ...]] = {}
    # Per language: titles written before a name and aligned with it, which the name leaves
    # out (Khmer `លោក ដូណាល់ត្រាំ`, Mr Donald Trump), tried longest first.
    titles: dict[str, tuple[str, ...]] = {}

    def __init__(self, lang: str, unspaced: bool) -> None:
        self.lang = lang
        self.code = lang.split("-")[0]
        self.unspaced = unspaced
        self._readings: dict[str, list[str]] = {}
        self._forms: dict[str, list[str]] = {}

    @property
    def model_key(self) -> str | None:
        """The shipped transliteration model that reads this script (`xel.names.translit`)."""
        from xel.languages import language
        from xel.names.translit import model_key

        return model_key(language(self.lang).script)

    @property
    def reads_latin(self) -> bool:
        """True where a Latin word in the text is a respelling for the model to read, not a
        copy of the English name."""
        return False

    def base_forms(self, word: str) -> list[str]:
        """The word and the forms it may be inflected from (`Trumpin`: `Trump`, `Trumpi`;
        `kaTrump`: `Trump`): a name is compared on these, while the query keeps the document's
        own string."""
        forms = [word]
        if self.proclitics and len(word) > 3 and word[0] in self.proclitics:
            forms.append(word[1:])
        forms.append(self.unprefixed(word))
        forms = list(dict.fromkeys(forms))
        stems = list(forms)
        endings = sorted(self.suffixes.get(self.code, ()), key=len, reverse=True)
        for _ in range(self.stacked):
            found = []
            for w in stems:
                folded = w.casefold()
                found += [w[:-len(e)] for e in endings
                          if folded.endswith(e) and len(w) - len(e) >= 2]
            forms += [f for stem in found for f in (stem, *(stem + v for v in self.restores))]
            stems = found
        return list(dict.fromkeys(forms))

    def syllables(self, part: str) -> list[str]:
        """A part of a name cut where an unspaced script may join it to the next into one
        English token; scripts that mark no syllables keep it whole."""
        return [part]

    def joined_ending(self, word: str) -> str | None:
        """The name before an ending joined to it by punctuation (Turkish `Trump'ın`), or None
        where the word has none; families that write such endings say how."""
        return None

    @property
    def prefix_table(self) -> tuple[str, ...]:
        """This language's prefixes, longest first."""
        return tuple(sorted(self.prefixes.get(self.code, ()), key=len, reverse=True))

    def unprefixed(self, word: str) -> str:
        """The word without the prefixes written onto it (Shona `kwaVaTrump`, isiXhosa
        `ezinjengoJanet`: Trump, Janet); the word itself where it has none."""
        cut = self.prefixed(word)
        while cut:
            word = word[cut:]
            word = word[1:] if word[:1] in HYPHENS else word
            cut = self.prefixed(word)
        return word

    def prefixed(self, word: str, depth: int = 0) -> int:
        """Length of the prefixes `word` starts with where they end at the name (`prefix_ends`),
        up to three in a row (`ezi` + `njengo` + `Janet`); 0 where it has none."""
        folded = word.casefold()
        for p in self.prefix_table:
            if not folded.startswith(p):
                continue
            if self.prefix_ends(word, len(p)):
                return len(p)
            more = self.prefixed(word[len(p):], depth + 1) if depth < 2 else 0
            if more:
                return len(p) + more
        return 0

    def prefix_ends(self, word: str, at: int) -> bool:
        """True where a prefix written onto a name may end at `at`: never by default, since
        a script without letter case does not show where the name begins."""
        return False

    def ignorable(self, piece: str) -> bool:
        """True for text that never spells a name on its own (Chinese `的`, Japanese kana
        endings), whatever it sounds like."""
        return False

    def readings(self, piece: str) -> list[tuple[str, Callable[[str], str]]]:
        """How else than ICU's romanization the text may be read, each with the folding the
        English token needs to compare with it (Sino-Korean readings of Han characters)."""
        return []

    def skeleton(self, text: str) -> str:
        """What two spellings of a name must share to be one: all of it; abjads leave out the
        letters that write vowels, which languages of one script write differently (Arabic
        `ترامب`, Urdu `ٹرمپ`)."""
        return text

    def model_inputs(self, token: str) -> list[str]:
        """What the script's transliteration model reads for a token: the token, unless the
        family writes names its model never learned to read (Bulgarian `Тръмп` is read as
        Russian `трамп`); several where a spelling is ambiguous."""
        return [token]

    @property
    def sound_consonants(self) -> int:
        """How many consonants a reading must share, in order, with an English token to sound
        like it when their vowels differ: two in abjads, which write few vowels (Urdu `ایلن`,
        Alan), else three."""
        return 2 if self.abjad else 3

    def sound_readings(self, token: str) -> list[str]:
        """Latin readings of a token for comparing by sound with the English name
        (`xel.names.sound`), where the family writes names by sound (Greek, Bulgarian)."""
        return []

    def forms_of(self, word: str) -> list[str]:
        """`base_forms`, each word's worked out once per family."""
        if word not in self._forms:
            self._forms[word] = self.base_forms(word)
        return self._forms[word]

    def read_out(self, forms: Sequence[str]) -> list[str]:
        """The sound readings of every form, each form read once per family (projection asks
        about one word for every English token)."""
        out = []
        for form in forms:
            if form not in self._readings:
                self._readings[form] = self.sound_readings(form)
            out += self._readings[form]
        return out

    def sounds_like(self, forms: Sequence[str], english: str) -> bool:
        """A projected part (its base forms) reads by sound as an English token
        (`xel.names.sound`), by the family's `sound_readings`, or reads as its very letters;
        where only consonants agree, at least `sound_consonants` of them, in order."""
        readings = self.read_out(forms)
        letters = plain(english)  # none in `2&1`, whose empty reading is no name's
        if len(letters) >= 2 and letters in readings:  # `ኡን`, un: letter for letter
            return True
        return bool(readings) and sounds_alike(readings, english, self.sound_consonants,
                                               self.non_rhotic)

    def char_forms(self, ch: str) -> tuple[str, ...]:
        """The forms of a character under which name dictionaries may count it."""
        return (ch,)

    def same_form(self, text: str) -> str:
        """The text as a model's forms are compared with it (`威尔` is the model's `威爾`)."""
        return text

    def titled(self, projection: str) -> bool:
        """The projection carries a title or rank besides the name (rules where a script
        writes them joined to it)."""
        return False

    def runs_on(self, text: str, start: int, end: int,
                count: Callable[[str], int]) -> str | None:
        """A character beside text[start:end] that may be more of the name (scripts that
        write a name as an unbroken run of characters), or None; `count` says in how many
        transliterated names the models learned from a character is written."""
        return None

    def read_exactly(self, text: str, english: Sequence[str]) -> list[Span]:
        """Names the text writes in a way that reads exactly as the English name, found
        without the aligner: the most certain find (Japanese glosses a rare name with its
        kana, `昭尹（あきただ）`; a Chinese name's pinyin is its English, `习近平`)."""
        return []

    def spells(self, form: str, english: str) -> bool:
        """Whether a model's form may stand for the whole English token."""
        return True

    def heard(self, text: str, spans: Sequence[Span], token: str,
              count: Callable[[str], int]) -> list[tuple[int, int]]:
        """Runs of tokens (first, last) that read as an English token by sound where no
        spelling matched it, in scripts that write a foreign name one syllable per sound
        (Chinese); `count` says in how many names the models learned a character is written."""
        return []

    def known_english(self, name: str) -> str | None:
        """The English a dictionary of the script's names gives a written name: the round
        trip's most certain answer (`足利義満`: Yoshimitsu Ashikaga)."""
        return None

    def lexicon_digest(self) -> str:
        """What a stage's signature records of that dictionary ('' where there is none)."""
        return ""

    def edges(self, text: str, start: int, end: int, english: Sequence[str],
              matcher: Scorer) -> Span:
        """Leave clitics written onto the name out of its span."""
        if not english:
            return start, end
        start += self.title(text[start:end])
        start += self.proclitic(text[start:end], english[0], matcher)
        start += self.prefix(text[start:end], english[0], matcher)
        end -= self.enclitic(text[start:end], english[-1], matcher)
        return start, end

    def title(self, text: str) -> int:
        """Length of a title the span starts with, and the space after it, where a name
        follows it."""
        for title in sorted(self.titles.get(self.code, ()), key=len, reverse=True):
            if text.startswith(title):
                rest = text[len(title):]
                name = rest.lstrip(" \u200b")
                return len(text) - len(name) if name else 0
        return 0

    def proclitic(self, text: str, first_english: str, matcher: Scorer) -> int:
        """1 where the name starts with a proclitic that spells the name worse than without it."""
        word = text.split()[0] if text.split() else ""
        if len(word) < 3 or word[0] not in self.proclitics:
            return 0
        # The model writes the name so, with the letter (`كريستين`, Christine), not without it.
        if matcher.score(first_english, word) >= 1.0 > matcher.score(first_english, word[1:]):
            return 0
        # Vowels decide here (`وليد` is Walid), so the skeleton comparison of abjads is not used.
        without = orthographic(first_english, matcher.latin(word[1:]))
        return int(without > orthographic(first_english, matcher.latin(word)))

    def prefix(self, text: str, first_english: str, matcher: Scorer) -> int:
        """Length of the prefixes the name starts with (`uTrump`, `ka-Trump`), unless the name
        is spelled better with them (`LeBron`)."""
        word = text.split()[0] if text.split() else ""
        bare = self.unprefixed(word)
        if bare == word or matcher.score(first_english, bare) < matcher.score(first_english,
                                                                               word):
            return 0
        return len(word) - len(bare)

    def enclitic(self, text: str, last_english: str, matcher: Scorer) -> int:
        """Length of a particle ending the name unless the name is clearly spelled better with it
        (`멘가` is Menga, not `멘` + `가`); in scripts written by sound, also where the name
        without it sounds like the English (`ထရမ္ပ္ႏွင့္`, Trump and)."""
        words = text.split()
        if not words:
            return 0
        word = words[-1]
        for particle in self.enclitics:
            stem = word[:-len(particle)]
            if word.endswith(particle) and stem:
                if matcher.score(last_english, stem) >= matcher.score(last_english, word) - 0.1:
                    return len(particle)
                return len(particle) if self.by_sound and self.sounds_like([stem],
                                                                             last_english) else 0
        return 0

    def characters(self, text: str, start: int, end: int, english: Sequence[str],
                   matcher: Scorer, *, enabled: bool, before_bracket: bool,
                   aligned: Span | None = None, claimed: frozenset[int] = frozenset()) -> Span:
        """Character-level fixes of a span (`enabled` by `project.characters`; `aligned` is the
        paper's span, `claimed` the characters aligned with other English words): in unspaced
        scripts a Latin word inside the text stays whole."""
        if enabled and self.unspaced:
            return whole_latin_words(text, start, end, english)
        return start, end

    def inflection_key(self, text: str) -> str:
        """Forms of one name that differ only in endings (`Трамп`, `Трампа`) share this key;
        in unspaced scripts a longer form is another word run on, so the text is its own key."""
        if self.unspaced:
            return text
        return " ".join(t[:4] for t in text.casefold().split())


class Abjad(Family):
    """Scripts that write few vowels (Syriac, Thaana; Arabic and Hebrew have their own)."""

    name = "abjad"
    abjad = True
