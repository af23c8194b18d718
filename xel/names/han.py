"""Han characters: foreign names are transliterated character by character, so a span snaps
to the characters spelled like the name, and a character's simplified form counts as the same.
Chinese, Korean and Japanese people's names are written in Han characters too, and read as
their language reads them: `金大中` is Kim Dae-jung in Korean, `織田信長` Oda Nobunaga in
Japanese, so besides the Mandarin reading (ICU) a name is compared with its Sino-Korean
reading (the `hanja` table, with the surname readings) and its Japanese reading (Janome's
dictionary of words and names).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence

import regex

from xel.names.english import ENGLISH_LINKS
from xel.names.hangul import korean_key
from xel.names.mandarin import (
    all_words,
    begins_word,
    dictionary_words,
    glosses,
    heard_runs,
    is_abbreviation,
    is_noun,
    is_verb,
    is_word,
    listed,
    pinyin,
    pinyin_runs,
    read_out,
    reads_as,
    same_word,
    senses,
    verb_glosses,
    vowel_groups,
    widened,
)
from xel.names.morphemes import janome
from xel.names.script import (
    NAME_CHAR_MIN,
    WHOLE_NAME_MIN,
    Family,
    Scorer,
    Span,
    is_latin,
    orthographic,
    transliterator,
)

# Grammatical characters that are never a name on their own (`的` is also the syllable `de`).
FUNCTION_CHARACTERS = frozenset(
    "的了和与與及是也都就而对對从從把被给給向于於以为為之其这這那个個们們着著过過将將后後但并並"
    "或又已还還很更最不没沒有会會要能说說到")
# Honorifics written after a name (`習氏`, `安倍様`): never part of it.
HONORIFICS = "氏様殿"
# Sino-Korean readings of surnames that differ from the character's usual reading (`金` is
# 금 in words, 김 as a name) or have a North Korean form (`李` is 이 and 리: Lee, Ri).
KOREAN_SURNAMES = {"金": ("김",), "李": ("이", "리"), "柳": ("유", "류"), "劉": ("유", "류"),
                   "刘": ("유", "류"), "林": ("임", "림"), "盧": ("노", "로"), "卢": ("노", "로"),
                   "羅": ("나", "라"), "罗": ("나", "라"), "梁": ("양", "량"), "呂": ("여", "려"),
                   "吕": ("여", "려"), "廉": ("염", "렴"), "陸": ("육", "륙"), "陆": ("육", "륙"),
                   "龍": ("용", "룡"), "龙": ("용", "룡")}
# The common surnames of China, Korea and Japan's one-character ones (traditional and
# simplified forms): a Han name starts with one, and is read as a whole from it.
SURNAMES = frozenset(
    "金李朴崔鄭郑姜趙赵尹張张林韓韩吳吴申徐權权黃黄安宋柳洪全高文梁孫孙裵裴白許许劉刘南沈盧卢河丁成"
    "車车具郭禹朱任羅罗辛閔闵陳陈池嚴严元蔡千方孔康玄咸卞廉楊杨邊边呂吕秋魯鲁都蘇苏石宣薛馬马吉延表"
    "魏明奇房潘王琴玉陸陆孟諸诸卓秦芮牟龍龙周吳胡何郭馬羅梁宋鄭謝谢韓唐馮冯于董蕭萧程曹袁鄧邓許傅沈曾"
    "彭呂蘇盧蔣蒋蔡賈贾丁魏薛葉叶閻阎余潘杜戴夏鍾钟汪田任姜范方石姚譚谭廖鄒邹熊金陸郝孔崔毛邱秦江史顧"
    "顾侯邵孟龍萬万段雷錢钱湯汤尹黎易常武喬乔賀贺賴赖龔龚文習习胡溫温朱岸")
_HAN = regex.compile(r"\p{Han}+")


@functools.lru_cache(maxsize=65536)
def korean_readings(text: str) -> tuple[str, ...]:
    """Sino-Korean readings, romanized, of a run of Han characters that starts with a surname
    (`金正恩`: `gimjeong-eun`); the first character also read as a surname. Other runs get
    none: read in Korean, most characters sound like some name's syllable (`情` is 정)."""
    import hanja

    if not _HAN.fullmatch(text) or text[0] not in SURNAMES:
        return ()
    rest = hanja.translate(text[1:], "substitution") if len(text) > 1 else ""
    firsts = KOREAN_SURNAMES.get(text[0], (hanja.translate(text[0], "substitution"),))
    latin = transliterator("Hangul-Latin; Latin-ASCII; Lower")
    return tuple(dict.fromkeys(latin.transliterate(first + rest) for first in firsts))


@functools.lru_cache(maxsize=65536)
def japanese_reading(text: str) -> str | None:
    """How Japanese reads a run of Han characters that names a person, in Latin (`織田信長`:
    `odanobunaga`), where Janome's dictionary knows it as nouns, one of them a person's name;
    Chinese simplified characters are tried in their traditional form (`村上春树`)."""
    if not _HAN.fullmatch(text):
        return None
    written = traditional(text)
    return _japanese_reading(text) or (
        _japanese_reading(written) if written != text else None)


def _japanese_reading(text: str) -> str | None:
    words = list(janome().tokenize(text))
    tags = [w.part_of_speech.split(",") for w in words]
    if any(t[0] != "名詞" or w.reading == "*" for t, w in zip(tags, words, strict=True)) or \
            not any(t[2] == "人名" for t in tags):
        return None
    readings = [w.reading for w in words]
    latin = transliterator("Katakana-Latin; Latin-ASCII; Lower").transliterate("".join(readings))
    return "".join(ch for ch in latin if ch.isalpha())


@functools.lru_cache(maxsize=65536)
def simplified(ch: str) -> str:
    """The simplified Chinese form of a character (itself where there is none)."""
    return transliterator("Hant-Hans").transliterate(ch)


def traditional(text: str) -> str:
    """Chinese text in traditional characters (ICU's choice where one simplified character
    stands for several)."""
    return str(transliterator("Hans-Hant").transliterate(text))


# Prepositions before a name and particles after it, never a translated name's edge: `在參議院`
# (at the Senate), `白宮的`.
LEADING_PARTICLES = frozenset("在於于從从對对向把被給给")
TRAILING_PARTICLES = frozenset("的了和與与及等")
CONJUNCTIONS = frozenset("和与及")  # `and` (simplified), which a name may say itself


def without_particles(text: str, start: int, end: int) -> tuple[int, int]:
    """A Chinese span without the prepositions and particles at its edges (spaces too)."""
    while start < end and (text[start] in LEADING_PARTICLES or text[start].isspace()):
        start += 1
    while end > start and (text[end - 1] in TRAILING_PARTICLES or text[end - 1].isspace()):
        end -= 1
    return start, end


def folded(text: str) -> str:
    """Chinese text with each character in its simplified form, one for one, so that a label
    in either script (a KB's `zh-hans` `贝尔格莱德`) is found in the other (`貝爾格萊德`) at the
    same places."""
    return "".join(s if len(s := simplified(ch)) == 1 else ch for ch in text)


# What a place is, written after its name as part of it (`萨拉索塔市`, `尼羅河`, `撒哈拉沙漠`,
# `Záhorie 地區`), in simplified form, longest first.
PLACE_WORDS = ("山脉", "沙漠", "运河", "群岛", "半岛", "峡谷", "地区", "市", "州", "省", "县",
               "郡", "区", "镇", "河", "江", "湖", "湾", "岛")


# Words of a place's name that Chinese translates before the part it transliterates
# (`西弗吉尼亚`, West Virginia; `上加龍`, Haute-Garonne), in simplified form.
TRANSLATED_WORDS = {"north": "北", "northern": "北", "south": "南", "southern": "南",
                    "east": "东", "eastern": "东", "west": "西", "western": "西", "new": "新",
                    "upper": "上", "haute": "上", "lower": "下", "great": "大", "saint": "圣",
                    "st": "圣", "sainte": "圣", "santa": "圣", "san": "圣", "sankt": "圣"}


def translated_words(english: Sequence[str]) -> tuple[list[str], str]:
    """A name's words that are read (`Virginia`), and the characters of those Chinese
    translates (`西`), in order."""
    kept = [e for e in english if e.casefold().strip(".") not in TRANSLATED_WORDS]
    return kept, "".join(TRANSLATED_WORDS.get(e.casefold().strip("."), "")
                         for e in english if e not in kept)


def with_translated(text: str, start: int, written: str) -> int:
    """The start of a name with the translated words written before its read part (a space
    between each, in segmented text): `西` + `弗吉尼亚`."""
    for ch in reversed(written):
        at = start - 1 - (text[start - 1:start] == " ")
        if at < 0 or folded(text[at]) != ch:
            break
        start = at
    return start


# The last character of the word for a kind of body, which Chinese writes last in its
# name (`日报`, `公司`, `协会`, `学院`, `集团`, `银行`, `联盟`), in simplified form.
BODY_ENDINGS = frozenset("报社司会院团行党局署队馆厂盟厅")


def body_word(word: str) -> bool:
    """A word of two characters or more (simplified) that names a kind of body."""
    return len(word) >= 2 and word[-1] in BODY_ENDINGS


# What a body's word ends in that may end a name's head (`后勤保障部`, `公安部`): `BODY_ENDINGS`
# and the endings too common elsewhere to find bodies by (`全部`, all; `到处`, everywhere).
HEAD_ENDINGS = BODY_ENDINGS | frozenset("部处委")


def body_noun(word: str) -> bool:
    """A body's word (`body_word`) that jieba's dictionary tags a noun, an organization's name
    or an abbreviation (`奥委会`, an Olympic committee), not a verb."""
    return body_word(word) and (is_noun(word) or is_abbreviation(word))


# How many characters a dictionary word may take a span past its edge (`whole_words`).
WORD_REACH = 2
# What a body's word ends in beside `BODY_ENDINGS`: an institute, a station, a contest.
NAMED_ENDINGS = BODY_ENDINGS | frozenset("所台赛")


def whole_words(text: str, start: int, end: int,
                reading: Callable[[int, int], float] | None = None) -> tuple[int, int]:
    """A Chinese span widened to the edges of the dictionary words it cuts (jieba's words of
    the sentence in simplified form, at most `WORD_REACH` characters a side): pieces learned
    from a few thousand sentences cut `国务院` (the State Council) as `国 务 院` and `本田`
    (Honda) as `本 田`, and the aligner may link only some of them. Not where the part the
    span holds is a word itself, a compound's first or last word (`英国` of `英国首相`, the
    British prime minister; `新闻` of `新闻报道`, a news report), unless the word's end is
    a body's (`基金` + `会`) or, for a span read as the name, the word reads as it better
    (`尤文圖` + `斯`, Juventus; `reading` scores a span)."""
    simple = folded(text)
    for word, at, until in dictionary_words(simple):
        if at < start < until and start - at <= WORD_REACH and (
                not is_word(simple[start:until])
                or (reading is not None and reading(at, end) > reading(start, end))):
            start = at
        if at < end < until and until - end <= WORD_REACH and (
                not is_word(simple[at:end]) or word[-1] in NAMED_ENDINGS
                or (reading is not None and reading(start, until) > reading(start, end))):
            end = until
    return start, end


def read_on(text: str, start: int, end: int, reading: Callable[[int, int], float],
            most: int = WORD_REACH) -> tuple[int, int]:
    """A Chinese span read as a name, grown a character at a time (at most `most` a side)
    while it reads as the name better (`reading` scores a span): learned pieces cut a rare
    transliteration into characters (`瓦 德 拉 馬`, Valderrama), and a reading of a few
    pieces stops short of it (`瓦德拉`)."""
    def name_char(k: int) -> bool:
        return 0 <= k < len(text) and bool(_HAN.fullmatch(text[k])) and (
            text[k] not in FUNCTION_CHARACTERS)

    for _ in range(most):
        if name_char(end) and reading(start, end + 1) > reading(start, end):
            end += 1
    for _ in range(most):
        if name_char(start - 1) and reading(start - 1, end) > reading(start, end):
            start -= 1
    return start, end


def with_body_word(text: str, start: int, end: int, english: Sequence[str]) -> int:
    """The end of an organization's span with the noun for its kind of body written right
    after it (`联合` + `工会`: Unite, the union; `尼乌吉尼` + `航空公司`), not a verb that
    ends alike (`进行`, `开会`), nor where the span ends with a body's word (one in `部`,
    `处`, `委` too) for the English name's last (`后勤保障部` + `卫生局`: the Logistics
    Support Department's health bureau)."""
    words = _words(text[start:end])
    if words and words[-1][0][-1] in HEAD_ENDINGS and english and (
            english[-1] in _glossed(words[-1][0], english)):
        return end
    rest = folded(text[end:])
    gap = len(rest) - len(rest.lstrip(" "))  # segmented text: the next word
    word, at, until = next(iter(dictionary_words(rest)), ("", -1, 0))
    return end + until if at == gap and body_noun(word) else end


def _glossed(word: str, english: Sequence[str]) -> frozenset[str]:
    """The words of an English name a Chinese word translates (CC-CEDICT's glosses); none
    for a function character (`的` is also glossed "really and truly")."""
    if not _HAN.fullmatch(word) or word in FUNCTION_CHARACTERS or (
            word in LEADING_PARTICLES or word in TRAILING_PARTICLES):
        return frozenset()
    said = glosses(word)
    return frozenset(e for e in english if any(same_word(e, g) for g in said))


def _words(text: str) -> list[tuple[str, int, int]]:
    """jieba's words of Chinese text, folded to simplified, spaces left out."""
    return [(w, a, b) for w, a, b in all_words(folded(text)) if not w.isspace()]


@functools.lru_cache(maxsize=64)
def word_spans(text: str) -> frozenset[tuple[int, int]]:
    """Where jieba's words of Chinese text begin and end (`_words`): a token that is one of
    them stands as a word of its own, not a piece of a longer one (`和` of `协和`). Kept for
    the last sentences: a mention's projection asks for its sentence's up to three times."""
    return frozenset((a, b) for _, a, b in _words(text))


def _says(word: str, english: Sequence[str]) -> bool:
    """Whether a word of a span says part of an English name: it translates a word of it,
    or it is Latin letters or digits (not punctuation: the `·` of a person's name after it)."""
    return bool(_glossed(word, english)) or (
        not _HAN.fullmatch(word) and any(ch.isalnum() for ch in word))


def listed_words(text: str, english: Sequence[str]) -> list[tuple[str, int, int]]:
    """jieba's words of simplified text, two written together joined where CC-CEDICT lists
    them as one that says more of an English name than the two apart (`爱尔兰` + `海`, the
    Irish Sea, a word jieba's dictionary lacks; not `年度` + `大会`, the annual meeting,
    which CC-CEDICT does not gloss as the General Assembly; nor two characters, each a
    country's: `朝韩`, the two Koreas, for North)."""
    words = all_words(text)
    out: list[tuple[str, int, int]] = []
    k = 0
    while k < len(words):
        word, at, until = words[k]
        if k + 1 < len(words) and words[k + 1][1] == until:
            joined = word + words[k + 1][0]
            if _HAN.fullmatch(joined) and len(joined) > 2 and listed(joined) and _glossed(
                    joined, english) > (_glossed(word, english)
                                        | _glossed(words[k + 1][0], english)):
                out.append((joined, at, words[k + 1][2]))
                k += 2
                continue
        out.append(words[k])
        k += 1
    return out


def glossed_runs(text: str, english: Sequence[str]) -> list[tuple[int, int, frozenset[str]]]:
    """The runs of words in Chinese text that translate words of an English name
    (`english`: case-folded, without `of`, `the`), each with the words it says: `联邦 调查局`
    for the Federal Bureau of Investigation, `爱尔兰海` for the Irish Sea. A run says two
    of the name's words or holds a word of two characters: a single character's glosses are
    too many to tell a name by (`北`, north; `国`, country, nation, state)."""
    runs: list[tuple[int, int, frozenset[str]]] = []
    start, end, said, wide = -1, -1, frozenset[str](), False
    for word, at, until in listed_words(folded(text), english) + [("", len(text), len(text))]:
        if word.isspace():
            continue
        found = _glossed(word, english) if word else frozenset[str]()
        if found:
            start = at if start < 0 else start
            end, said, wide = until, said | found, wide or len(word) >= 2
            continue
        if start >= 0 and (len(said) >= 2 or wide):
            runs.append((start, end, said))
        start, end, said, wide = -1, -1, frozenset(), False
    return runs


def with_glossed_run(text: str, start: int, end: int, english: Sequence[str]
                     ) -> tuple[int, int]:
    """A translated name's span, or else the run of words nearest it that translates more
    than half of the English name's words and more of them than the span translates or
    spells (`glossed_runs`): where the aligner linked the wrong words (`攀升`, rise, for
    Scotland; `職務`, office, for the Supreme Court). An empty span is `start == end`."""
    runs = [r for r in glossed_runs(text, english) if 2 * len(r[2]) > len(english)]
    if not runs:
        return start, end
    inside = frozenset[str]().union(*(said for a, b, said in runs if start <= a and b <= end))
    span = folded(text[start:end]).strip()
    for word, _, _ in [(span, 0, 0), *all_words(span)]:
        inside |= _glossed(word, english) | frozenset(e for e in english if e == word.casefold())
    a, b, said = max(runs, key=lambda r: (len(r[2]), -abs(r[0] - start)))
    return (a, b) if len(said) > len(inside) else (start, end)


def after_particle(text: str, start: int, end: int, english: Sequence[str],
                   bracketed: bool = False) -> int:
    """The start of a translated name's span after a preposition inside it (`在`, at) where
    the words before it translate none of the name and words after it do, or after a verb
    (jieba's, of two characters, not one of the name's words) where the words after it
    translate at least half of the name: the aligner ran on back into the clause
    (`李勇浩在联合国大会`, Ri Yong Ho at the UN General Assembly; `承诺包括营养力量`,
    commitments include the Power of Nutrition). Where the English name follows the span in
    brackets (`bracketed`), the name is before them, and the words after the cut need not
    translate it (`在巴克萊卡 (Barclaycard TV)`). Particles after the cut are left out."""
    words = _words(text[start:end])
    said = [_says(w, english) for w, _, _ in words]

    def half_said(k: int) -> bool:
        found = frozenset[str]().union(*(_glossed(w, english) for w, _, _ in words[k + 1:]))
        return bracketed or 2 * len(found) >= len(english)

    cut = next((k for k in range(len(words) - 2, -1, -1)
                if not any(said[:k]) and (bracketed or any(said[k + 1:])) and (
                    words[k][0] in LEADING_PARTICLES and k > 0
                    or len(words[k][0]) > 1 and is_verb(words[k][0]) and not said[k]
                    and half_said(k))), None)
    return start if cut is None else without_particles(text, start + words[cut][2], end)[0]


def before_particle(text: str, start: int, end: int, english: Sequence[str],
                    said_and: bool = False) -> int:
    """The end of a translated name's span before a particle inside it (`的`, `和`) where
    words before it translate the name and none after it do: the aligner ran on into the
    clause (`賓州舊的第`, Pennsylvania's old ...). Not at `和` where the name says `and`
    (`said_and`: `人力资源和社会保障局`)."""
    words = _words(text[start:end])
    said = [_says(w, english) for w, _, _ in words]
    cut = next((k for k, (w, _, _) in enumerate(words)
                if k > 0 and w in TRAILING_PARTICLES and not (said_and and w in CONJUNCTIONS)
                and any(said[:k]) and not any(said[k:])),
               None)
    return end if cut is None else without_particles(text, start, start + words[cut][1])[1]


# CC-CEDICT's one-word senses of a verb that is also the noun for a body (`组织`, to organize,
# an organization: `国民托管组织`, the National Trust).
BODY_SENSES = frozenset({"organization", "organisation", "association", "union", "league",
                         "alliance", "federation", "committee", "council", "society"})


def kept_apart(text: str, span: tuple[int, int], wide: tuple[int, int], english: Sequence[str],
               outside: Sequence[str]) -> bool:
    """Whether a one-character Chinese span that says every word of the English name stays
    apart from the dictionary word it is written in (`wide`), where the word's other
    characters say a word of the sentence outside the name (and not in it) that the word says
    too: `党` of `党史`, the Party's history; `党员`, Party members (not `英` of `英国`: `国`,
    state, is no sense of `英国`)."""
    start, end = span
    if end - start != 1 or wide == span or not english or set(english) - _glossed(
            folded(text[start:end]), english):
        return False
    others = [e for e in outside if e not in english]
    word = folded(text[wide[0]:wide[1]])
    rest = folded(text[wide[0]:start] + text[end:wide[1]])
    return any(_glossed(ch, others) & _glossed(word, others) for ch in rest)


def said_elsewhere(text: str, start: int, end: int, english: Sequence[str],
                   outside: Sequence[str]) -> tuple[int, int]:
    """A translated name's span without a verb at either edge (jieba's) that CC-CEDICT
    translates with a word of the English sentence outside the name (`outside`) and that says
    none of the name (`english`), as a noun or a verb: the aligner linked the clause's verb
    with the name (`参加中价协`: *participate* in the China Cost Engineering Association, whose
    short form CC-CEDICT does not gloss)."""

    def elsewhere(word: str) -> bool:
        verbs = verb_glosses(word)
        return (len(word) > 1 and is_verb(word) and not _says(word, english)
                and not any(same_word(e, g) for g in verbs for e in english)
                and any(same_word(e, g) for g in verbs for e in outside))

    words = _words(text[start:end])
    first, last = 0, len(words) - 1
    while first < last and elsewhere(words[first][0]):
        first += 1
    while last > first and elsewhere(words[last][0]):
        last -= 1
    if (first, last) == (0, len(words) - 1):
        return start, end
    return without_particles(text, start + words[first][1], start + words[last][2])


def before_verb(text: str, start: int, end: int, english: Sequence[str]) -> int:
    """The end of a translated name's span before a verb it ends with (jieba's, of two
    characters, saying none of the name and no noun for a body, `BODY_SENSES`) where words
    before it say some: the aligner ran on to the clause's verb after the name
    (`亚裔教育联盟成立`, the coalition was founded; `白宮透漏`, the White House disclosed)."""
    words = _words(text[start:end])
    if len(words) < 2:
        return end
    last = words[-1][0]
    if (len(last) < 2 or not is_verb(last) or _says(last, english)
            or any(len(sense) == 1 and sense[0] in BODY_SENSES for sense in senses(last))
            or not any(_says(w, english) for w, _, _ in words[:-1])):
        return end
    return without_particles(text, start, start + words[-1][1])[1]


def at_body_word(text: str, start: int, end: int, english: Sequence[str]) -> int:
    """The end of an organization's span at its last word that names a kind of body and
    translates a word of the English name or follows words that do (`聯合國環境規劃署`, UN
    Environment, the programme's office), where the words after it translate none of it:
    Chinese writes a body's name head last, and an aligned span runs on past it
    (`最高法院法官`, a Supreme Court justice; `眾議院中佔多數`, a majority in the House)."""
    words = _words(text[start:end])
    said = [_says(w, english) for w, _, _ in words]
    heads = [k for k, (w, _, _) in enumerate(words)
             if body_noun(w) and (_glossed(w, english) or any(said[:k]))]
    if not heads or any(said[heads[-1] + 1:]):
        return end
    return start + words[heads[-1]][2]


def said_word_for_word(projection: str, english: str) -> bool:
    """Whether a Chinese projection says the English name in CC-CEDICT's words: the whole
    projection has the name as a sense (`最高法院`: supreme court; `眾議院`: House of
    Representatives), or its words have senses that together are the name's words, each
    once, in any order (`中國 銀行`: China, bank, for the Bank of China), the name's `of`,
    `and` or `the` unsaid; a Latin word stands for itself (`BBC 蘇格蘭`)."""
    name = [w for w in regex.findall(r"\w+", english.casefold().replace(".", ""))
            if w not in ("the", "a", "an", "s")]
    simple = folded(projection)
    if not name or not _HAN.search(simple):
        return False  # Latin alone is the transliteration round trip's (`CNN`: identity)
    if any(_said(sense, tuple(name)) for sense in senses(simple.replace(" ", ""))):
        return True
    words = [w for w, _, _ in _words(simple)]

    def pieces(word: str) -> list[tuple[int, int]]:
        said = {(word.casefold(),)} if not _HAN.fullmatch(word) else senses(word)
        return [(i, j) for i in range(len(name)) for j in range(i + 1, len(name) + 1)
                if any(_said(sense, tuple(name[i:j])) for sense in said)]

    def cover(k: int, taken: frozenset[int]) -> bool:
        if k == len(words):
            return all(i in taken or name[i] in ENGLISH_LINKS for i in range(len(name)))
        return any(cover(k + 1, taken | set(range(i, j))) for i, j in pieces(words[k])
                   if not taken & set(range(i, j)))

    return 0 < len(words) <= 6 and cover(0, frozenset())


def _said(sense: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """A sense is these words of a name, a plural for a singular (`sea` for `Seas`)."""
    return len(sense) == len(name) and all(
        s == n or n in (s + "s", s + "es") for s, n in zip(sense, name, strict=True))


def without_place_word(text: str) -> str:
    """A place's name without the word for what it is (`亞利桑那州` -> `亞利桑那`), as its
    round trip reads it; a name of one character more is left whole (`沙州`)."""
    simple = folded(text)
    for word in PLACE_WORDS:
        if simple.endswith(word) and len(simple.rstrip()) - len(word) >= 2:
            return text[:len(text) - len(word)].rstrip()
    return text


def with_place_word(text: str, end: int) -> int:
    """The end of a place's name with the word for what it is, where one follows (a space
    between, in segmented text), and does not begin a common word there (`市场`, market) or
    a longer word of the sentence (`新华社河内`: Xinhua, Hanoi, not a river)."""
    if not end:
        return end
    after_latin = not _HAN.fullmatch(text[end - 1])  # `Záhorie 地區`, not `GOP 州` (states)
    at = end + (text[end:end + 1] == " ")
    ahead = folded(text[at:at + 3])
    for word in PLACE_WORDS:
        if after_latin and len(word) < 2:
            continue
        if ahead.startswith(word) and not begins_word(text, at + len(word) - 1):
            longer = any(a == at and b > at + len(word) for a, b in word_spans(text))
            return end if longer else at + len(word)
    return end


_HAN_JOINERS = "\u00b7\u30fb\u2027\u2022\uff0e-"


def han_name(text: str, start: int, end: int, english: Sequence[str], matcher: Scorer,
             before_bracket: bool = False, aligned: Span | None = None) -> Span:
    """`_han_name`, then `complete` (see `compact`)."""

    def fix(text: str, start: int, end: int, aligned: Span | None) -> Span:
        s, e, spelled = _han_name(text, start, end, english, matcher, before_bracket)
        return complete(text, s, e, english, spelled, matcher, aligned)

    return compact(text, start, end, aligned, fix)


def han_run(text: str, start: int, end: int, english: Sequence[str], matcher: Scorer,
            aligned: Span | None) -> Span:
    """`complete` for a span of Han characters that no other rule fixed (Japanese kanji); on
    text without spaces (see `compact`)."""
    if start >= end or not all(_han_letter(c) for c in text[start:end]):
        return start, end
    core = _han_core(text, start, end, (start, end), english, matcher)
    return complete(text, start, end, english, core[2] if core else 0, matcher, aligned)


def compact(text: str, start: int, end: int, aligned: Span | None,
            fix: Callable[[str, int, int, Span | None], Span]) -> Span:
    """A character-level fix made on the text without its spaces, mapped back: gold
    tokenizations space characters out (`特 蕾 莎 · 梅`)."""
    keep = [k for k, ch in enumerate(text) if not ch.isspace()]
    letters = "".join(text[k] for k in keep)

    def inside(span: Span) -> Span:
        return bisect.bisect_left(keep, span[0]), bisect.bisect_left(keep, span[1])

    s, e = fix(letters, *inside((start, end)), inside(aligned) if aligned else None)
    return (keep[s], keep[e - 1] + 1) if s < e else (start, end)


def complete(text: str, start: int, end: int, english: Sequence[str], spelled: int,
             matcher: Scorer, aligned: Span | None) -> Span:
    """Keep the whole aligned name where the English name is not transliterated.

    Chinese, Korean and Japanese people's names are written in Han characters by meaning, not
    by sound, so only some of their parts are spelled like the English (`金` of `金正恩`, `安倍`
    of `安倍晋三`), and English often gives the surname alone (`Kim`, `Lee`, `Xi`). A span that
    spells less than the whole English name, or only a surname, and is native (it starts with
    a surname or has characters transliterations do not use) goes on over the Han characters
    aligned with the mention, up to a name's length: three characters from a one-character
    surname, five otherwise.
    """
    if aligned is None or start >= end or not all(_han_letter(c) for c in text[start:end]):
        return start, end
    surname = text[start] in SURNAMES
    surname_only = surname and end - start == 1 and len(english) == 1
    native = surname or not all(matcher.name_like(c) for c in text[start:end])
    if not native or (spelled >= len(english) and not surname_only):
        return start, end
    cap = end - start + 2 if surname else 5

    def aligned_letter(k: int) -> bool:
        return 0 <= k < len(text) and aligned[0] <= k < aligned[1] and bool(
            _HAN.fullmatch(text[k])) and text[k] not in HONORIFICS

    def name_char(k: int) -> bool:
        return aligned_letter(k) and text[k] not in FUNCTION_CHARACTERS

    while end - start < cap and name_char(end):
        end += 1
    while not surname and end - start < cap and name_char(start - 1):
        start -= 1
    return start, end


def _han_name(text: str, start: int, end: int, english: Sequence[str], matcher: Scorer,
              before_bracket: bool, pad: int = 3) -> tuple[int, int, int]:
    """Chinese: snap a span to the name's characters, across learned-piece boundaries; also
    says how many English tokens the name's characters spell.

    Character runs spelled like the English tokens (transliterated, or through the name
    dictionary) form the name's core. A core spelling every English token is the name, with
    the span's name-like characters touching it (`柏納李在網路中立` gives `柏納李`; `卡瓦` of
    `卡瓦諾` gets all three). A window before the `(` of a Latin copy (`before_bracket`) is cut
    to the run of name-like characters through a partial core (`英國梅首相`: `梅`) or, with
    none, next to the bracket (`代表律師舒希茲`: `舒希茲`). Otherwise the span reaches out to
    its best-spelled run (up to `pad` characters: `哈` of `哈靈頓`), and its edge characters
    never used in transliterated names are dropped up to the core or a name-like character
    (`對卡瓦諾`, `總統川普`, `金正恩與` give `卡瓦諾`, `川普`, `金正恩`: an aligned native name
    keeps characters that transliterations rarely use).
    """
    if not regex.search(r"\p{Han}", text[start:end]):
        return start, end, 0

    def name_char(k: int) -> bool:
        ch = text[k]
        return ch.isalpha() and not is_latin(ch) and matcher.name_like(ch)

    def name_run_before(k: int, stop: int) -> int:  # start of the name-like run ending at k
        while k > stop and (name_char(k - 1) or (
                text[k - 1] in _HAN_JOINERS and k - 1 > stop and name_char(k - 2))):
            k -= 1
        return k

    def name_run_after(k: int, stop: int) -> int:  # end of the name-like run starting at k
        while k < stop and (name_char(k) or (
                text[k] in _HAN_JOINERS and k + 1 < stop and name_char(k + 1))):
            k += 1
        return k

    lo, hi = start, end
    while lo > 0 and start - lo < pad and _han_letter(text[lo - 1]):
        lo -= 1
    while hi < len(text) and hi - end < pad and _han_letter(text[hi]):
        hi += 1
    core = _han_core(text, lo, hi, (start, end), english, matcher)
    spelled = core[2] if core else 0
    if core is not None and core[2] >= len(english):  # on through the span's name characters
        return name_run_before(core[0], start), name_run_after(core[1], end), spelled
    if before_bracket:  # a window before the bracket: the name-like run at the core or end
        if core:
            s, e = name_run_before(core[0], start), name_run_after(core[1], end)
        else:
            e = end
            while e > start and not name_char(e - 1):
                e -= 1
            s = name_run_before(e, start)
        return (s, e, spelled) if s < e else (start, end, spelled)
    keep = range(core[0], core[1]) if core else range(0)
    s, e = (min(start, core[0]), max(end, core[1])) if core else (start, end)
    if not keep and not any(name_char(k) for k in range(s, e)):
        return start, end, spelled
    while e > s and e - 1 not in keep and not name_char(e - 1):
        e -= 1
    while s < e and s not in keep and not name_char(s):
        s += 1
    return s, e, spelled


def _han_letter(ch: str) -> bool:
    return ch.isalpha() and not is_latin(ch)


def _han_core(text: str, lo: int, hi: int, within: tuple[int, int], english: Sequence[str],
              matcher: Scorer, longest: int = 4) -> tuple[int, int, int] | None:
    """The characters spelled like the English name: (start, end, English tokens spelled).

    Anchored on the best match in [lo, hi) that overlaps `within`; the other tokens' best
    matches inside `within` join when at most one character (a joiner) away.
    """
    found = []  # per English token with a match: (score, closeness, start, end)
    for token in english:
        cands = [(matcher.score(token, text[a:b]), -abs(a - within[0]), a, b)
                 for a in range(lo, hi) for b in range(a + 1, min(a + longest, hi) + 1)
                 if all(_han_letter(c) for c in text[a:b])]
        good = [c for c in cands if c[0] >= matcher.min_similarity]
        if good:
            found.append(max(good))
    whole = _whole_name(text, lo, hi, within, english, matcher, longest)
    if whole is not None:
        return whole
    anchors = [f for f in found if f[2] < within[1] and f[3] > within[0]]
    if not anchors:
        return None
    anchor = max(anchors)
    s, e, count = anchor[2], anchor[3], 1
    for f in sorted(found, key=lambda f: min(abs(f[2] - anchor[3]), abs(anchor[2] - f[3]))):
        a, b = f[2], f[3]
        if f is not anchor and within[0] <= a and b <= within[1] and (
                0 <= a - e <= 1 or 0 <= s - b <= 1):
            s, e, count = min(s, a), max(e, b), count + 1
    return s, e, count



def _whole_name(text: str, lo: int, hi: int, within: tuple[int, int], english: Sequence[str],
                matcher: Scorer, longest: int) -> tuple[int, int, int] | None:
    """A run in or next to the span whose Korean reading (from a surname) or Japanese reading
    (of a person's name) spells the whole English name, in order or surname last (`金正恩` for
    Kim Jong-un, `紫式部` for Murasaki Shikibu): read as a whole, since its characters alone
    read as many names."""
    if len(english) < 2:
        return None
    orders = ("".join(english), "".join(english[1:]) + english[0],
              english[-1] + "".join(english[:-1]))
    best: tuple[float, int, int] | None = None
    for a in range(lo, hi):
        if not within[0] <= a <= within[1]:
            continue
        for b in range(a + 2, min(a + longest, hi) + 1):
            if not _han_letter(text[b - 1]):
                break
            for reading, fold in han_readings(text[a:b]):
                score = max(orthographic(fold(o), reading) for o in orders)
                if score >= WHOLE_NAME_MIN and (best is None or score > best[0]):
                    best = (score, a, b)
    return (best[1], best[2], len(english)) if best else None


def han_readings(piece: str) -> list[tuple[str, Callable[[str], str]]]:
    """Sino-Korean readings (compared as Korean romanizations) and the Japanese reading."""
    found: list[tuple[str, Callable[[str], str]]] = [
        (korean_key(r), korean_key) for r in korean_readings(piece)]
    japanese = japanese_reading(piece)
    if japanese:
        found.append((japanese, str.casefold))
    return found


@functools.lru_cache(maxsize=1 << 16)
def _syllables(english: str) -> int:
    """An English token's vowel groups, a `y` between vowels a consonant (ge-yer: Geyer)."""
    return vowel_groups(regex.sub(r"(?<=[aeiou])y(?=[aeiou])", "j", english.lower()))


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalpha())


# A regnal number written after a name is part of it (`保羅六世`, Paul VI; `弗朗茨·約瑟夫一世`);
# `世紀` is a century.
_REGNAL = regex.compile(r"[一二三四五六七八九十]{1,3}世(?![紀纪])")


# Written before a given name or nickname to call someone familiarly, as part of the name
# (`小莱莱` for Lenny, `阿成`): dialogue writes them where the English has the name alone.
FAMILIAR = frozenset("小阿")


def with_familiar(text: str, start: int, end: int, english: Sequence[str]) -> int:
    """The span's start with the familiar `小` or `阿` before a one-word name, where it is
    not the end or the start of a common word (`大小`, `小心`)."""
    if len(english) != 1 or start < 1 or text[start - 1] not in FAMILIAR or not all(
            _HAN.fullmatch(c) for c in text[start:end]):
        return start
    if begins_word(text, start - 1) or (start >= 2 and begins_word(text, start - 2)):
        return start
    return start - 1


def with_regnal_number(text: str, start: int, end: int) -> int:
    """The span's end past a regnal number written right after it."""
    m = _REGNAL.match(text, end) if start < end else None
    return m.end() if m else end


def untitled(text: str, start: int, end: int, english: Sequence[str]) -> int:
    """The span's start past a first character that ends a common word with the one before
    it (`王` of `國王`, king, before `薩勒曼`), where the rest still reads as the English
    name: a title the aligner or a bracket rule took in."""
    if end - start < 3 or start == 0 or not begins_word(text, start - 1):
        return start
    return start + 1 if reads_as_name(text[start + 1:end], english) else start


# How many characters of the span a cut took off may be given back (`Han._name`).
READ_BACK = 2


def read_back(text: str, cut: Span, span: Span, english: Sequence[str],
              name_char: Callable[[int], bool]) -> Span:
    """The cut span with the fewest characters of `span` beside it, up to `READ_BACK`, that
    make it read as the whole English name (Han, not function characters, beginning no
    common word there); the cut span where none does. Two characters given back are a
    syllable pair a title or word could read as too (`总统`, president, as Donald; `菜鸟`,
    rookie, as Tommy): they must have a name's character and, side by side, not be a word."""
    start, end = cut
    for s, e in widened(text, start, end, READ_BACK, span):
        new = [*range(s, start), *range(end, e)]
        if len(new) > 1 and (not any(name_char(k) for k in new) or (
                (s == start or e == end) and begins_word(text, new[0], WORD))):
            continue
        if all(_HAN.fullmatch(text[k]) and text[k] not in FUNCTION_CHARACTERS for k in new) \
                and reads_as_name(text[s:e], english):
            return s, e
    return cut


def reads_as_name(piece: str, english: Sequence[str]) -> bool:
    """The Chinese piece reads in Mandarin as the whole English name: a part per English
    token between joiners (`·`), or, unjoined, runs in turn (`瑞秋格林`, Rachel Green)."""
    parts = [p for p in regex.split(f"[{_HAN_JOINERS}]", piece) if p]
    if len(parts) == len(english):
        return all(reads_as(p, t) for p, t in zip(parts, english, strict=True))
    return len(parts) == 1 and _reads_in_turn(piece, tuple(english))


@functools.lru_cache(maxsize=4096)
def _reads_in_turn(piece: str, english: tuple[str, ...]) -> bool:
    if len(english) == 1:
        return reads_as(piece, english[0])
    return any(reads_as(piece[:k], english[0]) and _reads_in_turn(piece[k:], english[1:])
               for k in range(1, len(piece)))


# A character written in this many transliterated names is almost only ever one (`爾` 5,159,
# `娜` 418, `耶` 457), unlike the words that follow names (`因` 156, `可` 109, `王` 71, `也` 12):
# chosen on the tune halves of PUD, WMT22, NIST and NTREX (docs/quality.md).
RUNS_ON = 200
# Beside a name, a dictionary word this frequent is a word, not more of the name: `法官`
# (813, judge) after `卡瓦诺`; names' own pieces are rarer (`莲娜` 51, `蒂娜` 12).
WORD = 100


# How much less like the English a name's last part may read with the character its run
# goes on with (`伊蓮` 0.77, `伊蓮娜` 0.67: Elaine).
RUN_ON_COST = 0.15


class Han(Family):
    name = "han"
    han = True
    syllabic = True

    def ignorable(self, piece: str) -> bool:
        return piece in FUNCTION_CHARACTERS

    def readings(self, piece: str) -> list[tuple[str, Callable[[str], str]]]:
        """Chinese also by its pinyin, which is how English writes a Chinese person's name
        (`习近平`: xijinping, Xi Jinping)."""
        found = han_readings(piece)
        if self.code == "zho" and len(piece) > 1:
            said = [pinyin(ch) for ch in piece]
            if all(said):
                found.append(("".join(said), _letters))
        return found

    def char_forms(self, ch: str) -> tuple[str, ...]:
        simple = simplified(ch)
        return (ch,) if simple == ch else (ch, simple)

    def same_form(self, text: str) -> str:
        """Simplified and traditional characters alike: the models learned names in both."""
        return folded(text)

    def characters(self, text: str, start: int, end: int, english: Sequence[str],
                   matcher: Scorer, *, enabled: bool, before_bracket: bool,
                   aligned: Span | None = None, claimed: frozenset[int] = frozenset()) -> Span:
        start, end = super().characters(text, start, end, english, matcher, enabled=enabled,
                                        before_bracket=before_bracket)
        if enabled and matcher.knows_names and english:
            start, end = self._name(text, start, end, english, matcher, before_bracket,
                                    aligned)
            if self.code == "zho" and start < end and all(_HAN.fullmatch(c) for c in text[start:end]
                                          if c not in _HAN_JOINERS):

                def name_char(k: int) -> bool:
                    return bool(_HAN.fullmatch(text[k])) and matcher.name_like(text[k])

                start, end = read_out(text, start, end, english, name_char)
                start, end = max(pinyin_runs(text, english, start, end),
                                 key=lambda r: r[1] - r[0], default=(start, end))
                start = untitled(text, start, end, english)
            if self.code == "zho":
                end = with_regnal_number(text, start, end)
                start, end = self._run_on(text, start, end, english, matcher)
                start = with_familiar(text, start, end, english)
        return start, end

    def _name(self, text: str, start: int, end: int, english: Sequence[str],
              matcher: Scorer, before_bracket: bool, aligned: Span | None) -> Span:
        """`han_name`; in Chinese, where the name's characters do not read as the whole
        English name, the fewest of the span's or the aligned span's characters beside them
        (at most `READ_BACK`) that make it read so: `瑞秋` (rui qiu) is Rachel though few
        transliterated names have `秋`, and `瑞秋` + `格林` is Rachel Green."""
        fixed = han_name(text, start, end, english, matcher, before_bracket, aligned)
        if aligned is not None and aligned[0] <= end and start <= aligned[1]:
            start, end = min(start, aligned[0]), max(end, aligned[1])
        if self.code != "zho" or not (start <= fixed[0] < fixed[1] <= end) or reads_as_name(
                text[slice(*fixed)], english):
            return fixed
        return read_back(text, fixed, (start, end), english,
                         lambda k: matcher.name_like(text[k]))

    def _run_on(self, text: str, start: int, end: int, english: Sequence[str],
                matcher: Scorer) -> Span:
        """The span with the character the name's run of characters goes on with (`runs_on`),
        where the name still reads as well: on the right, a last syllable English spells
        weakly may cost a little (`伊蓮` + `娜`, Elaine; `安塞密` + `爾`, Anselmi); on the
        left, the first part must read better (`穌` -> `耶穌`, Jesus; not `克` + `圖特摩斯`)."""
        k = self._run_on_at(text, start, end, matcher.char_count)
        if k is None:
            return start, end
        joiners = [i for i in range(start, end) if text[i] in _HAN_JOINERS]
        if k == end:
            part, token = text[(joiners[-1] + 1 if joiners else start):end], english[-1]
            return (start, end + 1) if matcher.score(token, part + text[k]) >= matcher.score(
                token, part) - RUN_ON_COST else (start, end)
        part, token = text[start:(joiners[0] if joiners else end)], english[0]
        return (k, end) if matcher.score(token, text[k] + part) > matcher.score(
            token, part) else (start, end)

    def spells(self, form: str, english: str) -> bool:
        """Mandarin writes a token of two syllables or more with two characters or more: a
        model's one-character form of it (`耶` for Geyer) is a part, not the name."""
        return self.code != "zho" or len(form) > 1 or _syllables(english) < 2

    def heard(self, text: str, spans: Sequence[Span], token: str,
              count: Callable[[str], int]) -> list[tuple[int, int]]:
        """Chinese: runs of names' characters that read as the token (`heard_runs`)."""
        if self.code != "zho":
            return []

        def known(k: int) -> int:
            if not _HAN.fullmatch(text[k]) or text[k] in FUNCTION_CHARACTERS or not count(
                    text[k]):
                return 0
            return 2 if count(text[k]) >= NAME_CHAR_MIN else 1

        return heard_runs(text, spans, token, known)

    def runs_on(self, text: str, start: int, end: int,
                count: Callable[[str], int]) -> str | None:
        """Chinese writes a transliterated name as an unbroken run of characters: one written
        in `RUNS_ON` names or more right beside the span, not beginning or ending a common
        word there, says the span may be cut (`伊蓮` before `娜`, `安塞密` before `爾`)."""
        k = self._run_on_at(text, start, end, count)
        return None if k is None else text[k]

    def _run_on_at(self, text: str, start: int, end: int,
                   count: Callable[[str], int]) -> int | None:
        if self.code != "zho" or start >= end:
            return None
        for k, word in ((end, end), (start - 1, start - 2)):
            if 0 <= k < len(text) and _HAN.fullmatch(text[k]) \
                    and text[k] not in FUNCTION_CHARACTERS and count(text[k]) >= RUNS_ON \
                    and not (word >= 0 and begins_word(text, word, WORD)):
                return k
        return None

    def read_exactly(self, text: str, english: Sequence[str]) -> list[Span]:
        """Chinese: the runs of two or more characters whose pinyin is the English name."""
        return pinyin_runs(text, english, least=2) if self.code == "zho" else []
