"""The board buttons and the command group: custom_ids that carry state, buttons enabled only
when they can act, and a command tree within Discord's limits."""

from __future__ import annotations

import dataclasses
from typing import cast

import discord
import pytest
from discord import app_commands

from bot.discord_bot.commands import (
    BAD_DEAL,
    ReelCommands,
    command_summaries,
    deal_number_from_text,
    destination_choices,
    move_choices,
)
from bot.discord_bot.embeds import help_embed
from bot.discord_bot.views import (
    ACTIONS,
    CUSTOM_ID_LIMIT,
    BoardButton,
    board_view,
    make_custom_id,
    parse_custom_id,
)
from bot.service import GameService, GameView, MoveChoice
from engine import MAX_DEAL, Game, Status, render

MAX_SNOWFLAKE = 2**64 - 1


def make_view(**changes: object) -> GameView:
    view = GameView(
        user_id=555,
        guild_id=42,
        deal_number=1,
        board=render(Game.new(1)),
        status=Status.PLAYING,
        score=5,
        move_count=4,
        undo_count=0,
        deals_left=9,
        version=12,
        can_deal=True,
        can_undo=True,
        can_auto=True,
        message=None,
        warning=None,
        finished=False,
    )
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def buttons_of(view: discord.ui.View) -> dict[str, BoardButton]:
    found: dict[str, BoardButton] = {}
    for item in view.children:
        assert isinstance(item, BoardButton)
        found[item.action] = item
    return found


def state(view: discord.ui.View) -> dict[str, bool]:
    """action -> enabled."""
    return {action: not b.item.disabled for action, b in buttons_of(view).items()}


# --------------------------------------------------------------- custom_id


def test_custom_id_carries_action_owner_and_version() -> None:
    assert make_custom_id("deal", 555, 12) == "reel:deal:555:12"
    assert parse_custom_id("reel:deal:555:12") == ("deal", 555, 12)


@pytest.mark.parametrize("action", ACTIONS)
def test_every_custom_id_parses_back_and_fits(action: str) -> None:
    custom_id = make_custom_id(action, MAX_SNOWFLAKE, 10**20 - 1)  # type: ignore[arg-type]
    assert len(custom_id) <= CUSTOM_ID_LIMIT
    assert parse_custom_id(custom_id) == (action, MAX_SNOWFLAKE, 10**20 - 1)
    assert BoardButton.__discord_ui_compiled_template__.fullmatch(custom_id)


@pytest.mark.parametrize(
    "custom_id",
    ["reel:fly:1:2", "other:deal:1:2", "reel:deal:x:2", "reel:deal:1:", "reel:deal:1:2:3", ""],
)
def test_foreign_custom_ids_are_not_ours(custom_id: str) -> None:
    assert parse_custom_id(custom_id) is None


async def test_a_clicked_button_is_rebuilt_from_its_custom_id_alone() -> None:
    """What a restarted bot does: only the custom_id is known."""
    custom_id = make_custom_id("undo", 555, 12)
    match = BoardButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    base = discord.ui.Button[discord.ui.View](custom_id=custom_id, label="Undo")
    rebuilt = await BoardButton.from_custom_id(cast(discord.Interaction, None), base, match)
    assert (rebuilt.action, rebuilt.user_id, rebuilt.version) == ("undo", 555, 12)
    assert rebuilt.custom_id == custom_id


# --------------------------------------------------------------- board_view


def test_a_board_has_deal_undo_auto_refresh_in_order() -> None:
    view = board_view(make_view())
    assert [b.action for b in buttons_of(view).values()] == ["deal", "undo", "auto", "refresh"]
    assert view.timeout is None
    assert view.is_persistent()


def test_buttons_carry_the_owner_and_the_version() -> None:
    for button in buttons_of(board_view(make_view(user_id=777, version=31))).values():
        assert parse_custom_id(button.custom_id) == (button.action, 777, 31)


def test_labels() -> None:
    labels = {a: b.item.label for a, b in buttons_of(board_view(make_view(deals_left=3))).items()}
    assert labels == {"deal": "Deal (3 left)", "undo": "Undo", "auto": "Auto", "refresh": "Refresh"}
    no_stock = buttons_of(board_view(make_view(deals_left=0, can_deal=False)))
    assert no_stock["deal"].item.label == "Deal"


def test_all_enabled_when_all_can_act() -> None:
    assert state(board_view(make_view())) == {
        "deal": True,
        "undo": True,
        "auto": True,
        "refresh": True,
    }


@pytest.mark.parametrize("flag", ["can_deal", "can_undo", "can_auto"])
def test_a_button_that_cannot_act_is_disabled(flag: str) -> None:
    enabled = state(board_view(make_view(**{flag: False})))
    action = flag.removeprefix("can_")
    assert enabled[action] is False
    assert all(on for a, on in enabled.items() if a != action)


def test_a_stuck_game_offers_undo_and_new_game() -> None:
    enabled = state(board_view(make_view(status=Status.STUCK, can_deal=False, can_auto=False)))
    assert enabled == {"deal": False, "undo": True, "auto": False, "refresh": True, "new": True}


@pytest.mark.parametrize("status", [Status.WON, Status.STUCK, Status.PLAYING])
def test_a_finished_game_disables_everything_but_new_game(status: Status) -> None:
    enabled = state(board_view(make_view(status=status, finished=True)))
    assert enabled == {"deal": False, "undo": False, "auto": False, "refresh": False, "new": True}


def test_new_game_is_offered_only_when_the_game_is_over() -> None:
    assert "new" not in state(board_view(make_view()))
    new = buttons_of(board_view(make_view(status=Status.WON, finished=True)))["new"]
    assert new.item.label == "New game"


def test_components_keep_within_discord_limits() -> None:
    view = board_view(make_view(status=Status.STUCK, user_id=MAX_SNOWFLAKE, version=10**15))
    rows = view.to_components()
    assert 1 <= len(rows) <= 5
    for row in rows:
        assert len(row["components"]) <= 5
        for component in row["components"]:
            assert 1 <= len(component["custom_id"]) <= CUSTOM_ID_LIMIT
            assert len(component["label"]) <= 80


# --------------------------------------------------------------- commands


def group() -> ReelCommands:
    return ReelCommands(cast(GameService, object()))


def test_one_reel_group_with_every_command() -> None:
    reel = group()
    assert reel.name == "reel"
    names = [c.name for c in reel.commands]
    assert names == [
        "new",
        "show",
        "move",
        "deal",
        "undo",
        "auto",
        "resign",
        "settings",
        "rules",
        "help",
    ]
    assert len(names) <= 25


def test_every_command_and_option_has_a_description_within_limits() -> None:
    reel = group()
    assert 1 <= len(reel.description) <= 100
    for command in reel.walk_commands():
        assert isinstance(command, app_commands.Command)
        assert 1 <= len(command.description) <= 100, command.name
        assert command.name.islower() and len(command.name) <= 32
        for param in command.parameters:
            assert 1 <= len(param.description) <= 100, (command.name, param.name)
            assert param.description != "…", (command.name, param.name)


def test_move_options_are_from_and_to_with_autocomplete() -> None:
    move = group().get_command("move")
    assert isinstance(move, app_commands.Command)
    params = {p.display_name: p for p in move.parameters}
    assert list(params) == ["from", "to"]
    assert params["from"].required and not params["to"].required
    assert params["from"].autocomplete and params["to"].autocomplete


def test_the_deal_option_is_text_so_every_deal_number_fits() -> None:
    """Discord's integer options stop at 2**53; deal numbers go to 2**63 - 1."""
    new = group().get_command("new")
    assert isinstance(new, app_commands.Command)
    (deal,) = new.parameters
    assert deal.type is discord.AppCommandOptionType.string
    assert not deal.required


def test_the_tree_payload_is_accepted_by_discord_py() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    reel = group()
    tree.add_command(reel)
    payload = reel.to_dict(tree)
    assert payload["name"] == "reel"
    assert len(payload["options"]) == 10


def test_help_lists_every_command_with_its_options() -> None:
    summaries = command_summaries(group())
    usages = [usage for usage, _ in summaries]
    assert "/reel new [deal]" in usages
    assert "/reel move from [to]" in usages
    assert "/reel settings [suits] [auto_aces]" in usages
    assert len(help_embed(summaries)) <= 6000


@pytest.mark.parametrize(
    ("text", "number"),
    [("42", 42), (" 7 ", 7), ("1,000,000", 1_000_000), (str(MAX_DEAL), MAX_DEAL)],
)
def test_deal_numbers_are_read_from_text(text: str, number: int) -> None:
    assert deal_number_from_text(text) == number


@pytest.mark.parametrize("text", ["", "abc", "-5", "4.2", "1" * 25])
def test_bad_deal_text_is_refused_clearly(text: str) -> None:
    with pytest.raises(ValueError, match="whole number") as info:
        deal_number_from_text(text)
    assert str(info.value) == BAD_DEAL


CHOICES = [
    MoveChoice("R6 ACE", "R6 A♠ → Ace pile"),
    MoveChoice("R5 C1", "R5 7♣ → C1 on 4♣"),
    MoveChoice("A7 C5", "A7 7♥ → C5 on 4♥"),
    MoveChoice("R5 C6", "R5 7♣ → C6 on 4♣"),
    MoveChoice("deal", "Deal (9 left)"),
]


def test_from_choices_show_words_and_send_the_move() -> None:
    choices = move_choices(CHOICES)
    assert [(c.name, c.value) for c in choices][:2] == [
        ("R6 A♠ → Ace pile", "R6 ACE"),
        ("R5 7♣ → C1 on 4♣", "R5 C1"),
    ]


def test_from_choices_keep_within_limits() -> None:
    many = [MoveChoice(f"R{i} A{i}", "x" * 150) for i in range(40)]
    choices = move_choices(many)
    assert len(choices) == 25
    assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in choices)


def test_to_choices_are_the_destinations_of_the_chosen_pile() -> None:
    choices = destination_choices(CHOICES, "r5", "")
    assert [(c.name, c.value) for c in choices] == [
        ("R5 7♣ → C1 on 4♣", "C1"),
        ("R5 7♣ → C6 on 4♣", "C6"),
    ]


def test_to_choices_after_a_whole_move_and_filtered_by_typing() -> None:
    assert [c.value for c in destination_choices(CHOICES, "R5 C1", "c6")] == ["C6"]


def test_to_choices_fall_back_to_what_the_service_matched() -> None:
    """``from`` named a card (7h): the service's matches are offered."""
    assert [c.value for c in destination_choices(CHOICES, "7h", "")] == ["ACE", "C1", "C5", "C6"]
