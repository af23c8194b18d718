"""Japanese: foreign names are written in katakana, each part an unbroken run (`ジャスティン`),
the parts joined by `・`, `＝`, a space or a Latin initial; learned pieces split the runs, so
spans are fixed to whole katakana parts."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence

import regex

from xel.names.han import HONORIFICS, compact, han_readings, han_run
from xel.names.lexicon import JAPANESE, NameLexicon, lexicon_digest, read_lexicon
from xel.names.morphemes import janome
from xel.names.script import (
    WHOLE_NAME_MIN,
    Family,
    Scorer,
    Span,
    orthographic,
    transliterator,
    whole_latin_words,
)
from xel.names.sound import sound_key

# A lone `ノ`, `ヶ` or `ケ` between kanji is the particle of a kanji name (`西ノ海`, `竹ノ内`).
_KATAKANA_RUN = regex.compile(
    r"(?![ノヶケ](?<=\p{Han}.)(?=\p{Han}))[\p{Katakana}\u30fc]*\p{Katakana}[\p{Katakana}\u30fc]*")
# Between the katakana parts of one name: `・`, `=`/`＝` (`ブラック＝ダレー`), a space, or a
# Latin initial (`ジョージ・W・ブッシュ`).
_KATAKANA_JOINER = regex.compile(
    r"[\u30fb\uff65=\uff1d]|[ \u3000]|[\u30fb\uff65]\p{Latin}\.?[\u30fb\uff65]")


def katakana_word(text: str, start: int, end: int) -> tuple[int, int]:
    """Japanese writes foreign names in katakana, each part an unbroken run (`ジャスティン`,
    `トーマス`, joined by `・`): a span touching katakana is cut to the katakana parts it
    touches, each taken whole (learned pieces split them: `スティン・トーマス組` becomes
    `ジャスティン・トーマス`)."""
    runs = [m for m in _KATAKANA_RUN.finditer(text) if m.start() < end and m.end() > start]
    if not runs:
        return start, end
    first, last = runs[0].start(), runs[0].end()
    for run in runs[1:]:  # parts of one name are joined by `・` (or nothing) only
        if text[last:run.start()] not in ("", "\u30fb", "\uff65", "="):
            break
        last = run.end()
    return first, last


def katakana_name(text: str, start: int, end: int, n_english: int) -> tuple[int, int]:
    """`katakana_word`, then on to neighbouring katakana parts of the same name (joined by
    `・`, `＝`, a space or a Latin initial) until there are as many parts as English tokens:
    `シュバルツ` (Dave Schwartz) becomes `デーブ・シュバルツ`; `ポール マナフォート` stays whole."""
    runs = list(_KATAKANA_RUN.finditer(text))
    touched = [k for k, r in enumerate(runs) if r.start() < end and r.end() > start]
    if not touched:
        return start, end
    first, last = katakana_word(text, start, end)
    inside = [k for k in touched if runs[k].start() >= first and runs[k].end() <= last]
    a, b = inside[0], inside[-1]

    def joined(k: int) -> bool:  # run k and run k + 1 are parts of one name
        return bool(_KATAKANA_JOINER.fullmatch(text, runs[k].end(), runs[k + 1].start()))

    def parts() -> int:  # a Latin initial between runs is a part too
        return b - a + 1 + sum(bool(regex.search(r"\p{Latin}", text[runs[k].end():
                                                                    runs[k + 1].start()]))
                               for k in range(a, b))

    while parts() < n_english:
        if b + 1 < len(runs) and joined(b):
            b += 1
        elif a > 0 and joined(a - 1):
            a -= 1
        else:
            break
    return runs[a].start(), runs[b].end()



_KANA_ENDING = regex.compile(r"\p{Hiragana}+")
_KANJI = regex.compile(r"\p{Han}")
# Words written before a name (ranks, offices, kin) and after one (titles, honorifics, what a
# name is of): never part of it. Longest first.
_BEFORE = sorted([
    "太政大臣", "左大臣", "右大臣", "内大臣", "権大納言", "大納言", "中納言", "関白", "摂政",
    "参議", "重臣", "家臣", "家老", "将軍", "執権", "藩主", "監督",
    "祖父", "祖母", "長男", "次男", "三男", "嫡男", "養子", "娘",
    "父", "母", "兄", "弟", "妻", "姉", "妹", "子",
    "後妻", "正室", "側室", "皇后", "中宮", "女御",
    "法名", "法号", "戒名", "通称", "幼名", "本名", "初名", "実名", "旧名", "俗名", "別名",
    "雅号",  # the kind of name that follows
], key=len, reverse=True)
# A generation before a name (`初代`, `三代目`, `代目` after `3`, `三代丈庵`, `代` of `第40代天武`):
# never part of it.
_GENERATION = regex.compile(r"^(?:初代|[一二三四五六七八九十]*代目?)")
# A counter after a number (`1912年`, `40代`) and a kin word after a full name (`室`, wife;
# `女`, daughter): never part of it.
_COUNTERS = "年月日代世歳"
# A princely house before a prince's name (`有栖川宮`, `伏見宮`).
_HOUSE = regex.compile(r"\p{Han}{1,4}?宮[ \u3000]?")
_HOUSE_BEFORE = regex.compile(r"\p{Han}{1,4}宮[ \u3000]?$")
# How common given names end (`勝右衛門`, `九郎兵衛`, `小太郎`): such a name is longer.
_NAME_ENDINGS = ("衛門", "兵衛", "太郎", "次郎", "三郎", "四郎", "五郎", "九郎", "十郎", "之助",
                 "之丞", "之進")
_KIN_AFTER = "室女"
_AFTER = sorted([
    "天皇", "上皇", "法皇", "上人", "御前", "親王", "内親王", "法師",
    "禅師", "将軍", "大臣", "監督", "首相", "総理", "外相", "蔵相",
    "大統領", "国家主席", "主席", "議長", "長官", "社長", "会長", "選手", "内閣",
    "政権", "一族", "一門", "流", "派", "藩", "軍", "邸", "卿", "天皇朝", "天皇期",
    "様", "殿", "正室", "側室", "女王", "女御",
], key=len, reverse=True)
# Before a title only: former, then (`安倍晋三元首相`).
_FORMER = "元前現"


def whole_kanji_run(text: str, start: int, end: int, english: Sequence[str],
                    claimed: frozenset[int] = frozenset()) -> Span:
    """The whole run of kanji a span lies in, ranks before and titles after it left out,
    where that is a name's length: up to three kanji for a one-word English name, six for
    more. Japanese text sets a name off with kana or punctuation (`行円の`, `、虔儒。`), and
    aligners link a rare name's kanji one by one (`虔`, `行`). Kanji `claimed` by (aligned
    with) other English words are not taken into a span of two or more (`作者` of
    `作者紀淑望`, "the author"); a lone kanji is too little of a name to trust the aligner's
    other links next to it (`光` of `光仁`). Ranks and titles the aligner took in go
    whatever the run's length, and `後` (Go-) of a posthumous name comes in (`後深草`)."""
    if start >= end or not all(_KANJI.fullmatch(ch) for ch in text[start:end]):
        return start, end
    names = [t for t in english if t.lower() != "no"]
    lo, hi = _name_within(text, *_kanji_run(text, start, end), names)
    if end <= lo or start >= hi:
        return _later(text, start, end, names)
    lo, house = _with_house(text, lo, hi)
    ending = text[lo:hi].endswith(_NAME_ENDINGS)
    if hi - lo > (3 if len(names) == 1 else 6) + house + (3 if ending else 0):
        lo, hi = _name_within(text, start, end, names)
        return _later(text, lo, hi, names) if lo < hi else (start, end)
    if house or ending:  # the run is a name as a whole, whatever else the aligner linked
        return lo, hi
    s, e = max(start, lo), min(end, hi)
    while s > lo and (s - 1 not in claimed or e - s < 2):
        s -= 1
    while e < hi and (e not in claimed or e - s < 2):
        e += 1
    return _later(text, s, e, names)


def _kanji_run(text: str, start: int, end: int) -> Span:
    """[start, end) grown to the whole run of kanji around it."""
    while start > 0 and _KANJI.fullmatch(text[start - 1]):
        start -= 1
    while end < len(text) and _KANJI.fullmatch(text[end]):
        end += 1
    return start, end


def _with_house(text: str, lo: int, hi: int) -> tuple[int, int]:
    """Where a prince's name starts, and how long the princely house written as part of it
    is (`有栖川宮織仁親王`, `八条宮 智仁親王`, also across a space); 0 for other names."""
    if not text.startswith(("親王", "内親王", "王", "女王"), hi):
        return lo, 0
    if inside := _HOUSE.match(text, lo, hi):
        return lo, len(inside[0])
    before = _HOUSE_BEFORE.search(text[max(0, lo - 6):lo])
    return (lo - len(before[0]), len(before[0])) if before else (lo, 0)


def _name_within(text: str, s: int, e: int, names: Sequence[str]) -> Span:
    """The part of the kanji `text[s:e]` a name can be: without a number's counter or a
    generation before it (`1912年`, `第40代`, `初代`), ranks and kinds of name before it,
    titles and a kin word after it (`藤原宗俊室`, wife of Fujiwara no Munetoshi)."""
    run = text[s:e]
    if generation := _GENERATION.match(run):
        s, run = s + generation.end(), run[generation.end():]
    elif s > 0 and text[s - 1].isdigit() and run[:1] in _COUNTERS:
        s, run = s + 1, run[1:]
    unranked = _unranked(run, names)
    s, run = s + len(run) - len(unranked), _untitled(unranked, names)
    if len(names) >= 2 and len(run) >= 4 and run[-1] in _KIN_AFTER and _surname(run, names):
        run = run[:-1]
    return s, s + len(run)


def _later(text: str, start: int, end: int, names: Sequence[str]) -> Span:
    """`後` (Go-, "the later") before a name whose English starts with Go (`後深草`,
    Gofukakusa; `後藤`, Goto) is part of it."""
    if start > 0 and text[start - 1] == "後" and any(
            t.lower().startswith("go") for t in names):
        return start - 1, end
    return start, end


def one_kanji_run(text: str, start: int, end: int) -> Span:
    """A name in kanji has no kana inside it: a span with a kana ending between kanji
    (`西郊とも称`, "also called Saiko") is cut to its longest kanji run (the first of equals)."""
    runs = [(start + m.start(), start + m.end())
            for m in regex.finditer(r"[\p{Han}\u3005]+", text[start:end])]
    if len(runs) < 2 or not _KANA_ENDING.search(text, runs[0][1], runs[-1][0]) \
            or regex.search(r"\p{Katakana}", text[start:end]):
        return start, end
    return max(runs, key=lambda r: (r[1] - r[0], -r[0]))


def _unranked(run: str, names: Sequence[str]) -> str:
    """A kanji run without the rank, office or kind of name before it; a kin word goes only
    before a surname read like one of the English `names` (`娘藤原慶子`, not `子` of `子規`)."""
    for word in _BEFORE:
        rest = _strip(run, [word], at_end=False)
        if rest != run and len(rest) >= 2 and (len(word) > 1 or _surname(rest, names)):
            return rest
    return run


def _untitled(name: str, english: Sequence[str] = ()) -> str:
    """A kanji name without the titles and honorifics after it (`安倍晋三元首相`: 安倍晋三,
    `習近平国家主席`, `金正恩氏`); `氏` stays where the English reads it (`堀尾忠氏`,
    Tadauji Horio)."""
    uji = any(t.lower().endswith("uji") for t in english)
    while True:
        shorter = _strip(name, _AFTER, at_end=True)
        if shorter == name and len(name) > 1 and name[-1] in HONORIFICS and not (
                uji and name[-1] == "氏"):
            shorter = name[:-1]
        if shorter == name:
            return name
        name = shorter[:-1] if len(shorter) > 2 and shorter[-1] in _FORMER else shorter


def _strip(text: str, words: list[str], at_end: bool) -> str:
    for word in words:
        if len(text) > len(word) and (text.endswith(word) if at_end else text.startswith(word)):
            return text[:-len(word)] if at_end else text[len(word):]
    return text


def _surname(text: str, english: Sequence[str]) -> int:
    """Length of the surname `text` starts with, where the lexicon lists it for an English
    token (`正親町三条`, Ogimachisanjo) or Janome's reading of its first word sounds like one
    (`久我`, kuga: Koga); 0 otherwise."""
    lexicon = japanese_lexicon()
    known = [len(p) for t in english for p in lexicon.parts(t)
             if lexicon.is_surname(p) and text.startswith(p) and len(p) < len(text)]
    if known:
        return max(known)
    words = list(janome().tokenize(text)) if text else []
    if not words or words[0].reading == "*":
        return 0
    latin = transliterator("Katakana-Latin; Latin-ASCII; Lower").transliterate(words[0].reading)
    keys = {_unvoiced(t) for t in english if t.lower() != "no"}
    key = _unvoiced(latin)
    return len(words[0].surface) if key in keys and key.strip("a") else 0


def _unvoiced(reading: str) -> str:
    """A sound key blind to voicing: a name's reading voices in compounds and dictionaries
    differ on it (`洞院` is dōin to Janome, Toin in English)."""
    return sound_key(reading).translate(str.maketrans("dgbzj", "tkpss"))


def kanji_name(text: str, start: int, end: int, english: Sequence[str]) -> Span:
    """A Japanese name in kanji whole: surname, then given name, nothing else.

    Aligners link a rare given name poorly, so a span often stops at the surname (`久我` of
    `久我建通`, `藤原家` of `藤原家保`) or takes in a rank or kin word before it (`太政大臣洞院
    公賢`, `娘藤原慶子`). Where the span's kanji start, after such words, with a surname read
    like one of the English tokens, and the English has a given name too, the span is that
    surname and the kanji after it, up to three, before any title (`天皇`, `上人`, `御前`) or
    word a name is of (`家`, `流`, `内閣`); a name known by one word and a title (`法然上人`
    for Honen Shonin) is that word.
    """
    if start >= end or not _KANJI.search(text[start:end]):
        return start, end
    # The last run of kanji in the span: a particle before it ends what came before.
    runs = list(regex.finditer(r"\p{Han}+", text[start:end]))
    s = start + runs[-1].start()
    run = text[s:_kanji_run(text, s, s + 1)[1]]
    names = [t for t in english if t.lower() != "no"]
    unranked = _unranked(run, names)
    s, run = s + len(run) - len(unranked), unranked
    whole = _untitled(run, names)
    surname = _surname(run, names) if len(names) >= 2 else 0
    if surname and len(whole) - surname <= 3:
        return s, s + len(whole)  # surname and given name, or a name and its title
    if s > start + runs[-1].start() or whole != run:  # a rank before or a title after went
        return max(s, start), min(s + len(whole), max(end, s + 1))
    return start, end


# A name in kanji (one space may part surname and given name) and, in brackets after it, its
# reading in kana up to the first comma, bracket, wide space or slash before another reading:
# `東園 基敬（ひがしその もとゆき、...`, `義良（よしすけ/よしなが）`.
_GLOSSED = regex.compile(
    r"(\p{Han}[\p{Han}\u3005]*(?:[ \u3000]\p{Han}[\p{Han}\u3005]*)?)[（(]"
    r"([\p{Hiragana}\p{Katakana}\u30fc\u30fb ]+)[、,，）)（(/／\u3000]")


def _reads_as(reading: str, english: Sequence[str]) -> bool:
    """The kana reading spells the English name whole, in either order (`ひがしその もとゆき`
    is Motoyuki Higashisono); `no` is written in both (`ふじわら の ためとき`). A one-word
    English name may be one part of it, exactly: the surname or the given name English
    mentions the person by (`Ashikaga` for `足利 義晴（あしかが よしはる）`)."""
    latin = transliterator("Hiragana-Latin; Katakana-Latin; Latin-ASCII; Lower")
    said = "".join(ch for ch in latin.transliterate(reading) if ch.isalpha())
    names = [t.lower() for t in english]
    if any(orthographic(o, _plain(said)) >= WHOLE_NAME_MIN for o in _orders(names)):
        return True
    parts = [latin.transliterate(p) for p in reading.split()]
    return len(names) == 1 and len(parts) == 2 and _plain(names[0]) in map(_plain, parts)


def _orders(names: Sequence[str]) -> set[str]:
    """An English name's tokens run together as a Japanese reading may give them: as written,
    surname first either way round (`ひがしその もとゆき` is Motoyuki Higashisono)."""
    names = list(names)
    return {_plain("".join(o)) for o in (names, names[1:] + names[:1], names[-1:] + names[:-1])}


def _plain(romaji: str) -> str:
    """Romanized Japanese blind to voicing and long vowels, which English spellings of a
    name drop or change (`さんじょう`, sanjou: Sanjo; `とういん`, Toin or Doin)."""
    for long, short in (("ou", "o"), ("oo", "o"), ("uu", "u"), ("ii", "i")):
        romaji = romaji.replace(long, short)
    return romaji.translate(str.maketrans("dgbzj", "tkpss"))


def glossed_names(text: str, english: Sequence[str]) -> list[Span]:
    """Kanji names the sentence glosses with a kana reading of the English name, ranks and
    kin words before them and titles after them left out (`父山名教豊（やまな のりとよ）`,
    `吉子女王（よしこじょおう）`)."""
    if not english:
        return []
    found = []
    for m in _GLOSSED.finditer(text):
        if not _reads_as(m.group(2), english):
            continue
        start, name = m.start(1), m.group(1)
        while (rest := _strip(name, _BEFORE, at_end=False)) != name and len(rest) >= 2:
            start, name = start + len(name) - len(rest), rest
        name = _untitled(name, english)
        found.append((start, start + len(name)))
    return found


# A word in hiragana set off from kanji and kana around it (`名は「よしひと」`, `母・たまの`,
# `（よしすけ/よしなが）`); parts joined by `・` or a space are one word too.
_KANA_WORD = regex.compile(
    r"(?<![\p{Hiragana}\p{Katakana}\p{Han}\u30fc])"
    r"\p{Hiragana}[\p{Hiragana}\u30fc]*(?:[ \u30fb]\p{Hiragana}[\p{Hiragana}\u30fc]*)*"
    r"(?![\p{Hiragana}\p{Katakana}\p{Han}\u30fc])")
_PARTICLES = "のはがとをにもや"
# A kanji name's first reading, in brackets after it (or after an aside in brackets): the
# kanji are the name (`藤原 公季（ふじわら の きんすえ`); a reading after `・` or `/` is
# another (`江木衷（まこと・ちゅう）`).
_FIRST_READING = regex.compile(r"[（(]([^・/／、,，）)]*)")


def kana_names(text: str, english: Sequence[str]) -> list[Span]:
    """Names the sentence spells in hiragana, read exactly as the English (`たま` for Tama,
    `ちゅう` of `まこと・ちゅう` for Chu): a second reading of a kanji name, or a name never
    written in kanji; a kanji name's first reading is not (its kanji are the name, found by
    `glossed_names` or alignment). Hiragana next to kanji is grammar, and a word that is one
    particle longer than the name is the name and the particle (`たまの`)."""
    names = [t.lower() for t in english]
    if len("".join(names)) < 3:
        return []
    latin = transliterator("Hiragana-Latin; Latin-ASCII; Lower")
    orders = _orders(names)
    glosses = [(g.start(1), g.end(1)) for g in _FIRST_READING.finditer(text)]
    found = []
    for m in _KANA_WORD.finditer(text):
        parts = [(m.start(), m.end())]
        if regex.search(r"[ \u30fb]", m.group()):  # each part of a joined word too
            parts += [(m.start() + p.start(), m.start() + p.end())
                      for p in regex.finditer(r"[^ \u30fb]+", m.group())]
        for s, e in parts:
            if any(a <= s < b for a, b in glosses):
                continue
            for end in (e, e - 1) if text[e - 1] in _PARTICLES else (e,):
                said = "".join(ch for ch in latin.transliterate(text[s:end]) if ch.isalpha())
                if _plain(said) in orders:
                    found.append((s, end))
                    break
    return found


# English words around a Japanese name that no lexicon lists (`Emperor Go-Ichijo`).
_ENGLISH_TITLES = {"no", "emperor", "empress", "prince", "princess", "retired"}


@functools.cache
def japanese_lexicon() -> NameLexicon:
    """The shipped lexicon of Japanese names, keyed blind to voicing and long vowels."""
    entries = read_lexicon(JAPANESE) if JAPANESE.is_file() else []
    return NameLexicon(entries, _voiceless)


def _voiceless(word: str) -> str:
    """An English spelling of a Japanese name, blind to how romanizations differ: voicing
    (`Tenji` and `Tenchi` are 天智), long vowels, hyphens (`Go-Ichijo`)."""
    latin = transliterator("Latin-ASCII; Lower").transliterate(word)
    letters = "".join(ch for ch in latin if ch.isalpha())
    for sound, voiced in (("ch", "j"), ("sh", "j"), ("ts", "z"), ("f", "h")):
        letters = letters.replace(sound, voiced)
    return _plain(letters).replace("h", "p")


def reads_as(written: str, english: str) -> bool:
    """Janome reads the kanji as the English word, blind to voicing and long vowels
    (`北条`, houjou: Hojo)."""
    words = list(janome().tokenize(written))
    if any(w.reading == "*" for w in words):
        return False
    latin = transliterator("Katakana-Latin; Latin-ASCII; Lower")
    said = "".join(ch for ch in latin.transliterate("".join(w.reading for w in words))
                   if ch.isalpha())
    return bool(said) and _voiceless(said) == _voiceless(english)


def lexicon_names(text: str, english: Sequence[str]) -> list[Span]:
    """Kanji names the lexicon reads as the English: a name it lists (`足利義満`), or a surname
    and a given name it lists in other names (`藤原` + `宗俊`), also parted by a space. A
    one-word English name is a listed name or part where the text writes no more of a name
    around it than ranks and titles (`安閑天皇` for Ankan, not `一条通` for Ichijo), and
    the whole name where it is written whole (`足利義満` for Yoshimitsu): the gold of a
    mention is the name as the sentence writes it."""
    lexicon = japanese_lexicon()
    names = [t for t in english if t.lower() not in _ENGLISH_TITLES]
    if not names or not lexicon.entries:
        return []
    found = _lexicon_finds(text, names, lexicon)
    if len(names) > 1 and not found:  # one word that English hyphenates (`Go-Ichijo`)
        found = _lexicon_finds(text, ["".join(names)], lexicon)
    # A find inside another is a part the lexicon also lists (`原` of a surname it split
    # badly): the longer find is the name.
    return sorted(f for f in found
                  if not any(g != f and g[0] <= f[0] and f[1] <= g[1] for g in found))


def _lexicon_finds(text: str, names: Sequence[str], lexicon: NameLexicon) -> set[Span]:
    wholes = {(w, "") for w in lexicon.whole(names)}
    if len(names) >= 2:
        wholes |= {(s, g) for a in names for b in names if a != b
                   for s in lexicon.parts(a) if lexicon.is_surname(s)
                   for g in lexicon.parts(b)}
    else:
        wholes |= {(p, "") for p in lexicon.parts(names[0]) if len(p) >= 2}
    found: set[Span] = set()
    for first, second in wholes:
        for m in regex.finditer(regex.escape(first) + (
                r"[ \u3000]?" + regex.escape(second) if second else ""), text):
            if len(names) >= 2:  # surname and given name: a name wherever it is written
                found.add((m.start(), m.end()))
                continue
            wholes_here = _written_whole(text, m.start(), m.end(), lexicon, names)
            if whole := next((w for w in wholes_here if _stands_alone(text, *w, names)), None):
                found.add(whole)
    return found


def _written_whole(text: str, start: int, end: int, lexicon: NameLexicon,
                   names: Sequence[str]) -> Iterator[Span]:
    """Where a one-word name may be written whole, longest first: with the surname before it
    or the given name after it that the text writes there (`足利` + `義満`); after a
    surname, two or three kanji that end the name are a given name the lexicon need not know
    (`水野` + `忠光`; one kanji after a surname is as often what it names: `一条通`, Ichijo
    Street); else as found."""
    for k in range(max(0, start - 5), start):
        if lexicon.is_surname(text[k:start].rstrip(" \u3000")):
            yield k, end
    for k in range(min(len(text), end + 5), end, -1):
        if lexicon.is_given(text[end:k].lstrip(" \u3000")):
            yield start, k
    if lexicon.is_surname(text[start:end]):
        lo, hi = _name_within(text, start, _kanji_run(text, start, end)[1], names)
        if lo == start and 2 <= hi - end <= 3:
            yield start, hi
    yield start, end


def _stands_alone(text: str, start: int, end: int, names: Sequence[str]) -> bool:
    """No more kanji of a name around [start, end) than ranks and titles: the kanji run it
    lies in is that name once ranks, generations and titles are left out."""
    s, e = _kanji_run(text, start, end)
    lo, hi = _name_within(text, s, e, names)
    return start in (s, lo) and end in (e, hi)


class Japanese(Family):
    name = "japanese"
    syllabic = True

    def ignorable(self, piece: str) -> bool:
        """Hiragana writes endings and particles, never a name (`さ` is not Seii)."""
        return bool(_KANA_ENDING.fullmatch(piece))

    def readings(self, piece: str) -> list[tuple[str, Callable[[str], str]]]:
        return han_readings(piece)

    def read_exactly(self, text: str, english: Sequence[str]) -> list[Span]:
        return (glossed_names(text, english) or kana_names(text, english)
                or lexicon_names(text, english))

    def known_english(self, name: str) -> str | None:
        return japanese_lexicon().english("".join(name.split()))

    def lexicon_digest(self) -> str:
        return lexicon_digest(JAPANESE)

    def titled(self, projection: str) -> bool:
        return _untitled(projection) != projection or _unranked(projection, []) != projection

    def characters(self, text: str, start: int, end: int, english: Sequence[str],
                   matcher: Scorer, *, enabled: bool, before_bracket: bool,
                   aligned: Span | None = None, claimed: frozenset[int] = frozenset()) -> Span:
        """Whole katakana parts: with `enabled`, as many as the English name has tokens, kana
        endings and honorifics off the edges (`習氏`), and a name in Han characters kept whole
        (`han_run`); on text without spaces (see `compact`)."""

        def fix(text: str, start: int, end: int, aligned: Span | None) -> Span:
            if not enabled:
                return katakana_word(text, start, end)
            start, end = katakana_name(text, start, end, len(english))
            while end - start > 1 and (self.ignorable(text[start]) or text[start] in HONORIFICS):
                start += 1
            while end - start > 1 and (self.ignorable(text[end - 1])
                                       or text[end - 1] in HONORIFICS):
                end -= 1
            start, end = han_run(text, start, end, english, matcher, aligned)
            start, end = one_kanji_run(text, start, end)
            start, end = kanji_name(text, start, end, english)
            return whole_kanji_run(text, start, end, english, claimed)

        if enabled:
            start, end = whole_latin_words(text, start, end)
        return compact(text, start, end, aligned, fix)
