"""``/reel replay``: a finished game stepped through move by move, the solver's line beside it.

The replay is a board with four buttons, First, Back, Forward and Last. Each is a
``ReplayButton``, a DynamicItem whose custom_id carries everything:
``reelr:<first|back|fwd|last>:<viewer>:<kind>:<game id>:<move shown>`` (at most
about 75 characters), so a replay keeps stepping after a restart. Only the one who
asked for the replay steps it (others are told to ask for their own: two people
stepping one message would fight over it).

It is posted publicly, as boards are, except a player's own daily whose day is not
over: that one is shown to them alone, so the channel never sees the day's moves
early (the service refuses it to everyone else). It opens at the deal (move 0), or
at ``move:``.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Final, Literal, get_args

import discord
from discord import app_commands

from ..service import ServiceError
from ..service.races.replays import RACE_KIND
from ..service.replays import ReplayView
from .embeds import (
    CARD_TOTAL,
    INFO_COLOUR,
    OPTION_TEXT_LIMIT,
    OPTIONS_LIMIT,
    OVER_COLOUR,
    WON_COLOUR,
    clip,
    discord_timestamp,
    game_name,
)
from .features import Bot, Feature, Subcommand
from .items import ReelItem
from .options import Day, FinishedGame
from .replies import (
    Interaction,
    send_error,
    send_private,
    send_public,
    service_of,
    within_deadline,
)

Step = Literal["first", "back", "fwd", "last"]
STEPS: Final[tuple[Step, ...]] = get_args(Step)
PREFIX: Final = "reelr"
TEMPLATE: Final = (
    rf"{PREFIX}:(?P<step>first|back|fwd|last):(?P<viewer>[0-9]{{1,20}})"
    r":(?P<kind>[a-z0-9]{1,8}):(?P<key>[0-9]{1,19}):(?P<move>[0-9]{1,5})"
)
MAX_MOVE: Final = 99_999
NOT_YOURS: Final = (
    "This replay is someone else's: ask for your own with /reel replay "
    "(the same game: its number is in the footer)."
)
ONE_CHOICE: Final = "Name a race, or a date or a game: not a race and one of the others."
# A race's number: races are numbered from 1 as they open (the store's row id), far below
# the largest integer option Discord takes, 2**53 - 1 (the OpenAPI spec's Int53Type).
MAX_RACE: Final = 2**53 - 1

_LABELS: Final[dict[Step, str]] = {
    "first": "⏮ First",
    "back": "◀ Back",
    "fwd": "Forward ▶",
    "last": "Last ⏭",
}

Button = discord.ui.Button[discord.ui.View]


def target(step: Step, move: int, total: int) -> int:
    """The move a step from ``move`` leads to, within 0..``total``."""
    wanted = {"first": 0, "back": move - 1, "fwd": move + 1, "last": total}[step]
    return min(max(wanted, 0), total)


class ReplayButton(ReelItem[Button], template=TEMPLATE):
    """A step under a replay: the viewer, the game and the move the replay shows."""

    not_yours = NOT_YOURS

    def __init__(
        self, step: Step, viewer: int, kind: str, key: int, move: int, *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=_LABELS[step],
                style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}:{step}:{viewer}:{kind}:{key}:{min(move, MAX_MOVE)}",
                disabled=disabled,
            )
        )
        self.step: Step = step
        self.viewer, self.kind, self.key, self.move = viewer, kind, key, move
        self.owner: int = viewer  # only the viewer steps it

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ReplayButton:
        step = match["step"]
        assert step in STEPS
        viewer, key, move = int(match["viewer"]), int(match["key"]), int(match["move"])
        return cls(step, viewer, match["kind"], key, move)

    async def click(self, interaction: Interaction) -> None:
        service = service_of(interaction)
        replays = service.replays

        async def step() -> ReplayView:
            here = await replays.position(self.viewer, self.kind, self.key, self.move)
            wanted = target(self.step, self.move, here.total)
            if wanted == here.move:
                return here
            return await replays.position(self.viewer, self.kind, self.key, wanted)

        await show_replay(interaction, await within_deadline(interaction, step()))


def replay_buttons(view: ReplayView) -> discord.ui.View:
    """First and Back disabled at the deal, Forward and Last at the end."""
    buttons = discord.ui.View(timeout=None)
    for step in STEPS:
        at_end = view.move >= view.total if step in ("fwd", "last") else view.move <= 0
        buttons.add_item(
            ReplayButton(step, view.viewer_id, view.kind, view.key, view.move, disabled=at_end)
        )
    return buttons


def solver_text(view: ReplayView) -> str:
    """ "You at move 40: 31 cards home; the solver: 44 (its winning line has 97 moves)."""
    who = "You" if view.viewer_id == view.player_id else f"<@{view.player_id}>"
    mine = f"{who} at move {view.move}: {view.score} cards home"
    track = view.solver
    if track is None:
        return f"{mine}. (The solver's line isn't available just now.)"
    if track.verdict == "unwinnable":
        return f"{mine}. The solver has proven this deal can't be won."
    score = track.at(view.move)
    if score is None:
        return f"{mine}. The solver found no winning line for this deal in its time."
    ended = " (its winning line, over)" if view.move > track.length else ""
    return f"{mine}; the solver: {score}{ended}. Its winning line has {track.length} moves."


OUTCOME_WORDS: Final = {
    "won": "won",
    "lost": "lost (stuck)",
    "abandoned": "abandoned",
    "resigned": "resigned",
}


def replay_embed(view: ReplayView) -> discord.Embed:
    """The replay at its move: whose game, the move that led here, the board, both tracks."""
    what = f"daily {view.daily_date.isoformat()}" if view.daily_date else f"deal {view.deal_number}"
    if view.kind == RACE_KIND:
        what = f"a race on deal {view.deal_number}"
    if view.variant != "vr":
        what = f"{game_name(view.variant)} {what}"
    outcome = OUTCOME_WORDS.get(view.outcome, view.outcome)
    head = f"<@{view.player_id}>'s game, {outcome} {discord_timestamp(view.finished_at)}"
    where = f"Move {view.move} of {view.total}"
    if view.last_move:
        where += f": {discord.utils.escape_markdown(view.last_move)}"
    elif view.move == 0:
        where += ": the deal"
    body = "\n".join((head, f"**{where}**", f"```\n{view.board}\n```", solver_text(view)))
    if view.private:
        body += "\n*Shown to you alone: the day's daily is not over yet.*"
    colour = WON_COLOUR if view.outcome == "won" and view.move == view.total else INFO_COLOUR
    embed = discord.Embed(
        title=f"Replay · {what}",
        description=clip(body, 4096),
        colour=colour if view.move else OVER_COLOUR,
    )
    total = view.card_total or CARD_TOTAL
    embed.set_footer(
        text=(
            f"{'Race game' if view.kind == RACE_KIND else 'Game'} #{view.key} · "
            f"deal {view.deal_number} · move {view.move}/{view.total} · "
            f"score {view.score}/{total}"
        )
    )
    return embed


async def show_replay(interaction: Interaction, view: ReplayView) -> None:
    """The replay: the clicked message redrawn, or a new message (public, or private for
    a player's own daily not yet over)."""
    embed, buttons = replay_embed(view), replay_buttons(view)
    if view.private and interaction.type is not discord.InteractionType.component:
        await send_private(interaction, embed, buttons)
        return
    await send_public(interaction, embed, buttons)


@app_commands.rename(day="date")
@app_commands.describe(
    player="Whose game (default: yours)",
    day="A scored daily of that date, YYYY-MM-DD (shown to others once the day is over)",
    game="Which finished game: pick one from the list (default: the last)",
    race="A race's number: your game in it (or the player's), once the race is over",
    move="The move to open at (default: the deal)",
)
async def replay(
    interaction: Interaction,
    player: discord.User | discord.Member | None = None,
    day: app_commands.Transform[date, Day] | None = None,
    game: app_commands.Transform[int, FinishedGame] | None = None,
    race: app_commands.Range[int, 1, MAX_RACE] | None = None,
    move: app_commands.Range[int, 0, MAX_MOVE] = 0,
) -> None:
    viewer = interaction.user.id
    if race is not None and (day is not None or game is not None):
        await send_error(interaction, ONE_CHOICE)
        return
    service = service_of(interaction)
    replays = service.replays
    whose = None if player is None else player.id

    async def opened() -> ReplayView:
        if race is not None:
            own = whose in (None, viewer)
            raced = await service.race_replays.key(race, whose or viewer, own=own)
            return await replays.position(viewer, RACE_KIND, raced, move)
        found = await replays.find(viewer, whose, day, game)
        return await replays.position(viewer, found.kind, found.key, move)

    await show_replay(interaction, await within_deadline(interaction, opened()))


async def game_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The finished games of ``player`` (or the typer's) that the typer may replay."""
    player = getattr(interaction.namespace, "player", None)
    whose = interaction.user.id if player is None else int(player.id)
    try:
        lines = await service_of(interaction).replays.choices(interaction.user.id, whose, current)
    except ServiceError:  # an autocomplete can't be refused: its list stays empty
        return []
    return [
        app_commands.Choice(name=clip(c.label, OPTION_TEXT_LIMIT), value=str(c.key))
        for c in lines[:OPTIONS_LIMIT]
    ]


def replay_command() -> app_commands.Command[Any, ..., None]:
    """A new ``replay`` command (one for each ``/reel`` group: a command has one parent)."""
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="replay",
        description="Step through a finished game, move by move, beside the solver's line",
        callback=replay,
    )
    command.autocomplete("game")(game_choices)
    return command


class Replays(Feature):
    """The replays extension's cog (``extensions/replays``): ``/reel replay`` and the
    replay's step buttons."""

    items = (ReplayButton,)

    def subcommands(self) -> list[Subcommand]:
        return [replay_command()]


async def setup(bot: Bot) -> None:
    await bot.add_cog(Replays(bot))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Replays.__cog_name__)
