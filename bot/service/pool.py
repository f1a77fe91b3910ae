"""The solver's worker processes: the service's jobs (``bot.service.jobs``) run there,
so the event loop never waits for a search.

A caller that must answer by a deadline (a hint: ``bot.service.hints``) waits for its job
with ``run_within``: past the deadline it gets ``PastDeadline`` and answers without the
job, which is given up. A job given up that had not started never runs; one that runs on
``OVERDUE_SECONDS`` after its caller gave up on it is taken as hung: the next jobs go to a
fresh pool, and the hung pool's workers are stopped once its other jobs have ended (at
most ``RETIRE_WAIT`` seconds), so a hung job holds no worker for good and costs no one
else's job.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

SOLVER_WORKERS: Final = 2  # processes in the solver pool
ORPHAN_CHECK_SECONDS: Final = 0.5  # how often a worker looks whether its parent is alive
CLOSE_WAIT: Final = 2.0  # seconds a job may still run when the pool closes
# What a job raises when the pool failed (a worker died, no process could start):
# the caller logs it, calls ``reset`` and answers without the job.
POOL_FAILURES: Final = (BrokenProcessPool, OSError, RuntimeError)
OVERDUE_SECONDS: Final = 10.0  # a job given up on and still running this long after: hung
RETIRE_WAIT: Final = 60.0  # a hung pool's other jobs may run this long before it is stopped


class PastDeadline(Exception):
    """``run_within``: the job was not done by its deadline; it is given up. (Not an
    ``OSError``, as ``TimeoutError`` is, so that no caller takes it for a failed pool.)"""


def workers_of(executor: Executor) -> dict[Any, Any]:
    """The worker processes of a process pool, by pid (none for a thread pool): the pool's
    own table, read before a ``shutdown``, which forgets it. (The standard library, before
    3.14, has no public way to stop a running job.)"""
    processes = getattr(executor, "_processes", None)
    return processes if isinstance(processes, dict) else {}


def stop_workers(executor: Executor, processes: dict[Any, Any]) -> None:
    """Stop ``executor`` at once: its jobs not started are dropped, its worker
    ``processes`` (``workers_of``) stopped (SIGTERM), and the jobs they ran with them
    (they fail with ``BrokenProcessPool``). A thread pool's threads can't be stopped:
    they are left to end."""
    executor.shutdown(wait=False, cancel_futures=True)
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError):
            process.terminate()


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
        self.hung = 0  # jobs given up on that ran on past ``OVERDUE_SECONDS``: pool replaced
        self._jobs: dict[Future[Any], Executor] = {}  # jobs in flight, by the pool running them
        self._retiring: dict[Executor, asyncio.Task[None]] = {}  # hung pools being stopped

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
        return self._submit(job, *args)[0]

    async def run_within(self, seconds: float, job: Callable[..., T], *args: object) -> T:
        """``run``, waited for at most ``seconds`` of wall clock: ``PastDeadline`` after that,
        and the job is given up (module docstring). A caller cancelled gives it up too."""
        future, work = self._submit(job, *args)
        try:
            return await asyncio.wait_for(asyncio.shield(future), max(0.0, seconds))
        except TimeoutError:
            raise PastDeadline() from None
        finally:
            if not work.done():
                self._give_up(work)

    def _submit(self, job: Callable[..., T], *args: object) -> tuple[asyncio.Future[T], Future[T]]:
        executor = self._started()
        with sigint_ignored():  # the pool starts its workers in submit
            work = executor.submit(job, *args)
        self._jobs[work] = executor
        future = asyncio.wrap_future(work)
        self.in_flight += 1
        future.add_done_callback(lambda done: self._ended(done, work))
        return future, work

    def _give_up(self, work: Future[Any]) -> None:
        """The caller of ``work`` answers without it: dropped if it has not started, else
        watched, and taken as hung if it runs on past ``OVERDUE_SECONDS``."""
        if not work.cancel():
            asyncio.get_running_loop().call_later(OVERDUE_SECONDS, self._overdue, work)

    def _overdue(self, work: Future[Any]) -> None:
        executor = self._jobs.get(work)
        if work.done() or executor is None:
            return
        self.hung += 1
        if self._executor is executor:
            self._executor = None  # the next job starts a fresh pool
        if executor in self._retiring:
            return
        log.warning(
            "a solver job ran on %.0f s after its caller gave up on it: the next jobs go to "
            "fresh worker processes, and the hung ones are stopped",
            OVERDUE_SECONDS,
        )
        self._retiring[executor] = asyncio.ensure_future(self._retire(executor, work))

    async def _retire(self, executor: Executor, hung: Future[Any]) -> None:
        """Stop the hung pool ``executor`` once its other jobs have ended (``RETIRE_WAIT``
        at most: their callers then answer without them, as on a failed pool)."""
        processes = workers_of(executor)
        try:
            executor.shutdown(wait=False)  # no new job; those already given to it still run
            others = [
                asyncio.wrap_future(w)
                for w, e in self._jobs.items()
                if e is executor and w is not hung
            ]
            if others:
                await asyncio.wait(others, timeout=RETIRE_WAIT)
        finally:
            stop_workers(executor, processes)
            self._retiring.pop(executor, None)

    def _ended(self, future: asyncio.Future[Any], work: Future[Any]) -> None:
        self._jobs.pop(work, None)
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
        never held up by a long search (a daily's has no time budget). Hung pools being
        stopped (``_retire``) are stopped at once."""
        for retiring in list(self._retiring.values()):
            retiring.cancel()  # its pool is stopped as the task ends
        await asyncio.gather(*self._retiring.values(), return_exceptions=True)
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = workers_of(executor)
        shutdown = asyncio.ensure_future(
            asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
        )
        try:
            await asyncio.wait_for(asyncio.shield(shutdown), wait)
        except TimeoutError:
            stop_workers(executor, processes)
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
