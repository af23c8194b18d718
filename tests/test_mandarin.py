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
