"""English queries from person mentions, with the filters of Lawrie et al. and their attrition.

A query is a name string and one document it occurs in (pointing at the name's first mention
there). Each filter is a pure function from the surviving mentions to fewer mentions; the
attrition table records what every filter removed, in order, for the report.
"""

from __future__ import annotations

DDL = """
CREATE TABLE IF NOT EXISTS queries (
    query_id   TEXT PRIMARY KEY,   -- stable: derived from document id and name key
    name       TEXT NOT NULL,      -- display form: the name's most frequent spelling
    name_key   TEXT NOT NULL,
    doc_id     TEXT NOT NULL,
    mention_id INTEGER NOT NULL,   -- the name's first mention in the document
    seg        INTEGER NOT NULL,
    start      INTEGER NOT NULL,   -- of that mention, in its English sentence
    end        INTEGER NOT NULL,
    ordinal    INTEGER NOT NULL    -- corpus order
);
CREATE INDEX IF NOT EXISTS queries_key ON queries(name_key);
CREATE TABLE IF NOT EXISTS attrition (
    step            INTEGER PRIMARY KEY,
    filter          TEXT NOT NULL,
    mentions_before INTEGER NOT NULL,
    mentions_after  INTEGER NOT NULL,
    names_before    INTEGER NOT NULL,
    names_after     INTEGER NOT NULL
);
"""
