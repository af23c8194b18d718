"""English queries from mentions, with the filters of Lawrie et al. and their attrition.

A query is a name string and one document it occurs in (pointing at the name's first mention
there), of the type the type check gave the name. Each filter is a pure function from the
surviving mentions to fewer mentions; each type's names go through the filters on their own
(`queries.by_type` sets a type's differently), and the attrition table records what every
filter removed from each type, in order, for the report.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from xel.config import Config, QueriesConfig
from xel.entity_types import Typed, a_noun, noun, read_types
from xel.errors import XelError
from xel.link import DDL as LINK_DDL
from xel.names.english import name_key
from xel.ner import DDL as NER_DDL
from xel.ner import declare as declare_ner
from xel.persons import Check, read_checks
from xel.stages import Work, digest_of, file_digest, versions
from xel.store import Store
from xel.textfile import read_lines

DDL = """
CREATE TABLE IF NOT EXISTS queries (
    query_id   TEXT PRIMARY KEY,   -- stable: derived from document id and name key
    name       TEXT NOT NULL,      -- display form: the name's most frequent spelling
    name_key   TEXT NOT NULL,
    doc_id     TEXT NOT NULL,
    mention_id INTEGER NOT NULL,   -- the name's first mention in the document
    seg        INTEGER NOT NULL,
    start      INTEGER NOT NULL,   -- of that mention, in its English sentence
    end        INTEGER NOT NULL,
    ordinal    INTEGER NOT NULL,   -- corpus order
    type       TEXT NOT NULL DEFAULT 'PER'   -- the name's type (PER, ORG, LOC, EVENT)
);
CREATE INDEX IF NOT EXISTS queries_key ON queries(name_key);
CREATE TABLE IF NOT EXISTS attrition (
    step            INTEGER PRIMARY KEY,
    filter          TEXT NOT NULL,
    mentions_before INTEGER NOT NULL,
    mentions_after  INTEGER NOT NULL,
    names_before    INTEGER NOT NULL,
    names_after     INTEGER NOT NULL,
    type            TEXT NOT NULL DEFAULT 'PER'
);
"""


def declare(store: Store) -> None:
    """The query tables, with the `type` columns a store from before types gains."""
    store.declare(DDL)
    store.add_columns("queries", {"type": "TEXT NOT NULL DEFAULT 'PER'"})
    store.add_columns("attrition", {"type": "TEXT NOT NULL DEFAULT 'PER'"})


@dataclass(frozen=True)
class Mention:
    mention_id: int
    doc_id: str
    seg: int
    start: int
    end: int
    name: str
    name_key: str
    type: str = "PER"


Filter = Callable[[list[Mention]], list[Mention]]


def drop_short(min_tokens: int) -> Filter:
    """Single-token names (`Trump`, `May`) are too ambiguous to ask about."""
    return lambda ms: [m for m in ms if len(m.name_key.split()) >= min_tokens]


def drop_rare(min_documents: int) -> Filter:
    """A name seen in one document only gives no cross-document evidence (paper's filter)."""

    def keep(ms: list[Mention]) -> list[Mention]:
        docs: dict[str, set[str]] = defaultdict(set)
        for m in ms:
            docs[m.name_key].add(m.doc_id)
        return [m for m in ms if len(docs[m.name_key]) >= min_documents]

    return keep


def longest_only(ms: list[Mention]) -> list[Mention]:
    """Within a document, drop a name that is a token substring of a longer name there."""
    by_doc: dict[str, set[str]] = defaultdict(set)
    for m in ms:
        by_doc[m.doc_id].add(m.name_key)

    def contained(key: str, doc: str) -> bool:
        padded = f" {key} "
        return any(other != key and padded in f" {other} " for other in by_doc[doc])

    return [m for m in ms if not contained(m.name_key, m.doc_id)]


PERSON_CHECK = "not a person (person check)"
TYPE_CHECK = "none of the collection's types (type check)"


def drop_reviewed(names: set[str]) -> Filter:
    """Names a reviewer (or the person or type check) found not to be of the type."""
    return lambda ms: [m for m in ms if m.name_key not in names]


def cap_per_name(max_per_name: int) -> Filter:
    """At most N documents (queries) per name, the first N in corpus order."""

    def keep(ms: list[Mention]) -> list[Mention]:
        docs: dict[str, list[str]] = defaultdict(list)
        for m in ms:
            if m.doc_id not in docs[m.name_key]:
                docs[m.name_key].append(m.doc_id)
        allowed = {(k, d) for k, ds in docs.items() for d in ds[:max_per_name]}
        return [m for m in ms if (m.name_key, m.doc_id) in allowed]

    return keep


def filters(config: QueriesConfig, reviewed: set[str],
            rejected: frozenset[str] = frozenset(), check: str = PERSON_CHECK,
            kind: str = "PER") -> list[tuple[str, Filter]]:
    """The configured filters, in the order they apply (`rejected`: names the person check,
    or the type check (`check`), turned down, which go first; `reviewed`: names a reviewer
    said are not of the type, `kind`)."""
    chain: list[tuple[str, Filter]] = []
    if rejected:
        chain.append((check, drop_reviewed(set(rejected))))
    if config.min_tokens > 1:  # a name has a token
        chain.append((f"names with fewer than {config.min_tokens} tokens",
                      drop_short(config.min_tokens)))
    if config.longest_only:
        chain.append(("shorter name inside a longer one in the same document", longest_only))
    chain.append((f"names in fewer than {config.min_documents} documents",
                  drop_rare(config.min_documents)))
    if reviewed:
        chain.append((f"reviewed as not {a_noun(kind)}", drop_reviewed(reviewed)))
    chain.append((f"more than {config.max_per_name} queries per name",
                  cap_per_name(config.max_per_name)))
    return chain


@dataclass(frozen=True)
class Step:
    filter: str
    mentions_before: int
    mentions_after: int
    names_before: int
    names_after: int
    type: str = "PER"


def apply_filters(
    mentions: list[Mention], chain: list[tuple[str, Filter]], kind: str = "PER"
) -> tuple[list[Mention], list[Step]]:
    """Run the filters in order, recording what each removed."""
    steps = []
    for label, keep in chain:
        after = keep(mentions)
        steps.append(Step(label, len(mentions), len(after),
                          len({m.name_key for m in mentions}), len({m.name_key for m in after}),
                          kind))
        mentions = after
    return mentions, steps


def name_types(mentions: Sequence[Mention], typed: dict[str, Typed], overruled: set[str],
               types: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """Name key -> (the type whose filters it goes through, whether the check turned it
    down): its type; a reviewer's `yes` makes it a person's; a name turned down, or one the
    check never saw, goes through its mentions' most frequent type (so that type's attrition
    counts it)."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    for m in mentions:
        seen[m.name_key][m.type] += 1
    found = {}
    for key, kinds in seen.items():
        decided = typed[key].type if key in typed else None
        if decided is None and key in overruled:
            decided = "PER"
        if decided is not None and decided in types:
            found[key] = (decided, False)
        else:
            order = [t for t in types if kinds[t]] or list(types)
            found[key] = (max(order, key=lambda t: kinds[t]), key in typed)
    return found


def typed_queries(mentions: list[Mention], config: Config, not_persons: set[str],
                  typed: dict[str, Typed], overruled: set[str],
                  untyped: frozenset[str] = frozenset()) -> tuple[list[Mention], list[Step]]:
    """Each type's names through that type's filters, in the config's order of types; the
    mentions kept come back in corpus order, each with its name's type (`untyped`: names a
    reviewer said are none of the types)."""
    kinds = name_types(mentions, typed, overruled, list(config.types))
    check = PERSON_CHECK if config.people_only else TYPE_CHECK
    kept: list[Mention] = []
    steps: list[Step] = []
    for kind in config.types:
        ms = [replace(m, type=kind) for m in mentions if kinds[m.name_key][0] == kind]
        rejected = frozenset(k for k, (t, no) in kinds.items() if no and t == kind)
        reviewed = {*(not_persons if kind == "PER" else ()), *untyped}
        chain = filters(config.queries.for_type(kind), reviewed, rejected, check, kind)
        ms, done = apply_filters(ms, chain, kind)
        kept += ms
        steps += done
    return sorted(kept, key=lambda m: (m.seg, m.start)), steps


def query_id(doc_id: str, key: str) -> str:
    """Stable across reruns and filter changes, so crowd work keyed on it stays valid."""
    return "EN-" + hashlib.sha1(f"{doc_id}\t{key}".encode()).hexdigest()[:10].upper()


def display_names(mentions: list[Mention]) -> dict[str, str]:
    """Per name key, its most frequent spelling (ties: the first seen)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for m in mentions:
        counts[m.name_key][m.name] += 1
    return {k: c.most_common(1)[0][0] for k, c in counts.items()}


# --- the manual review pass -------------------------------------------------------------

REVIEW_HEADER = ["name", "name_key", "documents", "mentions", "person", "person_check",
                 "example"]
# A collection of more types than people: a reviewer retypes a name in `type`.
TYPED_REVIEW_HEADER = ["name", "name_key", "documents", "mentions", "type", "type_check",
                       "person", "person_check", "example"]
NOT_PERSON = {"no", "n", "false", "0", "not-a-person", "not a person", "x"}
IS_PERSON = {"yes", "y", "true", "1", "person"}
NO_TYPE = {"none", "no", "n", "x", "-", "not an entity"}


def read_review(path: Path) -> set[str]:
    """Name keys a reviewer marked as not a person in the `person` column."""
    return {key for key, person in read_review_marks(path).items() if not person}


def review_cells(path: Path, column: str) -> list[tuple[int, str, str]]:
    """(line number, name key, what the reviewer wrote in `column`) of each row where they
    wrote something; a file without the column gives none, one without `name` or either of
    the columns a reviewer fills (`person`, `type`) is an error."""
    rows = list(csv.reader(read_lines(path, "review file (queries.review in the config)"),
                           delimiter="\t"))
    if not rows or "name" not in rows[0] or not {"person", "type"} & set(rows[0]):
        raise XelError(
            f"{path}, line 1: expected a header with `name` and `person` (or `type`) columns "
            "(write one with `xel queries --export-review FILE`)"
        )
    header = rows[0]
    if column not in header:
        return []
    name_col, col = header.index("name"), header.index(column)
    key_col = header.index("name_key") if "name_key" in header else None
    out = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(name_col, col):
            raise XelError(f"{path}, line {number}: too few columns (expected {len(header)})")
        key = row[key_col] if key_col is not None and row[key_col] else name_key(row[name_col])
        if row[col].strip():
            out.append((number, key, row[col].strip()))
    return out


def read_review_marks(path: Path) -> dict[str, bool]:
    """Name key -> what a reviewer said (`person` column: no, or yes to overrule the person
    check); names left empty are not in it."""
    marks = {}
    for number, key, cell in review_cells(path, "person"):
        if cell.lower() in NOT_PERSON:
            marks[key] = False
        elif cell.lower() in IS_PERSON:
            marks[key] = True
        else:
            raise XelError(
                f"{path}, line {number}: person column is {cell!r}: "
                "leave it empty, or write yes (a person's name) or no (not a person's)"
            )
    return marks


def read_review_types(path: Path, types: Sequence[str]) -> dict[str, str | None]:
    """Name key -> the type a reviewer gave it in the `type` column, one of the collection's
    `types` by code or noun (`ORG`, `organization`), or None for `none` (none of them: not
    asked about); names left empty are not in it."""
    spelled = {**{t.lower(): t for t in types}, **{noun(t): t for t in types}}
    found: dict[str, str | None] = {}
    for number, key, cell in review_cells(path, "type"):
        if cell.lower() in NO_TYPE:
            found[key] = None
        elif cell.lower() in spelled:
            found[key] = spelled[cell.lower()]
        else:
            raise XelError(
                f"{path}, line {number}: type column is {cell!r}: leave it empty, or write one "
                f"of the collection's types ({', '.join(types)}) or none (none of them)")
    return found


def write_tsv(path: Path, header: list[str], rows: Iterable[Sequence[object]]) -> None:
    """A tab-separated file for people to read and edit (spreadsheets open it as is)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, delimiter="\t", lineterminator="\n")
        out.writerow(header)
        out.writerows(rows)


def check_text(check: Check | None) -> str:
    """What the person check said of a name, for a reviewer."""
    if check is None:
        return ""
    why = ", ".join(f"{k} {v:+.1f}" for k, v in check.evidence.items()) or "no evidence"
    return f"{'person' if check.person else 'NOT a person'} ({check.score:+.1f}: {why})"


def type_text(typed: Typed | None) -> str:
    """What the type check said of a name, for a reviewer: its type and the votes."""
    if typed is None:
        return ""
    votes = ", ".join(f"{k} {v:g}" for k, v in typed.votes.items()) or "no votes"
    return f"{typed.type or 'none of the types'} ({votes})"


def export_review(store: Store, path: Path, people_only: bool = True) -> int:
    """Write the deduplicated names for a person to check, with the person check's verdict (a
    `yes` in `person` overrules it): names of two words or more; in a collection of more types
    (not `people_only`), every name, with the type check's verdict beside an empty `type` for
    the reviewer's; returns how many."""
    checks = read_checks(store)
    typed = {} if people_only else read_types(store)
    store.declare(NER_DDL)
    rows = store.query(
        "SELECT n.name, n.name_key, n.documents, n.mentions, s.text FROM"
        " (SELECT name_key, name, COUNT(*) AS mentions, COUNT(DISTINCT doc_id) AS documents,"
        "  MIN(mention_id) AS first FROM mentions WHERE tokens >= ? GROUP BY name_key) n"
        " JOIN mentions m ON m.mention_id = n.first"
        " JOIN sentences s ON s.seg = m.seg"
        "  AND s.lang = (SELECT code FROM languages WHERE role = 'source')"
        " ORDER BY n.documents DESC, n.name_key", (2 if people_only else 1,)
    )
    if people_only:
        write_tsv(path, REVIEW_HEADER, (
            [r[0], r[1], r[2], r[3], "", check_text(checks.get(r[1])),
             " ".join(r[4].split())[:300]] for r in rows))
    else:
        write_tsv(path, TYPED_REVIEW_HEADER, (
            [r[0], r[1], r[2], r[3], "", type_text(typed.get(r[1])), "",
             check_text(checks.get(r[1])), " ".join(r[4].split())[:300]] for r in rows))
    return len(rows)


# --- the stage ----------------------------------------------------------------------------


def queries_signature(store: Store, config: Config) -> dict[str, str]:
    parts = {"config": digest_of(config.queries), **versions()}
    if not config.people_only:
        parts["types"] = digest_of(config.types)
    if config.queries.review:
        parts["review"] = file_digest(config.resolve(config.queries.review))
    return parts


def run_queries(store: Store, config: Config) -> Work:
    """The queries stage: its writer turns person mentions into queries with the configured
    filters, recording what each filter removed."""
    declare_ner(store)
    declare(store)
    review = config.resolve(config.queries.review) if config.queries.review else None
    marks = read_review_marks(review) if review else {}
    not_persons = {key for key, person in marks.items() if not person}
    overruled = {key for key, person in marks.items() if person}
    typed = read_types(store)
    retyped = (read_review_types(review, list(config.types))
               if review and not config.people_only else {})
    typed.update({key: Typed(key, kind, {"review": 1.0}) for key, kind in retyped.items()
                  if kind is not None})
    untyped = frozenset(key for key, kind in retyped.items() if kind is None)

    def work(s: Store) -> dict[str, Any]:
        rows = s.query("SELECT mention_id, doc_id, seg, start, end, name, name_key, type"
                       " FROM mentions ORDER BY seg, start")
        mentions = [Mention(*tuple(r)) for r in rows]
        kept, steps = typed_queries(mentions, config, not_persons, typed, overruled, untyped)
        s.execute("DELETE FROM queries")
        s.execute("DELETE FROM attrition")
        s.executemany(
            "INSERT INTO attrition VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(i, st.filter, st.mentions_before, st.mentions_after, st.names_before,
              st.names_after, st.type) for i, st in enumerate(steps, start=1)],
        )
        names = display_names(mentions)
        first: dict[tuple[str, str], Mention] = {}
        for m in kept:
            first.setdefault((m.name_key, m.doc_id), m)
        s.executemany(
            "INSERT INTO queries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(query_id(m.doc_id, m.name_key), names[m.name_key], m.name_key, m.doc_id,
              m.mention_id, m.seg, m.start, m.end, i, m.type)
             for i, m in enumerate(first.values())],
        )
        found = Counter(m.type for m in first.values())
        return {"mentions": len(mentions), "queries": len(first),
                "names": len({k for k, _ in first}),
                **({} if config.people_only else {"types": dict(sorted(found.items()))})}

    return work


# --- reading back ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    """An English query: a name at its first mention in one document."""

    query_id: str
    name: str
    name_key: str
    doc_id: str
    mention_id: int
    seg: int
    start: int
    end: int
    ordinal: int
    type: str = "PER"


def read_queries(store: Store, query_id: str | None = None) -> list[Query]:
    """Every query in corpus order (or the one with `query_id`, if there is one)."""
    declare(store)
    rows = store.query("SELECT query_id, name, name_key, doc_id, mention_id, seg, start, end,"
                       " ordinal, type FROM queries WHERE ? IS NULL OR query_id = ?"
                       " ORDER BY ordinal",
                       (query_id, query_id))
    return [Query(*tuple(r)) for r in rows]


def no_queries(store: Store) -> str:
    """Why there are no queries, from the queries stage's attrition: which filter removed the
    last mentions of each type (or that NER found none)."""
    store.declare(DDL)
    steps = store.query("SELECT filter, mentions_before, mentions_after, names_before, type "
                        "FROM attrition ORDER BY step")
    kinds = list(dict.fromkeys(s["type"] for s in steps))
    found = {k: next(s["mentions_before"] for s in steps if s["type"] == k) for k in kinds}
    named = "person" if kinds in ([], ["PER"]) else "named-entity"
    if not sum(found.values()):
        return (f"no queries: NER found no {named} mentions in the English side of the corpus "
                "(check corpus.source and that the English files hold English text)")
    why = []
    for kind in (k for k in kinds if found[k]):
        own = [s for s in steps if s["type"] == kind]
        last = next((s for s in own if s["mentions_after"] == 0), own[-1])
        trail = "; ".join(f"{s['filter']}: {s['mentions_before']} -> {s['mentions_after']}"
                          for s in own)
        why.append(f"NER found {found[kind]} {noun(kind)} mentions, and the filter "
                   f"'{last['filter']}' removed the last {last['mentions_before']} "
                   f"(mentions left after each filter: {trail})")
    return (f"no queries: {'. '.join(why)}. Loosen that filter in the config's `queries:` "
            "section (min_tokens, min_documents, longest_only, max_per_name, review; "
            "`queries.by_type` for one type) or use a larger corpus")


def write_queries_file(store: Store, path: Path) -> int:
    """A readable TSV of the queries and their candidates (one row per candidate)."""
    store.declare(LINK_DDL)
    rows = store.query(
        "SELECT q.query_id, q.name, q.doc_id, q.seg, q.start, q.end, c.rank, c.kb_id, e.name AS"
        " kb_name, c.score, c.why FROM queries q LEFT JOIN candidates c USING (query_id)"
        " LEFT JOIN kb_entries e USING (kb_id) ORDER BY q.ordinal, c.rank"
    )
    write_tsv(path, ["query_id", "name", "doc_id", "seg", "start", "end", "rank", "kb_id",
                     "kb_name", "score", "why"],
              ([*tuple(r)[:9], "" if r["score"] is None else f"{r['score']:.4f}", r["why"] or ""]
               for r in rows))
    return len({r["query_id"] for r in rows})
