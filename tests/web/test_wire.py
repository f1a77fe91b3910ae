"""The wire is defined once (``bot/web/wire.py``): the page's ``web/src/wire.ts`` is what
the generator writes from it, the request reader takes its fields from it, and the
tests' check of every frame (``pages.wire_errors``) holds a frame to it."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pages import wire_errors

from bot.web import wire
from bot.web.protocol import FIELDS, REQUIRED, FrameError, parse_frame
from bot.web.wire_ts import WIRE_TS, main, render
from engine import BAD_DEAL, Status


def test_the_pages_wire_ts_is_the_generators_output() -> None:
    """A change to wire.py without ``python -m bot.web.wire_ts`` fails here (and in .ci/run)."""
    assert WIRE_TS.read_text(encoding="utf-8") == render()
    assert main(["--check"]) == 0


def test_the_generated_file_says_it_is_generated_and_is_checked(tmp_path: Any) -> None:
    text = render()
    assert text.startswith("// Generated from bot/web/wire.py by `python -m bot.web.wire_ts`")
    assert render() == text  # the same definitions, the same bytes
    stale = tmp_path / "wire.ts"
    stale.write_text(text.replace("4003", "4004"), encoding="utf-8")
    assert main(["--check", "--out", str(stale)]) == 1
    assert main(["--out", str(stale)]) == 0 and stale.read_text(encoding="utf-8") == text


def test_the_page_gets_the_shared_constants_from_their_one_definition() -> None:
    text = render()
    assert f"export const BAD_DEAL = {BAD_DEAL!r};".replace("'", '"') in text
    assert "export const MAX_DEAL = 9223372036854775807n;" in text  # past 2**53: a bigint
    assert "export const REFUSED = 4003;" in text
    assert 'export const PROTOCOL = "reel";' in text
    assert 'export const TOKEN_PROTOCOL = "session.";' in text
    assert "export const MAX_USERS = 50;" in text
    assert 'export const SETTINGS = ["symbols", "auto_aces", "winnable"] as const;' in text
    # the hint's source and the null versions the page's old types left out
    assert 'source: "solver" | "heuristic" | "lost" | "none" | "blind";' in text
    hello = text[text.index("export interface HelloFrame") :]
    assert "version: null;" in hello[: hello.index("}")]


def test_the_board_status_is_the_engines() -> None:
    assert set(get_args(wire.GameStatus)) == {status.value for status in Status}


def test_the_request_reader_takes_its_fields_from_the_definitions() -> None:
    assert FIELDS["undo"] == {"version", "count", "to"} and REQUIRED["undo"] == {"version"}
    assert FIELDS["new"] == {"version", "variant", "deal"} and REQUIRED["new"] == set()
    assert REQUIRED["participants"] == {"users"} and FIELDS["watch"] == {"user"}
    assert set(FIELDS) == {
        kind for request in wire.REQUESTS for kind in request.__annotations__["type"].__args__
    }
    with pytest.raises(FrameError, match="needs its 'version'"):
        parse_frame('{"type": "resign"}')


def hello(**changes: Any) -> dict[str, Any]:
    frame = {"type": "hello", "games": [{"code": "vr", "name": "Virginia Reel"}],
             "signed_in": True, "max_frame": 2048, "version": None, "room": False}  # fmt: skip
    return {key: value for key, value in {**frame, **changes}.items() if value != "-"}


def test_the_tests_check_of_a_frame_finds_each_kind_of_drift() -> None:
    assert wire_errors(hello()) == []
    assert wire_errors(hello(version="-")) == ["frame: no 'version'"]
    assert wire_errors(hello(extra=1)) == ["frame: 'extra' is not a field of HelloFrame"]
    assert wire_errors(hello(room="yes")) == ["frame.room: 'yes' is not bool"]
    assert wire_errors(hello(games=[{"code": "vr"}])) == ["frame.games[0]: no 'name'"]
    assert wire_errors({"type": "surprise"})[0].startswith("frame: not a frame the server")
    error = {"type": "error", "id": "x", "code": "stale", "message": "m", "version": True}
    assert wire_errors(error) == ["frame.version: True is not int"]
