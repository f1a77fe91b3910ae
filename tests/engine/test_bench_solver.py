"""Tests of the solver bench's figures in nodes (the ones that compare across machines)."""

from bench.solver import nodes_figure


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
