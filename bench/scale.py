"""Scale-out bench: simulated players through 1, 2 and 4 service processes on one
PostgreSQL, and through 1 process on SQLite, in the same run (docs/scaling.md).

    python bench/scale.py [--users 1000] [--seconds 5] [--think 1.0] [--seed 1]
                          [--processes 1,2,4] [--postgres URL]
    sudo python bench/scale.py --cpu-quota F [--cpu-period-ms MS] [--cpu-burst-ms MS]
                               [--cpu-weight W] [--paced-load 0.35] [--processes 1,2,4,8]
                               [--rounds 3]

Each configuration gets a fresh database. Its service processes are subprocesses of
this script (``bench/scale.py --worker``), each a ``GameService`` over its own store
(its own connection pool on PostgreSQL, and its own connection for the change
notifications) and its own cache, as the bot's processes are (one per group of shards).
The players are split between the processes as servers are between shards: player ``u``
plays through process ``u % N``. Each process plans its players' games before the timed
runs, exactly as ``bench/service.py`` does (a random legal move each time, a new random
deal when a game is over), then waits for this script's word on its stdin so that every
process starts each run together, and answers with its figures on stdout (one JSON line).
Once set up, each process collects and freezes its heap (``gc.freeze()``, as the bot does
once started; ``--no-freeze``: not).

Two timed runs per configuration, ``--seconds`` each:

1. saturation: each of the first ``--busy`` players (100) sends its next command as
   soon as the last is answered: commands per second, summed over the processes (the
   cluster's capacity), and the CPU a command costs (the service processes', the
   PostgreSQL server's) with the service processes' context switches a command
   (waiting for the database, or forced off the core: docs/scaling.md);
2. paced: every player thinks a random time (exponential, mean ``--think`` s) between
   commands, as people do: the p50 and p99 of the time from call to answer.

With more than one process, each process notes when each of its changes was stored and
when each change of the others was heard (``GameService.on_change``: PostgreSQL's
LISTEN/NOTIFY, ``bot/store/postgres/changes.py``), and the bench prints the lag between
the two (the same clock, ``time.monotonic``, for every process of the machine), and any
change a process never heard within ``LAG_GRACE`` after the run. The garbage collector's
pauses inside the runs are printed too.

``--cpu-quota F`` (root; ``bench/cgroups.py``): each service process runs in a CPU cgroup
of its own held to F of a core (cgroup v2 ``cpu.max``, else v1 ``cpu.cfs_quota_us``):
F of every ``--cpu-period-ms`` (100 ms, the kernel's default), from the end of its set-up,
so that N processes and PostgreSQL fit the machine and the
ratio of N processes to one shows what each process adds, as on N hosts of F of a core.
The groups (and PostgreSQL's, weighed but not held) weigh ``--cpu-weight`` ordinary
processes, so that on a machine others use they get their share first. The paced run then
offers ``--paced-load`` of the capacity the saturation run measured (a load each process
can carry), by how many players play. Meanwhile every core is kept busy at idle priority
(``--ballast``: spinners that any other process displaces at once), so that each
configuration runs on the same machine: the cores share caches and the host's, and a
process's command costs a fifth more with the other core busy. The default process
counts are those of 1, 2, 4, 8 that fit in one core (N x F <= 1); the SQLite run is left
out; the targets of issue 47 are printed with the figures. The groups are removed on the
way out, Ctrl-C included.

``--rounds K``: every PostgreSQL configuration measured K times, in turn (1, 2, 4, then
again), each round's ratios to its own one-process run, and the targets judged on their
median: on a shared machine one run's rate swings by a tenth between runs minutes apart.

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

Targets (issue 47): with ``--cpu-quota 0.25``, 2 processes at least 1.85x one and 4 at
least 3.6x; with ``--cpu-quota 0.1``, 8 processes at least 7x; the paced p99 under 20 ms
in every configuration; the cross-process lag's p99 under 1 s; no lost or duplicated move.
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
import signal
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

from bench.cgroups import CgroupError, CpuGroups  # noqa: E402
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
LAG_GRACE = 1.0
"""Seconds a process waits after a run for the last changes of the others to be heard."""
BUSY_PER_PROCESS = 25
"""With ``--cpu-quota``: players in the saturation run, per process. A process held to a
share of a core is saturated by a few; a hundred on one process queue past the store's
1 s wait for a connection and are refused as busy, which the ratio would then count
against the one-process run."""
CPU_PERIOD_MS = 100.0
"""With ``--cpu-quota``: the groups' period, the kernel's default (``cpu.cfs_period_us``
100,000) and the one container runtimes use. A group runs F of each period, then waits for
the next: with a long period a process under its quota runs its commands at a core's speed
and is stopped only when a burst of them spends the period's share, as a host of its own
would queue them; with the shortest one (1 ms of quota) nearly every command is cut by a
stop, which measures the period, not the service (docs/scaling.md)."""
BALLAST = """
import os
os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
parent = os.getppid()
while os.getppid() == parent:
    for _ in range(100_000):
        pass
"""
"""With ``--cpu-quota``: one of the spinners that keep every core busy at the kernel's
idle priority (``SCHED_IDLE``: any other process that wakes takes the core at once). The
cores of a machine share their caches and the host's physical cores (this one's are a
virtual machine's): a command costs a process 0.42 ms of CPU with the other core idle and
0.55 ms with it busy, so without a ballast one process alone runs on a quiet machine and
N processes on a busy one, and the ratio measures the machine's sharing, not what each
process adds. Each spinner ends when the bench does (its parent gone)."""
CPU_WEIGHT = 8.0
"""With ``--cpu-quota``: the groups' weight against an ordinary process (bench/cgroups.py)."""
PACED_LOAD = 0.35
"""With ``--cpu-quota``: the paced run offers this share of the capacity the saturation
run measured (a load each process can carry), by the number of players who play. A paced
command costs 1.6-2.5 times the CPU of one at saturation (each wakes an idle event loop
on cold caches: 0.8-1.4 ms against 0.4-0.6 ms in a held process; more at a tenth of a
core than at a quarter), so half of the capacity measured busies 75-90% of the quota,
where a burst of arrivals spends a period's share and waits for the next; a third of it
busies 60-80% at a quarter of a core and 80-93% at a tenth (the printed "quota busy"),
since one round trip a move made the saturation run cheaper and the paced one hardly."""


# --------------------------------------------------------------------------- a worker


def my_users(users: int, index: int, processes: int) -> list[int]:
    return [u for u in range(1, users + 1) if u % processes == index]


class Pauses:
    """The garbage collector's pauses in a process: each collection's generation and time
    (``gc.callbacks``), for the report's line on them (research/gc_pause.md)."""

    def __init__(self) -> None:
        self.found: list[tuple[int, float]] = []
        self._started = 0.0
        gc.callbacks.append(self._tell)

    def _tell(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.found.append((info["generation"], time.perf_counter() - self._started))

    def take(self) -> dict[str, Any]:
        full = [seconds for generation, seconds in self.found if generation == 2]
        young = [seconds for generation, seconds in self.found if generation < 2]
        self.found = []
        return {"gc_full": full, "gc_young": young}


class Changes:
    """When each change this process stored was told to its listeners, and when each change
    another process stored was heard here (``GameService.on_change``): the cross-process
    lag, matched up by the main process. A (player, version) and ``time.monotonic``,
    which is one clock for every process of the machine."""

    def __init__(self, mine: set[int]) -> None:
        self.mine = mine
        self.stored: list[tuple[int, int, float]] = []
        self.heard: list[tuple[int, int, float]] = []

    def __call__(self, user_id: int, version: int) -> None:
        found = (user_id, version, time.monotonic())
        (self.stored if user_id in self.mine else self.heard).append(found)

    def take(self) -> dict[str, Any]:
        taken = {"stored": self.stored, "heard": self.heard}
        self.stored, self.heard = [], []
        return taken


async def worker(target: str, index: int, processes: int, args: argparse.Namespace) -> None:
    """One service process: set up and plan its players, then run each timed run when
    told to on stdin, answering with its figures on stdout."""
    store = await open_store(target)
    service = GameService(store, cache_size=max(1024, args.users), new_player=PLAIN)
    players = await set_up(service, my_users(args.users, index, processes), args)
    changes = Changes({p.user_id for p in players})
    service.on_change(changes)
    await asyncio.sleep(0.5)  # the change notifications' connection up (PostgreSQL)
    gc.collect()
    if args.freeze:
        gc.freeze()  # as the bot does once started (research/gc_pause.md)
    pauses = Pauses()
    say({"ready": len(players), "pid": os.getpid()})
    for run in ("saturation", "paced"):
        word, _, count = sys.stdin.readline().strip().partition(" ")
        if word != run:
            raise SystemExit(f"worker {index}: expected the word {run!r}")
        think = args.think if run == "paced" else 0.0
        limit = int(count) if count else (args.users if think else args.busy)
        playing = [p for p in players if p.user_id <= limit]
        changes.take()
        pauses.take()
        profiler = profiling(args.profile, index, run)
        cpu, switched = time.process_time(), context_switches()
        tally, elapsed = await play(service, playing, args.seconds, think, args.seed + len(run))
        cpu = time.process_time() - cpu
        switches = [a - b for a, b in zip(context_switches(), switched, strict=True)]
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(Path(args.profile) / f"{Path(target).name}-{index}-{run}.prof")
        await asyncio.sleep(LAG_GRACE if processes > 1 else 0.0)  # late notifications
        done = figures(tally, elapsed) | {"busy": tally.busy, "cpu": cpu, "switches": switches}
        done |= pauses.take()
        say(done | changes.take())
    await service.close()
    say({"players": [[p.user_id, p.first_deal, p.next, p.version] for p in players]})


def context_switches() -> tuple[int, int]:
    """This process's context switches so far (its main thread's, where the event loop
    runs): (voluntary, forced), from /proc; zeros where there is none. A voluntary one is
    the loop waiting for the database; a forced one, the kernel giving the core to another
    process (the quota spent, or a process woken with a better claim), after which the
    command goes on with caches the other one has used."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return (0, 0)
    found = dict(line.split(":\t") for line in status.splitlines() if "ctxt_switches" in line)
    return (
        int(found.get("voluntary_ctxt_switches", 0)),
        int(found.get("nonvoluntary_ctxt_switches", 0)),
    )


async def set_up(service: GameService, users: list[int], args: argparse.Namespace) -> list[Player]:
    """A new game for each of ``users``, and its planned commands."""
    players: list[Player] = []
    for u in users:
        deal = random.Random(args.seed * 7919 + u).randint(1, 10**9)
        view = await service.new_game(u, GUILD_ID, deal)
        players.append(Player(u, view.deal_number, [], version=view.version))
    plan = commands_to_plan(args.users, args.seconds, args.think)
    for player in players:
        player.steps = plan_games(player.first_deal, plan, player_rng(args.seed, player.user_id))
    return players


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
    switches: tuple[int, int] = (0, 0)  # their context switches: voluntary, forced
    server_cpu: float | None = None  # CPU seconds of the PostgreSQL server's processes
    machine: float | None = None  # share of the machine's CPU time busy (everyone's)
    players: int = 0  # players who played
    lags: list[float] = field(default_factory=list)  # stored in one process, heard in another
    unheard: int = 0  # changes a process never heard of (within LAG_GRACE after the run)
    throttled: float | None = None  # share of the cgroups' periods throttled (--cpu-quota)
    gc_full: list[float] = field(default_factory=list)  # full collections' pauses, seconds
    gc_young: list[float] = field(default_factory=list)  # the younger generations'
    parts: list[dict[str, Any]] = field(default_factory=list)  # each process's answer

    def add(self, part: dict[str, Any]) -> None:
        self.busy += part["busy"]
        self.cpu += part["cpu"]
        voluntary, forced = part.get("switches", (0, 0))
        self.switches = (self.switches[0] + voluntary, self.switches[1] + forced)
        self.commands += part["commands"]
        self.elapsed = max(self.elapsed, part["elapsed"])
        self.ran_out += part["ran_out"]
        self.latencies.extend(part["latencies"])
        self.gc_full.extend(part.get("gc_full", []))
        self.gc_young.extend(part.get("gc_young", []))
        self.parts.append(part)

    def match_changes(self) -> None:
        """The cross-process lag: each change stored by one process, against its arrival in
        each other process (none with one process)."""
        if len(self.parts) < 2:
            return
        heard = [{(u, v): at for u, v, at in part["heard"]} for part in self.parts]
        for index, part in enumerate(self.parts):
            for user, version, at in part["stored"]:
                for other, arrivals in enumerate(heard):
                    if other == index:
                        continue
                    when = arrivals.get((user, version))
                    if when is None:
                        self.unheard += 1
                    else:
                        self.lags.append(when - at)
        self.parts = []

    def lag(self, p: float) -> float:
        ordered = sorted(self.lags)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0

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
    round: int = 1  # the round of ``--rounds`` it was measured in


def start_workers(target: str, processes: int, args: argparse.Namespace) -> list[Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", target]
    options = ["--users", str(args.users), "--seconds", str(args.seconds)]
    options += ["--think", str(args.think), "--seed", str(args.seed), "--busy", str(args.busy)]
    options += ["--profile", args.profile] if args.profile else []
    options += ["--loop", args.loop]
    options += ["--freeze"] if args.freeze else ["--no-freeze"]
    procs = [
        subprocess.Popen(
            [*command, f"{index}/{processes}", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for index in range(processes)
    ]
    LIVE.extend(procs)
    return procs


def hear(proc: Any) -> dict[str, Any]:
    line = proc.stdout.readline()
    if not line:
        raise SystemExit(f"a service process ended early (exit {proc.wait()})")
    answer: dict[str, Any] = json.loads(line)
    return answer


def cluster(
    name: str,
    target: str,
    processes: int,
    args: argparse.Namespace,
    server: int | None = None,
    groups: CpuGroups | None = None,
    round_: int = 1,
) -> Result:
    """One configuration: ``processes`` service processes on ``target``, both runs;
    ``server``: the PostgreSQL server's process id, whose CPU time is measured too;
    ``groups``: each process held to its share of a core (``--cpu-quota``), once set up;
    ``round_``: which of ``--rounds`` it is."""
    # The first process creates (or migrates) the database alone; the others then open it.
    procs = start_workers(target, 1, args) if processes == 1 else []
    if processes > 1:
        asyncio.run(_create(target))
        procs = start_workers(target, processes, args)
    held = []
    for index, proc in enumerate(procs):
        pid = hear(proc)["pid"]  # ready: set up and planned
        if groups is not None:
            label = f"{name.split()[0]}-{processes}-{index}-round-{round_}"
            held.append(groups.hold(label, pid))
    busy = args.busy if groups is None else BUSY_PER_PROCESS * processes
    saturation = timed_run(procs, f"saturation {busy}", server, groups, held)
    saturation.players = busy
    players_paced = paced_players(saturation, processes, args, groups)
    paced = timed_run(procs, f"paced {players_paced}", server, groups, held)
    paced.players = players_paced
    players: list[Player] = []
    for proc in procs:
        for user_id, first_deal, sent, version in hear(proc)["players"]:
            players.append(Player(user_id, first_deal, [], sent, version))
        if proc.wait() != 0:
            raise SystemExit(f"{name}: a service process failed")
    asyncio.run(verify(target, players, args))
    return Result(name, processes, saturation, paced, len(players), round_)


def timed_run(
    procs: list[Any],
    word: str,
    server: int | None,
    groups: CpuGroups | None,
    held: list[Path],
) -> Run:
    """One timed run of every process (``word``: "saturation", "paced N")."""
    for proc in procs:
        proc.stdin.write(word + "\n")
        proc.stdin.flush()
    run = Run()
    before = Counters.now(server)
    periods = [groups.throttled(g) for g in held] if groups is not None else []
    for proc in procs:
        run.add(hear(proc))
    before.until_now(run)
    if groups is not None:
        after = [groups.throttled(g) for g in held]
        total = sum(a[0] - b[0] for a, b in zip(after, periods, strict=True))
        throttled = sum(a[1] - b[1] for a, b in zip(after, periods, strict=True))
        run.throttled = throttled / total if total else 0.0
    run.match_changes()
    return run


def paced_players(
    saturation: Run, processes: int, args: argparse.Namespace, groups: CpuGroups | None
) -> int:
    """How many players play the paced run: all of them (``--users``) as ever; with
    ``--cpu-quota``, as many as offer ``PACED_LOAD`` of the capacity measured (each thinks
    ``--think`` seconds on average between commands), at most all of them."""
    if groups is None:
        return int(args.users)
    # a player sends one command at once (after a pause of up to --think) and then one
    # every --think seconds on average: this many a second over a run of --seconds
    each = (1 + (args.seconds - args.think / 2) / args.think) / args.seconds
    wanted: int = round(args.paced_load * saturation.rate / each)
    return max(processes, min(int(args.users), wanted))


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


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a PostgreSQL server's backends)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if int(text[text.rindex(")") + 2 :].split()[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def tree_ticks(pid: int) -> int:
    """CPU ticks (user + system) of process ``pid`` and its children: a PostgreSQL
    server's postmaster and its backends. The postmaster's count includes its children
    that have ended (cutime + cstime), so a backend that ends during a run (a pooled
    connection closed) takes its ticks with it to its parent instead of out of the sum."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if int(stat.parent.name) == pid:
            ticks += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        elif int(fields[1]) == pid:
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
    if any(run.switches) and run.commands:
        voluntary, forced = (n / run.commands for n in run.switches)
        text += f"; context switches a command {voluntary:.2f} waiting, {forced:.2f} forced"
    if run.machine is not None:
        text += f"; machine {run.machine:.0%} busy (everyone's work)"
    return text


def report(results: list[Result], args: argparse.Namespace) -> None:
    busy = f"{args.busy}" if args.cpu_quota is None else f"{BUSY_PER_PROCESS} a process"
    print(
        f"{args.users} players ({busy} in the saturation run), {args.seconds:g} s a run,"
        f" paced think time mean {args.think:g} s, {args.loop} event loop,"
        f" {os.cpu_count()} cores, load average at the start"
        f" {' '.join(f'{x:.2f}' for x in getattr(args, 'load', ()))}"
    )
    if hasattr(args, "speed"):
        print(
            f"the host's speed: a Python loop of ten million additions takes"
            f" {args.speed:.2f} s of CPU (compare runs of different days by it)"
        )
    if args.cpu_quota is not None:
        print(
            f"each service process in a CPU cgroup of its own ({args.cgroup}), held to"
            f" {args.cpu_quota:g} of a core ({args.cpu_quota * args.cpu_period_ms:g} ms every"
            f" {args.cpu_period_ms:g} ms"
            + (
                f", a burst of {args.cpu_burst_ms:g} ms saved while idle"
                if args.cpu_burst_ms
                else ""
            )
            + f"), weighing {args.cpu_weight:g} ordinary processes;"
            f" PostgreSQL weighs as much but is not held, the bench's driver neither;"
            f" the paced run offers about {args.paced_load:.0%} of the capacity measured"
            + (
                f"; every core kept busy at idle priority (--ballast, {os.cpu_count()}"
                " spinners), the same machine for every configuration"
                if args.ballast
                else "; no ballast: the fewer processes, the quieter the machine"
            )
        )
    base: dict[tuple[str, int], Result] = {}
    said = 0  # the last round whose heading was printed
    for result in results:
        if args.rounds > 1 and result.round != said and result.name.startswith("postgresql"):
            said = result.round
            print(f"round {said} of {args.rounds}:")
        first = base.setdefault((result.name.split()[0], result.round), result)
        report_one(result, first, args)
    if args.rounds > 1:
        spread(results)
    print(
        f"every stored game matches its plan after the acknowledged commands: "
        f"no lost or duplicated move ({sum(r.players for r in results)} games checked)"
    )
    if args.cpu_quota is not None:
        targets(results, args.cpu_quota)


def report_one(result: Result, first: Result, args: argparse.Namespace) -> None:
    """The lines of one configuration: rates and ratios, CPU, lag, what went wrong."""
    sat, paced = result.saturation, result.paced
    ratio = sat.rate / first.saturation.rate if first.saturation.rate else float("nan")
    offered = f" ({paced.rate / sat.rate:.0%} of capacity)" if sat.rate else ""
    if args.cpu_quota is not None and paced.elapsed:
        held = paced.cpu / (paced.elapsed * result.processes * args.cpu_quota)
        offered = f" ({paced.rate / sat.rate:.0%} of capacity, {held:.0%} of the quota busy)"
    print(
        f"{result.name:<22} saturation {sat.rate:8,.0f} commands/s (x{ratio:.2f})"
        f" p50 {ms(sat.percentile(50))} p99 {ms(sat.percentile(99))} |"
        f" paced {paced.players} players {paced.rate:6,.0f}/s{offered}"
        f" p50 {ms(paced.percentile(50))} p99 {ms(paced.percentile(99))}"
    )
    print(f"  saturation CPU: {cpu_use(sat)}")
    print(f"  paced CPU: {cpu_use(paced)}")
    if sat.throttled is not None and paced.throttled is not None:
        print(
            f"  cgroup periods throttled: saturation {sat.throttled:.0%},"
            f" paced {paced.throttled:.0%}"
        )
    if result.processes > 1:
        for word, run in (("saturation", sat), ("paced", paced)):
            print(
                f"  {word} cross-process lag (stored in one process, heard in each other):"
                f" p50 {ms(run.lag(50))} p99 {ms(run.lag(99))} max {ms(run.lag(100))},"
                f" {len(run.lags):,} heard, {run.unheard} never heard"
            )
    for word, run in (("saturation", sat), ("paced", paced)):
        if run.gc_full:
            print(
                f"  {word} garbage collection: {len(run.gc_full)} full, pauses up to"
                f" {ms(max(run.gc_full))} (mean {ms(sum(run.gc_full) / len(run.gc_full))});"
                f" {len(run.gc_young)} young, up to {ms(max(run.gc_young, default=0.0))}"
            )
    if sat.busy or paced.busy:
        print(f"  refused as busy (retried): saturation {sat.busy}, paced {paced.busy}")
    if sat.ran_out or paced.ran_out:
        print(f"  warning: players ran out of planned commands: {sat.ran_out}, {paced.ran_out}")


def ratios(results: list[Result]) -> dict[int, list[float]]:
    """Each PostgreSQL process count's saturation ratios to one process, one a round (each
    against its own round's one-process run, measured minutes apart on the same machine)."""
    pg = [r for r in results if r.name.startswith("postgresql")]
    ones = {r.round: r.saturation.rate for r in pg if r.processes == 1}
    found: dict[int, list[float]] = {}
    for r in pg:
        if r.processes > 1 and ones.get(r.round):
            found.setdefault(r.processes, []).append(r.saturation.rate / ones[r.round])
    return found


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def spread(results: list[Result]) -> None:
    """With ``--rounds``: each process count's ratios, round by round, and their median."""
    print("saturation ratios to one process, round by round (the targets take the median):")
    for processes, found in sorted(ratios(results).items()):
        each = " ".join(f"x{r:.2f}" for r in found)
        print(f"  {processes} processes: {each}; median x{median(found):.2f}")


def targets(results: list[Result], share: float) -> None:
    """Issue 47's targets for this share of a core, met or not, from these figures (the
    median ratio over the rounds)."""
    wanted = {2: 1.85, 4: 3.6} if share >= 0.25 else {8: 7.0}
    pg = [r for r in results if r.name.startswith("postgresql")]
    found = ratios(results)
    lines = []
    for processes, floor in wanted.items():
        if processes not in found:
            lines.append(f"{processes} processes at least x{floor:g} one: not run")
            continue
        ratio = median(found[processes])
        verdict = "met" if ratio >= floor else "NOT met"
        lines.append(f"{processes} processes at least x{floor:g} one: x{ratio:.2f}, {verdict}")
    worst = max((r.paced.percentile(99) for r in results), default=0.0)
    lines.append(f"paced p99 under 20 ms everywhere: worst {ms(worst)}, "
                 f"{'met' if worst < 0.020 else 'NOT met'}")  # fmt: skip
    lags = [r.paced.lag(99) for r in pg if r.processes > 1]
    if lags:
        lines.append(f"cross-process lag p99 under 1 s: worst {ms(max(lags))}, "
                     f"{'met' if max(lags) < 1.0 else 'NOT met'}")  # fmt: skip
    print(f"targets at {share:g} of a core (issue 47):")
    for line in lines:
        print(f"  {line}")


LIVE: list[subprocess.Popen[str]] = []
"""Every service process started, ended on the bench's way out (Ctrl-C included)."""


def reference_loop(iterations: int = 2_000_000, repeats: int = 3) -> float:
    """The CPU seconds a plain Python loop of ``iterations`` additions takes here (the
    fastest of ``repeats``), scaled to ten million: the host's speed for Python today. On
    a shared host it changes from day to day (a neighbour on the same physical core), and
    every figure with it (docs/scaling.md)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        total = 0
        for i in range(iterations):
            total += i
        best = min(best, time.process_time() - start)
    return best * 10_000_000 / iterations


def main(args: argparse.Namespace) -> int:
    args.load = os.getloadavg()  # others' work on the machine, said with the figures
    args.speed = reference_loop()  # and how fast the host runs Python today
    groups = None
    if args.cpu_quota is not None:
        try:
            period = round(args.cpu_period_ms * 1000)
            burst = round(args.cpu_burst_ms * 1000)
            groups = CpuGroups.create(args.cpu_quota, period, args.cpu_weight, burst)
        except CgroupError as exc:
            print(f"bench/scale.py: {exc}", file=sys.stderr)
            return 2
        args.cgroup = f"cgroup v{groups.hierarchy.version} at {groups.hierarchy.root}"
    signal.signal(signal.SIGTERM, _interrupted)
    # Ctrl-C too, even when started with SIGINT ignored (a shell's background job)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if groups is not None and args.ballast:
            LIVE.extend(ballast())
        report(measure(args, groups), args)
    except KeyboardInterrupt:
        print("bench/scale.py: interrupted", file=sys.stderr)
        return 130
    finally:
        end_live()
        if groups is not None:
            groups.remove()
    return 0


def end_live() -> None:
    """Kill every process of ``LIVE`` still running (the service processes before their
    database stops: killed after, each would log a traceback for every player it had,
    enough to fill a caller's pipe and stop the bench as it says it was interrupted)."""
    for proc in LIVE:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def ballast() -> list[subprocess.Popen[str]]:
    """A spinner on every core at idle priority (``BALLAST``)."""
    return [
        subprocess.Popen(
            [sys.executable, "-c", BALLAST],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for _ in range(os.cpu_count() or 1)
    ]


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: the workers stopped, the groups removed


def measure(args: argparse.Namespace, groups: CpuGroups | None) -> list[Result]:
    """Every configuration asked for, in turn: PostgreSQL's, then SQLite's."""
    results: list[Result] = []
    postgres = Postgres(args.postgres or os.environ.get("REEL_BENCH_DATABASE_URL") or None)
    why = postgres.start()
    try:
        if why is not None:
            print(f"PostgreSQL runs skipped: {why}")
        else:
            if groups is not None and postgres.pid is not None:  # weighed, never held
                groups.hold_tree("postgresql", [postgres.pid, *children(postgres.pid)])
            for round_ in range(1, args.rounds + 1):
                for processes in args.processes:
                    name = f"postgresql {processes} process{'es' if processes > 1 else ''}"
                    target = postgres.fresh()
                    results.append(
                        cluster(name, target, processes, args, postgres.pid, groups, round_)
                    )
                    print(f"  done: {name} (round {round_})", file=sys.stderr)
    except BaseException:  # Ctrl-C, SIGTERM, a failure: the workers go before their database
        end_live()
        raise
    finally:
        postgres.stop()
    if args.sqlite:
        with tempfile.TemporaryDirectory(prefix="reel-scale-") as tmp:
            target = str(Path(tmp) / "scale.db")
            results.append(cluster("sqlite 1 process", target, 1, args, None, groups))
    return results


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
        help="PostgreSQL process counts, e.g. 1,2,4 (the default; with --cpu-quota F, each"
        " of 1, 2, 4, 8 whose processes fit in one core: F x N <= 1)",
    )
    parser.add_argument(
        "--sqlite",
        action=argparse.BooleanOptionalAction,
        help="also the 1-process SQLite run (default: yes, but not with --cpu-quota)",
    )
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: a throwaway one)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure every PostgreSQL configuration this many times, in turn (1, 2, 4, then"
        " again): each round's ratios are to its own one-process run, and the targets take"
        " their median (a run's rate swings by a tenth between runs on a shared machine)",
    )
    add_quota_options(parser)
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
    parser.add_argument(
        "--freeze",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="gc.freeze() in each service process once set up, as the bot does once started"
        " (default: yes; research/gc_pause.md)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("slot", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(
            f"--rounds: how often to measure each configuration, 1 or more, not {args.rounds}"
        )
    if args.processes is None:
        quota = args.cpu_quota
        args.processes = [1, 2, 4] if quota is None else [n for n in (1, 2, 4, 8) if n * quota <= 1]
    if args.sqlite is None:
        args.sqlite = args.cpu_quota is None
    return args


def add_quota_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cpu-quota",
        type=float,
        metavar="F",
        help="hold each service process to F of a core, in a CPU cgroup of its own (needs"
        " root; cgroup v2's cpu.max, else v1's cpu.cfs_quota_us): N processes then add"
        " capacity as on N hosts of F of a core, PostgreSQL on the cores left",
    )
    parser.add_argument(
        "--cpu-period-ms",
        type=float,
        default=CPU_PERIOD_MS,
        help=f"the cgroups' period: each group may run F of it in every period, and once that"
        f" is spent waits for the next (default {CPU_PERIOD_MS:g}, the kernel's own; the"
        f" shortest it takes gives a quota of 1 ms: 4 ms at F = 0.25, 10 ms at F = 0.1)",
    )
    parser.add_argument(
        "--cpu-burst-ms",
        type=float,
        default=0.0,
        help="with --cpu-quota, quota a group may save while idle and spend at once (cgroup"
        " v2 cpu.max.burst, v1 cpu.cfs_burst_us; default 0, none): the average stays F of a"
        " core, but a command that comes after a pause runs on without being stopped in"
        " mid-course, as on a host of its own",
    )
    parser.add_argument(
        "--cpu-weight",
        type=float,
        default=CPU_WEIGHT,
        help="with --cpu-quota, how much each service process's group and PostgreSQL's weigh"
        f" against an ordinary process when every core is busy (default {CPU_WEIGHT:g}: they"
        " get their share first on a machine others use; 1: no more than anyone)",
    )
    parser.add_argument(
        "--ballast",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="with --cpu-quota, keep every core busy at idle priority (SCHED_IDLE) in every"
        " configuration, so that one process alone does not run on a quieter machine than N"
        " (default: yes; see BALLAST in the source)",
    )
    parser.add_argument(
        "--paced-load",
        type=float,
        default=PACED_LOAD,
        help=f"with --cpu-quota, the share of the capacity measured that the paced run"
        f" offers (default {PACED_LOAD:g})",
    )


if __name__ == "__main__":
    options = parse(sys.argv[1:])
    if options.worker:
        index, processes = (int(n) for n in options.slot.split("/"))
        with asyncio.Runner(loop_factory=loop_factory(options.loop)) as runner:
            runner.run(worker(options.worker, index, processes, options))
    else:
        raise SystemExit(main(options))
