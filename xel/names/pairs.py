"""Name-token pairs from a knowledge base's names in other languages.

xel ships transliteration models for the scripts with Wikidata pairs (Cyrillic, Arabic,
Hebrew, Chinese, katakana, Hangul). For any other language a user gets pairs the way Merhav &
Ash got theirs: a Wikidata dump's labels. `xel kb build` keeps every language's label of each
person; here an English name and its label in one language are paired token by token where
both have the same number of tokens and the label is written in the language's script, and
`xel names train --pairs` trains on the counted pairs (the `wd_` format: English token, target
characters separated by spaces, count).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import regex

from xel.languages import is_chinese, language
from xel.names.english import name_key
from xel.names.script import SEPARATORS

# Wikidata label codes by xel language, where the ISO 639-1 code alone is not the right one.
WIKIDATA_CODES = {
    "zho-CN": ("zh-hans", "zh-cn", "zh"), "zho-TW": ("zh-hant", "zh-tw", "zh-hk", "zh"),
    "srp-Latn": ("sr-el", "sr-latn"), "srp-Cyrl": ("sr-ec", "sr-cyrl", "sr"),
    "arb": ("ar",),  # Standard Arabic, which ISO 639-1 codes as its macrolanguage
}
# Scripts whose letters Unicode files under another script name.
_UNICODE_SCRIPTS = {"Hans": "Han", "Hant": "Han", "Hani": "Han", "Jpan": "Katakana",
                    "Kana": "Katakana", "Kore": "Hangul"}


def wikidata_codes(lang: str) -> tuple[str, ...]:
    """The label codes a Wikidata dump uses for an xel language (`ell`: `el`)."""
    info = language(lang)
    return WIKIDATA_CODES.get(lang, (info.iso1,) if info.iso1 else (lang.split("-")[0],))


def label_codes(lang: str) -> tuple[str, ...]:
    """The label codes whose labels a sentence in `lang` may write: the language's own, then
    for Chinese the other script's (matched with characters folded: `xel.names.han.folded`),
    since the KB has many places in one script only."""
    own = wikidata_codes(lang)
    if not is_chinese(lang):
        return own
    return own + tuple(c for other in ("zho-CN", "zho-TW") for c in WIKIDATA_CODES[other]
                       if c not in own)


def token_pairs(names: Iterable[tuple[str, str]], lang: str) -> Counter[tuple[str, str]]:
    """(English token, target token) counts from (English name, label) pairs: a label written
    surname first with a comma (`Рот, Вероника`) is turned round; labels with another number of
    tokens, or not in the language's script, give none."""
    script = language(lang).script
    # Marks and the apostrophes Hebrew's geresh is written with count as letters (`רות'`).
    unicode_script = _UNICODE_SCRIPTS.get(script, script)
    letters = regex.compile(rf"[\p{{sc={unicode_script}}}\p{{M}}'\u05f3\u2019]+")
    counts: Counter[tuple[str, str]] = Counter()
    for english, label in names:
        if "," in label:
            family_name, _, given = label.partition(",")
            label = f"{given} {family_name}"
        source = name_key(english).split()
        target = [t for t in SEPARATORS.split(label.strip()) if t]
        if len(source) != len(target) or not all(letters.fullmatch(t) for t in target):
            continue
        counts.update(zip(source, (t.casefold() for t in target), strict=True))
    return counts


def write_pairs(counts: Counter[tuple[str, str]], path: Path) -> int:
    """Write pairs in the `wd_` format, most frequent first; returns how many."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    path.write_text("".join(f"{e}\t{' '.join(t)}\t{n}\n" for (e, t), n in rows),
                    encoding="utf-8")
    return len(rows)
