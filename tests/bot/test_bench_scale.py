"""Tests of the scale bench's accounting: the CPU time it gives a run is the processes'
own, a run's figures add up over the service processes, and what it says of the CPU."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.cgroups import CgroupError, CpuGroups, find_hierarchy
from bench.scale import (
    BALLAST,
    Counters,
    Result,
    Run,
    context_switches,
    cpu_use,
    machine_ticks,
    ratios,
    targets,
    tree_ticks,
)
from tests.procs import alive, descendants

ROOT = Path(__file__).resolve().parents[2]


def burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def burning_child(seconds: float) -> subprocess.Popen[bytes]:
    """A child process that burns ``seconds`` of CPU, then waits for a line on its stdin."""
    code = f"import time\nend = time.process_time() + {seconds}\n"
    code += "while time.process_time() < end: pass\ninput()"
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE)


def test_a_child_that_ends_keeps_its_cpu_time_in_the_tree() -> None:
    # A PostgreSQL backend that ends during a run (a pooled connection closed) must not
    # take its CPU time out of the server's sum: the run's figure would go negative.
    child = burning_child(0.5)
    try:
        while tree_ticks(child.pid) < 0.4 * os.sysconf("SC_CLK_TCK"):
            time.sleep(0.05)
        before = tree_ticks(os.getpid())
    finally:
        child.communicate(b"\n")  # it ends, and is waited for
    assert tree_ticks(os.getpid()) >= before


def test_the_ballast_spins_at_idle_priority_and_ends_with_the_bench() -> None:
    bench = subprocess.Popen(  # stands for the bench: starts a spinner, then waits
        [sys.executable, "-c", "import subprocess, sys\n"
         f"p = subprocess.Popen([sys.executable, '-c', {BALLAST!r}])\n"
         "print(p.pid, flush=True)\ninput()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert bench.stdout is not None
    spinner = int(bench.stdout.readline())
    try:
        deadline = time.monotonic() + 10
        while os.sched_getscheduler(spinner) != os.SCHED_IDLE:  # set as it starts
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        bench.communicate("\n")  # the bench ends
    deadline = time.monotonic() + 10
    while alive(spinner):
        assert time.monotonic() < deadline, "the spinner outlived its bench"
        time.sleep(0.05)


def test_a_process_tree_counts_its_childrens_cpu_time_too() -> None:
    child = burning_child(0.3)
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
    for cpu, commands, switches in ((0.5, 1000, [100, 300]), (0.7, 1000, [60, 1500])):
        run.add(
            {"busy": 1, "commands": commands, "elapsed": 5.0, "ran_out": 0,
             "latencies": [0.001] * 3, "cpu": cpu, "switches": switches}
        )  # fmt: skip
    assert (run.commands, run.busy, run.cpu, len(run.latencies)) == (2000, 2, 1.2, 6)
    assert run.switches == (160, 1800)
    run.server_cpu, run.machine = 0.4, 0.5
    assert cpu_use(run) == (
        "service 0.60 ms/command, PostgreSQL 0.20 ms/command;"
        " context switches a command 0.08 waiting, 0.90 forced; machine 50% busy (everyone's work)"
    )


def test_a_process_counts_its_waits_as_voluntary_context_switches() -> None:
    before = context_switches()
    for _ in range(5):
        time.sleep(0.002)  # each a wait: the core given up
    waited = context_switches()[0] - before[0]
    assert waited >= 5


def measured(processes: int, rate: float, round_: int) -> Result:
    """A configuration's result whose saturation run served ``rate`` commands a second."""
    saturation, paced = Run(commands=round(rate * 5), elapsed=5.0), Run()
    return Result(f"postgresql {processes}", processes, saturation, paced, 0, round_)


def test_each_rounds_ratio_is_to_its_own_one_process_run_and_the_targets_take_the_median(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the machine sped up in round 2: against round 1's single process, 4 processes
    # would seem to scale x4.4 there; against its own, x3.67
    results = [
        measured(1, 400, 1), measured(2, 760, 1), measured(4, 1300, 1),
        measured(1, 480, 2), measured(2, 900, 2), measured(4, 1760, 2),
        measured(1, 440, 3), measured(2, 810, 3), measured(4, 1500, 3),
    ]  # fmt: skip
    found = ratios(results)
    assert found[2] == pytest.approx([1.9, 1.875, 810 / 440])
    assert found[4] == pytest.approx([3.25, 1760 / 480, 1500 / 440])
    targets(results, 0.25)
    said = capsys.readouterr().out
    assert "2 processes at least x1.85 one: x1.88, met" in said  # 1.875, the median
    assert "4 processes at least x3.6 one: x3.41, NOT met" in said


# --------------------------------------------------------------------------- the lag


def test_the_lag_is_each_change_stored_against_its_arrival_in_each_other_process() -> None:
    run = Run()
    common = {"busy": 0, "commands": 2, "elapsed": 1.0, "ran_out": 0, "latencies": [], "cpu": 0}
    run.add(common | {"stored": [[1, 2, 10.0], [1, 3, 11.0]], "heard": [[2, 5, 12.5]]})
    run.add(common | {"stored": [[2, 5, 12.0]], "heard": [[1, 2, 10.25]]})  # (1, 3) unheard
    run.match_changes()
    assert sorted(run.lags) == [0.25, 0.5] and run.unheard == 1
    assert run.lag(100) == 0.5


# --------------------------------------------------------------------------- cgroups

MOUNTS_V2 = "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0\n"
MOUNTS_V1 = (
    "cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n"
    "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0\n"
    "cgroup /sys/fs/cgroup/memory cgroup rw,memory 0 0\n"
)


def test_the_cpu_controllers_hierarchy_is_v2_where_it_has_cpu_else_v1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unified = tmp_path / "unified"
    unified.mkdir()
    (unified / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    assert find_hierarchy(MOUNTS_V2.replace("/sys/fs/cgroup", str(unified))).version == 2
    (unified / "cgroup.controllers").write_text("hugetlb\n")
    v1 = MOUNTS_V1.replace("/sys/fs/cgroup/unified", str(unified))
    found = find_hierarchy(v1)
    assert found.version == 1 and found.root == Path("/sys/fs/cgroup/cpu,cpuacct")
    with pytest.raises(CgroupError, match="no cgroup hierarchy with the cpu controller"):
        find_hierarchy(v1.replace(",cpu,cpuacct", ""))


def test_cpu_groups_need_root_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(CgroupError, match="needs root"):
        CpuGroups.create(0.25, 4000)


def usable_groups() -> str | None:
    """Why CPU cgroups can't be made here (None: they can)."""
    if os.geteuid() != 0:
        return "not root"
    try:
        find_hierarchy()
    except CgroupError as exc:
        return str(exc)
    return None


@pytest.mark.skipif(usable_groups() is not None, reason=f"no CPU cgroups: {usable_groups()}")
def test_a_cpu_group_holds_a_process_to_its_share_and_is_removed_after() -> None:
    groups = CpuGroups.create(0.25, 4000)
    busy = "import time\nt = time.time()\nwhile time.time() - t < 1.5: pass\n"
    child = subprocess.Popen([sys.executable, "-c", busy + "print(time.process_time())"],
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        group = groups.hold("busy", child.pid)
        out, _ = child.communicate(timeout=30)
        assert 0 < float(out) / 1.5 < 0.35  # at most about a quarter of a core, not one
        assert groups.throttled(group)[1] > 0
    finally:
        groups.remove()
    assert not groups.parent.exists()


@pytest.mark.skipif(usable_groups() is not None, reason=f"no CPU cgroups: {usable_groups()}")
def test_a_burst_is_given_to_each_group_and_never_more_than_its_quota() -> None:
    for wrong in (-1, 1001):
        with pytest.raises(CgroupError, match="burst"):
            CpuGroups.create(0.25, 4000, burst_us=wrong)
    groups = CpuGroups.create(0.25, 4000, burst_us=1000)
    try:
        group = groups.hold("idle", os.getpid())
        name = "cpu.max.burst" if groups.hierarchy.version == 2 else "cpu.cfs_burst_us"
        assert (group / name).read_text().split() == ["1000"]
    finally:
        groups.remove()  # this process back in the root group
    assert not groups.parent.exists()


@pytest.mark.skipif(usable_groups() is not None, reason=f"no CPU cgroups: {usable_groups()}")
def test_groups_a_killed_bench_left_are_removed_by_the_next_one() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a bench killed outright: its groups stay, its process is gone
    running = subprocess.Popen([sys.executable, "-c", "input()"], stdin=subprocess.PIPE)
    root = find_hierarchy().root
    stale = root / f"reel-scale-{gone.pid}"
    other = root / f"reel-scale-{running.pid}"  # a bench still running
    (stale / "postgresql-1-0").mkdir(parents=True)
    other.mkdir()
    try:
        groups = CpuGroups.create(0.25, 4000)
        groups.remove()
        assert not stale.exists()
        assert other.exists()  # a live bench's groups are left alone
    finally:
        running.kill()
        running.wait()
        for group in (stale / "postgresql-1-0", stale, other):
            if group.exists():
                group.rmdir()


@pytest.mark.postgres
@pytest.mark.skipif(usable_groups() is not None, reason=f"no CPU cgroups: {usable_groups()}")
def test_the_bench_interrupted_leaves_no_group_nor_process_behind() -> None:
    bench = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "scale.py"), "--cpu-quota", "0.25",
         "--processes", "1", "--users", "20", "--busy", "4", "--seconds", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    parent = find_hierarchy().root / f"reel-scale-{bench.pid}"
    try:
        deadline = time.monotonic() + 120
        while not any(parent.glob("postgresql-1-*")):  # its worker held: a timed run
            assert bench.poll() is None and time.monotonic() < deadline, bench.stderr
            time.sleep(0.1)
        workers = descendants(bench.pid)
        bench.send_signal(signal.SIGINT)
        try:
            code = bench.wait(timeout=150)  # its clean-up stops PostgreSQL too
        except subprocess.TimeoutExpired:
            bench.kill()
            _, said = bench.communicate()
            raise AssertionError(f"the bench ran on after Ctrl-C; it said: {said}") from None
        assert code == 130, bench.communicate()[1]
    finally:
        if bench.poll() is None:
            bench.kill()
    assert not parent.exists()
    assert not [pid for pid in workers if alive(pid)]
