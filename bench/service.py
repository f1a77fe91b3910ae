"""Benchmark of the game service: many simulated users playing at once on a file database.

    python bench/service.py [--users 1000] [--seconds 10] [--think 1.0] [--seed 1]
                            [--ask-choices] [--plan N]

Every simulated user plays random legal moves through ``GameService`` and
deals itself a new game when one is won or stuck. One command is one service
call that writes: ``service.move(text)`` or ``service.new_game(deal)``. With
``--ask-choices`` each move is preceded by a ``move_choices`` read, as a
player using Discord's autocomplete would send (the pair then counts as one
command). The database is a file in a temporary directory, with the store's
own settings (WAL, ``synchronous=FULL``: every command is fsynced before it
returns).

**The players plan their games before the timed runs.** Choosing a move is
the player's thinking: in production it happens on the player's side (a
person looking at the board), not in the bot process. So during setup each
player plays its games out in advance on its own engine copy: a random legal
move each time (``random.choice(game.legal_moves())`` with a seeded RNG per
player), a new random deal (1..10**9) when a game is over, recording the move
texts exactly as it will send them, and what status the game will then have.
Inside the timed window a player only sends its next planned command, and
the service does all of its usual work for it (parse, legality check, play,
space warning, render, the version check, the write). With the players'
thinking in the same process, it took about a third of the Python per
command and competed for the GIL with the service and the SQLite thread,
which depressed the measured capacity. Equally, in production the bot
process also handles the Discord gateway (receiving the interaction, sending
the answer), which this bench does not count either: the figures are those
of the service and its store, not of the whole bot.

How much to plan: a short plain-write run (1 s, before planning) estimates
the disk's rate (every command is its own fsynced transaction on one
connection, as the plain write is); each player plans twice its share of
that rate, or of ``MIN_PLANNED_RATE`` if higher (the fsync rate drifts), for
the saturation run, plus three times the paced run's mean number of commands
(``--plan N`` overrides). A player that runs out of planned commands stops,
and the bench prints a warning saying how many did (its figures then
understate the capacity).

The answers are still checked, cheaply, in the window: each command's
answer must carry the next version and the status the plan expects (with
``--ask-choices``, as many choices as the plan's legal moves). After the
runs, every user's game is read back from the database by a fresh service
(empty cache) and compared with the planned game replayed to the same point
(deal, move count, status, rendered board). A mismatch stops the bench.

Three timed runs, each ``--seconds`` long:

1. saturation: every user sends its next command as soon as the last one is
   answered. Gives the service's capacity in commands per second. Latency
   here is mostly queueing (N users waiting on one disk) and is shown only
   for completeness.
2. paced: every user thinks for a random time (exponential, mean ``--think``
   seconds) before each command, as players do. Gives the latency a player
   sees: p50 and p99 of the time from call to answer.
3. plain write: the same number of tasks, each writing one game row with a
   single UPDATE through a plain aiosqlite connection with the same pragmas.
   The ceiling any SQLite-backed service could reach on this disk. Measured
   just before and just after the saturation run, and averaged.

It prints commands per second, the ratio of the service's capacity to the
plain write rate, latencies, and bytes stored per game (database file size
after a checkpoint divided by the games stored, current and finished; and the
average stored move list). Targets on the 2-core machine: ratio >= 0.5,
paced p99 < 20 ms, <= 2 KB per game.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import GameService, Settings, StorageError
from bot.store import PRAGMAS, Store
from engine import Game, Status, parse_move, render

# The players play exactly the planned moves: no Aces played for them, no deal searched.
PLAIN = Settings(auto_aces=False, winnable=False)

CHOICES_LIMIT = 100  # the move_choices limit asked for with --ask-choices
# The saturation plan covers at least this rate (commands/s), whatever the 1 s plain-write
# run measured: the disk's fsync rate drifts, and on a busy machine the service has run
# at twice that run's rate. Above every rate measured on the 2-core machine (the best
# service run: 3,860/s, the best plain write: 6,800/s).
MIN_PLANNED_RATE = 8000.0
GUILD_ID = 1

# One planned command: (move text, 0, status after, legal moves before) for a move,
# (None, deal number, status after, 0) for a new game. Plain tuples of str, int and
# None, so the garbage collector stops tracking them: the plan (the players' memory,
# not the bot's) adds nothing to the collections in the timed window.
Step = tuple[str | None, int, str, int]


class DesyncError(Exception):
    """The service's answer is not what the player's plan expects."""


@dataclass(slots=True)
class Player:
    """A simulated player: its planned commands and where it is in them."""

    user_id: int
    first_deal: int
    steps: list[Step]
    next: int = 0  # index of the next command to send
    version: int = 0  # the version of the last answer


@dataclass
class Tally:
    commands: int = 0
    ran_out: int = 0  # players that ran out of planned commands during the run
    busy: int = 0  # commands refused as busy (the store's bounded wait), sent again
    latencies: list[float] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def player_rng(seed: int, user_id: int) -> random.Random:
    return random.Random(seed * 1_000_003 + user_id)


def plan_games(first_deal: int, commands: int, rng: random.Random) -> list[Step]:
    """``commands`` commands of a player starting on ``first_deal``, chosen in advance.

    A random legal move each time; a new random deal once the game is won or
    stuck. Each step records the text sent (the move's notation), the status
    the game then has, and for a move the number of legal moves before it.
    """
    game = Game.new(first_deal)
    steps: list[Step] = []
    while len(steps) < commands:
        if game.status is not Status.PLAYING:
            deal = rng.randint(1, 10**9)
            game = Game.new(deal)
            steps.append((None, deal, game.status.value, 0))
        else:
            moves = game.legal_moves()
            move = rng.choice(moves)
            game.play(move)
            steps.append((str(move), 0, game.status.value, len(moves)))
    return steps


def planned_game(player: Player) -> Game:
    """The player's game as its plan has it after the commands sent so far."""
    done = player.steps[: player.next]
    deal, start = player.first_deal, 0
    for i in range(len(done) - 1, -1, -1):
        text, step_deal, _, _ = done[i]
        if text is None:
            deal, start = step_deal, i + 1
            break
    game = Game.new(deal)
    for text, _, _, _ in done[start:]:
        assert text is not None
        game.play(parse_move(game, text))
    return game


async def command(service: GameService, player: Player, tally: Tally, ask_choices: bool) -> bool:
    """Send the player's next planned command; False if it has none left. A refusal
    for a busy database (nothing changed: a call waits at most about a second for its
    turn, so a thousand players sending at once meet it) is counted, and the player
    sends the same command again next time."""
    try:
        return await _command(service, player, tally, ask_choices)
    except StorageError as exc:
        if exc.reason != "busy":
            raise
        tally.busy += 1
        await asyncio.sleep(0.05)
        return True


async def _command(service: GameService, player: Player, tally: Tally, ask_choices: bool) -> bool:
    if player.next >= len(player.steps):
        tally.ran_out += 1
        return False
    text, deal, status, legal = player.steps[player.next]
    user_id = player.user_id
    start = time.perf_counter()
    if text is None:
        view = await service.new_game(user_id, GUILD_ID, deal)
    else:
        if ask_choices:
            choices = await service.move_choices(user_id, limit=CHOICES_LIMIT)
            if len(choices) != min(legal, CHOICES_LIMIT):
                raise DesyncError(
                    f"user {user_id}, command {player.next}: {len(choices)} choices,"
                    f" the plan has {legal} legal moves"
                )
        view = await service.move(user_id, text, player.version)
    tally.latencies.append(time.perf_counter() - start)
    tally.commands += 1
    if view.version != player.version + 1 or view.status != status:
        raise DesyncError(
            f"user {user_id}, command {player.next} ({text or f'new game {deal}'}):"
            f" version {view.version} status {view.status}, the plan expects version"
            f" {player.version + 1} status {status}"
        )
    player.version = view.version
    player.next += 1
    return True


async def play(
    service: GameService,
    players: list[Player],
    seconds: float,
    think: float,
    seed: int,
    ask_choices: bool = False,
) -> tuple[Tally, float]:
    """Every player sends planned commands for ``seconds`` (pausing ``think`` s mean if set)."""
    tally = Tally()
    deadline = time.perf_counter() + seconds

    async def user(player: Player) -> None:
        rng = player_rng(seed, player.user_id)  # think times only
        if think:
            await asyncio.sleep(rng.uniform(0, think))  # don't all start in step
        while time.perf_counter() < deadline:
            if not await command(service, player, tally, ask_choices):
                return
            if think:
                pause = rng.expovariate(1 / think)
                if time.perf_counter() + pause >= deadline:
                    return
                await asyncio.sleep(pause)

    start = time.perf_counter()
    await asyncio.gather(*(user(p) for p in players))
    elapsed = time.perf_counter() - start
    return tally, min(seconds, elapsed) if think else elapsed


async def verify(db_path: Path, players: list[Player]) -> None:
    """Read every user's game back through a fresh service; it must be the planned one."""
    store = await Store.open(db_path)
    service = GameService(store, cache_size=1, new_player=PLAIN)
    try:
        for player in players:
            view = await service.show(player.user_id)
            game = planned_game(player)
            if (
                view.version != player.version
                or view.deal_number != game.deal_number
                or view.move_count != game.move_count
                or view.status is not game.status
                or view.board != render(game)
            ):
                raise DesyncError(
                    f"user {player.user_id}: stored deal {view.deal_number}, move"
                    f" {view.move_count}, {view.status}, version {view.version}; the plan"
                    f" has deal {game.deal_number}, move {game.move_count}, {game.status},"
                    f" version {player.version}"
                )
    finally:
        await service.close()


async def plain_writes(path: Path, users: int, seconds: float, row_moves: str) -> float:
    """Writes per second of one game row per write, single UPDATE, same pragmas."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        for pragma in PRAGMAS:
            await conn.execute(pragma)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS games (user_id INTEGER PRIMARY KEY, moves TEXT NOT NULL,"
            " version INTEGER NOT NULL, updated_at TEXT NOT NULL)"
        )
        await conn.executemany(
            "INSERT OR REPLACE INTO games VALUES (?, ?, 1, '')",
            [(u, row_moves) for u in range(users)],
        )
        writes = 0
        deadline = time.perf_counter() + seconds

        async def writer(user_id: int) -> None:
            nonlocal writes
            while time.perf_counter() < deadline:
                await conn.execute(
                    "UPDATE games SET moves = ?, version = version + 1, updated_at = ? "
                    "WHERE user_id = ?",
                    (row_moves, time.time(), user_id),
                )
                writes += 1

        start = time.perf_counter()
        await asyncio.gather(*(writer(u) for u in range(users)))
        return writes / (time.perf_counter() - start)
    finally:
        await conn.close()


def commands_to_plan(rate_bound: float, users: int, seconds: float, think: float) -> int:
    """Commands each player plans: twice its share of ``rate_bound`` (at least
    ``MIN_PLANNED_RATE``) for the saturation run, three times the paced run's mean."""
    rate = max(rate_bound, MIN_PLANNED_RATE)
    saturated = math.ceil(2 * rate * seconds / users) + 10
    paced = math.ceil(3 * seconds / think) + 10 if think else 0
    return saturated + paced


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def ran_out(run: str, tally: Tally, users: int) -> None:
    if tally.ran_out:
        print(
            f"WARNING: {tally.ran_out} of {users} players ran out of planned commands"
            f" in the {run} run and stopped early: its figures understate the service;"
            " plan more with --plan",
            file=sys.stderr,
        )


async def main(
    users: int, seconds: float, think: float, seed: int, ask_choices: bool, plan: int | None
) -> None:
    with tempfile.TemporaryDirectory(prefix="reel-bench-") as tmp:
        db_path = Path(tmp) / "bench.db"
        plain_path = Path(tmp) / "plain.db"
        sample_moves = "R3 A5;" * 8  # about the average stored move list
        store = await Store.open(db_path)
        service = GameService(
            store, cache_size=max(1024, users), rng=random.Random(seed), new_player=PLAIN
        )
        rng = random.Random(seed)
        players: list[Player] = []
        for u in range(1, users + 1):
            view = await service.new_game(u, GUILD_ID, rng.randint(1, 10**9))
            players.append(Player(u, view.deal_number, [], version=view.version))

        # The players' thinking, done before the timed runs (see the module docstring).
        bound = 0.0
        if plan is None:
            bound = await plain_writes(plain_path, users, 1.0, sample_moves)
            plan = commands_to_plan(bound, users, seconds, think)
        planning = time.perf_counter()
        for player in players:
            player.steps = plan_games(player.first_deal, plan, player_rng(seed, player.user_id))
        planning = time.perf_counter() - planning
        gc.collect()  # untracks the plan's tuples before the timed runs

        # The disk's fsync rate drifts: measure the plain write just before and just after
        # the saturation run, and compare with their mean.
        plain_before = await plain_writes(plain_path, users, seconds / 2, sample_moves)
        saturated, elapsed = await play(service, players, seconds, 0.0, seed, ask_choices)
        capacity = saturated.commands / elapsed
        plain_after = await plain_writes(plain_path, users, seconds / 2, sample_moves)
        plain = (plain_before + plain_after) / 2
        paced, paced_elapsed = await play(service, players, seconds, think, seed + 1, ask_choices)

        conn = store.connection
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        rows = list(
            await conn.execute_fetchall(
                "SELECT (SELECT count(*) FROM current_games),"
                " (SELECT count(*) FROM finished_games),"
                " (SELECT avg(length(moves)) FROM current_games),"
                " (SELECT max(length(moves)) FROM current_games),"
                " (SELECT avg(length(moves)) FROM finished_games)"
            )
        )
        current, finished, avg_moves, max_moves, avg_finished_moves = rows[0]
        await service.close()
        file_bytes = os.path.getsize(db_path)
        games = current + finished
        await verify(db_path, players)

    what = "a move_choices read + a move, or a new game" if ask_choices else "a move or a new game"
    bound_text = f" (plain-write bound {bound:,.0f}/s)" if bound else ""
    print(
        f"users {users}, {seconds:g} s a run, synchronous=FULL, "
        f"GIL switch interval {sys.getswitchinterval() * 1000:g} ms"
    )
    print(
        f"planned before the runs: {plan} commands a player{bound_text},"
        f" {users * plan:,} in all, in {planning:.1f} s; used"
        f" {sum(p.next for p in players):,}; every user's stored game matches its plan"
    )
    print(
        f"saturation: {saturated.commands} commands in {elapsed:.1f} s"
        f" = {capacity:,.0f} commands/s (each {what})"
        f"; refused as busy and sent again: {saturated.busy}"
    )
    print(
        f"  latency at saturation (queueing for one disk): p50 {ms(saturated.percentile(50))},"
        f" p99 {ms(saturated.percentile(99))}"
    )
    print(
        f"paced (think time mean {think:g} s): {paced.commands / paced_elapsed:,.0f} commands/s,"
        f" p50 {ms(paced.percentile(50))}, p99 {ms(paced.percentile(99))},"
        f" max {ms(max(paced.latencies, default=0.0))}"
    )
    print(
        f"plain aiosqlite write of one game row: {plain:,.0f} writes/s"
        f" (before {plain_before:,.0f}, after {plain_after:,.0f})"
    )
    print(f"ratio service / plain: {capacity / plain:.2f}")
    print(
        f"stored: {file_bytes:,} bytes file / {games:,} games ({current} current,"
        f" {finished} finished) = {file_bytes / max(1, games):,.0f} bytes per game"
    )
    print(
        f"  move lists: current avg {avg_moves or 0:.0f} B (max {max_moves or 0}),"
        f" finished avg {avg_finished_moves or 0:.0f} B"
    )
    ran_out("saturation", saturated, users)
    ran_out("paced", paced, users)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, paced run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--plan",
        type=int,
        default=None,
        help="commands each player plans before the runs (default: from a 1 s plain-write run)",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval in ms (default: Python's 5 ms)",
    )
    parser.add_argument(
        "--ask-choices",
        action="store_true",
        help="before each move, also read move_choices (as Discord's autocomplete does)",
    )
    args = parser.parse_args()
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval / 1000)
    asyncio.run(main(args.users, args.seconds, args.think, args.seed, args.ask_choices, args.plan))
