"""Check el-reference-types.tsv and el-gold-types.tsv against a ntrex-types-gold store.

    PYTHONPATH=. python corpora/ntrex128/types_reference.py \
        --store work/ntrex-types-gold/xel.sqlite --kb-index work/kb/all-types.sqlite

(a store of configs/ntrex-types-gold.yaml; `--kb` alone checks the answers against the KB files
../shared/data/kb/persons.jsonl and corpora/kb_types/entities.jsonl.gz instead of the index,
`--kb FILE...` against those files). Checks that every query of the store has
one answer, that each answer is NIL, NOT_PERSON or the id of a KB entity of the query's type,
and that the gold items are a subset of the reference with the same answers; prints per type
how many queries are in the KB, NIL or NOT_PERSON, and how often the linker's top candidate
(rank 1 in `candidates`) is the reference answer (its accuracy on the in-KB queries; a NIL or
NOT_PERSON query has no right candidate). Exits 1 when a check fails.

`--draw-gold` prints the seeded known-answer draw that el-gold-types.tsv was made from.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REFERENCE = HERE / "el-reference-types.tsv"
GOLD = HERE / "el-gold-types.tsv"
PERSON_REFERENCE = HERE / "el-reference.tsv"
PERSON_GOLD = HERE / "el-gold.tsv"
KB_FILES = (ROOT.parent / "shared/data/kb/persons.jsonl",
            ROOT / "corpora/kb_types/entities.jsonl.gz")

NIL, NOT_TYPE = "NIL", "NOT_PERSON"  # NOT_PERSON: "That's not a [type]" for every type
TYPES = ("PER", "ORG", "LOC", "EVENT")
GOLD_SEED = "ntrex128 el-gold-types"


@dataclass(frozen=True)
class Query:
    query_id: str
    name: str
    type: str
    ordinal: int


def read_answers(path: Path) -> dict[str, str]:
    """Query id -> answer (`query id<TAB>answer` lines; `#` lines and blank lines skipped); a
    malformed line or a query id given twice is an error."""
    answers: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            raise ValueError(f"{path}, line {number}: expected `query id<TAB>answer`, got {line!r}")
        query_id, answer = fields[0].strip(), fields[1].strip()
        if query_id in answers:
            raise ValueError(f"{path}, line {number}: {query_id} is answered twice")
        answers[query_id] = answer
    return answers


def read_groups(path: Path) -> dict[str, tuple[str, str]]:
    """Query id -> (name, type) from the `# <name> (<type>)` line before it."""
    groups: dict[str, tuple[str, str]] = {}
    current: tuple[str, str] | None = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("# ") and line.endswith(")") and " (" in line:
            name, _, kind = line[2:-1].rpartition(" (")
            current = (name, kind) if kind in TYPES else None
        elif line.strip() and not line.startswith("#") and current is not None:
            groups[line.split("\t")[0].strip()] = current
    return groups


def connect(path: Path) -> sqlite3.Connection:
    """Read-only: the store may be written by a running build."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def store_queries(store: Path) -> dict[str, Query]:
    with connect(store) as db:
        return {q: Query(q, name, kind, ordinal) for q, name, kind, ordinal in db.execute(
            "SELECT query_id, name, type, ordinal FROM queries ORDER BY ordinal")}


def top_candidates(store: Path) -> dict[str, str]:
    with connect(store) as db:
        return dict(db.execute("SELECT query_id, kb_id FROM candidates WHERE rank = 1"))


def kb_types_from_index(index: Path, ids: Iterable[str]) -> dict[str, str]:
    """KB id -> type of the given ids that the KB index (`entities`) holds."""
    wanted = sorted(set(ids))
    found: dict[str, str] = {}
    with connect(index) as db:
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            found.update(db.execute(
                f"SELECT kb_id, type FROM entities WHERE kb_id IN ({','.join('?' * len(chunk))})",
                chunk))
    return found


def kb_types_from_files(paths: Iterable[Path], ids: Iterable[str]) -> dict[str, str]:
    """KB id -> type of the given ids in xel's KB JSONL files (plain or gzipped)."""
    from xel.kb import read_jsonl

    wanted, found = set(ids), {}
    for path in paths:
        for entity in read_jsonl(Path(path)):
            if entity.kb_id in wanted and entity.kb_id not in found:
                found[entity.kb_id] = entity.type
    return found


def in_kb(answer: str) -> bool:
    return answer not in (NIL, NOT_TYPE)


def check(reference: Mapping[str, str], gold: Mapping[str, str], queries: Mapping[str, Query],
          kb_types: Mapping[str, str]) -> list[str]:
    """Every problem found, as a sentence; none when the files fit the store and the KB."""
    problems = [f"{q} ({queries[q].name}, {queries[q].type}) has no answer"
                for q in queries if q not in reference]
    problems += [f"{q} is answered but is not a query of the store" for q in reference
                 if q not in queries]
    for q, answer in reference.items():
        if q not in queries or not in_kb(answer):
            continue
        kind = kb_types.get(answer)
        if kind is None:
            problems.append(f"{q} ({queries[q].name}): {answer} is not in the KB")
        elif kind != queries[q].type:
            problems.append(f"{q} ({queries[q].name}): {answer} is a {kind}, the query a "
                            f"{queries[q].type}")
    for q, answer in gold.items():
        if q not in reference:
            problems.append(f"gold item {q} is not in the reference")
        elif reference[q] != answer:
            problems.append(f"gold item {q} answers {answer}, the reference {reference[q]}")
    return problems


def counts(reference: Mapping[str, str], queries: Mapping[str, Query],
           top: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """Per type: queries, in_kb, nil, not_type, and top1 (the linker's rank-1 candidate is the
    reference's KB id)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for q, query in queries.items():
        answer = reference.get(q)
        if answer is None:
            continue
        row = table[query.type]
        row["queries"] += 1
        row["in_kb" if in_kb(answer) else "nil" if answer == NIL else "not_type"] += 1
        row["top1"] += in_kb(answer) and top.get(q) == answer
    return {kind: dict(table[kind]) for kind in TYPES if kind in table}


def draw_gold(reference: Mapping[str, str], queries: Mapping[str, Query], base: Iterable[str],
              share: float = 0.25, seed: str = GOLD_SEED) -> dict[str, str]:
    """Known-answer items: per type, the `base` items of that type (el-gold.tsv's, kept), then
    one query of each name not yet drawn, names in a seeded random order, in rounds, until the
    type has round(share * its queries) items. The draw never looks at the answers."""
    rng = random.Random(seed)
    chosen = {q for q in base if q in queries and q in reference}
    for kind in TYPES:
        by_name: dict[str, list[str]] = defaultdict(list)
        for q in sorted(queries, key=lambda q: queries[q].ordinal):
            if queries[q].type == kind and q in reference:
                by_name[queries[q].name].append(q)
        target = round(share * sum(map(len, by_name.values())))
        have = sum(1 for q in chosen if queries[q].type == kind)
        names = sorted(by_name)
        rng.shuffle(names)
        for round_ in range(1, max(map(len, by_name.values()), default=0) + 1):
            for name in names:
                left = [q for q in by_name[name] if q not in chosen]
                if have < target and left and len(by_name[name]) - len(left) < round_:
                    chosen.add(rng.choice(left))
                    have += 1
    return {q: reference[q] for q in chosen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, default=ROOT / "work/ntrex-types-gold/xel.sqlite")
    parser.add_argument("--kb-index", type=Path, default=ROOT / "work/kb/all-types.sqlite")
    parser.add_argument("--kb", type=Path, nargs="*",
                        help="KB JSONL files to check the answers against instead of the index "
                             "(none given: the config's two)")
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--draw-gold", action="store_true",
                        help="print the seeded gold draw (query id, answer) and exit")
    args = parser.parse_args(argv)

    queries = store_queries(args.store)
    reference = read_answers(args.reference)
    if args.draw_gold:
        base = read_answers(PERSON_GOLD)
        for q, answer in sorted(draw_gold(reference, queries, base).items(),
                                key=lambda item: queries[item[0]].ordinal):
            print(f"{q}\t{answer}\t{queries[q].type}\t{queries[q].name}")
        return 0
    gold = read_answers(args.gold)
    ids = {a for a in reference.values() if in_kb(a)}
    kb_types = (kb_types_from_index(args.kb_index, ids) if args.kb is None
                else kb_types_from_files(args.kb or KB_FILES, ids))
    problems = check(reference, gold, queries, kb_types)
    table = counts(reference, queries, top_candidates(args.store))
    gold_types = Counter(queries[q].type for q in gold if q in queries)
    print(f"{'type':6} {'queries':>7} {'in KB':>6} {'NIL':>5} {'NOT_':>5} {'gold':>5}  "
          "linker top-1 on in-KB")
    for kind, row in table.items():
        n_kb, top1 = row.get("in_kb", 0), row.get("top1", 0)
        accuracy = f"{top1}/{n_kb} = {top1 / n_kb:.1%}" if n_kb else "-"
        print(f"{kind:6} {row['queries']:7} {n_kb:6} {row.get('nil', 0):5} "
              f"{row.get('not_type', 0):5} {gold_types[kind]:5}  {accuracy}")
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    print(f"{len(problems)} problems" if problems else "reference and gold fit the store and KB")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
