"""Embeds: pure functions from the game service's answers to Discord embeds.

Nothing here talks to Discord or to the service; every function takes plain
values (a ``GameView``, a message, a list of commands) and returns a
``discord.Embed`` that keeps within Discord's limits: title 256 characters,
description 4096, field name 256 and value 1024, footer 2048, and 6000 for
all of a message's embeds together. The board goes in a code block, whose
lines the engine keeps within 30 columns so phones show it without wrapping.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Final, Literal

import discord

from engine import VARIANTS, VIRGINIA_REEL, Status

from ..service import (
    MIN_GAMES_FOR_RATE,
    GameView,
    HintView,
    LeaderboardPage,
    LeaderboardRow,
    PlayerStats,
    Settings,
    format_duration,
)

TITLE_LIMIT: Final = 256
DESCRIPTION_LIMIT: Final = 4096
FIELD_NAME_LIMIT: Final = 256
FIELD_VALUE_LIMIT: Final = 1024
FOOTER_LIMIT: Final = 2048
EMBED_TOTAL_LIMIT: Final = 6000
OPTIONS_LIMIT: Final = 25
"""Discord's most options in a select menu, and lines in an autocomplete's list."""
OPTION_TEXT_LIMIT: Final = 100
"""Discord's longest label, value or description of a menu's option, and name or value of
an autocomplete's line."""

CARD_TOTAL: Final = VIRGINIA_REEL.card_total

PLAYING_COLOUR: Final = discord.Colour.blurple()
WON_COLOUR: Final = discord.Colour.gold()
STUCK_COLOUR: Final = discord.Colour.red()
OVER_COLOUR: Final = discord.Colour.dark_grey()
ERROR_COLOUR: Final = discord.Colour.red()
INFO_COLOUR: Final = discord.Colour.blurple()

WARNING_FIELD_NAME: Final = "⚠ Space"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_colour(view: GameView) -> discord.Colour:
    """Won: gold; stuck: red; over without a win (resigned): grey; in play: blurple."""
    if view.status is Status.WON:
        return WON_COLOUR
    if view.status is Status.STUCK:
        return STUCK_COLOUR
    if view.finished:
        return OVER_COLOUR
    return PLAYING_COLOUR


NEW_GAME_WAY_OUT: Final = "start again with **/reel new**"
"""The way out of a stuck game in play, as a board says it (a race's board says its own)."""


def status_line(view: GameView, way_out: str = NEW_GAME_WAY_OUT) -> str | None:
    """What the state of the game means for the player, or None while it is in play.
    ``way_out``: what a stuck game in play may do besides Undo."""
    if view.status is Status.WON:
        total = VARIANTS[view.variant].card_total
        return f"🎉 **You won!** All {total} cards are home, in {view.move_count} moves."
    if view.status is Status.STUCK:
        if view.finished:
            return "**Game over:** stuck, no legal move left. Start again with **/reel new**."
        undo = "press **Undo** to go back, or " if view.can_undo else ""
        return f"**Stuck:** no legal move is left. You can {undo}{way_out}."
    if view.finished:
        return "**Game over.** Start a new one with **/reel new** or the **New game** button."
    return None


def board_footer(view: GameView) -> str:
    """``Deal N · moves M · score S/104``, and the daily's ghost line when it is on."""
    total = VARIANTS[view.variant].card_total
    footer = f"Deal {view.deal_number} · moves {view.move_count} · score {view.score}/{total}"
    return footer if view.ghost is None else f"{footer}\n{view.ghost}"


def board_embed(
    view: GameView, picture: str | None = None, *, way_out: str = NEW_GAME_WAY_OUT
) -> discord.Embed:
    """The board message: whose game, what just happened, the board, the state, the warning.

    ``picture``: the file name of the board drawn (``board_pictures``), sent with the
    message: the embed shows it, and the text board is left out. ``way_out``: what a
    stuck game in play may do besides Undo (``status_line``)."""
    board = f"```\n{view.board}\n```" if picture is None else ""
    tail = status_line(view, way_out)
    if view.started_at is not None:
        # the game clock (time played, pauses capped: docs/rules.md), and when it was dealt
        # as a time Discord keeps current ("5 minutes ago")
        dealt = discord_timestamp(view.started_at)
        clock = f"Time {format_duration(view.elapsed_s)} · dealt {dealt}"
        tail = f"{tail}\n{clock}" if tail else clock
    head = f"<@{view.user_id}>'s game"
    if view.message:
        head += f" · {discord.utils.escape_markdown(view.message)}"
    if view.daily_date is not None:
        notes = daily_notes(
            next_daily_at=view.next_daily_at,
            scored=view.scored,
            practice=view.practice,
            finished=view.finished,
            share_text=view.share_text,
            par=view.par,
            later_daily=view.later_daily,
            rating=view.rating,
        )
        tail = "\n".join([tail, *notes] if tail else notes) or None
        title = daily_title(view.daily_date) + (" · practice" if view.practice else "")
        if view.variant != "vr":
            title = f"{game_name(view.variant)} · {title}"
    else:
        title = f"{game_name(view.variant)} · deal {view.deal_number}"
    fixed = len(board) + (len(tail) + 1 if tail else 0) + 1
    parts = [clip(head, max(DESCRIPTION_LIMIT - fixed, 1))] + ([board] if board else [])
    if tail:
        parts.append(tail)
    embed = discord.Embed(
        title=clip(title, TITLE_LIMIT),
        description=clip("\n".join(parts), DESCRIPTION_LIMIT),
        colour=board_colour(view),
    )
    if view.warning:
        warning = clip(view.warning, FIELD_VALUE_LIMIT)
        embed.add_field(name=WARNING_FIELD_NAME, value=warning, inline=False)
    embed.set_footer(text=clip(board_footer(view), FOOTER_LIMIT))
    if picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    return embed


HINT_TITLES: Final = {
    "solver": "💡 Hint: a winning line",
    "heuristic": "💡 Hint: by rule of thumb",
    "lost": "💡 Hint: no win from here",
    "none": "💡 Hint",
    "blind": "💡 Hint (fair: it can't see the stock either)",
}


def play_it(move: str) -> str:
    """How to play a hint's ``move`` (its notation): the board's menu (or its Deal button)."""
    if move == "deal":
        return "Click Deal under your board, or type `/reel deal`"
    return f"Pick it in the menu under your board, or type `/reel move from:{move}`"


def hint_embed(answer: HintView) -> discord.Embed:
    """The answer to ``/reel hint`` (sent ephemeral): the hint in words, the assisted note."""
    game = answer.game
    embed = discord.Embed(
        title=HINT_TITLES[answer.source],
        description=clip(discord.utils.escape_markdown(answer.message), DESCRIPTION_LIMIT),
        colour=STUCK_COLOUR if answer.source == "lost" else INFO_COLOUR,
    )
    if answer.move is not None:
        embed.add_field(name="Play it", value=clip(play_it(answer.move), FIELD_VALUE_LIMIT))
    embed.set_footer(text=clip(board_footer(game), FOOTER_LIMIT))
    return embed


def error_embed(message: str) -> discord.Embed:
    """A refusal or an error, in the player's words (sent ephemeral)."""
    return discord.Embed(description=clip(message, DESCRIPTION_LIMIT), colour=ERROR_COLOUR)


def info_embed(message: str, title: str | None = None) -> discord.Embed:
    """A short notice (sent ephemeral)."""
    return discord.Embed(
        title=clip(title, TITLE_LIMIT) if title else None,
        description=clip(message, DESCRIPTION_LIMIT),
        colour=INFO_COLOUR,
    )


def settings_embed(settings: Settings, changed: bool) -> discord.Embed:
    """The player's settings, after a change or on request."""
    suits = "symbols (♠ ♥ ♦ ♣)" if settings.symbols else "letters (S H D C)"
    aces = "on" if settings.auto_aces else "off"
    winnable = "on" if settings.winnable else "off"
    hints = "fair" if settings.fair_hints else "the solver's"
    lines = [
        f"**Suits:** {suits}",
        f"**Automatic Aces:** {aces} (reserve Aces go to the Ace pile after each move)",
        f"**Winnable deals:** {winnable} (a random new game is a deal the solver has proven "
        "winnable)",
        f"**Watchable:** {'on' if settings.watchable else 'off'} (others may follow your "
        "games live with /reel watch)",
        f"**Streak reminder:** {'on' if settings.reminders else 'off'} (a reminder before the "
        "day ends, UTC, when your daily streak would break)",
        f"**Board:** {'picture' if settings.picture else 'text'} (your board drawn as a picture, "
        "or as text)",
        f"**Hints:** {hints} (fair: "
        "they can't see the stock's order, as you can't; the solver's know it)",
    ]
    if changed:
        lines.append("Your next board shows the change.")
    return info_embed("\n".join(lines), "Settings saved" if changed else "Your settings")


RULES_TEXT: Final = (
    "**Goal:** put all 104 cards (two packs) on foundations.\n"
    "**Rows:** row A builds 2-5-8-J, row B 3-6-9-Q, row C 4-7-T-K, each pile in one suit, "
    "four cards high. A pile is *based* when its bottom card is its row's base rank "
    "(a Two in row A, a Three in B, a Four in C); based cards never move again.\n"
    "**Misplaced cards** (a `*` after the card: `7♠*`) sit alone in a row pile that is not "
    "based. Nothing is built on them.\n"
    "**Available cards:** the top card of each reserve pile (R1-R8) and every misplaced card.\n"
    "**Moves:**\n"
    "• **Build** an available card on a based pile of its suit, three ranks higher.\n"
    "• **Fill** a space (`--`) with a Two, Three or Four of that row.\n"
    "• **Interchange** two misplaced bases of different rows when each becomes the other "
    "row's base (a Three in row A with a Two in row B, say).\n"
    "• **Ace:** any available Ace goes to the Ace pile.\n"
    "• **Deal** one card onto each reserve pile, only while no row has a space (9 deals).\n"
    "**Spaces:** moving a card out of a row leaves a space; you can't deal until it is filled, "
    "so the bot warns you (⚠) when no card can fill it.\n"
    "**Stuck** when no move is left: undo, or start a new deal.\n"
    "**The family** (`/reel new variant:`): **Royal Parade** deals no bases first, deals "
    "any time and refills an emptied reserve pile from the stock; **Three Up** is played "
    "with three packs, 12 piles a row; **Blue Jacket** lets an empty reserve pile take any "
    "available card; **Big Parade** is Royal Parade with three packs."
)


def rules_embed() -> discord.Embed:
    """A short summary of the rules of Virginia Reel."""
    return info_embed(RULES_TEXT, "Virginia Reel: the rules")


HELP_FOOTER: Final = (
    "Moves: pick one in the menu under your board, or `/reel move from:R3 to:A5` (it lists "
    "the moves as you type). Piles: A1-C8 rows, R1-R8 reserve, ACE. "
    "The buttons and the menu under a board work only for its player; "
    "anyone may page a leaderboard. The daily is the same deal for everyone each UTC day: "
    "your first game of it is the one that counts."
)


def help_embed(commands: Iterable[tuple[str, str]]) -> discord.Embed:
    """The command list: ``(name, description)`` pairs, one line each."""
    lines = [f"**{name}**: {description}" for name, description in commands]
    body = "\n".join(lines) + "\n\n" + HELP_FOOTER
    return info_embed(body, "Virginia Reel: commands")


# ---------------------------------------------------------------------- daily challenge


def discord_timestamp(
    moment: datetime, style: Literal["R", "f", "F", "t", "T", "d", "D"] = "R"
) -> str:
    """``<t:UNIX:R>``: Discord shows it in each reader's own time zone ("in 5 hours")."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def game_name(code: str) -> str:
    """The name of the game of the family with this code (``Royal Parade`` for ``rp``)."""
    variant = VARIANTS.get(code)
    return code if variant is None else variant.name


def daily_title(day: date) -> str:
    """``Daily challenge · 2026-11-29``."""
    return f"Daily challenge · {day.isoformat()}"


def par_text(par: int) -> str:
    """``Par 108 moves``: the length of the solver's winning line (its proof of the deal)."""
    return f"Par {par} moves (the solver's winning line: this deal can be won)"


def rating_text(rating: str) -> str:
    """``Difficulty: Hard`` and what the rating says (docs/daily.md)."""
    return f"Difficulty: **{rating}** (how a player who can't see the stock fares with it)"


def daily_notes(
    *,
    next_daily_at: datetime | None,
    scored: bool,
    finished: bool,
    share_text: str | None,
    par: int | None = None,
    later_daily: date | None = None,
    practice: bool = False,
    rating: str | None = None,
) -> list[str]:
    """The lines under a daily's board: the difficulty, the par, unscored replay, the share
    line, the next."""
    lines = []
    if rating is not None:
        lines.append(f"{rating_text(rating)}.")
    if par is not None:
        lines.append(f"{par_text(par)}.")
    if practice:
        lines.append("*Practice:* a past daily played again, not scored and not recorded.")
    elif not scored:
        lines.append("*Unscored replay:* your first game of this daily is the one that counts.")
    if finished and scored and share_text:
        lines.append(f"Share your result (no spoilers):\n```\n{share_text}\n```")
    if later_daily is not None:
        then = "" if finished or practice else ", and records this one as it stands"
        lines.append(
            f"The daily of {later_daily.isoformat()} is open: **/reel daily** deals it{then}."
        )
    elif next_daily_at is not None:
        lines.append(f"Next daily {discord_timestamp(next_daily_at)}.")
    return lines


# ---------------------------------------------------------------------- leaderboards

NO_VALUE: Final = "—"


def _text(value: int | None) -> str:
    return NO_VALUE if value is None else str(value)


DAILY_HEADER: Final = f"{'result':<8}{'moves':>6}{'undos':>6}{'time':>9}"
ALL_TIME_HEADER: Final = f"{'wins':>5}{'games':>6}{'rate':>6}{'streak':>7}"


ASSISTED_MARK: Final = "*"


def daily_cells(
    won: bool | None,
    score: int | None,
    moves: int | None,
    undos: int | None,
    seconds: int | None,
    assisted: bool = False,
    card_total: int = CARD_TOTAL,
) -> str:
    """One daily result, in the columns of ``DAILY_HEADER``: ``✓ won`` or cards home out of
    ``card_total``, marked ``*`` when the player used a hint."""
    result = ("✓ won" if won else f"{_text(score)}/{card_total}") + (
        ASSISTED_MARK if assisted else ""
    )
    return f"{result:<8}{_text(moves):>6}{_text(undos):>6}{format_duration(seconds):>9}"


def win_rate_text(win_rate: float | None) -> str:
    """``62%``; ``—`` when the player has too few games for a rate."""
    return NO_VALUE if win_rate is None else f"{round(win_rate * 100)}%"


def all_time_cells(
    wins: int | None, games: int | None, win_rate: float | None, best_streak: int | None
) -> str:
    """One player's all-time record, in the columns of ``ALL_TIME_HEADER``."""
    return f"{_text(wins):>5}{_text(games):>6}{win_rate_text(win_rate):>6}{_text(best_streak):>7}"


def leaderboard_table(header: str, rows: Sequence[tuple[int, int, str]], limit: int) -> str:
    """The table: ``(rank, user id, cells)`` rows, within ``limit`` characters.

    The rank and the cells are monospace (inline code, so the columns line up);
    the player follows as a mention, which Discord shows as their name without
    pinging anyone (messages are also sent with no allowed mentions). Rows that
    do not fit are left off whole, never cut in the middle.
    """
    width = max((len(f"#{rank}") for rank, _, _ in rows), default=2) + 1
    lines = [f"`{'#':<{width}}{header}` player"]
    used = len(lines[0])
    for rank, user_id, cells in rows:
        line = f"`{f'#{rank}':<{width}}{cells}` <@{user_id}>"
        if used + 1 + len(line) > limit:
            break
        lines.append(line)
        used += 1 + len(line)
    return "\n".join(lines)


def leaderboard_title(kind: str, scope: Literal["server", "global"], day: date | None) -> str:
    """``Daily leaderboard · 2026-11-29 · this server`` / ``All-time leaderboard · global``."""
    where = "this server" if scope == "server" else "global"
    if kind == "daily":
        when = f" · {day.isoformat()}" if day is not None else ""
        return f"Daily leaderboard{when} · {where}"
    return f"All-time leaderboard · {where}"


def leaderboard_footer(page: int, page_count: int, total: int) -> str:
    """``Page 2 of 5 · 43 players`` (pages count from 1 here, from 0 in the service)."""
    players = "player" if total == 1 else "players"
    return f"Page {page + 1} of {max(page_count, 1)} · {total} {players}"


def _row_cells(row: LeaderboardRow, kind: str, total: int = CARD_TOTAL) -> str:
    if kind == "daily":
        return daily_cells(
            row.won, row.score, row.moves, row.undos, row.seconds, row.assisted, total
        )
    return all_time_cells(row.wins, row.games, row.win_rate, row.best_streak)


def leaderboard_embed(page: LeaderboardPage) -> discord.Embed:
    """A page of a leaderboard: a monospace table of rank and result, then the player."""
    if page.kind == "daily":
        header, note = DAILY_HEADER, "Ranked by won, cards home, fewer moves, earlier finish."
        if any(row.assisted for row in page.rows):
            note += f" {ASSISTED_MARK} used a hint."
        if page.par is not None:
            note = f"{par_text(page.par)}. {note}"
        if page.rating is not None:
            note = f"Difficulty: **{page.rating}**. {note}"
        here = " here" if page.scope == "server" else ""
        empty = f"No one has finished this daily{here} yet."
        if page.today:
            empty += " Play it with **/reel daily**."
    else:
        header = ALL_TIME_HEADER
        note = (
            f"Ranked by wins, win rate, games. Win rate from {MIN_GAMES_FOR_RATE} games; "
            "streak: best run of days in a row on the daily."
        )
        here = " here" if page.scope == "server" else ""
        empty = f"No finished games{here} yet. Start one with **/reel new** or **/reel daily**."
    if page.rows:
        total = VARIANTS[page.variant].card_total
        rows = [(row.rank, row.user_id, _row_cells(row, page.kind, total)) for row in page.rows]
        body = leaderboard_table(header, rows, DESCRIPTION_LIMIT - len(note) - 2)
        description = f"{body}\n\n{note}"
    else:
        description = empty
    title = leaderboard_title(page.kind, page.scope, page.day)
    if page.variant != "vr":
        title = f"{game_name(page.variant)} · {title}"
    embed = discord.Embed(
        title=clip(title, TITLE_LIMIT),
        description=clip(description, DESCRIPTION_LIMIT),
        colour=INFO_COLOUR,
    )
    embed.set_footer(
        text=clip(leaderboard_footer(page.page, page.page_count, page.total), FOOTER_LIMIT)
    )
    return embed


def stats_embed(stats: PlayerStats) -> discord.Embed:
    """A player's record: games, wins, win rate, daily streaks, best score, dailies."""
    embed = discord.Embed(
        title=f"{game_name(stats.variant)} · stats",
        description=f"<@{stats.user_id}>"
        + ("" if stats.games else "\nNo finished games yet: the record starts when a game ends."),
        colour=INFO_COLOUR,
    )
    figures = [
        ("Games played", str(stats.games)),
        ("Won", str(stats.wins)),
        ("Win rate", win_rate_text(stats.win_rate) if stats.games else NO_VALUE),
        ("Daily streak", f"{stats.current_streak} (best {stats.best_streak})"),
        ("Best score", f"{stats.best_score}/{VARIANTS[stats.variant].card_total}"),
        ("Dailies played", f"{stats.dailies} (won {stats.daily_wins})"),
    ]
    if stats.races:
        best = f", best place {stats.best_place}" if stats.best_place else ""
        figures.append(("Races", f"{stats.races} (won {stats.race_wins}{best})"))
    if stats.deal_number is not None:
        games, wins = stats.deal_games, stats.deal_wins
        record = f"won {wins} of {games}" if games else "not finished before"
        figures.append((f"Deal {stats.deal_number}", record))
    for name, value in figures:
        embed.add_field(name=name, value=value, inline=True)
    embed.set_footer(text="Streak: UTC days in a row with the daily played.")
    return embed
