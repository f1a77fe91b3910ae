"""The solver's answer: a verdict, and the winning line when there is one.

Both searches give it: the model's (search.py, for the games it models) and the
general one over the engine itself (general.py, for the others).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..moves import Move


class Verdict(StrEnum):
    WON = "won"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Solution:
    verdict: Verdict
    line: tuple[Move, ...] = ()  # the winning line from the position solved, when won
    nodes: int = 0
    seconds: float = 0.0
    stopped_by: str = ""  # unknown: the budget that ran out, "nodes" or "time"
