"""``reel db copy SRC DST``: move a bot's database between SQLite and PostgreSQL
(``bot.store.copy``; docs/storage.md, "Moving a bot to PostgreSQL")."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

WHERE_HELP = "a SQLite file's path or a postgresql://user:password@host:port/database URL"


def add_db_commands(sub: Any) -> None:
    """``reel db copy``."""
    db = sub.add_parser(
        "db",
        help="move the game database between SQLite and PostgreSQL",
        description="Tools for the game database.",
    )
    commands = db.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    copy = commands.add_parser(
        "copy",
        help="copy every game, result and setting from SRC into the empty database DST",
        description="Copy the database SRC into DST (each a SQLite file or a PostgreSQL "
        "URL): every table, ids kept, in one transaction; then row counts and a checksum of "
        "every row are compared on both sides. DST must be empty (a new SQLite file, or a "
        "new PostgreSQL database); both are brought to this release's schema first. Stop "
        "the bot before copying, start it on DST after.",
    )
    copy.add_argument("source", metavar="SRC", help=f"the database to copy: {WHERE_HELP}")
    copy.add_argument("target", metavar="DST", help=f"an empty database: {WHERE_HELP}")


def run_db_command(args: argparse.Namespace) -> int:
    """Run ``reel db ...``; the exit code (1 with the reason on stderr if refused)."""
    from ..store import StoreError
    from ..store.copy import copy_database
    from ..store.open import describe

    source, target = describe(args.source), describe(args.target)
    try:
        copied = asyncio.run(copy_database(args.source, args.target))
    except (StoreError, OSError) as exc:
        print(f"reel db copy: {exc}", file=sys.stderr)
        return 1
    print(f"Copied {source} to {target}:")
    for table, count in copied.rows.items():
        print(f"  {table:<20} {count:>9} rows")
    print(f"Verified: the same rows on both sides (SHA-256 {copied.checksum}).")
    return 0
