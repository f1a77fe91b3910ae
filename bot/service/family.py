"""The games of the family (``engine.VARIANTS``) as the service names them: a game's
code checked, and its name in messages. Virginia Reel (``"vr"``) is the default game
everywhere one is not named; each game has its own dailies, totals and leaderboards."""

from __future__ import annotations

from engine import VARIANTS

from .errors import BadInputError


def game_code(variant: str) -> str:
    """The code of a game of the family (``engine.VARIANTS``: vr, rp, tu, bj, bp), from
    its code in any case; ``BadInputError`` naming the games if there is none such."""
    code = variant.strip().lower()
    if code not in VARIANTS:
        games = ", ".join(f"{v.code} ({v.name})" for v in VARIANTS.values())
        raise BadInputError(f"There is no game {variant!r}: choose one of {games}.")
    return code


def of_game(variant: str) -> str:
    """The words " of Royal Parade" that name the game in a start line, Virginia Reel's
    too ("New game of Virginia Reel: deal 5"): its board's header names only the others."""
    return f" of {VARIANTS[variant].name}"
