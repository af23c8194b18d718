"""Name translation back to English, for round-trip triage.

Round-trip triage translates a projected name to English and accepts it when it gives the
English name exactly (Lawrie et al. 2015). Translators are chosen by name in the config:
`googletrans` (the paper's method; needs the network) and `offline`, which returns a Latin-script
name unchanged, reads other scripts through the Wikidata name-pair dictionaries where they
cover every token, and otherwise transliterates with ICU. Every answer is cached in the store,
so no name is translated twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xel.config import TriageConfig
from xel.errors import XelError
from xel.languages import language
from xel.names.lexicon import dictionary_back, dictionary_for
from xel.names.script import is_latin, transliterator
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


@dataclass(frozen=True)
class Translation:
    text: str
    method: str


class TranslationError(Exception):
    """A translator could not answer (network down, refused); the stage falls back or stops."""


# --- translators ----------------------------------------------------------------------------

Translator = Callable[[list[str], str, TriageConfig], dict[str, Translation]]


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
