"""Name translation back to English, and what projection learns from how names are written.

Round-trip triage translates a projected name to English and accepts it when it gives the
English name exactly (Lawrie et al. 2015). Translators are chosen by name in the config:
`googletrans` (the paper's method; needs the network) and `offline`, which returns a Latin-script
name unchanged, reads other scripts through the Wikidata name-pair dictionaries where they
cover every token, and otherwise transliterates with ICU. Every answer is cached in the store,
so no name is translated twice.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import icu
import regex

from xel.config import TriageConfig
from xel.errors import XelError
from xel.languages import language
from xel.registry import translators
from xel.store import Store

CACHE_DDL = """
CREATE TABLE IF NOT EXISTS translations (
    backend     TEXT NOT NULL,     -- the translator asked (googletrans, offline)
    lang        TEXT NOT NULL,
    text        TEXT NOT NULL,
    translation TEXT NOT NULL,
    method      TEXT NOT NULL,     -- what answered: googletrans, identity, name-dictionary, icu
    PRIMARY KEY (backend, lang, text)
) WITHOUT ROWID;
"""

# Scripts the Wikidata name-pair dictionaries cover (file suffix in ../shared/data/translit).
DICTIONARY_FILES = {
    "Cyrl": "wd_russian_80", "Arab": "wd_arabic_80", "Hans": "wd_chinese_80",
    "Hant": "wd_chinese_80", "Hani": "wd_chinese_80", "Jpan": "wd_katakana_80",
    "Kana": "wd_katakana_80", "Hebr": "wd_hebrew_80", "Kore": "wd_korean_80",
    "Hang": "wd_korean_80",
}
_SEPARATORS = regex.compile(r"[\s\p{Pd}\u00b7\u30fb\u2027\u2022.]+")


@dataclass(frozen=True)
class Translation:
    text: str
    method: str


class TranslationError(Exception):
    """A translator could not answer (network down, refused); the stage falls back or stops."""


# --- what names look like -----------------------------------------------------------------


@functools.cache
def transliterator(rules: str) -> icu.Transliterator:
    return icu.Transliterator.createInstance(rules)


def to_latin(text: str) -> str:
    """Lower-case ASCII Latin form of a name in any script (ICU `Any-Latin; Latin-ASCII`)."""
    latin = transliterator("Any-Latin; Latin-ASCII; Lower").transliterate(text)
    return "".join(ch for ch in latin if not unicodedata.combining(ch))


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


def dictionary_for(lang: str, folder: Path) -> NameDictionary | None:
    """The name dictionary for a language's script, or None where there is none."""
    name = DICTIONARY_FILES.get(language(lang).script)
    if name is None or not (folder / name).is_file():
        return None
    return _cached_dictionary(str(folder / name))


def dictionary_back(text: str, dictionary: NameDictionary) -> str | None:
    """English for a name all of whose parts the dictionary knows (longest match first).

    A part the dictionary lacks may be an inflected form (`Трампа`): one or two final letters
    are dropped to find it.
    """
    words = []
    for part in _SEPARATORS.split(text.strip().casefold()):
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


# --- translators ----------------------------------------------------------------------------

Translator = Callable[[list[str], str, TriageConfig], dict[str, Translation]]


def is_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(
        unicodedata.name(ch, "").startswith("LATIN") for ch in letters
    )


@translators.register("offline")
def offline(names: list[str], lang: str, config: TriageConfig) -> dict[str, Translation]:
    """Identity for Latin script; name dictionary where it knows every part; else ICU."""
    dictionary = dictionary_for(lang, Path(config.translit)) if config.translit else None
    out = {}
    for name in names:
        if is_latin(name):
            out[name] = Translation(name, "identity")
            continue
        english = dictionary_back(name, dictionary) if dictionary else None
        if english:
            out[name] = Translation(english, "name-dictionary")
        else:
            latin = transliterator("Any-Latin; Latin-ASCII").transliterate(name)
            out[name] = Translation(latin, "icu")
    return out


@translators.register("googletrans")
def googletrans(names: list[str], lang: str, config: TriageConfig) -> dict[str, Translation]:
    """Google Translate through googletrans (the paper's method); fails fast offline."""
    import asyncio

    import httpx
    from googletrans import Translator as Google

    source = language(lang).iso1 or "auto"
    if lang.startswith("zho"):
        source = "zh-tw" if language(lang).script == "Hant" else "zh-cn"

    async def run() -> dict[str, Translation]:
        google = Google(timeout=httpx.Timeout(config.timeout), service_urls=config.service_urls)
        out = {}
        for name in names:
            result = await google.translate(name, src=source, dest="en")
            out[name] = Translation(str(result.text), "googletrans")
        return out

    try:
        return asyncio.run(asyncio.wait_for(run(), timeout=config.timeout * (len(names) + 1)))
    except (httpx.HTTPError, OSError, TimeoutError) as e:
        raise TranslationError(
            f"googletrans could not reach {', '.join(config.service_urls)} "
            f"({type(e).__name__}: {e or 'timed out'}): it needs the network; set "
            "triage.translator: offline, or triage.on_error: fallback"
        ) from None
    except Exception as e:  # googletrans raises bare exceptions on unexpected answers
        raise TranslationError(f"googletrans failed: {type(e).__name__}: {e}") from None


def translate(store: Store, names: list[str], lang: str,
              config: TriageConfig) -> tuple[dict[str, Translation], str]:
    """English for each name through the store's cache; returns the answers and the backend.

    When the configured translator fails, `on_error: fallback` asks `fallback` instead and
    `stop` raises an XelError; either way nothing unanswered is cached.
    """
    store.declare(CACHE_DDL)
    backend = config.translator
    try:
        return _cached(store, backend, names, lang, config), backend
    except TranslationError as e:
        if config.on_error == "stop" or not config.fallback or config.fallback == backend:
            raise XelError(str(e)) from None
        backend = config.fallback
        return _cached(store, backend, names, lang, config), backend


def _cached(store: Store, backend: str, names: list[str], lang: str,
            config: TriageConfig) -> dict[str, Translation]:
    unique = sorted(set(names))
    known: dict[str, Translation] = {}
    for start in range(0, len(unique), 500):
        chunk = unique[start:start + 500]
        rows = store.query(
            f"SELECT text, translation, method FROM translations WHERE backend = ? AND lang = ?"
            f" AND text IN ({','.join('?' * len(chunk))})", (backend, lang, *chunk))
        known.update({r["text"]: Translation(r["translation"], r["method"]) for r in rows})
    missing = [n for n in unique if n not in known]
    if missing:
        fresh = translators.get(backend)(missing, lang, config)
        with store.transaction():
            store.executemany(
                "INSERT OR REPLACE INTO translations VALUES (?, ?, ?, ?, ?)",
                [(backend, lang, n, t.text, t.method) for n, t in fresh.items()])
        known.update(fresh)
    return known


def round_trip_key(name: str) -> str:
    """What must match exactly: case and whitespace normalized (as the paper's A1)."""
    return " ".join(name.casefold().split())
