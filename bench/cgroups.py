"""CPU cgroups for ``bench/scale.py --cpu-quota F``: each service process held to F of a
core, so that N of them and PostgreSQL fit a small machine and the bench measures what
each process adds, as on N hosts of F of a core each (docs/scaling.md).

Linux only, and root only (the groups are made under ``/sys/fs/cgroup``). Two kinds:

- cgroup v2 (the unified hierarchy, with the ``cpu`` controller): a group
  ``reel-scale-PID`` at the root of the hierarchy, ``+cpu`` in its subtree, and one child
  per process with ``cpu.max`` = "QUOTA PERIOD";
- cgroup v1 (a hierarchy with the ``cpu`` controller, e.g. ``/sys/fs/cgroup/cpu``): the
  same groups, with ``cpu.cfs_period_us`` and ``cpu.cfs_quota_us``.

v2 is used where its hierarchy has the ``cpu`` controller, else v1. ``remove`` takes the
processes still in the groups back to the bench's own group and removes the groups; the
bench calls it on its way out, Ctrl-C (and SIGTERM) included.

On a machine others use too, a group held to F of a core may still get less than F when
every core is busy (the scheduler shares the cores between everyone's runnable work). With
``weight`` above 1, each group, and PostgreSQL's (``hold_tree``: not held, only weighed),
weighs that many times an ordinary process (v1 ``cpu.shares``, v2 ``cpu.weight``), so it
gets its F first: the figures are then those of N processes of F of a core each, not of
what the others left. The quotas still cap it: N x F cores at most, plus PostgreSQL's.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

MIN_QUOTA_US: Final = 1000  # the kernel refuses a quota under 1 ms


class CgroupError(Exception):
    """The groups can't be made here: the words say why, and what to do."""


@dataclass
class Hierarchy:
    version: int  # 2 or 1
    root: Path  # where the cpu controller's hierarchy is mounted


def mounts(text: str | None = None) -> list[tuple[str, str, set[str]]]:
    """(type, mount point, options) of each cgroup mount (``/proc/self/mounts``)."""
    if text is None:
        text = Path("/proc/self/mounts").read_text()
    found = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2] in ("cgroup", "cgroup2"):
            found.append((parts[2], parts[1], set(parts[3].split(","))))
    return found


def find_hierarchy(text: str | None = None) -> Hierarchy:
    """Where the ``cpu`` controller is: the v2 hierarchy if it has it, else a v1 one.
    ``CgroupError`` if neither has it."""
    tried = []
    for kind, point, _options in mounts(text):
        if kind == "cgroup2":
            controllers = (Path(point) / "cgroup.controllers").read_text().split()
            if "cpu" in controllers:
                return Hierarchy(2, Path(point))
            tried.append(f"cgroup v2 at {point} (controllers: {' '.join(controllers) or 'none'})")
    for kind, point, options in mounts(text):
        if kind == "cgroup" and "cpu" in options:
            return Hierarchy(1, Path(point))
    raise CgroupError(
        "no cgroup hierarchy with the cpu controller is mounted here"
        + (f" ({'; '.join(tried)})" if tried else "")
        + ": --cpu-quota needs one (a VM or container may not give it)"
    )


@dataclass
class CpuGroups:
    """One group per service process, each held to ``share`` of a core (``period_us``)."""

    share: float
    period_us: int
    hierarchy: Hierarchy
    weight: float = 1.0
    burst_us: int = 0
    """Quota a group may save while idle and spend at once on top of its period's (cgroup
    v2 ``cpu.max.burst``, v1 ``cpu.cfs_burst_us``); the average stays the share."""
    parent: Path = field(init=False)
    made: list[Path] = field(default_factory=list)

    @classmethod
    def create(
        cls, share: float, period_us: int, weight: float = 1.0, burst_us: int = 0
    ) -> CpuGroups:
        """The parent group, ready for children. ``CgroupError`` with the reason (not root,
        no cpu controller, a quota under the kernel's 1 ms) if it can't be made."""
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            raise CgroupError(
                "--cpu-quota needs root: it makes CPU cgroups under /sys/fs/cgroup "
                "(run the bench with sudo, or without --cpu-quota)"
            )
        if not 0 < share <= 1:
            raise CgroupError(f"--cpu-quota is a share of one core, above 0 and at most 1: {share}")
        if share * period_us < MIN_QUOTA_US:
            raise CgroupError(
                f"a quota of {share:g} of a {period_us / 1000:g} ms period is under the "
                f"kernel's {MIN_QUOTA_US / 1000:g} ms: give a longer --cpu-period-ms"
            )
        if not 0 <= burst_us <= share * period_us:
            raise CgroupError(
                f"a burst of {burst_us / 1000:g} ms: the kernel takes 0 up to the quota,"
                f" {share * period_us / 1000:g} ms"
            )
        groups = cls(share, period_us, find_hierarchy(), weight, burst_us)
        groups.sweep()
        groups.parent = groups.hierarchy.root / f"reel-scale-{os.getpid()}"
        try:
            if groups.hierarchy.version == 2:
                _write(groups.hierarchy.root / "cgroup.subtree_control", "+cpu")
            groups.parent.mkdir()
            groups.made.append(groups.parent)
            if groups.hierarchy.version == 2:
                _write(groups.parent / "cgroup.subtree_control", "+cpu")
        except OSError as exc:
            groups.remove()
            raise CgroupError(f"cannot make the CPU cgroup {groups.parent}: {exc}") from exc
        return groups

    @property
    def quota_us(self) -> int:
        return round(self.share * self.period_us)

    def hold(self, name: str, pid: int) -> Path:
        """Put process ``pid`` in a new group ``name`` held to the share; the group."""
        group = self._group(name)
        if self.hierarchy.version == 2:
            _write(group / "cpu.max", f"{self.quota_us} {self.period_us}")
            if self.burst_us:
                _write(group / "cpu.max.burst", str(self.burst_us))
        else:
            _write(group / "cpu.cfs_period_us", str(self.period_us))
            _write(group / "cpu.cfs_quota_us", str(self.quota_us))
            if self.burst_us:
                _write(group / "cpu.cfs_burst_us", str(self.burst_us))
        _write(group / "cgroup.procs", str(pid))
        return group

    def hold_tree(self, name: str, pids: list[int]) -> Path:
        """Put processes ``pids`` (a server and its children; those it starts later follow
        it there) in a new group ``name``, weighed but not held; the group."""
        group = self._group(name)
        for pid in pids:
            with contextlib.suppress(OSError):  # one that ended meanwhile
                _write(group / "cgroup.procs", str(pid))
        return group

    def _group(self, name: str) -> Path:
        group = self.parent / name
        group.mkdir()
        self.made.append(group)
        if self.weight != 1.0:
            if self.hierarchy.version == 2:
                _write(group / "cpu.weight", str(round(100 * self.weight)))
            else:
                _write(group / "cpu.shares", str(round(1024 * self.weight)))
        return group

    def throttled(self, group: Path) -> tuple[int, int]:
        """(periods, periods throttled) of ``group`` so far (its ``cpu.stat``)."""
        stat = {}
        with contextlib.suppress(OSError):
            for line in (group / "cpu.stat").read_text().splitlines():
                key, _, value = line.partition(" ")
                stat[key] = int(value)
        return stat.get("nr_periods", 0), stat.get("nr_throttled", 0)

    def sweep(self) -> None:
        """Remove the groups an earlier bench left behind when it was killed outright
        (``reel-scale-PID`` whose process is gone), as ``remove`` would have."""
        for stale in sorted(self.hierarchy.root.glob("reel-scale-*")):
            pid = stale.name.removeprefix("reel-scale-")
            if not pid.isdigit() or Path(f"/proc/{pid}").exists():
                continue
            left = CpuGroups(self.share, self.period_us, self.hierarchy)
            left.made = [stale, *sorted(p for p in stale.iterdir() if p.is_dir())]
            left.remove()

    def remove(self) -> None:
        """Take any process left in the groups back to the root group, and remove them
        (children first). What can't be removed is said on stderr, never raised."""
        for group in reversed(self.made):
            for _ in range(50):
                with contextlib.suppress(OSError):
                    for pid in (group / "cgroup.procs").read_text().split():
                        _write(self.hierarchy.root / "cgroup.procs", pid)
                try:
                    group.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)  # a process on its way out
            else:
                print(f"bench: could not remove the cgroup {group}", file=sys.stderr)
        self.made.clear()


def _write(path: Path, text: str) -> None:
    with path.open("w") as file:
        file.write(text)
