"""`reel solve` and `reel study`: verdicts, lines in notation, the Wilson interval, the CSV."""

from __future__ import annotations

import argparse
import csv
import io
import re
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from engine import Game, Status, parse_move
from engine.solver import Solution, Verdict, blind_study
from engine.solver import cli as solve_cli
from engine.solver.cli import (
    add_solve_commands,
    main,
    main_solve,
    main_study,
    parse_budget,
    parse_deals,
    wilson,
)

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
    assert len(parse_deals("1-1000000")) == 1_000_000
    with pytest.raises(argparse.ArgumentTypeError, match="at most 1,000,000"):
        parse_deals("1-9223372036854775807")
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


def study_args(
    path: Path,
    deals: range = range(1, 4),
    jobs: int = 1,
    resume: bool = False,
    budget: float = 1.0,
    max_nodes: int = 100,
) -> argparse.Namespace:
    """The arguments of ``reel study`` as its parser gives them."""
    return argparse.Namespace(
        deals=deals,
        budget=budget,
        max_nodes=max_nodes,
        jobs=jobs,
        csv=path,
        clock="wall",
        resume=resume,
        quiet=True,
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_study_counts_and_writes_the_csv(tmp_path: Path, jobs: int) -> None:
    path = tmp_path / "study.csv"
    deals = range(LOST_DEAL, WON_DEAL + 1, WON_DEAL - LOST_DEAL)
    args = study_args(path, deals, jobs, budget=10.0, max_nodes=100_000)
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
    assert rows[0]["line"] == ""
    # the won deal's line, in the engine's notation, wins when replayed from the deal
    game = Game.new(WON_DEAL)
    moves = rows[1]["line"].split(", ")
    assert len(moves) == int(rows[1]["moves"])
    for text in moves:
        game.play(parse_move(game, text))
    assert game.status is Status.WON


def test_reel_solve_is_wired_into_the_reel_command(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main as reel_main

    assert reel_main(["solve", "--deal", "16", "--budget", "5s"]) == 0
    assert "Deal 16: won" in capsys.readouterr().out


def no_solving(job: solve_cli.Job) -> object:
    raise AssertionError(f"deal {job[0]} was solved")


def test_a_csv_path_it_cannot_write_stops_the_study_before_any_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(solve_cli, "solve_one", no_solving)
    missing = tmp_path / "no such folder" / "x.csv"
    assert main(["study", "--deals", "1-3", "--csv", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"reel study: cannot write --csv {missing}: No such file or directory\n"
    assert main_study(study_args(tmp_path)) == 2  # a folder, not a file
    assert capsys.readouterr().err.startswith(f"reel study: cannot write --csv {tmp_path}: ")


def test_a_stopped_study_leaves_the_csv_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(job: solve_cli.Job) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cli, "solve_one", interrupted)
    old = tmp_path / "old.csv"
    old.write_text("deal,verdict\n1,won\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt):
        main_study(study_args(old))
    assert old.read_text(encoding="utf-8") == "deal,verdict\n1,won\n"
    new = tmp_path / "new.csv"
    with pytest.raises(KeyboardInterrupt):
        main_study(study_args(new))
    assert not new.exists()


def test_a_stopped_study_keeps_the_deals_it_solved_in_a_part_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    solved = solve_cli.solve_one

    def stopped_at_the_third(job: solve_cli.Job) -> object:
        if job[0] == 3:
            raise KeyboardInterrupt
        return solved(job)

    monkeypatch.setattr(solve_cli, "solve_one", stopped_at_the_third)
    path = tmp_path / "study.csv"
    with pytest.raises(KeyboardInterrupt):
        main_study(study_args(path, range(1, 5)))
    part = tmp_path / "study.csv.part"
    with part.open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["# reel study --deals 1-4 --budget 1s --max-nodes 100 --clock wall"]
    assert rows[1] == ["deal", "verdict", "moves", "nodes", "seconds", "line"]
    assert [row[0] for row in rows[2:]] == ["1", "2"]
    err = capsys.readouterr().err
    assert f"the deals solved so far are in {part} (the same command with --resume" in err
    assert not path.exists()  # the study created it: nothing half-written is left there
    # A study that finishes leaves no part file.
    part.unlink()
    monkeypatch.setattr(solve_cli, "solve_one", solved)
    assert main_study(study_args(path, range(1, 3)), io.StringIO()) == 0
    assert path.exists() and not part.exists()


SOLVE_ONE = solve_cli.solve_one  # the real one, before any test patches it


def _stop_at(deal: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the study stop (Ctrl-C) when it reaches ``deal``; the deals solved are listed."""
    solved = SOLVE_ONE
    calls: list[int] = []

    def solve_until(job: solve_cli.Job) -> object:
        if job[0] == deal:
            raise KeyboardInterrupt
        calls.append(job[0])
        return solved(job)

    monkeypatch.setattr(solve_cli, "solve_one", solve_until)
    return calls


def stopped_study(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deals: range = range(1, 5), at: int = 3
) -> tuple[Path, Path]:
    """A study of ``deals`` stopped (Ctrl-C) at deal ``at``: its CSV path and part file."""
    path = tmp_path / "study.csv"
    _stop_at(at, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        main_study(study_args(path, deals))
    return path, tmp_path / "study.csv.part"


def test_resume_solves_only_the_deals_a_stopped_study_had_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "study.csv"
    whole = tmp_path / "whole.csv"
    assert main_study(study_args(whole, range(1, 7)), io.StringIO()) == 0
    calls = _stop_at(4, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        main_study(study_args(path, range(1, 7)))
    assert calls == [1, 2, 3]
    capsys.readouterr()
    calls = _stop_at(0, monkeypatch)  # no stop this time
    out = io.StringIO()
    resumed = study_args(path, range(1, 7), resume=True)
    resumed.quiet = False
    assert main_study(resumed, out) == 0
    assert calls == [4, 5, 6]
    err = capsys.readouterr().err
    assert f"resuming with the 3 deals solved in {path}.part" in err
    assert "] 6/6  won " in err  # the progress bar counts the deals kept
    # The same file as a study never stopped (but for the times), and the summary counts all.
    with path.open(newline="") as f, whole.open(newline="") as g:
        assert [r[:4] for r in csv.reader(f)] == [r[:4] for r in csv.reader(g)]
    assert "Deals 1-6: 6 deals searched" in out.getvalue()
    assert not (tmp_path / "study.csv.part").exists()


def test_a_row_torn_by_the_stop_is_solved_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, part = stopped_study(tmp_path, monkeypatch)
    text = part.read_bytes()
    part.write_bytes(text[: text.rindex(b",")])  # deal 2's row cut short, no line end
    calls = _stop_at(0, monkeypatch)
    assert main_study(study_args(path, range(1, 5), resume=True), io.StringIO()) == 0
    assert calls == [2, 3, 4]
    with path.open(newline="") as f:
        assert [r[0] for r in csv.reader(f)] == ["deal", "1", "2", "3", "4"]


def test_a_part_file_is_never_overwritten_without_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, part = stopped_study(tmp_path, monkeypatch)
    kept = part.read_bytes()
    capsys.readouterr()
    monkeypatch.setattr(solve_cli, "solve_one", no_solving)
    assert main_study(study_args(path, range(1, 5))) == 2
    assert capsys.readouterr().err == (
        f"reel study: {part} holds the deals of a stopped study: add --resume to go on from "
        f"them, or delete {part} to start again\n"
    )
    # Other settings: the rows would not be the same study's.
    other = study_args(path, range(1, 5), resume=True)
    other.budget = 2.0
    assert main_study(other) == 2
    assert capsys.readouterr().err == (
        f"reel study: {part} holds a study with other settings (reel study --deals 1-4 "
        f"--budget 1s --max-nodes 100 --clock wall): resume it with those, or delete {part} "
        "to start this one\n"
    )
    assert main_study(study_args(path, range(1, 6), resume=True)) == 2
    assert part.read_bytes() == kept
    part.write_text("deal,verdict\n1,won\n", encoding="utf-8")
    assert main_study(study_args(path, range(1, 5), resume=True)) == 2
    assert "is not the part file of a study" in capsys.readouterr().err
    assert not path.exists()  # nothing was left half-made


def test_resume_without_a_stopped_study_runs_the_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "study.csv"
    assert main(["study", "--deals", "5", "--csv", str(path), "--resume"]) == 0
    assert "no stopped study to resume here: starting it" in capsys.readouterr().err
    assert path.exists()


def test_a_study_replaces_an_older_csv_file(tmp_path: Path) -> None:
    path = tmp_path / "study.csv"
    path.write_text("an older and longer file\n" * 100, encoding="utf-8")
    assert main_study(study_args(path, range(LOST_DEAL, LOST_DEAL + 1)), io.StringIO()) == 0
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["deal", "verdict", "moves", "nodes", "seconds", "line"]
    assert [row[:4] for row in rows[1:]] == [[str(LOST_DEAL), "unwinnable", "0", "1"]]


@pytest.mark.parametrize("nodes", ["0", "-5", "many"])
def test_the_node_limit_is_at_least_1(nodes: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["solve", "--deal", "1"], ["study", "--deals", "1-3"]):
        with pytest.raises(SystemExit) as stop:
            main([*command, "--max-nodes", nodes])
        assert stop.value.code == 2
        assert (
            "error: argument --max-nodes: the node limit is a whole number of positions, "
            f"at least 1, not '{nodes}'" in capsys.readouterr().err
        )


def test_an_unknown_verdict_names_the_limit_it_hit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--deal", "1", "--budget", "5s", "--max-nodes", "100"]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"Deal 1: unknown: no answer within the node limit of 100 positions "
        r"\(100 positions searched, \d+\.\d\d s\); try a larger --max-nodes\n",
        out,
    ), out

    def out_of_time(game: Game, *, max_nodes: int, max_seconds: float) -> Solution:
        return Solution(Verdict.UNKNOWN, (), 1234, max_seconds + 0.01, "time")

    monkeypatch.setattr(solve_cli, "solve", out_of_time)
    assert main(["solve", "--deal", "1", "--budget", "500ms", "--max-nodes", "2000"]) == 0
    assert capsys.readouterr().out == (
        "Deal 1: unknown: no answer within the time budget of 0.5 s "
        "(1,234 positions searched, 0.51 s); try a larger --budget\n"
    )


class FakePool:
    """Stands in for multiprocessing.Pool: records how many workers were asked for and
    solves in this process."""

    asked: ClassVar[list[int]] = []

    def __init__(self, processes: int, **_: object) -> None:  # (initializer)
        FakePool.asked.append(processes)

    def __enter__(self) -> FakePool:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def imap_unordered(
        self,
        func: Callable[[solve_cli.Job], object],
        work: Iterable[solve_cli.Job],
        chunksize: int,
    ) -> Iterator[object]:
        return map(func, work)


@pytest.mark.parametrize(
    ("jobs", "deals", "cpus", "workers", "note"),
    [
        (100_000, 3, 8, 3, False),  # no more workers than deals
        (100_000, 3, 2, 2, True),  # nor than CPUs, with a note
        (2, 3, 2, 2, False),
        (4, 1, 2, None, False),  # one deal: solved here, no pool
        (3, 3, 1, None, True),  # one CPU: solved here, no pool
    ],
)
def test_workers_are_capped_at_the_deals_and_the_cpus(
    jobs: int,
    deals: int,
    cpus: int,
    workers: int | None,
    note: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(blind_study, "Pool", FakePool)  # the study's pool (quiet_pool)
    monkeypatch.setattr(FakePool, "asked", [])
    monkeypatch.setattr(solve_cli, "usable_cpus", lambda: cpus, raising=False)
    argv = ["study", "--deals", f"1-{deals}", "--budget", "1s", "--max-nodes", "50"]
    assert main([*argv, "--jobs", str(jobs), "--csv", str(tmp_path / "s.csv")]) == 0
    assert FakePool.asked == ([] if workers is None else [workers])
    out, err = capsys.readouterr()
    assert f"won 0, unwinnable 0, unknown {deals}" in out
    if note:
        assert f"reel study: --jobs {jobs} lowered to {cpus}, one per CPU" in err
    else:
        assert "lowered" not in err


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_are_at_least_1(jobs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["study", "--deals", "1-3", "--jobs", jobs])
    assert stop.value.code == 2
    assert (
        "error: argument --jobs: the number of worker processes is a whole number, "
        f"at least 1, not '{jobs}'" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("0s", "the budget must be a positive number of seconds such as 10s or 0.5s, not '0s'"),
        ("-1", "the budget must be a positive number of seconds such as 10s or 0.5s, not '-1'"),
        ("nan", "the budget must be a positive number of seconds such as 10s or 0.5s, not 'nan'"),
        ("inf", "the budget must be finite, a time such as 10s or 0.5s, not 'inf'"),
        ("1e400s", "the budget must be finite, a time such as 10s or 0.5s, not '1e400s'"),
    ],
)
def test_a_bad_budget_says_what_a_budget_is(text: str, says: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        parse_budget(text)
    assert str(refused.value) == says


@pytest.mark.parametrize("text", ["-5", "5-", "1--3", "a-b", "", "1-2-3", "1,2"])
def test_a_bad_deal_range_says_what_form_a_range_has(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        parse_deals(text)
    assert str(refused.value) == (
        f"deals are a range such as 1-10000 or one deal such as 42, not {text!r}"
    )


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["solve", "--deal", "1", "--budget", "-1s"],
            "reel solve: error: argument --budget: expected one argument: "
            "the budget must be a positive number of seconds such as 10s or 0.5s",
        ),
        (
            ["study", "--deals", "1-3", "--budget"],
            "reel study: error: argument --budget: expected one argument: "
            "the budget must be a positive number of seconds such as 10s or 0.5s",
        ),
        (
            ["study", "--deals", "-5-10"],
            "reel study: error: argument --deals: expected one argument: "
            "deals are a range such as 1-10000 or one deal such as 42",
        ),
        (
            ["study", "--deals", "-5"],
            "reel study: error: argument --deals: "
            "deals are a range such as 1-10000 or one deal such as 42, not '-5'",
        ),
    ],
)
def test_a_value_that_looks_like_an_option_gets_a_clear_error(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main as reel_main

    with pytest.raises(SystemExit) as stop:
        reel_main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == says


def test_every_option_has_help_with_its_default_or_required() -> None:
    parser = argparse.ArgumentParser(prog="reel")
    sub = parser.add_subparsers(dest="command")
    add_solve_commands(sub)
    for name in ("solve", "study"):
        command = sub.choices[name]
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"reel {name} {action.option_strings[0]} has no help"
            if action.required:
                assert "(required)" in action.help
            elif action.default is not False:  # flags need no default
                assert "(default: " in action.help, f"{action.option_strings[0]}"


@pytest.mark.parametrize(
    ("command", "shows"),
    [
        ("solve", ["(default: 10s)", "(default: 50,000,000)"]),
        ("study", ["(default: 10s)", "(default: 50,000,000)", "(default: 1)", "./study.csv"]),
    ],
)
def test_help_shows_the_defaults(
    command: str, shows: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "-h"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # unwrapped
    for default in shows:
        assert default in text
    if command == "study":
        assert "write one CSV row per deal to --csv (default: ./study.csv)" in text


def test_the_summary_says_searched_not_solved(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main_study(study_args(tmp_path / "s.csv", range(1, 4)), out) == 0
    head = out.getvalue().splitlines()[0]
    assert head == "Deals 1-3: 3 deals searched, each for at most 1 s and 100 positions"
    assert "won 1, unwinnable 0, unknown 2" in out.getvalue()  # two of the three unsolved
    out = io.StringIO()
    assert main_study(study_args(tmp_path / "s.csv", range(LOST_DEAL, LOST_DEAL + 1)), out) == 0
    head = out.getvalue().splitlines()[0]
    assert head == f"Deal {LOST_DEAL}: 1 deal searched, each for at most 1 s and 100 positions"


def test_a_deal_proven_lost_at_the_start_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", str(LOST_DEAL), "--max-nodes", "100"]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(
        rf"Deal {LOST_DEAL}: unwinnable: proven at the start, before any search: some card "
        r"can never reach the foundations \(1 position checked, \d+\.\d\d s\)\n",
        out,
    ), out


def test_a_deal_proven_lost_by_the_search_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def lost_after_a_search(game: Game, *, max_nodes: int, max_seconds: float) -> Solution:
        return Solution(Verdict.UNWINNABLE, (), 5000, 0.25)

    monkeypatch.setattr(solve_cli, "solve", lost_after_a_search)
    assert main(["solve", "--deal", "1"]) == 0
    assert capsys.readouterr().out == (
        "Deal 1: unwinnable: no line of play wins (5,000 positions searched, 0.25 s)\n"
    )


def test_the_cpu_clock_times_each_deal_in_its_worker_s_cpu_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clocks: list[object] = []

    def timed(game: Game, *, max_nodes: int, max_seconds: float, clock: object) -> Solution:
        clocks.append(clock)
        return Solution(Verdict.UNWINNABLE, (), 1, 0.5)

    monkeypatch.setattr(solve_cli, "solve", timed)
    args = study_args(tmp_path / "study.csv", range(1, 3))
    out = io.StringIO()
    assert main_study(args, out) == 0
    args.clock = "cpu"
    assert main_study(args, out) == 0
    assert clocks == [time.perf_counter] * 2 + [time.process_time] * 2
    assert "each for at most 1 s and 100 positions" in out.getvalue()
    assert "each for at most 1 s of CPU and 100 positions" in out.getvalue()
