"""The Activity room's messages (``bot/web/protocol.py``), read strictly: Discord ids as
text, the computer racer's negative id to watch, and a clear refusal for anything else;
on a board that is not in a room, a room's message is refused and changes nothing."""

from __future__ import annotations

import pytest
from webserver import Serve

from bot.web.protocol import FrameError, parse_frame


def test_participants_and_watch_take_discord_ids_as_text() -> None:
    request = parse_frame('{"type": "participants", "users": ["1234567890123456789", 42]}')
    assert request.users == (1234567890123456789, 42)
    assert parse_frame('{"type": "watch", "user": "1234567890123456789"}').user == (
        1234567890123456789
    )
    assert parse_frame('{"type": "watch", "user": "-7"}').user == -7  # the computer racer
    assert parse_frame('{"type": "watch", "user": null}').user is None
    assert parse_frame('{"type": "race-start"}').type == "race-start"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"type": "participants", "users": "123"}', "a list of 50 ids at most"),
        ('{"type": "participants", "users": ["me"]}', "Discord ids (digits, as text)"),
        ('{"type": "participants", "users": [true]}', "Discord ids"),
        ('{"type": "participants"}', "needs its 'users'"),
        ('{"type": "watch", "user": "1.5"}', "Discord ids"),
        ('{"type": "race-start", "deal": 3}', "has no field 'deal'"),
    ],
)
def test_a_bad_room_message_is_refused_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(FrameError) as refused:
        parse_frame(text)
    assert refused.value.code == "bad-frame" and words in refused.value.message


async def test_a_room_message_on_a_board_outside_a_room_is_refused(serve: Serve) -> None:
    served = await serve()
    page = await served.page()
    await page.next("no-game")
    for kind in ("race-open", "race-join", "race-start", "race-leave"):
        (refusal,) = await page.ask({"type": kind})
        assert refusal["code"] == "no-room" and "Activity" in refusal["message"]
