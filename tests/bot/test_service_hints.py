"""Hints through the service: the solver in a process pool, off the event loop; the game
and its daily result marked assisted."""

from __future__ import annotations

import asyncio
import io
import random
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hung_jobs import Never

import bot.service.hints as hints_module
import bot.service.jobs as jobs_module
import bot.service.movelist as movelist_module
from bot.service import (
    GameService,
    HintUnavailableError,
    NoGameError,
    StaleVersionError,
)
from bot.service.pool import SolverPool
from bot.store import Store
from bot.terminal import TerminalGame
from engine import Game, Status, parse_position
from engine.notation import describe_move, format_position
from engine.solver import Verdict, solve
from engine.solver.blind import blind_choice
from engine.solver.hints import Hint, LookBack, heuristic_move, hint

T = TypeVar("T")
USER, OTHER = 11, 12
GUILD = 555
WINNABLE_DEAL = 16
# Both 8♠ lie under a J♠ that needs an 8♠ first (tests/engine/test_solver.py): lost, though
# the hearts and an Ace can still move.
LOST_POSITION = (
    "vr 2S5S,2H5H8HJH,2D5D8DJD,2C5C8CJC,2S5S,2H5H,2D5D8DJD,2C5C8CJC "
    "3S6S9SQS,3H6H9HQH,3D6D9DQD,3C6C9CQC,3S6S9SQS,3H6H9HQH,3D6D9DQD,3C6C9CQC "
    "4S7STSKS,4H7HTHKH,4D7DTDKD,4C7CTCKC,4S7STSKS,4H7HTHKH,4D7DTDKD,4C7CTCKC "
    "8SJS,JH8H,8SJS,-,-,-,-,- - 8"
)


def lost_deal(deal_number: int, variant: Any) -> Game:
    """A stand-in for ``new_deal``: every deal is the lost position."""
    game = parse_position(LOST_POSITION)
    game.deal_number = deal_number
    return game


@pytest.fixture
async def pooled(store: Store, clock: Any) -> AsyncIterator[GameService]:
    """A service with the real process pool, two workers."""
    service = GameService(store, clock=clock, rng=random.Random(7), solver_workers=2)
    yield service
    await service.close()


async def test_a_hint_from_the_solver_continues_a_winning_line(
    pooled: GameService, db_path: Path
) -> None:
    start = await pooled.new_game(USER, GUILD, WINNABLE_DEAL)
    assert start.assisted is False
    answer = await pooled.hint(USER, start.version)
    assert answer.source == "solver" and answer.move is not None
    assert answer.remaining is not None and answer.remaining > 90
    game = Game.new(WINNABLE_DEAL)
    move = next(m for m in game.legal_moves() if str(m) == answer.move)
    assert answer.label == describe_move(game, move)
    assert answer.message.startswith(f"Try {answer.label}: it starts a winning line")
    assert "assisted" not in answer.message  # not a daily
    # Nothing played, the version unchanged (the board's buttons stay valid), marked assisted.
    assert answer.game.move_count == 0 and answer.game.version == start.version
    assert answer.game.assisted and answer.newly_assisted
    played = await pooled.move(USER, answer.move, start.version)
    assert played.assisted and played.move_count == 1
    # Hint after hint keeps on a winning line, each no longer than the last.
    left = answer.remaining
    for _ in range(3):
        answer = await pooled.hint(USER, played.version)
        assert answer.source == "solver" and not answer.newly_assisted
        assert answer.remaining is not None and answer.remaining <= left - 1
        left = answer.remaining
        assert answer.move is not None
        played = await pooled.move(USER, answer.move, played.version)
    # The mark is stored: a fresh service on the same file sees it, and the record keeps it.
    async with Store(db_path) as other_store:
        fresh = GameService(other_store)
        assert (await fresh.show(USER)).assisted
        over = await fresh.resign(USER)
        assert over.assisted
        [record] = await other_store.finished_games(USER)
        assert record.assisted


async def test_a_daily_with_a_hint_is_marked_assisted_on_the_leaderboard(
    pooled: GameService,
) -> None:
    await pooled.daily(USER, GUILD)
    await pooled.daily(OTHER, GUILD)
    answer = await pooled.hint(USER)
    assert answer.message.endswith("This daily is now marked as assisted on the leaderboard.")
    assert answer.game.daily_date is not None and answer.game.assisted
    mine, theirs = await pooled.resign(USER), await pooled.resign(OTHER)
    assert mine.share_text is not None and mine.share_text.endswith(", with a hint")
    assert theirs.share_text is not None and "hint" not in theirs.share_text
    board = await pooled.leaderboard("daily", "server", GUILD)
    assert {row.user_id: row.assisted for row in board.rows} == {USER: True, OTHER: False}
    everyone = await pooled.leaderboard("all-time", "global")
    assert all(row.assisted is False for row in everyone.rows)


async def test_a_lost_position_says_no_winning_line_exists(
    pooled: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(movelist_module, "new_deal", lost_deal)
    await pooled.new_game(USER, GUILD, 5)
    answer = await pooled.hint(USER)
    assert answer.source == "lost" and answer.remaining is None
    # Nothing played yet: it is the deal that can't be won.
    assert answer.message.startswith(
        "No winning line exists: this deal can't be won, whatever you play."
    )
    assert answer.move is not None and f"To get more cards home, try {answer.label}." in (
        answer.message
    )
    assert (await pooled.move(USER, answer.move)).move_count == 1  # the move is legal


async def test_the_look_back_runs_in_the_process_pool(pooled: GameService) -> None:
    view = await pooled.new_game(USER, GUILD, WINNABLE_DEAL)
    view = await pooled.move(USER, "C3 ACE", view.version)  # lost at once (below)
    answer = await pooled.hint(USER, view.version)
    assert (answer.source, answer.winnable_at) == ("lost", 0)  # the game went to a worker


async def test_a_stuck_game_is_lost_with_no_move_and_undo_is_suggested(
    pooled: GameService,
) -> None:
    await pooled.new_game(USER, GUILD, 15)
    rng = random.Random(3)
    view = await pooled.show(USER)
    while view.status is Status.PLAYING:
        choices = await pooled.move_choices(USER, limit=100)
        view = await pooled.move(USER, rng.choice(choices).text, view.version)
    answer = await pooled.hint(USER)
    assert (answer.source, answer.move, answer.label) == ("lost", None, None)
    # how far back it could still be won, if the look back found it within its second;
    # or that the deal itself is lost, if it proved that
    if answer.message.startswith("No winning line exists: this deal can't be won"):
        assert solve(Game.new(15), max_seconds=60).verdict is Verdict.UNWINNABLE
        assert answer.winnable_at is None
    else:
        assert "Undo may take you back" in answer.message or (
            answer.winnable_at is not None
            and f"It still could be at move {answer.winnable_at}: undo back" in answer.message
        )


async def test_no_game_and_a_stale_board_are_refused_and_mark_nothing(
    pooled: GameService,
) -> None:
    with pytest.raises(NoGameError):
        await pooled.hint(USER)
    view = await pooled.new_game(USER, GUILD, WINNABLE_DEAL)
    with pytest.raises(StaleVersionError, match="no hint was given and nothing was marked"):
        await pooled.hint(USER, view.version - 1)
    assert (await pooled.show(USER)).assisted is False
    await pooled.resign(USER)
    with pytest.raises(NoGameError, match="is over"):
        await pooled.hint(USER)


# ---------------------------------------------------------------------- off the event loop


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The solver's hint job held until the test releases it (``started``, ``release``);
    released at the end whatever happens, so that no thread is left waiting."""
    started, release = threading.Event(), threading.Event()
    real_job = jobs_module.hint_job

    def held_job(position: str, max_nodes: int, max_seconds: float) -> Hint:
        started.set()
        release.wait()
        return real_job(position, max_nodes, max_seconds)

    monkeypatch.setattr(jobs_module, "hint_job", held_job)
    yield started, release
    release.set()


async def test_other_players_are_served_while_a_hint_is_computed(
    store: Store, clock: Any, held: tuple[threading.Event, threading.Event]
) -> None:
    started, release = held
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    try:
        await service.new_game(USER, GUILD, WINNABLE_DEAL)
        other = await service.new_game(OTHER, GUILD, 28)
        pending = asyncio.create_task(service.hint(USER))
        await asyncio.to_thread(started.wait)  # the job is running in the executor now
        # The loop is free: another player is shown a board and plays a move meanwhile.
        shown = await service.show(OTHER)
        moved = await service.move(OTHER, "deal", other.version)
        assert (shown.user_id, moved.move_count) == (OTHER, 1)
        assert not pending.done()
        release.set()
        answer = await pending
        assert answer.source == "solver"
        assert (await service.show(USER)).assisted
    finally:
        release.set()
        await service.close()


GUARD = 60.0  # seconds: a call that waits for the held search fails the test, not hangs it


async def guarded(call: Awaitable[T]) -> T:
    """``call``, failing the test if it waits for the search the test holds."""
    try:
        return await asyncio.wait_for(call, GUARD)
    except TimeoutError:
        pytest.fail("the call waited for the hint's search")


async def test_the_players_own_commands_go_on_while_their_hint_is_searched(
    store: Store, clock: Any, held: tuple[threading.Event, threading.Event]
) -> None:
    started, release = held
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    try:
        start = await service.new_game(USER, GUILD, WINNABLE_DEAL)
        before = await store.load_game(USER)
        pending = asyncio.create_task(service.hint(USER, start.version))
        await asyncio.to_thread(started.wait)  # the search has a copy of the game; no lock
        # The game moves on meanwhile: two moves and an undo, each answered at once.
        view = await guarded(service.move(USER, "deal", start.version))
        view = await guarded(service.move(USER, "deal", view.version))
        view = await guarded(service.undo(USER, view.version))
        assert view.move_count == 1 and not pending.done()
        release.set()
        # The hint is for a game that is no more: dropped, nothing learned or marked.
        with pytest.raises(StaleVersionError, match="changed while I was thinking"):
            await pending
        row = await store.load_game(USER)
        assert row is not None and before is not None
        assert row.version == view.version and not row.assisted
        assert row.hint_line == before.hint_line
        # Commands that leave the game as it is (settings, a look) let the hint stand.
        started.clear()
        release.clear()
        pending = asyncio.create_task(service.hint(USER, view.version))
        await asyncio.to_thread(started.wait)
        settings = await guarded(service.update_settings(USER, symbols=False))
        shown = await guarded(service.show(USER))
        assert not settings.symbols and shown.version == view.version
        assert not pending.done()
        release.set()
        answer = await pending  # (whatever the solver finds here within its second)
        assert answer.move is not None and answer.game.version == view.version
        assert answer.game.assisted and answer.newly_assisted
    finally:
        release.set()
        await service.close()


# ---------------------------------------------------------------------- the deadline


@pytest.fixture
def never(monkeypatch: pytest.MonkeyPatch) -> Iterator[Never]:
    """The solver's and the fair hint's jobs never return (``Never``)."""
    hung = Never(monkeypatch)
    hung.hang("hint_job", "blind_hint_job")
    yield hung
    hung.release.set()


async def test_a_hint_whose_search_never_returns_is_the_rule_of_thumbs_move(
    store: Store, clock: Any, never: Never
) -> None:
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(2), hint_deadline=0.2)
    try:
        start = await service.new_game(USER, GUILD, WINNABLE_DEAL)
        answer = await service.hint(USER, start.version)
        expected = heuristic_move(Game.new(WINNABLE_DEAL))
        assert (answer.source, answer.move) == ("heuristic", str(expected))
        assert answer.message.startswith(f"Try {answer.label}. The solver found no winning line")
        assert "best move by rule of thumb" in answer.message
        assert answer.game.assisted and answer.remaining is None
        row = await store.load_game(USER)
        assert row is not None and row.assisted and not row.hint_line  # nothing learned
        assert service.solver.timed_out == 1
        # The move plays, and the next hint searches again (and is late again).
        assert answer.move is not None
        view = await service.move(USER, answer.move, start.version)
        again = await service.hint(USER, view.version)
        assert again.source == "heuristic"
    finally:
        never.release.set()  # (a thread pool waits for its threads as it closes)
        await service.close()


async def test_a_fair_hint_past_its_deadline_says_it_is_the_rule_of_thumbs(
    store: Store, clock: Any, never: Never
) -> None:
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1), hint_deadline=0.2)
    try:
        await service.update_settings(USER, fair_hints=True)
        start = await service.new_game(USER, GUILD, WINNABLE_DEAL)
        answer = await service.hint(USER, start.version)
        expected = heuristic_move(Game.new(WINNABLE_DEAL))
        assert (answer.source, answer.move) == ("heuristic", str(expected))
        assert answer.message == (
            f"Try {answer.label}. I ran out of time before I could weigh the stock orders it "
            "could have, so this is the best move by rule of thumb."
        )
        assert answer.wins is None and answer.worlds is None
    finally:
        never.release.set()  # (a thread pool waits for its threads as it closes)
        await service.close()


async def test_a_broken_pool_says_hints_are_unavailable_and_marks_nothing(
    store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(position: str, max_nodes: int, max_seconds: float) -> Hint:
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(jobs_module, "hint_job", broken)
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    try:
        await service.new_game(USER, GUILD, WINNABLE_DEAL)
        with pytest.raises(HintUnavailableError, match="Hints aren't available"):
            await service.hint(USER)
        assert (await service.show(USER)).assisted is False
    finally:
        await service.close()


async def test_close_shuts_the_solver_pool_down(store: Store, clock: Any) -> None:
    executor = ThreadPoolExecutor(1)
    service = GameService(store, clock=clock, executor=executor)
    await service.new_game(USER, GUILD, WINNABLE_DEAL)
    await service.hint(USER)
    await service.close()
    with pytest.raises(RuntimeError, match="shutdown"):
        executor.submit(print)


async def test_the_solver_workers_leave_ctrl_c_to_the_game() -> None:
    # Ctrl-C at the terminal reaches every process of the group: the workers must ignore
    # it (no KeyboardInterrupt traceback from each), and the game keeps its own handler.
    # The game's handler is set here: a test run started in the background (``cmd &``
    # in a script) inherits SIGINT ignored, which would prove nothing.
    def ours(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, ours)
    pool = SolverPool(workers=1)  # the service's pool, worker processes started on need
    try:
        in_worker = await pool.run(signal.getsignal, signal.SIGINT)  # starts the pool
        assert in_worker == signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is ours
    finally:
        signal.signal(signal.SIGINT, previous)
        await pool.close()


# ---------------------------------------------------------------------- the next hints, no search


@pytest.fixture
async def counted(
    store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[GameService, list[str]]]:
    """A service whose solver jobs run in a thread, with the positions they searched."""
    searched: list[str] = []
    real_job = jobs_module.hint_job

    def job(position: str, max_nodes: int, max_seconds: float) -> Hint:
        searched.append(position)
        return real_job(position, max_nodes, max_seconds)

    monkeypatch.setattr(jobs_module, "hint_job", job)
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    yield service, searched
    await service.close()


async def test_following_the_hints_wins_the_game_with_one_search(
    counted: tuple[GameService, list[str]],
) -> None:
    service, searched = counted
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    left: int | None = None
    while view.status is Status.PLAYING:
        answer = await service.hint(USER, view.version)
        assert answer.source == "solver" and answer.move is not None
        assert left is None or answer.remaining == left - 1  # the same line, one move on
        left = answer.remaining
        view = await service.move(USER, answer.move, view.version)
    assert view.status is Status.WON and left == 1
    assert len(searched) == 1


async def test_the_line_survives_automatic_aces_and_undo(
    counted: tuple[GameService, list[str]],
) -> None:
    service, searched = counted
    await service.update_settings(USER, auto_aces=True)
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    hinted = []
    for _ in range(12):
        answer = await service.hint(USER, view.version)
        assert answer.source == "solver" and answer.move is not None
        hinted.append(answer.move)
        view = await service.move(USER, answer.move, view.version)
    assert view.move_count > 12  # the Aces the setting played on the way
    view = await service.undo(USER, view.version)
    answer = await service.hint(USER, view.version)
    assert answer.source == "solver" and answer.move == hinted[-1]  # the move taken back
    assert len(searched) == 1


async def test_the_line_survives_a_restart(
    counted: tuple[GameService, list[str]], store: Store, clock: Any
) -> None:
    service, searched = counted
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    first = await service.hint(USER, view.version)
    assert first.move is not None and first.remaining is not None and len(searched) == 1
    view = await service.move(USER, first.move, view.version)
    pool = ThreadPoolExecutor(1)
    restarted = GameService(store, clock=clock, executor=pool)  # the same database
    try:  # nothing in memory: the line comes from the database
        answer = await restarted.hint(USER, view.version)
        assert answer.source == "solver" and answer.remaining == first.remaining - 1
        assert len(searched) == 1
    finally:
        pool.shutdown()


async def test_a_move_off_the_line_makes_the_next_hint_search_again(
    counted: tuple[GameService, list[str]],
) -> None:
    service, searched = counted
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    await service.hint(USER, view.version)
    line = hint(Game.new(WINNABLE_DEAL), max_nodes=200_000, max_seconds=60).line
    off = next(m for m in Game.new(WINNABLE_DEAL).legal_moves() if m not in line)
    view = await service.move(USER, str(off), view.version)
    answer = await service.hint(USER, view.version)
    moved = Game.new(WINNABLE_DEAL)
    moved.play(off)
    assert searched == [format_position(Game.new(WINNABLE_DEAL)), format_position(moved)]
    assert answer.move is not None


async def test_after_a_proof_of_loss_the_game_stays_lost_with_no_search(
    counted: tuple[GameService, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(movelist_module, "new_deal", lost_deal)
    service, searched = counted
    view = await service.new_game(USER, GUILD, 5)
    answer = await service.hint(USER, view.version)
    assert answer.source == "lost" and answer.move is not None
    view = await service.move(USER, answer.move, view.version)
    again = await service.hint(USER, view.version)
    assert again.source == "lost"
    # lost from the deal: said so at every later move too, not "can't be won any more"
    assert again.message.startswith(
        "No winning line exists: this deal can't be won, whatever you play."
    )
    assert "Undo may take you back" not in again.message
    view = await service.undo(USER, view.version)
    assert (await service.hint(USER, view.version)).source == "lost"
    assert len(searched) == 1
    # A new game is a new question.
    view = await service.new_game(USER, GUILD, 6)
    await service.hint(USER, view.version)
    assert len(searched) == 2


async def test_a_deal_lost_from_the_start_is_reported_so_after_moves(
    counted: tuple[GameService, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(movelist_module, "new_deal", lost_deal)
    service, _ = counted
    view = await service.new_game(USER, GUILD, 5)
    choices = await service.move_choices(USER)
    view = await service.move(USER, choices[0].text, view.version)  # no hint at the deal
    answer = await service.hint(USER, view.version)
    assert answer.source == "lost" and answer.winnable_at is None
    assert answer.message.startswith(
        "No winning line exists: this deal can't be won, whatever you play."
    )
    assert "any more" not in answer.message and "Undo may" not in answer.message
    row = await service.store.load_game(USER)
    assert row is not None and row.lost_line == ""  # stored as a proof at the deal


async def test_a_lost_game_says_how_far_back_it_could_still_be_won(
    counted: tuple[GameService, list[str]],
) -> None:
    service, _ = counted
    # Taking the Ace out of C3 this early opens a space nothing can fill: lost at once.
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    view = await service.move(USER, "C3 ACE", view.version)
    answer = await service.hint(USER, view.version)
    assert answer.source == "lost" and answer.winnable_at == 0
    assert "It still could be at the start: undo back to there." in answer.message
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    for _ in range(5):
        found = await service.hint(USER, view.version)
        assert found.move is not None
        view = await service.move(USER, found.move, view.version)
    view = await service.move(USER, "C3 ACE", view.version)
    answer = await service.hint(USER, view.version)
    assert answer.source == "lost" and answer.winnable_at == 5
    assert "It still could be at move 5: undo back to there." in answer.message
    # Playing on keeps the same answer (the game stays lost), with no new look back.
    view = await service.move(USER, str(answer.move), view.version)
    again = await service.hint(USER, view.version)
    assert again.winnable_at == 5


async def test_a_proof_of_loss_survives_a_restart(
    counted: tuple[GameService, list[str]], store: Store, clock: Any
) -> None:
    service, searched = counted
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    for _ in range(3):
        found = await service.hint(USER, view.version)
        assert found.move is not None
        view = await service.move(USER, found.move, view.version)
    view = await service.move(USER, "C3 ACE", view.version)  # lost at once (above)
    answer = await service.hint(USER, view.version)
    assert answer.source == "lost" and answer.winnable_at == 3
    searches = len(searched)
    view = await service.move(USER, str(answer.move), view.version)
    pool = ThreadPoolExecutor(1)
    restarted = GameService(store, clock=clock, executor=pool)  # the same database
    try:  # nothing in memory: the proof, and the move to undo back to, from the database
        again = await restarted.hint(USER, view.version)
        assert (again.source, again.winnable_at) == ("lost", 3)
        assert "It still could be at move 3: undo back to there." in again.message
        assert len(searched) == searches
        # Undone to before the proof, the game is a new question.
        view = await restarted.undo_to(USER, 3, view.version)
        assert (await restarted.hint(USER, view.version)).source == "solver"
    finally:
        pool.shutdown()


async def test_the_move_to_undo_back_to_is_one_that_undo_reaches(
    store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Undo takes back a command with the automatic Aces it played, so a look back that
    # lands between a move and its Aces names the count after the Aces instead.
    looked_back: list[int] = []

    def lost(position: str, max_nodes: int, max_seconds: float) -> Hint:
        return Hint(None, "lost")

    def rewind(game: Game, max_nodes: int, max_seconds: float) -> LookBack:
        return LookBack(looked_back[-1], False)

    monkeypatch.setattr(jobs_module, "hint_job", lost)
    monkeypatch.setattr(jobs_module, "rewind_job", rewind)
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    try:
        await service.update_settings(USER, auto_aces=True)
        view = await service.new_game(USER, GUILD, 11)  # no Ace to play at the deal
        rng = random.Random(5)
        chain: tuple[int, int] | None = None
        while chain is None or view.move_count < chain[1] + 3:
            before = view.move_count
            choices = await service.move_choices(USER, limit=100)
            assert choices, "the game ran out of moves before the Aces came"
            view = await service.move(USER, rng.choice(choices).text, view.version)
            if chain is None and view.move_count > before + 1:
                chain = (before + 1, view.move_count)  # after the move, before its Aces
        inside, after_aces = chain
        looked_back.append(inside)
        answer = await service.hint(USER, view.version)
        assert answer.winnable_at == after_aces
        assert f"It still could be at move {after_aces}: undo back to there." in answer.message
        while view.move_count > after_aces:
            view = await service.undo(USER, view.version)
        assert view.move_count == after_aces
        # Before the Aces played at the deal is, for the player, the start.
        view = await service.new_game(USER, GUILD, 5)
        dealt = view.move_count
        assert dealt > 0  # the setting played Aces at the deal
        choices = await service.move_choices(USER, limit=100)
        view = await service.move(USER, choices[0].text, view.version)
        looked_back.append(0)
        answer = await service.hint(USER, view.version)
        assert answer.winnable_at == dealt
        assert "It still could be at the start: undo back to there." in answer.message
        view = await service.undo(USER, view.version)
        assert view.move_count == dealt
    finally:
        await service.close()


async def test_on_search_is_called_only_when_the_solver_searches(
    counted: tuple[GameService, list[str]],
) -> None:
    service, searched = counted
    calls: list[int] = []
    view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
    first = await service.hint(USER, view.version, on_search=lambda: calls.append(len(searched)))
    assert first.move is not None and calls == [0]  # called before the search began
    view = await service.move(USER, first.move, view.version)
    await service.hint(USER, view.version, on_search=lambda: calls.append(len(searched)))
    assert calls == [0] and len(searched) == 1  # the next move of the line: no search


async def test_a_new_player_gets_fair_hints_that_never_depend_on_the_stock_order(
    product_defaults: None, store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a small budget: the blind player searches in the pure Python these tests run
    monkeypatch.setattr(hints_module, "FAIR_SAMPLES", 3)
    monkeypatch.setattr(hints_module, "FAIR_NODES", 300)
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1))
    try:
        start = await service.new_game(USER, GUILD, WINNABLE_DEAL)
        before = await store.load_game(USER)
        answer = await service.hint(USER, start.version)
        assert answer.source == "blind" and answer.move is not None
        game = parse_position(start.position)
        expected = blind_choice(game, samples=3, max_nodes=300)
        assert answer.move == str(expected.move)
        assert (answer.wins, answer.worlds) == (expected.wins, expected.worlds)
        if expected.reason == "search":
            tried = f"it wins in {expected.wins} of the {expected.worlds} stock orders I tried"
            assert tried in answer.message
        assert answer.remaining is None and answer.winnable_at is None  # nothing it can't know
        row = await store.load_game(USER)
        assert row is not None and before is not None
        assert row.hint_line == before.hint_line  # a fair hint teaches nothing to keep
        # the solver's hints, chosen: they say they know the stock's order
        await service.update_settings(USER, fair_hints=False)
        solver = await service.hint(USER, start.version)
        assert solver.source == "solver" and "The solver sees the stock's order" in solver.message
    finally:
        await service.close()


async def test_a_look_back_past_the_deadline_gives_the_lost_hint_without_it(
    store: Store, clock: Any, never: Never, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lost(position: str, max_nodes: int, max_seconds: float) -> Hint:
        return Hint(heuristic_move(parse_position(position)), "lost")

    monkeypatch.setattr(jobs_module, "hint_job", lost)
    never.hang("rewind_job")
    service = GameService(store, clock=clock, executor=ThreadPoolExecutor(1), hint_deadline=0.2)
    try:
        view = await service.new_game(USER, GUILD, WINNABLE_DEAL)
        view = await service.move(USER, "C3 ACE", view.version)
        answer = await service.hint(USER, view.version)
        assert (answer.source, answer.winnable_at, answer.back_to) == ("lost", None, None)
        assert answer.message.startswith(
            "No winning line exists from here: this game can't be won any more. Undo may "
            "take you back to where it still could be."
        )
    finally:
        never.release.set()
        await service.close()


def test_a_terminal_hint_whose_search_never_returns_still_answers(
    db_path: Path, never: Never
) -> None:
    out = io.StringIO()
    lines = iter(["hint", "quit"])

    def read(prompt: str) -> str:
        return next(lines)

    with asyncio.Runner() as runner:
        store = runner.run(Store.open(db_path))
        service = GameService(store, executor=ThreadPoolExecutor(1), hint_deadline=0.2)
        try:
            game = TerminalGame(service, runner.run, out=out, read=read)
            game.start(WINNABLE_DEAL)
            game.loop()
        finally:
            never.release.set()
            runner.run(service.close())
    said = out.getvalue()
    expected = str(heuristic_move(Game.new(WINNABLE_DEAL)))
    assert "Thinking…" in said and "so this is the best move by rule of thumb." in said
    assert f"Type '{expected.lower()}' to play it." in said
