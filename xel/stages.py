"""Stage signatures and the skip-if-unchanged runner.

A signature is every setting that produced a stage's output (as sacrebleu's): input
checksums, the config section, model and package versions, and the digests of the stages it
reads from. A stage whose signature is unchanged is skipped; because a downstream signature
contains its upstream digests, changing one stage reruns exactly what depends on it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from xel import __version__
from xel.errors import XelError
from xel.store import Store


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


def upstream(store: Store, stage: str, command: str) -> str:
    """The digest of a stage this one reads from, or an error saying how to produce it."""
    digest = store.stage_digest(stage)
    if digest is None:
        raise XelError(f"stage {stage!r} has not run on {store.path}: run `{command}` first")
    return digest


def run_stage(
    store: Store,
    signature: Signature,
    work: Callable[[Store], dict[str, Any]],
    *,
    force: bool = False,
) -> StageRun:
    """Run `work` in one transaction unless the stored signature matches.

    `work` replaces the stage's previous output and returns a summary (counts) that is stored
    beside the signature. A crash inside `work` rolls everything back, so the stage is either
    absent or complete, never half-written.
    """
    if not force and store.stage_digest(signature.stage) == signature.digest:
        return StageRun(signature.stage, True, store.stage_summary(signature.stage))
    with store.transaction():
        summary = work(store)
        store.record_stage(signature.stage, signature.digest, signature.text, summary)
    return StageRun(signature.stage, False, summary)
