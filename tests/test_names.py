"""Name normalization: possessives, honorifics, spelling variants."""

from __future__ import annotations

import pytest

from xel.names.english import clean_spaces, name_key, split_name


@pytest.mark.parametrize(
    ("marked", "name", "honorific"),
    [
        ("Gary Holt's", "Gary Holt", None),
        ("Gary Holt’s", "Gary Holt", None),
        ("Chris James'", "Chris James", None),
        ("Yasser Arafat 's", "Yasser Arafat", None),  # tokenized text spaces the possessive
        ("Mrs May", "May", "Mrs"),
        ("President Ahmet Sezer", "Ahmet Sezer", "President"),
        ("Dr. Christine Blasey Ford", "Christine Blasey Ford", "Dr."),
        ("“Boris Johnson”", "Boris Johnson", None),
        ("Det Insp Bob Blemmings", "Bob Blemmings", "Det Insp"),  # NTREX's police titles
        ("Lawyer Christian Schertz", "Christian Schertz", "Lawyer"),
        ("Tsar Alexander", "Alexander", "Tsar"),  # PUD; a monarch's title
        ("Shah Rukh Khan", "Shah Rukh Khan", None),  # Shah is a name too
        ("Martin Luther King Jr.", "Martin Luther King Jr.", None),
        ("Mr", "Mr", None),  # an honorific alone is left as the name, not dropped silently
        ("Voltaire et al.", "Voltaire", None),  # a list's `et al.` is no part of a name
        ("Li Kaier, et al.", "Li Kaier", None),
        ("Et Al", "Et Al", None),
    ],
)
def test_split_name(marked: str, name: str, honorific: str | None) -> None:
    split = split_name(marked)
    assert split is not None
    assert (split.name, split.honorific) == (name, honorific)
    assert marked[split.start:split.end] == split.name


def test_split_name_rejects_punctuation_only() -> None:
    assert split_name("'s") is None
    assert split_name("--") is None


def test_variants_share_a_key() -> None:
    assert name_key("Kim Jong Un") == name_key("Kim Jong-un") == name_key("KIM  JONG\u2011UN")
    assert name_key("José María Aznar") == "jose maria aznar"
    assert name_key("Walid al-Moualem") == name_key("Walid Al Moualem")
    assert name_key("Gary Holt") != name_key("Gary Holton")


def test_clean_spaces() -> None:
    assert clean_spaces(" Kim\u00a0Jong  Un ") == "Kim Jong Un"


@pytest.mark.parametrize(("text", "span", "english", "name"), [
    # The aligner stopped at the surname; the given name follows (Kyoto Wikipedia).
    ("内大臣久我建通（こが たけみち）の長男。", "久我", ["Takemichi", "Koga"], "久我建通"),
    ("祖父は鈴木弥太夫、父の代から", "鈴木弥太", ["Yatao", "Suzuki"], "鈴木弥太夫"),
    ("秋山真之は実弟にあたる。", "秋山真", ["Saneyuki", "Akiyama"], "秋山真之"),
    # Ranks and kin words before, titles after, go.
    ("母は安芸法眼の娘藤原慶子で", "娘藤原慶子", ["Fujiwara", "no", "Yoshiko"], "藤原慶子"),
    ("著者は太政大臣洞院公賢。", "太政大臣洞院公賢", ["Kinkata", "Toin"], "洞院公賢"),
    ("安倍晋三元首相は奈良で", "安倍", ["Shinzo", "Abe"], "安倍晋三"),
    ("法然上人の父にあたる。", "法然上人", ["Honen", "Shonin"], "法然"),
    # A complete name is not extended over what follows it, nor a given name cut.
    ("原敬内閣の時", "原敬", ["Takashi", "Hara"], "原敬"),
    ("毛利輝元は", "毛利", ["Terumoto", "Mori"], "毛利輝元"),
    ("中国の王毅外相は", "王毅", ["Wang", "Yi"], "王毅"),
    # A one-token English name is not completed from a guess.
    ("阿部正外（あべ まさと）は", "阿部", ["Abe"], "阿部"),
])
def test_japanese_kanji_names_are_whole(text: str, span: str, english: list[str],
                                        name: str) -> None:
    from xel.names.japanese import kanji_name

    a = text.index(span)
    s, e = kanji_name(text, a, a + len(span), english)
    assert text[s:e] == name


@pytest.mark.parametrize(("text", "english", "name"), [
    # Japanese Wikipedia glosses a name with its kana reading: the name that reads as the
    # English, in either order, with the space between surname and given name.
    ("東園 基敬（ひがしその もとゆき、文政3年）は幕末の公卿。", ["Motoyuki", "Higashisono"],
     "東園 基敬"),
    ("初名は冬実（ふゆざね）・昭尹（あきただ）。", ["Akitada"], "昭尹"),
    ("吉子女王（よしこじょおう、1804年）は", ["Yoshiko"], "吉子"),  # a title read along
    ("藤原 為時（ふじわら の ためとき、949年）は", ["Fujiwara", "no", "Tametoki"], "藤原 為時"),
    # Long vowels and voicing as English writes them; a rank before the name goes.
    ("著者は太政大臣洞院公賢（とういん きんかた）。", ["Kinkata", "Toin"], "洞院公賢"),
    # The first of two readings glosses the kanji; a wide space ends a reading too.
    ("初名義良（よしすけ/よしなが）。", ["Yoshisuke"], "義良"),
    ("近衛 信尹（このえ のぶただ\u30001565年）は", ["Nobutada", "Konoe"], "近衛 信尹"),
    # A gloss of another reading or another person is no find.
    ("五社 英雄（ごしゃ ひでお、本名）は", ["Eiyu", "Gosha"], None),
    ("初名は冬実（ふゆざね）。", ["Akitada"], None),
    ("山（やま）", [], None),
])
def test_glossed_japanese_names_are_found_by_their_reading(text: str, english: list[str],
                                                           name: str | None) -> None:
    from xel.names.japanese import glossed_names

    found = [text[s:e] for s, e in glossed_names(text, english)]
    assert found == ([name] if name else [])


@pytest.mark.parametrize(("text", "english", "name"), [
    ("名は「よしひと」ともいう。", ["Yoshihito"], "よしひと"),
    ("父・周吉、母・たまの8人兄弟", ["Tama"], "たま"),  # a particle after it
    ("法律学者江木衷（まこと・ちゅう）の妻。", ["Chu"], "ちゅう"),  # a second reading
    ("初名義良（よしすけ/よしなが）。", ["Yoshinaga"], "よしなが"),
    # A kanji name's first reading is the kanji's, not a name in kana.
    ("初名義良（よしすけ/よしなが）。", ["Yoshisuke"], None),
    ("香川元春（かがわ もとはる）は", ["Kagawa"], None),
    # Hiragana beside kanji is grammar; a common word is no name unless it reads as one.
    ("この本はその人の", ["Kono"], None),
    ("母・たまの8人兄弟", ["Tamano"], "たまの"),
    ("母・たまの8人兄弟", ["Tam"], None),
])
def test_names_spelled_in_hiragana_are_found_by_their_reading(text: str, english: list[str],
                                                              name: str | None) -> None:
    from xel.names.japanese import kana_names

    assert [text[s:e] for s, e in kana_names(text, english)] == ([name] if name else [])


def test_kanji_aligned_with_other_english_words_are_not_taken_into_a_name() -> None:
    from xel.names.japanese import whole_kanji_run

    text = "古今和歌集真名序の作者紀淑望がいる。"
    a = text.index("紀淑")
    author = frozenset(range(text.index("作者"), text.index("作者") + 2))
    assert text[slice(*whole_kanji_run(text, a, a + 2, ["Ki", "no", "Yoshimochi"]))] == "作者紀淑望"
    assert text[slice(*whole_kanji_run(text, a, a + 2, ["Ki", "no", "Yoshimochi"],
                                       author))] == "紀淑望"
    # A lone kanji is too little to trust the links beside it; titles still go first.
    text = "父は光仁天皇。"
    a = text.index("仁")
    assert text[slice(*whole_kanji_run(text, a, a + 1, ["Konin"], frozenset({a - 1})))] == "光仁"
    text = "文大統領との会談"
    assert text[slice(*whole_kanji_run(text, 0, 1, ["Moon"], frozenset({1, 2, 3})))] == "文"


def test_a_reign_and_a_given_name_ending_in_its_character_are_told_apart() -> None:
    from xel.names.japanese import kanji_name

    text = "平安時代中期、一条天皇朝の代表的な詩人。源頼朝の弟。"
    a = text.index("一条")
    assert text[slice(*kanji_name(text, a, a + 5, ["Ichijo"]))] == "一条"  # Ichijo's reign
    a = text.index("源頼朝")
    assert text[slice(*kanji_name(text, a, a + 3, ["Minamoto", "no", "Yoritomo"]))] == "源頼朝"


@pytest.mark.parametrize(("text", "span", "english", "name"), [
    # Japanese sets a name off with kana or punctuation: the whole run of kanji is the name
    # where it has a name's length.
    ("名は貞一、虔儒。", "虔", ["Kenju"], "虔儒"),
    ("行願寺の行円の許を訪ねる。", "円", ["Gyoen"], "行円"),
    ("仮名は喜傳次。", "喜傳", ["Kemyo"], "喜傳次"),
    ("兄に大炊御門宗実・大炊御門信経がいる。", "大炊御門", ["Munezane", "Oinomikado"],
     "大炊御門宗実"),
    # Ranks, kinds of name, generations before and titles after stay out.
    ("法名長禅。", "禅", ["Chozen"], "長禅"),
    ("初代中村東蔵は", "中村", ["Tozo", "Nakamura"], "中村東蔵"),
    ("徳川斉昭正室の", "斉昭", ["Nariaki", "Tokugawa"], "徳川斉昭"),
    # Titles and honorifics of modern news too (a span spaced out by a gold tokenization
    # is compacted first, so the whole run is seen).
    ("習近平国家主席は", "習近平", ["Xi", "Jinping"], "習近平"),
    ("金正恩氏と", "金正恩", ["Kim", "Jong-un"], "金正恩"),
    ("安倍晋三元首相は", "安倍", ["Shinzo", "Abe"], "安倍晋三"),
    ("習氏は", "習", ["Xi"], "習"),
    # A number's counter, a generation, a kin word after a full name stay out; Go- comes in.
    ("1912年高橋頼治の養子", "高橋頼治", ["Yoriji", "Takahashi"], "高橋頼治"),
    ("父は第40代天武天皇、", "天武", ["Tenmu"], "天武"),
    ("母は美濃守藤原行房女。", "藤原行房女", ["Fujiwara", "no", "Yukifusa"], "藤原行房"),
    ("後深草院弁内侍は", "深草", ["Gofukakusa"], "後深草"),
    # A rank before the name; `氏` the English reads is the given name's, not an honorific.
    ("関白藤原忠平の四男。", "藤原忠平", ["Fujiwara", "no", "Tadahira"], "藤原忠平"),
    ("堀尾忠氏の子で", "堀尾忠", ["Tadauji", "Horio"], "堀尾忠氏"),
    # Longer than a name: left as it was, but for a title the aligner took in.
    ("第66代一条天皇生母", "一条天皇", ["Ichijo"], "一条"),
    ("徳川家康公は", "家康", ["Ieyasu"], "家康"),
    ("右近衛権中将藤原", "藤原", ["Fujiwara"], "藤原"),
])
def test_a_japanese_name_is_its_whole_run_of_kanji(text: str, span: str, english: list[str],
                                                   name: str) -> None:
    from xel.names.japanese import whole_kanji_run

    a = text.index(span)
    assert text[slice(*whole_kanji_run(text, a, a + len(span), english))] == name


def test_a_katakana_no_between_kanji_is_part_of_a_kanji_name() -> None:
    from xel.names.japanese import katakana_name

    text = "西ノ海 嘉治郎（にしのうみ かじろう）"
    assert katakana_name(text, 0, 7, 2) == (0, 7)
    text = "ジョン・ノート"
    assert text[slice(*katakana_name(text, 5, 7, 2))] == "ジョン・ノート"


@pytest.mark.parametrize(("text", "start", "end", "english", "name"), [
    ("有栖川宮織仁親王の九女。", 4, 5, ["Orihito"], "有栖川宮織仁"),  # a prince's house stays
    ("八条宮 智仁親王（はち", 4, 6, ["Toshihito"], "八条宮 智仁"),  # also across a space
    ("八条宮の智仁", 4, 6, ["Toshihito"], "智仁"),  # no prince: no house
    ("通称は少右衛門のち勝右衛門（但し", 10, 12, ["Katsuemon"], "勝右衛門"),
    ("父大野九郎兵衛が藩内", 1, 3, ["Ono"], "大野九郎兵衛"),  # a common name's ending
    ("父大野九郎平が藩内", 1, 3, ["Ono"], "大野"),  # five kanji: too long for one word
])
def test_whole_kanji_runs_keep_princely_houses_and_long_common_names(
        text: str, start: int, end: int, english: list[str], name: str) -> None:
    from xel.names.japanese import whole_kanji_run

    assert text[slice(*whole_kanji_run(text, start, end, english))] == name
