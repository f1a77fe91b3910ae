"""``reel play``: the terminal game (``bot.terminal``) on the SQLite save, and the flags
that change its saved settings."""

from __future__ import annotations

import argparse
from typing import Any, Final

from engine import VARIANTS

from ..config import Config
from .options import DB_HELP, db_path, deal_number, named_by, no_folder


def add_play_command(sub: Any) -> None:
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
        type=deal_number,
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


SAVED: Final = (  # (setting, (flag, help) turning it on, (flag, help) turning it off)
    (
        "symbols",
        ("--symbols", "suits as symbols ♠ ♥ ♦ ♣ (saved)"),
        ("--ascii", "suits as letters S H D C (saved)"),
    ),
    (
        "winnable",
        ("--winnable", "random new games are deals the solver has proven winnable (saved)"),
        ("--any-deal", "random new games may be any deal (saved)"),
    ),
    (
        "auto_aces",
        ("--auto-aces", "play reserve Aces to the Ace pile after each move (the default; saved)"),
        ("--no-auto-aces", "leave the Aces for you to play (saved)"),
    ),
    (
        "fair_hints",
        (
            "--fair-hints",
            "hints by a player who can't see the stock's order either (the default; saved)",
        ),
        ("--solver-hints", "hints by the solver, which knows the stock's order (saved)"),
    ),
)
"""``reel play``'s flags that change a saved setting, two opposite flags each."""


def _add_saved_settings(play: Any) -> None:
    """``reel play``'s flags that change a saved setting (``SAVED``), each pair exclusive."""
    for _, *flags in SAVED:
        pair = play.add_mutually_exclusive_group()
        for flag, text in flags:
            pair.add_argument(flag, action="store_true", help=text)


def saved_settings(args: argparse.Namespace) -> dict[str, bool | None]:
    """The saved settings the flags change: True, False, or None when neither was given."""
    return {setting: _choice(args, on, off) for setting, (on, _), (off, _) in SAVED}


def run_play(args: argparse.Namespace, config: Config) -> int:
    """Run ``reel play`` (also ``reel`` alone with no Discord token); the exit code."""
    path, named = db_path(args, config), named_by(args, config)
    if no_folder("play", path, named):
        return 1
    from ..terminal import play

    return play(
        path,
        getattr(args, "deal", None),
        **saved_settings(args),
        daily=getattr(args, "daily", False),
        log_level=config.log_level,
        variant=_game_to_play(args),
        assume_yes=getattr(args, "yes", False),
        versus=getattr(args, "versus", False),
        named_by=named,
        hint_deadline=config.hint_deadline,
    )


def _choice(args: argparse.Namespace, on: str, off: str) -> bool | None:
    """A pair of opposite flags (``--auto-aces``, ``--no-auto-aces``): True, False, or None
    when neither was given."""
    if getattr(args, on.removeprefix("--").replace("-", "_"), False):
        return True
    return False if getattr(args, off.removeprefix("--").replace("-", "_"), False) else None


def _game_to_play(args: argparse.Namespace) -> str | None:
    """``reel play``'s game: ``--variant``; else Virginia Reel for ``--deal N`` (a deal
    number names a Virginia Reel deal, as in ``reel solve`` and ``reel board``); else None
    (the saved game's)."""
    variant: str | None = getattr(args, "variant", None)
    if variant is None and getattr(args, "deal", None) is not None:
        return "vr"
    return variant
