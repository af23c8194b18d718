"""Greek: foreign names are written by sound and mostly not declined (`Ντόναλντ Τραμπ`), but
Greek names drop or change their final `ς` in other cases (`Τσίπρα` for `Τσίπρας`)."""

from __future__ import annotations

import itertools
import unicodedata

from xel.names.script import Family

# Greek writes English sounds with letter groups whose reading depends on the word: `μπ` is b
# in `Μπάιντεν` (Biden), mp in `Τραμπ` (Trump); `ντ` d or nd; `γκ` g or ng; `γου` w
# (`Γουόρεν`, Warren); `γι` y (`Γιονγκ`, Yong). Each gives the Latin readings tried, the
# usual one in English names first.
_DIGRAPHS = {"γου": ("w", "gu"), "γιου": ("yu", "ju"), "γι": ("y", "j", "gi"),
             "μπ": ("b", "mp"), "ντ": ("d", "nd"), "γκ": ("g", "ng"),
             "τζ": ("j",), "τσ": ("ts", "ch"), "ου": ("u", "w"), "αι": ("e", "ai"),
             "ει": ("i", "ei"), "οι": ("i", "oi"), "αυ": ("av", "au"), "ευ": ("ev", "eu")}
_LETTERS = dict(zip("αβγδεζηθικλμνξοπρστυφχψως",
                    ["a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m", "n", "x", "o",
                     "p", "r", "s", "t", "i", "f", "h", "ps", "o", "s"], strict=True))
_MAX_READINGS = 8


def latin_readings(token: str) -> list[str]:
    """Latin readings of a Greek name token, the usual one first (`Ντόναλντ`: donald, ...)."""
    bare = "".join(ch for ch in unicodedata.normalize("NFD", token.casefold())
                   if not unicodedata.combining(ch))
    parts: list[tuple[str, ...]] = []
    k = 0
    while k < len(bare):
        for size in (4, 3, 2):
            if bare[k:k + size] in _DIGRAPHS:
                parts.append(_DIGRAPHS[bare[k:k + size]])
                k += size
                break
        else:
            parts.append((_LETTERS.get(bare[k], bare[k]),))
            k += 1
    return ["".join(p) for p in itertools.islice(itertools.product(*parts), _MAX_READINGS)]


class Greek(Family):
    name = "greek"
    suffixes = {"ell": ("ου", "α", "η", "ο", "ι", "ων")}
    restores = ("ας", "ης", "ος", "ς", "ους")

    def model_inputs(self, token: str) -> list[str]:
        return latin_readings(token)

    def sound_readings(self, token: str) -> list[str]:
        return latin_readings(token)
