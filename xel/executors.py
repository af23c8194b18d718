"""Where heavy per-document and per-language work runs: on this machine, or on a Dask cluster.

Stages hand an executor a module-level function and a list of work items (document chunks,
language pairs); results come back in item order whichever executor ran them, so a stage's
output does not depend on where it ran. Writes to the store stay in the calling process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

from threadpoolctl import threadpool_limits

from xel.config import ExecutorConfig
from xel.errors import XelError
from xel.progress import progress
from xel.registry import executors

T = TypeVar("T")
R = TypeVar("R")

SMALL_ITEMS = 20_000  # sentences in flight per worker below which items are read further ahead
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread_each() -> None:
    """A worker process's numerical libraries on one thread each: the executor's parallelism
    is its processes, and BLAS threads contending with them for the cores made the clel
    baseline's small logistic regressions 3 to 10 times slower (docs/benchmarks.md)."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"  # libraries loaded later
    threadpool_limits(1)  # libraries already loaded


class Executor(Protocol):
    def map(self, fn: Callable[[T], R], items: Sequence[T], description: str) -> list[R]: ...

    def imap(self, fn: Callable[[T], R], items: Iterable[T],
             total: int | None = None, ahead: int = 2) -> Iterator[R]: ...


class LocalExecutor:
    """On this machine: item after item in this process, or across `workers` processes."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def map(self, fn: Callable[[T], R], items: Sequence[T], description: str) -> list[R]:
        if self.workers <= 1 or len(items) <= 1:
            return [fn(item) for item in progress(items, description, total=len(items))]
        # Fresh ("spawn") processes: forking a process that holds torch or OpenMP threads is
        # not safe.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(self.workers, len(items)), mp_context=context,
                                 initializer=one_thread_each) as pool:
            futures = [pool.submit(fn, item) for item in items]
            index = {f: i for i, f in enumerate(futures)}
            results: list[Any] = [None] * len(futures)
            for future in progress(as_completed(futures), description, total=len(futures)):
                results[index[future]] = future.result()
        return results

    def imap(self, fn: Callable[[T], R], items: Iterable[T],
             total: int | None = None, ahead: int = 2) -> Iterator[R]:
        """Results in item order as they are ready, with at most `ahead` items per worker
        read ahead: memory holds a few items, however many there are (`total`, if known: a
        single item runs in this process). Callers show progress over the results."""
        if self.workers <= 1 or total == 1:
            yield from (fn(item) for item in items)
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(self.workers, mp_context=context,
                                 initializer=one_thread_each) as pool:
            yield from windowed(pool.submit, fn, items, ahead * self.workers)


def one_thread_plugin() -> Any:
    """A Dask worker plugin: each worker, present or to come, keeps its numerical libraries to
    one thread (`one_thread_each`), whatever the cluster's own settings say."""
    from distributed import WorkerPlugin

    class OneThreadEach(WorkerPlugin):
        name = "xel-one-thread-each"

        def setup(self, worker: Any) -> None:
            one_thread_each()

    return OneThreadEach()


class DaskExecutor:
    """Items as tasks on a dask.distributed cluster; `fn` must be importable by the workers."""

    def __init__(self, client: Any) -> None:
        self.client = client
        client.register_plugin(one_thread_plugin())

    def map(self, fn: Callable[[T], R], items: Sequence[T], description: str) -> list[R]:
        from distributed import as_completed

        futures = self.client.map(fn, list(items), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        for future in progress(as_completed(futures), description, total=len(futures)):
            results[index[future.key]] = future.result()
        return results

    def imap(self, fn: Callable[[T], R], items: Iterable[T],
             total: int | None = None, ahead: int = 2) -> Iterator[R]:
        """As `LocalExecutor.imap`, `ahead` items per worker in flight."""
        workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        yield from windowed(lambda f, x: self.client.submit(f, x, pure=False), fn, items,
                            ahead * workers)


def windowed(submit: Callable[..., Any], fn: Callable[[T], R], items: Iterable[T],
             window: int) -> Iterator[R]:
    """Submit items keeping at most `window` in flight; yield results in item order."""
    pending: deque[Any] = deque()
    for item in items:
        pending.append(submit(fn, item))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


@executors.register("local")
@contextmanager
def local_executor(config: ExecutorConfig) -> Iterator[Executor]:
    yield LocalExecutor(config.workers)


@executors.register("dask")
@contextmanager
def dask_executor(config: ExecutorConfig) -> Iterator[Executor]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise XelError("executor dask needs dask.distributed: `pip install 'dask[distributed]'`"
                       ) from None
    if config.address:
        try:
            client = Client(config.address, timeout=20)
        except OSError as e:
            raise XelError(f"cannot reach the Dask scheduler at {config.address} "
                           f"(executor.address): {e}") from None
        with client:
            yield DaskExecutor(client)
        return
    with LocalCluster(n_workers=config.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield DaskExecutor(client)


def read_ahead(sentences: int) -> int:
    """Items per worker in flight for items of about `sentences` sentences each: two of a
    large corpus's languages (memory holds a few), up to eight of small ones, so that one slow
    language does not leave the other workers idle while results come back in order."""
    return max(2, min(8, SMALL_ITEMS // max(sentences, 1)))


def executor(config: ExecutorConfig, sentences: int | None = None) -> Any:
    """The configured executor, as a context manager; a local one runs in this process when
    the work (`sentences`) is under `in_process_below`."""
    if config.name == "local" and sentences is not None and sentences < config.in_process_below:
        config = config.model_copy(update={"workers": 1})
    return executors.get(config.name)(config)
