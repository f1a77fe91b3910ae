"""The ``reel`` command: ``reel play`` (terminal game), ``reel web`` (the board in a
browser), ``reel bot`` (Discord bot; with ``REEL_WEB_PORT``, the web board beside it),
``reel backup`` (a copy of the database), ``reel solve`` and ``reel study`` (the solver).

With no subcommand, ``reel`` runs the bot when a Discord token is configured
and the terminal game otherwise.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from engine import VARIANTS
from engine.solver.cli import add_solve_commands, run_solve_command

from .config import Config, ConfigError
from .db_command import add_db_commands, run_db_command
from .web_command import add_web_command, run_web_command

if TYPE_CHECKING:
    from .discord_bot.app import Beside

DB_HELP = (
    "SQLite file, in a folder that is there (default: REEL_DB, else reel.db in your data "
    "folder, made if needed)"
)


def _deal_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deal number is a whole number, not {text!r}") from None


def _version() -> str:
    try:
        return version("virginia-reel")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _choice(args: argparse.Namespace, on: str, off: str) -> bool | None:
    """A pair of opposite flags: True, False, or None when neither was given."""
    if getattr(args, on, False):
        return True
    return False if getattr(args, off, False) else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reel",
        description="Virginia Reel patience: play in the terminal or run the Discord bot. "
        "With no command: the bot if DISCORD_TOKEN is set, else the terminal game.",
    )
    parser.add_argument("--version", action="version", version=f"reel {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_play(sub)
    add_web_command(sub, DB_HELP)
    _add_bot_and_backup(sub)
    add_db_commands(sub)
    _add_board(sub)
    add_solve_commands(sub)
    return parser


def _add_play(sub: Any) -> None:
    """``reel play``: the terminal game, and its saved settings."""
    play = sub.add_parser(
        "play",
        help="play in the terminal (resumes your saved game)",
        description="Play Virginia Reel in the terminal. Your game is saved after every "
        "move and resumes the next time; the options marked (saved) are kept as settings.",
    )
    which = play.add_mutually_exclusive_group()
    which.add_argument(
        "--deal",
        type=_deal_number,
        metavar="N",
        help="start deal number N of Virginia Reel (of the game --variant names, if given)",
    )
    which.add_argument(
        "--daily",
        action="store_true",
        help="play today's daily challenge (UTC date; the same deal for everyone) or resume it",
    )
    play.add_argument(
        "--variant",
        type=str.lower,
        choices=list(VARIANTS),
        metavar="CODE",
        help="the game: "
        + ", ".join(f"{v.code} {v.name}" for v in VARIANTS.values())
        + " (default: your saved game's, else vr; with --deal: vr)",
    )
    play.add_argument(
        "--versus",
        action="store_true",
        help="the computer plays the same deal beside you, blind as you are (a move every "
        "5 seconds of your clock): its score and moves under your board",
    )
    play.add_argument(
        "--yes",
        action="store_true",
        help="end a game in progress without asking (for scripts; it is recorded as abandoned)",
    )
    _add_saved_settings(play)
    play.add_argument("--db", metavar="PATH", help=DB_HELP)


def _add_saved_settings(play: Any) -> None:
    """``reel play``'s flags that change a saved setting, each with its opposite."""
    suits = play.add_mutually_exclusive_group()
    suits.add_argument("--ascii", action="store_true", help="suits as letters S H D C (saved)")
    suits.add_argument("--symbols", action="store_true", help="suits as symbols ♠ ♥ ♦ ♣ (saved)")
    deals = play.add_mutually_exclusive_group()
    deals.add_argument(
        "--winnable",
        action="store_true",
        help="random new games are deals the solver has proven winnable (saved)",
    )
    deals.add_argument(
        "--any-deal", action="store_true", help="random new games may be any deal (saved)"
    )
    aces = play.add_mutually_exclusive_group()
    aces.add_argument(
        "--auto-aces",
        action="store_true",
        help="play reserve Aces to the Ace pile after each move (the default; saved)",
    )
    aces.add_argument(
        "--no-auto-aces", action="store_true", help="leave the Aces for you to play (saved)"
    )
    hints = play.add_mutually_exclusive_group()
    hints.add_argument(
        "--fair-hints",
        action="store_true",
        help="hints by a player who can't see the stock's order either (the default; saved)",
    )
    hints.add_argument(
        "--solver-hints",
        action="store_true",
        help="hints by the solver, which knows the stock's order (saved)",
    )


def _add_board(sub: Any) -> None:
    """``reel board``: a deal's board, as text or drawn (docs/pictures.md)."""
    board = sub.add_parser(
        "board",
        help="show a deal's board, as text or as a picture (PNG)",
        description="Show the board of deal N, after the moves of LINE if given: as text, "
        "or drawn as a PNG picture with --image FILE. Nothing is saved.",
    )
    board.add_argument("--deal", type=_deal_number, metavar="N", required=True, help="deal N")
    board.add_argument(
        "--variant",
        type=str.lower,
        choices=list(VARIANTS),
        default="vr",
        metavar="CODE",
        help="the game: " + ", ".join(f"{v.code} {v.name}" for v in VARIANTS.values()),
    )
    board.add_argument(
        "--moves", metavar="LINE", default="", help="moves to play first, e.g. 'r5 c1;deal'"
    )
    board.add_argument("--image", metavar="FILE", help="write the board as a PNG picture")
    board.add_argument("--ascii", action="store_true", help="suits as letters (text board)")


def _add_bot_and_backup(sub: Any) -> None:
    """``reel bot`` and ``reel backup``."""
    bot = sub.add_parser(
        "bot",
        help="run the Discord bot (needs DISCORD_TOKEN)",
        description="Run the Discord bot: every player's game is kept in the database, "
        "so a restart loses nothing. Settings come from the environment or .env.",
    )
    bot.add_argument(
        "--sync-global",
        action="store_true",
        help="publish the slash commands to every server (takes up to an hour to show)",
    )
    bot.add_argument("--db", metavar="PATH", help=DB_HELP)
    backup = sub.add_parser(
        "backup",
        help="copy the database to a file, safely, even while the bot runs",
        description="Copy the game database to FILE with SQLite's online backup: a "
        "consistent copy, taken without stopping the bot. Restore by stopping the bot and "
        "moving the copy into the database's place (docs/operations.md).",
    )
    backup.add_argument("file", metavar="FILE", help="where to write the copy (replaced)")
    backup.add_argument("--db", metavar="PATH", help=DB_HELP)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in ("solve", "study"):
        return run_solve_command(args)
    if args.command == "db":
        return run_db_command(args)
    if args.command == "board":
        from .board import show_board

        return show_board(
            args.deal, args.moves, args.image, symbols=not args.ascii, variant=args.variant
        )
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"reel: {exc}", file=sys.stderr)
        return 2
    command = args.command or ("bot" if config.discord_token else "play")
    db_path = str(getattr(args, "db", None) or config.db_path)
    named_by = _named_by(args, config)
    sqlite = command in ("play", "web") or (command == "bot" and not _on_postgres(args, config))
    if sqlite and _no_folder(command, db_path, named_by):
        return 1
    if command == "backup":
        return _backup(db_path, args.file)
    if command == "web":
        return run_web_command(args, db_path, config.log_level)
    if command == "play":
        from .terminal import play

        return play(
            db_path,
            getattr(args, "deal", None),
            _choice(args, "symbols", "ascii"),
            winnable=_choice(args, "winnable", "any_deal"),
            auto_aces=_choice(args, "auto_aces", "no_auto_aces"),
            fair_hints=_choice(args, "fair_hints", "solver_hints"),
            daily=getattr(args, "daily", False),
            log_level=config.log_level,
            variant=_game_to_play(args),
            assume_yes=getattr(args, "yes", False),
            versus=getattr(args, "versus", False),
            named_by=named_by,
        )
    from pathlib import Path

    from .discord_bot.app import run_bot

    if getattr(args, "db", None):  # --db: that SQLite file, whatever the settings say
        config = config.with_db_file(Path(db_path), "--db")
    return run_bot(config, sync_global=getattr(args, "sync_global", False), beside=_web(config))


def _named_by(args: argparse.Namespace, config: Config) -> str | None:
    """How the SQLite file was named: ``"--db"``, ``"REEL_DB"`` (in the environment or
    ``.env``), or None for the default one in the user's data folder."""
    from .config import DEFAULT_DB_PATH

    if getattr(args, "db", None):
        return "--db"
    return None if config.db_path == DEFAULT_DB_PATH else "REEL_DB"


def _on_postgres(args: argparse.Namespace, config: Config) -> bool:
    """Whether ``reel bot`` runs on PostgreSQL (``REEL_DATABASE_URL``, unless ``--db``)."""
    return config.database_url is not None and not getattr(args, "db", None)


def _no_folder(command: str, db_path: str, named_by: str | None) -> bool:
    """Whether the SQLite file named by ``named_by`` is in a folder that is not there:
    if so, said on stderr. Only the default file's folder, the user's data folder, is
    made by itself; a folder named by the player may be a typing mistake."""
    from pathlib import Path

    folder = Path(db_path).parent
    if named_by is None or folder.exists():  # a file there: the store says why it fails
        return False
    print(
        f"reel {command}: there is no folder {folder} for the database {db_path} "
        f"({named_by}): make it first (mkdir -p {folder}) or choose another file.",
        file=sys.stderr,
    )
    return True


def _web(config: Config) -> Beside | None:
    """The web board to run beside the bot (``REEL_WEB_PORT``), or None."""
    if config.web_port is None:
        return None
    from .config import DEFAULT_DB_PATH
    from .web.local import ActivitySettings, beside_bot, kept_secret

    if config.session_secret is not None:
        secret = config.session_secret.encode()
    else:  # made once, kept beside the database (the data folder, for PostgreSQL)
        folder = DEFAULT_DB_PATH.parent if config.database_url else config.db_path.parent
        secret = kept_secret(folder)
    activity = ActivitySettings(
        client_id=config.discord_client_id,
        client_secret=config.discord_client_secret,
        bot_token=config.discord_token,
        api_base=config.discord_api,
        secret=secret,
        mock=config.activity_mock,
        public_url=config.web_public_url,
    )
    return beside_bot(config.web_host, config.web_port, config.web_local_user, activity)


def _game_to_play(args: argparse.Namespace) -> str | None:
    """``reel play``'s game: ``--variant``; else Virginia Reel for ``--deal N`` (a deal
    number names a Virginia Reel deal, as in ``reel solve`` and ``reel board``); else None
    (the saved game's)."""
    variant: str | None = getattr(args, "variant", None)
    if variant is None and getattr(args, "deal", None) is not None:
        return "vr"
    return variant


def _backup(db_path: str, target: str) -> int:
    """``reel backup FILE``: one line saying where the copy went, or why it failed. A
    folder (one that is there, or a name ending in ``/``) means a file in it."""
    import os
    from pathlib import Path

    from .store import StoreError
    from .store.sqlite import backup_file

    where = Path(target)
    try:
        if target.endswith(("/", os.sep)) and not where.is_dir():
            raise StoreError(f"can't write the copy in {target}: no such folder")
        written = backup_file(Path(db_path), where)
    except StoreError as exc:
        print(f"reel backup: {exc}", file=sys.stderr)
        return 1
    print(f"Copied {db_path} to {written}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
