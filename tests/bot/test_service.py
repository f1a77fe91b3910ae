"""The game service: every call, its errors, recording, restarts, caching and concurrency."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from known_win import WINNING_DEAL, WINNING_LINE

from bot.service import (
    BadInputError,
    Commands,
    CorruptGameError,
    GameService,
    GameView,
    MoveChoice,
    MoveError,
    NoGameError,
    Settings,
    StaleVersionError,
    StorageError,
    undo_target,
)
from bot.store import GameStore, GameUpdate, Store, StoreUnavailableError
from bot.store.open import open_store
from engine import DEAL, Game, Status, parse_move, render
from engine.notation import describe_move

# On deal 1, C2 A♥ -> Ace pile leaves a space in the Fours row that no Four can fill.
WARNING_DEAL, WARNING_MOVE = 1, "C2 ACE"

USER, OTHER = 1001, 2002
GUILD, OTHER_GUILD = 555, 666
SLASH = Commands(new="/reel new", resign="/reel resign")  # as Discord spells them

pytestmark = pytest.mark.backends  # each test on SQLite, then on PostgreSQL


async def finished_rows(store: Store, user_id: int | None = None) -> list[tuple[Any, ...]]:
    """(outcome, won, guild_id, deal_number, score) of the recorded games, oldest first."""
    games = await store.finished_games(user_id)
    return [(g.outcome, int(g.won), g.guild_id, g.deal_number, g.score) for g in games]


async def play_until_stuck(service: GameService, user_id: int, seed: int = 3) -> GameView:
    rng = random.Random(seed)
    view = await service.show(user_id)
    while view.status is Status.PLAYING:
        choices = await service.move_choices(user_id, limit=100)
        view = await service.move(user_id, rng.choice(choices).text, view.version)
    assert view.status is Status.STUCK
    return view


# ---------------------------------------------------------------------- new game and show


async def test_new_game_deals_the_numbered_deal(service: GameService) -> None:
    view = await service.new_game(USER, GUILD, 42)
    game = Game.new(42)
    assert view.board == render(game, True)
    assert (view.user_id, view.guild_id, view.deal_number) == (USER, GUILD, 42)
    assert (view.status, view.score, view.move_count, view.undo_count) == (
        Status.PLAYING, game.score, 0, 0,
    )  # fmt: skip
    assert (view.deals_left, view.version, view.finished) == (9, 1, False)
    assert (view.can_deal, view.can_undo) == (True, False)
    assert view.message == "New game of Virginia Reel: deal 42"
    assert await service.show(USER) == GameView(**{**_fields(view), "message": None})


def _fields(view: GameView) -> dict[str, Any]:
    return {name: getattr(view, name) for name in GameView.__slots__}


async def test_new_game_without_a_number_picks_a_random_deal(store: Store) -> None:
    service = GameService(store, rng=random.Random(99))
    view = await service.new_game(USER, None)
    assert view.deal_number == random.Random(99).randint(1, 999_999_999)


@pytest.mark.parametrize("deal_number", [0, -5, 2**63])
async def test_a_deal_number_out_of_range_is_refused(
    service: GameService, store: Store, deal_number: int
) -> None:
    with pytest.raises(BadInputError, match="does not exist") as caught:
        await service.new_game(USER, GUILD, deal_number)
    assert (
        caught.value.message
        == f"Deal {deal_number} does not exist: deal numbers run from 1 to {2**63 - 1}."
    )
    assert await store.load_game(USER) is None


async def test_calls_without_a_game_say_how_to_start_one(service: GameService) -> None:
    calls: list[Callable[[], Awaitable[object]]] = [
        lambda: service.show(USER),
        lambda: service.move(USER, "r1 ace"),
        lambda: service.deal(USER),
        lambda: service.undo(USER),
        lambda: service.auto(USER),
        lambda: service.resign(USER),
    ]
    for call in calls:
        with pytest.raises(NoGameError) as refused:
            await call()
        assert refused.value.text(SLASH).endswith("Start one with /reel new.")
    assert await service.move_choices(USER) == []


# ---------------------------------------------------------------------- moves


async def test_a_move_is_played_described_and_saved(service: GameService, store: Store) -> None:
    await service.new_game(USER, GUILD, 28)
    view = await service.move(USER, "r6 ace", expected_version=1)
    assert view.message == "R6 A♥ → Ace pile"
    assert (view.move_count, view.version, view.score, view.can_undo) == (1, 2, 5, True)
    row = await store.load_game(USER)
    assert row is not None and (row.moves, row.version, row.status) == ("R6 ACE", 2, "playing")


async def test_listeners_hear_of_each_stored_change_and_of_no_refusal(
    service: GameService,
) -> None:
    heard: list[tuple[int, int]] = []
    service.on_change(lambda user, version: heard.append((user, version)))

    def broken(user: int, version: int) -> None:
        raise RuntimeError("a listener's own bug")

    service.on_change(broken)  # logged; the move is not the worse for it
    await service.new_game(USER, GUILD, 28)
    await service.move(USER, "r6 ace")
    with pytest.raises(MoveError):
        await service.move(USER, "r1 ace")  # refused: nothing stored, nothing heard
    await service.undo(USER)
    await service.show(USER)  # a read changes nothing
    assert heard == [(USER, 1), (USER, 2), (USER, 3)]


async def test_bad_move_text_is_refused_with_the_engines_reason(service: GameService) -> None:
    start = await service.new_game(USER, GUILD, 28)
    cases = {
        "zz top": "I don't know 'zz'",
        "r1 ace": "^Only Aces go to the Ace pile, and 9♥ is not an Ace\\.$",
        "": "^Type a move",
        "x" * 500: "too long",
    }
    for text, reason in cases.items():
        with pytest.raises(MoveError, match=reason) as caught:
            await service.move(USER, text)
        assert caught.value.message == str(caught.value)
    after = await service.show(USER)
    assert (after.version, after.move_count, after.board) == (1, 0, start.board)


async def test_deal_and_its_refusal(service: GameService) -> None:
    await service.new_game(USER, GUILD, WARNING_DEAL)
    view = await service.deal(USER)
    assert (view.deals_left, view.message) == (8, "Deal (8 more to come)")
    opened = await service.move(USER, WARNING_MOVE)
    assert not opened.can_deal
    with pytest.raises(MoveError, match=r"^Can't deal: the Fours row"):
        await service.deal(USER)
    assert (await service.show(USER)).version == opened.version


async def test_a_move_that_opens_an_unfillable_space_carries_the_warning(
    service: GameService,
) -> None:
    await service.new_game(USER, GUILD, WARNING_DEAL)
    game = Game.new(WARNING_DEAL)
    expected = game.space_warning(parse_move(game, WARNING_MOVE))
    assert expected is not None
    view = await service.move(USER, WARNING_MOVE)
    assert view.warning == expected.message
    assert (await service.show(USER)).warning is None
    # A move out of the reserve opens no space.
    assert (await service.undo(USER)).warning is None


async def test_undo_takes_back_the_last_move(service: GameService, store: Store) -> None:
    start = await service.new_game(USER, GUILD, 28)
    with pytest.raises(MoveError, match="nothing to undo"):
        await service.undo(USER)
    await service.move(USER, "r6 ace")
    view = await service.undo(USER)
    assert view.message == "Undid R6 A♥ → Ace pile"
    assert (view.board, view.move_count, view.undo_count, view.version) == (start.board, 0, 1, 3)
    row = await store.load_game(USER)
    assert row is not None and (row.moves, row.undo_count) == ("", 1)


async def test_undo_to_goes_back_several_moves_at_once(service: GameService, store: Store) -> None:
    await service.update_settings(USER, auto_aces=True)
    start = await service.new_game(USER, GUILD, 1)  # R6 A♥ goes up at the deal
    dealt = await service.deal(USER)  # and two Aces with the deal: moves 1 to 3
    assert dealt.move_count == 4
    await service.move(USER, (await service.move_choices(USER, limit=1))[0].text)
    view = await service.move(USER, (await service.move_choices(USER, limit=1))[0].text)
    count, version = view.move_count, view.version
    for bad, reason in [
        (count, "undo can only go back to an earlier move"),
        (-1, "undo can only go back to an earlier move"),
        (2, "Undo can't stop at move 2: that is an Ace played automatically"),
        (0, "Undo can't stop at move 0"),  # the Ace of the deal, before any move
    ]:
        with pytest.raises(MoveError, match=reason):
            await service.undo_to(USER, bad, version)
    assert (await service.show(USER)).version == version  # refused: nothing changed
    back = await service.undo_to(USER, 4, version)
    assert (back.board, back.move_count) == (dealt.board, 4)
    assert back.message == "Back at move 4: took back 2 moves"
    assert (back.undo_count, back.version) == (2, version + 1)  # two undos, one save
    row = await store.load_game(USER)
    assert row is not None and row.moves == "+R6 ACE;deal;+R7 ACE;+R8 ACE"
    again = await service.undo_to(USER, 1, back.version)
    # the deal and the two Aces after it: three moves on the board, one for undo
    assert again.message == (
        "Back at the start: took back 1 move and the 2 Aces played automatically after it"
    )
    assert again.board == start.board and not again.can_undo
    with pytest.raises(StaleVersionError):
        await service.undo_to(USER, 1, back.version)


async def test_auto_plays_reserve_aces_and_undo_takes_them_back_together(
    service: GameService,
) -> None:
    start = await service.new_game(USER, GUILD, 28)
    assert start.can_auto
    view = await service.auto(USER)
    assert view.message == "Auto: R6 A♥ → Ace pile"
    assert not view.can_auto
    # B5 holds an Ace, which auto leaves alone: it says so, and why
    with pytest.raises(MoveError, match="no safe move") as refused:
        await service.auto(USER)
    assert "the Ace on B5 is not played by itself: moving it opens a space in row B" in str(
        refused.value
    )
    assert "(play it yourself: B5 ACE)" in str(refused.value)
    assert (await service.undo(USER)).board == start.board


async def test_the_auto_aces_setting_plays_aces_after_a_move_and_a_deal(
    service: GameService, store: Store
) -> None:
    await service.update_settings(USER, auto_aces=True)
    start = await service.new_game(USER, GUILD, 28)
    assert start.move_count == 1 and not start.can_auto  # R6 A♥ went up at once
    # and it says so
    assert start.message == "New game of Virginia Reel: deal 28 · 1 Ace to the Ace pile"
    assert not start.can_undo  # automatic moves at the deal are not a command to undo
    view = await service.move(USER, "b5 ace")
    assert view.message == "B5 A♥ → Ace pile"
    row = await store.load_game(USER)
    assert row is not None and row.moves == "+R6 ACE;B5 ACE"
    # Deal 1: the first deal uncovers two reserve Aces, and they go up with it.
    before_deal = await service.new_game(USER, GUILD, 1)
    view = await service.deal(USER)
    assert view.message == "Deal (8 more to come) · then 2 Aces to the Ace pile"
    row = await store.load_game(USER)
    assert row is not None and row.moves == "+R6 ACE;deal;+R7 ACE;+R8 ACE"
    game = Game.new(1)
    game.play_safe_moves()
    game.play(DEAL)
    game.play_safe_moves()
    assert view.board == render(game)
    undone = await service.undo(USER)  # the deal and its Aces go back together
    assert (undone.board, undone.message) == (
        before_deal.board,
        "Undid Deal (8 more to come) and the 2 Aces played automatically after it",
    )


async def test_move_choices_list_legal_moves_best_first_and_filter(service: GameService) -> None:
    await service.new_game(USER, GUILD, 28)
    game = Game.new(28)
    choices = await service.move_choices(USER, limit=100)
    assert [c.text for c in choices] == [str(m) for m in game.legal_moves()]
    assert choices[0] == MoveChoice("R6 ACE", "R6 A♥ → Ace pile")
    assert choices[-1] == MoveChoice("deal", "Deal (8 more to come)")
    assert all(len(c.text) <= 100 and len(c.label) <= 100 for c in choices)
    aces = await service.move_choices(USER, "ACE PILE")
    assert aces and all(c.text.endswith("ACE") for c in aces)
    assert [c.text for c in await service.move_choices(USER, "r6ace")] == ["R6 ACE"]
    assert len(await service.move_choices(USER, limit=2)) == 2
    assert await service.move_choices(USER, "nothing like this") == []
    assert await service.move_choices(USER, limit=0) == []


async def test_a_view_in_play_lists_the_moves_but_the_deal(service: GameService) -> None:
    view = await service.new_game(USER, GUILD, 28)
    game = Game.new(28)
    listed = list(view.moves)
    assert listed == [c for c in await service.move_choices(USER, limit=100) if c.text != "deal"]
    assert [c.text for c in listed] == [str(m) for m in game.legal_moves() if not m.is_deal]
    await service.update_settings(USER, symbols=False)  # the labels follow the suit setting
    shown = await service.show(USER)
    assert shown.moves[0] == MoveChoice("R6 ACE", "R6 AH → Ace pile")
    over = await service.resign(USER)
    assert over.finished and over.moves == ()


async def test_a_move_that_opens_a_space_nothing_can_fill_says_so_in_the_list(
    service: GameService,
) -> None:
    # Deal 1: the 7♥ on A7 can go onto the 4♥, but no Two is available for its space.
    view = await service.new_game(USER, GUILD, 1)
    notes = {c.text: c.note for c in view.moves}
    assert notes["A7 C5"] == "leaves a space in row A that no Two can fill yet"
    assert notes["R5 C1"] is None  # from the reserve: no space
    listed = {c.text: c.note for c in await service.move_choices(USER, limit=100)}
    assert listed["A7 C5"] == notes["A7 C5"]
    played = await service.move(USER, "A7 C5")
    assert played.warning is not None and "Row A has a space" in played.warning


async def test_move_choices_find_a_card_typed_with_a_letter_for_its_suit(
    service: GameService,
) -> None:
    # "5h" is how the move option's own description says to type a card.
    await service.new_game(USER, GUILD, 9)
    game = Game.new(9)
    fives = [m for m in game.legal_moves() if "5♥" in describe_move(game, m)]
    assert fives
    for typed in ("5h", "5H", "5♥"):
        found = await service.move_choices(USER, typed, 100)
        assert [c.text for c in found] == [str(m) for m in fives], typed
    await service.update_settings(USER, symbols=False)  # letters on the board: "5♥" still finds
    assert [c.text for c in await service.move_choices(USER, "5♥", 100)] == [str(m) for m in fives]


async def test_settings_change_only_what_is_given_and_persist(
    service: GameService, store: Store
) -> None:
    first = await service.get_settings(USER)
    assert (first.watchable, first.reminders) == (True, False)  # a new player's
    saved = await service.update_settings(USER, watchable=False, reminders=True)
    assert saved == replace(first, watchable=False, reminders=True)
    again = await service.update_settings(USER, symbols=False, picture=True)
    assert (again.symbols, again.watchable, again.reminders) == (False, False, True)
    assert again.picture and not first.picture  # text boards unless asked for
    fresh = GameService(store)  # nothing in memory: read back from the database
    assert await fresh.get_settings(USER) == again


async def test_letters_setting_renders_suits_as_letters(service: GameService) -> None:
    plain = Settings(True, False, False, fair_hints=False)  # conftest's plain new player
    assert await service.get_settings(USER) == plain
    assert await service.update_settings(USER, symbols=False) == replace(plain, symbols=False)
    assert await service.update_settings(USER, auto_aces=True) == replace(
        plain, symbols=False, auto_aces=True
    )
    view = await service.new_game(USER, GUILD, 28)
    game = Game.new(28)
    game.play_safe_moves()
    assert view.board == render(game, symbols=False)
    assert "♦" not in view.board and "D" in view.board
    choices = await service.move_choices(USER)
    assert "B5 AH → Ace pile" in [c.label for c in choices]


# ---------------------------------------------------------------------- versions and staleness


async def test_a_stale_version_is_refused_and_applies_nothing(service: GameService) -> None:
    await service.new_game(USER, GUILD, 28)
    await service.move(USER, "r6 ace", expected_version=1)
    before = await service.show(USER)
    stale_calls: list[Callable[[], Awaitable[object]]] = [
        lambda: service.move(USER, "b5 ace", expected_version=1),
        lambda: service.deal(USER, expected_version=1),
        lambda: service.undo(USER, expected_version=1),
        lambda: service.auto(USER, expected_version=1),
        lambda: service.resign(USER, expected_version=1),
    ]
    for call in stale_calls:
        with pytest.raises(StaleVersionError, match="out of date"):
            await call()
    assert await service.show(USER) == before


async def test_two_identical_clicks_at_once_play_one_move(service: GameService) -> None:
    view = await service.new_game(USER, GUILD, 28)
    results = await asyncio.gather(
        service.move(USER, "r6 ace", view.version),
        service.move(USER, "r6 ace", view.version),
        return_exceptions=True,
    )
    played = [r for r in results if isinstance(r, GameView)]
    refused = [r for r in results if isinstance(r, StaleVersionError)]
    assert len(played) == 1 and len(refused) == 1
    assert (await service.show(USER)).move_count == 1


async def test_versions_keep_rising_across_games(service: GameService) -> None:
    first = await service.new_game(USER, GUILD, 28)
    moved = await service.move(USER, "r6 ace")
    second = await service.new_game(USER, GUILD, 29)
    assert first.version < moved.version < second.version
    # A button from the old game's board carries an old version: refused.
    with pytest.raises(StaleVersionError):
        await service.move(USER, "deal", expected_version=moved.version)


# ---------------------------------------------------------------------- recording finished games


async def test_one_game_per_user_across_servers_and_abandoned_credited_where_started(
    service: GameService, store: Store
) -> None:
    await service.new_game(USER, GUILD, 28)
    await service.move(USER, "r6 ace")
    view = await service.new_game(USER, OTHER_GUILD, 30)
    assert view.message == "New game of Virginia Reel: deal 30 (deal 28 recorded as abandoned)"
    assert view.guild_id == OTHER_GUILD
    assert await finished_rows(store, USER) == [("abandoned", 0, GUILD, 28, 5)]
    await service.deal(USER)
    await service.new_game(USER, None, 31)  # from a DM
    await service.deal(USER)
    await service.new_game(USER, GUILD, 32)
    assert [r[:3] for r in await finished_rows(store, USER)] == [
        ("abandoned", 0, GUILD),
        ("abandoned", 0, OTHER_GUILD),
        ("abandoned", 0, None),
    ]
    assert (await service.show(USER)).deal_number == 32


async def test_resign_records_the_game_once(service: GameService, store: Store) -> None:
    await service.new_game(USER, GUILD, 28)
    await service.move(USER, "r6 ace")
    view = await service.resign(USER)
    assert view.finished and view.version == 3
    assert view.message == "You resigned deal 28 with 5/104 cards home."
    assert not (view.can_deal or view.can_undo or view.can_auto)
    assert (await service.show(USER)).finished
    for call in (service.resign, service.undo, service.deal):
        with pytest.raises(NoGameError, match="is over"):
            await call(USER)
    assert await service.move_choices(USER) == []
    await service.new_game(USER, GUILD, 29)  # a finished game is not recorded again
    assert await finished_rows(store) == [("resigned", 0, GUILD, 28, 5)]


async def test_a_stuck_game_stays_current_until_the_player_decides(
    service: GameService, store: Store
) -> None:
    await service.new_game(USER, GUILD, 15)
    stuck = await play_until_stuck(service, USER)
    assert not stuck.finished and stuck.can_undo and not stuck.can_deal
    assert await finished_rows(store) == []
    assert (await service.show(USER)).status is Status.STUCK
    undone = await service.undo(USER)  # undo is still allowed
    assert undone.status is Status.PLAYING
    await play_until_stuck(service, USER)
    await service.new_game(USER, GUILD, 16)  # a stuck game replaced is a loss
    assert [r[:2] for r in await finished_rows(store)] == [("lost", 0)]
    await play_until_stuck(service, USER)
    await service.resign(USER)
    assert [r[:2] for r in await finished_rows(store)] == [("lost", 0), ("resigned", 0)]


def test_the_winning_line_wins_on_the_engine() -> None:
    game = Game.new(WINNING_DEAL)
    for text in WINNING_LINE:
        game.play(parse_move(game, text))
    assert game.status is Status.WON


async def test_a_won_game_is_recorded_once_as_won(
    service: GameService, store: Store, clock: Any
) -> None:
    await service.new_game(USER, GUILD, WINNING_DEAL)
    view = await service.show(USER)
    for text in WINNING_LINE:
        assert not view.finished
        view = await service.move(USER, text, view.version)
    assert (view.status, view.finished, view.score) == (Status.WON, True, 104)
    assert view.message is not None and view.message.endswith("You won deal 28!")
    assert "Won!" in view.board
    assert await finished_rows(store) == [("won", 1, GUILD, WINNING_DEAL, 104)]
    [record] = await store.finished_games(USER)
    assert record.moves == ";".join(WINNING_LINE)
    assert record.duration_s > 0 and record.undos == 0
    with pytest.raises(NoGameError, match=r"is over \(won\)"):
        await service.undo(USER)
    await service.new_game(USER, GUILD, 5)
    assert len(await finished_rows(store)) == 1


# ---------------------------------------------------------------------- restart and cache


async def test_everything_survives_a_restart(db_target: str, clock: Any) -> None:
    service = GameService(await open_store(db_target), clock=clock)
    await service.update_settings(USER, symbols=False, auto_aces=False)
    await service.new_game(USER, GUILD, 28)
    await service.move(USER, "r6 ace")
    await service.move(USER, "b5 ace")
    await service.undo(USER)
    before = await service.show(USER)
    await service.new_game(OTHER, None, 29)
    await service.resign(OTHER)
    await service.close()

    service = GameService(await open_store(db_target), clock=clock)
    try:
        assert await service.show(USER) == before
        assert await service.get_settings(USER) == Settings(False, False, False, fair_hints=False)
        assert (await service.show(OTHER)).finished
        assert (await service.move(USER, "b5 ace", before.version)).move_count == 2
    finally:
        await service.close()


async def test_games_evicted_from_the_cache_are_rebuilt_from_disk(
    store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = GameService(store, cache_size=1, clock=clock)
    loads: list[int] = []
    load_game = store.load_game

    async def counting_load(user_id: int) -> Any:
        loads.append(user_id)
        return await load_game(user_id)

    monkeypatch.setattr(store, "load_game", counting_load)
    await small.new_game(USER, GUILD, 28)
    await small.new_game(OTHER, GUILD, 29)
    a = await small.move(USER, "r6 ace")
    b = await small.move(OTHER, "deal")
    a = await small.move(USER, "b5 ace", a.version)
    assert loads.count(USER) >= 2  # USER's game was rebuilt after OTHER's pushed it out
    game = Game.new(28)
    for text in ("r6 ace", "b5 ace"):
        game.play(parse_move(game, text))
    assert a.board == render(game)
    assert b.move_count == 1


async def test_a_failed_write_leaves_memory_as_on_disk(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    start = await service.new_game(USER, GUILD, 28)

    async def broken_save(update: GameUpdate, finished: object = None) -> bool:
        raise StoreUnavailableError("disk I/O error")

    monkeypatch.setattr(store, "save_game", broken_save)
    with caplog.at_level(logging.ERROR), pytest.raises(StorageError, match="couldn't be saved"):
        await service.move(USER, "r6 ace")
    assert "disk I/O error" in caplog.text
    monkeypatch.undo()
    assert await service.show(USER) == GameView(**{**_fields(start), "message": None})


async def test_locks_do_not_pile_up(service: GameService) -> None:
    for user_id in range(50):
        await service.new_game(user_id, None, 1 + user_id)
    gc.collect()
    assert len(service.locks) == 0


# ---------------------------------------------------------------------- corrupt rows

CORRUPT_ROWS = {
    "unparseable moves": ("vr", 28, "R9 Z1;??", "playing", 3),
    "an illegal move": ("vr", 28, "R6 ACE;R1 ACE", "playing", 3),
    "an unknown variant": ("zz", 28, "", "playing", 3),
    "a deal out of range": ("vr", 0, "", "playing", 3),
    "a version of the wrong type": ("vr", 28, "", "playing", "three"),
    "an unknown status": ("vr", 28, "", "paused", 3),
    "a win that isn't one": ("vr", 28, "R6 ACE", "won", 3),
}


@pytest.mark.sqlite_only  # values of the wrong type: PostgreSQL's typed columns refuse them
@pytest.mark.parametrize("row", list(CORRUPT_ROWS.values()), ids=list(CORRUPT_ROWS))
async def test_a_corrupt_row_is_logged_and_a_new_game_replaces_it(
    service: GameService, store: Store, caplog: Any, row: tuple[object, ...]
) -> None:
    variant, deal_number, moves, status, version = row
    await store.connection.execute(
        "INSERT INTO current_games (user_id, guild_id, variant, deal_number, moves, status, "
        "version, undo_count, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (USER, GUILD, variant, deal_number, moves, status, version,
         "2025-03-01T12:00:00+00:00", "2025-03-01T12:00:00+00:00"),
    )  # fmt: skip
    with caplog.at_level(logging.ERROR):
        for call in (service.show, service.undo, service.move_choices):
            with pytest.raises(CorruptGameError) as refused:
                await call(USER)
            assert refused.value.text(SLASH).endswith("Start a new game with /reel new.")
    assert "unreadable" in caplog.text
    view = await service.new_game(USER, GUILD, 30)
    assert view.deal_number == 30 and not view.finished
    assert await service.show(USER) == GameView(**{**_fields(view), "message": None})
    assert await finished_rows(store) == []


# ---------------------------------------------------------------------- concurrency


async def test_a_slow_write_for_one_user_does_not_hold_up_another(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.new_game(USER, GUILD, 28)
    await service.new_game(OTHER, GUILD, 29)
    entered, release = asyncio.Event(), asyncio.Event()
    save_game = store.save_game

    async def slow_for_user(update: GameUpdate, finished: Any = None) -> bool:
        if update.user_id == USER:
            entered.set()
            await release.wait()
        return await save_game(update, finished)

    monkeypatch.setattr(store, "save_game", slow_for_user)
    slow = asyncio.create_task(service.move(USER, "r6 ace"))
    await entered.wait()
    # USER's write is stalled; OTHER plays two moves meanwhile.
    await service.move(OTHER, "deal")
    other = await service.move(OTHER, "deal")
    assert other.move_count == 2
    # USER's own next call waits for the first to finish (same-user calls are serialized).
    shown = asyncio.create_task(service.show(USER))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not slow.done() and not shown.done()
    release.set()
    moved = await slow
    assert (await shown) == GameView(**{**_fields(moved), "message": None, "warning": None})


async def test_a_new_game_from_an_old_board_does_not_replace_a_newer_game(
    service: GameService, store: Store
) -> None:
    first = await service.new_game(USER, GUILD, 5)
    over = await service.resign(USER)
    # From the finished board: a new game, whatever its version.
    second = await service.new_game(USER, GUILD, 6, replaces_version=over.version)
    # The same board again: the game in progress is newer than it, so nothing happens.
    with pytest.raises(StaleVersionError, match="newer game in progress"):
        await service.new_game(USER, GUILD, 7, replaces_version=over.version)
    assert (await service.show(USER)).deal_number == 6
    # From that game's own board: it is replaced, and recorded as abandoned.
    played = await service.deal(USER)
    third = await service.new_game(USER, GUILD, 8, replaces_version=played.version)
    assert third.deal_number == 8 and third.message is not None
    assert "recorded as abandoned" in third.message
    assert [r[0] for r in await finished_rows(store, USER)] == ["resigned", "abandoned"]
    assert first.version < over.version < second.version < played.version < third.version


async def test_a_game_never_played_is_not_recorded_when_replaced(
    service: GameService, store: Store
) -> None:
    # Deals looked at and passed over are not games played and lost.
    await service.new_game(USER, GUILD, 28)
    passed = await service.new_game(USER, GUILD, 30)
    assert passed.message == "New game of Virginia Reel: deal 30"
    await service.update_settings(USER, auto_aces=True)  # Aces played for her at the deal
    auto = await service.new_game(USER, GUILD, 28)
    assert auto.move_count > 0
    await service.new_game(USER, GUILD, 29)
    assert await finished_rows(store, USER) == []
    # A move, or a move taken back, makes it a game.
    await service.deal(USER)
    await service.undo(USER)
    left = await service.new_game(USER, GUILD, 31)
    assert left.message == "New game of Virginia Reel: deal 31 (deal 29 recorded as abandoned)"
    assert [r[:4] for r in await finished_rows(store, USER)] == [("abandoned", 0, GUILD, 29)]


@pytest.mark.parametrize(
    ("chained", "winnable", "target"),
    [
        ([False, False, False], 1, 1),  # a command starts there
        ([False, True, True, False], 1, 3),  # between a move and its Aces: after them
        ([True, True, False, False], 0, 2),  # before the Aces played at the deal
        ([False, False, True, True], 2, 1),  # the Aces run to the end: the move's start
        ([True, True], 0, None),  # nothing undo can reach
    ],
)
def test_undo_target_is_where_undo_stops(
    chained: list[bool], winnable: int, target: int | None
) -> None:
    assert undo_target(chained, winnable) == target


async def test_stats_say_whether_this_deal_was_won_before(service: GameService) -> None:
    assert (await service.stats(USER)).deal_number is None  # no game: no deal to speak of
    await service.new_game(USER, GUILD, WINNING_DEAL)
    fresh = await service.stats(USER)
    assert (fresh.deal_number, fresh.deal_games, fresh.deal_wins) == (WINNING_DEAL, 0, 0)
    for move in WINNING_LINE:
        await service.move(USER, move)
    await service.new_game(USER, GUILD, WINNING_DEAL)
    await service.move(USER, WINNING_LINE[0])
    await service.resign(USER)
    await service.new_game(USER, GUILD, WINNING_DEAL)
    again = await service.stats(USER)
    assert (again.deal_number, again.deal_games, again.deal_wins) == (WINNING_DEAL, 2, 1)
    await service.new_game(USER, GUILD, WINNING_DEAL + 1)
    other = await service.stats(USER)
    assert (other.deal_number, other.deal_games, other.deal_wins) == (WINNING_DEAL + 1, 0, 0)
    assert other.games == 2 and other.wins == 1


class StillClock:
    """A clock that stands where the test puts it."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_the_clock_counts_each_pause_up_to_three_minutes(store: GameStore) -> None:
    clock = StillClock()
    service = GameService(store, clock=clock, new_player=Settings(winnable=False))
    await service.new_game(USER, GUILD, 28)
    clock.now += timedelta(seconds=40)
    played = await service.move(USER, (await service.move_choices(USER, limit=1))[0].text)
    assert played.elapsed_s == 40
    clock.now += timedelta(hours=2)  # away from the game: counted as three minutes
    assert (await service.show(USER)).elapsed_s == 40 + 180
    clock.now += timedelta(seconds=5)  # the pause is still three minutes
    assert (await service.show(USER)).elapsed_s == 40 + 180
    # a restart of the service reads the clock back as it was saved
    again = GameService(store, clock=clock, new_player=Settings(winnable=False))
    assert (await again.show(USER)).elapsed_s == 40 + 180
    over = await again.resign(USER)
    assert over.elapsed_s is None
    [record] = await store.finished_games(USER)
    assert record.duration_s == 40 + 180


async def test_a_front_end_closed_and_opened_again_does_not_count_the_time_between(
    store: GameStore,
) -> None:
    clock = StillClock()
    service = GameService(store, clock=clock, new_player=Settings(winnable=False))
    await service.new_game(USER, GUILD, 28)
    clock.now += timedelta(minutes=2)
    await service.move(USER, (await service.move_choices(USER, limit=1))[0].text)
    clock.now += timedelta(minutes=1, seconds=49)
    await service.pause(USER)  # closed at 3:49
    clock.now += timedelta(seconds=22)
    reopened = GameService(store, clock=clock, new_player=Settings(winnable=False))
    assert (await reopened.show(USER, reopened=True)).elapsed_s == 3 * 60 + 49
    clock.now += timedelta(seconds=11)
    assert (await reopened.show(USER)).elapsed_s == 4 * 60  # open again: counting
