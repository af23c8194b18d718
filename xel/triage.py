"""Round-trip triage of projected names: translate back to English and accept exact matches."""

from __future__ import annotations

DDL = """
CREATE TABLE IF NOT EXISTS triage (
    lang             TEXT NOT NULL,
    query_id         TEXT NOT NULL,
    projection       TEXT NOT NULL,     -- the target-language name; '' when there is none
    seg              INTEGER,           -- where it occurs in the aligned target document
    start            INTEGER,           -- (character offsets in that target sentence)
    end              INTEGER,
    back_translation TEXT,
    backend          TEXT,
    outcome          TEXT NOT NULL CHECK (outcome IN ('A1', 'D1', 'curate')),
    PRIMARY KEY (lang, query_id)
);
"""
