"""The table of docs/winnability.md's "Every game of the family", from the rows of the
study (research/study/variants.sh): per game, the deals, won, proven lost and undecided,
the winnable fraction's 95% Wilson interval counting the undecided deals both ways (low
end: all lost; high end: all won), and the budget a deal.

    python research/study/variants_table.py [--budget 0.25s]
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from engine.solver.cli import wilson
from engine.variant import VARIANTS

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="0.25s", help="the budget in the CSVs' names")
    args = parser.parse_args()
    print(
        "| game | deals | won | proven lost | undecided | winnable (95% Wilson) | budget a deal |"
    )
    print("|---|---:|---:|---:|---:|---|---|")
    for code, variant in VARIANTS.items():
        path = HERE / f"study-{code}-{args.budget}.csv"
        if not path.exists():
            continue
        with path.open(newline="") as f:
            verdicts = [row["verdict"] for row in csv.DictReader(f)]
        n = len(verdicts)
        if n == 0:  # the study of this game is still running
            continue
        won, lost = verdicts.count("won"), verdicts.count("unwinnable")
        unknown = n - won - lost
        low, _ = wilson(won, n)
        _, high = wilson(won + unknown, n)
        print(
            f"| {variant.name} | {n:,} | {won:,} | {lost:,} | {unknown:,} "
            f"| {low:.1%} to {high:.1%} | {args.budget} of CPU |"
        )


if __name__ == "__main__":
    main()
