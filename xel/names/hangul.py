"""Korean (Hangul): case particles are written onto the last word of a name (`트럼프는`,
Trump + topic), so a span leaves them out."""

from __future__ import annotations

from xel.names.script import Family


class Hangul(Family):
    name = "hangul"
    enclitics = ("에게서", "에게", "에서", "으로", "께서", "이랑", "이나", "은", "는", "이", "가",
                 "을", "를", "의", "와", "과", "도", "에", "로", "만", "랑", "나")
