"""The per-user cooldown: its buckets, and over the wire a player mashing commands and
buttons slowed privately while another plays on unslowed."""

from __future__ import annotations

import asyncio

import pytest
from fake_discord import FakeDiscord
from harness import Launch, footer, new_game, private_text

from bot.service.cooldown import BURST, PRUNE_AT, RATE, Cooldown, slow_down


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_passes_then_actions_pass_at_the_rate() -> None:
    ticks = Ticks()
    cooldown = Cooldown(rate=2.0, burst=3, clock=ticks)
    assert [cooldown.take(1) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert cooldown.take(1) == pytest.approx(0.5)  # refused: one more in half a second
    ticks.now = 0.25
    assert cooldown.take(1) == pytest.approx(0.25)
    ticks.now = 0.5
    assert cooldown.take(1) == 0.0
    assert cooldown.take(2) == 0.0  # another user has a bucket of their own
    ticks.now = 100.0
    assert [cooldown.take(1) for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # full again, no more


def test_refusals_do_not_use_up_the_bucket_and_idle_users_are_forgotten() -> None:
    ticks = Ticks()
    cooldown = Cooldown(rate=1.0, burst=1, clock=ticks)
    assert cooldown.take(1) == 0.0
    for _ in range(50):  # a script hammering gains nothing, and loses nothing more
        assert cooldown.take(1) == pytest.approx(1.0 - ticks.now)
        ticks.now += 0.001
    ticks.now = 1.0
    assert cooldown.take(1) == 0.0
    for user in range(PRUNE_AT + 1):
        cooldown.take(user + 10)
    ticks.now = 10.0
    cooldown.take(99_999_999)
    assert len(cooldown) == 1


def test_the_message_says_how_long_to_wait() -> None:
    assert slow_down(0.31) == "You're going a little fast: that wasn't done. Try again in 0.4 s."
    assert "0.1 s" in slow_down(0.0001)


async def test_a_player_mashing_is_slowed_privately_and_others_are_not(
    fake: FakeDiscord, launch: Launch
) -> None:
    running = await launch(cooldown=Cooldown())
    alice, bob = fake.user("alice"), fake.user("bob")
    board = await new_game(fake, alice)
    await new_game(fake, bob)
    deal = next(c for c in board.custom_ids if c.startswith("reel:deal:"))
    # A script: 50 commands and clicks at once.
    results = await asyncio.gather(
        *[fake.click(alice, board, deal) for _ in range(25)],
        *[fake.slash(alice, "reel", sub="show") for _ in range(25)],
    )
    texts = [await private_text(r) for r in results if r.callback_type == 4 and r.ephemeral]
    slowed = [t for t in texts if "going a little fast" in t]
    # Alice had used 1 action on her new game; at most the rest of the burst (and what
    # refilled meanwhile) went through.
    assert len(slowed) >= 50 - BURST - int(RATE * 2)
    row = await running.store.load_game(alice.id)
    assert row is not None and row.moves.count("deal") == 1  # her clicks: one deal, once
    shown = await fake.slash(bob, "reel", sub="show")  # Bob is not slowed
    message = await shown.wait_message()
    assert not message.ephemeral and "Deal 16" in footer(message)
    assert not running.service.locks  # nothing left waiting
