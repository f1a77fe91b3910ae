"""Tests of the solver bench's figures in nodes (the ones that compare across machines)."""

import pytest

from bench.solver import main, nodes_figure


def test_the_share_counts_the_deals_decided_within_the_mark() -> None:
    runs = [(True, 5_000), (True, 100_000), (True, 100_001), (False, 2_000_000)]
    assert nodes_figure(runs, 100_000) == "50.0%"
    assert nodes_figure(runs, 400_000) == "75.0%"


def test_a_deal_stopped_by_the_clock_before_the_mark_makes_the_figure_a_lower_bound() -> None:
    # the second deal ran out of time after 60,000 nodes: with more time it
    # might have been decided within 100,000
    runs = [(True, 5_000), (False, 60_000)]
    assert nodes_figure(runs, 100_000) == "at least 50.0%"
    assert nodes_figure(runs, 50_000) == "50.0%"


def _figures(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """The bench's lines for ``argv``, less the first (it names the run) and the times
    (the share within 1 s too: the SAT prover takes deal 2 near that edge here)."""
    main(["--deals", "1-5", "--max-nodes", "5000", "--clock", "cpu", *argv])
    lines = capsys.readouterr().out.splitlines()
    timed = ("per second", "per deal", "within 1 s")
    return [line for line in lines[1:] if not any(words in line for words in timed)]


def test_deals_solved_two_at_a_time_give_the_figures_of_one_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    alone = _figures(capsys)
    # deal 2: the search alone needs 6,743 nodes (pure Python here); the SAT prover,
    # which takes over after 3,000, wins it within the 5,000
    assert "won 3, unwinnable 2, unknown 0" in alone
    assert _figures(capsys, "--jobs", "2") == alone
    with pytest.raises(SystemExit):
        main(["--jobs", "0"])
    assert "--jobs must be at least 1" in capsys.readouterr().err
