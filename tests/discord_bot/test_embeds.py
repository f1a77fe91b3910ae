"""The embed builders: what a board message and the private notices show, within limits."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot.discord_bot.embeds import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
    WARNING_FIELD_NAME,
    board_embed,
    error_embed,
    help_embed,
    info_embed,
    rules_embed,
    settings_embed,
)
from bot.service import GameView, Settings
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
    symbols = settings_embed(Settings(), changed=False)
    assert "symbols" in (symbols.description or "")
    assert "Automatic Aces:** off" in (symbols.description or "")
    assert symbols.title == "Your settings"


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
        "4-7-10-K",
    ):
        assert word in text


def test_help_lists_the_commands_given() -> None:
    embed = help_embed([("/reel new [deal]", "Start a game"), ("/reel undo", "Take back")])
    within_limits(embed)
    text = embed.description or ""
    assert "**/reel new [deal]**: Start a game" in text
    assert "**/reel undo**: Take back" in text
