"""Metering the interactions: each one's command, outcome, and the time to its first answer
and to its end, told to the bot's metrics (``bot/ops/metrics.py``; docs/operations.md).

Every interaction passes ``replies.stopping`` first, in its check; ``begin`` notes its
arrival there and meters it when its task ends (discord.py runs the check and the callback
in one task: ``gate.py``). Its first answer is noted where it is sent (``answered``: a
reply, a deferral, a redraw of the clicked message); one that ends without a note but was
answered (an autocomplete's choices, sent by discord.py as the callback returns) counts
its end as its first answer. Its outcome is the first word said of it (``said``: the
cooldown's "slowed", a refusal's "refused"...), else "error" if it failed, else "ok".
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any, Final

import discord

from ..ops import Metrics, Shard

STARTED: Final = "reel_started"
ANSWERED: Final = "reel_answered"
OUTCOME: Final = "reel_outcome"
PART: Final = re.compile(r"[a-z_]{1,20}")
KIND: Final = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.component: "component",
    discord.InteractionType.autocomplete: "autocomplete",
}

Interaction = discord.Interaction[discord.Client]


class Meter:
    """The bot's interactions, told to its ``metrics``."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def done(self, interaction: Interaction, task: asyncio.Task[Any]) -> None:
        extras = interaction.extras
        started = extras[STARTED]
        whole = time.perf_counter() - started
        failed = not task.cancelled() and task.exception() is not None
        outcome = extras.get(OUTCOME) or ("error" if failed else "ok")
        first = extras.get(ANSWERED)
        if first is not None:
            first -= started
        elif interaction.response.is_done():
            first = whole  # answered as the work ended, at the latest
        kind = KIND.get(interaction.type, "other")
        self.metrics.interaction(command_of(interaction), kind, outcome, first, whole)


def begin(interaction: Interaction) -> None:
    """Note the interaction's arrival, and meter it when its task ends (once)."""
    if STARTED in interaction.extras:
        return
    interaction.extras[STARTED] = time.perf_counter()
    meter = getattr(interaction.client, "meter", None)
    task = asyncio.current_task()
    if isinstance(meter, Meter) and task is not None:
        task.add_done_callback(lambda ended: meter.done(interaction, ended))


def answered(interaction: Interaction) -> None:
    """The interaction's first answer was just sent (a later one changes nothing)."""
    interaction.extras.setdefault(ANSWERED, time.perf_counter())


def said(interaction: Interaction, outcome: str) -> None:
    """What came of the interaction ("refused", "slowed", "stopping", "error"); the first
    word said of it stays."""
    interaction.extras.setdefault(OUTCOME, outcome)


def command_of(interaction: Interaction) -> str:
    """The command an interaction is (``reel move``), the button or menu (``button
    reel:deal``: the first two parts of its custom_id), or the autocomplete
    (``autocomplete reel move``); a few dozen names in all."""
    data: Any = interaction.data or {}
    if interaction.type is discord.InteractionType.component:
        parts = str(data.get("custom_id", "")).split(":")[:2]
        return "button " + ":".join(p if PART.fullmatch(p) else "?" for p in parts)
    names = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group)
        names.append(str(options[0].get("name", "?")))
        options = options[0].get("options") or []
    name = " ".join(names)
    if interaction.type is discord.InteractionType.autocomplete:
        return f"autocomplete {name}"
    return name


def shards_of(client: discord.Client) -> list[Shard]:
    """This process's shards as the gateway says (an ``AutoShardedClient``'s each; a plain
    client's one)."""
    if isinstance(client, discord.AutoShardedClient):
        return [
            Shard(i, _latency(info.latency), not info.is_closed() and client.is_ready())
            for i, info in sorted(client.shards.items())
        ]
    up = client.is_ready() and not client.is_closed()
    return [Shard(0, _latency(client.latency), up)]


def _latency(seconds: float) -> float | None:
    return None if seconds != seconds or seconds == float("inf") else seconds  # NaN: unknown
