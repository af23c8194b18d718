"""English entity linker: top-k knowledge-base candidates per query, with why each was proposed."""

from __future__ import annotations

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
    popularity  REAL
);
"""
