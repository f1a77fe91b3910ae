"""A clean stop: the interactions in flight, and the gate that refuses new ones.

Every interaction the bot handles (a slash command, an autocomplete, a click)
passes the gate first, in its ``interaction_check`` (``replies.stopping``): the
task doing its work is counted *in flight* until it ends, whatever it does (a
move, or a refusal sent back). When the bot stops (``app._serve`` on SIGTERM
or Ctrl-C) the gate closes: interactions arriving from then on are refused
politely, and the stop waits (``drain``) for those in flight to finish and be
written before it disconnects and closes the database.

Counting the task rather than the interaction works because discord.py runs an
interaction's check and its callback in one task (``CommandTree._call``, and
``ViewStore.schedule_dynamic_item_call`` for the buttons and menus, which are
all dynamic items); what the callback starts and awaits is inside that task.
"""

from __future__ import annotations

import asyncio
from typing import Final

RESTARTING: Final = (
    "The bot is restarting, so that wasn't done. Your game is saved: try again in a minute."
)
"""The private answer to an interaction that arrives while the bot stops."""
REFUSAL_WAIT: Final = 1.0
"""Seconds a stop waits for the refusals being sent once the work in flight is done."""


class Gate:
    """Open while the bot serves; ``close`` it to refuse new interactions, ``drain`` to
    wait for those in flight."""

    def __init__(self) -> None:
        self._open = True
        self._tasks: set[asyncio.Task[object]] = set()
        self._refused: set[asyncio.Task[object]] = set()  # those let in to be refused

    @property
    def closed(self) -> bool:
        return not self._open

    def enter(self) -> bool:
        """Count the current task as an interaction's work, until it ends; whether the
        interaction may be done (False once the gate is closed: refuse it)."""
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            if not self._open:
                self._refused.add(task)
                task.add_done_callback(self._refused.discard)
        return self._open

    def close(self) -> None:
        """Refuse every interaction from now on."""
        self._open = False

    def __len__(self) -> int:
        """The interactions in flight."""
        return len(self._tasks)

    async def drain(self, timeout: float) -> int:
        """Wait until the work let in before the gate closed is done, at most ``timeout``
        seconds, then for the refusals then being sent, at most ``REFUSAL_WAIT`` more
        (within ``timeout``); the number still running at the end. Refusals that come in
        later are not waited for: under a steady stream of players there is always one,
        and a stop would last its whole ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        me = asyncio.current_task()
        work = {t for t in self._tasks if t not in self._refused and t is not me}
        if work:
            await asyncio.wait(work, timeout=max(deadline - loop.time(), 0.0))
        busy = {t for t in work if not t.done()}
        refusing = {t for t in self._refused if not t.done() and t is not me}
        if refusing:
            left = min(REFUSAL_WAIT, deadline - loop.time())
            await asyncio.wait(refusing, timeout=max(left, 0.0))
        return len(busy) + sum(not t.done() for t in refusing)
