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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from xel.config import Config, PartitionConfig
from xel.stages import Work, digest_of, versions
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


def partition_signature(store: Store, config: Config) -> dict[str, str]:
    # The shares' order breaks ties between partitions (`assign`): part of what decides.
    return {"config": digest_of(config.partition), "order": ",".join(config.partition.shares),
            **versions()}


def run_partition(store: Store, config: Config, kb_of: Mapping[str, str | None]) -> Work:
    """The partition stage: its writer assigns every query a partition; entity groups use
    `kb_of`, each query's KB id as the crowd linked it (the pipeline reads it from `hits`)."""
    store.declare(DDL)
    cfg: PartitionConfig = config.partition

    def work(s: Store) -> dict[str, Any]:
        rows = s.query("SELECT query_id, name_key FROM queries ORDER BY ordinal")
        items = [Item(r[0], group_key(r[0], r[1], kb_of.get(r[0]), cfg.group)) for r in rows]
        result = assign(items, cfg.shares, cfg.seed)
        s.execute("DELETE FROM partitions")
        s.executemany("INSERT INTO partitions VALUES (?, ?, ?)",
                      [(i.query_id, result[i.query_id], i.group) for i in items])
        return dict(Counter(result.values()))

    return work


def read_partitions(store: Store) -> dict[str, str]:
    """query_id -> partition."""
    store.declare(DDL)
    return {r[0]: r[1] for r in store.query("SELECT query_id, partition FROM partitions")}
