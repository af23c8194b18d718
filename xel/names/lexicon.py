"""Wikidata name-token pairs of one script as a dictionary, both ways.

The pairs (English token, target form, count) are the Merhav & Ash (COLING 2018) files in
`../shared/data/translit`: forward gives an English token's target forms, backward a target
form's English token, and `char_counts` how many transliterated names use each character
(what makes a Chinese character name-like).
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import regex

from xel.errors import XelError
from xel.languages import language

# Scripts the Wikidata name-pair dictionaries cover (file suffix in ../shared/data/translit).
DICTIONARY_FILES = {
    "Cyrl": "wd_russian_80", "Arab": "wd_arabic_80", "Hans": "wd_chinese_80",
    "Hant": "wd_chinese_80", "Hani": "wd_chinese_80", "Jpan": "wd_katakana_80",
    "Kana": "wd_katakana_80", "Hebr": "wd_hebrew_80", "Kore": "wd_korean_80",
    "Hang": "wd_korean_80",
}
# Between the parts of one name: spaces, dashes, middle dots, katakana `・`.
SEPARATORS = regex.compile(r"[\s\p{Pd}\u00b7\u30fb\u2027\u2022.]+")


@dataclass(frozen=True)
class NameDictionary:
    """Wikidata English-token <-> target-token pairs of one script, with counts."""

    forward: dict[str, list[str]]  # English token -> target forms, most frequent first
    backward: dict[str, str]  # target form -> its most frequent English token
    longest: int  # longest target form, in characters
    char_counts: dict[str, int]  # how many target forms use each character


def load_dictionary(path: Path) -> NameDictionary:
    """Read a `wd_*` file: English token, target characters separated by spaces, count."""
    forward: dict[str, list[tuple[int, str]]] = defaultdict(list)
    backward: dict[str, tuple[int, str]] = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 3 or not fields[2].isdigit():
                raise XelError(
                    f"{path}, line {number}: expected 'english<TAB>t a r g e t<TAB>count'"
                )
            english, target, count = fields[0].casefold(), fields[1].replace(" ", ""), int(
                fields[2])
            if not english or not target:
                continue
            forward[english].append((count, target))
            if count > backward.get(target, (0, ""))[0]:
                backward[target] = (count, english)
    chars: Counter[str] = Counter()
    for target in backward:
        chars.update(set(target))
    return NameDictionary(
        {e: [t for _, t in sorted(forms, key=lambda x: (-x[0], x[1]))]
         for e, forms in forward.items()},
        {t: e for t, (_, e) in backward.items()},
        max((len(t) for t in backward), default=0),
        dict(chars),
    )


@functools.lru_cache(maxsize=16)
def _cached_dictionary(path: str) -> NameDictionary:
    return load_dictionary(Path(path))


def dictionary_file(lang: str, folder: Path) -> Path | None:
    """The pairs file for a language's script in `folder`, where there is one."""
    name = DICTIONARY_FILES.get(language(lang).script)
    path = folder / name if name else None
    return path if path and path.is_file() else None


def dictionary_for(lang: str, folder: Path) -> NameDictionary | None:
    """The name dictionary for a language's script, or None where there is none."""
    path = dictionary_file(lang, folder)
    return _cached_dictionary(str(path)) if path else None


def dictionary_back(text: str, dictionary: NameDictionary) -> str | None:
    """English for a name all of whose parts the dictionary knows (longest match first).

    A part the dictionary lacks may be an inflected form (`Трампа`): one or two final letters
    are dropped to find it.
    """
    words = []
    for part in SEPARATORS.split(text.strip().casefold()):
        if not part:
            continue
        stems = [part[:len(part) - cut] for cut in (1, 2) if len(part) - cut >= 3]
        whole = next((dictionary.backward[p] for p in [part, *stems]
                      if p in dictionary.backward), None)
        if whole:
            words.append(whole)
            continue
        pos = 0
        while pos < len(part):
            for size in range(min(dictionary.longest, len(part) - pos), 0, -1):
                english = dictionary.backward.get(part[pos:pos + size])
                if english:
                    words.append(english)
                    pos += size
                    break
            else:
                return None
    return " ".join(w.title() for w in words) if words else None
