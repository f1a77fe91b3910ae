"""What several ``reel`` commands share: the ``--db`` option and where its file may be,
a deal number read from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..config import DEFAULT_DB_PATH, Config

DB_HELP = (
    "SQLite file, in a folder that is there (default: REEL_DB, else reel.db in your data "
    "folder, made if needed)"
)


def deal_number(text: str) -> int:
    """``--deal N``: a whole number (the engine says whether there is such a deal)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deal number is a whole number, not {text!r}") from None


def named_by(args: argparse.Namespace, config: Config) -> str | None:
    """How the SQLite file was named: ``"--db"``, ``"REEL_DB"`` (in the environment or
    ``.env``), or None for the default one in the user's data folder."""
    if getattr(args, "db", None):
        return "--db"
    return None if config.db_path == DEFAULT_DB_PATH else "REEL_DB"


def db_path(args: argparse.Namespace, config: Config) -> str:
    """The SQLite file of a command with ``--db``: that option's, else the settings'."""
    return str(getattr(args, "db", None) or config.db_path)


def no_folder(command: str, path: str, named: str | None) -> bool:
    """Whether the SQLite file named by ``named`` is in a folder that is not there: if
    so, said on stderr. Only the default file's folder, the user's data folder, is made
    by itself; a folder named by the player may be a typing mistake."""
    folder = Path(path).parent
    if named is None or folder.exists():  # a file there: the store says why it fails
        return False
    print(
        f"reel {command}: there is no folder {folder} for the database {path} "
        f"({named}): make it first (mkdir -p {folder}) or choose another file.",
        file=sys.stderr,
    )
    return True
