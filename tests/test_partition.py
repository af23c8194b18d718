"""Partitioning: shares, reproducibility, stability, and groups kept together."""

from __future__ import annotations

from collections import Counter

import pytest

from xel.config import PartitionConfig
from xel.partition import Item, assign, group_key

SHARES = {"train": 0.6, "devtest": 0.2, "test": 0.2}


def test_shares_are_met_and_seed_reproduces() -> None:
    items = [Item(f"q{i}", f"query:q{i}") for i in range(1000)]
    result = assign(items, SHARES, seed=7)
    assert Counter(result.values()) == {"train": 600, "devtest": 200, "test": 200}
    assert assign(items, SHARES, seed=7) == result
    assert assign(items, SHARES, seed=8) != result


def test_groups_stay_together() -> None:
    items = [Item(f"q{i}", group_key(f"q{i}", f"name{i % 37}", None, "name"))
             for i in range(400)]
    result = assign(items, SHARES, seed=3)
    by_group: dict[str, set[str]] = {}
    for item in items:
        by_group.setdefault(item.group, set()).add(result[item.query_id])
    assert all(len(parts) == 1 for parts in by_group.values())
    counts = Counter(result.values())
    assert abs(counts["train"] / 400 - 0.6) < 0.08


def test_entity_groups_fall_back_to_name_for_nil() -> None:
    assert group_key("q1", "jane roe", "Q1", "entity") == "entity:Q1"
    assert group_key("q1", "jane roe", None, "entity") == "name:jane roe"
    assert group_key("q1", "jane roe", "Q1", "query") == "query:q1"


def test_bad_shares_are_refused() -> None:
    with pytest.raises(ValueError, match="add up to 1"):
        PartitionConfig(shares={"train": 0.5, "test": 0.2})
    with pytest.raises(ValueError, match="positive share"):
        PartitionConfig(shares={"train": 1.0, "test": 0.0})
