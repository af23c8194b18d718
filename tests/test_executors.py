"""Executors: the same stage output whether work runs locally or on a Dask LocalCluster."""

from __future__ import annotations

from pathlib import Path

from test_queries import small_config

from xel.config import ExecutorConfig
from xel.executors import executor
from xel.ner import chunks
from xel.pipeline import run
from xel.store import Store


def square(x: int) -> int:
    return x * x


def test_chunks_are_cut_only_between_documents() -> None:
    sents = [(i, doc, "x") for i, doc in enumerate("aaabbbbcd")]
    parts = chunks(sents, 2)
    assert [[d for _, d, _ in p] for p in parts] == [list("aaa"), list("bbbb"), list("cd")]
    assert sum(len(p) for p in parts) == len(sents)


def test_dask_local_cluster_gives_the_local_result_in_order(tmp_path: Path) -> None:
    config = small_config(tmp_path)
    config.ner.chunk_size = 1
    with Store(tmp_path / "s.sqlite") as store:
        run(store, config, ["import"])
        run(store, config, ["ner"])
        local = store.query("SELECT seg, start, end, name_key FROM mentions ORDER BY mention_id")
        config.executor = ExecutorConfig(name="dask", workers=2)
        with executor(config.executor) as ex:
            assert ex.map(square, list(range(20)), "squares") == [x * x for x in range(20)]
        run(store, config, ["ner"], force=True)
        dask = store.query("SELECT seg, start, end, name_key FROM mentions ORDER BY mention_id")
    assert [tuple(r) for r in dask] == [tuple(r) for r in local]
    assert len(local) >= 5
