"""The board buttons and the command group: custom_ids that carry state, buttons enabled only
when they can act, and a command tree within Discord's limits."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path
from typing import cast

import discord
import pytest
from discord import app_commands

from bot.discord_bot.app import create_bot
from bot.discord_bot.commands import (
    ReelCommands,
    command_summaries,
    destination_choices,
    leaderboard_query,
    move_choices,
    move_text,
)
from bot.discord_bot.embeds import help_embed
from bot.discord_bot.launch import LaunchButton
from bot.discord_bot.leaderboards import (
    PageButton,
    PageQuery,
    leaderboard_view,
    make_page_custom_id,
)
from bot.discord_bot.options import BAD_DATE, BAD_DEAL, date_from_text, deal_number_from_text
from bot.discord_bot.views import (
    ACTIONS,
    CUSTOM_ID_LIMIT,
    BoardButton,
    MoveMenu,
    board_view,
    hint_warning_view,
    make_custom_id,
)
from bot.service import GameService, GameView, LeaderboardPage, MoveChoice, open_service
from engine import MAX_DEAL, Game, Status, render

MAX_SNOWFLAKE = 2**64 - 1


def parse_custom_id(custom_id: str) -> tuple[str, int, int] | None:
    """(action, owner, version) of the board button ``custom_id`` stands for, or None."""
    button = BoardButton.parse(custom_id)
    return None if button is None else (button.action, button.owner, button.version)


def parse_page_custom_id(custom_id: str) -> tuple[str, PageQuery] | None:
    """(direction, query) of the paging button ``custom_id`` stands for, or None."""
    button = PageButton.parse(custom_id)
    return None if button is None else (button.direction, button.query)


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
        can_redo=True,
        redo_count=1,
    )
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def buttons_of(view: discord.ui.View) -> dict[str, BoardButton]:
    found: dict[str, BoardButton] = {}
    for item in view.children:
        if isinstance(item, (MoveMenu, LaunchButton)):
            continue
        assert isinstance(item, BoardButton)
        found[item.action] = item
    return found


def test_every_board_has_play_on_the_board_after_its_game_buttons() -> None:
    for board in (board_view(make_view()), board_view(make_view(finished=True))):
        launch = [item for item in board.children if isinstance(item, LaunchButton)]
        assert [item.custom_id for item in launch] == ["activity:launch"]
        assert launch[0].item.label == "Play on the board"
        kinds = [type(item).__name__ for item in board.children]
        assert (
            kinds.index("LaunchButton")
            == max(i for i, kind in enumerate(kinds) if kind == "BoardButton") + 1
        )


def menu_of(view: discord.ui.View) -> MoveMenu | None:
    menus = [item for item in view.children if isinstance(item, MoveMenu)]
    assert len(menus) <= 1
    return menus[0] if menus else None


def choices(count: int) -> tuple[MoveChoice, ...]:
    return tuple(MoveChoice(text=f"R{i} ACE", label=f"R{i} A♠ → Ace pile") for i in range(count))


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
    assert (rebuilt.action, rebuilt.owner, rebuilt.version) == ("undo", 555, 12)
    assert rebuilt.custom_id == custom_id


# --------------------------------------------------------------- board_view


def test_a_board_in_play_has_deal_undo_redo_auto_refresh_hint_in_order() -> None:
    view = board_view(make_view())
    actions = [b.action for b in buttons_of(view).values()]
    assert actions == ["deal", "undo", "redo", "auto", "refresh", "hint"]
    assert view.timeout is None
    assert view.is_persistent()


def test_buttons_carry_the_owner_and_the_version() -> None:
    for button in buttons_of(board_view(make_view(user_id=777, version=31))).values():
        assert parse_custom_id(button.custom_id) == (button.action, 777, 31)


def test_labels() -> None:
    labels = {a: b.item.label for a, b in buttons_of(board_view(make_view(deals_left=3))).items()}
    assert labels == {
        "deal": "Deal (3 left)",
        "undo": "Undo",
        "redo": "Redo",
        "auto": "Auto",
        "refresh": "Refresh",
        "hint": "Hint",
    }
    no_stock = buttons_of(board_view(make_view(deals_left=0, can_deal=False)))
    assert no_stock["deal"].item.label == "Deal"


def test_all_enabled_when_all_can_act() -> None:
    assert state(board_view(make_view())) == {
        "deal": True,
        "undo": True,
        "redo": True,
        "auto": True,
        "refresh": True,
        "hint": True,
    }


@pytest.mark.parametrize("flag", ["can_deal", "can_undo", "can_redo", "can_auto"])
def test_a_button_that_cannot_act_is_disabled(flag: str) -> None:
    enabled = state(board_view(make_view(**{flag: False})))
    action = flag.removeprefix("can_")
    assert enabled[action] is False
    assert all(on for a, on in enabled.items() if a != action)


def test_a_stuck_game_offers_undo_and_new_game() -> None:
    stuck = make_view(status=Status.STUCK, can_deal=False, can_auto=False, can_redo=False)
    enabled = state(board_view(stuck))
    assert enabled == {
        "deal": False,
        "undo": True,
        "redo": False,
        "auto": False,
        "refresh": True,
        "new": True,
    }


@pytest.mark.parametrize("status", [Status.WON, Status.STUCK, Status.PLAYING])
def test_a_finished_game_disables_everything_but_new_game(status: Status) -> None:
    enabled = state(board_view(make_view(status=status, finished=True)))
    assert enabled == {
        "deal": False,
        "undo": False,
        "redo": False,
        "auto": False,
        "refresh": False,
        "new": True,
    }


def test_new_game_is_offered_only_when_the_game_is_over() -> None:
    assert "new" not in state(board_view(make_view()))
    new = buttons_of(board_view(make_view(status=Status.WON, finished=True)))["new"]
    assert new.item.label == "New game"


@pytest.mark.parametrize(
    ("status", "finished"), [(Status.STUCK, False), (Status.WON, True), (Status.PLAYING, True)]
)
def test_hint_is_offered_only_while_the_game_is_in_play(status: Status, finished: bool) -> None:
    assert "hint" not in state(board_view(make_view(status=status, finished=finished)))


def test_a_board_in_play_lists_its_moves_in_a_menu_below_the_buttons() -> None:
    moves = (
        MoveChoice(text="R6 ACE", label="R6 A♠ → Ace pile"),
        MoveChoice(text="R5 C1", label="R5 7♣ → C1 on 4♣"),
    )
    view = board_view(make_view(moves=moves))
    menu = menu_of(view)
    assert menu is not None and menu.custom_id == "reel:play:555:12"
    [buttons, second, menu_row] = view.to_components()
    assert len(buttons["components"]) == 5 and len(second["components"]) == 2  # Hint, Play on...
    assert menu_row["components"] == [menu.item.to_component_dict()]
    options = menu.item.options
    assert [(o.label, o.value) for o in options] == [(m.label, m.text) for m in moves]
    assert menu.item.placeholder == "Play a move…"
    assert menu_of(board_view(make_view())) is None  # no move but the deal: no menu


def test_a_move_that_leaves_a_space_nothing_can_fill_is_marked_in_the_menu() -> None:
    note = "leaves a space in row A that no Two can fill yet"
    moves = (MoveChoice("A7 C5", "A7 7♥ → C5 on 4♥", note), MoveChoice("R5 C1", "R5 7♣ → C1"))
    menu = menu_of(board_view(make_view(moves=moves)))
    assert menu is not None
    assert [o.description for o in menu.item.options] == [f"⚠ {note}", None]


def test_past_25_moves_the_menu_says_where_the_others_are() -> None:
    menu = menu_of(board_view(make_view(moves=choices(31))))
    assert menu is not None and [o.value for o in menu.item.options] == [
        m.text for m in choices(25)
    ]
    assert menu.item.placeholder == "Play a move… (25 of 31; /reel move has all)"


async def test_a_picked_menu_is_rebuilt_from_its_custom_id_alone() -> None:
    custom_id = "reel:play:555:12"
    match = MoveMenu.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    base = discord.ui.Select[discord.ui.View](custom_id=custom_id)
    rebuilt = await MoveMenu.from_custom_id(cast(discord.Interaction, None), base, match)
    assert (rebuilt.owner, rebuilt.version, rebuilt.custom_id) == (555, 12, custom_id)
    assert parse_custom_id(custom_id) is None  # not a board button's


@pytest.mark.parametrize(
    ("status", "finished"), [(Status.PLAYING, False), (Status.STUCK, False), (Status.WON, True)]
)
def test_components_keep_within_discord_limits(status: Status, finished: bool) -> None:
    view = board_view(
        make_view(status=status, finished=finished, user_id=MAX_SNOWFLAKE, version=10**15)
    )
    rows = view.to_components()
    assert len(rows) == 2  # five, then Hint or New game: Discord allows five buttons a row
    for row in rows:
        assert len(row["components"]) <= 5
        for component in row["components"]:
            assert 1 <= len(component["custom_id"]) <= CUSTOM_ID_LIMIT
            assert len(component["label"]) <= 80
    # The menu clips labels to 100 characters, Discord's limit for an option.
    long = tuple(MoveChoice(text=f"R{i % 8 + 1} A{i // 8 + 1}", label="x" * 150) for i in range(40))
    board = board_view(make_view(user_id=MAX_SNOWFLAKE, version=10**15, moves=long))
    menu = board.to_components()[2]["components"][0]
    assert len(menu["custom_id"]) <= CUSTOM_ID_LIMIT and len(menu["placeholder"]) <= 150
    assert len(menu["options"]) == 25
    assert all(o["label"] == "x" * 99 + "…" for o in menu["options"])


@pytest.mark.parametrize(
    ("changes", "marks"),
    [
        ({"daily_date": date(2026, 11, 29)}, True),
        ({"daily_date": date(2026, 11, 29), "assisted": True}, False),  # marked already
        ({"daily_date": date(2026, 11, 29), "scored": False}, False),  # an unscored replay
        ({}, False),  # not a daily
    ],
)
def test_a_hint_warns_only_when_it_would_newly_mark_a_scored_daily(
    changes: dict[str, object], marks: bool
) -> None:
    assert make_view(**changes).hint_marks_assisted is marks


def test_the_warning_offers_one_button_for_the_same_owner_and_version() -> None:
    [button] = buttons_of(hint_warning_view(make_view(user_id=777, version=31))).values()
    assert parse_custom_id(button.custom_id) == ("hint-yes", 777, 31)
    assert button.item.label == "Show the hint anyway" and not button.item.disabled


# --------------------------------------------------------------- commands


@pytest.fixture
async def reel(tmp_path: Path) -> AsyncIterator[ReelCommands]:
    """The /reel group as a bot has it: its own commands and every feature's, added by the
    bot's extensions (``setup_hook``)."""
    service = await open_service(tmp_path / "reel.db")
    try:
        async with create_bot(service, dev_guild_id=None) as bot:
            await bot.setup_hook()
            group = bot.tree.get_command("reel")
            assert isinstance(group, ReelCommands)
            yield group
    finally:
        await service.close()


def test_one_reel_group_with_every_command(reel: ReelCommands) -> None:
    assert reel.name == "reel"
    names = [c.name for c in reel.commands]
    assert names == [
        "new",
        "daily",
        "show",
        "move",
        "deal",
        "undo",
        "redo",
        "restart",
        "auto",
        "hint",
        "resign",
        "leaderboard",
        "stats",
        "settings",
        "rules",
        "help",
        "race",
        "board",
        "replay",
        "watch",
        "ghost",
    ]
    assert len(names) <= 25


def test_every_command_and_option_has_a_description_within_limits(reel: ReelCommands) -> None:
    assert 1 <= len(reel.description) <= 100
    for command in reel.walk_commands():
        assert isinstance(command, app_commands.Command)
        assert 1 <= len(command.description) <= 100, command.name
        assert command.name.islower() and len(command.name) <= 32
        for param in command.parameters:
            assert 1 <= len(param.description) <= 100, (command.name, param.name)
            assert param.description != "…", (command.name, param.name)


def test_move_options_are_from_and_to_with_autocomplete(reel: ReelCommands) -> None:
    move = reel.get_command("move")
    assert isinstance(move, app_commands.Command)
    params = {p.display_name: p for p in move.parameters}
    assert list(params) == ["from", "to"]
    assert params["from"].required and not params["to"].required
    assert params["from"].autocomplete and params["to"].autocomplete


def test_the_deal_option_is_text_so_every_deal_number_fits(reel: ReelCommands) -> None:
    """Discord's integer options stop at 2**53 - 1; deal numbers go to 2**63 - 1."""
    new = reel.get_command("new")
    assert isinstance(new, app_commands.Command)
    deal, variant = new.parameters
    assert variant.name == "variant"
    assert [c.value for c in variant.choices] == ["vr", "rp", "tu", "bj", "bp"]
    assert deal.type is discord.AppCommandOptionType.string
    assert not deal.required


def test_the_tree_payload_is_accepted_by_discord_py(reel: ReelCommands) -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(reel)
    payload = reel.to_dict(tree)
    assert payload["name"] == "reel"
    assert len(payload["options"]) == 21


def test_help_lists_every_command_with_its_options(reel: ReelCommands) -> None:
    summaries = command_summaries(reel)
    usages = [usage for usage, _ in summaries]
    assert "/reel new [deal] [variant]" in usages
    assert "/reel move from [to]" in usages
    settings = (
        "/reel settings [suits] [auto_aces] [winnable_deals] [watchable] [streak_reminder] [board] "
        "[hints]"
    )
    assert settings in usages
    assert "/reel daily [date] [variant]" in usages
    assert "/reel leaderboard [kind] [scope] [date] [variant]" in usages
    assert "/reel stats [user] [variant]" in usages
    assert "/reel replay [player] [date] [game] [race] [move]" in usages
    assert "/reel watch player" in usages and "/reel ghost [on]" in usages
    assert len(help_embed(summaries)) <= 6000


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("42", 42),
        (" 7 ", 7),
        ("1,000,000", 1_000_000),
        (str(MAX_DEAL), MAX_DEAL),
        ("0" * 25 + "42", 42),
    ],
)
def test_deal_numbers_are_read_from_text(text: str, number: int) -> None:
    assert deal_number_from_text(text) == number


@pytest.mark.parametrize("text", ["", "abc", "-5", "4.2", "1" * 25, "²", "４２"])
def test_bad_deal_text_is_refused_clearly(text: str) -> None:
    with pytest.raises(ValueError, match="whole number") as info:
        deal_number_from_text(text)
    assert str(info.value) == BAD_DEAL


CHOICES = [
    MoveChoice("R6 ACE", "R6 A♠ → Ace pile"),
    MoveChoice("R5 C1", "R5 7♣ → C1 on 4♣"),
    MoveChoice("A7 C5", "A7 7♥ → C5 on 4♥", "leaves a space in row A that no Two can fill yet"),
    MoveChoice("R5 C6", "R5 7♣ → C6 on 4♣"),
    MoveChoice("deal", "Deal (8 more to come)"),
]


def test_from_choices_show_words_and_send_the_move() -> None:
    choices = move_choices(CHOICES)
    assert [(c.name, c.value) for c in choices][:2] == [
        ("R6 A♠ → Ace pile", "R6 ACE"),
        ("R5 7♣ → C1 on 4♣", "R5 C1"),
    ]


def test_a_move_that_leaves_a_space_nothing_can_fill_says_so_in_the_list() -> None:
    [marked] = [c.name for c in move_choices(CHOICES) if c.value == "A7 C5"]
    assert marked == "A7 7♥ → C5 on 4♥ (⚠ leaves a space in row A that no Two can fill yet)"
    [to] = destination_choices(CHOICES, "a7", "")
    assert (to.name, to.value) == (marked, "C5")


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
    """``from`` named a card (7h): the service's matches are offered, as whole moves."""
    offered = [c.value for c in destination_choices(CHOICES, "7h", "")]
    assert offered == ["R6 ACE", "R5 C1", "A7 C5", "R5 C6"]


def test_the_move_is_from_and_to_joined_once() -> None:
    assert move_text("r5", "c1") == "r5 c1"
    assert move_text("R5 C1", None) == "R5 C1"
    assert move_text("R5 C1", "C1") == "R5 C1"  # a whole move, then its destination offered
    assert move_text("R5 C1", "C6") == "R5 C6"  # another destination chosen for the same card
    assert move_text("7h", "R5 C6") == "R5 C6"  # a whole move offered for a card
    assert move_text("7h", " ") == "7h"


# --------------------------------------------------------------- leaderboard paging


def page_of(page: int, page_count: int, **changes: object) -> LeaderboardPage:
    values: dict[str, object] = {
        "kind": "daily",
        "scope": "server",
        "guild_id": 42,
        "day": date(2026, 11, 29),
        "page": page,
        "page_count": page_count,
        "total": page_count * 10,
        "rows": (),
    }
    values.update(changes)
    return LeaderboardPage(**values)  # type: ignore[arg-type]


def paging(view: discord.ui.View) -> dict[str, PageButton]:
    found: dict[str, PageButton] = {}
    for item in view.children:
        assert isinstance(item, PageButton)
        found[item.direction] = item
    return found


@pytest.mark.parametrize(
    "query",
    [
        PageQuery("daily", "server", MAX_SNOWFLAKE, date(2026, 11, 29), 999_999_999),
        PageQuery("all-time", "global", None, None, 0),
        PageQuery("daily", "global", None, date(1, 1, 1), 3),
        PageQuery("all-time", "server", 42, None, 7),
    ],
)
@pytest.mark.parametrize("direction", ["prev", "next"])
def test_a_page_custom_id_round_trips_and_fits(query: PageQuery, direction: str) -> None:
    custom_id = make_page_custom_id(direction, query)  # type: ignore[arg-type]
    assert len(custom_id) <= CUSTOM_ID_LIMIT
    assert parse_page_custom_id(custom_id) == (direction, query)
    assert PageButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert parse_custom_id(custom_id) is None  # never taken for a board button


def test_the_longest_page_custom_id() -> None:
    query = PageQuery("all-time", "server", MAX_SNOWFLAKE, date(9999, 12, 31), 999_999_999)
    assert len(make_page_custom_id("prev", query)) == 68


@pytest.mark.parametrize(
    "custom_id",
    [
        "reel:lb:up:daily:server:1:20261129:0",
        "reel:lb:next:monthly:server:1:20261129:0",
        "reel:lb:next:daily:server:1:2026-11-29:0",
        "reel:lb:next:daily:server:1:20261399:0",  # no such date
        "reel:lb:next:daily:server:1:20261129",
        "reel:deal:1:2",
    ],
)
def test_foreign_page_custom_ids_are_not_ours(custom_id: str) -> None:
    assert parse_page_custom_id(custom_id) is None


async def test_a_page_button_is_rebuilt_from_its_custom_id_alone() -> None:
    query = PageQuery("daily", "server", 42, date(2026, 11, 29), 2)
    custom_id = make_page_custom_id("next", query)
    match = PageButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    base = discord.ui.Button[discord.ui.View](custom_id=custom_id, label="Next ▶")
    rebuilt = await PageButton.from_custom_id(cast(discord.Interaction, None), base, match)
    assert (rebuilt.direction, rebuilt.query) == ("next", query)
    assert rebuilt.custom_id == custom_id


def test_paging_buttons_lead_to_the_pages_either_side() -> None:
    buttons = paging(leaderboard_view(page_of(2, 5)))
    assert list(buttons) == ["prev", "next"]
    assert buttons["prev"].query.page == 1 and buttons["next"].query.page == 3
    assert not buttons["prev"].item.disabled and not buttons["next"].item.disabled
    for button in buttons.values():
        assert button.query.day == date(2026, 11, 29) and button.query.guild_id == 42
    assert buttons["prev"].item.label == "◀ Previous" and buttons["next"].item.label == "Next ▶"


@pytest.mark.parametrize(
    ("page", "page_count", "prev_on", "next_on"),
    [(0, 5, False, True), (4, 5, True, False), (0, 1, False, False), (0, 0, False, False)],
)
def test_paging_buttons_are_disabled_at_the_ends(
    page: int, page_count: int, prev_on: bool, next_on: bool
) -> None:
    view = leaderboard_view(page_of(page, page_count))
    buttons = paging(view)
    assert buttons["prev"].item.disabled == (not prev_on)
    assert buttons["next"].item.disabled == (not next_on)
    assert view.timeout is None and view.is_persistent()
    ids = [b.custom_id for b in buttons.values()]
    assert len(set(ids)) == 2 and all(len(i) <= CUSTOM_ID_LIMIT for i in ids)


def test_an_all_time_global_board_pages_without_guild_or_date() -> None:
    page = page_of(0, 2, kind="all-time", scope="global", guild_id=None, day=None)
    nxt = paging(leaderboard_view(page))["next"]
    assert nxt.custom_id == "reel:lb:next:all-time:global:0:0:1"


# --------------------------------------------------------------- leaderboard options


def test_leaderboard_defaults_daily_today_here_or_global_in_a_dm() -> None:
    assert leaderboard_query(None, None, None, 42) == PageQuery("daily", "server", 42, None, 0)
    assert leaderboard_query(None, None, None, None) == PageQuery("daily", "global", None, None, 0)
    assert leaderboard_query("all-time", "global", None, 42) == PageQuery(
        "all-time", "global", None, None, 0
    )
    assert leaderboard_query("daily", None, date(2026, 11, 28), 42) == PageQuery(
        "daily", "server", 42, date(2026, 11, 28), 0
    )


def test_the_service_checks_what_the_options_ask_for() -> None:
    # A server board in a DM, a date with the all-time board: passed on as asked, for
    # the service to refuse (its one check; the refusals are in test_daily_e2e.py).
    assert leaderboard_query("daily", "server", None, None) == PageQuery(
        "daily", "server", None, None, 0
    )
    assert leaderboard_query("all-time", "server", date(2026, 11, 28), 42) == PageQuery(
        "all-time", "server", 42, date(2026, 11, 28), 0
    )


@pytest.mark.parametrize("text", ["yesterday", "2026-11-31", "29/11/2026", "20261129", "2026-1-9"])
def test_bad_dates_are_refused_clearly(text: str) -> None:
    with pytest.raises(ValueError) as info:
        date_from_text(text)
    assert str(info.value) == BAD_DATE


def test_a_date_is_read() -> None:
    assert date_from_text(" 2026-02-28 ") == date(2026, 2, 28)


def test_leaderboard_options_offer_kinds_and_scopes(reel: ReelCommands) -> None:
    board = reel.get_command("leaderboard")
    assert isinstance(board, app_commands.Command)
    params = {p.display_name: p for p in board.parameters}
    assert list(params) == ["kind", "scope", "date", "variant"]
    assert not any(p.required for p in params.values())
    assert [c.value for c in params["kind"].choices] == ["daily", "weekly", "seasonal", "all-time"]
    assert [c.value for c in params["scope"].choices] == ["server", "global"]


def test_the_bot_pings_nobody_by_default_and_keeps_its_page_size() -> None:
    bot = create_bot(cast(GameService, object()), dev_guild_id=None, leaderboard_page_size=3)
    assert bot.allowed_mentions is not None
    assert dict(bot.allowed_mentions.to_dict()) == {"parse": []}
    assert getattr(bot, "leaderboard_page_size", None) == 3


async def test_a_racers_menu_is_the_same_menu_made_for_the_race() -> None:
    """One menu class for a move choice (issue 60.5): a racer's carries the race in its
    custom_id, as the old race menu did, shows no space warnings, and says less past 25."""
    note = "leaves a space in row A that no Two can fill yet"
    moves = (MoveChoice("A7 C5", "A7 7♥ → C5 on 4♥", note), *choices(30))
    menu = MoveMenu(42, 3, moves, race_id=7)
    assert menu.custom_id == "race:play:7:42:3"
    assert menu.item.placeholder == "Play a move… (/reel move has all)"
    assert len(menu.item.options) == 25 and menu.item.options[0].description is None
    for custom_id, race in (("race:play:7:42:3", 7), ("reel:play:42:3", None)):
        match = MoveMenu.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None
        base = discord.ui.Select[discord.ui.View](custom_id=custom_id)
        rebuilt = await MoveMenu.from_custom_id(cast(discord.Interaction, None), base, match)
        assert (rebuilt.race_id, rebuilt.owner, rebuilt.version) == (race, 42, 3)
        assert rebuilt.custom_id == custom_id
