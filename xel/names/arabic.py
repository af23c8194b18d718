"""Arabic script (Arabic, Persian, Urdu, ...): an abjad whose one-letter conjunctions and
prepositions are written onto the next word (`وجاستن`, and Justin)."""

from __future__ import annotations

from xel.names.script import Family


class Arabic(Family):
    name = "arabic"
    abjad = True
    proclitics = "وفبلك"
