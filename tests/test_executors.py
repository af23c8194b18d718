"""Executors: the same stage output whether work runs locally or on a Dask LocalCluster."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from test_project import small_store
from test_queries import small_config

from xel.config import ExecutorConfig
from xel.corpus import DDL as CORPUS_DDL
from xel.executors import LocalExecutor, executor
from xel.ner import segment_ranges
from xel.pipeline import run
from xel.store import Store


def square(x: int) -> int:
    return x * x


def blas_threads(_: int) -> tuple[list[int], str | None]:
    """In a worker: the threads of each BLAS library loaded, and what later ones will read."""
    import numpy  # noqa: F401  (loads OpenBLAS)
    from threadpoolctl import threadpool_info

    return ([lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"],
            os.environ.get("OPENBLAS_NUM_THREADS"))


def test_workers_keep_blas_to_one_thread() -> None:
    """The executor's processes are its parallelism: a worker whose BLAS runs as many threads
    as the machine has cores fights the other workers for them (clel's fits ran 3-10 times
    slower so)."""
    ex = LocalExecutor(2)
    for results in (ex.map(blas_threads, [1, 2], "blas"), list(ex.imap(blas_threads, [1, 2], 2))):
        for threads, variable in results:
            assert threads and set(threads) == {1}
            assert variable == "1"


def test_dask_workers_keep_blas_to_one_thread_whatever_the_cluster_sets() -> None:
    """Dask's nannies set the thread variables by default; a cluster configured otherwise
    still gets workers on one thread each."""
    import dask
    import distributed  # noqa: F401  (its defaults load on import: before the setting)

    with dask.config.set({"distributed.nanny.pre-spawn-environ": {}}), executor(
            ExecutorConfig(name="dask", workers=1)) as ex:
        for threads, variable in ex.map(blas_threads, [1, 2], "blas"):
            assert threads and set(threads) == {1}
            assert variable == "1"


def test_chunks_are_cut_only_between_documents(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        store.declare(CORPUS_DDL)
        first = 0
        for ordinal, doc in enumerate(["a", "b", "c", "d"]):
            n = "aaabbbbcd".count(doc)
            store.execute("INSERT INTO documents VALUES (?, ?, ?, ?)", (doc, ordinal, first, n))
            first += n
        assert segment_ranges(store, 2) == [(0, 2), (3, 6), (7, 8)]
        assert segment_ranges(store, 100) == [(0, 8)]


def test_imap_keeps_order_and_reads_ahead_only_a_window() -> None:
    read: list[int] = []

    def items() -> Iterator[int]:
        for k in range(20):
            read.append(k)
            yield k

    ex = LocalExecutor(2)
    for ahead in (2, 5):
        read.clear()
        out: list[int] = []
        furthest = 0
        for result in ex.imap(square, items(), 20, ahead):
            out.append(result)
            furthest = max(furthest, len(read) - len(out))
        assert out == [k * k for k in range(20)]
        # `ahead` items per worker are read beyond what has been returned, and no more.
        assert furthest == 2 * ahead - 1


def test_small_items_are_read_further_ahead_than_large_ones() -> None:
    from xel.executors import read_ahead

    assert read_ahead(1997) == 8  # an NTREX language
    assert read_ahead(1_000_000) == 2  # a large corpus's language: memory holds two
    assert read_ahead(5000) == 4


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


def test_projection_on_a_pool_or_dask_is_the_projection_in_this_process(tmp_path: Path) -> None:
    store, config = small_store(tmp_path, also=("fra",))
    tables = ["projections", "projection_ranks", "projection_counts"]

    def projections() -> list[list[tuple[object, ...]]]:
        return [[tuple(r) for r in store.query(f"SELECT * FROM {t} ORDER BY 1, 2, 3")]
                for t in tables]

    run(store, config, ["align", "project"])  # 30 sentences: in this process
    here = projections()
    assert len(here[0]) == 2 * 30 and here[0][0][0] == "deu"
    for where in (ExecutorConfig(workers=2, in_process_below=0),
                  ExecutorConfig(name="dask", workers=2)):
        for table in tables:
            store.execute(f"DELETE FROM {table}")
        config.executor = where
        runs = run(store, config, ["project"], force=True)
        assert [r.summary["mentions"] for r in runs] == [30, 30]
        assert projections() == here, where.name
    store.close()
