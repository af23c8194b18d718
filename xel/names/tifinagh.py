"""Tifinagh (Shilha, Tamazight): an alphabet that writes English names letter for sound
(`ⵜⵔⴰⵎⴱ`, Trump), read out with uroman."""

from __future__ import annotations

from xel.names.script import Family
from xel.names.translit import romanize


class Tifinagh(Family):
    name = "tifinagh"

    def sound_readings(self, token: str) -> list[str]:
        return [romanize(token)]
