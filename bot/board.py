"""``reel board --deal N [--variant CODE] [--moves LINE] [--image FILE]``: a deal's board
(of any game of the family) shown once,
as the text board or drawn as a PNG picture (``bot.pictures``). Nothing is saved."""

from __future__ import annotations

import sys
from pathlib import Path

from engine import DealNumberError, Game, LineError, play_line, render, variant_by_code

from .pictures import PLAIN, board_png, board_title, board_words


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
    png = board_png(game, board_title(deal, game.move_count, game.variant), PLAIN)
    try:
        Path(image).write_bytes(png)
    except OSError as exc:
        print(f"reel board: can't write {image}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"Wrote the {board_words(deal, game.move_count, game.variant)} to {image}.")
    return 0
