"""What crowd work costs on MTurk: the reward plus Amazon's commission.

MTurk charges 20% of the reward and bonus, 20% more for HITs with 10 or more assignments, and
at least $0.01 per assignment.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def fee_rate(assignments: int) -> Decimal:
    return Decimal("0.20") + (Decimal("0.20") if assignments >= 10 else Decimal(0))


def cost(reward: float, assignments: int, hits: int) -> Decimal:
    """Dollars for `hits` HITs of `assignments` each at `reward`, commission included."""
    pay = Decimal(str(reward))
    fee = max(Decimal("0.01"), pay * fee_rate(assignments))
    total = (pay + fee) * assignments * hits
    return total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
