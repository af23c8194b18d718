"""Chinese transliterations read in Mandarin against the English name they were aligned to,
and Han names read as wholes (`xel.names.mandarin`, `xel.names.agree.read_whole`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from xel.names.agree import agreement
from xel.names.mandarin import consonants, pinyin, pinyin_runs, read_out, reads_as, syllables


@pytest.mark.parametrize(("piece", "token"), [
    ("湯瑪斯", "Thomas"), ("賈斯汀", "Justin"), ("卡瓦諾", "Kavanaugh"), ("科爾賓", "Corbyn"),
    ("喬丹", "Jordan"), ("林賽", "Lindsey"), ("格萊厄姆", "Graham"), ("蓬佩奧", "Pompeo"),
    ("派崔克", "Patrick"), ("范斯坦", "Feinstein"), ("黛安", "Dianne"), ("華倫", "Warren"),
    ("布特弗利卡", "Bouteflika"), ("贝卢斯科尼", "Berlusconi"), ("川普", "Trump"),
])
def test_transliterations_read_as_their_english_name(piece: str, token: str) -> None:
    assert reads_as(piece, token)


@pytest.mark.parametrize(("piece", "token"), [
    ("卡瓦諾一", "Kavanaugh"),  # a character too many
    ("卡瓦", "Kavanaugh"), ("贝卢斯科", "Berlusconi"),  # the last part unwritten
    ("瑪斯", "Thomas"),  # the first consonant unwritten
    ("裡", "Reeher"), ("梅", "Theresa"),  # one syllable for a longer name
    ("湯瑪斯", "Justin"), ("川普", "Donald"), ("總統", "Trump"),
    ("弗利卡", "Bouteflika"), ("Trump", "Trump"), ("", "Trump"),
])
def test_other_pieces_do_not(piece: str, token: str) -> None:
    assert not reads_as(piece, token)


def test_readings_are_classes_of_consonants() -> None:
    assert consonants("Patrick") == "PTLK"
    assert syllables("科爾賓") == (("K", False), ("L", False), ("P", True))
    assert syllables("川普A") == ()


def test_chinese_names_agree_part_by_part_in_mandarin_and_korean_names_as_wholes() -> None:
    assert agreement("賈斯汀·湯瑪斯", "Justin Thomas", "zho-TW").score == 1.0
    assert "in Mandarin" in agreement("傑雷米·科爾賓", "Jeremy Corbyn", "zho-TW").why
    assert agreement("湯瑪斯", "Justin Thomas", "zho-TW").score == 0.0  # a part is missing
    assert agreement("金正恩", "Kim Jong-un", "zho-TW").score == 1.0  # Sino-Korean reading
    assert agreement("李容浩", "Ri Yong Ho", "zho-TW").score == 1.0
    assert agreement("金", "Kim Jong-un", "zho-TW").score == 0.0


def _name_char(text: str) -> Callable[[int], bool]:
    """Han letters that are not function words, as `Han.characters` passes them."""
    return lambda k: "\u4e00" <= text[k] <= "\u9fff" and text[k] not in "的在和与是了总理"


@pytest.mark.parametrize(("text", "span", "english", "name"), [
    # An aligner cut a transliteration short: the characters that make it read come back.
    ("意大利总理贝卢斯科尼在比亚吉遭暗杀后", "贝卢斯科", ["Berlusconi"], "贝卢斯科尼"),
    ("审议并通过了总统布特弗利卡提出的一项", "弗利卡", ["Bouteflika"], "布特弗利卡"),
    # A name that reads already stays; nothing beside it that reads is taken.
    ("美国国务卿鲍威尔将再度", "鲍威尔", ["Powell"], "鲍威尔"),
    ("国务卿鲍威尔", "威尔", ["Smith"], "威尔"),
    # Several English tokens: the part across `·` comes, by reading or a syllable per vowel.
    ("国会议长阿克巴尔·丹戎因被指控", "阿克巴尔", ["Akbar", "Tanjung"], "阿克巴尔·丹戎"),
    ("阿总理本·弗利斯在会议上", "弗利斯", ["Bin", "Flis"], "本·弗利斯"),
    ("总统布特弗利卡提出", "布特弗利卡", ["Abdelaziz", "Bouteflika"], "布特弗利卡"),
])
def test_cut_transliterations_are_read_out(text: str, span: str, english: list[str],
                                           name: str) -> None:
    a = text.index(span)
    s, e = read_out(text, a, a + len(span), english, _name_char(text))
    assert text[s:e] == name


@pytest.mark.parametrize(("text", "span", "english", "name"), [
    # The first part on its left, the last on its right: a name that starts with a vowel
    # starts with a vowel syllable; a last consonant left out is written if it can be.
    ("穿手工鞋的女人 阿德丽安娜•翠吉亚尼 著", "德丽安娜•翠吉亚", ["Adriana", "Trigiani"],
     "阿德丽安娜•翠吉亚尼"),
    ("埃及外长马希尔前天表示", "马希", ["Maher"], "马希尔"),
    ("以加尔文为代表", "尔文", ["Calvin"], "加尔文"),
])
def test_outer_parts_are_completed_to_read_whole(text: str, span: str, english: list[str],
                                                 name: str) -> None:
    a = text.index(span)
    s, e = read_out(text, a, a + len(span), english, _name_char(text))
    assert text[s:e] == name


@pytest.mark.parametrize(("text", "span", "english", "name"), [
    # Traditional Chinese of PUD (corpora/pud_persons): a grown span gets its vowel syllable
    # too (`阿` of Aldrin), a common word beside the name stays out (`當時`, at the time), and
    # a name of several parts with no `·` between them gets its last part's last syllable.
    ("2002年9月9日，阿特靈被人以接受", "靈", ["Aldrin"], "阿特靈"),
    ("鑑於希律當時在耶路撒冷", "希律", ["Herod"], "希律"),
    ("希律安提帕斯與希羅底的準確結婚年份", "希律安提帕", ["Herod", "Antipas"], "希律安提帕斯"),
])
def test_names_are_completed_by_syllables_not_by_words(text: str, span: str,
                                                        english: list[str], name: str) -> None:
    a = text.index(span)
    s, e = read_out(text, a, a + len(span), english, _name_char(text))
    assert text[s:e] == name


def test_common_words_and_titles_are_no_part_of_a_name() -> None:
    from xel.names.han import untitled, with_regnal_number
    from xel.names.mandarin import begins_word

    assert begins_word("希律當時在", 2) and not begins_word("希律當時在", 1)
    assert not begins_word("卡拉", 0)  # a name's own piece is rare in the dictionary
    # A title the bracket rule took in is left out where the rest reads as the name; a
    # Chinese name after a word ending the same way keeps its surname.
    text = "沙特阿拉伯國國王薩勒曼（King Salaman）讓"
    a = text.index("王薩勒曼")
    assert text[untitled(text, a, a + 4, ["Salaman"]):a + 4] == "薩勒曼"
    text = "中國王毅外長"
    assert untitled(text, 1, 4, ["Wang", "Yi"]) == 1
    # A regnal number after a name is part of it; a century is not.
    text = "1969年8月，教皇保羅六世從梵蒂岡法律中"
    a = text.index("保羅")
    assert text[a:with_regnal_number(text, a, a + 2)] == "保羅六世"
    assert with_regnal_number("保羅十九世紀", 0, 2) == 2


def test_latin_names_in_unspaced_text_are_taken_whole() -> None:
    from xel.names.script import whole_latin_words

    text = "SaskTel的無限數據用戶Lindsay Gay上個月報導說"
    a = text.index("Gay")
    assert text[slice(*whole_latin_words(text, a, a + 3, ["Lindsay", "Gay"]))] == "Lindsay Gay"
    a = text.index("ndsay")
    assert text[slice(*whole_latin_words(text, a, a + 3))] == "Lindsay"  # word edges only
    text = "他說 John 和 Mary 是"
    a = text.index("Mary")
    assert whole_latin_words(text, a, a + 4, ["Mary"]) == (a, a + 4)


def test_a_chinese_persons_name_is_its_pinyin() -> None:
    text = "习近平总书记在会上发表重要讲话，深入分析"
    assert pinyin_runs(text, ["Xi", "Jinping"], least=2) == [(0, 3)]
    assert pinyin_runs(text, ["Jinping", "Xi"], least=2) == [(0, 3)]  # surname last
    text = "考虑到双方，几天后，林某将定金退回给了陆先生。"
    assert [text[a:b] for a, b in pinyin_runs(text, ["Lu"])] == ["虑", "陆"]
    assert pinyin_runs(text, ["Lu"], least=2) == []  # one syllable is no search
    assert pinyin("习") == "xi" and pinyin("A") == ""
    assert agreement("习近平", "Xi Jinping", "zho-CN").score == 1.0
    assert agreement("习近", "Xi Jinping", "zho-CN").score == 0.0


def test_a_transliteration_that_may_run_on_is_named() -> None:
    """Chinese writes a transliterated name as one run of characters: a character written
    in many names right beside an accepted projection says it may be cut, unless it begins a
    common word there or is a function character."""
    from xel.names.families import family

    counts = {"爾": 5159, "娜": 418, "耶": 457, "因": 156, "被": 0, "當": 300, "的": 400}
    rules = family("zho-TW")

    def count(ch: str) -> int:
        return counts.get(ch, 0)

    text = "蒂娜·安塞密爾於1927年3月25日出生"
    assert rules.runs_on(text, 0, text.index("爾"), count) == "爾"
    text = "在1979年拍攝電影時，溫斯頓遇見了他未來的妻子伊蓮娜。"
    assert rules.runs_on(text, text.index("伊蓮"), text.index("娜"), count) == "娜"
    assert rules.runs_on(text, text.index("伊蓮"), text.index("。"), count) is None
    text = "彼拉多決定派耶穌去希羅底那"
    assert rules.runs_on(text, text.index("穌"), text.index("穌") + 1, count) == "耶"
    # Words after names: rare in names, the start of a common word, a function character.
    assert rules.runs_on("阿克巴爾·丹戎因被指控", 0, 7, count) is None
    assert rules.runs_on("鑑於希律當時在耶路撒冷", 2, 4, count) is None
    assert rules.runs_on("特朗普的支持者", 0, 3, count) is None
    counts["法"] = 2000  # `法官` (judge) after a name is a word, however name-like `法` is
    assert rules.runs_on("布雷特·卡瓦诺法官的指控", 0, 7, count) is None
    assert family("jpn").runs_on("伊蓮娜", 0, 2, count) is None  # Chinese only
