"""The table of docs/winnability.md's "Every game of the family", from the rows of the
study (research/study/variants.sh): per game, the deals, won, proven lost and undecided,
the winnable fraction's 95% Wilson interval counting the undecided deals both ways (low
end: all lost; high end: all won), and the budget a deal; then each game's lost deals by
their proof: dead at the root (one position: the dead-card check or the model's closure
proves it before any move) or the whole tree searched (exhausted; the SAT prover's
verdicts on endgames count here, as the search's leaves).

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
    reasons: list[str] = []
    for code, variant in VARIANTS.items():
        path = HERE / f"study-{code}-{args.budget}.csv"
        if not path.exists():
            continue
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
        verdicts = [row["verdict"] for row in rows]
        lost_rows = [r for r in rows if r["verdict"] == "unwinnable"]
        root = [r["deal"] for r in lost_rows if int(r["nodes"]) <= 1]
        searched = [
            f"{r['deal']} ({int(r['nodes']):,} nodes)" for r in lost_rows if int(r["nodes"]) > 1
        ]
        reasons.append(
            f"{variant.name}: {len(root)} dead at the root"
            + (f" ({', '.join(root)})" if root else "")
            + f", {len(searched)} exhausted"
            + (f" ({', '.join(searched)})" if searched else "")
        )
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

    print()
    print("lost deals by their proof:")
    for line in reasons:
        print(f"  {line}")


if __name__ == "__main__":
    main()
