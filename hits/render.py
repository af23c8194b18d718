"""HIT pages rendered with jinja2, autoescaped: corpus text is untrusted and must show as text.

The same HTML serves MTurk (inside an HTMLQuestion, posting to externalSubmit) and the local web
app (posting back to it); only the form's action and hidden fields differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from hits.store import EL_CHOICES, Item, batch, field_name, items, open_tables
from xel.corpus import document, source_language
from xel.entity_types import a_noun
from xel.errors import XelError
from xel.languages import language
from xel.link import read_kb_entries
from xel.queries import Query, read_queries
from xel.store import Store

_WORD = re.compile(r"\w+")


@cache
def static_file(name: str) -> str:
    """A file of `hits/static/` (the pages' script and style), as text."""
    return resources.files("hits").joinpath("static", name).read_text(encoding="utf-8")


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("hits", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # `hits serve` links /static/ files (its CSP allows no inline script); pages sent to MTurk,
    # which has no server of ours to load them from, carry them inline.
    env.globals.update(inline=False, static=lambda name: Markup(static_file(name)))
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


@dataclass(frozen=True)
class Part:
    text: str
    mark: bool


def marked(text: str, start: int, end: int) -> list[Part]:
    """A sentence split so that text[start:end] is marked."""
    return [Part(text[:start], False), Part(text[start:end], True), Part(text[end:], False)]


def marked_tokens(text: str, tokens: set[str]) -> list[Part]:
    """A sentence split so that words in `tokens` (casefolded) are marked."""
    parts: list[Part] = []
    last = 0
    for m in _WORD.finditer(text):
        if m.group().casefold() in tokens:
            parts += [Part(text[last:m.start()], False), Part(m.group(), True)]
            last = m.end()
    parts.append(Part(text[last:], False))
    return parts


def name_tokens(name: str) -> set[str]:
    return {t.casefold() for t in _WORD.findall(name)}


def _query(store: Store, query_id: str) -> Query:
    found = read_queries(store, query_id)
    if not found:
        raise XelError(f"query {query_id!r} is in a HIT but not in the queries table")
    return found[0]


def el_item(store: Store, item: Item, max_description: int) -> dict[str, Any]:
    """What an entity-linking item shows: the passage around the mention and the candidates."""
    q = _query(store, item.query_id)
    source = source_language(store)
    passage: list[Part] = []
    for seg, text in document(store, source, q.doc_id):
        if not q.seg - 1 <= seg <= q.seg + 1:
            continue
        if passage:
            passage.append(Part(" ", False))
        if seg == q.seg:
            passage += marked(text, q.start, q.end)
        else:
            passage.append(Part(text, False))
    entries = read_kb_entries(store, item.shown)
    candidates = [
        {"kb_id": k, "name": entries[k].name,
         "description": entries[k].description[:max_description]}
        for k in item.shown if k in entries
    ]
    return {"position": item.position, "field": field_name(item.position), "name": q.name,
            "passage": passage, "candidates": candidates, **kind_words(q.type)}


def kind_words(kind: str) -> dict[str, str]:
    """How an item speaks of its query's type: `a person`, `an organization`."""
    article, word = a_noun(kind).split(" ", 1)
    return {"noun": word, "article": article}


def people_only(store: Store) -> bool:
    """Every query is a person's: the pages keep the paper's wording."""
    return {q.type for q in read_queries(store)} <= {"PER"}


def name_item(store: Store, item: Item, lang: str) -> dict[str, Any]:
    """What a curation item shows: English sentences sharing a token with the name, aligned."""
    q = _query(store, item.query_id)
    source = source_language(store)
    tokens = name_tokens(q.name)
    targets = dict(document(store, lang, q.doc_id))
    pairs = [
        {"seg": seg, "english": marked_tokens(english, tokens), "target": targets[seg]}
        for seg, english in document(store, source, q.doc_id)
        if seg in targets and tokens & name_tokens(english)
    ]
    return {"position": item.position, "field": field_name(item.position), "name": q.name,
            "pairs": pairs, **kind_words(q.type)}


def offered(store: Store, item: Item) -> list[str]:
    """The answers an entity-linking item offers: its candidates as shown (those in the KB),
    then none of the above, not enough information, not a person."""
    known = read_kb_entries(store, item.shown)
    return [k for k in item.shown if k in known] + list(EL_CHOICES)


def shown_targets(store: Store, item: Item, lang: str) -> str:
    """The target sentences a curation item showed, for checking that an answer occurs there."""
    return "\n".join(p["target"] for p in name_item(store, item, lang)["pairs"])


def render_hit(
    store: Store, hit_id: str, *, action: str, hidden: dict[str, str] | None = None,
    mturk: bool = False, max_description: int = 2000,
) -> str:
    """The HTML page of one HIT; `mturk` adds the assignmentId field MTurk's form needs."""
    open_tables(store)
    batch_id = store.scalar("SELECT batch_id FROM hit_hits WHERE hit_id = ?", (hit_id,))
    if batch_id is None:
        raise XelError(f"no HIT {hit_id!r} in {store.path}")
    b = batch(store, batch_id)
    shown = items(store, hit_id)
    people = people_only(store)
    common = {"action": action, "hidden": hidden or {}, "mturk": mturk, "inline": mturk,
              "people": people}
    if b.kind == "el":
        return render(
            "el.html", title="Which person is this?" if people else "Which entity is this?",
            items=[el_item(store, it, max_description) for it in shown], **common,
        )
    info = language(b.lang)
    return render(
        "name.html", title=f"Find the name in {info.name}", language=info.name,
        lang_tag=b.lang, items=[name_item(store, it, b.lang) for it in shown], **common,
    )
