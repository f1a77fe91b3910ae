"""`reel solve` and `reel study`: verdicts, lines in notation, the Wilson interval, the CSV."""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path

import pytest

from bot.solve_cli import main, main_solve, main_study, parse_budget, parse_deals, wilson
from engine import Game, Status, parse_move

WON_DEAL = 16  # won in a few hundred positions
LOST_DEAL = 5  # proven unwinnable at the root


def test_solve_prints_a_winning_line_that_replays() -> None:
    out = io.StringIO()
    assert main_solve(argparse.Namespace(deal=WON_DEAL, budget=10.0, max_nodes=100_000), out) == 0
    head, *lines = out.getvalue().splitlines()
    assert head.startswith(f"Deal {WON_DEAL}: won in ")
    moves = [part.split(". ", 1)[1] for line in lines for part in line.split("  ")]
    assert head.startswith(f"Deal {WON_DEAL}: won in {len(moves)} moves")
    game = Game.new(WON_DEAL)
    for text in moves:
        game.play(parse_move(game, text))
    assert game.status is Status.WON


def test_solve_says_unwinnable_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", str(LOST_DEAL), "--budget", "5s"]) == 0
    assert f"Deal {LOST_DEAL}: unwinnable" in capsys.readouterr().out
    assert main(["solve", "--deal", "1", "--budget", "5s", "--max-nodes", "100"]) == 0
    assert "Deal 1: unknown" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "seconds"), [("10s", 10.0), ("10", 10.0), ("500ms", 0.5), ("2m", 120.0)]
)
def test_budgets_read_as_times(text: str, seconds: float) -> None:
    assert parse_budget(text) == seconds


@pytest.mark.parametrize("text", ["ten", "0s", "-1", "nan"])
def test_a_bad_budget_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="budget"):
        parse_budget(text)


def test_deal_ranges() -> None:
    assert parse_deals("1-10000") == range(1, 10001)
    assert parse_deals("42") == range(42, 43)
    with pytest.raises(argparse.ArgumentTypeError, match="ends before it starts"):
        parse_deals("9-3")
    with pytest.raises(argparse.ArgumentTypeError, match="run from 1"):
        parse_deals("0-5")


def test_wilson_interval() -> None:
    low, high = wilson(20, 100)
    assert low == pytest.approx(0.1334, abs=1e-4)
    assert high == pytest.approx(0.2888, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_study_counts_and_writes_the_csv(tmp_path: Path, jobs: int) -> None:
    path = tmp_path / "study.csv"
    args = argparse.Namespace(
        deals=range(LOST_DEAL, WON_DEAL + 1, WON_DEAL - LOST_DEAL),
        budget=10.0,
        max_nodes=100_000,
        jobs=jobs,
        csv=path,
        quiet=True,
    )
    out = io.StringIO()
    assert main_study(args, out) == 0
    text = out.getvalue()
    assert "won 1, unwinnable 1, unknown 0" in text
    assert "winnable: 50.0% proven, at most 50.0%" in text
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["deal"], r["verdict"]) for r in rows] == [
        (str(LOST_DEAL), "unwinnable"),
        (str(WON_DEAL), "won"),
    ]
    assert int(rows[1]["moves"]) > 100


def test_reel_solve_is_wired_into_the_reel_command(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main as reel_main

    assert reel_main(["solve", "--deal", "16", "--budget", "5s"]) == 0
    assert "Deal 16: won" in capsys.readouterr().out
