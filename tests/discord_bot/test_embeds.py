"""The embed builders: what a board message and the private notices show, within limits."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date, datetime

import discord
import pytest

from bot.discord_bot.embeds import (
    ALL_TIME_HEADER,
    DAILY_HEADER,
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
    WARNING_FIELD_NAME,
    all_time_cells,
    board_embed,
    daily_cells,
    daily_notes,
    daily_title,
    discord_timestamp,
    error_embed,
    help_embed,
    hint_embed,
    info_embed,
    leaderboard_embed,
    leaderboard_footer,
    leaderboard_table,
    leaderboard_title,
    rules_embed,
    settings_embed,
    stats_embed,
    win_rate_text,
)
from bot.service import (
    MIN_GAMES_FOR_RATE,
    GameView,
    HintView,
    LeaderboardPage,
    LeaderboardRow,
    PlayerStats,
    Settings,
    format_duration,
)
from engine import MAX_WIDTH, Game, SpaceWarning, Status, display_width, render

BOARD = render(Game.new(1))


def make_view(**changes: object) -> GameView:
    view = GameView(
        user_id=1234567890123456789,
        guild_id=42,
        deal_number=1,
        board=BOARD,
        status=Status.PLAYING,
        score=5,
        move_count=0,
        undo_count=0,
        deals_left=9,
        version=3,
        can_deal=True,
        can_undo=False,
        can_auto=True,
        message=None,
        warning=None,
        finished=False,
    )
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def within_limits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= TITLE_LIMIT
    assert len(embed.description or "") <= DESCRIPTION_LIMIT
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert len(field.name or "") <= 256
        assert len(field.value or "") <= FIELD_VALUE_LIMIT
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= EMBED_TOTAL_LIMIT


def test_the_board_is_shown_in_a_code_block() -> None:
    embed = board_embed(make_view())
    assert f"```\n{BOARD}\n```" in (embed.description or "")
    within_limits(embed)


def test_the_title_names_the_game_and_the_deal() -> None:
    assert board_embed(make_view(deal_number=987654321)).title == "Virginia Reel · deal 987654321"


def test_the_footer_gives_deal_moves_and_score() -> None:
    embed = board_embed(make_view(deal_number=42, move_count=17, score=31))
    assert embed.footer.text == "Deal 42 · moves 17 · score 31/104"


def test_the_embed_says_whose_game_it_is() -> None:
    assert "<@1234567890123456789>" in (board_embed(make_view()).description or "")


@pytest.mark.parametrize(
    ("status", "finished", "colour"),
    [
        (Status.PLAYING, False, discord.Colour.blurple()),
        (Status.WON, True, discord.Colour.gold()),
        (Status.STUCK, False, discord.Colour.red()),
        (Status.STUCK, True, discord.Colour.red()),
        (Status.PLAYING, True, discord.Colour.dark_grey()),
    ],
)
def test_the_colour_follows_the_state(
    status: Status, finished: bool, colour: discord.Colour
) -> None:
    assert board_embed(make_view(status=status, finished=finished)).colour == colour


def test_colours_of_playing_won_and_stuck_differ() -> None:
    colours = {board_embed(make_view(status=s)).colour for s in Status}
    assert len(colours) == 3


def test_what_happened_is_shown_above_the_board() -> None:
    embed = board_embed(make_view(message="R3 5♥ → A5 on 2♥"))
    description = embed.description or ""
    assert "R3 5♥ → A5 on 2♥" in description
    assert description.index("R3 5♥") < description.index("```")


def test_markdown_in_the_message_is_escaped_outside_the_board() -> None:
    description = board_embed(make_view(message="*new* game")).description or ""
    assert "\\*new\\*" in description


def test_a_space_warning_is_a_field_of_its_own() -> None:
    warning_text = SpaceWarning(0).message
    embed = board_embed(make_view(warning=warning_text))
    assert [(f.name, f.value) for f in embed.fields] == [(WARNING_FIELD_NAME, warning_text)]


def test_no_warning_no_field() -> None:
    assert board_embed(make_view()).fields == []


def test_a_win_is_celebrated() -> None:
    embed = board_embed(make_view(status=Status.WON, finished=True, score=104, move_count=250))
    description = embed.description or ""
    assert "You won!" in description
    assert "250 moves" in description


def test_a_stuck_game_says_so_and_offers_undo_and_a_new_game() -> None:
    description = board_embed(make_view(status=Status.STUCK, can_undo=True)).description or ""
    assert "Stuck" in description
    assert "Undo" in description
    assert "/reel new" in description


def test_a_stuck_game_with_nothing_to_undo_does_not_offer_undo() -> None:
    description = board_embed(make_view(status=Status.STUCK, can_undo=False)).description or ""
    assert "Stuck" in description
    assert "Undo" not in description


def test_a_stuck_game_says_the_way_out_it_is_given() -> None:
    """A racer's stuck board says Leave race (``races.LEAVE_RACE``), built so, not rewritten."""
    stuck = make_view(status=Status.STUCK)
    assert "start again with **/reel new**" in (board_embed(stuck).description or "")
    raced = board_embed(stuck, way_out="stop with **Leave race**").description or ""
    assert "You can stop with **Leave race**." in raced
    assert "/reel new" not in raced


def test_a_game_in_play_has_no_status_line() -> None:
    description = board_embed(make_view()).description or ""
    assert not any(word in description for word in ("Stuck", "won", "Game over"))


def test_a_resigned_game_is_over() -> None:
    description = board_embed(make_view(finished=True)).description or ""
    assert "Game over" in description


def test_huge_texts_are_cut_to_the_limits_and_the_board_survives() -> None:
    embed = board_embed(make_view(message="m" * 5000, warning="w" * 3000))
    within_limits(embed)
    description = embed.description or ""
    assert description.endswith(f"```\n{BOARD}\n```")
    assert (embed.fields[0].value or "").endswith("…")


@pytest.mark.parametrize("symbols", [True, False])
def test_board_lines_fit_a_phone(symbols: bool) -> None:
    board = render(Game.new(7), symbols=symbols)
    embed = board_embed(make_view(board=board))
    inside = (embed.description or "").split("```\n")[1].split("\n```")[0]
    assert inside == board
    assert all(display_width(line) <= MAX_WIDTH for line in inside.splitlines())
    assert "\ufe0f" not in (embed.description or "")


def test_error_and_info_embeds_keep_within_limits() -> None:
    error = error_embed("x" * 5000)
    assert len(error.description or "") == DESCRIPTION_LIMIT
    assert error.colour == discord.Colour.red()
    info = info_embed("Hello", "t" * 300)
    assert len(info.title or "") == TITLE_LIMIT
    within_limits(error)
    within_limits(info)


def test_settings_embed_names_both_settings() -> None:
    letters = settings_embed(Settings(symbols=False, auto_aces=True), changed=True)
    text = letters.description or ""
    assert "letters (S H D C)" in text
    assert "Automatic Aces:** on" in text
    assert letters.title == "Settings saved"
    symbols = settings_embed(Settings(auto_aces=False, winnable=False), changed=False)
    assert "symbols" in (symbols.description or "")
    assert "Automatic Aces:** off" in (symbols.description or "")
    assert "Winnable deals:** off" in (symbols.description or "")
    assert symbols.title == "Your settings"
    winnable = settings_embed(Settings(winnable=True), changed=True)
    assert "Winnable deals:** on" in (winnable.description or "")


def test_rules_cover_every_move_and_fit() -> None:
    embed = rules_embed()
    within_limits(embed)
    text = embed.description or ""
    for word in (
        "Build",
        "Fill",
        "Interchange",
        "Ace",
        "Deal",
        "Stuck",
        "2-5-8-J",
        "3-6-9-Q",
        "4-7-T-K",
    ):
        assert word in text


def test_help_lists_the_commands_given() -> None:
    embed = help_embed([("/reel new [deal]", "Start a game"), ("/reel undo", "Take back")])
    within_limits(embed)
    text = embed.description or ""
    assert "**/reel new [deal]**: Start a game" in text
    assert "**/reel undo**: Take back" in text


# --------------------------------------------------------------- daily challenge


def test_a_discord_timestamp_is_relative_and_in_unix_seconds() -> None:
    moment = datetime(2026, 11, 30, 0, 0, tzinfo=UTC)
    stamp = discord_timestamp(moment)
    assert re.fullmatch(r"<t:\d+:R>", stamp)
    assert stamp == f"<t:{int(moment.timestamp())}:R>" == "<t:1795996800:R>"


def test_the_daily_title_names_the_date() -> None:
    assert daily_title(date(2026, 11, 29)) == "Daily challenge · 2026-11-29"


def test_daily_notes_say_when_the_next_daily_starts() -> None:
    notes = daily_notes(
        next_daily_at=datetime(2026, 11, 30, tzinfo=UTC),
        scored=True,
        finished=False,
        share_text="Virginia Reel daily 2026-11-29: won in 112 moves",
    )
    assert notes == ["Next daily <t:1795996800:R>."]  # no share line while in play


def test_an_unscored_replay_says_so() -> None:
    notes = daily_notes(next_daily_at=None, scored=False, finished=False, share_text=None)
    assert len(notes) == 1 and "Unscored replay" in notes[0]


def test_a_finished_scored_daily_shows_the_share_line_in_a_code_block() -> None:
    share = "Virginia Reel daily 2026-11-29: 87/104 cards home in 95 moves"
    notes = daily_notes(next_daily_at=None, scored=True, finished=True, share_text=share)
    assert f"```\n{share}\n```" in notes[0]
    # An unscored replay never offers a line to share, even if one came along.
    assert daily_notes(next_daily_at=None, scored=False, finished=True, share_text=share) == [
        daily_notes(next_daily_at=None, scored=False, finished=False, share_text=None)[0]
    ]


# --------------------------------------------------------------- leaderboard pieces


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(None, "—"), (0, "0:00"), (59, "0:59"), (61, "1:01"), (3600, "1:00:00"), (3723, "1:02:03")],
)
def test_durations(seconds: int | None, text: str) -> None:
    assert format_duration(seconds) == text


def test_daily_cells_line_up_under_the_header() -> None:
    won = daily_cells(True, 104, 112, 0, 754)
    lost = daily_cells(False, 87, 95, 3, 482)
    assert "✓ won" in won and "87/104" in lost
    assert len(won) == len(lost) == len(DAILY_HEADER)
    assert won.endswith("12:34") and lost.endswith("8:02")
    assert daily_cells(False, None, None, None, None).count("—") == 4


def test_all_time_cells_show_a_rate_only_when_there_is_one() -> None:
    assert all_time_cells(7, 10, 0.7, 4).split() == ["7", "10", "70%", "4"]
    assert all_time_cells(1, 2, None, 1).split() == ["1", "2", "—", "1"]
    assert len(all_time_cells(1, 2, None, 1)) == len(ALL_TIME_HEADER)
    assert win_rate_text(2 / 3) == "67%"


def test_the_table_has_ranks_cells_and_mentions_and_keeps_to_the_limit() -> None:
    rows = [
        (rank, 10**18 + rank, daily_cells(True, 104, 100 + rank, 0, 60)) for rank in range(1, 11)
    ]
    table = leaderboard_table(DAILY_HEADER, rows, DESCRIPTION_LIMIT)
    lines = table.splitlines()
    assert len(lines) == 11
    assert lines[1].startswith("`#1 ") and lines[1].endswith(f"` <@{10**18 + 1}>")
    assert lines[10].startswith("`#10 ")
    widths = {line.index("` <@") for line in lines[1:]}
    assert len(widths) == 1  # the monospace columns line up
    short = leaderboard_table(DAILY_HEADER, rows, 300)
    assert len(short) <= 300
    assert all(line.endswith(">") for line in short.splitlines()[1:])  # whole rows only


def test_leaderboard_titles_and_footers() -> None:
    day = date(2026, 11, 29)
    assert (
        leaderboard_title("daily", "server", day) == "Daily leaderboard · 2026-11-29 · this server"
    )
    assert leaderboard_title("all-time", "global", None) == "All-time leaderboard · global"
    assert leaderboard_footer(0, 3, 25) == "Page 1 of 3 · 25 players"
    assert leaderboard_footer(0, 0, 0) == "Page 1 of 1 · 0 players"
    assert leaderboard_footer(0, 1, 1) == "Page 1 of 1 · 1 player"


# --------------------------------------------------------------- the daily's board


DAY = date(2026, 11, 29)
NEXT = datetime(2026, 11, 30, tzinfo=UTC)


def daily_view(**changes: object) -> GameView:
    daily = {"daily_date": DAY, "next_daily_at": NEXT, "scored": True, "share_text": None}
    daily.update(changes)
    return make_view(**daily)


def test_a_daily_board_is_titled_with_its_date_and_says_when_the_next_starts() -> None:
    embed = board_embed(daily_view())
    assert embed.title == "Daily challenge · 2026-11-29"
    description = embed.description or ""
    assert re.search(r"Next daily <t:\d+:R>", description)
    assert f"<t:{int(NEXT.timestamp())}:R>" in description
    assert description.index("```") < description.index("Next daily")  # under the board
    assert "Unscored" not in description
    within_limits(embed)


def test_an_ordinary_board_has_no_daily_notes() -> None:
    description = board_embed(make_view()).description or ""
    assert "<t:" not in description and "daily" not in description.lower()


def test_an_unscored_replay_is_marked_on_the_board() -> None:
    assert "Unscored replay" in (board_embed(daily_view(scored=False)).description or "")


def test_a_finished_scored_daily_offers_its_share_line() -> None:
    share = "Virginia Reel daily 2026-11-29: won in 112 moves"
    view = daily_view(status=Status.WON, finished=True, score=104, share_text=share)
    description = board_embed(view).description or ""
    assert f"```\n{share}\n```" in description
    assert "You won!" in description
    playing = board_embed(daily_view(share_text=share)).description or ""
    assert share not in playing


def test_a_daily_board_with_huge_texts_keeps_its_board_and_notes() -> None:
    share = "s" * 500
    view = daily_view(message="m" * 5000, finished=True, share_text=share)
    embed = board_embed(view)
    within_limits(embed)
    description = embed.description or ""
    assert f"```\n{BOARD}\n```" in description and share in description


# --------------------------------------------------------------- leaderboard embeds


def daily_row(rank: int, user_id: int, *, won: bool, score: int, moves: int) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        user_id=user_id,
        won=won,
        score=score,
        moves=moves,
        undos=rank - 1,
        seconds=600 + rank,
        wins=None,
        games=None,
        win_rate=None,
        best_streak=None,
    )


def all_time_row(
    rank: int, user_id: int, wins: int, games: int, rate: float | None
) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        user_id=user_id,
        won=None,
        score=None,
        moves=None,
        undos=None,
        seconds=None,
        wins=wins,
        games=games,
        win_rate=rate,
        best_streak=rank,
    )


def test_a_daily_leaderboard_lists_rank_result_and_player() -> None:
    rows = (
        daily_row(1, 111, won=True, score=104, moves=112),
        daily_row(2, 222, won=False, score=87, moves=95),
    )
    page = LeaderboardPage("daily", "server", 42, DAY, 0, 1, 2, rows)
    embed = leaderboard_embed(page)
    assert embed.title == "Daily leaderboard · 2026-11-29 · this server"
    lines = (embed.description or "").splitlines()
    assert lines[0].startswith("`#") and "result" in lines[0] and "moves" in lines[0]
    assert lines[1].startswith("`#1") and "✓ won" in lines[1] and lines[1].endswith("<@111>")
    assert lines[2].startswith("`#2") and "87/104" in lines[2] and lines[2].endswith("<@222>")
    assert " 112 " in lines[1] and "10:01" in lines[1]
    assert embed.footer.text == "Page 1 of 1 · 2 players"
    within_limits(embed)


def test_an_all_time_leaderboard_shows_a_rate_only_from_the_minimum() -> None:
    rows = (all_time_row(1, 111, 9, 12, 0.75), all_time_row(2, 222, 2, 3, None))
    page = LeaderboardPage("all-time", "global", None, None, 1, 3, 25, rows)
    embed = leaderboard_embed(page)
    assert embed.title == "All-time leaderboard · global"
    lines = (embed.description or "").splitlines()
    assert "wins" in lines[0] and "rate" in lines[0] and "streak" in lines[0]
    assert "75%" in lines[1] and "<@111>" in lines[1]
    assert "—" in lines[2] and "%" not in lines[2]
    assert f"from {MIN_GAMES_FOR_RATE} games" in (embed.description or "")
    assert embed.footer.text == "Page 2 of 3 · 25 players"


@pytest.mark.parametrize("kind", ["daily", "all-time"])
def test_an_empty_leaderboard_says_how_to_get_on_it(kind: str) -> None:
    page = LeaderboardPage(kind, "server", 42, DAY, 0, 0, 0, (), today=True)  # type: ignore[arg-type]
    description = leaderboard_embed(page).description or ""
    assert "/reel daily" in description and "`#" not in description


def test_an_empty_daily_board_of_another_day_or_everyone_says_only_what_is() -> None:
    past = LeaderboardPage("daily", "global", None, DAY, 0, 0, 0, ())
    assert leaderboard_embed(past).description == "No one has finished this daily yet."
    here = dataclasses.replace(past, scope="server", guild_id=42, today=True)
    assert leaderboard_embed(here).description == (
        "No one has finished this daily here yet. Play it with **/reel daily**."
    )


def test_a_page_of_the_largest_ranks_and_ids_keeps_within_limits() -> None:
    rows = tuple(
        daily_row(10**9 + i, 2**64 - 1 - i, won=False, score=103, moves=999) for i in range(50)
    )
    embed = leaderboard_embed(
        LeaderboardPage("daily", "global", None, DAY, 10**8, 10**8, 10**9, rows)
    )
    within_limits(embed)
    assert all(line.endswith(">") for line in (embed.description or "").splitlines()[1:-2])


# --------------------------------------------------------------- stats


def test_stats_show_every_figure() -> None:
    stats = PlayerStats(
        user_id=111,
        games=12,
        wins=5,
        win_rate=5 / 12,
        current_streak=3,
        best_streak=7,
        best_score=104,
        dailies=9,
        daily_wins=4,
    )
    embed = stats_embed(stats)
    figures = {f.name: f.value for f in embed.fields}
    assert figures == {
        "Games played": "12",
        "Won": "5",
        "Win rate": "42%",
        "Daily streak": "3 (best 7)",
        "Best score": "104/104",
        "Dailies played": "9 (won 4)",
    }
    assert "<@111>" in (embed.description or "")
    within_limits(embed)


def test_stats_say_whether_the_current_deal_was_won_before() -> None:
    won = stats_embed(PlayerStats(111, 3, 1, 1 / 3, 0, 0, 104, 0, 0, 16, 2, 1))
    assert {f.name: f.value for f in won.fields}["Deal 16"] == "won 1 of 2"
    fresh = stats_embed(PlayerStats(111, 3, 1, 1 / 3, 0, 0, 104, 0, 0, 17, 0, 0))
    assert {f.name: f.value for f in fresh.fields}["Deal 17"] == "not finished before"
    within_limits(won)


def test_stats_of_a_new_player() -> None:
    embed = stats_embed(PlayerStats(222, 0, 0, 0.0, 0, 0, 0, 0, 0))
    assert "No finished games yet" in (embed.description or "")
    assert {f.name: f.value for f in embed.fields}["Win rate"] == "—"


def test_a_daily_leaderboard_shows_the_par_and_marks_assisted_results() -> None:
    rows = (
        dataclasses.replace(daily_row(1, 111, won=True, score=104, moves=112), assisted=True),
        daily_row(2, 222, won=False, score=87, moves=95),
    )
    page = LeaderboardPage("daily", "server", 42, DAY, 0, 1, 2, rows, par=108)
    text = leaderboard_embed(page).description or ""
    lines = text.splitlines()
    assert "✓ won*" in lines[1] and "*" not in lines[2].split("`")[1]
    assert "Par 108 moves" in text and "* used a hint." in text
    unproven = leaderboard_embed(dataclasses.replace(page, par=None, rows=rows[1:]))
    assert "Par" not in (unproven.description or "") and "hint" not in (unproven.description or "")


def test_a_daily_board_shows_its_par() -> None:
    notes = daily_notes(next_daily_at=None, scored=True, finished=False, share_text=None, par=108)
    assert notes == ["Par 108 moves (the solver's winning line: this deal can be won)."]
    view = make_view(daily_date=DAY, par=108)
    assert "Par 108 moves" in (board_embed(view).description or "")
    assert "Par" not in (board_embed(make_view(daily_date=DAY)).description or "")


def test_a_hint_embed_names_the_move_and_how_to_play_it() -> None:
    message = "Try R6 A♠ → Ace pile: it starts a winning line (108 moves to the end)."
    answer = HintView("R6 ACE", "R6 A♠ → Ace pile", "solver", 108, message, True, make_view())
    embed = hint_embed(answer)
    assert embed.title == "💡 Hint: a winning line"
    assert embed.description == message
    assert embed.fields[0].value == (
        "Pick it in the menu under your board, or type `/reel move from:R6 ACE`"
    )
    dealt = hint_embed(dataclasses.replace(answer, move="deal", label="Deal (8 more to come)"))
    assert dealt.fields[0].value == "Click Deal under your board, or type `/reel deal`"
    lost = hint_embed(dataclasses.replace(answer, source="lost", move=None, label=None))
    assert lost.title == "💡 Hint: no win from here" and not lost.fields
    within_limits(embed)


def test_a_board_in_play_shows_its_clock_and_when_it_was_dealt_as_a_live_discord_time() -> None:
    dealt = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    playing = board_embed(make_view(started_at=dealt, elapsed_s=229)).description or ""
    assert playing.endswith(f"\nTime 3:49 · dealt <t:{int(dealt.timestamp())}:R>")
    over = board_embed(make_view(finished=True)).description or ""
    assert "dealt <t:" not in over and "Time" not in over
