"""The terminal game, driven by a script through the real ``reel`` command."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shlex
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import bot.terminal as terminal_module
from bot.service import GameService
from bot.service.daily_rules import find_daily_deal
from bot.service.hints import FAIR_NODES, FAIR_SAMPLES
from bot.store import Store, StoreUnavailableError
from bot.terminal import TerminalGame
from engine import Game, render, variant_by_code
from engine.daily import daily_start_number
from engine.solver import Verdict, blind_move, solve

WINNABLE_DEAL = 16  # the solver wins it in a few dozen nodes


def run_reel(
    args: list[str], stdin: str, tmp_path: Path, *, plain: bool = True
) -> subprocess.CompletedProcess[str]:
    """``reel ARGS`` with ``stdin`` typed, on a database in ``tmp_path``. ``plain``: a
    ``play`` leaves the Aces to the player and deals any deal (the product plays the
    Aces and deals winnable ones: tests of that say ``plain=False``), so each test plays
    exactly the moves it names."""
    if plain and args[:1] == ["play"] and "--auto-aces" not in args:
        args = [*args, "--no-auto-aces"]
    if plain and args[:1] == ["play"] and "--winnable" not in args:
        args = [*args, "--any-deal"]  # and no search before a chosen deal
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REEL_DB")}
    env["REEL_DB"] = str(tmp_path / "reel.db")
    env["REEL_HINT_DEADLINE"] = "60"  # the solver is pure Python here, the machine shared
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )


def winning_line(deal: int) -> list[str]:
    solution = solve(Game.new(deal), max_seconds=30)
    assert solution.verdict is Verdict.WON
    return [str(move) for move in solution.line]


def test_a_scripted_game_reaches_a_win(tmp_path: Path) -> None:
    line = winning_line(WINNABLE_DEAL)
    result = run_reel(
        ["play", "--deal", str(WINNABLE_DEAL)], "\n".join([*line, "quit"]) + "\n", tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert f"You won deal {WINNABLE_DEAL}" in result.stdout
    assert "Score 104/104" in result.stdout


def test_bad_input_gets_a_message_and_the_board_is_unchanged(tmp_path: Path) -> None:
    result = run_reel(["play", "--deal", "1"], "zz9 top\nr1 ace\nquit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "I don't know 'zz9'" in result.stdout
    assert "Only Aces go to the Ace pile" in result.stdout
    assert result.stdout.count("Deal 1 · move 0") == 1  # the board was never redrawn
    assert "move 1" not in result.stdout


def test_a_quit_game_resumes_next_time(tmp_path: Path) -> None:
    first = run_reel(["play", "--deal", "1"], "r6 ace\nquit\n", tmp_path)
    assert "Deal 1 · move 1" in first.stdout
    second = run_reel(["play"], "quit\n", tmp_path)
    assert "Resuming your game of Virginia Reel, deal 1." in second.stdout
    assert "Deal 1 · move 1" in second.stdout
    # told how to come back as the game was started (here: the interpreter, as a module,
    # on the save REEL_DB names: 'reel play' alone would open another)
    again = f"'{sys.executable} -m bot.cli play' with REEL_DB={tmp_path / 'reel.db'}"
    assert f"Type {again} to resume it." in second.stdout


def test_the_way_back_names_the_save_it_was_opened_with(tmp_path: Path) -> None:
    save = tmp_path / "my saves" / "x.db"
    save.parent.mkdir()
    first = run_reel(["play", "--deal", "1", "--db", "my saves/x.db"], "quit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    again = f"'{sys.executable} -m bot.cli play --db {shlex.quote(str(save))}'"
    assert first.stdout.endswith(f"Your game is saved. Type {again} to resume it.\n")
    second = run_reel(["play", "--db", str(save)], "resign\nquit\n", tmp_path)
    assert "Resuming your game of Virginia Reel, deal 1." in second.stdout
    assert second.stdout.endswith(f"Goodbye. Type {again} for a new game.\n")
    assert not (tmp_path / "reel.db").exists()  # REEL_DB's file was never opened


def test_a_save_named_in_a_missing_folder_is_refused_and_no_folder_is_made(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    for args in (["play", "--db", f"{missing}/x.db"], ["web", "--db", f"{missing}/x.db"]):
        result = run_reel(args, "quit\n", tmp_path)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr == (
            f"reel {args[0]}: there is no folder {missing} for the database {missing}/x.db "
            f"(--db): make it first (mkdir -p {missing}) or choose another file.\n"
        )
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REEL_DB")}
    env["REEL_DB"] = f"{missing}/y.db"
    named = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert named.returncode == 1
    assert f"there is no folder {missing} for the database {missing}/y.db (REEL_DB)" in named.stderr
    assert sorted(tmp_path.iterdir()) == []  # neither the folder nor a log


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    result = run_reel(["play", "--deal", "5"], "", tmp_path)
    assert result.returncode == 0
    assert "Your game is saved" in result.stdout
    assert "Traceback" not in result.stderr


def test_leaving_after_the_game_is_over_does_not_promise_a_resume(tmp_path: Path) -> None:
    result = run_reel(["play", "--deal", "5"], "resign\nquit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "You resigned deal 5" in result.stdout
    again = f"'{sys.executable} -m bot.cli play' with REEL_DB={tmp_path / 'reel.db'}"
    assert f"Type {again} for a new game" in result.stdout
    assert "resume it" not in result.stdout


def test_no_token_means_the_terminal_game(tmp_path: Path) -> None:
    result = run_reel([], "quit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Score" in result.stdout and "Aces" in result.stdout


# --------------------------------------------------------------------------- the daily, stats


class FakeClock:
    """The service's clock, standing at 2025-03-01 12:00 UTC until a test moves it."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def session(service_db: Path, clock: FakeClock, lines: list[str], *, daily: bool = True) -> str:
    """One terminal session on ``service_db`` with the test's clock; everything printed."""
    out = io.StringIO()
    inputs = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(inputs)
        except StopIteration:
            raise EOFError from None

    with asyncio.Runner() as runner:
        store = runner.run(Store.open(service_db))
        service = GameService(store, clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out, read=read)
            if daily:
                game.start_daily()
            else:
                game.start(None)
            game.loop()
        finally:
            runner.run(service.close())
    return out.getvalue()


def first_move(deal: int) -> str:
    return next(str(m) for m in Game.new(deal).legal_moves() if not m.is_deal)


def test_play_daily_shows_the_date_the_next_start_and_the_share_line(
    db_path: Path, clock: FakeClock
) -> None:
    day = clock.now.date()  # 2025-03-01
    deal = daily_start_number(day)
    out = session(db_path, clock, ["resign", "y", "quit"])
    assert f"Daily challenge {day.isoformat()}" in out
    assert f"Deal {deal} · move 0" in out
    assert out.count("The next daily starts 2025-03-02 00:00 UTC.") == 2  # at the start and end
    assert "Share your result (no spoilers):\n  Virginia Reel daily 2025-03-01: " in out
    assert "unscored" not in out


def test_the_daily_resumes_then_a_replay_is_unscored(db_path: Path, clock: FakeClock) -> None:
    move = first_move(daily_start_number(clock.now.date()))
    first = session(db_path, clock, [move, "quit"])
    assert "· move 1" in first

    second = session(db_path, clock, ["resign", "y", "daily", "resign", "y", "quit"])
    assert "your game in progress" in second
    replay_at = second.index("(unscored replay")
    assert second.count("Share your result") == 1
    assert second.index("Share your result") < replay_at  # only for the scored attempt
    assert "Virginia Reel daily 2025-03-01: " in second and "in 1 move" in second


def test_stats_at_the_prompt(db_path: Path, clock: FakeClock) -> None:
    fresh = session(db_path, clock, ["stats", "quit"], daily=False)
    assert "No finished games yet" in fresh

    session(db_path, clock, ["resign", "y", "quit"])
    clock.now += timedelta(days=1)
    out = session(db_path, clock, ["resign", "y", "stats", "quit"])
    assert "Games played    2" in out  # two dailies (the random deal, untouched, is not one)
    assert "Won             0 (0%)" in out
    assert "Daily streak    2 (best 2)" in out
    assert "Dailies played  2 (won 0)" in out
    assert re.search(r"Best score      \d+/104", out)
    assert re.search(r"\nDeal \d+ +won 0 of 1 game\n", out)  # this deal: the daily resigned


def test_new_during_the_scored_daily_asks_to_resign_it_first(
    db_path: Path, clock: FakeClock
) -> None:
    out = session(db_path, clock, ["new 5", "resign", "y", "new 5"])
    assert "Your scored daily of 2025-03-01 is still in play" in out
    assert "give it up with 'resign' and then start a new game." in out
    assert out.count("New game of Virginia Reel: deal 5") == 1  # only after the resign


def test_help_names_daily_and_stats(db_path: Path, clock: FakeClock) -> None:
    out = session(db_path, clock, ["help", "quit"])
    assert "daily       play today's daily challenge" in out
    assert "stats       your games, wins, daily streak" in out


def test_reel_play_daily_from_the_command_line(tmp_path: Path) -> None:
    before = datetime.now(UTC).date()
    result = run_reel(["play", "--daily"], "quit\n", tmp_path)
    after = datetime.now(UTC).date()
    assert result.returncode == 0, result.stderr
    # The real proof search ran (in the command's worker process): the proven deal, its par.
    dailies = [find_daily_deal(d) for d in sorted({before, after})]
    assert any(
        f"Daily challenge {d.day.isoformat()} · par {d.par} moves" in result.stdout
        and f"Deal {d.deal_number} · move 0" in result.stdout
        for d in dailies
    ), result.stdout
    assert re.search(r"The next daily starts \d{4}-\d\d-\d\d 00:00 UTC\.", result.stdout)


def test_daily_and_deal_together_are_refused(tmp_path: Path) -> None:
    result = run_reel(["play", "--daily", "--deal", "5"], "", tmp_path)
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr


# --------------------------------------------------------------------------- hints


def test_a_hint_at_the_prompt_names_a_move_that_then_plays(tmp_path: Path) -> None:
    args = ["play", "--deal", str(WINNABLE_DEAL), "--solver-hints"]
    first = run_reel(args, "hint\nquit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    assert "Thinking…" in first.stdout and "it starts a winning line" in first.stdout
    found = re.search(r"Type '([^']+)' to play it\.", first.stdout)
    assert found is not None, first.stdout
    # the solver's first move (the installed one searches with the probe at every deal
    # if it is compiled)
    firsts = {
        str(solve(Game.new(WINNABLE_DEAL), max_nodes=200_000, probe_every_deal=p).line[0])
        for p in (True, False)
    }
    assert found.group(1) in {move.lower() for move in firsts}
    second = run_reel(["play"], f"{found.group(1)}\nquit\n", tmp_path)
    assert f"Deal {WINNABLE_DEAL} · move 1" in second.stdout


def test_a_fair_hint_is_the_default_and_says_how_sure_it_is(tmp_path: Path) -> None:
    first = run_reel(["play", "--deal", str(WINNABLE_DEAL)], "hint\nquit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    found = re.search(r"Type '([^']+)' to play it\.", first.stdout)
    assert found is not None, first.stdout
    game = Game.new(WINNABLE_DEAL)
    expected = blind_move(game, samples=FAIR_SAMPLES, max_nodes=FAIR_NODES)
    assert found.group(1) == str(expected).lower()
    said = re.search(r"wins in (\d+) of the (\d+) stock orders I tried", first.stdout)
    safe = "a safe move, it never costs a win" in first.stdout
    assert said is not None or safe, first.stdout
    assert "it starts a winning line" not in first.stdout
    # the setting is saved: the solver's hint from then on
    second = run_reel(["play", "--solver-hints"], "hint\nquit\n", tmp_path)
    assert "The solver sees the stock's order" in second.stdout


def test_help_names_hint(db_path: Path, clock: FakeClock) -> None:
    out = session(db_path, clock, ["help", "quit"], daily=False)
    assert "hint        suggest a move" in out


# --------------------------------------------------------------------------- dead ends, mistakes


def test_after_resigning_the_prompt_says_the_game_is_over_and_names_the_terminal_command(
    tmp_path: Path,
) -> None:
    result = run_reel(["play", "--deal", "5"], "resign\nundo\nmoves\n5h\nquit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    after = result.stdout.split("You resigned deal 5", 1)[1]
    assert after.count("This game of deal 5 is over") == 2  # under the board, and for moves
    assert after.count("Type 'new' for another deal") == 2
    assert after.count("is over (resigned). Start a new one with 'new'.") == 2  # undo, 5h
    # Discord's commands mean nothing here (the file's path may hold "/reel.db")
    assert not re.search(r"/reel (new|resign)", result.stdout)
    assert "No legal move" not in after


def test_a_command_with_words_after_it_is_refused_the_same_way(
    db_path: Path, clock: FakeClock
) -> None:
    lines = ["new 1", "stats extra", "undo three", "hint please", "deal now", "board"]
    out = session(db_path, clock, lines, daily=False)
    for word in ("stats", "hint", "deal"):
        assert f"'{word}' takes nothing after it: type '{word}' alone." in out
    assert (
        "Type 'undo' to take back your last move, 'undo N' for the last N moves, "
        "or 'undo to N' to go back to move N." in out
    )
    assert "Thinking" not in out and "Deal 1 · move 0" in out and "move 1" not in out


def test_a_mistyped_command_gets_a_suggestion(db_path: Path, clock: FakeClock) -> None:
    out = session(db_path, clock, ["new 1", "dael", "xyzzy", "aces r1"], daily=False)
    assert "I don't know the command 'dael'. Did you mean 'deal'? Type 'help'" in out
    assert "I don't know the command 'xyzzy'. Type 'help' for the commands." in out
    assert "Nothing leaves the Ace pile." in out  # "aces" names a pile, not a command
    assert "move 1" not in out


def test_the_move_list_warns_of_a_space_nothing_can_fill(db_path: Path, clock: FakeClock) -> None:
    out = session(db_path, clock, ["new 1", "moves"], daily=False)
    listed = {
        line.split()[0] + " " + line.split()[1]: line
        for line in out.splitlines()
        if line.startswith("  ") and "→" in line
    }
    assert listed["A7 C5"].endswith("(! leaves a space in row A that no Two can fill yet)")
    assert "(!" not in listed["R5 C1"]


def test_the_first_prompt_says_how_to_get_help(db_path: Path, clock: FakeClock) -> None:
    out = session(db_path, clock, [], daily=False)
    assert "Type 'help' for the commands" in out


def test_a_game_changed_by_another_session_is_shown_as_it_now_stands(
    db_path: Path, clock: FakeClock
) -> None:
    # Two terminals on one file: the second one's move is refused, and it sees the board.
    out = io.StringIO()
    with asyncio.Runner() as runner:
        mine = GameService(runner.run(Store.open(db_path)), clock=clock)
        other = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(mine, runner.run, out=out)
            game.start(1)
            runner.run(other.move(0, first_move(1)))  # the other session plays
            out.truncate(0)
            game.command("deal")
        finally:
            runner.run(mine.close())
            runner.run(other.close())
    said = out.getvalue()
    assert "nothing was played. Here is the current board." in said
    assert "Deal 1 · move 1" in said  # the other session's move, shown


def test_leaving_before_any_board_promises_nothing(db_path: Path, clock: FakeClock) -> None:
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=io.StringIO())
            assert game.farewell() == "Goodbye."  # Ctrl-C while the first daily is found
            game.start(1)
            assert "resume" in game.farewell()
        finally:
            runner.run(service.close())


def test_a_database_that_cannot_be_opened_is_one_line_and_status_1(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    # (a folder that isn't there is made; one that is a file can't be)
    for path in (tmp_path / "notes.txt" / "x.db", tmp_path / "notes.txt"):
        result = run_reel(["play", "--db", str(path)], "quit\n", tmp_path)
        assert result.returncode == 1
        assert result.stderr.startswith(f"reel play: cannot open the database {str(path)!r}")
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_the_log_goes_to_a_file_beside_the_database_not_the_screen(tmp_path: Path) -> None:
    run_reel(["play", "--deal", "1"], "quit\n", tmp_path)
    with sqlite3.connect(tmp_path / "reel.db") as conn:
        conn.execute("UPDATE current_games SET moves = 'R9 Z9' WHERE user_id = 0")
    result = run_reel(["play"], "quit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Your saved game can't be read, sorry (the details are in the log)." in result.stdout
    assert "New game of Virginia Reel: deal" in result.stdout
    assert result.stderr == ""
    assert "unreadable" in (tmp_path / "reel.log").read_text()


def test_a_slow_call_is_announced_and_a_quick_one_is_not(
    monkeypatch: pytest.MonkeyPatch, db_path: Path, clock: FakeClock
) -> None:
    # The first daily of a day waits for the solver; the player is told why.
    out = io.StringIO()
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out)
            monkeypatch.setattr(terminal_module, "NOTICE_AFTER", 60.0)
            assert runner.run(game.noticed(asyncio.sleep(0, "quick"), "Busy…")) == "quick"
            assert out.getvalue() == ""
            monkeypatch.setattr(terminal_module, "NOTICE_AFTER", 0.01)
            assert runner.run(game.noticed(asyncio.sleep(0.2, "slow"), "Busy…")) == "slow"
            assert out.getvalue() == "Busy…\n"
        finally:
            runner.run(service.close())


def test_after_midnight_the_open_daily_says_that_todays_is_open(
    db_path: Path, clock: FakeClock
) -> None:
    session(db_path, clock, ["quit"])  # the daily of 2025-03-01, left open
    clock.now = datetime(2025, 3, 2, 0, 1, tzinfo=UTC)
    out = session(db_path, clock, ["board", "quit"], daily=False)
    assert "The daily of 2025-03-02 is open: type 'daily' to play it" in out
    assert "The next daily starts" not in out


def test_a_hint_in_the_scored_daily_is_given_only_when_asked_twice(
    db_path: Path, clock: FakeClock
) -> None:
    out = session(db_path, clock, ["hint", "hint", "hint"])
    warned = out.split("A hint marks this daily as assisted on the leaderboard", 1)
    assert len(warned) == 2 and "Thinking…" not in warned[0]  # asked first, nothing given
    # asked again: given (a search); then no more asking, and the next move of the same
    # winning line comes with no search, so with no "Thinking…"
    assert warned[1].count("Thinking…") == 1
    assert warned[1].count("This daily is now marked as assisted") == 2
    assert "A hint marks this daily" not in warned[1]


def test_a_lost_games_hint_says_how_to_undo_back_and_undo_to_n_does(
    db_path: Path, clock: FakeClock
) -> None:
    # Deal 16 with the Ace taken out of C3 at once is lost (a space nothing can fill).
    lines = ["new 16", "c3 ace", "deal", "undo 5", "hint", "undo to 0", "undo to 0"]
    out = session(db_path, clock, lines, daily=False)
    assert "Deal 16 · move 1" in out
    assert "You can take back 1 move at most, not 5: nothing was changed." in out
    assert "It still could be at the start: undo back to there." in out
    assert "Type 'undo to 0' to go back to the start." in out
    after = out.split("Type 'undo to 0' to go back to the start.", 1)[1]
    assert "Back at the start: took back 1 move" in after and "Deal 16 · move 0" in after
    assert "There is nothing to undo: this is the start of the game." in after


def test_the_winnable_flag_is_saved_and_new_deals_a_proven_deal(tmp_path: Path) -> None:
    first = run_reel(["play", "--deal", "4", "--winnable"], "new\nquit\n", tmp_path)
    assert first.returncode == 0, first.stderr
    # A deal asked for by number is that deal, and the solver's verdict is said (lost).
    lost = (
        "New game of Virginia Reel: deal 4 · the solver has proven this deal can't be won: "
        "try another"
    )
    assert lost in first.stdout and "Deal 4 · move 0" in first.stdout
    found = re.search(r"New game of Virginia Reel: deal (\d+) · proven winnable", first.stdout)
    assert found is not None, first.stdout
    # (the installed game searched with the probe at every deal if it is compiled)
    number = int(found.group(1))
    assert any(
        solve(Game.new(number), max_nodes=20_000, max_seconds=60, probe_every_deal=probe).verdict
        is Verdict.WON
        for probe in (True, False)
    )
    # Saved: the next session's 'new' is proven too, until --any-deal turns it off.
    second = run_reel(["play"], "new\nquit\n", tmp_path, plain=False)
    assert "· proven winnable" in second.stdout
    third = run_reel(["play", "--any-deal"], "new\nquit\n", tmp_path, plain=False)
    assert third.returncode == 0 and "New game of Virginia Reel: deal" in third.stdout
    assert "winnable" not in third.stdout.replace(str(tmp_path), "TMP")  # the test's name


def test_undo_two_after_three_moves_then_redo_and_restart(db_path: Path, clock: FakeClock) -> None:
    game = Game.new(1)
    played = []
    for _ in range(3):
        move = next(m for m in game.legal_moves() if not m.is_deal)
        played.append(str(move).lower())
        game.play(move)
    lines = ["new 1", *played, "undo 2", "redo", "redo 5", "restart", "undo to 1"]
    out = session(db_path, clock, lines, daily=False)
    after = out.split("Took back 2 moves", 1)[1]
    assert after.split("Redid", 1)[0].count("Deal 1 · move 1") == 1  # undo 2: at move 1
    assert "Deal 1 · move 2" in after.split("Redid", 1)[1]  # redo: at move 2
    assert "You can play again 1 move at most, not 5: nothing was changed." in out
    assert "Restarted deal 1: back at the start" in out
    assert out.endswith(
        "There is nothing to undo: this is the start of the game.\n\n"
        "Your game is saved. Type 'reel play' to resume it.\n"
    )


def test_reel_has_a_version_and_every_command_a_description(tmp_path: Path) -> None:
    shown = run_reel(["--version"], "", tmp_path)
    assert shown.returncode == 0 and shown.stdout.startswith("reel ")
    for command in ("play", "bot", "solve", "study"):
        helped = run_reel([command, "--help"], "", tmp_path)
        lines = helped.stdout.splitlines()
        assert helped.returncode == 0 and lines[0].startswith(f"usage: reel {command}")
        body = helped.stdout.split("\n\n")[1]  # the description, after the usage
        assert not body.lstrip().startswith(("options:", "-h")), command


def test_automatic_aces_are_on_at_the_terminal_and_saved_off(tmp_path: Path) -> None:
    first = run_reel(["play", "--deal", "14"], "quit\n", tmp_path, plain=False)
    assert first.returncode == 0, first.stderr
    started = r"New game of Virginia Reel: deal 14 · [^\n]*· 2 Aces to the Ace pile\n"
    assert re.search(started, first.stdout)
    off = run_reel(["play", "--deal", "14", "--no-auto-aces"], "quit\n", tmp_path)
    assert "New game of Virginia Reel: deal 14" in off.stdout
    assert "Aces to the Ace pile" not in off.stdout
    again = run_reel(["play", "--deal", "14"], "quit\n", tmp_path, plain=False)  # saved
    assert "Aces to the Ace pile" not in again.stdout


def test_one_save_wherever_the_game_is_started(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REEL_DB")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # the user's data folder, on Linux
    saved = tmp_path / "data" / "virginia-reel" / "reel.db"
    answers = []
    for folder, stdin in (("one", "r6 ace\nquit\n"), ("two", "quit\n")):
        (tmp_path / folder).mkdir()
        args = [sys.executable, "-m", "bot.cli", "play"] + (
            ["--deal", "1"] if folder == "one" else []
        )
        answers.append(subprocess.run(args, input=stdin, capture_output=True, text=True,
                                      timeout=120, env=env, cwd=tmp_path / folder))  # fmt: skip
    first, second = answers
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert first.stdout.startswith(f"Your games are saved in {saved}.\n")
    assert "Your games are saved" not in second.stdout  # said once, at the first start
    assert "Resuming your game of Virginia Reel, deal 1." in second.stdout
    assert "Deal 1 · move 1" in second.stdout
    assert saved.is_file() and not (tmp_path / "one" / "reel.db").exists()


def test_a_read_only_database_is_refused_at_start(tmp_path: Path) -> None:
    db = tmp_path / "reel.db"
    assert run_reel(["play", "--deal", "1", "--db", str(db)], "quit\n", tmp_path).returncode == 0
    db.chmod(0o444)
    # root writes any file whatever its mode: make it immutable as well (ext4 and most
    # file systems; chattr -i after)
    immutable = os.geteuid() == 0
    if immutable and subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode:
        pytest.skip("running as root on a file system without immutable files")
    try:
        result = run_reel(["play", "--db", str(db)], "r6 ace\nquit\n", tmp_path)
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(db)], check=True)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr == (
        f"reel play: {db} is read-only, so no move could be saved: make it writable "
        f"(chmod u+w {db}) or choose another file with --db PATH or REEL_DB.\n"
    )
    assert "saved" not in result.stdout.lower()


def test_quit_after_a_failed_save_does_not_say_the_game_is_saved(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def failing(*args: object, **kwargs: object) -> bool:
        raise StoreUnavailableError("disk I/O error")

    out = io.StringIO()
    with asyncio.Runner() as runner:
        store = runner.run(Store.open(db_path))
        service = GameService(store, clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out)
            game.start(1)
            monkeypatch.setattr(store, "save_game", failing)
            game.command("r6 ace")
            assert "couldn't be saved just now" in out.getvalue()
            assert game.farewell().startswith("Your last command could not be saved")
            monkeypatch.undo()
            game.command("r6 ace")  # saved this time
            assert game.farewell() == "Your game is saved. Type 'reel play' to resume it."
        finally:
            runner.run(service.close())


def test_unknown_words_are_echoed_short_and_only_close_words_suggested(
    db_path: Path, clock: FakeClock
) -> None:
    long = "x" * 100_000
    out = session(db_path, clock, ["new 1", long, "statz", "resart", "zzzzzz", "r9 " + long])
    said = " ".join(out.split())
    assert f"I don't know the command '{'x' * 59}…'." in said and "x" * 61 not in said
    assert "I don't know the command 'statz'. Did you mean 'stats'?" in said
    assert "I don't know the command 'resart'. Did you mean 'restart'?" in said
    assert "I don't know the command 'zzzzzz'. Type 'help' for the commands." in said


def test_messages_are_wrapped_at_80_columns_in_a_terminal(db_path: Path, clock: FakeClock) -> None:
    out = io.StringIO()
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out, wrap=True)
            game.start(1)
            game.command("undo three")  # a long message
        finally:
            runner.run(service.close())
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines) and "'undo to N' to go back" in " ".join(lines)
    assert render(Game.new(1)).splitlines()[1] in lines  # the board as it is


def test_questions_and_messages_wrap_between_words_at_the_terminals_width(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # a narrow terminal: "Real / ly resign?" before
    prompts: list[str] = []
    answers = iter([winning_line(16)[0], "resign", "", "undo three", "quit"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out, read=read, wrap=True)
            game.start(16)
            game.loop()
        finally:
            runner.run(service.close())
    [question] = [p for p in prompts if p != "> "]
    asked = "Your game in progress ends, recorded as resigned. Really resign? [y/N] "
    assert question != asked and question.endswith("[y/N] ")
    assert all(len(line) <= 40 for line in question.rstrip().split("\n"))
    assert " ".join(question.split()) + " " == asked  # cut between words only
    said = out.getvalue().splitlines()  # the messages wrapped, the board as it is
    assert all(len(line) <= 40 for line in said) and max(len(line) for line in said) > 30
    assert "'undo to N' to go back" in " ".join(said)


def test_red_suits_are_red_in_a_colour_terminal_only(db_path: Path, clock: FakeClock) -> None:
    board = render(Game.new(1))
    assert "\x1b[31m" in terminal_module.coloured(board)
    assert terminal_module.coloured(board).replace("\x1b[31m", "").replace("\x1b[0m", "") == board
    assert "\x1b" not in terminal_module.coloured(render(Game.new(1), False))  # letters
    tty = io.StringIO()
    tty.isatty = lambda: True  # type: ignore[method-assign]
    assert terminal_module.shows_colour(tty) and not terminal_module.shows_colour(io.StringIO())
    os.environ["NO_COLOR"] = "1"
    try:
        assert not terminal_module.shows_colour(tty)
    finally:
        del os.environ["NO_COLOR"]


def test_tab_completes_commands_and_legal_moves_and_arrow_keys_never_reach_the_parser(
    db_path: Path, clock: FakeClock
) -> None:
    out = io.StringIO()
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out)
            game.start(1)
            said = [game.complete("re", i) for i in range(4)]
            assert said == ["redo", "resign", "restart", None]
            moves = [str(m).lower() for m in Game.new(1).legal_moves() if not m.is_deal]
            first = moves[0].split()[0]
            found: list[str] = []
            while (word := game.complete(first + " ", len(found))) is not None:
                found.append(word)
            assert found == sorted(m for m in moves if m.startswith(first + " "))
            game.command("\x1b[A\x1b[B")  # up, down: no readline to read them
            assert "I don't know" not in out.getvalue() and "\x1b" not in out.getvalue()
        finally:
            runner.run(service.close())


def test_new_resign_and_a_large_undo_ask_first_during_a_game(
    db_path: Path, clock: FakeClock
) -> None:
    played = winning_line(16)[:12]  # twelve moves of a game still in play
    lines = ["new 16", *played, "new 2", "n", "resign", "", "undo 11", "no", "undo 2"]
    lines += ["undo 11", "y", "new 2", "y"]
    out = session(db_path, clock, lines, daily=False)
    asked = "Your game in progress ends, recorded as abandoned. Really start a new game? [y/N]"
    assert out.count("Nothing was changed.") == 3  # n, an empty answer, no
    assert "You resigned" not in out and "New game of Virginia Reel: deal 2" in out
    after = out.split("Nothing was changed.")[-1]
    assert after.startswith("\nTook back 2 moves")  # undo 2: not asked
    assert "You can take back 10 moves at most, not 11" in after  # asked, then tried
    assert "(deal 16 recorded as abandoned)" in out
    assert asked not in out  # the questions go to the prompt, not to the screen


def test_a_restart_of_more_than_ten_moves_asks_first(db_path: Path, clock: FakeClock) -> None:
    played = winning_line(16)[:11]  # eleven moves: one more than an undo takes unasked
    lines = ["new 16", *played, "restart", "n", "restart", "y", "redo 11", "undo", "restart"]
    prompts: list[str] = []
    out = io.StringIO()
    inputs = iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(inputs)
        except StopIteration:
            raise EOFError from None

    with asyncio.Runner() as runner:
        store = runner.run(Store.open(db_path))
        service = GameService(store, clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out, read=read, colour=False)
            game.loop()
        finally:
            runner.run(service.close())
    asked = "Start this deal over, taking back all 11 moves? ('redo' brings them back) [y/N] "
    assert prompts.count(asked) == 2  # not for the third: ten moves, as an undo of ten
    text = out.getvalue()
    refused, _, rest = text.partition("Nothing was changed.")
    assert "Restarted deal" not in refused and rest.count("Restarted deal 16") == 2


def test_the_questions_are_asked_at_the_prompt(db_path: Path, clock: FakeClock) -> None:
    prompts: list[str] = []
    answers = iter([winning_line(16)[0], "new 2", "y", "quit"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=io.StringIO(), read=read)
            game.start(16)
            game.loop()
        finally:
            runner.run(service.close())
    assert prompts == [
        "> ",
        "> ",
        "Your game in progress ends, recorded as abandoned. Really start a new game? [y/N] ",
        "> ",
    ]


def test_the_board_shows_the_game_clock(db_path: Path, clock: FakeClock) -> None:
    out = io.StringIO()
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out)
            game.start(1)
            clock.now += timedelta(minutes=2, seconds=7)
            game.command("board")
            clock.now += timedelta(hours=1)
            game.command("board")
            game.command("resign")
        finally:
            runner.run(service.close())
    times = re.findall(r"\nTime ([0-9:]+)\n", out.getvalue())
    # from the deal; a pause counts up to three minutes; none once the game is over
    assert times == ["0:00", "2:07", "3:00"]


def terminal_visit(db_path: Path, clock: FakeClock, lines: list[str]) -> str:
    """``reel play`` as it runs: the game opened again, the lines typed, the game closed."""
    out = io.StringIO()
    inputs = iter(lines)
    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(db_path)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out, read=lambda _: next(inputs))
            game.reopen()
            game.start(None)
            for line in inputs:
                if line.startswith("wait "):
                    clock.now += timedelta(seconds=int(line.split()[1]))
                else:
                    game.command(line)
            game.pause()
        finally:
            runner.run(service.close())
    return out.getvalue()


def test_the_clock_stands_still_while_the_game_is_closed(db_path: Path, clock: FakeClock) -> None:
    move = winning_line(16)[0]
    terminal_visit(db_path, clock, ["new 16", "wait 120", move, "wait 109", "board"])
    clock.now += timedelta(seconds=22)  # away: the game is closed
    again = terminal_visit(db_path, clock, ["wait 5", "board"])
    times = re.findall(r"\nTime ([0-9:]+)\n", again)
    assert times == ["3:49", "3:54"]  # as it was left, then counting again


@pytest.mark.parametrize("code", ["rp", "tu", "bj", "bp"])
def test_every_game_of_the_family_is_played_in_the_terminal(tmp_path: Path, code: str) -> None:
    board = render(Game.new(1, variant_by_code(code)))
    result = run_reel(["play", "--variant", code.upper(), "--deal", "1"], "quit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"New game of {variant_by_code(code).name}: deal 1" in result.stdout
    assert board.splitlines()[1] in result.stdout and "Aces 0/" in result.stdout
    again = run_reel(["play"], "quit\n", tmp_path)  # the saved game resumes as that game
    assert f"Resuming your game of {variant_by_code(code).name}, deal 1." in again.stdout
    assert board.splitlines()[-2] in again.stdout


def test_a_game_that_is_not_one_of_the_family_is_refused(tmp_path: Path) -> None:
    result = run_reel(["play", "--variant", "zz"], "quit\n", tmp_path)
    assert result.returncode == 2
    assert "invalid choice: 'zz'" in result.stderr and "rp" in result.stderr


# --------------------------------------------------------------------------- asked first


def prompted_session(
    service_db: Path, clock: FakeClock, lines: list[str], start: int | None = None
) -> tuple[str, list[str]]:
    """A session like ``session`` (deal ``start``, else the saved game) that also keeps
    the prompts it was read at: what was printed, and the prompts."""
    out, prompts, inputs = io.StringIO(), [], iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(inputs)
        except StopIteration:
            raise EOFError from None

    with asyncio.Runner() as runner:
        service = GameService(runner.run(Store.open(service_db)), clock=clock)
        try:
            game = TerminalGame(service, runner.run, out=out, read=read)
            game.start(start)
            game.loop()
        finally:
            runner.run(service.close())
    return out.getvalue(), [p for p in prompts if p != "> "]


def test_the_daily_over_a_game_in_progress_asks_and_an_unclear_answer_is_asked_again(
    db_path: Path, clock: FakeClock
) -> None:
    move = winning_line(16)[0]
    lines = [move, "daily", "maybe", "n", "daily", "redo", "y", "quit"]
    out, prompts = prompted_session(db_path, clock, lines, start=16)
    asked = "Your game in progress ends, recorded as abandoned. Really play the daily? [y/N] "
    assert prompts == [asked, asked, asked, asked]
    assert "Please answer y (yes) or n (no), not 'maybe'." in out
    assert "Please answer y (yes) or n (no), not 'redo'." in out
    assert out.count("Nothing was changed.") == 1  # the first 'daily': maybe, then n
    assert "(deal 16 recorded as abandoned)" in out.split("Nothing was changed.")[1]
    assert f"Daily challenge {clock.now.date().isoformat()}" in out


def test_resigning_the_untouched_scored_daily_asks_first(db_path: Path, clock: FakeClock) -> None:
    out = session(db_path, clock, ["resign", "n", "quit"])
    assert "You resigned" not in out and "Nothing was changed." in out
    out, prompts = prompted_session(db_path, clock, ["resign", "y", "quit"])
    assert prompts == [
        f"Your scored daily of {clock.now.date()} ends, recorded as resigned: it is the "
        "day's one scored attempt. Really resign? [y/N] "
    ]
    assert "You resigned" in out


def test_an_undo_of_more_moves_than_there_are_is_refused_without_asking(
    db_path: Path, clock: FakeClock
) -> None:
    played = winning_line(16)[:12]
    out, prompts = prompted_session(db_path, clock, [*played, "undo 999"], start=16)
    assert prompts == []  # nothing to ask: refused at once
    assert "You can take back 12 moves at most, not 999: nothing was changed." in out


def test_a_chosen_game_over_one_in_progress_asks_and_yes_skips_the_question(
    tmp_path: Path,
) -> None:
    run_reel(["play", "--deal", "1"], "r6 ace\nquit\n", tmp_path)  # a game in progress
    kept = run_reel(["play", "--variant", "tu"], "n\nquit\n", tmp_path)
    assert "recorded as abandoned. Really start a new game? [y/N]" in kept.stdout
    assert "Nothing was changed.\nResuming your game of Virginia Reel, deal 1." in kept.stdout
    other = run_reel(["play", "--deal", "3"], "\nquit\n", tmp_path)  # an empty answer: no
    assert "Nothing was changed." in other.stdout and "Deal 1 · move 1" in other.stdout
    ended = run_reel(["play", "--variant", "tu", "--yes"], "quit\n", tmp_path)
    assert "[y/N]" not in ended.stdout
    started = r"New game of Three Up: deal \d+ \(deal 1 recorded as abandoned\)"
    assert re.search(started, ended.stdout)


def test_a_deal_number_alone_is_a_virginia_reel_deal(tmp_path: Path) -> None:
    run_reel(["play", "--variant", "tu", "--deal", "16"], "quit\n", tmp_path)
    again = run_reel(["play", "--deal", "16"], "quit\n", tmp_path)  # untouched: not asked
    assert "New game of Virginia Reel: deal 16\n" in again.stdout and "Three Up" not in again.stdout
    assert render(Game.new(16)).splitlines()[2] in again.stdout
    three_up = run_reel(["play", "--deal", "16", "--variant", "tu"], "quit\n", tmp_path)
    assert "New game of Three Up: deal 16" in three_up.stdout


def test_the_way_back_is_the_command_the_player_ran(tmp_path: Path) -> None:
    here = os.getcwd()
    assert terminal_module.invoked_as(["python3", "-m", "bot"]) == "python3 -m bot"
    venv_python = os.path.join(here, ".venv", "bin", "python")
    venv_reel = os.path.join(here, ".venv", "bin", "reel")
    assert terminal_module.invoked_as([venv_python, "-m", "bot.cli"]) == (
        ".venv/bin/python -m bot.cli"
    )
    assert terminal_module.invoked_as(["/usr/bin/python3", venv_reel]) in (".venv/bin/reel", "reel")
    assert terminal_module.invoked_as(["/usr/bin/python3", "/opt/x/bin/reel"]) == "/opt/x/bin/reel"


def test_a_console_script_run_by_its_path_is_named_by_that_path(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "reel"
    if not script.is_file():
        pytest.skip(f"no 'reel' script beside {sys.executable} (not an installed venv)")
    typed = os.path.relpath(script, tmp_path)  # as typed from tmp_path: ../../.../bin/reel
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REEL_DB")}
    env |= {"REEL_DB": str(tmp_path / "reel.db"), "PATH": "/usr/bin:/bin"}  # reel not on it
    args = [typed, "play", "--deal", "1", "--any-deal", "--no-auto-aces"]
    result = subprocess.run(args, input="r6 ace\nquit\n", capture_output=True, text=True,
                            timeout=120, env=env, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    saved = f"with REEL_DB={tmp_path / 'reel.db'}"
    assert f"Your game is saved. Type '{typed} play' {saved} to resume it." in result.stdout
    env["PATH"] = f"{script.parent}:/usr/bin:/bin"  # reel on the PATH, as when activated
    result = subprocess.run(args, input="quit\n", capture_output=True, text=True,
                            timeout=120, env=env, cwd=tmp_path)  # fmt: skip
    assert f"Type 'reel play' {saved} to resume it." in result.stdout


def test_versus_shows_the_computers_game_beside_the_players_at_its_pace(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.service.jobs as jobs_module

    timeline = ((3, 0), (4, 1), (9, 6), (12, 9), (104, 120))  # a blind game, won

    def played(deal_number: int, variant: str) -> tuple[tuple[int, int], ...]:
        assert (deal_number, variant) == (16, "vr")
        return timeline

    monkeypatch.setattr(jobs_module, "blind_game_job", played)
    out = io.StringIO()
    with asyncio.Runner() as runner:
        service = GameService(
            runner.run(Store.open(db_path)), clock=clock, executor=ThreadPoolExecutor(1)
        )
        try:
            game = TerminalGame(service, runner.run, out=out, versus=True)
            game.start(16)
            for _ in range(50):  # the computer's game is played in the pool meanwhile
                runner.run(asyncio.sleep(0.05))
            clock.now += timedelta(seconds=11)  # two of its moves (one every 5 s)
            game.command("board")
            clock.now += timedelta(minutes=2)  # a pause counts three minutes at most: done
            game.command("board")
        finally:
            runner.run(service.close())
    lines = [line for line in out.getvalue().splitlines() if line.startswith("Computer")]
    assert lines[0] == "Computer (can't see the stock either): thinking…"
    assert lines[1] == "Computer (can't see the stock either): 9/104 cards home · move 6"
    assert lines[2] == "Computer: won in 120 moves."
