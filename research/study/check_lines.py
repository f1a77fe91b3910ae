"""Replay every won deal's winning line of a study's CSVs through the engine.

    python research/study/check_lines.py [--budget 10s] [CODE ...]

Each row of ``study-CODE-BUDGET.csv`` whose verdict is ``won`` carries its line in the
``line`` column (the engine's notation, ", " between moves); the line is played from
the deal with ``Game.play``, which checks every rule, and must end in a won game. Rows
of other verdicts must have no line. Prints, per game, the lines replayed.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from engine import Game, parse_move, variant_by_code

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="10s", help="the budget in the CSVs' names")
    parser.add_argument("codes", nargs="*", default=["rp", "tu", "bj", "bp"])
    args = parser.parse_args()
    for code in args.codes:
        path = HERE / f"study-{code}-{args.budget}.csv"
        won = 0
        with path.open(newline="") as f:
            for row in csv.DictReader(f):
                if row["verdict"] != "won":
                    assert not row["line"], f"{code} deal {row['deal']}: a line without a win"
                    continue
                game = Game.new(int(row["deal"]), variant_by_code(code))
                moves = row["line"].split(", ")
                assert len(moves) == int(row["moves"]), f"{code} deal {row['deal']}"
                for text in moves:
                    game.play(parse_move(game, text))
                assert game.is_won(), f"{code} deal {row['deal']}: the line does not win"
                won += 1
        print(f"{code}: {won} won lines replayed from {path.name}")


if __name__ == "__main__":
    main()
