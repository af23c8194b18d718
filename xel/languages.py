"""Language codes as NTREX writes them (`deu`, `zho-TW`, `srp-Latn`), with ISO 639-1 aliases.

The canonical code is NTREX's: ISO 639-3 with a script or region suffix where needed. ICU
knows the ISO 639-1 <-> 639-3 mapping and each language's usual script, so we do not keep a
hand-written table beyond the few codes ICU cannot place.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import icu

from xel.errors import XelError

_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z]{2,4})?$")

# ISO 639-1 codes whose NTREX language is a specific member of a macrolanguage or has a
# preferred script/region; ICU cannot know which member a corpus chose.
_PREFERRED = {
    "ar": "arb", "zh": "zho-CN", "zh-cn": "zho-CN", "zh-hans": "zho-CN", "zh-tw": "zho-TW",
    "zh-hant": "zho-TW", "sr": "srp-Cyrl", "sr-latn": "srp-Latn", "sr-cyrl": "srp-Cyrl",
    "ms": "msa", "fa": "fas", "uz": "uzb", "az": "aze-Latn", "ku": "kmr", "ckb": "ckb-Arab",
    "tg": "tgk-Cyrl", "en": "eng", "fr-ca": "fra-CA", "es-mx": "spa-MX", "en-us": "eng-US",
    "en-gb": "eng-GB", "en-in": "eng-IN", "pt-br": "por-BR", "no": "nob", "nb": "nob",
    "sq": "sqi", "mn": "mon", "ne": "nep", "sw": "swa", "om": "orm", "ff": "fuc",
}
# Scripts ICU's likely-subtags data lacks for codes NTREX uses.
_SCRIPTS = {
    "arb": "Arab", "mey": "Arab", "prs": "Arab", "fuc": "Latn", "kmr": "Latn",
    "hmn": "Latn",
}

# Scripts NTREX writes a language in where ICU's likely script is another: Shilha in Arabic
# letters, not Tifinagh.
_CORPUS_SCRIPTS = {"shi": "Arab"}

# Scripts written without spaces between words: these need a learned segmenter.
CHINESE_SCRIPTS = {"Hans", "Hant"}
UNSPACED_SCRIPTS = {"Hans", "Hant", "Hani", "Jpan", "Thai", "Laoo", "Khmr", "Mymr", "Tibt"}


@dataclass(frozen=True)
class Language:
    code: str  # canonical, as NTREX writes it
    iso1: str | None  # ISO 639-1, where one exists
    script: str  # ISO 15924, e.g. Latn, Cyrl, Hant
    name: str


def _base(code: str) -> str:
    return code.split("-")[0].lower()


@functools.cache
def language(code: str) -> Language:
    """Describe a canonical code (`zho-TW`)."""
    if not _CODE.match(code):
        raise XelError(
            f"not a language code: {code!r} (expected ISO 639-3 such as 'deu', optionally with "
            "a script or region such as 'srp-Latn' or 'zho-TW', or ISO 639-1 such as 'de')"
        )
    base, _, suffix = code.partition("-")
    locale = icu.Locale(base)
    iso1 = locale.getLanguage() if len(locale.getLanguage()) == 2 else None
    if suffix and len(suffix) == 4:
        script = suffix.title()
    else:
        tag = f"{base}-{suffix}" if suffix else base
        script = _CORPUS_SCRIPTS.get(base) or icu.Locale.addLikelySubtags(
            icu.Locale(tag)).getScript() or ""
        script = script or _SCRIPTS.get(base, "")
        if base == "zho":
            script = "Hant" if suffix.upper() in {"TW", "HK", "MO"} else "Hans"
    name = locale.getDisplayName(icu.Locale("en"))
    return Language(code=code, iso1=iso1, script=script or "Zyyy", name=name)


def canonical(code: str, known: list[str] | None = None) -> str:
    """Map a user's code (`de`, `zh-TW`, `deu`) to the canonical code of `known` languages.

    With `known` (the corpus's languages) the answer must be one of them, and an ambiguous
    alias (`zh` when a corpus has both `zho-CN` and `zho-TW`) prefers the table above.
    """
    lowered = code.strip().lower().replace("_", "-")
    if known is not None:
        by_lower = {k.lower(): k for k in known}
        if lowered in by_lower:
            return by_lower[lowered]
        preferred = _PREFERRED.get(lowered)
        if preferred and preferred in known:
            return preferred
        try:
            iso3 = _iso3(lowered.split("-")[0])
        except XelError:
            iso3 = ""
        matches = [k for k in known if _base(k) == iso3]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise XelError(
                f"language code {code!r} is ambiguous here: say one of {', '.join(matches)}"
            )
        raise XelError(
            f"unknown language code {code!r}: this corpus has {', '.join(sorted(known))}"
        )
    if lowered in _PREFERRED:
        return _PREFERRED[lowered]
    base, _, suffix = lowered.partition("-")
    iso3 = _iso3(base)
    if suffix:
        suffix = suffix.title() if len(suffix) == 4 else suffix.upper()
        return f"{iso3}-{suffix}"
    return iso3


def _iso3(code: str) -> str:
    if len(code) == 2:
        iso3 = icu.Locale(code).getISO3Language()
        if not iso3:
            raise XelError(f"unknown ISO 639-1 language code {code!r}")
        return str(iso3)
    return code


def is_unspaced(code: str) -> bool:
    """True for languages written without spaces between words (Chinese, Thai, ...)."""
    return language(code).script in UNSPACED_SCRIPTS


def is_chinese(code: str) -> bool:
    """True for Chinese in either script (`zho-CN`, `zho-TW`, Cantonese), whose simplified and
    traditional characters stand for each other."""
    return language(code).script in CHINESE_SCRIPTS
