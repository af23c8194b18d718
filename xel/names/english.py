"""Person-name normalization shared by NER, query filters and the linker.

`split_name` turns what NER marked (`Mrs May's`) into the name (`May`), the honorific kept
apart (`Mrs`), and character offsets of the name inside the marked text; `name_key` is the
grouping key under which spelling variants (`Kim Jong Un`, `Kim Jong-un`, `KIM JONG UN`) fall
together.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

# Honorifics and titles that precede a name but are not part of it (annotation guidelines for
# entity linking, e.g. TAC-KBP: `President` in `President Ahmet Sezer` is not the name).
HONORIFICS = frozenset({
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "dame", "lord",
    "lady", "rev", "reverend", "fr", "father", "sister", "brother", "president",
    "vice-president", "chancellor", "premier", "minister", "senator", "sen", "rep",
    "representative", "congressman", "congresswoman", "governor", "gov", "mayor", "judge",
    "justice", "general", "gen", "colonel", "col", "major", "maj", "captain", "capt",
    "lieutenant", "lt", "sergeant", "sgt", "officer", "inspector", "detective", "king",
    "queen", "prince", "princess", "duke", "duchess", "pope", "cardinal", "bishop",
    "archbishop", "rabbi", "imam", "sheikh", "ayatollah", "coach", "chairman", "chairwoman",
    "chief", "secretary", "ambassador", "commissioner", "councillor", "councilman",
    "speaker", "st", "saint", "det", "insp", "supt", "cllr", "lawyer", "attorney",
    # Monarchs' titles (PUD's `Tsar Alexander`, `ज़ार अलेक्सान्द्र`); not Shah, Sultan or
    # Emir, which are given names and surnames too (Shah Rukh Khan, Emir Kusturica).
    "tsar", "czar", "tsarina", "tsaritsa", "emperor", "empress", "kaiser", "pharaoh", "caliph",
})

# Words that link a name's words (`Royal Society for the Protection of Birds`): an acronym's
# letters pass over them, and a translation need not say them.
ENGLISH_LINKS = frozenset({"of", "for", "the", "and", "on", "in", "to", "at"})
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212\u00ad-"
_SPACES = re.compile(r"[\s\u00a0\u2009\u202f]+")
_POSSESSIVE = re.compile(r"(?:['\u2019\u2018`´]s?)$", re.IGNORECASE)
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class SplitName:
    name: str  # the name as written, without honorific or possessive
    start: int  # offsets of `name` inside the marked text
    end: int
    honorific: str | None


def split_name(text: str, person: bool = True) -> SplitName | None:
    """Separate a marked person mention into honorific and name; None if nothing is left.
    Honorifics are a person's only (`General Motors` keeps its `General`); other names lose
    the article NER took with them (`the European Union`; `The Hague`'s capital stays)."""
    spans = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    if not person and len(spans) > 1 and text[spans[0][0]:spans[0][1]] == "the":
        spans.pop(0)
    honorifics: list[str] = []
    while person and len(spans) > 1:
        first = text[spans[0][0]:spans[0][1]]
        # Before the particle of a Japanese name it is the name (`Sen no Rikyu`).
        if first.rstrip(".").lower() not in HONORIFICS or text[spans[1][0]:spans[1][1]] == "no":
            break
        honorifics.append(first)
        spans.pop(0)
    if not spans:
        return None
    # `et al.` after a name is not part of it (`Voltaire et al.`).
    if len(spans) > 2 and [text[a:b].rstrip(".").lower() for a, b in spans[-2:]] == ["et", "al"]:
        spans = spans[:-2]
    start, end = spans[0][0], spans[-1][1]
    name = text[start:end].rstrip(" ,")
    end = start + len(name)
    # Possessive on the last token: `Holt's`, `Holt’s`, `James'`, and tokenized text's
    # `Arafat 's`.
    trimmed = _POSSESSIVE.sub("", name).rstrip()
    if not trimmed.strip("'’‘`´"):
        return None
    if trimmed != name and (trimmed[-1].isalnum() or trimmed[-1] == "."):
        end -= len(name) - len(trimmed)
        name = trimmed
    # Quotes, brackets and stray punctuation at the edges (keep a final `Jr.`'s dot).
    lead = len(name) - len(name.lstrip("\"'“”‘’«»([{<-–—,;:"))
    tail = len(name) - len(name.rstrip("\"'“”‘’«»)]}>-–—,;:"))
    if lead or tail:
        start += lead
        end -= tail
        name = text[start:end]
    if not any(ch.isalpha() for ch in name):
        return None
    return SplitName(name, start, end, " ".join(honorifics) or None)


@functools.lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """Grouping key: case, accents, hyphen/space variants and punctuation folded away (kept
    for the names asked about most: every reading is compared with every candidate's forms)."""
    folded = unicodedata.normalize("NFKD", name)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    for dash in _DASHES:
        folded = folded.replace(dash, " ")
    folded = folded.replace(".", " ")
    folded = _SPACES.sub(" ", folded).strip().casefold()
    return " ".join(_EDGE.sub("", t) for t in folded.split() if _EDGE.sub("", t))


# British spellings in the names of bodies and places that American news spells otherwise
# (`Shanghai Cooperation Organisation`, `World Trade Centre`, `European Defence Agency`);
# `Labour` is left alone (the Labour and Labor parties are different parties).
_BRITISH = re.compile(r"\b(\w+)is(ations?)\b|\b(cent|theat)res?\b|\bdefence\b|"
                      r"\bprogrammes?\b", re.IGNORECASE)
_AMERICAN = {"centre": "center", "centres": "centers", "theatre": "theater",
             "theatres": "theaters", "defence": "defense", "programme": "program",
             "programmes": "programs"}


def american(name: str) -> str:
    """A name with the British spellings of `_BRITISH` spelled as American English spells
    them, the case of each word kept (`Organisation` -> `Organization`)."""
    def swap(found: re.Match[str]) -> str:
        word = found[0]
        spelled = f"{found[1]}iz{found[2]}" if found[1] else _AMERICAN[word.lower()]
        if word.isupper():
            return spelled.upper()
        return spelled[0].upper() + spelled[1:] if word[0].isupper() else spelled.lower()

    return _BRITISH.sub(swap, name)


def tokens(name: str) -> list[str]:
    """The tokens of a name as `name_key` sees them."""
    return name_key(name).split()


def clean_spaces(name: str) -> str:
    """One plain space between tokens (NBSP, thin spaces and runs of spaces folded)."""
    return _SPACES.sub(" ", name).strip()
