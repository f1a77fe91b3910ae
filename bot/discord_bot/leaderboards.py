"""Leaderboard messages: a page of results, with Previous/Next buttons that survive restarts.

Each paging button is a ``PageButton``, a discord.py ``DynamicItem`` whose
custom_id carries the whole query of the page it leads to:
``reel:lb:<prev|next>:<kind>:<server|global>:<guild id or 0>:<YYYYMMDD or 0>:<page>``,
the kind ``daily``, ``all-time``, ``weekly`` or ``seasonal`` (at most 68
characters; Discord allows 100). The date is the one the board was drawn for (a
week's Monday, a month's first day), so paging yesterday's board after midnight
still pages yesterday's, and last week's stays last week's.
Anyone may page a leaderboard: it is public, and paging changes nothing but
the message. Every message goes out with no allowed mentions, so the names in
the table (mentions) never ping anyone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Final, Literal, get_args

import discord

from engine import VARIANTS

from ..service import LeaderboardKind, LeaderboardPage, LeaderboardScope
from ..service.periods import period_name
from .embeds import (
    ASSISTED_MARK,
    DESCRIPTION_LIMIT,
    FOOTER_LIMIT,
    INFO_COLOUR,
    TITLE_LIMIT,
    clip,
    leaderboard_embed,
    leaderboard_footer,
    leaderboard_table,
)
from .features import Bot, Feature
from .items import ReelItem
from .replies import (
    Interaction,
    page_size_of,
    send_public,
    service_of,
    within_deadline,
)

Kind = LeaderboardKind
Scope = LeaderboardScope
Direction = Literal["prev", "next"]
KINDS: Final[tuple[Kind, ...]] = get_args(Kind)
SCOPES: Final[tuple[Scope, ...]] = get_args(Scope)
DIRECTIONS: Final[tuple[Direction, ...]] = get_args(Direction)

PAGE_ID_TEMPLATE: Final = (
    r"reel:lb:(?P<direction>prev|next):(?P<kind>daily|all-time|weekly|seasonal):(?P<scope>server|global)"
    r":(?P<guild>[0-9]{1,20}):(?P<day>[0-9]{8}|0):(?P<page>[0-9]{1,9})(?::(?P<game>[a-z]{2}))?"
)
MAX_PAGE: Final = 999_999_999

UNEXPECTED: Final = (
    "Something went wrong on my side and I couldn't turn the page. Please try again."
)


@dataclass(frozen=True, slots=True)
class PageQuery:
    """Everything needed to fetch one leaderboard page again."""

    kind: Kind
    scope: Scope
    guild_id: int | None
    day: date | None
    page: int
    variant: str = "vr"  # the game of the family whose board it is


def make_page_custom_id(direction: Direction, query: PageQuery) -> str:
    """The custom_id of a paging button leading to ``query``."""
    when = query.day
    day = f"{when.year:04}{when.month:02}{when.day:02}" if when is not None else "0"
    guild = query.guild_id or 0
    page = min(max(query.page, 0), MAX_PAGE)
    game = "" if query.variant == "vr" else f":{query.variant}"
    return f"reel:lb:{direction}:{query.kind}:{query.scope}:{guild}:{day}:{page}{game}"


Button = discord.ui.Button[discord.ui.View]

_LABELS: Final[dict[Direction, str]] = {"prev": "◀ Previous", "next": "Next ▶"}


class PageButton(ReelItem[Button], template=PAGE_ID_TEMPLATE):
    """Previous or Next under a leaderboard: the page it leads to, in its custom_id
    (anyone may page: no owner)."""

    unexpected = UNEXPECTED

    def __init__(self, direction: Direction, query: PageQuery, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=_LABELS[direction],
                style=discord.ButtonStyle.secondary,
                custom_id=make_page_custom_id(direction, query),
                disabled=disabled,
            )
        )
        self.direction: Direction = direction
        self.query = query

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PageButton:
        """ValueError for a date that is not one (20250231)."""
        direction, kind, scope = match["direction"], match["kind"], match["scope"]
        assert direction in DIRECTIONS and kind in KINDS and scope in SCOPES
        guild = int(match["guild"]) or None
        raw = match["day"]
        day = None if raw == "0" else date(int(raw[:4]), int(raw[4:6]), int(raw[6:]))
        game = match["game"] or "vr"
        return cls(direction, PageQuery(kind, scope, guild, day, int(match["page"]), game))

    async def click(self, interaction: Interaction) -> None:
        await send_leaderboard(interaction, self.query)


def query_of(page: LeaderboardPage, page_number: int) -> PageQuery:
    """The query for another page of the same leaderboard as ``page``."""
    return PageQuery(page.kind, page.scope, page.guild_id, page.day, page_number, page.variant)


def leaderboard_view(page: LeaderboardPage) -> discord.ui.View:
    """Previous and Next, each disabled at its end (both on a board of one page)."""
    last = max(page.page_count - 1, 0)
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        PageButton("prev", query_of(page, max(page.page - 1, 0)), disabled=page.page <= 0)
    )
    buttons.add_item(
        PageButton("next", query_of(page, min(page.page + 1, last)), disabled=page.page >= last)
    )
    return buttons


async def fetch_page(interaction: Interaction, query: PageQuery) -> LeaderboardPage:
    """The page ``query`` names (the service gives the last page for one past the end)."""
    service = service_of(interaction)
    work = service.leaderboard(
        query.kind,
        query.scope,
        query.guild_id,
        day=query.day,
        page=query.page,
        page_size=page_size_of(interaction),
        variant=query.variant,
    )
    return await within_deadline(interaction, work)


async def send_leaderboard(interaction: Interaction, query: PageQuery) -> None:
    """Show the page publicly: ``/reel leaderboard``'s answer, or the same message for a
    paging button (clicked by anyone); its refusal (a server board in a DM...) is answered
    where every refusal is (``commands.on_tree_error``, ``replies.run_click``)."""
    page = await fetch_page(interaction, query)
    embed = period_embed(page) if page.last_day is not None else leaderboard_embed(page)
    await send_public(interaction, embed, leaderboard_view(page))


PERIOD_HEADER: Final = f"{'won':>4}{'of':>4}{'cards':>7}{'moves':>7}"
PERIOD_NOTE: Final = (
    "Each player's scored dailies of the period: ranked by dailies won, then cards home "
    "and fewer moves over them all (replays and practice don't count)."
)


def period_title(page: LeaderboardPage) -> str:
    """``Weekly leaderboard · Week 48 of 2026 (2026-11-23 to 2026-11-29) · this server``."""
    assert page.day is not None and (page.kind == "weekly" or page.kind == "seasonal")
    where = "this server" if page.scope == "server" else "global"
    game = "" if page.variant == "vr" else f"{VARIANTS[page.variant].name} · "
    return (
        f"{game}{page.kind.capitalize()} leaderboard · {period_name(page.kind, page.day)} · {where}"
    )


def period_cells(
    wins: int | None, dailies: int | None, cards: int | None, moves: int | None, assisted: bool
) -> str:
    """A player's period in the columns of ``PERIOD_HEADER``, ``*`` when a hint was used."""
    mark = ASSISTED_MARK if assisted else " "
    return f"{wins or 0:>4}{dailies or 0:>4}{cards or 0:>7}{moves or 0:>7}{mark}"


def period_embed(page: LeaderboardPage) -> discord.Embed:
    """A page of a weekly or seasonal board: a table like the daily's, of sums."""
    if page.rows:
        note = PERIOD_NOTE
        if any(row.assisted for row in page.rows):
            note += f" {ASSISTED_MARK} used a hint."
        rows = [
            (
                row.rank,
                row.user_id,
                period_cells(row.wins, row.games, row.score, row.moves, row.assisted),
            )
            for row in page.rows
        ]
        body = leaderboard_table(PERIOD_HEADER, rows, DESCRIPTION_LIMIT - len(note) - 2)
        description = f"{body}\n\n{note}"
    else:
        span = "week" if page.kind == "weekly" else "month"
        here = " here" if page.scope == "server" else ""
        description = f"No one has finished a daily{here} this {span} yet."
        if page.today:
            description += " Play today's with **/reel daily**."
    embed = discord.Embed(
        title=clip(period_title(page), TITLE_LIMIT),
        description=clip(description, DESCRIPTION_LIMIT),
        colour=INFO_COLOUR,
    )
    footer = leaderboard_footer(page.page, page.page_count, page.total)
    embed.set_footer(text=clip(footer, FOOTER_LIMIT))
    return embed


class Leaderboards(Feature):
    """The leaderboards extension's cog (``extensions/leaderboards``): the paging buttons
    (``/reel leaderboard`` is one of the group's own commands, ``commands.ReelCommands``)."""

    items = (PageButton,)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Leaderboards(bot))


async def teardown(bot: Bot) -> None:
    await bot.remove_cog(Leaderboards.__cog_name__)
