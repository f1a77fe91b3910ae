"""Benchmark of the web board: many WebSocket clients playing at once against one server.

    python bench/web.py [--clients 200] [--seconds 20] [--think 1.0] [--seed 1]
                        [--no-browser]

The server is one process (``bot.web`` over ``GameService`` on an SQLite file in a
temporary directory, the store's own settings: every move fsynced before it is
answered), with the production per-user cooldown, started as a child of this script
(``--serve``) so that the clients' own work does not share its event loop. Each client
is one player with a session of its own and one WebSocket, as an open board is: it
turns random deals on (no winnable search), deals itself a game, and once every client
is ready all play for ``--seconds``: after a think time (exponential, mean ``--think``
seconds) it sends a move chosen from the board's legal moves (the deal when there is
none; a new game when the game is won or stuck), with the version it saw, and waits
for the answer. The round trip (send to answer) of every move and deal is timed (a new
game's is not).

Printed: moves, errors (any error frame or a closed socket: there must be none), the
round trip's p50/p99/max, and the load average (others' work on this shared machine).
Then the server is stopped and every player's game is read back from the database by a
fresh service: its version and position must be those of the last board the client
was answered with (no move lost, none applied twice). Then the page's bundle (raw and
gzipped) and, unless ``--no-browser``, the first full render in headless Chromium
(Debian's, at /usr/bin/chromium): from the navigation's start to the board drawn with
its ``data-position``, by the page's own clock (``performance.now()`` in a mutation
observer), cold and then warm (the median of five).

Targets (issue 44): round trip p99 < 50 ms, errors 0, no move lost; bundle < 250 KB
(< 80 KB gzipped); first render < 300 ms.

Then two floods from this one address (issue 59): 300 sockets with no session at once
(how many the server answered and closed at once, refused, or held open: none may be
held) and 500 sign-ins with bogus codes (how many were refused before Discord, and how
fast). The render and the first flood use a second server over the same service: the
board as ``reel web`` serves its local player (the first client), and the board as the
bot serves it (no local player, an Activity whose Discord is nowhere).

    python bench/web.py --race [--clients 25] [--seconds 20] [--think 1.0]

races the clients in one Discord Activity instance instead: ``bench/web_race.py`` says
how, and what it measures (the standings lag, the move round trip).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.web.app import STATIC  # noqa: E402

FIRST_USER = 10_000
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip


@dataclass
class Client:
    """One player's open board and what it was answered."""

    user_id: int
    token: str
    rng: random.Random
    version: int = -1
    position: str = ""
    board: dict[str, Any] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)  # move round trips, seconds
    errors: list[str] = field(default_factory=list)
    next_id: int = 0
    new_games: int = 0  # games dealt in the timed window


def choose(client: Client) -> dict[str, Any]:
    """The client's next request, from the board it was shown."""
    board = client.board
    if not board.get("playing", False):
        return {"type": "new", "version": client.version, "deal": client.rng.randint(1, 10**6)}
    moves = [m["move"] for targets in board["legal"].values() for m in targets]
    if moves:
        return {"type": "move", "move": client.rng.choice(moves), "version": client.version}
    return {"type": "deal", "version": client.version}


async def ask(
    ws: aiohttp.ClientWebSocketResponse, client: Client, frame: dict[str, Any], timed: bool
) -> None:
    """Send ``frame``; read frames until its answer (pushes of the same game are skipped);
    ``timed``: its round trip counts (a move or a deal, not a new game)."""
    client.next_id += 1
    request_id = client.next_id
    started = time.perf_counter()
    await ws.send_str(json.dumps({**frame, "id": request_id}))
    while True:
        message = await ws.receive(timeout=30)
        if message.type is not aiohttp.WSMsgType.TEXT:
            client.errors.append(f"socket {message.type.name}")
            raise ConnectionError("socket closed")
        got = json.loads(message.data)
        if got.get("id") != request_id:
            continue
        if got["type"] == "error":
            client.errors.append(f"{got['code']}: {got['message']}")
            continue  # a stale answer's board follows
        if got["type"] == "no-game":  # settings before the first game
            return
        if got["type"] == "board":
            if timed:
                client.times.append(time.perf_counter() - started)
            else:
                client.new_games += 1
            client.board, client.version = got["board"], got["version"]
            client.position = got["board"]["position"]
            return


@dataclass
class Start:
    """Every client plays from the same moment, once all are connected and dealt."""

    waiting: int
    seconds: float
    go: asyncio.Event = field(default_factory=asyncio.Event)
    until: float = 0.0

    async def ready(self) -> float:
        self.waiting -= 1
        if self.waiting == 0:
            self.until = time.monotonic() + self.seconds
            self.go.set()
        await self.go.wait()
        return self.until


async def connect(http: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse:
    """The board's socket, opened again after the wait a 429 asks for (the clients share
    one address, whose rate of socket opens the server limits), as the page does."""
    while True:
        try:
            return await http.ws_connect(url, max_msg_size=0)
        except aiohttp.WSServerHandshakeError as exc:
            if exc.status != 429:
                raise
            retry = exc.headers.get("Retry-After", "1") if exc.headers else "1"
            await asyncio.sleep(float(retry))


async def play(url: str, client: Client, start: Start, think: float) -> None:
    cookies = {"reel_session": client.token}
    async with (
        aiohttp.ClientSession(cookies=cookies) as http,
        await connect(http, url) as ws,
    ):
        while True:  # hello, then the board (or no game)
            got = json.loads((await ws.receive(timeout=30)).data)
            if got["type"] in ("board", "no-game"):
                break
        # any deal: a new game is dealt at once, not searched for a winnable one
        await ask(ws, client, {"type": "settings", "winnable": False, "auto_aces": False}, False)
        await ask(ws, client, {"type": "new", "deal": client.rng.randint(1, 10**6)}, False)
        client.new_games = 0
        until = await start.ready()
        while time.monotonic() < until:
            await asyncio.sleep(client.rng.expovariate(1 / think))
            request = choose(client)
            await ask(ws, client, request, request["type"] != "new")


def serve(db: str, clients: int) -> None:
    """``--serve``: the server process; prints its port and the players' tokens."""
    from bot.service import GameService
    from bot.service.cooldown import Cooldown
    from bot.store import Store
    from bot.web import Sessions
    from bot.web.local import ActivitySettings, activity_setup, bound_port, start

    async def run() -> None:
        service = GameService(await Store.open(Path(db)))
        sessions = Sessions()
        tokens = {FIRST_USER + i: sessions.open(FIRST_USER + i) for i in range(clients)}
        # the board as the bot serves it, with an Activity whose Discord is nowhere (a
        # sign-in that gets past the rate fails fast), and no local player: the attacks
        dead = ActivitySettings("1", "x", None, "http://127.0.0.1:9/api/v10", b"k" * 32)
        activity = activity_setup(dead, service, None)
        runner = await start(service, sessions, Cooldown(), "127.0.0.1", 0, activity=activity)
        # ... and over the same service, the board as `reel web` serves it to its local
        # player (the first client): the page the first render draws
        local = await start(service, Sessions(FIRST_USER, tokens=False), None, "127.0.0.1", 0)
        ports = {"port": bound_port(runner), "local_port": bound_port(local)}
        print(json.dumps({**ports, "tokens": tokens}), flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
        await stop.wait()
        await local.cleanup()
        await runner.cleanup()
        await service.close()

    asyncio.run(run())


async def read_back(db: Path, clients: list[Client]) -> list[str]:
    """Every player's stored game against the last board it was answered with."""
    from bot.service import GameService, NoGameError
    from bot.store import Store

    service = GameService(await Store.open(db))
    lost = []
    try:
        for client in clients:
            try:
                view = await service.show(client.user_id)
            except NoGameError:
                lost.append(f"user {client.user_id}: no game stored")
                continue
            if (view.version, view.position) != (client.version, client.position):
                lost.append(
                    f"user {client.user_id}: stored v{view.version}, shown v{client.version}"
                )
    finally:
        await service.close()
    return lost


def bundle() -> tuple[int, int]:
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), sum(
        len(gzip.compress(p.read_bytes(), 9)) for p in files
    )


DRAWN = """
new MutationObserver((_, observer) => {
  const board = document.getElementById("board");
  if (board && board.dataset.version) {
    window.reelDrawn = performance.now();
    observer.disconnect();
  }
}).observe(document, {subtree: true, childList: true, attributes: true});
"""
"""Recorded in the page: milliseconds from the navigation's start to the board drawn."""


@dataclass
class Attacks:
    """What two floods from one address got: sockets with no session, and sign-ins."""

    sockets: int = 0
    closed_at_once: int = 0  # answered no-session and closed by the server
    refused: int = 0  # refused before the handshake (429: the address's rate)
    held: int = 0  # still open a second after the flood: must be none
    sign_ins: int = 0
    sign_ins_refused: int = 0  # 429 before Discord was called
    sign_in_seconds: float = 0.0


async def attack(base: str, sockets: int = 300, sign_ins: int = 500) -> Attacks:
    """Flood the board from this one address: ``sockets`` sockets with no session at
    once (each waits up to a second for the server to close it), then ``sign_ins``
    sign-ins with bogus codes, one after another."""
    found = Attacks(sockets=sockets, sign_ins=sign_ins)
    async with aiohttp.ClientSession() as http:

        async def idle() -> str:
            try:
                ws = await http.ws_connect(base.replace("http", "ws") + "/ws")
            except aiohttp.WSServerHandshakeError:
                return "refused"
            try:
                async with asyncio.timeout(1.0):
                    async for _ in ws:
                        pass
                return "closed"
            except TimeoutError:
                return "held"
            finally:
                await ws.close()

        outcomes = await asyncio.gather(*(idle() for _ in range(sockets)))
        found.closed_at_once = outcomes.count("closed")
        found.refused = outcomes.count("refused")
        found.held = outcomes.count("held")
        began = time.monotonic()
        for n in range(sign_ins):
            body = {"code": f"bogus-{n}", "instance_id": "i-bench"}
            async with http.post(base + "/api/token", json=body) as got:
                found.sign_ins_refused += got.status == 429
        found.sign_in_seconds = time.monotonic() - began
    return found


async def first_render(url: str) -> tuple[float, float] | None:
    """Navigation start to the board drawn (``data-version`` set), by the page's own
    clock: cold (a new browser cache), then warm (the median of five), ms. ``url`` is a
    board with a local player (as ``reel web`` serves it), whose game is drawn at once."""
    if not Path(CHROMIUM).is_file():
        return None
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=FLAGS
        )
        context = await browser.new_context()
        await context.add_init_script(DRAWN)
        times = []
        for _ in range(6):
            page = await context.new_page()
            await page.goto(url)
            await page.wait_for_function("() => window.reelDrawn !== undefined")
            times.append(float(await page.evaluate("() => window.reelDrawn")))
            await page.close()
        await browser.close()
    return times[0], statistics.median(times[1:])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def bench(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="reel-web-bench-"))
    db = folder / "reel.db"
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(db), "--clients",
                               str(args.clients)], stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert server.stdout is not None
    started = json.loads(await asyncio.to_thread(server.stdout.readline))
    base = f"http://127.0.0.1:{started['port']}"
    master = random.Random(args.seed)
    clients = [Client(int(user), token, random.Random(master.random()))
               for user, token in started["tokens"].items()]  # fmt: skip
    start = Start(len(clients), args.seconds)
    load = os.getloadavg()
    try:
        results = await asyncio.gather(
            *(play(base + "/ws", c, start, args.think) for c in clients), return_exceptions=True
        )
        end_load = os.getloadavg()
        attacks = await attack(base)
        local = f"http://127.0.0.1:{started['local_port']}/"
        render = None if args.no_browser else await first_render(local)
    finally:
        server.send_signal(signal.SIGINT)
        await asyncio.to_thread(server.wait, 30)
    lost = await read_back(db, clients)
    times = [t * 1000 for c in clients for t in c.times]
    errors = [e for c in clients for e in c.errors] + [repr(r) for r in results if r is not None]
    report(args, times, errors, lost, load, end_load, render)
    print(f"new games dealt in the window (not timed): {sum(c.new_games for c in clients)}")
    report_attacks(attacks)
    return 0 if not errors and not lost and not attacks.held else 1


def report_attacks(found: Attacks) -> None:
    print(f"sockets with no session, {found.sockets} at once from one address: "
          f"{found.closed_at_once} answered and closed at once, {found.refused} refused "
          f"(429), {found.held} held open")  # fmt: skip
    rate = found.sign_ins_refused / found.sign_in_seconds if found.sign_in_seconds else 0.0
    print(f"sign-ins with bogus codes, {found.sign_ins} in {found.sign_in_seconds:.2f} s: "
          f"{found.sign_ins_refused} refused before Discord ({rate:.0f}/s), "
          f"{found.sign_ins - found.sign_ins_refused} passed on to it")  # fmt: skip


def report(
    args: argparse.Namespace,
    times: list[float],
    errors: list[str],
    lost: list[str],
    load: tuple[float, float, float],
    end_load: tuple[float, float, float],
    render: tuple[float, float] | None,
) -> None:
    print(f"{args.clients} WebSocket clients, {args.seconds} s, think {args.think} s; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start, "
          f"{end_load[0]:.2f} at the end")  # fmt: skip
    print(f"moves {len(times)} ({len(times) / args.seconds:.0f}/s); round trip p50 "
          f"{percentile(times, 0.5):.1f} ms, p99 {percentile(times, 0.99):.1f} ms, "
          f"max {max(times):.1f} ms")  # fmt: skip
    print(f"errors {len(errors)}" + (f": {errors[:3]}" if errors else ""))
    print(f"games read back: {args.clients}, lost or extra moves: {len(lost)} {lost[:3]}")
    raw, packed = bundle()
    print(f"bundle {raw / 1000:.1f} KB, {packed / 1000:.1f} KB gzipped")
    if render is None:
        print("first render: not measured (--no-browser, or no /usr/bin/chromium)")
    else:
        print(f"first full render in headless Chromium: {render[0]:.0f} ms cold, "
              f"{render[1]:.0f} ms warm (median of 5)")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--race", action="store_true",
                        help="an Activity's room racing one deal (bench/web_race.py)")  # fmt: skip
    parser.add_argument("--serve-race", metavar="JSON", help=argparse.SUPPRESS)
    parser.add_argument("--clients", type=int, default=None, help="200; 25 with --race")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--serve", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_race or args.race:
        sys.path.insert(0, str(ROOT / "tests" / "discord_bot"))  # the fake Discord
        from bench.web_race import race_bench, serve_race

        if args.serve_race:
            serve_race(args.serve_race)
            return 0
        args.clients = args.clients or 25
        folder = Path(tempfile.mkdtemp(prefix="reel-race-bench-"))
        return asyncio.run(race_bench(args, __file__, folder))
    args.clients = args.clients or 200
    if args.serve:
        serve(args.serve, args.clients)
        return 0
    return asyncio.run(bench(args))


if __name__ == "__main__":
    raise SystemExit(main())
