"""Solver jobs that never return, for the tests of the hints' deadline: ``Never`` puts them
in place of the service's jobs in a thread pool; ``sleep_forever`` and ``nap`` run in a
real worker process (they are found by name there, so they live in a module of their own)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import bot.service.jobs as jobs_module


class Never:
    """The service's jobs ``hang`` names never return until ``release`` (the test sets it at
    its end, whatever happens, before the service closes: a thread pool waits for its
    threads); ``started``: the jobs called, by name, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.started: list[str] = []
        self.running = threading.Event()  # set when a job starts
        self._monkeypatch = monkeypatch

    def hang(self, *names: str) -> None:
        for name in names:
            self._monkeypatch.setattr(jobs_module, name, self._forever(name))

    def _forever(self, name: str) -> Callable[..., Any]:
        def job(*args: object) -> Any:
            self.started.append(name)
            self.running.set()
            self.release.wait()
            raise RuntimeError("released at the end of the test")

        return job


def sleep_forever(*args: object) -> Any:
    """A job that never returns, in a worker process (its pid first written to the file
    named by ``REEL_TEST_PID_FILE``, if set)."""
    where = os.environ.get("REEL_TEST_PID_FILE")
    if where:
        with open(where, "w") as file:
            file.write(str(os.getpid()))
    while True:
        time.sleep(3600)


def nap(seconds: float, value: int) -> tuple[int, int]:
    """A job that ends after ``seconds``: ``value``, and the worker's pid."""
    time.sleep(seconds)
    return value, os.getpid()
