"""The solver: is a position of Virginia Reel (or of any game of its family) won, with the
stock order known? And how?

``solve(game)`` answers ``won`` (with a winning line in the engine's moves),
``unwinnable`` (proven) or ``unknown`` (a budget ran out first). An exact
depth-first search on a compact model of the position, pruned by proofs that
a card can never go home, hands the positions it does not decide quickly to a
SAT prover. The games the model does not play (Royal Parade, Blue Jacket, Big
Parade) get a plain depth-first search over the engine instead. The design, and
why every pruning rule is sound: docs/solver.md.

The modules, by job:

- ``model``: the compact position (instances, play and undo, moves, the key);
- ``closure``: the dead-card fixpoint and the ordering probe;
- ``phase``: the cards due before the next deal, and the dead-end test;
- ``search``: ``solve``, the search and its restarts, lines back to engine moves;
- ``general``: the general search over the engine, for the games the model does not play;
- ``verdict``: the answer (``Verdict``, ``Solution``);
- ``sat``: the SAT prover;
- ``_native`` (``_native.c``): the C twins of the fixpoint, the probe and the
  dead-end test, built where a C compiler is at hand (``NATIVE``);
- ``hints``: the next move to play, for the front ends;
- ``blind``: the blind player, who cannot see the stock's order (``blind_move``);
- ``cli``: the ``reel solve`` and ``reel study`` commands.

The rules engine never imports this package.
"""

from .blind import BlindChoice, blind_choice, blind_move
from .model import NATIVE
from .search import CLOCKS, SAT_AFTER, solve
from .verdict import Solution, Verdict

__all__ = [
    "CLOCKS",
    "NATIVE",
    "SAT_AFTER",
    "BlindChoice",
    "Solution",
    "Verdict",
    "blind_choice",
    "blind_move",
    "solve",
]
