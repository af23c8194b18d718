"""Stage signatures and the skip-if-unchanged runner.

A signature is every setting that produced a stage's output (as sacrebleu's): input
checksums, the config section, model and package versions, and the digests of the stages it
reads from (added by `xel.pipeline`, which knows each stage's upstream). A stage whose
signature is unchanged is skipped; because a downstream signature contains its upstream
digests, changing one stage reruns exactly what depends on it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from xel import __version__
from xel.store import Store

# What a stage writes, given the store: it runs inside the transaction that records the stage
# and returns the summary (counts) stored beside the signature.
Work = Callable[[Store], dict[str, Any]]


@dataclass(frozen=True)
class Signature:
    stage: str
    parts: Mapping[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """Human-readable form, e.g. `queries|after:ner=3f2a..|config=9b1c..|xel=0.1.0`."""
        body = "|".join(f"{k}={v}" for k, v in sorted(self.parts.items()))
        return f"{self.stage}|{body}"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class StageRun:
    name: str
    skipped: bool
    summary: dict[str, Any]
    waiting: tuple[str, ...] = ()  # crowd stages: what waits for people (stops the build)
    notes: tuple[str, ...] = ()  # what the build should say about it


def parse_signature(text: str) -> dict[str, str]:
    """The parts of a signature's text (`stage|key=value|...`), to say what changed."""
    return {key: value for key, _, value in (p.partition("=") for p in text.split("|")[1:])}


def digest_of(value: Any) -> str:
    """Digest of a JSON-able value (a config section, a list of options)."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


_file_digests: dict[tuple[str, int, int], str] = {}


def file_digest(path: str | Path) -> str:
    """Content digest of a file, memoised per (path, size, mtime) within the process."""
    st = os.stat(path)
    key = (str(Path(path).resolve()), st.st_size, st.st_mtime_ns)
    if key not in _file_digests:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _file_digests[key] = h.hexdigest()[:16]
    return _file_digests[key]


def code_digest(*modules: ModuleType) -> str:
    """Digest of the source of the modules a stage runs, so a changed algorithm reruns it; a
    package counts with every module in it."""
    files = []
    for m in modules:
        folders = getattr(m, "__path__", None)
        files += sorted(p for f in folders for p in Path(f).glob("*.py")) if folders else [
            Path(str(m.__file__))]
    return digest_of([file_digest(f) for f in files])


def versions(*packages: str) -> dict[str, str]:
    """Installed versions of the packages a stage's output depends on, plus xel's own."""
    found = {"xel": __version__}
    for name in packages:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "absent"
    return found


def is_current(store: Store, signature: Signature, outputs: Sequence[Path] = ()) -> bool:
    """Whether the stage ran with this signature and every file it writes is there."""
    return (store.stage_digest(signature.stage) == signature.digest
            and all(Path(p).exists() for p in outputs))


def commit(store: Store, signature: Signature, work: Work) -> StageRun:
    """Run `work` and record the stage in one transaction, so a crash leaves the stage absent
    or complete, never half-written."""
    with store.transaction():
        summary = work(store)
        store.record_stage(signature.stage, signature.digest, signature.text, summary)
    return StageRun(signature.stage, False, summary)


def run_unless_current(
    store: Store,
    signature: Signature,
    prepare: Callable[[], Work],
    *,
    force: bool = False,
    outputs: Sequence[Path] = (),
) -> StageRun:
    """Run a stage unless it is current (`is_current`).

    `prepare` does the reading and computing outside any transaction (so a long stage never
    holds the write lock) and returns the `Work` that replaces the stage's previous output,
    which `commit` runs with the stage's record. Stages that write files (`outputs`) write
    them in `prepare`, beside the old ones, and swap them in.
    """
    if not force and is_current(store, signature, outputs):
        return StageRun(signature.stage, True, store.stage_summary(signature.stage))
    return commit(store, signature, prepare())
