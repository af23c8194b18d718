"""What crowd work costs on MTurk: the reward plus Amazon's commission.

MTurk charges 20% of the reward and bonus, 20% more for HITs with 10 or more assignments, and
at least $0.01 per assignment.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def fee_rate(assignments: int) -> Decimal:
    return Decimal("0.20") + (Decimal("0.20") if assignments >= 10 else Decimal(0))


def per_assignment(reward: float, assignments: int) -> Decimal:
    """Dollars one assignment costs, commission included (unrounded)."""
    pay = Decimal(str(reward))
    return pay + max(CENT, pay * fee_rate(assignments))


def cost(reward: float, assignments: int, hits: int) -> Decimal:
    """Dollars for `hits` HITs of `assignments` each at `reward`, commission included."""
    total = per_assignment(reward, assignments) * assignments * hits
    return total.quantize(CENT, rounding=ROUND_HALF_UP)
