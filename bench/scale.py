"""Scale-out bench: simulated players through 1, 2 and 4 service processes on one
PostgreSQL, and through 1 process on SQLite, in the same run (docs/scaling.md).

    python bench/scale.py [--users 1000] [--seconds 5] [--think 1.0] [--seed 1]
                          [--processes 1,2,4] [--postgres URL]

Each configuration gets a fresh database. Its service processes are subprocesses of
this script (``bench/scale.py --worker``), each a ``GameService`` over its own store
(its own connection pool on PostgreSQL) and its own cache, as the bot's processes are
(one per group of shards). The players are split between the processes as servers are
between shards: player ``u`` plays through process ``u % N``. Each process plans its
players' games before the timed runs, exactly as ``bench/service.py`` does (a random
legal move each time, a new random deal when a game is over), then waits for this
script's word on its stdin so that every process starts each run together, and answers
with its figures on stdout (one JSON line).

Two timed runs per configuration, ``--seconds`` each:

1. saturation: each of the first ``--busy`` players (100) sends its next command as
   soon as the last is answered: commands per second, summed over the processes (the
   cluster's capacity);
2. paced: every player thinks a random time (exponential, mean ``--think`` s) between
   commands, as people do: the p50 and p99 of the time from call to answer.

Every answer is checked (the next version, the planned status). Afterwards a fresh
service reads every player's game back from the database and compares it with the
planned game replayed to the number of commands acknowledged: a lost move (stored
fewer) or a duplicated one (stored more) stops the bench with the player named.

The PostgreSQL server: ``--postgres URL`` (or ``REEL_BENCH_DATABASE_URL``), a server
started by hand whose user may create databases; otherwise a throwaway server is
started in a temporary folder (``initdb``/``pg_ctl``, as the tests' ``pg_server.py``
does) with fsync on, as a production server has it (SQLite's runs fsync every commit
too: ``synchronous=FULL``). Without PostgreSQL (no server, no ``asyncpg``) the
PostgreSQL runs are skipped with a line saying so and the SQLite run still runs.

Targets on the 2-core machine (issue 34): PostgreSQL with 2 processes at least 1.3x
one process; p99 under 20 ms at 1,000 users; no lost or duplicated moves.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import importlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.service import (  # noqa: E402
    GUILD_ID,
    PLAIN,
    Player,
    Tally,
    plan_games,
    planned_game,
    play,
    player_rng,
)
from bot.service import GameService  # noqa: E402
from bot.store.open import open_store  # noqa: E402
from engine import render  # noqa: E402

SATURATING = 100
"""Players in the saturation run (the first ones): enough to keep every process and the
database busy, few enough that none waits a whole second for a pooled connection (the
PostgreSQL store's bounded wait, which a thousand players sending at once would pass)."""
PLANNED_RATE = 6000.0
"""Commands per second a saturation plan covers (twice over), above any rate seen here."""


# --------------------------------------------------------------------------- a worker


def my_users(users: int, index: int, processes: int) -> list[int]:
    return [u for u in range(1, users + 1) if u % processes == index]


async def worker(target: str, index: int, processes: int, args: argparse.Namespace) -> None:
    """One service process: set up and plan its players, then run each timed run when
    told to on stdin, answering with its figures on stdout."""
    store = await open_store(target)
    service = GameService(store, cache_size=max(1024, args.users), new_player=PLAIN)
    players: list[Player] = []
    for u in my_users(args.users, index, processes):
        deal = random.Random(args.seed * 7919 + u).randint(1, 10**9)
        view = await service.new_game(u, GUILD_ID, deal)
        players.append(Player(u, view.deal_number, [], version=view.version))
    plan = commands_to_plan(args.users, args.seconds, args.think)
    for player in players:
        player.steps = plan_games(player.first_deal, plan, player_rng(args.seed, player.user_id))
    gc.collect()
    say({"ready": len(players)})
    for run, think in (("saturation", 0.0), ("paced", args.think)):
        if sys.stdin.readline().strip() != run:
            raise SystemExit(f"worker {index}: expected the word {run!r}")
        playing = [p for p in players if think or p.user_id <= args.busy]
        profiler = profiling(args.profile, index, run)
        cpu = time.process_time()
        tally, elapsed = await play(service, playing, args.seconds, think, args.seed + len(run))
        cpu = time.process_time() - cpu
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(Path(args.profile) / f"{Path(target).name}-{index}-{run}.prof")
        say(figures(tally, elapsed) | {"busy": tally.busy, "cpu": cpu})
    await service.close()
    say({"players": [[p.user_id, p.first_deal, p.next, p.version] for p in players]})


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop a service process runs on: None for asyncio's default."""
    if name == "asyncio":
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = importlib.import_module(
        "uvloop"
    ).new_event_loop
    return factory


def profiling(folder: str | None, index: int, run: str) -> cProfile.Profile | None:
    """A started profiler for this run of this process if ``--profile`` asks for one."""
    if folder is None:
        return None
    profiler = cProfile.Profile()
    profiler.enable()
    return profiler


def commands_to_plan(users: int, seconds: float, think: float) -> int:
    saturation = 2 * PLANNED_RATE * seconds / min(users, SATURATING)
    paced = 3 * seconds / think if think else 0.0
    return math.ceil(saturation + paced) + 5


def figures(tally: Tally, elapsed: float) -> dict[str, Any]:
    return {
        "commands": tally.commands,
        "elapsed": elapsed,
        "ran_out": tally.ran_out,
        "latencies": [round(x, 6) for x in tally.latencies],
    }


def say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# --------------------------------------------------------------------------- the cluster


@dataclass
class Run:
    commands: int = 0
    elapsed: float = 0.0
    ran_out: int = 0
    busy: int = 0
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0  # CPU seconds of the service processes, summed
    server_cpu: float | None = None  # CPU seconds of the PostgreSQL server's processes
    machine: float | None = None  # share of the machine's CPU time busy (everyone's)

    def add(self, part: dict[str, Any]) -> None:
        self.busy += part["busy"]
        self.cpu += part["cpu"]
        self.commands += part["commands"]
        self.elapsed = max(self.elapsed, part["elapsed"])
        self.ran_out += part["ran_out"]
        self.latencies.extend(part["latencies"])

    @property
    def rate(self) -> float:
        return self.commands / self.elapsed if self.elapsed else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class Result:
    name: str
    processes: int
    saturation: Run
    paced: Run
    players: int


def start_workers(target: str, processes: int, args: argparse.Namespace) -> list[Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", target]
    options = ["--users", str(args.users), "--seconds", str(args.seconds)]
    options += ["--think", str(args.think), "--seed", str(args.seed), "--busy", str(args.busy)]
    options += ["--profile", args.profile] if args.profile else []
    options += ["--loop", args.loop]
    return [
        subprocess.Popen(
            [*command, f"{index}/{processes}", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for index in range(processes)
    ]


def hear(proc: Any) -> dict[str, Any]:
    line = proc.stdout.readline()
    if not line:
        raise SystemExit(f"a service process ended early (exit {proc.wait()})")
    answer: dict[str, Any] = json.loads(line)
    return answer


def cluster(
    name: str, target: str, processes: int, args: argparse.Namespace, server: int | None = None
) -> Result:
    """One configuration: ``processes`` service processes on ``target``, both runs;
    ``server``: the PostgreSQL server's process id, whose CPU time is measured too."""
    # The first process creates (or migrates) the database alone; the others then open it.
    procs = start_workers(target, 1, args) if processes == 1 else []
    if processes > 1:
        asyncio.run(_create(target))
        procs = start_workers(target, processes, args)
    for proc in procs:
        hear(proc)  # ready: set up and planned
    runs: list[Run] = []
    for word in ("saturation", "paced"):
        for proc in procs:
            proc.stdin.write(word + "\n")
            proc.stdin.flush()
        run = Run()
        before = Counters.now(server)
        for proc in procs:
            run.add(hear(proc))
        before.until_now(run)
        runs.append(run)
    players: list[Player] = []
    for proc in procs:
        for user_id, first_deal, sent, version in hear(proc)["players"]:
            players.append(Player(user_id, first_deal, [], sent, version))
        if proc.wait() != 0:
            raise SystemExit(f"{name}: a service process failed")
    asyncio.run(verify(target, players, args))
    return Result(name, processes, runs[0], runs[1], len(players))


@dataclass
class Counters:
    """CPU time counters at a moment: the machine's (busy, all) and the server's."""

    busy: int
    total: int
    server: int | None
    server_pid: int | None

    @classmethod
    def now(cls, server_pid: int | None) -> Counters:
        busy, total = machine_ticks()
        server = None if server_pid is None else tree_ticks(server_pid)
        return cls(busy, total, server, server_pid)

    def until_now(self, run: Run) -> None:
        """Put the CPU time spent since these counters in ``run``."""
        later = Counters.now(self.server_pid)
        if later.total > self.total:
            run.machine = (later.busy - self.busy) / (later.total - self.total)
        if self.server is not None and later.server is not None:
            run.server_cpu = (later.server - self.server) / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot (Linux), (0, 0) elsewhere."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields) - idle, sum(fields)


def tree_ticks(pid: int) -> int:
    """CPU ticks (user + system) of process ``pid`` and its children: a PostgreSQL
    server's postmaster and its backends."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks


async def _create(target: str) -> None:
    store = await open_store(target)
    await store.close()


async def verify(target: str, players: list[Player], args: argparse.Namespace) -> None:
    """Every stored game is the planned one after exactly the acknowledged commands."""
    plan = commands_to_plan(args.users, args.seconds, args.think)
    store = await open_store(target)
    service = GameService(store, cache_size=1, new_player=PLAIN)
    try:
        for player in players:
            rng = player_rng(args.seed, player.user_id)
            player.steps = plan_games(player.first_deal, plan, rng)
            view = await service.show(player.user_id)
            game = planned_game(player)
            if view.version != player.version or view.board != render(game):
                raise SystemExit(
                    f"user {player.user_id}: stored version {view.version}, move "
                    f"{view.move_count}; acknowledged version {player.version}, move "
                    f"{game.move_count}: a move was lost or duplicated"
                )
    finally:
        await service.close()


# --------------------------------------------------------------------------- PostgreSQL


class Postgres:
    """Fresh databases on a PostgreSQL server: given by URL, or a throwaway one."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.server: Any = None
        self.count = 0

    def start(self) -> str | None:
        """None when ready; else why the PostgreSQL runs are skipped."""
        try:
            import asyncpg  # noqa: F401

            PgServer = pg_server().PgServer
        except ImportError as exc:
            return f"the PostgreSQL backend is missing ({exc})"
        if self.url:
            return None
        try:
            self.server = PgServer()
            self.server.url = ""  # ours, even with REEL_TEST_DATABASE_URL set
            start_durable(self.server)
        except Exception as exc:  # no initdb, no postgres user, a failed start
            return f"no PostgreSQL server could be started ({exc})"
        self.url = self.server.url
        return None

    async def _admin(self, *statements: str) -> None:
        import asyncpg

        assert self.url or self.server
        conn = await asyncpg.connect(self.url or self.server.url)
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    def fresh(self) -> str:
        self.count += 1
        name = f"reel_scale_{os.getpid()}_{self.count}"
        asyncio.run(self._admin(f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}"))
        assert self.url is not None
        head, _, _ = self.url.rpartition("/")
        return f"{head}/{name}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()

    @property
    def pid(self) -> int | None:
        """The throwaway server's postmaster process id (None for a server given by URL)."""
        if self.server is None or getattr(self.server, "folder", None) is None:
            return None
        pid_file = Path(self.server.folder) / "data" / "postmaster.pid"
        try:
            return int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None


def pg_server() -> Any:
    """tests/bot/pg_server.py, the tests' throwaway server (imported by name, so that
    the tests' own import of it as ``pg_server`` stays the one mypy sees)."""
    return importlib.import_module("tests.bot.pg_server")


def start_durable(server: Any) -> None:
    """Start ``server`` (a tests/bot/pg_server.py ``PgServer``) as its ``start`` does, but
    with fsync and full-page writes on: a production server's settings, not a test's."""
    pg = pg_server()
    pg.stop_orphans()  # servers left by runs killed hard (tests/bot/pg_server.py)
    folder = Path(tempfile.mkdtemp(prefix="reel-scale-pg-"))
    pg.claim(folder)
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    server.folder = folder
    data = folder / "data"
    initdb = [pg._program("initdb"), "-D", str(data), "-U", pg.USER, "--auth=trust", "-E", "UTF8"]
    subprocess.run(pg._as_server_user(initdb), check=True, capture_output=True)
    port = pg._free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} "
        "-c max_connections=100 -c shared_buffers=128MB"
    )
    ctl = [pg._program("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-o", options]
    subprocess.run(pg._as_server_user([*ctl, "-w", "start"]), check=True, capture_output=True)
    server._started = True
    server.url = f"postgresql://{pg.USER}@127.0.0.1:{port}/postgres"


# --------------------------------------------------------------------------- report


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def cpu_use(run: Run) -> str:
    """Where the CPU went in ``run``: per command, and the machine's busy share."""
    per = 1000 / run.commands if run.commands else float("nan")
    text = f"service {run.cpu * per:.2f} ms/command"
    if run.server_cpu is not None:
        text += f", PostgreSQL {run.server_cpu * per:.2f} ms/command"
    if run.machine is not None:
        text += f"; machine {run.machine:.0%} busy (everyone's work)"
    return text


def report(results: list[Result], args: argparse.Namespace) -> None:
    print(
        f"{args.users} players ({args.busy} in the saturation run), {args.seconds:g} s a run,"
        f" paced think time mean {args.think:g} s, {args.loop} event loop,"
        f" {os.cpu_count()} cores, load average at the start"
        f" {' '.join(f'{x:.2f}' for x in getattr(args, 'load', ()))}"
    )
    base: dict[str, Result] = {}
    for result in results:
        backend = result.name.split()[0]
        first = base.setdefault(backend, result)
        sat, paced = result.saturation, result.paced
        ratio = sat.rate / first.saturation.rate if first.saturation.rate else float("nan")
        p99_ratio = paced.percentile(99) / first.paced.percentile(99)
        print(
            f"{result.name:<22} saturation {sat.rate:8,.0f} commands/s (x{ratio:.2f})"
            f" p50 {ms(sat.percentile(50))} p99 {ms(sat.percentile(99))} |"
            f" paced {paced.rate:6,.0f}/s p50 {ms(paced.percentile(50))}"
            f" p99 {ms(paced.percentile(99))} (x{p99_ratio:.2f})"
        )
        print(f"  saturation CPU: {cpu_use(sat)}")
        if sat.busy or paced.busy:
            print(f"  refused as busy (retried): saturation {sat.busy}, paced {paced.busy}")
        if sat.ran_out or paced.ran_out:
            print(f"  warning: players ran out of planned commands: {sat.ran_out}, {paced.ran_out}")
    print(
        f"every stored game matches its plan after the acknowledged commands: "
        f"no lost or duplicated move ({sum(r.players for r in results)} games checked)"
    )


def main(args: argparse.Namespace) -> None:
    results: list[Result] = []
    args.load = os.getloadavg()  # others' work on the machine, said with the figures
    postgres = Postgres(args.postgres or os.environ.get("REEL_BENCH_DATABASE_URL") or None)
    why = postgres.start()
    try:
        if why is not None:
            print(f"PostgreSQL runs skipped: {why}")
        else:
            for processes in args.processes:
                name = f"postgresql {processes} process{'es' if processes > 1 else ''}"
                results.append(cluster(name, postgres.fresh(), processes, args, postgres.pid))
                print(f"  done: {name}", file=sys.stderr)
    finally:
        postgres.stop()
    if args.sqlite:
        with tempfile.TemporaryDirectory(prefix="reel-scale-") as tmp:
            results.append(cluster("sqlite 1 process", str(Path(tmp) / "scale.db"), 1, args))
    report(results, args)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--users", type=int, default=1000, help="simulated players")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, paced run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--busy", type=int, default=SATURATING, help="players in the saturation run"
    )
    parser.add_argument(
        "--processes",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, 2, 4],
        help="PostgreSQL process counts, e.g. 1,2,4",
    )
    parser.add_argument(
        "--sqlite",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also the 1-process SQLite run (default: yes)",
    )
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: a throwaway one)")
    parser.add_argument(
        "--profile",
        help="a folder: each service process writes a cProfile of each run there"
        " (research/scale_profile.md reads them; the figures are then slower)",
    )
    parser.add_argument(
        "--loop",
        choices=("asyncio", "uvloop"),
        default="asyncio",
        help="the service processes' event loop: asyncio's own (the bot's, the default) or"
        " uvloop's (if installed; an option the bot does not take today)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("slot", nargs="?", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    options = parse(sys.argv[1:])
    if options.worker:
        index, processes = (int(n) for n in options.slot.split("/"))
        with asyncio.Runner(loop_factory=loop_factory(options.loop)) as runner:
            runner.run(worker(options.worker, index, processes, options))
    else:
        main(options)
