"""How many of the gold's English mentions the type check typed right (issue 36).

    python corpora/ntrex_types/type_check.py CONFIG [tune|heldout] [--set=orgs]

CONFIG is a built collection of NTREX with every type (`configs/ntrex-types-gold.yaml` or
`configs/ntrex21-types.yaml`: its persons stage decided each name's type). A mention is typed
right when the type of its name (`xel.entity_types.read_types`) is its `gold_type` in
`english.tsv`, or when the name has no type and its gold type is none of the collection's
(`Chariots of Fire`, a film). Prints one line per type and the total, then the mentions typed
wrong.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from build import SETS, chosen_set, english_mentions, half  # noqa: E402

from xel.config import load_config  # noqa: E402
from xel.entity_types import read_types  # noqa: E402
from xel.names.english import name_key, split_name  # noqa: E402
from xel.store import Store  # noqa: E402


def gold_mentions(part: str, which: str = "types") -> list[dict[str, str]]:
    return [r for r in english_mentions(SETS[which].folder) if half(r["doc"]) == part]


def key_of(english: str, kind: str) -> str:
    """The name key NER's normalization gives the mention (titles stripped from people)."""
    split = split_name(english, person=kind == "PER")
    return name_key(split.name) if split else ""


def main(config_path: str, part: str = "heldout", which: str = "types") -> None:
    report(config_path, gold_mentions(part, which), part)


def report(config_path: str, mentions: list[dict[str, str]], part: str) -> None:
    """Print how many of the gold's `mentions` (rows of an `english.tsv`) the collection of
    `config_path` typed right, per gold type, and the ones typed wrong."""
    config = load_config(config_path)
    with Store(config.resolve(config.store)) as store:
        typed = read_types(store)
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    wrong = []
    for r in mentions:
        decided = typed.get(key_of(r["english"], r["type"]))
        got = decided.type if decided else None
        gold = r["gold_type"]
        ok = got == gold or (got is None and gold not in config.types)
        total[gold] += 1
        right[gold] += ok
        if not ok:
            wrong.append(f"  {r['english']!r}: {got} (gold {gold}; NER {r['label']})")
    for kind in sorted(total):
        print(f"{kind:6} {right[kind]:3} / {total[kind]:3}")
    n, ok_all = total.total(), right.total()
    print(f"all    {ok_all:3} / {n:3} = {100 * ok_all / max(1, n):.1f}% typed right ({part})")
    # the mentions of an entity of the collection's types, as gold entity mentions are
    real = [k for k in total if k in config.types]
    n, ok_all = sum(total[k] for k in real), sum(right[k] for k in real)
    print(f"of the collection's types {ok_all} / {n} = {100 * ok_all / max(1, n):.1f}%")
    print("\n".join(wrong))


if __name__ == "__main__":
    which, args = chosen_set(sys.argv[1:])
    main(*args[:2], which=which)
