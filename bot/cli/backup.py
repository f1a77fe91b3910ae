"""``reel backup FILE``: a copy of the SQLite database, made with SQLite's online backup
while the bot runs (``bot.store.sqlite.backup_file``): one of the two commands that
import the store (``reel db copy`` the other)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..config import Config
from .options import DB_HELP, db_path


def add_backup_command(sub: Any) -> None:
    """``reel backup FILE [--db PATH]``."""
    backup = sub.add_parser(
        "backup",
        help="copy the database to a file, safely, even while the bot runs",
        description="Copy the game database to FILE with SQLite's online backup: a "
        "consistent copy, taken without stopping the bot. Restore by stopping the bot and "
        "moving the copy into the database's place (docs/operations.md).",
    )
    backup.add_argument(
        "file",
        metavar="FILE",
        help="where to write the copy (replaced; a folder: a file in it named as the database)",
    )
    backup.add_argument("--db", metavar="PATH", help=DB_HELP)


def run_backup(args: argparse.Namespace, config: Config) -> int:
    """Run ``reel backup``; the exit code."""
    return backup(db_path(args, config), args.file)


def backup(database: str, target: str) -> int:
    """``reel backup FILE``: one line saying where the copy went, or why it failed. A
    folder (one that is there, or a name ending in ``/``) means a file in it."""
    from ..store import StoreError
    from ..store.sqlite import backup_file

    where = Path(target)
    try:
        if target.endswith(("/", os.sep)) and not where.is_dir():
            raise StoreError(f"can't write the copy in {target}: no such folder")
        written = backup_file(Path(database), where)
    except StoreError as exc:
        print(f"reel backup: {exc}", file=sys.stderr)
        return 1
    print(f"Copied {database} to {written}.")
    return 0
