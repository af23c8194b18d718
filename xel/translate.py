"""Name translation back to English, for round-trip triage.

Round-trip triage translates a projected name to English and accepts it when it gives the
English name exactly (Lawrie et al. 2015). Translators are chosen by name in the config:
`googletrans` (the paper's method; needs the network) and `offline`, which keeps a Latin-script
name as it is, reads other scripts (and Serbian's respellings) with the language's shipped
transliteration models part by part, and romanizes with ICU where a language has no model.
Every answer is cached in the store under the translator and the models that gave it, so no
name is translated twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xel.config import Config
from xel.errors import XelError
from xel.languages import language
from xel.names.agree import parts
from xel.names.families import family
from xel.names.script import is_latin, transliterator
from xel.names.transliterate import models_for, models_signature
from xel.registry import translators
from xel.stages import digest_of
from xel.store import Store

CACHE_DDL = """
CREATE TABLE IF NOT EXISTS translations (
    backend     TEXT NOT NULL,     -- the translator asked (googletrans, offline:<models>)
    lang        TEXT NOT NULL,
    text        TEXT NOT NULL,
    translation TEXT NOT NULL,
    method      TEXT NOT NULL,     -- what answered: googletrans, identity, model, icu
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

Translator = Callable[[list[str], str, Config], dict[str, Translation]]


@translators.register("offline")
def offline(names: list[str], lang: str, config: Config) -> dict[str, Translation]:
    """Latin script as it is; a name the script's lexicon knows, its English there; the
    transliteration models part by part; else ICU."""
    models = models_for(lang, config)
    rules = family(lang)
    if models is not None:
        models.prepare(parts=[p for name in names for p in parts(name)])
    out = {}
    for name in names:
        if is_latin(name) and not rules.reads_latin:
            out[name] = Translation(name, "identity")
            continue
        if known := rules.known_english(name):
            out[name] = Translation(known, "lexicon")
            continue
        english = models.back_translate(name) if models is not None else None
        if english:
            out[name] = Translation(english, "model")
        else:
            latin = transliterator("Any-Latin; Latin-ASCII").transliterate(name)
            out[name] = Translation(latin, "icu")
    return out


@translators.register("googletrans")
def googletrans(names: list[str], lang: str, config: Config) -> dict[str, Translation]:
    """Google Translate through googletrans (the paper's method); fails fast offline."""
    import asyncio

    import httpx
    from googletrans import Translator as Google

    triage = config.triage
    source = language(lang).iso1 or "auto"
    if lang.startswith("zho"):
        source = "zh-tw" if language(lang).script == "Hant" else "zh-cn"

    async def run() -> dict[str, Translation]:
        google = Google(timeout=httpx.Timeout(triage.timeout), service_urls=triage.service_urls)
        out = {}
        for name in names:
            result = await google.translate(name, src=source, dest="en")
            out[name] = Translation(str(result.text), "googletrans")
        return out

    try:
        return asyncio.run(asyncio.wait_for(run(), timeout=triage.timeout * (len(names) + 1)))
    except (httpx.HTTPError, OSError, TimeoutError) as e:
        raise TranslationError(
            f"googletrans could not reach {', '.join(triage.service_urls)} "
            f"({type(e).__name__}: {e or 'timed out'}): it needs the network; set "
            "triage.translator: offline, or triage.on_error: fallback"
        ) from None
    except Exception as e:  # googletrans raises bare exceptions on unexpected answers
        raise TranslationError(f"googletrans failed: {type(e).__name__}: {e}") from None


def translate(store: Store, names: list[str], lang: str,
              config: Config) -> tuple[dict[str, Translation], str]:
    """English for each name through the store's cache; returns the answers and the backend.

    When the configured translator fails, `on_error: fallback` asks `fallback` instead and
    `stop` raises an XelError; either way nothing unanswered is cached.
    """
    answers, backend, fresh = look_up(store, names, lang, config)
    keep(store, fresh)
    return answers, backend


CacheRow = tuple[str, str, str, str, str]  # backend key, lang, text, translation, method


def look_up(store: Store, names: list[str], lang: str,
            config: Config) -> tuple[dict[str, Translation], str, list[CacheRow]]:
    """`translate` without writing: the answers, the backend and the cache rows of the
    answers that were not cached (for the writer to `keep`; a worker process reads the store
    but leaves writing to the one writer)."""
    store.declare(CACHE_DDL)
    triage = config.triage
    backend = triage.translator
    try:
        return _cached(store, backend, names, lang, config)
    except TranslationError as e:
        if triage.on_error == "stop" or not triage.fallback or triage.fallback == backend:
            raise XelError(str(e)) from None
        backend = triage.fallback
        return _cached(store, backend, names, lang, config)


def keep(store: Store, rows: list[CacheRow]) -> None:
    """Write new answers into the cache."""
    if rows:
        store.declare(CACHE_DDL)
        with store.transaction():
            store.executemany("INSERT OR REPLACE INTO translations VALUES (?, ?, ?, ?, ?)",
                              rows)


def cache_key(backend: str, lang: str, config: Config) -> str:
    """A translator's answers are kept under its name and, offline, the digest of the models
    and lexicon: new ones translate afresh."""
    if backend != "offline":
        return backend
    signature = models_signature(lang, config)
    return f"offline:{digest_of(signature)}" if signature else backend


def _cached(store: Store, backend: str, names: list[str], lang: str,
            config: Config) -> tuple[dict[str, Translation], str, list[CacheRow]]:
    key = cache_key(backend, lang, config)
    unique = sorted(set(names))
    known: dict[str, Translation] = {}
    for start in range(0, len(unique), 500):
        chunk = unique[start:start + 500]
        rows = store.query(
            f"SELECT text, translation, method FROM translations WHERE backend = ? AND lang = ?"
            f" AND text IN ({','.join('?' * len(chunk))})", (key, lang, *chunk))
        known.update({r["text"]: Translation(r["translation"], r["method"]) for r in rows})
    missing = [n for n in unique if n not in known]
    fresh = translators.get(backend)(missing, lang, config) if missing else {}
    known.update(fresh)
    return known, backend, [(key, lang, n, t.text, t.method) for n, t in fresh.items()]


def round_trip_key(name: str) -> str:
    """What must match exactly: case and whitespace normalized (as the paper's A1)."""
    return " ".join(name.casefold().split())
