"""The sentences the service puts in a command's message: what was played, what a
new game's Aces did, why an undo or redo of too many moves is refused."""

from __future__ import annotations

from .entry import Entry


def too_many(what: str, available: int, count: int) -> str:
    """The refusal of an undo or redo of ``count`` moves where ``available`` can be."""
    if count < 1:
        return f"Give a number of moves of 1 or more to {what}, not {count}."
    moves = f"{available} move{'' if available == 1 else 's'}"
    return f"You can {what} {moves} at most, not {count}: nothing was changed."


def aces_note(entry: Entry) -> str:
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


def sentence(reason: str) -> str:
    """The engine's reason (``only Aces go to the Ace pile``) as a sentence for the player."""
    if not reason:
        return reason
    text = reason[0].upper() + reason[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
