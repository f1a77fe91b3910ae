"""The web board's server without a browser: its WebSocket and JSON API over a real
service and SQLite file, as a page (or a hostile script) would use them."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from aiohttp import WSCloseCode
from pages import WAIT, Page, answer_of
from webserver import DEAL, Serve

from bot.service import LOCAL_USER_ID, GameService
from bot.service.cooldown import BURST, Cooldown
from bot.web.socket import SOCKET_CAP
from bot.web.wire import MAX_FRAME, REFUSED
from engine import MAX_DEAL, Game, format_position, parse_move

OTHER_USER = 4242


async def stored_version(service: GameService, user_id: int) -> int:
    row = await service.store.load_game(user_id)
    assert row is not None
    return row.version


async def test_a_page_is_greeted_and_shown_the_whole_board(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    page = await served.page()
    hello = page.frames[0]
    assert hello["type"] == "hello" and hello["signed_in"] is True
    assert [g["code"] for g in hello["games"]] == ["vr", "rp", "tu", "bj", "bp"]
    frame = await page.next("board")
    board = frame["board"]
    assert frame["version"] == view.version == board["version"]
    assert board["position"] == format_position(Game.new(DEAL))
    assert [row["row"] for row in board["rows"]] == ["A", "B", "C"]
    assert [row["builds"] for row in board["rows"]] == ["2-5-8-J", "3-6-9-Q", "4-7-T-K"]
    assert [p["pile"] for p in board["rows"][1]["piles"]] == [f"B{i}" for i in range(1, 9)]
    assert [p["pile"] for p in board["reserve"]] == [f"R{i}" for i in range(1, 9)]
    game = Game.new(DEAL)
    assert board["stock"]["deals_left"] == game.deals_left
    assert board["score"] == game.score and board["moves"] == 0
    # every legal move but the deal, grouped by its source pile
    legal = {m["move"] for moves in board["legal"].values() for m in moves}
    assert legal == {str(m) for m in game.legal_moves() if not m.is_deal}
    await page.close()


async def test_a_move_is_played_and_answered_with_the_new_board(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    await page.next("board")
    game = Game.new(DEAL)
    move = next(m for m in game.legal_moves() if not m.is_deal)
    (answer,) = await page.ask({"type": "move", "move": str(move), "version": view.version})
    game.play(move)
    assert answer["type"] == "board" and answer["version"] == view.version + 1
    assert answer["board"]["position"] == format_position(game)
    assert await stored_version(service, LOCAL_USER_ID) == view.version + 1


async def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    await page.next("board")
    game = Game.new(DEAL)
    illegal = next(
        f"{src} {dst}"
        for src in ("R1", "R2", "R3", "R4")
        for dst in ("A2", "A3", "B2", "C3")
        if not game.is_legal(parse_move(game, f"{src} {dst}"))
    )
    (error,) = await page.ask({"type": "move", "move": illegal, "version": view.version})
    assert error["type"] == "error" and error["code"] == "bad-move"
    assert error["version"] == view.version and len(error["message"]) > 20
    assert await stored_version(service, LOCAL_USER_ID) == view.version


async def test_without_a_session_every_play_request_is_refused(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(OTHER_USER, None, DEAL)
    served = await serve(local_user=None)  # the bot's mode, with no local player
    page = await served.page()
    assert page.frames[0]["signed_in"] is False
    refusal = await page.next("error")
    assert refusal["code"] == "no-session" and "REEL_WEB_LOCAL_USER" in refusal["message"]
    message = await page.ws.receive(timeout=WAIT)  # then closed at once, for good: no
    assert message.type is aiohttp.WSMsgType.CLOSE  # socket is held open by nobody
    assert page.ws.close_code == REFUSED
    async with served.http.get(served.base + "/api/board") as got:
        assert got.status == 401 and (await answer_of(got))["code"] == "no-session"
    body = {"type": "move", "move": "R1 A2", "version": view.version}
    async with served.http.post(served.base + "/api/play", json=body) as got:
        assert got.status == 401
    assert await stored_version(service, OTHER_USER) == view.version


async def test_a_session_plays_its_own_users_game_and_no_other(
    serve: Serve, service: GameService
) -> None:
    mine = await service.new_game(LOCAL_USER_ID + 1, None, DEAL)
    theirs = await service.new_game(OTHER_USER, None, DEAL)
    served = await serve(local_user=None)
    token = served.sessions.open(LOCAL_USER_ID + 1)
    page = await served.page(token)
    board = await page.next("board")
    assert board["version"] == mine.version
    # a page can't name another player: the server takes no such field
    deal = {"type": "deal", "version": theirs.version, "user": OTHER_USER}
    (error,) = await page.ask(deal)
    assert error["code"] == "bad-frame" and "'user'" in error["message"]
    # a forged token is nobody
    forged = await served.page("not-a-token")
    assert (await forged.next("error"))["code"] == "no-session"
    (played,) = await page.ask({"type": "deal", "version": mine.version})
    assert played["type"] == "board"
    assert await stored_version(service, OTHER_USER) == theirs.version
    assert await stored_version(service, LOCAL_USER_ID + 1) == mine.version + 1


@pytest.mark.parametrize(
    ("sent", "code", "words"),
    [
        ("{not json", "bad-json", "not JSON"),
        ("[1, 2]", "bad-frame", "JSON object"),
        ('{"move": "R1 A2"}', "bad-frame", "needs a type"),
        ('{"type": "teleport"}', "unknown-type", "no message of type 'teleport'"),
        ('{"type": "move", "version": 1}', "bad-frame", "needs its 'move'"),
        ('{"type": "move", "move": "R1 A2", "version": "1"}', "bad-frame", "whole number"),
        ('{"type": "deal", "version": true}', "bad-frame", "whole number"),
        ('{"type": "settings", "symbols": "yes"}', "bad-frame", "true or false"),
        ('{"type": "board", "id": {"a": 1}}', "bad-frame", "id is a number"),
    ],
)
async def test_a_malformed_message_gets_an_error_frame_and_changes_nothing(
    serve: Serve, service: GameService, sent: str, code: str, words: str
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    await page.next("board")
    await page.send(sent)
    error = await page.next("error")
    assert error["code"] == code and words in error["message"]
    assert await stored_version(service, LOCAL_USER_ID) == view.version
    assert (await page.board())["version"] == view.version  # the socket lives on


async def test_an_oversized_frame_is_refused_and_a_huge_one_closes_the_socket(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    page = await served.page()
    await page.next("board")
    big = json.dumps({"type": "move", "move": "R1 A2" + " " * MAX_FRAME, "version": 1})
    await page.send(big)
    error = await page.next("error")
    assert error["code"] == "too-large" and f"at most {MAX_FRAME}" in error["message"]
    assert (await page.board())["version"] == view.version
    await page.send("x" * (SOCKET_CAP + 1))
    closed = await page.ws.receive(timeout=5)
    assert (
        closed.type is aiohttp.WSMsgType.CLOSE
        and closed.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    )
    assert await stored_version(service, LOCAL_USER_ID) == view.version


async def test_a_stale_request_is_refused_and_answered_with_the_current_board(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    await page.next("board")
    moved = await service.deal(LOCAL_USER_ID, view.version)  # another front end moves first
    error, board = await page.ask({"type": "undo", "version": view.version})
    assert error["code"] == "stale" and "out of date" in error["message"]
    assert error["version"] == moved.version
    assert board["type"] == "board" and board["version"] == moved.version
    assert await stored_version(service, LOCAL_USER_ID) == moved.version


async def test_two_tabs_never_both_apply_a_move_and_the_second_catches_up(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    first, second = await served.page(), await served.page()
    await first.next("board")
    await second.next("board")
    deal = {"type": "deal", "version": view.version}
    answers = await asyncio.gather(first.ask(deal), second.ask(deal))  # either may win
    kinds = sorted(frame["type"] for frames in answers for frame in frames)
    assert kinds == ["board", "board", "error"]
    assert await stored_version(service, LOCAL_USER_ID) == view.version + 1
    for tab in answers:  # the winner's board, or the loser's refusal and current board
        assert tab[-1]["type"] == "board" and tab[-1]["version"] == view.version + 1


async def test_a_move_made_elsewhere_reaches_an_open_board_within_a_second(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    await page.next("board")
    moved = await service.deal(LOCAL_USER_ID, view.version)  # as a chat button would
    pushed = await page.next("board", timeout=1.0)
    assert pushed["version"] == moved.version and pushed["board"]["position"] == moved.position


async def test_a_stopping_server_closes_every_open_socket_as_going_away(
    serve: Serve, service: GameService
) -> None:
    await service.new_game(LOCAL_USER_ID, None, DEAL)
    local = await serve()
    playing = await local.page()
    await playing.next("board")
    await local.runner.cleanup()  # as `reel web` does on Ctrl-C
    message = await playing.ws.receive(timeout=WAIT)
    assert message.type is aiohttp.WSMsgType.CLOSE, f"{message!r} instead of a close"
    assert playing.ws.close_code == WSCloseCode.GOING_AWAY  # the page will reconnect


async def test_a_flood_is_slowed_by_the_cooldown_and_plays_one_move(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve(cooldown=Cooldown())).page()
    await page.next("board")
    for _ in range(30):
        await page.send({"type": "deal", "version": view.version})
    errors = [await page.next("error") for _ in range(29)]
    codes = [e["code"] for e in errors]
    assert codes.count("stale") == BURST - 1 and codes.count("too-fast") == 30 - BURST
    assert "going a little fast" in errors[-1]["message"]
    assert await stored_version(service, LOCAL_USER_ID) == view.version + 1


async def test_the_json_api_answers_as_the_socket_does(serve: Serve, service: GameService) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    served = await serve()
    async with served.http.get(served.base + "/api/board") as got:
        assert got.status == 200 and (await answer_of(got))["version"] == view.version
    async with served.http.post(
        served.base + "/api/play", json={"type": "deal", "version": view.version}
    ) as got:
        answer = await answer_of(got)
    assert answer["type"] == "board" and answer["frames"][0]["version"] == view.version + 1
    async with served.http.post(served.base + "/api/play", data="deal") as got:
        assert got.status == 415


async def test_new_daily_settings_and_hint_through_the_socket(
    serve: Serve, service: GameService
) -> None:
    page = await (await serve()).page()
    assert (await page.next("no-game"))["version"] is None
    (board,) = await page.ask({"type": "new", "variant": "tu", "deal": 5})
    assert board["board"]["variant"] == "tu" and len(board["board"]["reserve"]) == 12
    (board,) = await page.ask({"type": "settings", "symbols": False})
    assert board["board"]["settings"]["symbols"] is False
    assert (await service.get_settings(LOCAL_USER_ID)).symbols is False
    (error,) = await page.ask({"type": "new", "variant": "xx"})
    assert error["code"] == "bad-input" and "no game 'xx'" in error["message"]
    version = board["version"]
    (daily,) = await page.ask({"type": "daily", "version": version})
    assert daily["board"]["daily"] is not None
    hint, shown = await page.ask({"type": "hint", "version": daily["version"]})
    assert hint["type"] == "hint" and hint["hint"]["message"]
    assert shown["board"]["assisted"] is True


async def test_every_answer_carries_the_security_policy(serve: Serve, service: GameService) -> None:
    served = await serve()
    async with served.http.get(served.base + "/") as got:
        policy = got.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert got.headers["Cache-Control"] == "no-cache"
        assert got.headers["X-Content-Type-Options"] == "nosniff"
    async with served.http.get(served.base + "/assets/nothing.js") as got:
        assert got.status == 404 and "Content-Security-Policy" in got.headers


async def test_a_page_of_another_origin_or_host_is_refused(
    serve: Serve, service: GameService
) -> None:
    served = await serve()
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await Page.open(served.http, served.ws_url, origin="http://evil.example")
    assert refused.value.status == 403
    async with served.http.get(served.base + "/", headers={"Host": "evil.example"}) as got:
        assert (
            got.status == 403 and "not to host 'evil.example'" in (await answer_of(got))["message"]
        )
    async with served.http.post(
        served.base + "/api/play", json={"type": "board"}, headers={"Origin": "http://x.test"}
    ) as got:
        assert got.status == 403


async def test_a_deal_number_is_text_both_ways_past_javascripts_numbers(
    serve: Serve, service: GameService
) -> None:
    page = await (await serve()).page()
    await page.next("no-game")
    for deal in (2**53 + 1, MAX_DEAL):  # 9007199254740993: a double would send ...992
        (board,) = await page.ask({"type": "new", "deal": str(deal)})
        assert board["type"] == "board" and board["board"]["deal"] == str(deal)
        assert (await service.show(LOCAL_USER_ID)).deal_number == deal
    (board,) = await page.ask({"type": "new", "deal": 16})  # a JSON number, within 2**53
    assert board["board"]["deal"] == "16"
    (refused,) = await page.ask({"type": "new", "deal": 2**53 + 1})  # may have lost digits
    assert refused["code"] == "bad-frame"
    assert 'sent as text, "9007199254740993"' in refused["message"]
    assert (await service.show(LOCAL_USER_ID)).deal_number == 16


@pytest.mark.parametrize(
    ("deal", "code", "words"),
    [
        ("abc", "bad-input", f"A deal number is a whole number from 1 to {MAX_DEAL}, like 42"),
        ("-5", "bad-input", "not '-5'"),
        ("4.5", "bad-input", "whole number"),
        ("", "bad-input", "whole number"),
        ("١٢", "bad-input", "whole number"),  # digits, but not ASCII ones
        ("9" * 25, "bad-input", "whole number"),
        ("0", "bad-input", "Deal 0 does not exist"),
        (str(MAX_DEAL + 1), "bad-input", f"does not exist: deal numbers run from 1 to {MAX_DEAL}"),
        (True, "bad-frame", "a deal number's digits, as text"),
        (4.5, "bad-frame", "a deal number's digits, as text"),
    ],
)
async def test_a_deal_that_is_no_deal_number_is_refused_and_nothing_is_dealt(
    serve: Serve, service: GameService, deal: object, code: str, words: str
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    page = await (await serve()).page()
    await page.next("board")
    (refused,) = await page.ask({"type": "new", "deal": deal, "version": view.version})
    assert refused["type"] == "error" and refused["code"] == code
    assert words in refused["message"]
    shown = await service.show(LOCAL_USER_ID)
    assert (shown.deal_number, shown.version) == (DEAL, view.version)


async def test_undo_and_redo_take_a_count_and_undo_a_move_to_go_back_to(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    game = Game.new(DEAL)
    positions = [format_position(game)]
    for _ in range(3):
        move = next(m for m in game.legal_moves() if not m.is_deal)
        view = await service.move(LOCAL_USER_ID, str(move), view.version)
        game.play(move)
        positions.append(view.position)
    page = await (await serve()).page()
    await page.next("board")
    (board,) = await page.ask({"type": "undo", "count": 2, "version": view.version})
    assert board["board"]["position"] == positions[1] and board["board"]["moves"] == 1
    (board,) = await page.ask({"type": "redo", "count": 2, "version": board["version"]})
    assert board["board"]["position"] == positions[3]
    (board,) = await page.ask({"type": "undo", "to": 0, "version": board["version"]})
    assert board["board"]["position"] == positions[0]
    assert "took back 3 moves" in board["board"]["message"]
    (refused,) = await page.ask({"type": "undo", "count": 1, "version": board["version"]})
    assert refused["code"] == "bad-move" and "nothing to undo" in refused["message"]
    assert (await service.show(LOCAL_USER_ID)).version == board["version"]


@pytest.mark.parametrize(
    ("sent", "words"),
    [
        ({"type": "undo", "count": 2, "to": 1}, "'count' or 'to', not both"),
        ({"type": "undo", "count": 0}, "'count' is a whole number from 1 up"),
        ({"type": "undo", "count": "2"}, "'count' is a whole number from 1 up"),
        ({"type": "undo", "to": -1}, "'to' is a whole number from 0 up"),
        ({"type": "redo", "to": 1}, "no field 'to'"),
        ({"type": "deal", "count": 2}, "no field 'count'"),
    ],
)
async def test_a_bad_count_or_move_to_undo_to_is_refused_and_changes_nothing(
    serve: Serve, service: GameService, sent: dict[str, object], words: str
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    view = await service.deal(LOCAL_USER_ID, view.version)
    page = await (await serve()).page()
    await page.next("board")
    (refused,) = await page.ask({**sent, "version": view.version})
    assert refused["code"] == "bad-frame" and words in refused["message"]
    assert await stored_version(service, LOCAL_USER_ID) == view.version


async def test_a_lost_games_hint_names_the_move_to_undo_to_and_undo_to_takes_it(
    serve: Serve, service: GameService
) -> None:
    view = await service.new_game(LOCAL_USER_ID, None, DEAL)
    view = await service.move(LOCAL_USER_ID, "C3 ACE", view.version)  # a space none can fill
    page = await (await serve()).page()
    await page.next("board")
    hint, board = await page.ask({"type": "hint", "version": view.version})
    assert "It still could be at the start: undo back to there." in hint["hint"]["message"]
    assert (hint["hint"]["undo_to"], hint["hint"]["back_to"]) == (0, "the start")
    (back,) = await page.ask({"type": "undo", "to": 0, "version": board["version"]})
    assert back["board"]["position"] == format_position(Game.new(DEAL))
