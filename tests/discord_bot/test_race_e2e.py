"""End-to-end tests of races (``/reel race``; docs/races.md) on the fake Discord: several
users join a lobby, race on private boards, leave, finish, and the standings message in
the channel says what each of them did, redrawn within Discord's per-channel limit."""

from __future__ import annotations

import asyncio
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionResult
from harness import Clock, Launch, description, footer

import bot.service.races.computer as computer_module
from bot.discord_bot.features import cog_of
from bot.discord_bot.races import Races

_KNOWN = Path(__file__).resolve().parent.parent / "bot" / "known_win.py"
_spec = importlib.util.spec_from_file_location("known_win", _KNOWN)
assert _spec is not None and _spec.loader is not None
known_win: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(known_win)
WINNING_DEAL: int = known_win.WINNING_DEAL  # a deal with a known winning line (tests/bot)
WINNING_TEXT: str = known_win.WINNING_TEXT

CHANNEL_EDITS_PER_5S = 5  # Discord's limit on message edits in one channel, about
FOOTER = re.compile(r"Deal (\d+) · moves (\d+) · score (\d+)/104")
ROW = re.compile(r"`\s*(\d+)\.` <@(\d+)> · (\d+)/104 home · (\d+) moves · [0-9:]+ · (.+)")


def title(message: FakeMessage) -> str:
    return str((message.embed or {}).get("title") or "")


def figures(board: FakeMessage) -> tuple[int, int]:
    """(moves, cards home) from a board's footer."""
    found = FOOTER.search(footer(board))
    assert found, footer(board)
    return int(found[2]), int(found[3])


def standings(message: FakeMessage) -> dict[int, tuple[int, int, int, str]]:
    """user id -> (place, cards home, moves, state), from the standings message."""
    rows = {}
    for line in description(message).splitlines():
        if found := ROW.match(line):
            place, user, score, moves, state = found.groups()
            rows[int(user)] = (int(place), int(score), int(moves), state)
    return rows


async def opened(fake: FakeDiscord, host: FakeUser, **options: Any) -> FakeMessage:
    result = await fake.slash(host, "reel", sub="race", options=options)
    lobby = await result.wait_message()
    assert not lobby.ephemeral and "lobby" in title(lobby), lobby.embed
    return lobby


async def private_answer(result: InteractionResult) -> FakeMessage:
    message = await result.wait_message()
    assert message.ephemeral, message.embed
    return message


async def wait_for(fake: FakeDiscord, message: FakeMessage, text: str) -> None:
    def shows() -> bool:
        return text in description(message) or text in title(message)

    assert await fake.wait_until(shows, timeout=10), (title(message), description(message))


def edits_in_any_5s(fake: FakeDiscord, message: FakeMessage) -> int:
    path = f"/channels/{message.channel_id}/messages/{message.id}"
    times = [a.at for a in fake.attempts if a.method == "PATCH" and a.path == path]
    return max((sum(1 for t in times if s <= t < s + 5) for s in times), default=0)


async def play_line(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    """``/reel move`` through the known winning line (its Aces go home by themselves in
    a race); the last private board."""
    board: FakeMessage | None = None
    for text in WINNING_TEXT.split(";"):
        result = await fake.slash(user, "reel", sub="move", options={"from": text})
        answer = await private_answer(result)
        if title(answer).startswith("Race"):
            board = answer
            if "finished" in title(answer):
                break
        else:
            assert text.endswith("ACE"), description(answer)  # played automatically
    assert board is not None
    return board


async def test_three_racers_race_to_a_finish_with_one_leaver_and_the_standings_say_so(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    carol = fake.add_user("carol")
    lobby = await opened(fake, alice, deal=str(WINNING_DEAL), minutes=10)
    joins = {}
    for user in (bob, carol):
        joins[user.id] = await fake.click(user, lobby, label="Join")
        note = await private_answer(joins[user.id])
        assert "You joined race" in description(note)
    await wait_for(fake, lobby, f"<@{carol.id}>")

    start = await fake.click(alice, lobby, label="Start (host)")
    alice_board = await private_answer(start)
    assert title(alice_board).startswith("Race ") and f"deal {WINNING_DEAL}" in title(alice_board)
    boards = {u: (await joins[u].wait_followups(1))[0] for u in (bob.id, carol.id)}
    assert all(b.ephemeral for b in boards.values())
    assert {figures(b) for b in boards.values()} == {figures(alice_board)}  # the same deal
    await wait_for(fake, lobby, "standings")

    # Bob deals twice on his board, then leaves the race from the standings.
    for _ in range(2):
        click = await fake.click(bob, boards[bob.id], label="Deal")
        assert click.callback_type == 7  # his private board, redrawn in place
    bob_done = figures(boards[bob.id])
    leave = await fake.click(bob, lobby, label="Leave")
    assert f"You keep {bob_done[1]} cards home" in description(await private_answer(leave))
    # Carol deals once; Alice plays to the end with /reel move, which plays her race game.
    await fake.click(carol, boards[carol.id], label="Deal")
    carol_done = figures(boards[carol.id])
    alice_done = figures(await play_line(fake, alice))
    assert alice_done[1] == 104
    await wait_for(fake, lobby, f"<@{alice.id}> · 104/104")
    assert "final" not in title(lobby)  # Carol still races
    await fake.click(carol, boards[carol.id], label="Leave race")
    await wait_for(fake, lobby, "final standings")

    rows = standings(lobby)
    assert rows[alice.id] == (1, 104, alice_done[0], "🏁 finished")
    # No time passes on the service's clock: more cards home, then fewer moves, rank first.
    behind = sorted(
        [(-bob_done[1], bob_done[0], bob.id), (-carol_done[1], carol_done[0], carol.id)]
    )
    assert behind[0][:2] != behind[1][:2]  # (Bob dealt twice, Carol once)
    assert [rows[user][0] for *_, user in behind] == [2, 3]
    assert rows[bob.id][1:] == (bob_done[1], bob_done[0], "left")
    assert rows[carol.id][1:] == (carol_done[1], carol_done[0], "left")
    assert lobby.buttons == []  # nothing left to click
    assert edits_in_any_5s(fake, lobby) <= CHANNEL_EDITS_PER_5S

    stats = await fake.slash(alice, "reel", sub="stats")
    embed = (await private_answer(stats)).embed or {}
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Races"] == "1 (won 1, best place 1)"


async def test_many_quick_moves_are_coalesced_into_few_standings_edits_within_the_limit(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    users = [fake.user("alice"), fake.user("bob")] + [fake.add_user(f"p{i}") for i in range(4)]
    lobby = await opened(fake, users[0], deal=str(WINNING_DEAL))
    for user in users[1:]:
        await fake.click(user, lobby, label="Join")
    await fake.click(users[0], lobby, label="Start (host)")
    moves = 0
    for _ in range(3):
        for user in users:
            await fake.slash(user, "reel", sub="deal")
            moves += 1
    await wait_for(fake, lobby, "standings")

    # The last state is drawn: every racer shows their three deals.
    def drawn() -> bool:
        rows = standings(lobby)
        return len(rows) == len(users) and all(r[2] >= 3 for r in rows.values())

    assert await fake.wait_until(drawn, timeout=10), description(lobby)
    path = f"/channels/{lobby.channel_id}/messages/{lobby.id}"
    patches = [a for a in fake.attempts if a.method == "PATCH" and a.path == path]
    assert len(patches) < moves  # coalesced: fewer edits than changes
    assert edits_in_any_5s(fake, lobby) <= CHANNEL_EDITS_PER_5S


async def test_the_lobby_refuses_a_full_race_a_second_race_and_a_start_by_a_guest(
    fake: FakeDiscord, launch: Launch
) -> None:
    await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    carol = fake.add_user("carol")
    lobby = await opened(fake, alice, deal="7", players=2)
    await fake.click(bob, lobby, label="Join")
    full = await private_answer(await fake.click(carol, lobby, label="Join"))
    assert "is full (2 racers)" in description(full)
    again = await private_answer(await fake.slash(bob, "reel", sub="race"))
    assert "already in race" in description(again)
    here = await private_answer(await fake.slash(carol, "reel", sub="race"))
    assert "already open in this channel" in description(here)
    guest = await private_answer(await fake.click(bob, lobby, label="Start (host)"))
    assert "Only the host" in description(guest)
    twice = await private_answer(await fake.click(bob, lobby, label="Join"))
    assert "You are in race" in description(twice)
    assert [m for m in fake.channel_messages() if not m.ephemeral] == [lobby]


async def test_the_race_ends_at_its_time_limit_and_racers_keep_their_score(
    fake: FakeDiscord, launch: Launch, clock: Clock
) -> None:
    await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = await opened(fake, alice, deal=str(WINNING_DEAL), minutes=2)
    await fake.click(bob, lobby, label="Join")
    board = await private_answer(await fake.click(alice, lobby, label="Start (host)"))
    await fake.click(alice, board, label="Deal")
    moves, score = figures(board)
    clock.advance(minutes=2)
    await wait_for(fake, lobby, "final standings")
    rows = standings(lobby)
    assert rows[alice.id][1:] == (score, moves, "time up")
    assert rows[bob.id][3] == "time up"
    late = await private_answer(await fake.slash(bob, "reel", sub="deal"))
    assert "You have no game in progress" in description(late)  # his main game again


@pytest.mark.parametrize("sub", ["hint", "redo"])
async def test_hints_and_other_commands_are_refused_privately_while_racing(
    fake: FakeDiscord, launch: Launch, sub: str
) -> None:
    await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    lobby = await opened(fake, alice, deal=str(WINNING_DEAL))
    await fake.click(bob, lobby, label="Join")
    await fake.click(alice, lobby, label="Start (host)")
    answer = await private_answer(await fake.slash(bob, "reel", sub=sub))
    assert ("Hints are off" if sub == "hint" else "not available in a race") in description(answer)


async def test_a_race_game_is_replayed_with_race_once_the_race_is_over(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch()
    alice, bob = fake.user("alice"), fake.user("bob")
    races = running.service.races
    race = await races.open(alice.id, fake.guild.id, fake.guild.channel_id, WINNING_DEAL)
    await races.join(race.race_id, bob.id)
    await races.start(race.race_id, alice.id)
    for _ in range(3):
        await races.play(race.race_id, bob.id, "deal")
    early = await fake.slash(bob, "reel", sub="replay", options={"race": race.race_id})
    assert "not over yet" in description(await private_answer(early))
    await races.leave(race.race_id, bob.id)
    await races.leave(race.race_id, alice.id)  # the last racer: the race is over

    found = await running.store.races.racer_by_key(
        await running.service.race_replays.key(race.race_id, bob.id)
    )
    assert found is not None
    total = len(found[1].moves.split(";"))  # three deals, and the Aces they brought home
    result = await fake.slash(bob, "reel", sub="replay", options={"race": race.race_id})
    replay = await result.wait_message()
    assert not replay.ephemeral and title(replay) == f"Replay · a race on deal {WINNING_DEAL}"
    assert f"Move 0 of {total}: the deal" in description(replay)
    await fake.click(bob, replay, label="Last ⏭")
    assert f"Move {total} of {total}" in description(replay)
    assert f"{found[1].score} cards home" in description(replay)
    assert "left the race" in description(replay) and "Race game #" in footer(replay)
    mixed = await fake.slash(bob, "reel", sub="replay", options={"race": 1, "date": "2026-11-28"})
    assert "not a race and one of the others" in description(await private_answer(mixed))
    stranger = await fake.slash(fake.add_user("carol"), "reel", sub="replay",
                                options={"race": race.race_id})  # fmt: skip
    assert "You were not in race" in description(await private_answer(stranger))


async def test_the_host_races_the_computer_and_the_standings_name_it(
    fake: FakeDiscord, launch: Launch, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a small budget: the blind player searches in the pure Python these tests run
    monkeypatch.setattr(computer_module, "COMPUTER_SAMPLES", 3)
    monkeypatch.setattr(computer_module, "COMPUTER_NODES", 300)
    await launch()
    alice = fake.user("alice")
    lobby = await opened(fake, alice, deal=str(WINNING_DEAL), computer=True, computer_pace=2)
    assert "**the computer 🤖**" in description(lobby)
    await private_answer(await fake.click(alice, lobby, label="Start (host)"))
    await wait_for(fake, lobby, "standings")
    for _ in range(3):  # the ticker plays the computer's moves as the clock goes on
        clock.advance(seconds=3)
        await asyncio.sleep(1.5)

    def computer_moved() -> bool:
        rows = [r for r in description(lobby).splitlines() if "the computer" in r]
        return bool(rows) and " 0 moves" not in rows[0] and " 1 moves" not in rows[0]

    assert await fake.wait_until(computer_moved, timeout=60), description(lobby)


async def test_a_bot_closed_while_the_standings_are_redrawn_ends_the_redraw_with_it(
    fake: FakeDiscord, launch: Launch
) -> None:
    # the standings' edit is slow (held 5 s by the fake) when the bot closes: the redraw
    # ends with the bot, instead of failing later against its closed session (a task
    # whose exception nobody retrieved, logged into whatever ran next)
    running = await launch()
    host, guest = fake.user("alice"), fake.user("bob")
    lobby = await opened(fake, host)
    races = cog_of(running.bot, Races)
    fake.fail("PATCH", r"/channels/\d+/messages/\d+", status=None, delay=5.0)
    await fake.click(guest, lobby, label="Join")  # a change: the standings are redrawn
    await fake.wait_until(lambda: bool(fake.attempts_at("PATCH", r"/channels/\d+/messages/")))
    assert races.tasks_running() > 0
    await running.bot.close()
    assert races.tasks_running() == 0
    publishers = [channel.task for channel in races.channels.values() if channel.task]
    assert publishers and all(task.cancelled() for task in publishers)  # ended, not failed
