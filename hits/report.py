"""Figures for `hits review`, `hits simulate` and the collection report: agreement per policy,
how the policy does on its own known answers, cost so far."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from hits.cost import CENT, per_assignment
from hits.quality import GoldCheck
from hits.store import NIL, NOT_A_PERSON, NOT_ENOUGH_INFO, open_tables
from hits.workflow import aggregate_el, check_round
from xel.config import Config
from xel.registry import policies as registered
from xel.store import Store


@dataclass(frozen=True)
class PolicyRow:
    policy: str
    kept: int  # queries linked (a KB id or NIL)
    nil: int
    not_links: int  # decided "not enough information" or "not a person"
    accuracy: float | None  # against the truth, when known


def compare_policies(store: Store, config: Config, truth: dict[str, str] | None = None,
                     policies: list[str] | None = None) -> list[PolicyRow]:
    """Aggregate the EL judgments under every policy (each stored in `links` under its name)
    and count what each keeps; the configured policy is aggregated last, so it stays current."""
    chosen = policies or registered.names()
    order = [p for p in chosen if p != config.hits.policy] + [config.hits.policy]
    rows = []
    for policy in order:
        aggregate_el(store, config, policy)
        links = store.query("SELECT query_id, label FROM links WHERE policy = ?", (policy,))
        labels = [label for _, label in links]
        right = [truth[q] == label for q, label in links if truth and q in truth]
        rows.append(PolicyRow(
            policy, sum(label not in (NOT_ENOUGH_INFO, NOT_A_PERSON) for label in labels),
            labels.count(NIL), sum(label in (NOT_ENOUGH_INFO, NOT_A_PERSON) for label in labels),
            sum(right) / len(right) if right else None,
        ))
    return sorted(rows, key=lambda r: chosen.index(r.policy) if r.policy in chosen else 0)


def gold_checks(store: Store, config: Config) -> list[tuple[str, str, GoldCheck]]:
    """(round, language, check) for every round with reviewed batches (`check_round`)."""
    open_tables(store)
    rounds = store.query("SELECT DISTINCT kind, lang FROM hit_batches WHERE state IN "
                         "('reviewed', 'sent', 'aggregated') ORDER BY kind, lang")
    return [(kind, lang, check_round(store, config, kind, lang)) for kind, lang in rounds]


def cost_so_far(store: Store) -> Decimal:
    """Dollars approved on MTurk so far (commission included); other backends cost nothing."""
    open_tables(store)
    total = Decimal(0)
    for r in store.query(
        "SELECT b.reward, b.assignments, COUNT(*) AS n FROM payments p JOIN hit_batches b "
        "USING (batch_id) WHERE b.backend = 'mturk' AND p.decision = 'approve' "
        "GROUP BY b.batch_id"
    ):
        total += per_assignment(r["reward"], r["assignments"]) * r["n"]
    return total.quantize(CENT)
