"""A deal with a known winning line, for tests that need a won game cheaply.

Deal 28 is winnable; this line wins it (found by a depth-first search over legal moves,
and checked against the engine by test_service.py's
test_the_winning_line_wins_on_the_engine).
"""

from __future__ import annotations

from typing import Final

WINNING_DEAL: Final = 28
WINNING_TEXT: Final = (
    "R6 ACE;B5 ACE;R8 A1;R2 B5;deal;A7 ACE;R1 B5;R6 C1;R2 A7;deal;B6 ACE;B2 A7;R2 B2;A3 B6;"
    "C8 B6;R3 A3;R3 A3;R1 A3;R4 C8;deal;R4 C1;R1 C1;R7 B1;R1 B1;deal;R1 ACE;R2 C3;R5 B1;"
    "R7 A7;A6 A7;R2 A6;R8 A6;deal;R6 A6;R7 B5;deal;R3 ACE;R7 ACE;R1 B6;deal;R8 ACE;R3 B5;"
    "B3 B2;C2 B2;R7 B2;R1 B3;C5 B3;R1 B3;A4 B3;R2 A4;R4 C2;R5 C5;R5 C2;R5 C5;R5 B6;deal;"
    "R2 C8;R3 C3;R5 A1;A2 C3;B7 C2;R3 C2;R7 B7;C4 A2;R4 C4;R4 B7;A5 B7;C7 C4;R5 A5;R5 C5;"
    "R3 C5;R8 C7;R8 A1;R8 A5;deal;R1 A2;R4 C8;R5 A2;R4 A2;R6 A5;R8 C4;A8 C7;R4 C7;B4 C8;"
    "R7 B4;R5 B4;R6 B4;R6 A5;R7 C4;R7 A3;B8 B4;R2 B8;R2 B8;R8 B8;R3 B8;R8 A4;R4 A4;R2 A4;"
    "R4 A6;C6 A8;R1 A8;R3 A8;R8 A8;R6 C6;R6 B7;R6 C7;R6 C6;R3 C6;R7 C6"
)
WINNING_LINE: Final = WINNING_TEXT.split(";")
