"""The processes of a test's subprocess, read from /proc (Linux): what is below it, and
whether a process is still alive. For the no-orphans tests (tests/bot/test_orphans.py,
tests/discord_bot/test_process_e2e.py)."""

from __future__ import annotations

from pathlib import Path


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (from /proc: each process's parent)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        children = {child for child, ppid in parents.items() if ppid == parent}
        found |= children
        todo.extend(children)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is gone but for its parent
