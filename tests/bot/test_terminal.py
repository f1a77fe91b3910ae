"""The terminal game, driven by a script through the real ``reel`` command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine import Game
from engine.solver import Verdict, solve

WINNABLE_DEAL = 16  # the solver wins it in a few dozen nodes


def run_reel(args: list[str], stdin: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REEL_DB")}
    env["REEL_DB"] = str(tmp_path / "reel.db")
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
    assert "only Aces go to the Ace pile" in result.stdout
    assert result.stdout.count("Deal 1 · move 0") == 1  # the board was never redrawn
    assert "move 1" not in result.stdout


def test_a_quit_game_resumes_next_time(tmp_path: Path) -> None:
    first = run_reel(["play", "--deal", "1"], "r6 ace\nquit\n", tmp_path)
    assert "Deal 1 · move 1" in first.stdout
    second = run_reel(["play"], "quit\n", tmp_path)
    assert "Resuming your game of deal 1" in second.stdout
    assert "Deal 1 · move 1" in second.stdout


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    result = run_reel(["play", "--deal", "5"], "", tmp_path)
    assert result.returncode == 0
    assert "Your game is saved" in result.stdout
    assert "Traceback" not in result.stderr


def test_no_token_means_the_terminal_game(tmp_path: Path) -> None:
    result = run_reel([], "quit\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Score" in result.stdout and "Aces" in result.stdout
