"""Fault bench: many players on the real bot process while faults are injected at random.

    python bench/faults.py [--users 12] [--interactions 1000] [--faults 20] [--seed 1]
                           [--stall 6.5] [--long-stall 0] [--keep DIR]

The bot is the real program, ``python -m bot.cli bot``, run as a child process
on a fresh SQLite file and pointed at a fake Discord on 127.0.0.1 (the tests'
``tests/discord_bot/fake_discord.py``) with ``REEL_DISCORD_API`` and
``REEL_DISCORD_GATEWAY``. Simulated players play over the wire as Discord's
client does: they type in ``/reel move``'s autocomplete and send the move it
offers, pick moves in the board's menu (sometimes twice at once, as a double
click), press Deal, ask ``/reel show``, and start a new deal when theirs is
over. Meanwhile faults are injected at random, each kind in turn:

- ``stall``: another connection holds the database's write lock for
  ``--stall`` seconds (a stalled writer; ``--long-stall S`` adds one of S
  seconds, say 60);
- ``kill``: a hint first (so the solver's worker processes run), then SIGKILL
  of the bot, and a restart;
- ``term``: SIGTERM while players play on: the bot must refuse what comes in
  politely, finish what is under way, and exit 0 within 10 s; then a restart;
- ``429``: a storm of rate limits on the bot's board edits and follow-ups;
- ``5xx``: Discord answering 500, 502 or 503 to them for a while;
- ``disconnect``: the gateway dropped under the bot, which resumes.

What is counted, from the players' side and then from the database:

- **acknowledged moves lost**: every board a player was shown says how many
  moves its game has; a game whose stored move list (read from the file
  after the run, finished games included) is shorter than the most a player
  was shown lost the difference;
- **duplicated**: a game whose stored list is longer than the moves its player
  sent that were not refused (a refusal is a private answer) applied some twice;
- **interactions late**: answered after Discord's 3 seconds or never, not
  counting those cut off by a SIGKILL (they can't be answered: printed apart);
- **orphans**: processes of the bot (its solver workers) still alive 5 s
  after it died, or after a SIGTERM stop; and a SIGTERM stop that did not
  exit 0 within 10 s is counted as a bad stop.

It prints one line per fault and then
``faults injected N, acknowledged moves lost 0, duplicated 0, interactions
late 0, orphans 0`` (the target: all four zero over at least 1,000
interactions and 20 faults), and the interactions' count and latency.
It takes about two minutes and exits 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import random
import re
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "discord_bot"))
sys.path.insert(0, str(ROOT))

from fake_discord import (  # noqa: E402
    FOLLOWUP_PATH,
    WEBHOOK_MESSAGE_PATH,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

from tests.procs import alive, descendants  # noqa: E402

FAULT_KINDS: Final = ("stall", "429", "kill", "disconnect", "5xx", "term")
DEADLINE: Final = 3.0  # Discord's, for the first answer to an interaction
STOP_LIMIT: Final = 10.0  # seconds a SIGTERM stop may take (issue 32)
ORPHAN_WAIT: Final = 5.0  # seconds the bot's processes may outlive it
FOOTER: Final = re.compile(r"Deal (\d+) · moves (\d+)")
LATE_RULES: Final = frozenset({"deadline", "no-response"})
RETRY_AFTER: Final = 0.4  # a 429's retry_after, seconds


@dataclass
class GameLedger:
    """What one player's game was seen to do: the most moves a board showed, and the
    moves sent that were not refused (applied, or with no answer to say)."""

    shown: int = 0
    not_refused: int = 0


@dataclass
class Tally:
    moves_sent: int = 0
    refused: int = 0
    cut_by_kill: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    bad_stops: int = 0
    orphans: int = 0
    games: dict[tuple[int, int], GameLedger] = field(default_factory=dict)


class Bot:
    """The bot as a child process: ``python -m bot.cli bot`` against the fake."""

    def __init__(self, fake: FakeDiscord, db: Path, workdir: Path) -> None:
        self.fake = fake
        self.db = db
        self.workdir = workdir
        self.log = workdir / "bot.log"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        before = len(self.fake.sessions)
        env = {
            **os.environ,
            "DISCORD_TOKEN": "bench-token",
            "REEL_DISCORD_API": self.fake.api_base,
            "REEL_DISCORD_GATEWAY": self.fake.gateway_url,
            "REEL_DEV_GUILD": str(self.fake.guild.id),
            "REEL_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.cli", "bot", "--db", str(self.db),
                env=env, cwd=self.workdir, stdout=log, stderr=log,
            )  # fmt: skip
        ready = await self.fake.wait_until(
            lambda: len(self.fake.sessions) > before and self.fake.connected, 60
        )
        if not ready:
            raise RuntimeError(f"the bot did not connect; its log: {self.log}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def stop(self, sig: signal.Signals) -> tuple[int | None, float, set[int], set[int]]:
        """Send ``sig``; its exit code (None: still running after ``STOP_LIMIT``), the
        seconds it took, the processes it had (its solver workers), and those of them
        still alive ``ORPHAN_WAIT`` s after it exited."""
        assert self.proc is not None
        family = descendants(self.proc.pid)
        began = time.monotonic()
        self.proc.send_signal(sig)
        try:
            code: int | None = await asyncio.wait_for(self.proc.wait(), STOP_LIMIT)
        except TimeoutError:
            code = None
            self.proc.kill()
            await self.proc.wait()
        took = time.monotonic() - began
        deadline = time.monotonic() + ORPHAN_WAIT
        while any(alive(pid) for pid in family) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return code, took, family, {pid for pid in family if alive(pid)}


class Player:
    """One simulated player: plays moves in its own game, as a person clicks."""

    def __init__(self, bench: Bench, user: FakeUser, index: int) -> None:
        self.bench = bench
        self.fake = bench.fake
        self.user = user
        self.rng = random.Random(bench.seed * 1000 + index)
        self.deals = itertools.count(1000 * (index + 1))
        self.board: FakeMessage | None = None

    async def run(self) -> None:
        await self.act(self.setup())
        while not self.bench.done():
            await self.bench.up.wait()
            await self.act(self.step())
            await asyncio.sleep(self.rng.uniform(0.25, 0.9))  # a person's pace

    async def act(self, work: Any) -> None:
        try:
            await work
        except RuntimeError:  # the bot is down: Discord would not deliver it either
            await asyncio.sleep(0.2)
        except AssertionError:  # a late or missing answer: counted from the fake's record
            pass

    async def setup(self) -> None:
        options = {"auto_aces": False, "winnable_deals": False}
        await self.answer(await self.send(self.slash("settings", options)))
        await self.new_game()

    async def step(self) -> None:
        roll = self.rng.random()
        if self.board is None or roll < 0.08:
            await self.show()
        elif roll < 0.5:
            await self.slash_move()
        elif roll < 0.6 and self.board_button("deal") is not None:
            await self.click_deal()
        else:
            await self.pick_from_menu(double=self.rng.random() < 0.15)

    # ---------------------------------------------------------------- actions

    async def new_game(self) -> None:
        deal = next(self.deals)
        result = await self.send(self.slash("new", {"deal": str(deal)}))
        message = await self.answer(result)
        if (
            message is not None
            and message.ephemeral
            and any(":sure:" in c for c in message.custom_ids)
        ):  # a game in play: the bot asks first
            [sure] = [c for c in message.custom_ids if ":sure:" in c]
            click = self.fake.click(self.user, message, sure, wait=False)
            message = await self.answer(await self.send(click))
        self.note_board(message)

    async def show(self) -> None:
        message = await self.answer(await self.send(self.slash("show")))
        self.note_board(message)

    async def slash_move(self) -> None:
        choices = await self.fake.autocomplete(
            self.user, "reel", sub="move", options={"from": ""}, focused="from"
        )
        moves = [c["value"] for c in choices if c["value"] != "?"]
        if not moves:
            if any("new" in c["name"] for c in choices):  # over or stuck: a new deal
                await self.new_game()
            return
        result = await self.send(self.slash("move", {"from": self.rng.choice(moves)}))
        await self.settle_move(result, self.game_of(self.board))

    async def click_deal(self) -> None:
        assert self.board is not None
        custom_id = self.board_button("deal")
        assert custom_id is not None
        game = self.game_of(self.board)
        result = await self.send(self.fake.click(self.user, self.board, custom_id, wait=False))
        await self.settle_move(result, game)

    async def pick_from_menu(self, *, double: bool) -> None:
        assert self.board is not None
        menu = next((i for i in self.board.items if i.get("type") == 3), None)
        if menu is None or menu.get("disabled") or not menu.get("options"):
            await self.show()
            return
        value = self.rng.choice(menu["options"])["value"]
        game = self.game_of(self.board)
        board, menu_id = self.board, menu["custom_id"]
        clicks = [
            self.send(self.fake.click(self.user, board, menu_id, values=[value], wait=False))
            for _ in range(2 if double else 1)
        ]
        results = await asyncio.gather(*clicks)
        for result in results:
            await self.settle_move(result, game)

    # ---------------------------------------------------------------- bookkeeping

    def slash(self, sub: str, options: dict[str, Any] | None = None) -> Any:
        """``/reel sub options``, sent without waiting for its answer."""
        return self.fake.slash(self.user, "reel", sub=sub, options=options, wait=False)

    async def send(self, sending: Any) -> InteractionResult:
        result: InteractionResult = await sending
        return result

    async def answer(self, result: InteractionResult) -> FakeMessage | None:
        """The message that answers ``result`` once complete, None if none came."""
        with contextlib.suppress(AssertionError, Exception):
            await result.wait_response(timeout=DEADLINE + 2)
            if result.acknowledged:
                with contextlib.suppress(AssertionError):
                    await result.wait_message(timeout=20)
        for followup in result.followups:
            if followup.ephemeral:
                return followup
        return result.message

    async def settle_move(self, result: InteractionResult, game: tuple[int, int] | None) -> None:
        """Count a move sent: refused (a private answer), or maybe applied."""
        self.bench.tally.moves_sent += 1
        message = await self.answer(result)
        refused = message is not None and message.ephemeral
        if game is not None:
            ledger = self.bench.ledger(game)
            if refused:
                self.bench.tally.refused += 1
            else:
                ledger.not_refused += 1
        if not refused:
            self.note_board(message)
        if result.clicked_message is not None:
            self.note_board(result.clicked_message)

    def note_board(self, message: FakeMessage | None) -> None:
        """Remember the player's newest board, and the moves it shows."""
        game = self.game_of(message)
        if message is None or game is None or message.ephemeral:
            return
        ledger = self.bench.ledger(game)
        ledger.shown = max(ledger.shown, int(FOOTER.search(footer(message)).group(2)))  # type: ignore[union-attr]
        self.board = message

    def game_of(self, message: FakeMessage | None) -> tuple[int, int] | None:
        if message is None or message.embed is None:
            return None
        found = FOOTER.search(footer(message))
        return None if found is None else (self.user.id, int(found.group(1)))

    def board_button(self, action: str) -> str | None:
        if self.board is None:
            return None
        for item in self.board.items:
            custom_id = str(item.get("custom_id", ""))
            if custom_id.startswith(f"reel:{action}:") and not item.get("disabled"):
                return custom_id
        return None


def footer(message: FakeMessage) -> str:
    return str(((message.embed or {}).get("footer") or {}).get("text") or "")


class Bench:
    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.seed: int = args.seed
        self.rng = random.Random(args.seed)
        self.fake = FakeDiscord(users=(), token_lifetime=3600)
        self.db = workdir / "reel.db"
        self.bot = Bot(self.fake, self.db, workdir)
        self.tally = Tally()
        self.up = asyncio.Event()  # set while the bot is running
        self.cut: set[int] = set()  # interactions cut off by a SIGKILL
        self.faults_done = asyncio.Event()
        self.background: set[asyncio.Task[None]] = set()  # stalls under way
        self.stalling = asyncio.Lock()

    def done(self) -> bool:
        return len(self.fake.interactions) >= self.args.interactions and self.faults_done.is_set()

    def ledger(self, game: tuple[int, int]) -> GameLedger:
        return self.tally.games.setdefault(game, GameLedger())

    async def run(self) -> int:
        async with self.fake:
            await self.bot.start()
            self.up.set()
            users = [self.fake.add_user(f"player{i}") for i in range(self.args.users)]
            players = [Player(self, user, i) for i, user in enumerate(users)]
            tasks = [asyncio.create_task(p.run()) for p in players]
            await self.inject_faults()
            await asyncio.gather(*tasks, *self.background)
            await asyncio.sleep(1)  # the last answers
            code, _, _, left = await self.bot.stop(signal.SIGTERM)
            self.judge_stop("final", code, left)
            lost, duplicated = self.compare_with_database()
            late = self.late()
        return self.report(lost, duplicated, late)

    # ---------------------------------------------------------------- faults

    async def inject_faults(self) -> None:
        kinds = list(FAULT_KINDS)
        count = 0
        while count < self.args.faults or len(self.fake.interactions) < self.args.interactions:
            await asyncio.sleep(self.rng.uniform(1.0, 4.0))
            if count % len(kinds) == 0:
                self.rng.shuffle(kinds)
            kind = kinds[count % len(kinds)]
            began = time.monotonic()
            detail = await getattr(
                self, "fault_" + {"429": "rate_limit", "5xx": "server"}.get(kind, kind)
            )()
            count += 1
            self.tally.faults[kind] += 1
            print(f"fault {count:3d} {kind:10s} {time.monotonic() - began:5.1f} s  {detail}",
                  flush=True)  # fmt: skip
            if count == self.args.faults and self.args.long_stall:
                await self.hold_lock(self.args.long_stall)
                self.tally.faults["long stall"] += 1
                print(f"fault {count:3d} long stall {self.args.long_stall:.0f} s", flush=True)
        self.faults_done.set()

    async def fault_stall(self) -> str:
        self.background.add(asyncio.create_task(self.hold_lock(self.args.stall)))
        return f"another connection holds the write lock for {self.args.stall} s"

    async def hold_lock(self, seconds: float) -> None:
        """Another connection holds the write lock ``seconds`` (one stall at a time: a
        second waits for the first, as a second stalled writer would)."""
        async with self.stalling:
            await asyncio.to_thread(self._hold, seconds)

    def _hold(self, seconds: float) -> None:
        other = sqlite3.connect(self.db, timeout=30, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            time.sleep(seconds)
            other.execute("ROLLBACK")
        finally:
            other.close()

    async def fault_kill(self) -> str:
        someone = self.fake.users[self.rng.choice(list(self.fake.users))]
        with contextlib.suppress(AssertionError, RuntimeError):  # a hint, if it can be had
            hint = await self.fake.slash(someone, "reel", sub="hint", wait=False)
            await hint.wait_message(timeout=10)
        self.up.clear()
        pid = self.bot.pid
        code, _, family, left = await self.bot.stop(signal.SIGKILL)
        self.cut |= {r.id for r in self.fake.interactions.values() if not r.acknowledged}
        self.judge_stop("kill", code, left)
        await self.bot.start()
        self.up.set()
        return (
            f"SIGKILL after a hint (pid {pid}, {len(family)} child processes); "
            f"{len(left)} left after {ORPHAN_WAIT:.0f} s; restarted"
        )

    async def fault_term(self) -> str:
        pid = self.bot.pid
        code, took, family, left = await self.bot.stop(signal.SIGTERM)
        self.up.clear()
        self.judge_stop("term", code, left)
        await self.bot.start()
        self.up.set()
        return (
            f"SIGTERM (pid {pid}, {len(family)} child processes): exit {code} in {took:.1f} s; "
            f"{len(left)} left; restarted"
        )

    def judge_stop(self, what: str, code: int | None, left: set[int]) -> None:
        self.tally.orphans += len(left)
        if what != "kill" and code != 0:
            self.tally.bad_stops += 1

    async def fault_rate_limit(self) -> str:
        times = self.rng.randint(2, 6)
        inject_rest_fault(self.fake, 429, times)
        return f"{times} answers of 429 (retry after {RETRY_AFTER} s) to edits and follow-ups"

    async def fault_server(self) -> str:
        status = self.rng.choice((500, 502, 503))
        times = self.rng.randint(1, 3)
        inject_rest_fault(self.fake, status, times)
        return f"{times} answers of {status} to board edits and follow-ups"

    async def fault_disconnect(self) -> str:
        cut = self.rng.random() < 0.5  # with no close frame, as a network fault does
        await self.fake.drop_gateway(None if cut else 4000, timeout=30)
        return f"the gateway {'cut' if cut else 'closed (4000)'} under the bot; it resumed"

    # ---------------------------------------------------------------- judging

    def compare_with_database(self) -> tuple[int, int]:
        """Acknowledged moves lost and moves applied twice, game by game."""
        stored: dict[tuple[int, int], int] = {}
        with contextlib.closing(sqlite3.connect(self.db)) as conn:
            rows = conn.execute(
                "SELECT user_id, deal_number, moves FROM current_games "
                "UNION ALL SELECT user_id, deal_number, moves FROM finished_games"
            ).fetchall()
        for user_id, deal, moves in rows:
            count = len([m for m in str(moves or "").split(";") if m])
            stored[(user_id, deal)] = max(count, stored.get((user_id, deal), 0))
        lost = duplicated = 0
        for game, ledger in self.tally.games.items():
            have = stored.get(game, 0)
            lost += max(0, ledger.shown - have)
            duplicated += max(0, have - ledger.not_refused)
        return lost, duplicated

    def late(self) -> int:
        """Interactions answered after the deadline or never, but those cut by a kill."""
        late = set()
        for result in self.fake.interactions.values():
            if result.id in self.cut:
                continue
            if any(v.rule in LATE_RULES for v in result.violations) or not result.acknowledged:
                late.add(result.id)
        self.tally.cut_by_kill = len(self.cut)
        return len(late)

    def report(self, lost: int, duplicated: int, late: int) -> int:
        tally = self.tally
        times = sorted(
            t for r in self.fake.interactions.values() if (t := r.response_time) is not None
        )
        faults = sum(tally.faults.values())
        print(
            f"interactions {len(self.fake.interactions)} by {self.args.users} players, "
            f"moves sent {tally.moves_sent} ({tally.refused} refused), "
            f"games {len(tally.games)}, cut off by a SIGKILL {tally.cut_by_kill}"
        )
        if times:
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"first answer: median {statistics.median(times) * 1000:.0f} ms, "
                f"p99 {p99 * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms"
            )
        print("faults by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(tally.faults.items())))
        print(f"SIGTERM stops not exiting 0 within {STOP_LIMIT:.0f} s: {tally.bad_stops}")
        print(
            f"faults injected {faults}, acknowledged moves lost {lost}, duplicated {duplicated}, "
            f"interactions late {late}, orphans {tally.orphans}"
        )
        missed = (
            lost or duplicated or late or tally.orphans or tally.bad_stops
            or len(self.fake.interactions) < self.args.interactions or faults < self.args.faults
        )  # fmt: skip
        return 1 if missed else 0


def inject_rest_fault(fake: FakeDiscord, status: int, times: int) -> None:
    """The next ``times`` board edits and follow-ups each answered ``status``."""
    for method, path in (("PATCH", WEBHOOK_MESSAGE_PATH), ("POST", FOLLOWUP_PATH)):
        fake.fail(method, path, status=status, times=times, retry_after=RETRY_AFTER)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=12, help="players at once (default 12)")
    parser.add_argument(
        "--interactions", type=int, default=1000, help="interactions at least (default 1000)"
    )
    parser.add_argument("--faults", type=int, default=20, help="faults at least (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the players' and faults' seed")
    parser.add_argument(
        "--stall", type=float, default=6.5, help="seconds a stall holds the lock (default 6.5)"
    )
    parser.add_argument(
        "--long-stall", type=float, default=0.0, help="one more stall this long at the end (60)"
    )
    parser.add_argument("--keep", type=Path, help="keep the database and the bot's log here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        code = asyncio.run(Bench(args, workdir).run())
    sys.exit(code)


if __name__ == "__main__":
    main()
