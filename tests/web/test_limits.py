"""What keeps the web board standing (bot/web/limits.py), and the attacks it answers: held
sockets, floods of socket opens, bad bearer tokens, a rebinding Host, the operator's pages
published by a proxy."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from pages import Page, answer_of
from webserver import Serve

from bot.ops import Health, Metrics, add_routes
from bot.ops.metrics import samples
from bot.service import LOCAL_USER_ID, GameService
from bot.web import Sessions
from bot.web.app import PARTS
from bot.web.limits import PER_USER, SOCKET_OPENS, QuietAccepts, Rate, SocketCaps, client_address
from bot.web.local import bound_port, is_loopback, start


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_rate_lets_a_burst_through_then_one_at_its_pace() -> None:
    clock = Clock()
    rate = Rate(3, 0.5, clock)
    assert [rate.take("a") for _ in range(3)] == [0, 0, 0]
    assert rate.take("a") == pytest.approx(2.0)  # one token every 2 s
    assert rate.take("b") == 0  # another address has its own bucket
    clock.now += 2.0
    assert rate.take("a") == 0 and rate.take("a") > 0
    assert rate.refused == 2


def test_socket_caps_by_player_and_in_all() -> None:
    caps = SocketCaps(per_user=2, total=3)
    caps.opened(1)
    caps.opened(1)
    assert "2 boards open" in (caps.refusal(1) or "")
    assert caps.refusal(2) is None
    caps.opened(2)
    assert "full" in (caps.refusal(3) or "") and "full" in (caps.refusal(None) or "")
    caps.closed(1)
    assert caps.refusal(1) is None and len(caps) == 2


def test_a_failed_accept_is_logged_once_a_minute_with_the_count_dropped() -> None:
    clock = Clock()
    quiet = QuietAccepts(clock)

    def record(text: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, text, None, None)

    error = "socket.accept() out of system resource"
    assert quiet.filter(record(error))
    assert not any(quiet.filter(record(error)) for _ in range(500))
    assert quiet.filter(record("Task was destroyed but it is pending!"))  # others pass
    clock.now += 61
    later = record(error)
    assert quiet.filter(later) and "500 like it dropped" in later.getMessage()


def test_the_client_is_the_peer_unless_a_proxy_on_this_machine_names_it() -> None:
    def request(peer: str, forwarded: str | None) -> web.Request:
        headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
        transport = _Transport(peer)
        return make_mocked_request("GET", "/ws", headers=headers, transport=transport)

    assert client_address(request("203.0.113.9", None)) == "203.0.113.9"
    assert client_address(request("203.0.113.9", "198.51.100.1")) == "203.0.113.9"  # forged
    assert client_address(request("127.0.0.1", "10.0.0.1, 198.51.100.7")) == "198.51.100.7"


class _Transport:
    def __init__(self, peer: str) -> None:
        self.peer = peer

    def get_extra_info(self, name: str, default: object = None) -> object:
        return (self.peer, 5555) if name == "peername" else default

    def is_closing(self) -> bool:
        return False


async def test_a_socket_without_a_session_is_closed_at_once_and_holds_nothing(
    serve: Serve,
) -> None:
    served = await serve(local_user=None)
    for _ in range(SOCKET_OPENS[0]):  # a burst of sockets with nobody signed in
        page = await served.page()
        assert (await page.next("error"))["code"] == "no-session"
        assert (await page.ws.receive(timeout=5)).type is aiohttp.WSMsgType.CLOSE
    parts = served.runner.app[PARTS]
    assert await _until(lambda: len(parts.caps) == 0)


async def test_a_players_sockets_are_capped_and_a_flood_of_opens_is_refused(
    serve: Serve, service: GameService
) -> None:
    served = await serve()
    pages = [await served.page() for _ in range(PER_USER)]
    async with served.http.get(served.ws_url) as refused:
        assert refused.status == 503
        assert f"{PER_USER} boards open" in (await answer_of(refused))["message"]
    await pages[0].close()
    assert await _until(lambda: served.runner.app[PARTS].caps.refusal(LOCAL_USER_ID) is None)
    pages[0] = await served.page()  # one closed: one may open
    for page in pages:
        await page.close()
    statuses = []
    for _ in range(SOCKET_OPENS[0] + 5):  # more opens at once than the address's burst
        async with served.http.get(served.ws_url) as got:  # (a plain GET: refused or 400)
            statuses.append(got.status)
            if got.status == 429:
                assert int(got.headers["Retry-After"]) >= 1
                assert "Too many boards opened" in (await answer_of(got))["message"]
    assert statuses.count(429) >= 5


async def test_bad_tokens_are_refused_as_no_session_never_a_server_error(serve: Serve) -> None:
    served = await serve(local_user=None)
    port = bound_port(served.runner)
    for header in (b"Authorization: Bearer caf\xc3\xa9.x", b"Authorization: Bearer \xff\xfe"):
        status = await _raw_status(port, b"GET /api/board HTTP/1.1", header)
        assert status == 401
    protocol = b"Sec-WebSocket-Protocol: reel, session.\xc3\xa9t\xc3\xa9"
    status = await _raw_status(port, b"GET /api/board HTTP/1.1", protocol)
    assert status == 401


async def test_reel_web_ignores_any_session_cookie_of_another_page(
    service: GameService,
) -> None:
    await service.new_game(LOCAL_USER_ID, None, 16)
    sessions = Sessions(LOCAL_USER_ID, tokens=False)  # as `reel web` opens them
    runner = await start(service, sessions, None, "127.0.0.1", 0)
    base = f"http://127.0.0.1:{bound_port(runner)}"
    stranger = Sessions().open(4242)  # a valid-looking session another server signed
    try:
        for cookie in ("garbage", stranger, "caf\u00e9"):
            async with aiohttp.ClientSession(cookies={"reel_session": cookie}) as http:
                page = await Page.open(http, base.replace("http", "ws") + "/ws")
                assert (await page.next("board"))["board"]["deal"] == "16"
                await page.close()
    finally:
        await runner.cleanup()


async def test_the_host_must_name_this_server_whatever_address_it_listens_on(
    service: GameService,
) -> None:
    assert is_loopback("127.0.0.2") and is_loopback("::1") and not is_loopback("10.0.0.1")
    runner = await start(service, Sessions(LOCAL_USER_ID), None, "127.0.0.2", 0)
    port = bound_port(runner)
    try:
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.2:{port}"
            for host, status in (
                ("rebind.evil", 403),
                (f"rebind.evil:{port}", 403),
                (f"127.0.0.2:{port}", 200),
                (f"localhost:{port}", 200),
                ("[::1", 403),
            ):
                async with http.get(base + "/api/board", headers={"Host": host}) as got:
                    assert got.status == status, host
                    assert got.headers["Server"] == "reel"  # no versions named
    finally:
        await runner.cleanup()


async def test_the_operators_pages_on_the_board_answer_this_machine_only(
    service: GameService, tmp_path: Path
) -> None:
    async def failing() -> tuple[bool, str]:
        raise RuntimeError('password authentication failed for user "reel" host "db.internal"')

    metrics, health = Metrics(), Health({"database": failing})
    runner = await start(
        service,
        Sessions(LOCAL_USER_ID),
        None,
        "127.0.0.1",
        0,
        public_url="https://board.example",
        routes=lambda app, figures: add_routes(app, metrics, health, private=True),
    )
    base = f"http://127.0.0.1:{bound_port(runner)}"
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/healthz") as got:
                body = await got.text()
                assert got.status == 503 and "RuntimeError" in body
                assert "db.internal" not in body and "password" not in body
            async with http.get(base + "/metrics") as got:
                assert got.status == 200
            for headers in (
                {"Host": "board.example"},  # what a proxy publishing the board passes
                {"X-Forwarded-For": "203.0.113.5"},
                {"Forwarded": "for=203.0.113.5"},
            ):
                for page in ("/metrics", "/healthz"):
                    async with http.get(base + page, headers=headers) as got:
                        assert got.status == 404, (page, headers)
    finally:
        await runner.cleanup()


async def _until(condition: object, timeout: float = 5.0) -> bool:
    assert callable(condition)
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)
    return True


async def _raw_status(port: int, request_line: bytes, header: bytes) -> int:
    """The status of one request written byte for byte (a header aiohttp won't send)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    host = f"Host: 127.0.0.1:{port}".encode()
    writer.write(
        request_line + b"\r\n" + host + b"\r\n" + header + b"\r\nConnection: close\r\n\r\n"
    )
    await writer.drain()
    status_line = await reader.readline()
    writer.close()
    return int(status_line.split()[1])


async def test_behind_a_proxy_that_passes_the_host_the_public_url_is_what_lets_it_in(
    service: GameService,
) -> None:
    """docs/activity.md's set-up: Caddy or nginx pass Host: reel.example.org, so the board
    answers them only with REEL_WEB_PUBLIC_URL set to the URL the mapping targets."""
    proxied = {"Host": "reel.example.org", "X-Forwarded-For": "203.0.113.7"}
    for public_url, status in ((None, 403), ("https://reel.example.org", 200)):
        runner = await start(
            service, Sessions(LOCAL_USER_ID), None, "127.0.0.1", 0, public_url=public_url
        )
        base = f"http://127.0.0.1:{bound_port(runner)}"
        try:
            async with aiohttp.ClientSession() as http:
                async with http.get(base + "/", headers=proxied) as got:
                    assert got.status == status
                    if status == 403:
                        assert "REEL_WEB_PUBLIC_URL" in (await answer_of(got))["message"]
                if status == 200:
                    origin = {**proxied, "Origin": "https://reel.example.org"}
                    ws = base.replace("http", "ws") + "/ws"
                    page = await Page.open(http, ws, headers=origin)
                    assert (await page.next("no-game"))["type"] == "no-game"
                    await page.close()
                    async with http.get(base + "/", headers={"Host": "other.example"}) as got:
                        assert got.status == 403
        finally:
            await runner.cleanup()


async def test_the_boards_refusals_and_open_sockets_are_in_the_metrics(
    service: GameService,
) -> None:
    metrics = Metrics()
    runner = await start(
        service,
        Sessions(LOCAL_USER_ID),
        None,
        "127.0.0.1",
        0,
        routes=lambda app, figures: metrics.watch_web(figures),
    )
    ws = f"ws://127.0.0.1:{bound_port(runner)}/ws"

    def figure(name: str) -> float:
        return next(v for n, _, v in samples(metrics.registry) if n == name)

    try:
        async with aiohttp.ClientSession() as http:
            page = await Page.open(http, ws)
            assert figure("reel_web_sockets_open") == 1
            plain = ws.replace("ws://", "http://")  # opens without an upgrade: 400 or 429

            async def opened() -> int:
                async with http.get(plain) as got:
                    return got.status

            statuses = await asyncio.gather(*(opened() for _ in range(SOCKET_OPENS[0] + 20)))
            refused = statuses.count(429)
            assert refused >= 10  # past the address's burst, at once
            assert figure("reel_web_socket_opens_refused_total") == refused
            await page.close()
        assert figure("reel_web_sign_ins_refused_total") == 0  # no Activity here
    finally:
        await runner.cleanup()
