"""Commands: the ``/reel`` slash command group, each handler a few lines that call the service.

Board answers are public, so others in the channel can watch; refusals and
errors (a ``ServiceError``'s message), settings, rules and help are private
(ephemeral). A handler receives its options read (``options.py``) and lets the
service's refusal go up: ``on_tree_error``, the tree's error handler, answers every
one in one place (``replies.refuse``). ``/reel move`` autocompletes its ``from``
option with the legal moves in words (the value is the move itself, like
``R3 A5``, so picking one and sending plays it) and its ``to`` option with the
places the chosen card can go. ``/reel hint`` answers privately, after deferring at once (the
solver may think for a few seconds); in a scored daily not yet assisted it
first warns, with the board's "Show the hint anyway" button. ``/reel daily`` is a board like any
other; ``/reel leaderboard`` posts a public page with paging buttons
(``leaderboards``); ``/reel stats`` answers privately.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Coroutine
from datetime import date
from typing import Any, Final

import discord
from discord import app_commands

from engine import MAX_DEAL, MIN_DEAL, Status

from ..service import (
    GameService,
    GameView,
    MoveChoice,
    NoGameError,
    ServiceError,
    Settings,
    StaleVersionError,
    StorageError,
)
from .confirm import SureButton, What, ask, large_undo
from .embeds import (
    OPTION_TEXT_LIMIT,
    OPTIONS_LIMIT,
    clip,
    help_embed,
    rules_embed,
    settings_embed,
    stats_embed,
)
from .features import Bot, Feature, bot_service
from .items import UNEXPECTED
from .leaderboards import KINDS, Kind, PageQuery, Scope, send_leaderboard
from .metering import answered, said
from .options import Day, DealNumber, Game, OptionError
from .practice import practise
from .races import race_choices, routed
from .replies import (
    Interaction,
    refusal,
    refuse,
    send_error,
    send_private,
    service_of,
    within_deadline,
)
from .views import hint_or_warning, send_board, show_current

log = logging.getLogger(__name__)

NO_GAME_CHOICE: Final = "You have no game in progress: start one with /reel new"
GAME_OVER_CHOICE: Final = "Your game is over: start a new one with /reel new"
STUCK_CHOICE: Final = "No legal move is left: /reel undo to go back, or /reel new"
LOADING_CHOICE: Final = "Your board is loading (the database is slow): type again in a moment"
NOTHING_VALUE: Final = "?"  # the value of those lines: sent, it names no move
AUTOCOMPLETE_WAIT: Final = 2.0
"""Seconds an autocomplete may take (Discord drops one after 3, and it can't be deferred)."""
DESTINATION_MOVES: Final = 100
"""The most moves of the card in ``from`` the ``to`` list is chosen from (it shows at most
``OPTIONS_LIMIT``)."""

KIND_CHOICES: Final = [
    app_commands.Choice(name="Daily challenge", value="daily"),
    app_commands.Choice(name="Weekly (ISO week, Monday to Sunday, UTC)", value="weekly"),
    app_commands.Choice(name="Seasonal (calendar month, UTC)", value="seasonal"),
    app_commands.Choice(name="All-time", value="all-time"),
]
SCOPE_CHOICES: Final = [
    app_commands.Choice(name="This server", value="server"),
    app_commands.Choice(name="Global", value="global"),
]

SUIT_CHOICES: Final = [
    app_commands.Choice(name="Symbols ♠ ♥ ♦ ♣", value="symbols"),
    app_commands.Choice(name="Letters S H D C", value="letters"),
]
BOARD_CHOICES: Final = [
    app_commands.Choice(name="Text", value="text"),
    app_commands.Choice(name="Picture", value="picture"),
]
HINT_CHOICES: Final = [
    app_commands.Choice(name="Fair: it can't see the stock either", value="fair"),
    app_commands.Choice(name="The solver's: it knows the stock's order", value="solver"),
]


PRACTICE_REEL_ONLY: Final = (
    "Practice of a past daily is of Virginia Reel's daily only. Leave out the game, or the date."
)


def leaderboard_query(
    kind: str | None,
    scope: str | None,
    day: date | None,
    guild_id: int | None,
    variant: str = "vr",
) -> PageQuery:
    """The first page ``/reel leaderboard`` asks for. The service checks what the options
    ask for (a server board in a DM, a date with the all-time board).

    Kind defaults to daily; scope to this server in a server, global in a DM.
    The daily's date defaults to today (the service's clock decides).
    """
    chosen_kind: Kind = next((k for k in KINDS if k == kind), "daily")
    chosen_scope: Scope
    if scope is None:
        chosen_scope = "server" if guild_id is not None else "global"
    else:
        chosen_scope = "server" if scope == "server" else "global"
    guild = guild_id if chosen_scope == "server" else None
    return PageQuery(chosen_kind, chosen_scope, guild, day, 0, variant)


def choice_name(choice: MoveChoice) -> str:
    """A move as an autocomplete line: its words, and its space warning if it has one."""
    named = choice.label if choice.note is None else f"{choice.label} (⚠ {choice.note})"
    return clip(named, OPTION_TEXT_LIMIT)


def move_choices(choices: list[MoveChoice]) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``from``: each legal move, named in words, valued by its notation."""
    return [
        app_commands.Choice(name=choice_name(c), value=c.text[:OPTION_TEXT_LIMIT])
        for c in choices[:OPTIONS_LIMIT]
    ]


def move_text(from_: str, to: str | None) -> str:
    """The move that the ``from`` and ``to`` options name together.

    Either may hold a whole move picked from a list (``R5 B1``): a whole ``to``
    is the move; with a whole ``from``, ``to`` (if given) is its destination.
    """
    if not to or not to.strip():
        return from_
    if len(to.split()) >= 2:
        return to
    words = from_.split()
    return f"{words[0]} {to}" if len(words) >= 2 else f"{from_} {to}"


def destination_choices(
    choices: list[MoveChoice], source: str, typed: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``to``: where the card named in ``from`` can go, filtered by what is typed.

    ``source`` is what ``from`` holds: a pile (``R3``), or a whole move picked
    from the list (``R3 A5``). Moves from that pile come first, each offered by
    its destination. If none start with it (``from`` named a card, say), every
    move the service matched is offered whole (``R5 B1``), since the card may
    lie on two piles and the destination alone would not say which.
    """
    head = source.split()[0].upper() if source.split() else ""
    moves = [c for c in choices if len(c.text.split()) == 2]
    same = [c for c in moves if c.text.split()[0].upper() == head]
    typed_key = typed.strip().lower()
    result: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for c in same or moves:
        dst = c.text.split()[1]
        value = dst if same else c.text
        if value in seen:
            continue
        if typed_key and not (dst.lower().startswith(typed_key) or typed_key in c.label.lower()):
            continue
        seen.add(value)
        result.append(app_commands.Choice(name=choice_name(c), value=value))
        if len(result) == OPTIONS_LIMIT:
            break
    return result


async def in_time(
    work: Coroutine[Any, Any, list[app_commands.Choice[str]]],
) -> list[app_commands.Choice[str]]:
    """An autocomplete's lines within ``AUTOCOMPLETE_WAIT`` seconds (Discord can't be
    asked to wait for one): if the game has to be read from a slow database, one line
    says so, and the read goes on (shielded), so the next keystroke finds it in memory.
    The database failing is said in one line too; another refusal (no game) leaves the
    list empty."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(_consume)
    try:
        return await asyncio.wait_for(asyncio.shield(task), AUTOCOMPLETE_WAIT)
    except TimeoutError:
        return [app_commands.Choice(name=LOADING_CHOICE, value=NOTHING_VALUE)]
    except StorageError as exc:  # busy, full: say so, rather than an empty list
        return [
            app_commands.Choice(name=clip(refusal(exc), OPTION_TEXT_LIMIT), value=NOTHING_VALUE)
        ]
    except ServiceError:  # (an autocomplete can't be refused: its list stays empty)
        return []


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve the error of an autocomplete read that finished after its answer."""
    if not task.cancelled():
        task.exception()


# Where /reel may be installed and used, said explicitly (Discord's `integration_types`
# and `contexts`; issue 61): installed to a server (0) or to a player's own account (1),
# used in a server's channels (0), in the bot's own DM (1) and in other DMs and group DMs
# (2). Where the bot is not a member (a user install in a server it is not in, a group
# DM) it answers only through the interaction (docs/operations.md, "Two ways to add the game").
INSTALLS: Final = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS: Final = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


class ReelCommands(app_commands.Group):
    """``/reel ...``: every command of the game."""

    def to_dict(self, tree: app_commands.CommandTree[Any]) -> dict[str, Any]:
        """The command as Discord takes it, without `dm_permission`: Discord's documentation
        deprecates it ("use contexts instead"), and discord.py 2.7 sends it beside
        `contexts` whatever those say."""
        payload = super().to_dict(tree)
        payload.pop("dm_permission", None)
        return payload

    def __init__(self, service: GameService) -> None:
        super().__init__(
            name="reel",
            description="Play Virginia Reel, a two-pack patience",
            allowed_installs=INSTALLS,
            allowed_contexts=CONTEXTS,
        )
        # (the features' own subcommands are added by their cogs: features.Feature)
        self.service = service

    async def _asked(
        self, interaction: Interaction, what: What, arg: int = 0, variant: str | None = None
    ) -> bool:
        """Whether ``what`` throws work away and was asked about privately instead (its
        button does it: ``confirm.SureButton``)."""
        user, service = interaction.user.id, self.service
        try:
            if what == "undo" or what == "restart":
                current: GameView | None = await within_deadline(interaction, service.show(user))
                if current is not None and what == "restart":
                    arg = current.undoable  # every command taken back
                current = current if current is not None and large_undo(current, arg) else None
            else:
                current = await within_deadline(interaction, service.would_end(user, what, variant))
        except ServiceError:  # not refused here: the call itself says why it can't be done
            return False
        if current is None:
            return False
        await ask(interaction, what, current, arg, variant)
        return True

    async def _board(self, interaction: Interaction, work: Coroutine[Any, Any, GameView]) -> None:
        """Run a service call; post the board it returns (its refusal is answered by
        ``on_tree_error``)."""
        await send_board(interaction, await within_deadline(interaction, work))

    @app_commands.command(
        name="new", description="Start a new game: a random deal or the one you name"
    )
    @app_commands.describe(
        deal=f"Deal number, {MIN_DEAL} to {MAX_DEAL}; empty for a random deal",
        variant="The game of the family (default: the game you are playing, else Virginia Reel)",
    )
    async def new(
        self,
        interaction: Interaction,
        deal: app_commands.Transform[int, DealNumber] | None = None,
        variant: app_commands.Transform[str, Game] | None = None,
    ) -> None:
        if await self._asked(interaction, "new", deal or 0, variant):
            return
        user, guild = interaction.user.id, interaction.guild_id
        await self._board(interaction, self.service.new_game(user, guild, deal, variant=variant))

    @app_commands.command(
        name="daily",
        description="Today's daily challenge, the same deal for everyone; or practise a past one",
    )
    @app_commands.rename(day="date")
    @app_commands.describe(
        day="A past date, YYYY-MM-DD, to practise its daily (not scored)",
        variant="The game whose daily to play (default: Virginia Reel); each has its own",
    )
    async def daily(
        self,
        interaction: Interaction,
        day: app_commands.Transform[date, Day] | None = None,
        variant: app_commands.Transform[str, Game] | None = None,
    ) -> None:
        code = variant or "vr"
        if day is not None and code != "vr":
            await send_error(interaction, PRACTICE_REEL_ONLY)
            return
        if day is not None:  # practice of a past daily (practice.py)
            await practise(interaction, day)
            return
        if await self._asked(interaction, "daily", variant=code):
            return
        user, guild = interaction.user.id, interaction.guild_id
        await self._board(interaction, self.service.daily(user, guild, code))

    @app_commands.command(name="show", description="Show your game's board again, here")
    async def show(self, interaction: Interaction) -> None:
        if await routed(interaction, "show"):  # racing: the race game (races.py)
            return
        await self._board(interaction, self.service.show(interaction.user.id))

    @app_commands.command(
        name="move", description="Move a card: pick a move from the list, or give from and to"
    )
    @app_commands.rename(from_="from")
    @app_commands.describe(
        from_="A move from the list, or the pile or card to move (R3, A5, 5h)",
        to="Where it goes (A5, ACE); leave empty when 'from' is a whole move",
    )
    async def move(
        self,
        interaction: Interaction,
        from_: app_commands.Range[str, 1, 100],
        to: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        if from_.strip() == NOTHING_VALUE and not to:  # a line of the list that is no move
            why = await within_deadline(interaction, self._why_no_move(interaction.user.id))
            await send_error(interaction, f"{why or 'Pick a move from the list'}.")
            return
        if await routed(interaction, "move", move_text(from_, to)):
            return
        await self._board(interaction, self.service.move(interaction.user.id, move_text(from_, to)))

    @move.autocomplete("from_")
    async def move_from_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        async def lines() -> list[app_commands.Choice[str]]:
            if (racing := await race_choices(interaction, current)) is not None:
                return racing
            choices = await self.service.move_choices(interaction.user.id, current, OPTIONS_LIMIT)
            if not choices and not current.strip():
                return await self._nothing_to_move(interaction.user.id)
            return move_choices(choices)

        return await in_time(lines())

    async def _nothing_to_move(self, user_id: int) -> list[app_commands.Choice[str]]:
        """With no game, one that is over, or one stuck, the list says so instead of
        staying empty (sent anyway, the line gets the same answer privately)."""
        why = await self._why_no_move(user_id)
        return [] if why is None else [app_commands.Choice(name=why, value=NOTHING_VALUE)]

    async def _why_no_move(self, user_id: int) -> str | None:
        try:
            view = await self.service.show(user_id)
        except NoGameError:
            return NO_GAME_CHOICE
        if view.finished:
            return GAME_OVER_CHOICE
        if view.status is Status.STUCK:
            return STUCK_CHOICE
        return None

    @move.autocomplete("to")
    async def move_to_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        source = str(interaction.namespace["from"]) if "from" in interaction.namespace else ""
        if not source.strip():
            return []

        async def lines() -> list[app_commands.Choice[str]]:
            first = source.split()[0]
            choices = await self.service.move_choices(interaction.user.id, first, DESTINATION_MOVES)
            return destination_choices(choices, source, current)

        return await in_time(lines())

    @app_commands.command(name="deal", description="Deal one card onto each reserve pile")
    async def deal(self, interaction: Interaction) -> None:
        if await routed(interaction, "deal"):
            return
        await self._board(interaction, self.service.deal(interaction.user.id))

    @app_commands.command(name="undo", description="Take back your last move (or the last few)")
    @app_commands.describe(moves="How many moves to take back (default 1)")
    async def undo(
        self, interaction: Interaction, moves: app_commands.Range[int, 1, 200] = 1
    ) -> None:
        if await routed(interaction, "undo" if moves == 1 else "undo-many"):
            return
        if await self._asked(interaction, "undo", moves):
            return
        await self._board(interaction, self.service.undo(interaction.user.id, count=moves))

    @app_commands.command(name="redo", description="Play again a move you took back")
    @app_commands.describe(moves="How many moves to play again (default 1)")
    async def redo(
        self, interaction: Interaction, moves: app_commands.Range[int, 1, 200] = 1
    ) -> None:
        if await routed(interaction, "redo"):
            return
        await self._board(interaction, self.service.redo(interaction.user.id, count=moves))

    @app_commands.command(
        name="restart", description="Start this deal over from the beginning (the same game)"
    )
    async def restart(self, interaction: Interaction) -> None:
        if await routed(interaction, "restart") or await self._asked(interaction, "restart"):
            return
        await self._board(interaction, self.service.restart(interaction.user.id))

    @app_commands.command(
        name="auto", description="Play the safe moves: reserve Aces to the Ace pile"
    )
    async def auto(self, interaction: Interaction) -> None:
        if await routed(interaction, "auto"):
            return
        await self._board(interaction, self.service.auto(interaction.user.id))

    @app_commands.command(
        name="hint", description="Suggest your next move (a daily with a hint is marked assisted)"
    )
    async def hint(self, interaction: Interaction) -> None:
        if await routed(interaction, "hint"):  # hints are off in races
            return
        # Privately, at once: the solver may think up to the hint's deadline (seconds).
        await interaction.response.defer(ephemeral=True, thinking=True)
        answered(interaction)
        user = interaction.user.id
        try:
            current = await self.service.show(user)
        except ServiceError:  # not refused here: the hint call says why there is none
            current = None
        await hint_or_warning(interaction, current, user)

    @app_commands.command(name="resign", description="Give up this game (it counts as lost)")
    async def resign(self, interaction: Interaction) -> None:
        if await routed(interaction, "resign"):
            return
        if await self._asked(interaction, "resign"):
            return
        await self._board(interaction, self.service.resign(interaction.user.id))

    @app_commands.command(
        name="leaderboard", description="Who did best: the daily, the week, the month or all-time"
    )
    @app_commands.rename(day="date")
    @app_commands.describe(
        kind="The daily challenge (default), this week's, this month's, or all-time",
        scope="This server (default in a server) or everyone",
        day="YYYY-MM-DD: that day's daily, or the week or month holding it (default: today, UTC)",
        variant="The game whose board to show (default: Virginia Reel); each has its own",
    )
    @app_commands.choices(kind=KIND_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        kind: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
        day: app_commands.Transform[date, Day] | None = None,
        variant: app_commands.Transform[str, Game] | None = None,
    ) -> None:
        query = leaderboard_query(
            kind.value if kind else None,
            scope.value if scope else None,
            day,
            interaction.guild_id,
            variant or "vr",
        )
        await send_leaderboard(interaction, query)

    @app_commands.command(name="stats", description="Games, wins, daily streak and best score")
    @app_commands.describe(
        user="Whose stats (default: yours)",
        variant="The game (default: the game of the current game, else Virginia Reel)",
    )
    async def stats(
        self,
        interaction: Interaction,
        user: discord.User | discord.Member | None = None,
        variant: app_commands.Transform[str, Game] | None = None,
    ) -> None:
        # Private: stats are a look-up for the one who asks. Posting them would put a
        # player's record in front of the channel without their say (someone else's
        # included); the share line of the daily is how a player shows off, by choice.
        target = user or interaction.user
        stats = await within_deadline(interaction, self.service.stats(target.id, variant))
        await send_private(interaction, stats_embed(stats))

    @app_commands.command(
        name="settings",
        description="Suits; automatic Aces; winnable deals; who may watch; reminder; board; hints",
    )
    @app_commands.describe(
        suits="Show suits as symbols (♠ ♥ ♦ ♣) or letters (S H D C)",
        auto_aces="Play reserve Aces to the Ace pile automatically after each move",
        winnable_deals="Random new games are deals the solver has proven winnable",
        watchable="Others may watch your games live with /reel watch",
        streak_reminder="A reminder before the day ends (UTC) when your daily streak would break",
        board="Your board as monospace text (the default) or drawn as a picture",
        hints="Fair hints that can't see the stock's order (the default), or the solver's",
    )
    @app_commands.choices(suits=SUIT_CHOICES, board=BOARD_CHOICES, hints=HINT_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        suits: app_commands.Choice[str] | None = None,
        auto_aces: bool | None = None,
        winnable_deals: bool | None = None,
        watchable: bool | None = None,
        streak_reminder: bool | None = None,
        board: app_commands.Choice[str] | None = None,
        hints: app_commands.Choice[str] | None = None,
    ) -> None:
        user = interaction.user.id
        symbols = None if suits is None else suits.value == "symbols"
        picture = None if board is None else board.value == "picture"
        fair = None if hints is None else hints.value == "fair"
        chosen = (symbols, auto_aces, winnable_deals, watchable, streak_reminder, picture, fair)
        asked = any(choice is not None for choice in chosen)

        async def change() -> tuple[Settings, Settings]:
            before = await self.service.get_settings(user)
            if not asked:
                return before, before
            saved = await self.service.update_settings(
                user,
                symbols=symbols,
                auto_aces=auto_aces,
                winnable=winnable_deals,
                watchable=watchable,
                reminders=streak_reminder,
                picture=picture,
                fair_hints=fair,
            )
            return before, saved

        # (deferred if the database is slow, as every command is)
        before, saved = await within_deadline(interaction, change())
        await send_private(interaction, settings_embed(saved, saved != before))

    @app_commands.command(name="rules", description="A short summary of the rules of Virginia Reel")
    async def rules(self, interaction: Interaction) -> None:
        await send_private(interaction, rules_embed())

    @app_commands.command(name="help", description="The commands and how to make a move")
    async def help(self, interaction: Interaction) -> None:
        await send_private(interaction, help_embed(command_summaries(self)))


def command_summaries(group: app_commands.Group) -> list[tuple[str, str]]:
    """``("/reel move from [to]", description)`` for every command of the group."""
    summaries = []
    for command in group.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        params = " ".join(
            p.display_name if p.required else f"[{p.display_name}]" for p in command.parameters
        )
        usage = f"/{command.qualified_name} {params}".rstrip()
        summaries.append((usage, command.description))
    return summaries


async def on_tree_error(interaction: Interaction, error: app_commands.AppCommandError) -> None:
    """Every slash command's refusal and failure, answered privately in this one place.

    A ``ServiceError`` raised by a handler (discord.py wraps it in ``CommandInvokeError``)
    is the service's refusal: its sentence (``replies.refuse``), or, for a game that
    changed under the call (another process on the same database; nothing was played),
    the game as it now stands and why. An option that is no value (``options.py``) gets
    its sentence. Anything else failed: logged, and the player told."""
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    try:
        if isinstance(cause, ServiceError):
            try:
                await refuse(interaction, cause, functools.partial(_redraw_current, interaction))
                return
            except discord.HTTPException:
                raise
            except Exception:  # the stale game's redraw failed: the player is still told
                name = getattr(interaction.command, "qualified_name", "?")
                log.exception("the refusal of command %s could not be answered", name)
                said(interaction, "error")
                message = UNEXPECTED
        else:
            message = _failure(interaction, error)
        await send_error(interaction, message)
    except discord.HTTPException:
        log.warning("could not tell the player about the error", exc_info=True)


async def _redraw_current(interaction: Interaction, exc: StaleVersionError) -> None:
    user = interaction.user.id
    await show_current(interaction, service_of(interaction), user, refusal(exc))


def _failure(interaction: Interaction, error: app_commands.AppCommandError) -> str:
    """What the player is told of a command that failed for another reason than a
    refusal (logged, and metered as an error, when it is none of the known ones)."""
    if isinstance(error, OptionError):  # an option that is no value (options.py)
        message = str(error)
    elif isinstance(error, app_commands.TransformerError):
        message = f"I couldn't read {error.value!r} there. See /reel help."
    elif isinstance(error, app_commands.CheckFailure):
        message = "You can't use that command here."
    else:
        name = getattr(interaction.command, "qualified_name", "?")
        log.error("command %s failed", name, exc_info=error)
        said(interaction, "error")
        message = UNEXPECTED
    return message


class GameCommands(Feature):
    """The commands extension's cog (``extensions/commands``, loaded first): the ``/reel``
    group in the tree, which the other features' cogs add their subcommands to, and the
    questions' button (``confirm.SureButton``)."""

    items = (SureButton,)

    def __init__(self, bot: Bot, service: GameService) -> None:
        super().__init__(bot)
        self.group = ReelCommands(service)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)
        await super().cog_load()

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.tree.remove_command(self.group.name)


async def setup(bot: Bot) -> None:
    await bot.add_cog(GameCommands(bot, bot_service(bot)))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(GameCommands.__cog_name__)
