"""``reel board --deal N [--variant CODE] [--moves LINE] [--image FILE]``: a deal's board
(of any game of the family) shown once,
as the text board or drawn as a PNG picture (``bot.pictures``). Nothing is saved."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine import VARIANTS, DealNumberError, Game, LineError, play_line, render, variant_by_code

from .options import deal_number


def add_board_command(sub: Any) -> None:
    """``reel board``: a deal's board, as text or drawn (docs/pictures.md)."""
    board = sub.add_parser(
        "board",
        help="show a deal's board, as text or as a picture (PNG)",
        description="Show the board of deal N, after the moves of LINE if given: as text, "
        "or drawn as a PNG picture with --image FILE. Nothing is saved.",
    )
    board.add_argument("--deal", type=deal_number, metavar="N", required=True, help="deal N")
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


def run_board(args: argparse.Namespace) -> int:
    """Run ``reel board``; the exit code."""
    return show_board(
        args.deal, args.moves, args.image, symbols=not args.ascii, variant=args.variant
    )


def show_board(
    deal: int, moves: str, image: str | None, *, symbols: bool = True, variant: str = "vr"
) -> int:
    """Print deal ``deal``'s board (of the game ``variant``) after ``moves`` (a line, ``;``
    between moves), or write it to ``image`` as a PNG; 0, or 2 with a one-line reason on
    stderr."""
    try:
        game = Game.new(deal, variant_by_code(variant))
        play_line(game, moves.strip())
    except (DealNumberError, LineError) as exc:
        print(f"reel board: {exc}", file=sys.stderr)
        return 2
    if image is None:
        print(render(game, symbols))
        return 0
    from ..pictures import PLAIN, board_png, board_title, board_words

    png = board_png(game, board_title(deal, game.move_count, game.variant), PLAIN)
    try:
        Path(image).write_bytes(png)
    except OSError as exc:
        print(f"reel board: can't write {image}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"Wrote the {board_words(deal, game.move_count, game.variant)} to {image}.")
    return 0
