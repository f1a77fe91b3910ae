"""Files made immutable (``chattr +i``) for the length of a ``with`` block, as an operator
or a fault driver makes a database read-only even for root; always made mutable again
after, so no test leaves a file nobody can delete. For the tests of an immutable WAL
index (tests/bot/test_store_immutable.py, tests/discord_bot/test_process_e2e.py)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def immutable(*paths: Path) -> Iterator[None]:
    """``chattr +i`` on ``paths`` for the block, ``chattr -i`` after whatever happened. The
    test is skipped where chattr can't set the flag: no chattr, a file system without it,
    or no CAP_LINUX_IMMUTABLE (not root, or root in a container that drops it)."""
    missing = [str(path) for path in paths if not os.path.lexists(path)]
    assert not missing, f"no such file to make immutable: {missing}"
    if shutil.which("chattr") is None:
        pytest.skip("no chattr on this machine: immutable files can't be made")
    made = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, text=True)
    if made.returncode:
        mutable(*paths, check=False)  # any it did set before failing
        why = (made.stderr.strip().splitlines() or ["no reason given"])[0]
        pytest.skip(
            f"chattr +i fails here ({why}): immutable files need a file "
            "system that has them (ext4, xfs, btrfs, a recent tmpfs; not NFS) and "
            "CAP_LINUX_IMMUTABLE (root, outside a container that drops it)"
        )
    try:
        yield
    finally:
        mutable(*paths)


def mutable(*paths: Path, check: bool = True) -> None:
    """``chattr -i`` on those of ``paths`` that exist."""
    there = [str(path) for path in paths if os.path.lexists(path)]
    if there:
        subprocess.run(["chattr", "-i", *there], check=check, capture_output=True)
