"""The solver's worker processes: the service's jobs (``bot.service.jobs``) run there,
so the event loop never waits for a search."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

T = TypeVar("T")

SOLVER_WORKERS: Final = 2  # processes in the solver pool
ORPHAN_CHECK_SECONDS: Final = 0.5  # how often a worker looks whether its parent is alive
CLOSE_WAIT: Final = 2.0  # seconds a job may still run when the pool closes
# What a job raises when the pool failed (a worker died, no process could start):
# the caller logs it, calls ``reset`` and answers without the job.
POOL_FAILURES: Final = (BrokenProcessPool, OSError, RuntimeError)


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (in the main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def watch_parent(parent: int) -> None:
    """In a worker, at its start: end it as soon as ``parent`` (the bot) is gone, however
    the bot died (SIGKILL included: nothing else would stop the worker, which would live
    on with its share of memory and the bot's output pipes)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


class SolverPool:
    """A process pool of ``workers`` processes, started at the first job; or, for tests,
    the ``executor`` given (shut down by ``close`` all the same)."""

    def __init__(self, executor: Executor | None = None, workers: int = SOLVER_WORKERS) -> None:
        if workers < 1:
            raise ValueError("solver_workers must be at least 1")
        self._executor = executor
        self._workers = workers
        self.in_flight = 0  # jobs submitted and not yet done (running or waiting)
        self.done = 0  # jobs ended, however
        self.failed = 0  # jobs the pool failed (a worker died, no process could start)
        self.timed_out = 0  # searches that ran out of their budget undecided (the callers')

    @property
    def workers(self) -> int:
        return self._workers

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (those in flight beyond the workers)."""
        return max(0, self.in_flight - self._workers)

    def run(self, job: Callable[..., T], *args: object) -> asyncio.Future[T]:
        """Run ``job(*args)`` in a worker process.

        A worker process started here inherits SIGINT ignored (Python keeps an
        inherited "ignore" for its whole life): Ctrl-C at the terminal goes to
        every process of the foreground group, and the workers must leave it to
        the game, which saves and shuts the pool down, instead of each printing
        a KeyboardInterrupt traceback.
        """
        loop = asyncio.get_running_loop()
        with sigint_ignored():  # the pool starts its workers in submit
            future = loop.run_in_executor(self._started(), job, *args)
        self.in_flight += 1
        future.add_done_callback(self._ended)
        return future

    def _ended(self, future: asyncio.Future[Any]) -> None:
        self.in_flight -= 1
        self.done += 1
        if not future.cancelled() and isinstance(future.exception(), POOL_FAILURES):
            self.failed += 1

    def reset(self) -> None:
        """Drop a broken pool (a worker died); the next job starts a new one."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def close(self, wait: float = CLOSE_WAIT) -> None:
        """Stop the workers: jobs not started are dropped; a job still running after
        ``wait`` seconds is stopped with its worker (SIGTERM), so a stop of the bot is
        never held up by a long search (a daily's has no time budget)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        shutdown = asyncio.ensure_future(
            asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        )
        try:
            await asyncio.wait_for(asyncio.shield(shutdown), wait)
        except TimeoutError:
            # The standard library (before 3.14) has no public way to stop a running job.
            processes = getattr(executor, "_processes", None) or {}
            for process in list(processes.values()):
                with contextlib.suppress(OSError, ValueError):
                    process.terminate()
            await shutdown

    def _started(self) -> Executor:
        if self._executor is None:
            # spawn: a worker starts clean, not as a fork of a process with threads.
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self._workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
        return self._executor
