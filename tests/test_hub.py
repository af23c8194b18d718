"""The collection's Parquet files for `datasets`: a rebuilt collection must not load stale."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from xel import hub


def record(k: int, name: str, partition: str) -> dict[str, Any]:
    return {"id": f"XEL-deu-{k}", "lang": "deu", "partition": partition, "query_id": f"q{k}",
            "name": name, "doc_id": "d1", "beg": 0, "end": len(name) - 1, "kb_id": "NIL",
            "kb_name": None, "english_name": name, "outcome": "A1", "back_translation": None,
            "link_support": 1.0, "votes": {"NIL": 2}, "simulated": True, "prior_rank": None,
            "seen_in_train": False, "nil_type": "no-kb-name"}


def export(folder: Path, names: list[str]) -> hub.HubFiles:
    """What the export writes of `data/` and the card's configs, into a fresh folder."""
    shutil.rmtree(folder, ignore_errors=True)
    records = [record(k, n, "train" if k % 2 else "test") for k, n in enumerate(names)]
    files = hub.write_hub_files(folder, records, {r["id"]: ["train:new"] for r in records},
                                {"deu": {"d1": " ".join(names)}})
    header = hub.card_header("t", files, [], "deu")
    (folder / "README.md").write_text("---\n" + yaml.safe_dump(header) + "---\n",
                                      encoding="utf-8")
    return files


def test_a_rebuilt_collection_loads_its_new_rows(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets", reason="the `hub` extra (./setup installs it)")
    folder, cache = tmp_path / "collection", str(tmp_path / "cache")
    first = export(folder, ["Ann Lee", "Bo Li"])
    assert first == hub.read_hub_files(folder)
    assert {r["name"] for r in datasets.load_dataset(str(folder), "deu", cache_dir=cache,
                                                      split="test")} == {"Ann Lee"}
    second = export(folder, ["Cy Twombly", "Di Wu"])  # the same folder, rebuilt
    assert second.queries["deu"]["test"] != first.queries["deu"]["test"]
    assert {r["name"] for r in datasets.load_dataset(str(folder), "deu", cache_dir=cache,
                                                      split="test")} == {"Cy Twombly"}
    assert export(folder, ["Cy Twombly", "Di Wu"]) == second  # same rows, same names
