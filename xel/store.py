"""The store: one SQLite database (WAL) per collection holding every stage's output.

Stages pass data to each other only through the store. Each module that owns tables declares
them with `Store.declare(DDL)`; `CREATE ... IF NOT EXISTS` keeps that idempotent, and
`add_columns` adds what a newer version declares, so a store written by an older run opens
without a migration step.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from xel.errors import XelError

STAGES_DDL = """
CREATE TABLE IF NOT EXISTS stages (
    name        TEXT PRIMARY KEY,
    digest      TEXT NOT NULL,
    signature   TEXT NOT NULL,
    summary     TEXT NOT NULL DEFAULT '{}',
    finished_at REAL NOT NULL
);
"""


def statements(script: str) -> list[str]:
    """The complete SQL statements of a script (comments and quoted `;` understood)."""
    found, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            found.append(current.strip())
            current = ""
    return found


# Stores whose run lock this process holds, and how deeply (a build runs stages in turn).
_RUNNING: dict[Path, tuple[int, int]] = {}


class Store:
    """A connection to a collection's database, with transactions and stage bookkeeping."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so a transaction is exactly
        # what `transaction()` encloses and nothing is committed behind our back.
        self.conn = sqlite3.connect(str(path), isolation_level=None, timeout=60)
        self.conn.row_factory = sqlite3.Row
        # Pages that stages free (staging tables, replaced outputs) can be given back to the
        # file system (`PRAGMA incremental_vacuum`); takes effect only on a new database.
        self.conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self._declared: set[str] = set()
        self._depth = 0
        self.declare(STAGES_DDL)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def declare(self, ddl: str) -> None:
        """Create a module's tables and indexes if they do not exist yet.

        Safe inside a transaction: sqlite3's `executescript` would commit it first, so there
        the statements run one by one (SQLite's DDL is transactional)."""
        if ddl in self._declared:
            return
        if self.conn.in_transaction:
            for statement in statements(ddl):
                self.conn.execute(statement)
        else:
            self.conn.executescript(ddl)
        self._declared.add(ddl)

    def add_columns(self, table: str, columns: dict[str, str]) -> None:
        """Add columns a newer version of a module declares to a table an older one wrote."""
        have = {r["name"] for r in self.query(f"PRAGMA table_info({table})")}
        for name, kind in columns.items():
            if name not in have:
                self.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")

    @contextmanager
    def running(self) -> Iterator[None]:
        """Hold the store's run lock (`<store>.lock`) while stages run: two processes running
        stages on one store would write the same staging rows and stage records. Readers
        (`xel stages`, `xel eval`) need no lock."""
        if str(self.path) == ":memory:":
            yield
            return
        key = self.path.resolve()
        if key in _RUNNING:
            fd, depth = _RUNNING[key]
            _RUNNING[key] = (fd, depth + 1)
        else:
            lock = self.path.with_name(self.path.name + ".lock")
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "another"
                os.close(fd)
                raise XelError(f"{self.path}: process {holder} is running stages on this "
                               "store; wait for it to finish (or stop it), then run again"
                               ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            _RUNNING[key] = (fd, 1)
        try:
            yield
        finally:
            fd, depth = _RUNNING[key]
            if depth > 1:
                _RUNNING[key] = (fd, depth - 1)
            else:
                del _RUNNING[key]
                os.close(fd)  # closing releases the lock

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All-or-nothing writes; nested calls join the outer transaction."""
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            self._declared.clear()  # tables declared inside it are gone too
            raise
        else:
            self.conn.execute("COMMIT")
        finally:
            self._depth = 0

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)

    def query(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def scalar(self, sql: str, params: Any = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def has_table(self, name: str) -> bool:
        """Whether a stage has made this table here (evaluation reads a store as it is)."""
        return self.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                           (name,)) is not None

    # --- stage bookkeeping -------------------------------------------------------------

    def stage(self, name: str) -> sqlite3.Row | None:
        """A stage's record: digest, signature, summary (JSON), finished_at."""
        rows = self.query("SELECT * FROM stages WHERE name = ?", (name,))
        return rows[0] if rows else None

    def stage_digest(self, name: str) -> str | None:
        return self.scalar("SELECT digest FROM stages WHERE name = ?", (name,))

    def stage_summary(self, name: str) -> dict[str, Any]:
        raw = self.scalar("SELECT summary FROM stages WHERE name = ?", (name,))
        return json.loads(raw) if raw else {}

    def record_stage(
        self, name: str, digest: str, signature: str, summary: dict[str, Any]
    ) -> None:
        self.execute(
            "INSERT OR REPLACE INTO stages(name, digest, signature, summary, finished_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (name, digest, signature, json.dumps(summary, sort_keys=True), time.time()),
        )

    def forget_stage(self, name: str) -> None:
        self.execute("DELETE FROM stages WHERE name = ?", (name,))

    def stages(self) -> list[sqlite3.Row]:
        return self.query("SELECT * FROM stages ORDER BY finished_at")
