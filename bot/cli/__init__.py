"""The ``reel`` command, one module a subcommand: ``reel play`` (the terminal game,
``play``), ``reel web`` (the board in a browser, ``web``), ``reel bot`` (the Discord bot;
with ``REEL_WEB_PORT``, the web board beside it: ``bot``), ``reel backup`` (a copy of the
database, ``backup``), ``reel db copy`` (a database moved between SQLite and PostgreSQL,
``db``), ``reel board`` (a deal's board, ``board``); ``reel solve`` and ``reel study``
are the solver's own (``engine.solver.cli``). ``options`` holds what they share.

With no subcommand, ``reel`` runs the bot when a Discord token is configured
and the terminal game otherwise. ``python -m bot.cli`` is ``reel`` (``__main__``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from engine.solver.cli import add_solve_commands, run_solve_command

from ..config import Config, ConfigError
from .backup import add_backup_command, run_backup
from .board import add_board_command, run_board
from .bot import add_bot_command, run_bot_command
from .db import add_db_commands, run_db_command
from .play import add_play_command, run_play
from .web import add_web_command, run_web_command


def _version() -> str:
    try:
        return version("virginia-reel")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reel",
        description="Virginia Reel patience: play in the terminal or run the Discord bot. "
        "With no command: the bot if DISCORD_TOKEN is set, else the terminal game.",
    )
    parser.add_argument("--version", action="version", version=f"reel {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_play_command(sub)
    add_web_command(sub)
    add_bot_command(sub)
    add_backup_command(sub)
    add_db_commands(sub)
    add_board_command(sub)
    add_solve_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in ("solve", "study"):
        return run_solve_command(args)
    if args.command == "db":
        return run_db_command(args)
    if args.command == "board":
        return run_board(args)
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"reel: {exc}", file=sys.stderr)
        return 2
    command = args.command or ("bot" if config.discord_token else "play")
    if command == "backup":
        return run_backup(args, config)
    if command == "web":
        return run_web_command(args, config)
    if command == "play":
        return run_play(args, config)
    return run_bot_command(args, config)
