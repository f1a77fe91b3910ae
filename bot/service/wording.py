"""The sentences the service puts in a command's message: what was played, what a
new game's Aces did, why an undo or redo of too many moves is refused; and the line a
player shares after their scored daily (``share_text``)."""

from __future__ import annotations

from datetime import date

from engine import ACE_PILE, VIRGINIA_REEL, Game

from .entry import GameInMemory


def too_many(what: str, available: int, count: int) -> str:
    """The refusal of an undo or redo of ``count`` moves where ``available`` can be."""
    if count < 1:
        return f"Give a number of moves of 1 or more to {what}, not {count}."
    moves = f"{available} move{'' if available == 1 else 's'}"
    return f"You can {what} {moves} at most, not {count}: nothing was changed."


def aces_note(entry: GameInMemory) -> str:
    """A new game's Aces played at the deal by the setting, for its message."""
    aces = len(entry.chained)
    return f" · {aces} Ace{'s' if aces > 1 else ''} to the Ace pile" if aces else ""


def played(labels: list[str]) -> str:
    """A command's moves for the message: the move, and the Aces played after it."""
    message = labels[0]
    if len(labels) > 1:
        aces = len(labels) - 1
        message += f" · then {aces} Ace{'s' if aces > 1 else ''} to the Ace pile"
    return message


def with_aces(aces: int, commands: int) -> str:
    """The automatic Aces an undo or redo of ``commands`` moves took with them, for its
    message, so that its words agree with the move number on the board (a deal and the
    Ace played after it are one move for undo, two on the board); "" for none."""
    if aces == 0:
        return ""
    which = "the Ace" if aces == 1 else f"the {aces} Aces"
    return f" and {which} played automatically after {'it' if commands == 1 else 'them'}"


def sentence(reason: str) -> str:
    """The engine's reason (``only Aces go to the Ace pile``) as a sentence for the player."""
    if not reason:
        return reason
    text = reason[0].upper() + reason[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def no_safe_move(game: Game) -> str:
    """Why ``auto`` has nothing to play (``Game.safe_moves`` is empty), naming the Aces
    that could go to the Ace pile but are left to the player, and why each is."""
    aces = [m for m in game.legal_moves() if m.dst == ACE_PILE and m.src is not None]
    if not aces:
        return "There is no safe move to make: no Ace can go to the Ace pile just now."
    reasons = []
    for move in aces[:3]:
        assert move.src is not None
        pile = move.src.name
        if move.src.area == "row":
            why = (
                f"the Ace on {pile} is not played by itself: moving it opens a space in row "
                f"{pile[0]}, which only that row's base can fill and which stops the deal "
                "until it is filled"
            )
        else:  # a lone reserve Ace where the stock refills an emptied pile
            why = (
                f"the Ace alone on {pile} is not played by itself: emptying {pile} draws the "
                "next stock card onto it, so when is your choice"
            )
        reasons.append(f"{why} (play it yourself: {move})")
    return "There is no safe move to make: " + "; ".join(reasons) + "."


def share_text(
    day: date,
    *,
    won: bool,
    score: int,
    moves: int,
    card_total: int = 104,
    assisted: bool = False,
    game_name: str = VIRGINIA_REEL.name,
    rating: str | None = None,
) -> str:
    """The spoiler-free one line a player can post after their scored daily.

    It says so when a hint was used, as the leaderboard does.

    >>> share_text(date(2026, 11, 29), won=True, score=104, moves=112)
    'Virginia Reel daily 2026-11-29: won in 112 moves'
    >>> share_text(date(2026, 11, 29), won=False, score=87, moves=95, assisted=True)
    'Virginia Reel daily 2026-11-29: 87/104 cards home in 95 moves, with a hint'
    >>> share_text(date(2026, 11, 29), won=True, score=104, moves=112, rating="Hard")
    'Virginia Reel daily 2026-11-29 (Hard): won in 112 moves'
    """
    head = f"{game_name} daily {day.isoformat()}" + ("" if rating is None else f" ({rating})")
    tail = f"in {moves} {'move' if moves == 1 else 'moves'}" + (", with a hint" if assisted else "")
    if won:
        return f"{head}: won {tail}"
    return f"{head}: {score}/{card_total} cards home {tail}"
