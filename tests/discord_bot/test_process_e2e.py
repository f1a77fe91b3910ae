"""The real bot process (``python -m bot.cli bot``) on the fake Discord: how it stops.

Each test starts the fake Discord in the test and the bot as a subprocess pointed at
it (``REEL_DISCORD_API``, ``REEL_DISCORD_GATEWAY``), as an operator runs it, then
stops it as an operator or a crash would:

- SIGTERM with moves in flight: each is answered and written exactly once, exit 0
  within 10 s, no process of the bot's left;
- Ctrl-C (SIGINT) while a move waits on the database: what arrives during the stop
  is refused politely and changes nothing, the move in flight finishes and is
  written, exit 0;
- SIGKILL after a hint started the solver's workers: within 5 s none is left;
- its database's files made immutable while it runs (``chattr +i``, which would make
  SQLite die of SIGBUS): each action is refused privately, the bot lives on, and plays
  again once they are mutable.

Every test also checks that the bot token, logged at DEBUG, never shows in the bot's
output. These tests are slow (a process start each): keep them few.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from harness import DEAL_NUMBER, description, is_board, new_game

from bot.discord_bot.app import EXIT_OK
from bot.discord_bot.gate import RESTARTING
from bot.store import Store
from tests.immutable import immutable
from tests.procs import alive, descendants

ROOT = Path(__file__).resolve().parent.parent.parent
START_TIMEOUT = 60.0  # generous: a loaded machine imports slowly
EXIT_LIMIT = 10.0  # issue 32: a graceful stop ends within 10 s
ORPHAN_LIMIT = 5.0  # issue 32: no process of the bot's left 5 s after it died
STOPPING = ": stopping;"  # the bot's log line when a stop begins


class BotProcess:
    """``reel bot`` as a subprocess on the fake; its stdout and stderr go to one file."""

    def __init__(
        self, fake: FakeDiscord, tmp_path: Path, settings: dict[str, str] | None = None
    ) -> None:
        """``settings``: more of the bot's settings (``REEL_WEB_PORT``...) in its environment."""
        self.fake = fake
        self.db = tmp_path / "reel.db"
        self.token = "reel-test-token-" + secrets.token_hex(12)
        self.log_path = tmp_path / "bot.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("REEL_", "DISCORD_"))}
        env.update(
            DISCORD_TOKEN=self.token,
            REEL_DISCORD_API=fake.api_base,
            REEL_DISCORD_GATEWAY=fake.gateway_url,
            REEL_DEV_GUILD=str(fake.guild.id),
            REEL_LOG_LEVEL="DEBUG",
            PYTHONPATH=str(ROOT),
        )
        env.update(settings or {})
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot.cli", "bot", "--db", str(self.db)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=tmp_path,  # no .env there
                env=env,
            )

    @property
    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def until(self, condition: Callable[[], bool], what: str, timeout: float) -> None:
        """Wait (serving the fake meanwhile) until ``condition()``; fail naming ``what``."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not in {timeout} s\n--- bot output:\n{self.output}")
            await asyncio.sleep(0.02)

    async def connected(self) -> None:
        fake, guild = self.fake, self.fake.guild.id

        def ready() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"the bot exited with {self.proc.returncode}:\n{self.output}")
            return fake.connected and bool(fake.guild_commands.get(guild))

        await self.until(ready, "the bot connected, its commands synced", START_TIMEOUT)

    async def logged(self, text: str) -> None:
        await self.until(lambda: text in self.output, f"the bot logged {text!r}", START_TIMEOUT)

    def signal(self, signum: int) -> float:
        """Send ``signum``; when it was sent (monotonic)."""
        self.proc.send_signal(signum)
        return time.monotonic()

    async def exited(self, since: float, limit: float) -> int:
        """The exit code, which must come within ``limit`` seconds of ``since``."""
        await self.until(lambda: self.proc.poll() is not None, "the bot exited", limit * 3)
        took = time.monotonic() - since
        assert took <= limit, f"the bot took {took:.1f} s to exit (at most {limit} s)"
        assert self.token not in self.output  # never logged, even at DEBUG
        return self.proc.returncode

    def kill(self) -> None:
        for pid in [self.proc.pid, *descendants(self.proc.pid)]:
            with contextlib.suppress(OSError):  # gone already
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
async def bot_process(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot process, connected to the fake; killed at teardown if it is still there."""
    process = BotProcess(fake_discord, tmp_path)
    try:
        await process.connected()
        yield process
    finally:
        if process.proc.poll() is None:
            process.kill()


def no_orphans(workers: set[int]) -> Callable[[], bool]:
    return lambda: not any(alive(pid) for pid in workers)


def version(board: FakeMessage) -> int:
    """The game version a board was drawn for (its buttons' ``reel:<action>:<user>:<v>``)."""
    return int(board.custom_ids[0].split(":")[3])


async def stored(db: Path, user: FakeUser) -> tuple[int, int]:
    """The stored game of ``user``, read after the bot exited: (version, deals played)."""
    store = await Store.open(db)
    try:
        game = await store.load_game(user.id)
    finally:
        await store.close()
    assert game is not None
    return game.version, game.moves.split(";").count("deal")


async def refused(result: InteractionResult) -> str:
    """The text of a private refusal (and that it was one)."""
    message = await result.wait_message()
    assert message.ephemeral and not is_board(message), message.to_dict()
    return description(message)


async def test_sigterm_lets_the_moves_in_flight_finish_and_write_each_once(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    players = [fake.user("alice"), fake.user("bob"), fake.add_user("carol"), fake.add_user("dan")]
    boards = {player.id: await new_game(fake, player) for player in players}
    workers = descendants(bot_process.proc.pid)  # /reel new asked the solver for a verdict
    sent = [
        (player, await fake.slash(player, "reel", sub="deal", wait=False))
        for _ in range(3)
        for player in players
    ]
    since = bot_process.signal(signal.SIGTERM)
    for _, result in sent:
        message = await result.wait_message(timeout=EXIT_LIMIT)  # every one answered in time
        if message.ephemeral:  # refused: it came after the signal
            assert RESTARTING in description(message)
    assert await bot_process.exited(since, EXIT_LIMIT) == EXIT_OK
    fake.assert_no_violations()
    await bot_process.until(no_orphans(workers), "the solver's workers ended", ORPHAN_LIMIT)
    for player in players:
        done = [r.message for p, r in sent if p is player and r.message and is_board(r.message)]
        start = version(boards[player.id])
        # Each acknowledged deal is in the database exactly once, and nothing else is.
        versions = sorted(version(m) for m in done if m)
        assert versions == list(range(start + 1, start + len(done) + 1))
        assert await stored(bot_process.db, player) == (start + len(done), len(done))


async def test_ctrl_c_refuses_what_comes_during_the_stop_and_finishes_the_move_in_flight(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    alice_board, bob_board = await new_game(fake, alice), await new_game(fake, bob)
    # Alice's deal waits on the database, locked by the test, while the bot is told to stop.
    lock = sqlite3.connect(bot_process.db, isolation_level=None)
    try:
        lock.execute("BEGIN IMMEDIATE")
        in_flight = await fake.slash(alice, "reel", sub="deal", wait=False)
        await bot_process.logged(str(in_flight.id))  # the bot has it (its DEBUG log of events)
        since = bot_process.signal(signal.SIGINT)
        await bot_process.logged(STOPPING)
        assert "1 in flight" in bot_process.output
        # Whatever arrives now is refused, privately, and does nothing.
        late = await fake.slash(bob, "reel", sub="deal")
        assert RESTARTING in await refused(late)
        [deal_button] = [c for c in bob_board.custom_ids if c.startswith("reel:deal:")]
        click = await fake.click(bob, bob_board, deal_button)
        assert RESTARTING in await refused(click)
        typed = await fake.autocomplete(bob, "reel", "move", {"from": "R"}, focused="from")
        assert typed == []
    finally:
        lock.rollback()
        lock.close()
    board = await in_flight.wait_message()  # Alice's deal was finished and answered
    assert is_board(board) and not board.ephemeral
    assert await bot_process.exited(since, EXIT_LIMIT) == EXIT_OK
    assert "database" in bot_process.output.rsplit(STOPPING, 1)[1]  # the stop's last step
    fake.assert_no_violations()
    assert await stored(bot_process.db, alice) == (version(alice_board) + 1, 1)
    assert await stored(bot_process.db, bob) == (version(bob_board), 0)


async def test_sigkill_after_a_hint_leaves_no_process_of_the_bots(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    await new_game(fake, alice, DEAL_NUMBER)
    # the solver's hint: a fair one searches longer in the pure Python this process runs
    await fake.slash(alice, "reel", sub="settings", options={"hints": "solver"})
    hint = await fake.slash(alice, "reel", sub="hint")
    await hint.wait_followups()
    workers = descendants(bot_process.proc.pid)
    assert len(workers) >= 2  # the solver's workers (and multiprocessing's resource tracker)
    bot_process.signal(signal.SIGKILL)
    await bot_process.until(lambda: bot_process.proc.poll() is not None, "killed", EXIT_LIMIT)
    await bot_process.until(no_orphans(workers), "the solver's workers ended", ORPHAN_LIMIT)
    assert bot_process.token not in bot_process.output


async def test_its_database_made_immutable_refuses_each_action_and_the_bot_lives_on(
    fake_discord: FakeDiscord, bot_process: BotProcess
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    board = await new_game(fake, alice)
    db = bot_process.db
    with immutable(db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        deal = await fake.slash(alice, "reel", sub="deal")
        assert "can't be used just now, so nothing changed" in await refused(deal)
        shown = await fake.slash(alice, "reel", sub="show")
        assert "can't be used just now" in await refused(shown)
        assert bot_process.proc.poll() is None  # alive: no SIGBUS
    await bot_process.logged(f"the WAL index {db}-shm can't be written")
    assert f"database failure for user {alice.id}: {db}-shm, the WAL index" in bot_process.output
    again = await fake.slash(alice, "reel", sub="deal")
    assert is_board(await again.wait_message())
    assert f"the WAL index {db}-shm can be written again" in bot_process.output
    since = bot_process.signal(signal.SIGTERM)
    assert await bot_process.exited(since, EXIT_LIMIT) == EXIT_OK
    fake.assert_no_violations()
    assert await stored(db, alice) == (version(board) + 1, 1)  # the refused deal: not applied
