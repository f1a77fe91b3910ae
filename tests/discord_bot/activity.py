"""The Activity's server beside a bot on the fake Discord, as the Activity's tests start
it: the sign-in answered by the fake (``oauth2/token``, ``users/@me``, the instance
lookup), rooms racing deal 16, and a socket client that signs in as a player would."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from fake_discord import FakeDiscord, FakeMessage, FakeUser
from harness import DEAL_NUMBER, Running

from bot.discord_bot.app import announce_on
from bot.web.app import PARTS
from bot.web.local import ActivitySettings, activity_setup, beside_bot, bound_port, start
from bot.web.socket import LiveBoards
from bot.web.wire import PROTOCOL, TOKEN_PROTOCOL
from engine import Game, IllegalMoveError, Move, format_position
from engine.solver import solve
from tests.web.pages import Page

SECRET = b"s" * 32


def settings(fake: FakeDiscord, *, mock: bool = True) -> ActivitySettings:
    return ActivitySettings(
        client_id=str(fake.application_id),
        client_secret=fake.client_secret,
        bot_token="any-token",
        api_base=fake.api_base,
        secret=SECRET,
        mock=mock,
        race_deal=DEAL_NUMBER,
    )


@dataclass
class Served:
    """The web board with the Activity, beside a bot: its address and its live boards."""

    url: str
    live: LiveBoards

    def __str__(self) -> str:
        return self.url

    async def drop(self, user: FakeUser) -> int:
        """Close ``user``'s sockets, as a proxy dropping them would (1001): how many."""
        boards = self.live.boards(user.id)
        for board in boards:
            await board.ws.close(code=1001, message=b"dropped by the test")
        return len(boards)


@contextlib.asynccontextmanager
async def serving(
    fake: FakeDiscord, running: Running, *, mock: bool = True
) -> AsyncIterator[Served]:
    """The web board with the Activity beside ``running``'s bot, on a free port."""
    parts = activity_setup(settings(fake, mock=mock), running.service, announce_on(running.bot))  # type: ignore[arg-type]
    assert parts is not None
    runner = await start(running.service, parts.sessions, None, "127.0.0.1", 0, activity=parts)
    try:
        yield Served(f"http://127.0.0.1:{bound_port(runner)}/", runner.app[PARTS].live)
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def served(fake: FakeDiscord, running: Running, *, mock: bool = True) -> AsyncIterator[str]:
    """The same, as ``reel bot`` starts it (``beside_bot``): its address."""
    beside = beside_bot("127.0.0.1", 0, None, settings(fake, mock=mock))
    async with beside(running.service, None, announce_on(running.bot)) as url:  # type: ignore[arg-type]
        yield url


@dataclass
class SignedIn:
    user: FakeUser
    session: str
    answer: dict[str, Any]


async def sign_in(
    http: aiohttp.ClientSession, url: str, fake: FakeDiscord, user: FakeUser, instance: str
) -> SignedIn:
    """``POST /api/token`` with a code ``user`` got from Discord; fails if refused."""
    code = fake.authorization_code(user)
    async with http.post(url + "api/token", json={"code": code, "instance_id": instance}) as got:
        answer = await got.json()
        assert got.status == 200, answer
    return SignedIn(user, answer["session"], answer)


async def room_page(http: aiohttp.ClientSession, url: str, session: str) -> Page:
    """The socket of a signed-in page (its session in the subprotocol, as the page sends it)."""
    ws = url.replace("http://", "ws://") + "ws"
    return await Page.open(http, ws, protocols=(PROTOCOL, TOKEN_PROTOCOL + session))


def race_line(deal: int = DEAL_NUMBER) -> list[tuple[Move, str]]:
    """A winning line of ``deal`` as a racer plays it: the solver's moves, less the Aces
    the race sends home by itself (automatic Aces are on for every racer), each with the
    position it leads to."""
    solution = solve(Game.new(deal), max_nodes=500_000)
    assert solution.verdict == "won"
    game, played = Game.new(deal), []
    game.play_safe_moves()
    for move in solution.line:
        try:
            game.kind(move)
        except IllegalMoveError:
            assert str(move).endswith("ACE"), f"{move} is not an Ace going home"
            continue  # home already
        game.play(move)
        game.play_safe_moves()
        played.append((move, format_position(game)))
    assert game.is_won()
    return played


def race_title(message: FakeMessage, race_id: int) -> bool:
    """Whether ``message`` is the lobby or standings of race ``race_id``."""
    return str((message.embed or {}).get("title", "")).startswith(f"🏁 Race {race_id} ·")


async def message_where(fake: FakeDiscord, race_id: int, words: str) -> FakeMessage:
    """The channel's standings message of the race, once its title has ``words``."""

    def found() -> bool:
        return any(
            race_title(m, race_id) and words in str((m.embed or {}).get("title"))
            for m in fake.channel_messages()
        )

    assert await fake.wait_until(found, timeout=8.0), f"the standings never said {words!r}"
    return next(m for m in fake.channel_messages() if race_title(m, race_id))


async def room_where(page: Page, wanted: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    """The next ``room`` frame ``wanted`` accepts."""
    async with asyncio.timeout(5):
        while True:
            room = await page.next("room")
            if wanted(room):
                return room


async def race_board(page: Page) -> dict[str, Any]:
    """The next race board the page is sent."""
    async with asyncio.timeout(5):
        while True:
            board = await page.next("board")
            if str(board.get("view", "")).startswith("race:"):
                return board
