"""Tests of the scale bench's accounting: the CPU time it gives a run is the processes'
own, a run's figures add up over the service processes, and what it says of the CPU."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.scale import Counters, Run, cpu_use, machine_ticks, tree_ticks


def burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_process_tree_counts_its_childrens_cpu_time_too() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", "import time\nend = time.process_time() + 0.3\n"
         "while time.process_time() < end: pass\ninput()"],
        stdin=subprocess.PIPE,
    )  # fmt: skip
    try:
        time.sleep(1.0)  # the child has burned its 0.3 s by now
        alone = tree_ticks(child.pid)
        with_child = tree_ticks(os.getpid())
        ticks = os.sysconf("SC_CLK_TCK")
        assert alone >= 0.2 * ticks
        assert with_child >= alone  # this process's ticks and its child's
    finally:
        child.communicate(b"\n")


def test_the_machines_busy_share_of_a_run_is_a_fraction_and_a_server_is_measured() -> None:
    before = Counters.now(os.getpid())
    burn(0.2)
    run = Run(commands=100)
    before.until_now(run)
    assert run.machine is not None and 0.0 < run.machine <= 1.0
    assert run.server_cpu is not None and run.server_cpu >= 0.1  # this process, as a server
    busy, total = machine_ticks()
    assert 0 < busy <= total


def test_a_runs_figures_add_up_over_its_service_processes() -> None:
    run = Run()
    for cpu, commands in ((0.5, 1000), (0.7, 1000)):
        run.add(
            {"busy": 1, "commands": commands, "elapsed": 5.0, "ran_out": 0,
             "latencies": [0.001] * 3, "cpu": cpu}
        )  # fmt: skip
    assert (run.commands, run.busy, run.cpu, len(run.latencies)) == (2000, 2, 1.2, 6)
    run.server_cpu, run.machine = 0.4, 0.5
    assert cpu_use(run) == (
        "service 0.60 ms/command, PostgreSQL 0.20 ms/command; machine 50% busy (everyone's work)"
    )
