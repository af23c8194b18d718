"""Shared fixtures: the real data in ../shared/data (skipped where absent) and small stores."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("XEL_SHARED_DATA", ROOT.parent / "shared" / "data"))

os.environ.setdefault("XEL_QUIET", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or a skip saying why the test cannot run without it."""
    if not (SHARED / "ntrex128").is_dir():
        pytest.skip(f"needs the shared data at {SHARED} (absent here); see README 'Data'")
    return SHARED
