"""``bench/web.py --race``: an Activity's room of WebSocket clients racing one deal.

The tests' fake Discord (``tests/discord_bot/fake_discord.py``) runs in this process and
answers the sign-ins (``oauth2/token``, ``users/@me``) and the instance lookups; the web
server runs as a child process (``--serve-race``), as in the board's bench, with the
Activity set up against the fake, the production cooldown, and its rooms racing deal 16.
Every client signs in as a page does (``POST /api/token`` with a code the fake gave its
user, then the socket with the session's subprotocol), all in one instance: the room
opens a race as the second arrives, everyone joins its lobby, and its host (whose entry
opened it, as the room frames say) starts it. Then for ``--seconds`` each racer thinks
(exponential, mean ``--think`` s) and plays a random legal move of its race board (the
deal when none; undo when stuck, and on) with the version it saw. Measured:

- the move round trip (send to the answer's board), each racer's moves;
- the standings lag: for every move answered and every other client, the time from the
  answer to the first ``room`` frame that client got showing that racer's game at that
  version or later (what the others see of a move);
- errors (any error frame but a stale one, or a closed socket) and, after the server
  stops, every racer's stored race game against the last board it was shown.

Targets (issue 45): standings lag p99 < 1 s, move round trip p99 < 50 ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from fake_discord import FakeDiscord

RACE_DEAL = 16
SECRET = "b" * 32


@dataclass
class Racer:
    """One client: its player, its socket's answers, and the standings it was shown."""

    user_id: int
    code: str
    rng: random.Random
    session: str = ""
    board: dict[str, Any] = field(default_factory=dict)
    version: int = -1
    position: str = ""
    times: list[float] = field(default_factory=list)  # round trips, s
    played: list[tuple[float, int]] = field(default_factory=list)  # (answered at, version)
    seen: list[tuple[float, dict[int, int]]] = field(default_factory=list)  # room frames
    errors: list[str] = field(default_factory=list)
    waiting: dict[int, asyncio.Future[list[dict[str, Any]]]] = field(default_factory=dict)
    answers: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    race_id: int | None = None
    race_host: int | None = None  # who opened the race: the one who may start it
    next_id: int = 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def reader(ws: aiohttp.ClientWebSocketResponse, racer: Racer, room: asyncio.Event) -> None:
    """Every frame the socket gets: answers to their request, room frames recorded."""
    async for message in ws:
        if message.type is not aiohttp.WSMsgType.TEXT:
            break
        got = json.loads(message.data)
        now = time.monotonic()
        if got["type"] == "room" and got.get("race"):
            racer.race_id = int(got["race"]["id"])  # ids are text on the wire
            racer.race_host = int(got["race"]["host"])
            lines = {int(r["id"]): int(r["version"]) for r in got["race"]["racers"]}
            racer.seen.append((now, lines))
            room.set()
        elif got["type"] == "board" and str(got.get("view", "")).startswith("race:"):
            racer.board, racer.version = got["board"], got["version"]
            racer.position = got["board"]["position"]
        rid = got.get("id")
        if rid is not None and rid in racer.waiting:
            racer.answers.setdefault(rid, []).append(got)
            refused = got["type"] == "error" and got["code"] != "stale"
            if got["type"] in ("board", "room") or refused:
                racer.waiting.pop(rid).set_result(racer.answers.pop(rid))
    for future in racer.waiting.values():
        if not future.done():
            future.set_exception(ConnectionError("socket closed"))


async def ask(
    ws: aiohttp.ClientWebSocketResponse, racer: Racer, frame: dict[str, Any]
) -> list[dict[str, Any]]:
    racer.next_id += 1
    future: asyncio.Future[list[dict[str, Any]]] = asyncio.get_running_loop().create_future()
    racer.waiting[racer.next_id] = future
    await ws.send_str(json.dumps({**frame, "id": racer.next_id}))
    return await asyncio.wait_for(future, 30)


def choose(racer: Racer) -> dict[str, Any]:
    board = racer.board
    moves = [m["move"] for targets in board.get("legal", {}).values() for m in targets]
    if moves:
        return {"type": "move", "move": racer.rng.choice(moves), "version": racer.version}
    kind = "deal" if board.get("can", {}).get("deal") else "undo"  # stuck: take one back
    return {"type": kind, "version": racer.version}


async def race(
    base: str,
    racer: Racer,
    everyone: int,
    start: asyncio.Event,
    done: list[int],
    args: Any,
) -> None:
    """Sign in, enter the room, race until the time is up."""
    async with aiohttp.ClientSession() as http:
        body = {"code": racer.code, "instance_id": args.instance}
        async with http.post(base + "/api/token", json=body) as got:
            racer.session = (await got.json())["session"]
        protocols = ("reel", f"session.{racer.session}")
        async with http.ws_connect(base + "/ws", protocols=protocols, max_msg_size=0) as ws:
            room = asyncio.Event()
            reading = asyncio.create_task(reader(ws, racer, room))
            while not racer.seen or len(racer.seen[-1][1]) < everyone:  # all in the lobby
                room.clear()
                await asyncio.wait_for(room.wait(), 60)
            if racer.race_host == racer.user_id:  # whoever opened the race starts it
                answers = await ask(ws, racer, {"type": "race-start"})
                if answers[-1]["type"] == "error":
                    raise RuntimeError(f"race-start refused: {answers[-1]['message']}")
                start.set()
            await asyncio.wait_for(start.wait(), 120)
            async with asyncio.timeout(30):  # the race board, once started
                while racer.version < 0:
                    await asyncio.sleep(0.01)
            until = time.monotonic() + args.seconds
            while time.monotonic() < until and racer.board.get("status") != "won":
                await asyncio.sleep(racer.rng.expovariate(1 / args.think))
                began = time.perf_counter()
                answers = await ask(ws, racer, choose(racer))
                last = answers[-1]
                if last["type"] == "board":
                    racer.times.append(time.perf_counter() - began)
                    racer.played.append((time.monotonic(), last["version"]))
                for frame in answers:
                    if frame["type"] == "error" and frame["code"] != "stale":
                        racer.errors.append(f"{frame['code']}: {frame['message']}")
            done.append(racer.user_id)  # stay until everyone has played their last move,
            async with asyncio.timeout(60):  # and its standings have reached everyone
                while len(done) < everyone:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(1.5)
            await ws.close()
            await reading


def lags(racers: list[Racer]) -> list[float]:
    """For every move answered and every other racer: answer to first standings seen."""
    found = []
    for mover in racers:
        for answered, version in mover.played:
            for other in racers:
                if other is mover:
                    continue
                seen = next(
                    (at for at, lines in other.seen if lines.get(mover.user_id, -1) >= version),
                    None,
                )
                if seen is not None:
                    found.append(max(0.0, seen - answered))
                else:
                    other.errors.append(f"never saw {mover.user_id} at v{version}")
    return found


def serve_race(settings: str) -> None:
    """``--serve-race``: the web server with the Activity, against the fake's address."""
    from bot.service import GameService
    from bot.service.cooldown import Cooldown
    from bot.store import Store
    from bot.web.local import ActivitySettings, activity_setup, bound_port, start

    given = json.loads(settings)

    async def run() -> None:
        service = GameService(await Store.open(Path(given["db"])))
        activity = ActivitySettings(
            client_id=given["client_id"],
            client_secret=given["client_secret"],
            bot_token="bench-token",
            api_base=given["api"],
            secret=SECRET.encode(),
            race_deal=RACE_DEAL,
        )
        parts = activity_setup(activity, service, None)
        assert parts is not None
        runner = await start(service, parts.sessions, Cooldown(), "127.0.0.1", 0, activity=parts)
        print(json.dumps({"port": bound_port(runner)}), flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        await stop.wait()
        print(json.dumps({"pushes": parts.rooms.pushes}), flush=True)
        await runner.cleanup()
        await service.close()

    asyncio.run(run())


async def read_back(db: Path, racers: list[Racer]) -> list[str]:
    """Every racer's stored race game against the last board it was shown."""
    from bot.service import GameService
    from bot.store import Store

    service = GameService(await Store.open(db))
    wrong = []
    try:
        for racer in racers:
            assert racer.race_id is not None
            board = await service.races.board(racer.race_id, racer.user_id)
            if (board.game.version, board.game.position) != (racer.version, racer.position):
                stored = board.game.version
                wrong.append(f"{racer.user_id}: stored v{stored}, shown v{racer.version}")
    finally:
        await service.close()
    return wrong


async def race_bench(args: Any, script: str, folder: Path) -> int:
    """The race's bench (see the module docstring); its exit code."""
    names = [f"racer{i}" for i in range(args.clients)]
    async with FakeDiscord(users=names) as fake:
        users = [fake.user(name) for name in names]
        args.instance = fake.add_activity_instance(users)
        given = {"db": str(folder / "reel.db"), "client_id": str(fake.application_id),
                 "client_secret": fake.client_secret, "api": fake.api_base}  # fmt: skip
        server = subprocess.Popen([sys.executable, script, "--serve-race", json.dumps(given)],
                                  stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert server.stdout is not None
        port = json.loads(await asyncio.to_thread(server.stdout.readline))["port"]
        master = random.Random(args.seed)
        racers = [Racer(u.id, fake.authorization_code(u), random.Random(master.random()))
                  for u in users]  # fmt: skip
        start = asyncio.Event()
        load = os.getloadavg()
        try:
            base = f"http://127.0.0.1:{port}"
            done: list[int] = []
            runs = [race(base, r, len(racers), start, done, args) for r in racers]
            results = await asyncio.gather(*runs, return_exceptions=True)
            end_load = os.getloadavg()
        finally:
            server.send_signal(signal.SIGINT)
            pushes = json.loads(await asyncio.to_thread(server.stdout.readline))["pushes"]
            await asyncio.to_thread(server.wait, 30)
    wrong = await read_back(folder / "reel.db", racers)
    report(args, racers, results, wrong, pushes, load, end_load)
    errors = [e for r in racers for e in r.errors] + [repr(x) for x in results if x is not None]
    return 0 if not errors and not wrong else 1


def report(
    args: Any,
    racers: list[Racer],
    results: list[BaseException | None],
    wrong: list[str],
    pushes: int,
    load: tuple[float, float, float],
    end_load: tuple[float, float, float],
) -> None:
    times = [t * 1000 for r in racers for t in r.times]
    lag = [t * 1000 for t in lags(racers)]
    errors = [e for r in racers for e in r.errors] + [repr(x) for x in results if x is not None]
    print(f"race: {args.clients} WebSocket clients in one Activity instance, deal {RACE_DEAL}, "
          f"{args.seconds} s, think {args.think} s; load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} at the start, {end_load[0]:.2f} at the end")  # fmt: skip
    print(f"moves {len(times)} ({len(times) / args.seconds:.0f}/s); round trip p50 "
          f"{percentile(times, 0.5):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, "
          f"max {max(times, default=float('nan')):.1f} ms")  # fmt: skip
    print(f"standings lag ({len(lag)} move x watcher pairs): p50 {percentile(lag, 0.5):.0f} ms, "
          f"p99 {percentile(lag, 0.99):.0f} ms, max {max(lag, default=float('nan')):.0f} ms; "
          f"standings frames sent to the room: {pushes}")  # fmt: skip
    print(f"errors {len(errors)}" + (f": {errors[:3]}" if errors else ""))
    print(f"race games read back: {len(racers)}, differing from the last board shown: "
          f"{len(wrong)} {wrong[:3]}")  # fmt: skip
