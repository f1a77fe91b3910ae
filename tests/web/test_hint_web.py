"""A hint on the web board while the solver searches: the player's other boards play on
meanwhile, a hint overtaken by their moves is refused with the current board, and a search
that never returns still gets its answer, the rule of thumb's move."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pages import Page
from webserver import DEAL, Serve

import bot.service.jobs as jobs_module
from bot.service import LOCAL_USER_ID, GameService
from bot.store import Store
from engine import Game
from engine.solver.hints import Hint, heuristic_move

started, release = threading.Event(), threading.Event()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The solver's hint job held until the test sets ``release`` (``started`` once it runs);
    released at the end whatever happens."""
    started.clear()
    release.clear()
    real_job = jobs_module.hint_job

    def held_job(position: str, max_nodes: int, max_seconds: float) -> Hint:
        started.set()
        release.wait()
        return real_job(position, max_nodes, max_seconds)

    monkeypatch.setattr(jobs_module, "hint_job", held_job)
    yield
    release.set()


@pytest.fixture
def deadline() -> float:
    """The service's hint deadline, in seconds (a test parametrizes another)."""
    return 0.25


@pytest.fixture
async def service(tmp_path: Path, deadline: float) -> AsyncIterator[GameService]:
    """The web board's service, its solver jobs in a thread (a test holds one), with the
    hint ``deadline``."""
    store = await Store.open(tmp_path / "reel.db")
    service = GameService(store, executor=ThreadPoolExecutor(1), hint_deadline=deadline)
    yield service
    release.set()  # (a thread pool waits for its threads as it closes)
    await service.close()


@pytest.mark.parametrize("deadline", [60.0])  # time to hold the search
async def test_another_board_plays_on_while_a_hint_is_searched_and_the_hint_is_dropped(
    serve: Serve, service: GameService, held: None
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    hinting, playing = await served.page(), await served.page()
    await hinting.next("board")
    await playing.next("board")
    asked = asyncio.create_task(hinting.ask({"type": "hint", "version": view.version}))
    await asyncio.to_thread(started.wait)  # the solver is searching
    (dealt,) = await playing.ask({"type": "deal", "version": view.version})
    assert dealt["type"] == "board" and dealt["version"] == view.version + 1
    assert not asked.done()
    release.set()
    stale, current = await asked
    assert stale["type"] == "error" and "changed while I was thinking" in stale["message"]
    assert current["type"] == "board" and current["version"] == view.version + 1
    assert not (await service.show(LOCAL_USER_ID)).assisted


async def test_a_hint_whose_search_never_returns_is_the_rule_of_thumbs_move(
    serve: Serve, service: GameService, held: None
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page: Page = await (await serve()).page()
    await page.next("board")
    hinted, board = await page.ask({"type": "hint", "version": view.version})
    assert hinted["type"] == "hint" and hinted["hint"]["source"] == "heuristic"
    assert hinted["hint"]["move"] == str(heuristic_move(Game.new(DEAL)))
    assert "best move by rule of thumb" in hinted["hint"]["message"]
    assert board["board"]["assisted"] is True and board["version"] == view.version
