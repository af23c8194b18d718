"""Greek: foreign names are written by sound and mostly not declined (`Ντόναλντ Τραμπ`), but
Greek names drop or change their final `ς` in other cases (`Τσίπρα` for `Τσίπρας`)."""

from __future__ import annotations

from xel.names.script import Family


class Greek(Family):
    name = "greek"
    suffixes = {"ell": ("ου", "α", "η", "ο", "ι", "ων")}
    restores = ("ας", "ης", "ος", "ς", "ους")
