"""Partition queries into train / devtest / test (60/20/20 by default), reproducibly.

Queries are partitioned once, on the English side, so a query is in the same partition in every
language. With `group: name` (or `entity`) all queries of one name string (or one KB entity) go
to the same partition, so no test name leaks into training. Groups are ordered by a seeded hash
of their key, not by a random generator, so the result depends only on the seed and the queries,
never on the order they were read in.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from xel.config import Config, PartitionConfig
from xel.stages import Signature, StageRun, digest_of, run_stage, upstream, versions
from xel.store import Store

DDL = """
CREATE TABLE IF NOT EXISTS partitions (
    query_id  TEXT PRIMARY KEY,
    partition TEXT NOT NULL,
    grp       TEXT NOT NULL        -- the group the query was assigned with
);
"""


@dataclass(frozen=True)
class Item:
    query_id: str
    group: str


def group_key(query_id: str, name_key: str, kb_id: str | None, group: str) -> str:
    """What must stay together: the query alone, its name string, or its entity."""
    if group == "name":
        return f"name:{name_key}"
    if group == "entity":
        # NIL queries have no entity: keep each NIL name together instead.
        return f"entity:{kb_id}" if kb_id else f"name:{name_key}"
    return f"query:{query_id}"


def assign(items: list[Item], shares: dict[str, float], seed: int) -> dict[str, str]:
    """query_id -> partition, filling partitions in order by seeded-hash order of groups.

    Each group goes to the partition furthest below its target share, so partition sizes come
    out as close to the shares as whole groups allow.
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for item in items:
        groups[item.group].append(item.query_id)
    order = sorted(groups, key=lambda g: hashlib.sha256(f"{seed}\t{g}".encode()).hexdigest())
    total = len(items)
    sizes = dict.fromkeys(shares, 0)
    result: dict[str, str] = {}
    for g in order:
        members = groups[g]
        target = max(shares, key=lambda p: shares[p] * total - sizes[p])
        sizes[target] += len(members)
        for qid in members:
            result[qid] = target
    return result


def partition_signature(store: Store, config: Config, links_policy: str | None) -> Signature:
    parts = {"after:queries": upstream(store, "queries", "xel queries"),
             "config": digest_of(config.partition), **versions()}
    if links_policy and config.partition.group == "entity":
        parts["links"] = digest_of([tuple(r) for r in store.query(
            "SELECT query_id, kb_id FROM links WHERE policy = ? ORDER BY query_id",
            (links_policy,))])
    return Signature("partition", parts)


def run_partition(store: Store, config: Config, *, links_policy: str | None = None,
                  force: bool = False) -> StageRun:
    """Partition every query; entity groups use the links of `links_policy`."""
    store.declare(DDL)
    cfg: PartitionConfig = config.partition
    signature = partition_signature(store, config, links_policy)

    def work(s: Store) -> dict[str, Any]:
        kb_of: dict[str, str | None] = {}
        if links_policy:
            kb_of = {r[0]: r[1] for r in s.query(
                "SELECT query_id, kb_id FROM links WHERE policy = ?", (links_policy,))}
        rows = s.query("SELECT query_id, name_key FROM queries ORDER BY ordinal")
        items = [Item(r[0], group_key(r[0], r[1], kb_of.get(r[0]), cfg.group)) for r in rows]
        result = assign(items, cfg.shares, cfg.seed)
        s.execute("DELETE FROM partitions")
        s.executemany("INSERT INTO partitions VALUES (?, ?, ?)",
                      [(i.query_id, result[i.query_id], i.group) for i in items])
        return dict(Counter(result.values()))

    return run_stage(store, signature, work, force=force)
