"""Names a dictionary gives with their English: where a script's reading cannot tell how a
name is said (a kanji name has many readings, and Janome's dictionary knows few historical
given names), a list of the names people bore can.

One lexicon ships, for Japanese: the person names of the Kyoto lexicon that comes with the
Japanese-English Bilingual Corpus of Wikipedia's Kyoto Articles 2.01 (NICT, CC BY-SA 3.0;
the file is under that licence too). `xel names lexicon` rebuilds it from the corpus's
`kyoto_lexicon.csv`. Each entry is split into surname and given name, so that a name the
lexicon lacks is still found from parts other names share (`藤原` + `宗俊`).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import lzma
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import regex

from xel.errors import XelError
from xel.names.translit import MODELS

JAPANESE = MODELS / "japanese.names.tsv.xz"
REBUILD = "rebuild it with `xel names lexicon PATH/kyoto_lexicon.csv`"

# The Kyoto lexicon's person names: `Hideyoshi TOYOTOMI`, `FUJIWARA no Kanesuke`, `Emperor
# Ankan` (written `安閑天皇`); the kanji side wholly kanji.
_GIVEN = r"[A-Z][a-z]+"
_GIVEN_SURNAME = regex.compile(rf"({_GIVEN})(?:/{_GIVEN})? ([A-Z]{{2,}})")
_SURNAME_NO_GIVEN = regex.compile(rf"([A-Z]{{2,}}) no ({_GIVEN})(?:/{_GIVEN})?")
_EMPEROR = regex.compile(rf"Emperor ({_GIVEN})")
_WRITTEN = regex.compile(r"[\p{Han}\u3005]{2,}")


@dataclass(frozen=True)
class Entry:
    """A name as written (surname, then given name; an emperor's name is given only) and its
    English parts; `no` marks the old `Fujiwara no Kanesuke` order."""
    surname: str
    given: str
    english_surname: str
    english_given: str
    no: bool = False

    @property
    def written(self) -> str:
        return self.surname + self.given

    @property
    def english(self) -> str:
        if not self.english_surname:
            return self.english_given
        if self.no:
            return f"{self.english_surname} no {self.english_given}"
        return f"{self.english_given} {self.english_surname}"


def kyoto_entries(rows: Iterable[Sequence[str]],
                  reads_as: Callable[[str, str], bool]) -> list[Entry]:
    """The person names among the Kyoto lexicon's rows (Japanese, English), split into
    surname and given name (`split_surnames`); the first of two English readings
    (`Koremasa/Koretada ICHIJO`)."""
    found: list[tuple[str, str, str, bool]] = []  # written, surname, given (English), no
    emperors = []
    for row in rows:
        if len(row) < 2:
            continue
        written, english = row[0].strip(), " ".join(row[1].split())
        if m := _EMPEROR.fullmatch(english):
            if written.endswith("天皇") and _WRITTEN.fullmatch(written[:-2]):
                emperors.append(Entry("", written[:-2], "", m.group(1)))
            continue
        if not _WRITTEN.fullmatch(written):
            continue
        if m := _GIVEN_SURNAME.fullmatch(english):
            found.append((written, m.group(2).capitalize(), m.group(1), False))
        elif m := _SURNAME_NO_GIVEN.fullmatch(english):
            found.append((written, m.group(1).capitalize(), m.group(2), True))
    entries = split_surnames(found, reads_as) + emperors
    return sorted(set(entries), key=lambda e: (e.written, e.english))


def split_surnames(names: Sequence[tuple[str, str, str, bool]],
                   reads_as: Callable[[str, str], bool]) -> list[Entry]:
    """Where each written name parts: after the longest first kanji that `reads_as` the
    English surname (`織田` is oda); else after the kanji that other names of that surname
    were found to start with, or that all of them share (`花山院`, which a dictionary reads
    kasan-no-in, for Kazanin); else where both parts have as many letters of English per
    kanji."""

    def read(written: str, surname: str) -> int:
        return next((k for k in range(len(written) - 1, 0, -1)
                     if reads_as(written[:k], surname)), 0)

    def balanced(written: str, surname: str, given: str) -> int:
        return min(range(1, len(written)),
                   key=lambda k: abs(len(surname) / k - len(given) / (len(written) - k)))

    split = {(w, s): read(w, s) for w, s, _, _ in names}
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    spelled: dict[str, set[str]] = defaultdict(set)
    for (written, surname), k in split.items():
        spelled[surname].add(written)
        if k:
            votes[surname][written[:k]] += 1
    entries = []
    for written, surname, given, no in names:
        k = split[(written, surname)]
        if not k:
            usual = [p for p, _ in votes[surname].most_common() if written.startswith(p)]
            shared = len(os.path.commonprefix(sorted(spelled[surname])))
            k = (len(usual[0]) if usual else
                 shared if len(spelled[surname]) >= 3 and 0 < shared < len(written) else
                 balanced(written, surname, given))
        entries.append(Entry(written[:k], written[k:], surname, given, no))
    return entries


def write_lexicon(entries: Iterable[Entry], path: Path) -> int:
    """Entries as xz-compressed TSV (surname, given, English surname, English given, `no`):
    the same entries give the same bytes."""
    rows = [f"{e.surname}\t{e.given}\t{e.english_surname}\t{e.english_given}\t"
            f"{'no' if e.no else ''}\n" for e in entries]
    path.write_bytes(lzma.compress("".join(rows).encode("utf-8"), preset=9))
    return len(rows)


def read_kyoto_csv(path: Path, reads_as: Callable[[str, str], bool]) -> list[Entry]:
    """The person names of a `kyoto_lexicon.csv` (UTF-8, Japanese and English columns), or
    of the one in a copy of the Kyoto corpus."""
    if (inside := path / "wiki_corpus_2.01" / "kyoto_lexicon.csv").is_file():
        path = inside
    try:
        with path.open(encoding="utf-8", newline="") as f:
            return kyoto_entries(csv.reader(f), reads_as)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise XelError(f"{path}: cannot read it as the Kyoto lexicon ({e}): name the "
                       "kyoto_lexicon.csv of the Kyoto corpus (wiki_corpus_2.01)") from e


class NameLexicon:
    """Written names by the English tokens they are read as, folded (`fold`: a script's
    spelling-blind key, such as Japanese without voicing or long vowels)."""

    def __init__(self, entries: Iterable[Entry], fold: Callable[[str], str]) -> None:
        self.fold = fold
        self.entries = list(entries)
        self._whole: dict[tuple[str, ...], set[str]] = defaultdict(set)
        self._parts: dict[str, set[str]] = defaultdict(set)
        self._surnames: set[str] = set()
        self._given: set[str] = set()
        english: dict[str, set[str]] = defaultdict(set)
        for e in self.entries:
            tokens = [t for t in (e.english_surname, e.english_given) if t]
            self._whole[self._key(tokens)].add(e.written)
            english[e.written].add(e.english)
            if e.surname:
                self._parts[fold(e.english_surname.lower())].add(e.surname)
                self._surnames.add(e.surname)
            self._parts[fold(e.english_given.lower())].add(e.given)
            self._given.add(e.given)
        # A written name with two Englishes is no answer to what it is in English.
        self._english = {w: next(iter(es)) for w, es in english.items() if len(es) == 1}

    def _key(self, tokens: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(self.fold(t.lower()) for t in tokens if t.lower() != "no"))

    def whole(self, english: Sequence[str]) -> set[str]:
        """Written names whose English is these tokens, in any order."""
        return self._whole.get(self._key(english), set())

    def parts(self, token: str) -> set[str]:
        """Written surnames and given names read as one English token."""
        return self._parts.get(self.fold(token.lower()), set())

    def is_surname(self, written: str) -> bool:
        return written in self._surnames

    def is_given(self, written: str) -> bool:
        return written in self._given

    def english(self, written: str) -> str | None:
        """The English of a written name the lexicon knows one English for."""
        return self._english.get(written)


def read_lexicon(path: Path) -> list[Entry]:
    try:
        text = lzma.decompress(path.read_bytes()).decode("utf-8")
        rows = [line.split("\t") for line in text.splitlines()]
        return [Entry(r[0], r[1], r[2], r[3], r[4] == "no") for r in rows]
    except (OSError, lzma.LZMAError, UnicodeDecodeError, IndexError) as e:
        raise XelError(f"{path}: not a name lexicon ({e}): {REBUILD}") from e


@functools.cache
def lexicon_digest(path: Path = JAPANESE) -> str:
    """What a stage's signature records of the lexicon: its bytes' digest."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else ""
