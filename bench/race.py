"""Race bench: a 25-player race in one channel, each racer playing random legal moves as
fast as the bot answers.

    python bench/race.py [--racers 25] [--seconds 30] [--deal 28] [--seed 1]

The bot is the real bot object (discord.py, the service, a fresh SQLite file) run in
this process against the tests' fake Discord (``tests/discord_bot/fake_discord.py``) on
127.0.0.1, as the end-to-end tests run it. One racer opens ``/reel race``, the others
click Join, the host clicks Start; each racer gets their private board and then, in a
loop, picks a random move from the board's menu (or clicks Deal), waiting for each answer
before the next, until the deal is won, nothing is left to play, or time is up.

It prints:

- **interactions**: p50 / p99 / max of the time from a click to the bot's answer;
- **standings edits**: how many, per second overall, and the most in any 5 seconds
  (Discord allows about 5 message edits per 5 s in a channel);
- **standings lag**: for each move, the time from its answer until an edit of the
  standings shows that racer with at least that many moves (p50 / p99 / max; target
  p99 under 3 s).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "discord_bot"))
sys.path.insert(0, str(ROOT))

from fake_discord import FakeDiscord, FakeMessage, FakeUser  # noqa: E402

from bot.discord_bot.app import create_bot  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402

CHANNEL_LIMIT = 5  # Discord: about 5 message edits per 5 s in a channel
ROW = re.compile(r"<@(\d+)> · (\d+)/104 home · (\d+) moves")
FOOTER = re.compile(r"moves (\d+) · score (\d+)")


@dataclass
class Figures:
    answers: list[float] = field(default_factory=list)  # seconds to the bot's answer
    moves: list[tuple[float, int, int, int]] = field(
        default_factory=list
    )  # (at, user, home, moves)


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def shown_on(board: FakeMessage) -> tuple[int, int]:
    """(cards home, moves) from a board's footer."""
    embed = board.embed or {}
    found = FOOTER.search(str((embed.get("footer") or {}).get("text") or ""))
    return (int(found[2]), int(found[1])) if found else (0, 0)


async def race_on(
    fake: FakeDiscord, board: FakeMessage, user: FakeUser, stop_at: float, rng: random.Random
) -> Figures:
    """One racer's loop: a random legal move (the menu's) or Deal, as fast as answered;
    stuck, Undo (a random player's way out), until time is up."""
    figures = Figures()
    while time.monotonic() < stop_at:
        menu = next((c for c in board.items if c.get("type") == 3), None) or {}
        usable = {c.get("label", "")[:4]: c for c in board.buttons if not c.get("disabled")}
        options = [o["value"] for o in menu.get("options", []) if o["value"] != "-"]
        if options and ("Deal" not in usable or rng.random() < 0.9):
            result = await fake.click(user, board, menu["custom_id"], values=[rng.choice(options)])
        elif "Deal" in usable or "Undo" in usable:
            button = usable.get("Deal") or usable["Undo"]
            result = await fake.click(user, board, button["custom_id"])
        else:
            break  # won, or nothing left to play
        if result.response_time is not None:
            figures.answers.append(result.response_time)
        figures.moves.append((fake.now(), user.id, *shown_on(board)))
    return figures


def standings_lag(
    fake: FakeDiscord, lobby: FakeMessage, moves: list[tuple[float, int, int, int]]
) -> list[float]:
    """For each move, seconds from its answer until an edit of the standings showed the
    racer as they were after it, or later (their cards home and moves)."""
    path = f"/channels/{lobby.channel_id}/messages/{lobby.id}"
    times = [
        a.answered_at
        for a in fake.attempts
        if a.method == "PATCH" and a.path == path and a.status == 200
    ]
    shown: list[tuple[float, dict[int, tuple[int, int]]]] = []
    for at, edit in zip(times, lobby.edits[-len(times) :], strict=False):
        text = str(((edit.get("embeds") or [{}])[0]).get("description") or "")
        shown.append((at, {int(u): (int(s), int(m)) for u, s, m in ROW.findall(text)}))
    mine: dict[int, list[tuple[float, int, int]]] = {}
    for answered, user, score, count in moves:
        mine.setdefault(user, []).append((answered, score, count))
    lags = []
    for user, history in mine.items():
        for i, (answered, _, _) in enumerate(history):
            for at, rows in shown:
                later = {(s, m) for t, s, m in history[i:] if t <= at}
                if at >= answered and rows.get(user) in later:
                    lags.append(at - answered)
                    break
    return lags


async def bench(racers: int, seconds: float, deal: int, seed: int) -> None:
    rng = random.Random(seed)
    names = [f"racer{i}" for i in range(racers)]
    with tempfile.TemporaryDirectory() as folder:
        fake = FakeDiscord(users=names)
        async with fake:
            with fake.patched():
                store = await Store.open(Path(folder) / "reel.db")
                service = GameService(store)
                bot = create_bot(
                    service, dev_guild_id=fake.guild.id, cooldown=None, guild_ready_timeout=0.1
                )
                try:
                    async with fake.running(bot):
                        await run_race(fake, [fake.user(n) for n in names], seconds, deal, rng)
                finally:
                    await service.close()
        if fake.violations:
            print(f"Discord's rules broken: {len(fake.violations)}, e.g. {fake.violations[0]}")


async def run_race(
    fake: FakeDiscord, users: list[FakeUser], seconds: float, deal: int, rng: random.Random
) -> None:
    host = users[0]
    opened = await fake.slash(host, "reel", sub="race", options={"deal": str(deal), "minutes": 60})
    lobby = await opened.wait_message()
    joins = [await fake.click(user, lobby, label="Join") for user in users[1:]]
    start = await fake.click(host, lobby, label="Start (host)")
    boards = [await start.wait_message()] + [(await j.wait_followups(1))[0] for j in joins]
    started = time.monotonic()
    loops = [
        race_on(fake, b, u, started + seconds, rng) for b, u in zip(boards, users, strict=True)
    ]
    results = await asyncio.gather(*loops)
    played = time.monotonic() - started
    await asyncio.sleep(3.5)  # the last standings edit
    answers = [a for r in results for a in r.answers]
    moves = [m for r in results for m in r.moves]
    path = f"/channels/{lobby.channel_id}/messages/{lobby.id}"
    edits = [a.at for a in fake.attempts if a.method == "PATCH" and a.path == path]
    window = max((sum(1 for t in edits if s <= t < s + 5) for s in edits), default=0)
    lags = standings_lag(fake, lobby, moves)
    rate = len(answers) / played
    print(f"{len(users)} racers, {played:.1f} s, {len(answers)} interactions ({rate:.1f}/s)")
    p50, p99 = quantile(answers, 0.5) * 1000, quantile(answers, 0.99) * 1000
    worst = max(answers, default=0) * 1000
    print(f"interactions: p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {worst:.0f} ms")
    verdict = "OK" if window <= CHANNEL_LIMIT else "OVER"
    print(
        f"standings edits: {len(edits)}, {len(edits) / (played + 3.5):.2f}/s, most in any 5 s: "
        f"{window} (Discord's limit about {CHANNEL_LIMIT}) {verdict}"
    )
    print(
        f"standings lag: p50 {quantile(lags, 0.5):.2f} s, p99 {quantile(lags, 0.99):.2f} s, "
        f"max {max(lags, default=0):.2f} s over {len(lags)} of {len(moves)} moves "
        f"(target p99 < 3 s) {'OK' if lags and quantile(lags, 0.99) < 3 else 'OVER'}"
    )
    if answers:
        print(f"mean interaction {statistics.mean(answers) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racers", type=int, default=25)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--deal", type=int, default=28)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(bench(args.racers, args.seconds, args.deal, args.seed))


if __name__ == "__main__":
    main()
