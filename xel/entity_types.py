"""Entity types: each name's coarse type, and the words that speak of a type.

A collection has the coarse types its config names (`types:`, Hansel's PER, ORG, LOC, EVENT);
NER gives every mention a label, but one name is labelled differently from mention to mention
(`Washington` a person here and a place there), and a query, its HITs and its KB candidates
need one type. The type check decides it per name, as the person check decides whether a name
is a person's: a name NER marked as a person that passes the person check is a person's (so
people-only collections are decided exactly as before); any other name takes the type with
the most votes from NER's labels of its mentions, the KB entities of that name, the words
that place its mentions (`in Capua`) and its shape (written as a person's: `Seagal`, `Rowan
Atkinson`), unless its head word says what it names (`University`, `River`, `Festival`),
which outweighs them; a one-word name that ends a person's name in one of its documents also
has a person's votes (a surname NER called something else). A name with no vote for any of
the collection's types, or with most votes for a person that neither check admits, is not
asked about. `xel eval types` measures it on English CoNLL gold.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from xel.kb import is_acronym
from xel.names.english import name_key
from xel.store import Store

DDL = """
CREATE TABLE IF NOT EXISTS name_types (
    name_key TEXT PRIMARY KEY,
    type     TEXT,              -- the collection's type of the name; NULL: none of them
    votes    TEXT NOT NULL      -- JSON: type -> votes (NER mentions, KB, head word)
);
"""

# How HITs, the report and the card speak of each type.
OTHER = "OTHER"  # none of the coarse types (the KB's, and the mention typer's reading)
NOUNS = {"PER": "person", "ORG": "organization", "LOC": "place", "EVENT": "event",
         OTHER: "entity"}

# A name's last word that says what it names (`Rural Fire Service`, `Tora Bora caves`).
HEAD_WORDS: dict[str, frozenset[str]] = {
    "ORG": frozenset({
        "academy", "administration", "agency", "airline", "airlines", "airways", "alliance",
        "army", "assembly", "association", "authority", "bank", "board", "brands", "brigade",
        "brigades", "bureau", "cabinet", "club", "college", "commission", "committee",
        "communications", "company", "congress", "corp", "corporation", "council", "court",
        "department", "dispatch", "energy", "enterprises", "entertainment", "fc", "force",
        "forces", "foundation", "front", "fund", "gazette", "government", "group", "herald",
        "holdings", "inc", "industries", "institute", "journal", "league", "limited", "llc",
        "ltd", "magazine", "marines", "ministry", "monthly", "motors", "motorsports", "navy",
        "network", "news", "office", "organisation", "organization", "parliament", "partners",
        "party", "pharmaceuticals", "plc", "police", "post", "press", "productions", "records",
        "register", "school", "senate", "service", "services", "society", "squad", "studios",
        "team", "technologies", "telegraph", "television", "times", "tribune", "trust", "tv",
        "union", "united", "university", "ventures", "weekly"}),
    "LOC": frozenset({
        "airport", "arena", "auditorium", "avenue", "base", "bay", "beach", "bridge", "canal",
        "cape", "cathedral", "coast", "county", "creek", "district", "duchy", "forest", "hall",
        "harbor", "harbour", "highway", "hill", "hospital", "island", "islands", "isles",
        "kingdom", "lake", "mews", "mount", "mountain", "mountains", "museum", "ocean",
        "palace", "park", "peak", "plaza", "port", "principality", "province", "region",
        "republic", "river", "road", "sea", "square", "stadium", "station", "street", "tower",
        "town", "valley", "village"}),
    "EVENT": frozenset({
        "battle", "championship", "championships", "conference", "cup", "cups", "election",
        "elections", "festival", "games", "marathon", "olympics", "open", "prix", "referendum",
        "revolution", "siege", "summit", "tournament", "war", "week"}),
}
# `City` is left out: `Mexico City` is a place, `Manchester City` a club.
WORD = re.compile(r"[\w'’.-]+")
NUMBER = re.compile(r"\d+|[ivx]+|one|two|three|four|five|six|seven|eight|nine|ten")
KB_VOTES = 2.0  # a KB entity of that name and type
SURNAME_VOTES = 2.0  # a one-word name that ends a person's name in one of its documents
SHAPE_VOTES = 2.0  # a name written as a person's (`person_shaped`)
# Mentions all read as one of these types, at least so many, are not outweighed by a head
# word of the other: the typer tells a place from an organization better than `bank` or
# `office` does; it has no class for events, and people are the person check's.
TOLD_APART = frozenset({"ORG", "LOC"})
AGREED_READINGS = 2
PLACED_VOTES = 1.5  # per mention after a word that places it (`in Capua`, `past Kadesh`)
PLACED_CONTEXT = 30  # characters before a mention that `placed` reads
# Words before a name that say it is a place; `at` and `to` are left out (`at Google`).
LOCATIVE = frozenset({"in", "near", "past", "outside", "across", "towards", "toward",
                      "around", "northern", "southern", "eastern", "western", "central"})
ARTICLES = frozenset({"the", "le", "la"})  # `The Clarion Ledger`, `Le Golf National`
# Particles that begin a surname written alone, capitalized at a sentence's start or by habit.
PARTICLES = frozenset({"von", "van", "de", "di", "du", "del", "della", "der", "zu"})
CAPITALIZED = re.compile(r"[A-ZÀ-Þ][\w'’-]*")


@dataclass(frozen=True)
class Typed:
    """One name's type, and the votes that decided it."""

    name_key: str
    type: str | None
    votes: dict[str, float]


def head_type(name: str) -> str | None:
    """The type a name's head word says it has, if any: its last word (`Manchester United`
    ORG), or the word before `of` (`University of Edinburgh` ORG, `Principality of Nitra`
    LOC), numbers after it aside (`World War Two` EVENT)."""
    words = WORD.findall(name.lower())
    if "of" in words[1:]:
        words = words[:words.index("of", 1)]
    while len(words) > 1 and NUMBER.fullmatch(words[-1]):
        words.pop()
    last = words[-1].strip(".").rsplit("-", 1)[-1] if words else ""  # `Post-Dispatch`
    return next((kind for kind, heads in HEAD_WORDS.items() if last in heads), None)


def person_shaped(name: str, given: Callable[[str], bool], roles: Callable[[str], set[str]],
                  kb_types: Callable[[str], Iterable[str]]) -> bool:
    """Whether a name is written as a person's, whatever NER called it: one word that is a
    `given` name or a KB person's family name (`Seagal`, `Olivia`), or two or three
    capitalized words, the first a given name that is no KB place's or organization's name,
    and either the last a KB person's family name or the first a KB person's given name too
    (`Rowan Atkinson`, `Georg Reichenbach`); a surname with its particle that is no KB place's
    or organization's name (`Von Beust`, `De Gaulle`); a given name `of` a place (`Isabella
    of France`); no acronyms, no article first."""
    words = name.split()
    if len(words) == 3 and words[1] == "of" and given(words[0]) and head_type(name) is None:
        return True  # `Isabella of France`
    if not 0 < len(words) <= 3 or not all(CAPITALIZED.fullmatch(w) for w in words):
        return False
    if len(words) > 1 and words[0].lower() in PARTICLES and not set(kb_types(name)) - {"PER"}:
        return True  # `Von Beust`, `De Gaulle`
    if any(len(w) > 1 and w.isupper() for w in words) or words[0].lower() in ARTICLES:
        return False
    first, last = name_key(words[0]), name_key(words[-1])
    if len(words) == 1:
        return given(words[0]) or "family" in roles(first)
    return (given(words[0]) and not set(kb_types(words[0])) - {"PER"}
            and ("family" in roles(last) or "given" in roles(first)))


def placed(before: str) -> bool:
    """Whether the text before a mention ends in a word that places it (`LOCATIVE`)."""
    words = WORD.findall(before[-PLACED_CONTEXT:].lower())
    return bool(words) and words[-1] in LOCATIVE


def decide(key: str, name: str, mentioned: Counter[str], kb_types: Iterable[str],
           person: bool, types: Iterable[str], surname: bool = False,
           shaped: bool = False, placings: int = 0) -> Typed:
    """A name's type among the collection's `types`: PER when NER marked it a person and the
    person check agrees (`person`); else the type with most votes (ties: config order), a
    head word's outweighing the rest, a place's for each of the name's `placings` (mentions
    after `in`, `near`, ...), PER among them only for a person's `surname` or a name written
    as a person's (`shaped`). A name with more votes for a person than for any other type
    that is neither has no type: it is not asked about rather than asked as another type's
    (`Seagal` alone), unless it is an acronym (`TASS reports`: the type with most votes
    after a person's); likewise a name read as none of the types (OTHER: `Brexit`) more often
    than any type has votes."""
    order = list(types)
    votes: dict[str, float] = {t: float(mentioned.get(t, 0)) for t in order}
    for kind in set(kb_types) & set(order):
        votes[kind] += KB_VOTES
    if "LOC" in order:
        votes["LOC"] += PLACED_VOTES * placings
    head = head_type(name)
    if shaped and "PER" in order and head is None:
        votes["PER"] += SHAPE_VOTES
    read = [t for t in (*order, OTHER) if mentioned.get(t)]
    agreed = (len(read) == 1 and read[0] != head and {read[0], head} <= TOLD_APART
              and mentioned[read[0]] >= AGREED_READINGS)
    if head in order and not agreed:
        # outweighs the rest, readings as none of the types too, but not readings that all
        # say a place where the head says an organization, or the reverse (`West Bank`,
        # `Oval Office`: places)
        votes[head] += 1 + max(*votes.values(), mentioned.get(OTHER, 0))
    if "PER" in order and mentioned.get("PER") and person:
        return Typed(key, "PER", {t: round(v, 4) for t, v in sorted(votes.items()) if v})
    if surname and "PER" in order:
        votes["PER"] += SURNAME_VOTES
    found = {t: round(v, 4) for t, v in sorted(votes.items()) if v}
    if mentioned.get(OTHER, 0) > max(votes.values()):
        return Typed(key, None, {**found, OTHER: mentioned[OTHER]})
    admitted = surname or shaped
    rest = [t for t in order if votes[t] > 0 and (t != "PER" or admitted)]
    chosen = max(rest, key=lambda t: (votes[t], -order.index(t))) if rest else None
    if (chosen is not None and not admitted and votes.get("PER", 0) > votes[chosen]
            and not is_acronym(name.replace(".", ""))):
        return Typed(key, None, found)
    return Typed(key, chosen, found)


def decide_all(mentions: Iterable[tuple[str, str, str, str, str]],
               persons: Mapping[str, bool], kb_types: Callable[[str], Iterable[str]],
               types: Iterable[str], shaped: Callable[[str], bool] = lambda name: False
               ) -> list[Typed]:
    """Every name's type, from its (name key, name, mention type, document, text before)
    mentions; `persons`: the person check's verdict per name key (names it did not look at
    are not people's); `shaped`: whether a name is written as a person's
    (`person_shaped`)."""
    order = list(types)
    counts: dict[str, Counter[str]] = {}
    names: dict[str, str] = {}
    docs: dict[str, set[str]] = {}
    surnames: set[tuple[str, str]] = set()  # (document, last word of a person's longer name)
    placings: Counter[str] = Counter()
    for key, name, kind, doc, before in mentions:
        counts.setdefault(key, Counter())[kind] += 1
        placings[key] += placed(before)
        names.setdefault(key, name)
        docs.setdefault(key, set()).add(doc)
        words = key.split()
        if kind == "PER" and len(words) > 1 and persons.get(key, False):
            surnames.add((doc, words[-1]))
    needs_kb = order != ["PER"]
    return [decide(key, names[key], counts[key], kb_types(names[key]) if needs_kb else (),
                   persons.get(key, False), order,
                   surname=needs_kb and len(key.split()) == 1
                   and any((d, key) in surnames for d in docs[key]),
                   shaped=needs_kb and shaped(names[key]), placings=placings[key])
            for key in sorted(counts)]


def write_types(store: Store, typed: list[Typed]) -> None:
    store.declare(DDL)
    store.execute("DELETE FROM name_types")
    store.executemany("INSERT INTO name_types VALUES (?, ?, ?)",
                      [(t.name_key, t.type, json.dumps(t.votes)) for t in typed])


def read_types(store: Store) -> dict[str, Typed]:
    """Name key -> its type (empty before the persons stage has run)."""
    store.declare(DDL)
    return {r[0]: Typed(r[0], r[1], json.loads(r[2]))
            for r in store.query("SELECT name_key, type, votes FROM name_types")}


def noun(kind: str) -> str:
    """`person`, `organization`, `place`, `event`: how a HIT or the report names a type."""
    return NOUNS.get(kind, "entity")


def a_noun(kind: str) -> str:
    """The noun with its article: `a person`, `an organization`."""
    word = noun(kind)
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"
