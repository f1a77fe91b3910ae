"""The solver: an exact depth-first search over full information (stock order known).

The search runs on its own compact model of the position, not on ``Game``:
every card on the board or in the stock is an *instance* (an index), and each
instance is either *home* (on a foundation or the Ace pile) or not. Every move
of the game puts cards home (a build, a fill, an interchange, an Ace) except
the deal, so the game graph has no cycles and a transposition table of failed
positions is enough.

The key. A position is known, up to the order of the piles in a row, by the
set of instances not yet home and the number of deals made: the foundations
of a row are then fixed by the cards home (the piles of one suit in a row are
prefixes of 2-5-8-J, 3-6-9-Q or 4-7-10-K, so their heights follow from how
many copies of each card are home), the misplaced cards and the reserve piles
by the instances left, and the spaces of a row by what remains. So the key is
one integer: ``mask << 8 | deals``. Two misplaced copies of one card in one
row are interchangeable: moves take the lower-numbered one, so they share keys.

Pruning (sound: it only ever cuts positions that cannot be won):

- **Dead cards** (``dead_check``), run at the root and after every deal.
  The stock order is known, so the phase (deals made) in which each stock
  card lands on its reserve pile, on top of what is still there, is known.
  For each phase p in turn, grow the set H_p of cards that *might* be home by
  the end of phase p, starting from the cards home and H_(p-1), with these
  necessary conditions for a card x to join:

  1. x has arrived (it is on the board, or its deal is at most p);
  2. every card that lies above x by phase p (above it in its reserve pile
     now, or dealt onto that pile in a deal up to p) is in H_p: a reserve
     card leaves only to go home, so those must all go home before x;
  3. a 5 or above: more copies of the card three below in its suit can be
     home together than the copies of x that must be home before x (those
     home now, plus copies of x among the cards above it): each copy takes
     its own slot. The copies that can be home together are the fewest in
     H_p of any card under x in its foundation (three below, six below, down
     to the base): each copy home lies on a copy home of the card under it,
     and every card home before x is in H_p (``_below``). Counting the card
     three below alone misses cycles through the two copies: a Q under its
     twin needs both 9s, which that count admits with one 6 each, though the
     second 6 needs the Three that lies under that Q.
     A Two, Three or Four: the spaces its row has now plus its
     misplaced cards in H_p (each leaves a space) outnumber the bases of the
     same row among the cards above it; or x is a misplaced card that can
     interchange with one in its row now;
  4. a misplaced card leaving a row in a phase before the last (the stock is
     not yet empty) needs a base of that row, not home now, that lies in F_p,
     the set of the previous run of the fixpoint: the space it leaves must be
     filled before the next deal, by a base that goes home in phase p too.
     (Not "a base that is free by then": the cards freeing it may go home
     after the misplaced card, and may even need it.)

  The fixpoint is run several times: the first run has F_p = every card (no
  filler condition at all); each later run takes F_p = the H_p of the run
  before; stop when a run repeats (the sets only shrink). Soundness, by
  induction on the runs: every winning line's set W_p of cards home at the
  end of phase p lies in the first run's H_p (its conditions are necessary).
  If W_p lies in F_p for every line, the filler of each space the line opens
  in phase p goes home in phase p, so lies in W_p, so in F_p: condition 4
  holds for the line's cards, and by the induction on the line below, W_p
  lies in this run's H_p too.

  Every condition speaks only of cards that must go home *before* x, or of
  the position now. So by induction on the order of any winning line, every
  card it puts home by the end of phase p is in H_p: the first card of the
  line outside its H_p would have its conditions met by cards already in, and
  would have joined. If a card is outside the last H, no line wins: the
  position is lost. The conditions are monotone and assume no choice (which
  copy, which space) that a real line might make otherwise, so the set does
  not depend on the order in which it is grown.

- **Waiting cards** (see "Ordering decisions" below): in a node where a card
  x of rank 5 up waits for its other copy y, the search asks only about
  lines with x after y, so the closure there adds "x after y" (x joins only
  once y has, and needs one more slot), as the probe below does.

- **Ordering probe** (``closure(probe=True)``), run at the root and after
  every deal (it costs a pair of fixpoint runs per pair of copies, which the
  C loop makes cheap).
  The closure lets each of two copies x, y of a card (rank 5 up, neither home,
  fewer than two copies of the card three below home) go home on one slot,
  since either may be first. But every winning line puts one of them home
  after the other, and that one needs a second slot. So run the fixpoint
  with "x after y" added (x joins only once y has, and y counts as a copy
  before x: one more slot), and again with "y after x". Any two bases of
  one row (Twos, Threes or Fours, neither home: the two copies of a card or
  two different cards) are probed alike: the second one home needs one more
  space of its row, since the first took a space or, by an interchange, the
  place of a misplaced card whose leaving the count of spaces holds. The
  induction above holds for the lines with that order, so if both runs leave
  a card out, no line wins. If only one order leaves a card out, every
  winning line has the other: it is kept for the probes of the next pairs,
  round after round until no order is learnt, and the phases of the last run
  are the ``soon`` of the node. The orders learnt also settle the search's ordering
  decisions (see "Ordering decisions" below): at a decision on a card ordered
  against its other copy, only the child of that order is searched, and at
  a decision on a base ordered after another base of its row not yet home,
  only the wait (a base's wait ends when any base of its row goes home, so
  an order that puts it first serves the probes and the due cards only).
  The probe runs at every deal (see "The probe at every deal" below).

- **Too early** (``moves(soon)``): the closure also gives, for each card,
  the first phase ``soon[i]`` whose H holds it. Every winning line from a
  later position of the same phase is, with the moves that led there from
  the position checked, a winning line from the position checked, so it puts
  no card home before its ``soon``: the moves of such cards (and the
  interchanges of such cards) are left out until the next deal. A position
  failed that way is still truly lost, so the transposition table stays right.

- **Deadlines** (``must``), run after every deal while the stock is not
  empty (switch ``deadlines``). Some cards must be home before the next deal:
  for a reserve card q onto whose pile a card will be dealt, rerun the
  fixpoint with q held where it is until the next phase. The induction above
  holds for the winning lines that keep q out this phase, so if that run
  leaves a card out, every winning line puts q home in this phase: q is
  *due*. From the due cards, by counting, at the end of the phase (every
  winning line deals then, so its rows have no space):

  1. the cards above a due card in its pile now are due (they leave first);
  2. k copies of a card home (those home now and the due ones) need k copies
     of the card three below home: if the copies that might be home by then
     (home, or in this phase's H) are just enough, all of them are due, and
     if too few, the position is lost;
  3. k due bases of a row need k piles of the row: its spaces now and the
     misplaced cards that leave it; the same "just enough / too few";
  4. a due card leaving a row (misplaced there), with the spaces the row has
     now, needs as many bases of the row home by the deal; likewise.

  A due card whose earliest phase is later than this one also proves the
  position lost. The search then never deals while a due card is not home
  (no line that deals then wins), and a due card does not wait for a rival
  that cannot be home before the deal (``stuck_waiting``: it would be kept out
  past the deal). The due cards of a node hold for every node below it in
  the same phase, since the moves between are the start of any line from
  below.

- **Dead ends** (``can_end_phase``, switch ``dead_ends``), while the stock is
  not empty. Every winning line deals again, and before it deals, every space
  of the rows is filled and every due card is home. So within a phase, a
  position that has a space or a due card out (it cannot deal at once) is lost
  if no line can end the phase. A one-phase fixpoint over the cards that might
  go home before the next deal tells: the same necessary conditions as the
  dead-card fixpoint (a card's ``soon`` is this phase, the cards above it
  first, a slot for it, a space for a base, a filler base for a card leaving a
  row), with no deal to come, and with the waits of the node: a waiting card
  joins only after its rival has, and needs one more slot or space, since the
  rival took one (not counted twice if the rival lies above it, nor for a base
  whose rival may go home by an interchange, which takes no space). If a row
  has more spaces than bases that can join, or a due card cannot join, no line
  deals: the position is lost. The search asks after the moves that can bring
  that about (a card leaving a row, a wait) and at the phase's start. Without
  it, most of the search of a phase can lie in subtrees where no line ever
  deals: deal 73 is proven lost in 866,253 nodes with it, 2,847,015 without.

Restarts. The search is stopped after ``RESTART_FIRST`` nodes and run again
from the start with ``RESTART_GROWTH`` times more, again and again until the
budget runs out; every run after the first shuffles part of the move lists
(with a fixed seed, so a budget in nodes gives the same answer every time).
Wins that the fixed order meets only after a long detour are found by one of
the shuffled runs. The transposition table is kept between runs: a position
enters it only once its whole subtree has failed, and a run stopped halfway
adds nothing for the positions it was still searching. So a run that ends
without running out of nodes has searched everything the rules above leave,
in whatever order: an ``unwinnable`` answer is as exhaustive as before.

The SAT prover (switch ``sat``). A position the search has not decided
within ``SAT_AFTER`` nodes is handed to ``engine.sat``, which states it as
clauses over the order of the moves still to come (each card's move home,
each deal) and asks a CDCL SAT solver for a model. Its clauses are the rules
themselves, not a relaxation: every winning line satisfies them, so a
formula without a model proves the position lost, and a model is a winning
line, which is played through the engine before it is returned. The SAT
solver learns from each failure why it failed, which is what the search
lacks on the deals whose trees are wide (the solver's log, "What would help
next"): it decides every deal of 1-200 within a second, where the search
alone left 15 undecided after 10 s. The search stays first because it
decides most deals in a few hundred nodes, sooner than the clauses can be
written (some 0.05 s); its conflicts count as nodes of the budget. If a
model ever failed to play, the search would go on as before. (The beams and
the splits, searches over the endings of a phase that won deals the
search's runs missed, started after 25,000 and 5,000 nodes; the SAT prover
made them unreachable, and they were removed: the solver's log has them.)

The probe at every deal (switch ``probe_every_deal``). The closure at every
deal runs the ordering probe, as it does at the root, and the search keeps
what it learns for the phase: the due cards are found with the probe's
orders (``must`` holds the learnt orders as it holds the waits), and at an
ordering decision on a card that the probe has ordered against its other
copy, the search takes only the child of that order (for a base ordered
after another base of its row, the wait). At the next deal the
orders are kept (for the pairs still out) and the probe asks only about the
other pairs. All this is sound by the arguments above: the probe's orders
hold for every winning line from the phase's start, so for every line from a
node below it, in the same phase or a later one (the moves between are the
start of such a line), and a position failed that way is truly lost, as
with "soon". It first came in for hard deals only, after 30,000 nodes, since it made a
node dearer. With the probe's loop in C it costs a node a few per cent, and
from the first node it decides far more deals within small budgets: at most
5,000 nodes, 231 of deals 1-400 against 164; at most 30,000, 282 against 233
(figures in docs/solver-log.md). Its Python twin makes a node about ten
times dearer, which no budget in seconds repays. So the switch is on by
default where the C loops run (``NATIVE``, and ``native`` not turned off),
and off in pure Python. Off, the probe runs at the root and after the last
deal only, and the orders it learns there decide in the last phase. Verdicts
never depend on it; node counts and lines do, so a search that must be the
same on every build (the daily's) sets it.

Resuming the fixpoint. The probe and the deadlines run the fixpoint again and
again, each time with one constraint more than a run already made (an order
of two copies; a card held until the next phase). The conditions are
monotone, so the run with the constraint has, at the end of every phase, a
subset of the other run's set; and until the phase in which the other run
took the constrained card in, the two runs are the same. A successful run's
answer gives each card's phase of joining, hence its state at the start of
any phase: so the run with the constraint starts from that state, at that
phase. And once, at the end of a phase, it has as many cards in as the other
run had (so the same cards, the constrained one among them, its constraint
spent), the rest is the other run's: it stops there. The probe also keeps the
order in which the run took the cards in within each phase, and whether a
card of rank 5 up found a slot to spare (a copy of the card below in beyond
the one it needed), or a base a space to spare (or an interchange, which
needs none). An order of two cards that the run kept already, the later one
with a slot or a space to spare, allows each of the run's steps, so the run
with it is the run without it (and is not made): only the other order is
tried.
The answers are those of runs from the phase's start, as the tests check; the
search takes 18% fewer instructions on deals 23 and 30 (won by a beam search then), and
24% fewer on deal 58 (a hard one).

Safe moves, played without branching (each can be switched off for tests):

- ``safe_aces``: a reserve Ace to the Ace pile; once the stock is empty, an
  Ace in a row too (spaces then only help).
- ``safe_builds``: a card built on a foundation, from the reserve (or from a
  row once the stock is empty), when its copies cannot compete for the slot:
  the free slots for it (copies home of the card three below minus copies of
  it home) are at least its copies not yet home, or every other copy not home
  lies below it in the same reserve pile.
- ``safe_fills``: a reserve Two, Three or Four filling a space of its row
  (from a row once the stock is empty) when the row has at least as many
  spaces as it has bases not yet home.

Why they are safe (a dominance argument). Let Q be the position and Q' the
position after the move: Q' is Q with one card home (and, for a fill, one
space fewer). Take any winning line from Q and play it from Q', skipping the
card's own move. Every move stays legal: cards available in Q are available
in Q' (one card fewer above them, or the same); foundations of Q' are
foundations of Q with one card more, which only opens slots for other cards;
a deal puts the same cards on the same piles. The only moves that could fail
are the other copies of the card taking a slot that Q' has used (excluded by
the count of slots, or impossible while they lie below it), a fill finding
no space (excluded by the count of spaces: until the card goes home in Q, Q
keeps a space per base still to come, so Q' keeps one too, and Q cannot deal
either), and, for a card leaving a row, a deal blocked by the new space
(excluded by asking for an empty stock). Once the line plays the card itself,
the two positions are the same. So Q' wins whenever Q does.

Ordering decisions (``decisions``; the search's own branching, not moves of
the game). Where two cards compete, the search does not branch on every
moment one of them could go home; it decides their order once:

- a card x of rank 5 up that can go home now on its one free slot while the
  other copy y is not home (from the reserve; from a row only once the stock
  is empty);
- a base x (from the reserve or misplaced in another row) that can fill a
  space of its row now while that row has fewer spaces than bases to come.

The node then has two children only: x goes home now, or x *waits* (it may
not go home, by itself or by an interchange) until its rival has gone home:
y for a card of rank 5 up, any other base of the row for a base. Every line
from the node puts x home either before its rival or after it (in a won game
every card goes home), and the two children cover the two cases:

- Lines where x goes before its rival: play such a line L from the position
  with x home, skipping x's own move. Until L plays x, the position has x
  home in addition, and that breaks nothing: for a card of rank 5 up, L
  plays no copy of it before x, so x's slot is not wanted; the cards under x
  are free sooner; a pile on x takes its successor sooner. For a base, L
  places no base of x's row before x, so it fills no space there that x
  took; nor can L deal before x (the space x fills now stays open until a
  base of the row fills it, and x is the next), so the space x leaves in
  another row, if it was misplaced there, blocks no deal; and if L puts x
  home by an interchange with a card j, the position has a space where x
  was, which j fills the same. A card of rank 5 up leaving a row would open
  a space that could block a deal of L, hence "only once the stock is
  empty" for those.
- Lines where x goes after its rival: the child where x waits has exactly
  those lines.

A card waiting for a rival that itself waits for it is forced (its rivals
all wait: it goes now, one child). A card also goes home if a safe move
takes it; that only adds lines (the safe moves' own argument). The key
holds the set of waiting cards beside the mask (a waiting card's
position is a different search problem), cleared when its rival goes home,
so that the transposition table stays exact.

The build rule of the first version of this solver (any reserve card onto any
foundation) was not safe: with one slot and two copies, the copy played
first may be the one whose pile hides the card needed for the second slot.

The build. This module is plain, fully typed Python, and setup.py compiles it
with mypyc where a C compiler is at hand. The fixpoint (``_fixpoint``), the
ordering probe that reruns it (``_probe``) and the dead-end test
(``can_end_phase``), most of the search's time, also have a C twin,
engine/_native.c, that setup.py builds beside it: the same functions on
machine integers, about 2.4 times the nodes a second of the mypyc build. The
Python functions (``_fixpoint_py``, ``_probe_py``, ``_can_end_phase_py``) are
the reference and run without a compiler; the tests compare the two builds
call by call.

The answer is ``won`` (with the winning line in the engine's moves),
``unwinnable`` (the search was exhaustive) or ``unknown`` (the node or time
budget ran out first; ``Solution.stopped_by`` says which).
"""

from __future__ import annotations

import random
import time
from bisect import insort
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from . import sat as _sat
from .cards import RANK_STEP3 as _RANK_STEP3
from .game import Game
from .moves import ACE_PILE, DEAL, Move, Pile

# The fixpoint, the probe and the dead-end test in C (engine/_native.c), built
# by setup.py where a C compiler is at hand; without it, ``_Model._fixpoint_py``,
# ``_Model._probe_py`` and ``_Model._can_end_phase_py`` (the same functions) run.
try:
    from . import _native
except ImportError:  # no compiler at install, or the source tree
    _native = None  # type: ignore[assignment]
NATIVE: Final = _native is not None
# (the functions as C constants of the mypyc build, not looked up at each call)
_C_FIXPOINT: Final = None if _native is None else _native.fixpoint
_C_CAN_END_PHASE: Final = None if _native is None else _native.can_end_phase
_C_PROBE: Final = None if _native is None else _native.probe


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


class _OutOfBudget(Exception):
    pass


def _unknown(search: _Search, max_nodes: int, seconds: float) -> Solution:
    """The answer when a budget ran out: which one, in ``stopped_by``."""
    stopped = "nodes" if search.nodes >= max_nodes else "time"
    return Solution(Verdict.UNKNOWN, (), search.nodes, seconds, stopped)


# (Final: mypyc compiles these to C constants, not look-ups in the module's dict)
_STEP3: Final = _RANK_STEP3  # card + _STEP3: the same suit, three ranks higher
_NEVER: Final = 1 << 30  # a phase after every phase
# Restarts (see "Restarts" in the module docstring): the first run of the search
# stops after this many nodes, each later run after RESTART_GROWTH times more;
# later runs shuffle a share of the move lists, try a waiting card before the
# card going home, and the deal first, with these probabilities.
RESTART_FIRST: Final = 200
RESTART_GROWTH: Final = 1.1
SEED: Final = 1
P_SHUFFLE: Final = 0.6
P_WAIT_FIRST: Final = 0.3
P_DEAL_FIRST: Final = 0.2
# The clocks a budget in seconds can be read on (``solve``'s ``clock``), by name: wall
# time, or the CPU time of this process (on a machine shared with other work).
CLOCKS: Final[dict[str, Callable[[], float]]] = {
    "wall": time.perf_counter,
    "cpu": time.process_time,
}
# The SAT prover (engine/sat.py; "The SAT prover" in the module docstring) takes
# over a position the search has not decided within this many nodes.
SAT_AFTER: Final = 3_000


# Internal moves: (_HOME, i, -1) puts instance i home; (_SWAP, i, j) interchanges
# two misplaced instances; (_DEAL, -1, -1) deals; (_WAIT, i, -1) is no move of
# the game but a decision of the search: instance i goes home only after its
# rival (see "Ordering decisions" in the module docstring).
_HOME: Final = 0
_SWAP: Final = 1
_DEAL: Final = 2
_WAIT: Final = 3
_DEAL_MOVE: Final = (_DEAL, -1, -1)
_IMove = tuple[int, int, int]
_NO_ORDERS: dict[int, int] = {}  # no order learnt: the search's decisions use none


@dataclass(slots=True)
class _Bounds:
    """What the dead-card fixpoint knows at a node (see ``_Model.bounds``)."""

    arrive: list[int]  # instance -> phase it is on the board
    seqs: list[list[int]]  # each reserve pile's instances, now and to be dealt, bottom first
    last: int  # the last phase
    pending: list[int]  # instances not home
    bases: list[list[int]]  # row -> its bases not home
    fill_by: list[int]  # row -> first phase a base of it may be home
    after: dict[int, int]  # a waiting card -> its other copy, which goes first
    joined: list[int]  # instance -> earliest phase it may be home ("soon")


@dataclass(slots=True)
class _Options:
    safe_aces: bool
    safe_builds: bool
    safe_fills: bool
    dead_check: bool
    decisions: bool
    deadlines: bool
    dead_ends: bool
    probe_every_deal: bool


class _Model:
    """The compact position the search plays on."""

    def __init__(self, game: Game, native: bool = True) -> None:
        v = game.variant
        if v.reserve_refill != "deal" or not v.deal_needs_no_space:
            raise ValueError(
                f"the solver plays games whose reserve is refilled only by a deal with no "
                f"space in the rows; {v.name} is not one"
            )
        self.width = game.width
        self.copies = v.decks
        self.card: list[int] = []  # instance -> card
        self.res_pile: list[int] = []  # instance -> reserve pile (-1 for a row card)
        self.row_of: list[int] = []  # instance -> row of a misplaced card (-1 otherwise)
        self.col_of: list[int] = []  # instance -> column of a misplaced card
        self.cnt = [0] * 52  # copies home of each card
        self.sp = [0, 0, 0]  # spaces per row
        self.mis: list[list[int]] = [[], [], []]  # misplaced instances per row, sorted
        self.res: list[list[int]] = [[] for _ in range(v.reserve_piles)]
        self.stock: list[int] = []  # instances in dealing order
        self.dealt = 0
        self.deals = 0
        self.deal_sizes: list[int] = []
        self.mask = 0
        for r in range(3):
            for col, pile in enumerate(game.row(r)):
                if not pile:
                    self.sp[r] += 1
                elif (pile[0] >> 2) == r + 1:
                    for card in pile:
                        self.cnt[card] += 1
                else:
                    self.mis[r].append(self._new(pile[0], -1, r, col))
        for j, pile in enumerate(game.reserve):
            for card in pile:
                self.res[j].append(self._new(card, j, -1, -1))
        for k, card in enumerate(game.stock):
            self.stock.append(self._new(card, k % v.reserve_piles, -1, -1))
        for ace in game.ace_pile_cards():
            self.cnt[ace] += 1
        self.home = [False] * len(self.card)
        # the other copy of a card of rank 5 up (-1 if it is home already, or if
        # the game has more than two packs: no ordering decision for those)
        self.partner = [-1] * len(self.card)
        first: dict[int, int] = {}
        for i, c in enumerate(self.card):
            if c >= 16 and self.copies == 2:
                if c in first:
                    self.partner[i] = first[c]
                    self.partner[first[c]] = i
                else:
                    first[c] = i
        # the instances that are bases of each row
        self.base_mask = [0, 0, 0]
        for i, c in enumerate(self.card):
            if 1 <= c >> 2 <= 3:
                self.base_mask[(c >> 2) - 1] |= 1 << i
        self.waiting = 0  # instances that must wait for a rival (a mask)
        self.log: list[int] = []  # ``waiting`` before each move played
        # the arrays above that never change, for the C loops: the fixpoint, the
        # probe and the dead-end test run in C where they were built (the same
        # answers, faster), unless ``native`` is False
        self.tables: object = None
        if native and _native is not None:
            self.tables = _native.tables(self.card, self.row_of, self.partner)

    @property
    def native(self) -> bool:
        """Whether this model runs its fixpoint, probe and dead-end test in C."""
        return self.tables is not None

    def _new(self, card: int, pile: int, row: int, col: int) -> int:
        i = len(self.card)
        self.card.append(card)
        self.res_pile.append(pile)
        self.row_of.append(row)
        self.col_of.append(col)
        self.mask |= 1 << i
        return i

    @property
    def key(self) -> int:
        # the waiting cards above the mask's bits (one per instance), the deals below
        if self.waiting:
            return (self.waiting << len(self.card) | self.mask) << 8 | self.deals
        return self.mask << 8 | self.deals

    # -------------------------------------------------------------- play

    def play(self, move: _IMove) -> None:
        kind, i, j = move
        waiting = self.waiting
        self.log.append(waiting)
        if waiting:
            # a card home ends the wait of its rivals: the other copy of a card of
            # rank 5 up, the other bases of a row
            if kind == _HOME:
                rank = self.card[i] >> 2
                if 1 <= rank <= 3:
                    waiting &= ~self.base_mask[rank - 1]
                else:
                    waiting &= ~(1 << i)
                    if self.partner[i] >= 0:
                        waiting &= ~(1 << self.partner[i])
            elif kind == _SWAP:
                waiting &= ~self.base_mask[(self.card[i] >> 2) - 1]
                waiting &= ~self.base_mask[(self.card[j] >> 2) - 1]
            self.waiting = waiting
        if kind == _WAIT:
            self.waiting = waiting | 1 << i
        elif kind == _HOME:
            card = self.card[i]
            r = self.row_of[i]
            if r >= 0:
                self.mis[r].remove(i)
                self.sp[r] += 1
            else:
                self.res[self.res_pile[i]].pop()
            rank = card >> 2  # rank - 1
            if 1 <= rank <= 3:
                self.sp[rank - 1] -= 1
            self.cnt[card] += 1
            self.home[i] = True
            self.mask ^= 1 << i
        elif kind == _SWAP:
            self.mis[self.row_of[i]].remove(i)
            self.mis[self.row_of[j]].remove(j)
            self.cnt[self.card[i]] += 1
            self.cnt[self.card[j]] += 1
            self.home[i] = self.home[j] = True
            self.mask ^= (1 << i) | (1 << j)
        elif kind == _DEAL:
            n = min(len(self.res), len(self.stock) - self.dealt)
            for k in range(n):
                self.res[k].append(self.stock[self.dealt + k])
            self.dealt += n
            self.deal_sizes.append(n)
            self.deals += 1

    def undo(self, move: _IMove) -> None:
        kind, i, j = move
        self.waiting = self.log.pop()
        if kind == _HOME:
            card = self.card[i]
            r = self.row_of[i]
            if r >= 0:
                insort(self.mis[r], i)
                self.sp[r] -= 1
            else:
                self.res[self.res_pile[i]].append(i)
            rank = card >> 2
            if 1 <= rank <= 3:
                self.sp[rank - 1] += 1
            self.cnt[card] -= 1
            self.home[i] = False
            self.mask ^= 1 << i
        elif kind == _SWAP:
            insort(self.mis[self.row_of[i]], i)
            insort(self.mis[self.row_of[j]], j)
            self.cnt[self.card[i]] -= 1
            self.cnt[self.card[j]] -= 1
            self.home[i] = self.home[j] = False
            self.mask ^= (1 << i) | (1 << j)
        elif kind == _DEAL:
            self.deals -= 1
            n = self.deal_sizes.pop()
            for k in range(n):
                self.res[k].pop()
            self.dealt -= n

    # -------------------------------------------------------------- moves

    def can_home(self, i: int) -> bool:
        """Whether available instance ``i`` can go home by itself now (not an interchange)."""
        card = self.card[i]
        rank = card >> 2
        if rank == 0:
            return True
        if rank <= 3:
            return self.sp[rank - 1] > 0
        pred = card - _STEP3
        return self.cnt[pred] > self.cnt[card]

    def available(self) -> list[int]:
        """The reserve tops, then the misplaced cards (one copy of a card per row:
        two misplaced copies in one row are interchangeable)."""
        out = [p[-1] for p in self.res if p]
        card = self.card
        for row in self.mis:
            seen = 0  # the cards met in this row, as bits
            for i in row:
                bit = 1 << card[i]
                if not seen & bit:
                    seen |= bit
                    out.append(i)
        return out

    def safe(self, opts: _Options) -> _IMove | None:
        """A safe move (see the module docstring), or None."""
        cnt = self.cnt
        card = self.card
        copies = self.copies
        for pile in self.res:
            if not pile:
                continue
            i = pile[-1]
            c = card[i]
            rank = c >> 2
            if rank == 0:
                if opts.safe_aces:
                    return (_HOME, i, -1)
            elif rank <= 3:
                if opts.safe_fills and self._fill_is_safe(rank):
                    return (_HOME, i, -1)
            elif opts.safe_builds:
                slots = cnt[c - _STEP3] - cnt[c]
                if slots > 0 and (
                    slots >= copies - cnt[c]
                    or sum(1 for k in pile if card[k] == c) == copies - cnt[c]
                ):
                    return (_HOME, i, -1)
        if self.dealt < len(self.stock):
            return None
        # the stock is empty: a card may leave a row (spaces no longer matter)
        for row in self.mis:
            for i in row:
                c = card[i]
                rank = c >> 2
                if rank == 0:
                    if opts.safe_aces:
                        return (_HOME, i, -1)
                elif rank <= 3:
                    if opts.safe_fills and self._fill_is_safe(rank):
                        return (_HOME, i, -1)
                elif opts.safe_builds:
                    slots = cnt[c - _STEP3] - cnt[c]
                    if slots > 0 and slots >= copies - cnt[c]:
                        return (_HOME, i, -1)
        return None

    def _fill_is_safe(self, rank: int) -> bool:
        """The row of bases of ``rank`` (index) has a space for every base not yet home."""
        spaces = self.sp[rank - 1]
        if not spaces:
            return False
        cnt = self.cnt
        b = rank << 2
        return spaces >= 4 * self.copies - cnt[b] - cnt[b + 1] - cnt[b + 2] - cnt[b + 3]

    def decision(self, soon: list[int] | None) -> tuple[int, bool] | None:
        """An instance whose order against its rivals the search should decide now.

        ``(i, forced)``: ``i`` can go home now, is not yet ordered against its
        rivals, and going home now is as good as any later time before them (see
        "Ordering decisions" in the module docstring); ``forced`` if its rivals
        all wait for it, so that it goes home now without a choice. None if
        there is none.
        """
        card = self.card
        cnt = self.cnt
        waiting = self.waiting
        deals = self.deals
        empty = self.dealt >= len(self.stock)
        cands = [p[-1] for p in self.res if p]
        for r in range(3):
            for i in self.mis[r]:
                if 1 <= card[i] >> 2 <= 3 or empty:
                    cands.append(i)
        for i in cands:
            if waiting >> i & 1 or (soon is not None and soon[i] > deals):
                continue
            c = card[i]
            rank = c >> 2
            if rank == 0:
                continue
            if rank <= 3:
                t = rank - 1
                if not self.sp[t] or self._fill_is_safe(rank):
                    continue
                rivals = self.base_mask[t] & self.mask & ~(1 << i)
                return i, not rivals & ~waiting
            slots = cnt[c - _STEP3] - cnt[c]
            if slots <= 0 or slots >= self.copies - cnt[c]:
                continue
            other = self.partner[i]
            if other < 0 or self.home[other]:
                continue
            return i, bool(waiting >> other & 1)
        return None

    def can_end_phase(self, soon: list[int], must: int) -> bool:
        """Whether this phase might still end in a deal (see "Dead ends" in the module docstring).

        Only while the stock is not empty. ``soon`` and ``must`` come from the
        phase's start. False if no line from here can fill every space of the
        rows and put every due card home before the next deal. In C where it
        was built (``_can_end_phase_py`` is the same function).
        """
        if self.tables is not None and _C_CAN_END_PHASE is not None:
            size = (len(self.card) + 7) >> 3
            return _C_CAN_END_PHASE(
                self.tables,
                self.cnt,
                self.home,
                self.sp,
                self.res,
                self.mis,
                soon,
                self.deals,
                self.waiting.to_bytes(size, "little"),
                (must & self.mask).to_bytes(size, "little"),
            )
        return self._can_end_phase_py(soon, must)

    def _can_end_phase_py(self, soon: list[int], must: int) -> bool:
        """``can_end_phase`` in Python."""
        # (``x[k] = x[k] + 1``, not ``x[k] += 1``: see ``_fixpoint``)
        card = self.card
        cnt = self.cnt
        home = self.home
        deals = self.deals
        waits: set[int] = set()
        w = self.waiting
        while w:
            low = w & -w
            waits.add(low.bit_length() - 1)
            w ^= low
        if not must & self.mask:
            # quick answer: a free base on top of a reserve pile for each space
            need = list(self.sp)
            for pile in self.res:
                if pile:
                    i = pile[-1]
                    t = (card[i] >> 2) - 1
                    if 0 <= t <= 2 and need[t] > 0 and soon[i] <= deals and i not in waits:
                        need[t] = need[t] - 1
            if not any(need):
                return True
        swap_ok = self._swap_ok()
        # a base of the row may go home by an interchange, taking no space
        swap_row = [any(swap_ok[a][t] and swap_ok[t][a] for a in range(3)) for t in range(3)]
        fill_ok = [True, True, True]
        while True:
            inh = list(home)
            hc = list(cnt)
            opened = list(self.sp)
            bases = [0, 0, 0]  # bases of each row that join
            tops = [len(pile) - 1 for pile in self.res]
            loose = [i for row in self.mis for i in row]
            changed = True
            while changed:
                changed = False
                for j, pile in enumerate(self.res):
                    k = tops[j]
                    while k >= 0:
                        i = pile[k]
                        if soon[i] > deals:
                            break
                        c = card[i]
                        rank = c >> 2
                        # the cards above it (all in) that used its slot or space
                        same = self._same_above(pile, k, len(pile))
                        if i in waits:
                            # its rival goes home first, on a slot or a space of its own
                            # (unless it lies above, counted already, or is a base that may
                            # go home by an interchange, which takes no space)
                            if rank >= 4:
                                y = self.partner[i]
                                if y >= 0 and not inh[y]:
                                    break
                                if y not in pile[k + 1 :]:
                                    same += 1
                            elif rank:  # (an Ace never waits; the tests' random waits may say so)
                                if not bases[rank - 1]:
                                    break
                                if not same and not swap_row[rank - 1]:
                                    same = 1
                        if rank == 0:
                            pass
                        elif rank <= 3:
                            if opened[rank - 1] <= same:
                                break
                            bases[rank - 1] = bases[rank - 1] + 1
                        elif _below(hc, c) <= cnt[c] + same:
                            break
                        inh[i] = True
                        hc[c] = hc[c] + 1
                        k -= 1
                        changed = True
                    tops[j] = k
                rest: list[int] = []
                for i in loose:
                    c = card[i]
                    rank = c >> 2
                    a = self.row_of[i]
                    ok = soon[i] <= deals
                    same = 0
                    if ok and i in waits:
                        if rank >= 4:
                            y = self.partner[i]
                            ok = y < 0 or inh[y]
                            same = 1
                        elif rank:
                            ok = bases[rank - 1] > 0
                            same = 0 if swap_row[rank - 1] else 1
                    if ok:
                        if rank == 0:
                            ok = fill_ok[a]
                        elif rank <= 3:
                            t = rank - 1
                            ok = swap_ok[a][t] and swap_ok[t][a]
                            ok = ok or (opened[t] > same and fill_ok[a])
                        else:
                            ok = _below(hc, c) > cnt[c] + same and fill_ok[a]
                    if ok:
                        inh[i] = True
                        hc[c] = hc[c] + 1
                        opened[a] = opened[a] + 1
                        if 1 <= rank <= 3:
                            bases[rank - 1] = bases[rank - 1] + 1
                        changed = True
                    else:
                        rest.append(i)
                loose = rest
            if any(self.sp[t] > bases[t] for t in range(3)):
                return False
            due = must & self.mask
            while due:
                low = due & -due
                if not inh[low.bit_length() - 1]:
                    return False
                due ^= low
            nxt = [bases[t] > 0 for t in range(3)]
            if nxt == fill_ok:
                return True
            fill_ok = nxt

    def _same_above(self, seq: list[int], pos: int, top: int) -> int:
        """How many of ``seq[pos + 1 : top]`` (cards above ``seq[pos]`` in its
        reserve pile) take the same resource as it: the same card (a slot on
        its foundation) for rank 5 up, a base of the same row (a space); 0 for
        an Ace."""
        card = self.card
        c = card[seq[pos]]
        rank = c >> 2
        same = 0
        if rank >= 4:
            for u in range(pos + 1, top):
                if card[seq[u]] == c:
                    same += 1
        elif rank:
            for u in range(pos + 1, top):
                if card[seq[u]] >> 2 == rank:
                    same += 1
        return same

    def _swap_ok(self) -> list[list[bool]]:
        """``[a][t]``: row ``a`` has a misplaced base of row ``t`` (t != a), so a
        base of each can go home by an interchange if ``[t][a]`` holds too."""
        swap_ok = [[False] * 3 for _ in range(3)]
        for a in range(3):
            for i in self.mis[a]:
                t = (self.card[i] >> 2) - 1
                if 0 <= t <= 2 and t != a:
                    swap_ok[a][t] = True
        return swap_ok

    def stuck_waiting(self, i: int, soon: list[int]) -> bool:
        """Whether ``i``, made to wait, would stay out of home until the next deal.

        It waits for a rival (its other copy, or another base of its row); if
        no rival can go home before the next deal (``soon``), neither can it.
        """
        rank = self.card[i] >> 2
        if 1 <= rank <= 3:
            rivals = self.base_mask[rank - 1] & self.mask & ~(1 << i)
            while rivals:  # each rival (one big-integer step a rival, not one an instance)
                low = rivals & -rivals
                if soon[low.bit_length() - 1] <= self.deals:
                    return False
                rivals ^= low
            return True
        other = self.partner[i]
        return other >= 0 and not self.home[other] and soon[other] > self.deals

    def decision_moves(
        self, i: int, forced: bool, soon: list[int] | None, must: int, after: dict[int, int]
    ) -> list[_IMove]:
        """The children of the ordering decision on ``i``: home now, wait, or both.

        ``forced`` as ``decision`` says; ``soon`` and ``must`` from the phase's
        start; ``after``: orders every winning line keeps (a card -> the twin it
        goes home after, as ``closure(probe=True)`` learns them).
        """
        twin = self.partner[i]
        if forced or (twin >= 0 and after.get(twin, -1) == i):
            return [(_HOME, i, -1)]
        if twin >= 0 and after.get(i, -1) == twin:
            return [(_WAIT, i, -1)]
        if 1 <= self.card[i] >> 2 <= 3:
            first = after.get(i, -1)  # a base goes home after another base of its row
            if first >= 0 and not self.home[first]:
                return [(_WAIT, i, -1)]
        if must >> i & 1 and soon is not None and self.stuck_waiting(i, soon):
            return [(_HOME, i, -1)]  # waiting would keep it out past the deal
        return [(_HOME, i, -1), (_WAIT, i, -1)]

    def moves(self, soon: list[int] | None = None) -> list[_IMove]:
        """Legal moves, most promising first; the deal last.

        With ``soon`` (each instance's earliest phase home, from ``closure``),
        leave out the moves of cards that cannot go home in this phase.
        """
        builds: list[_IMove] = []
        fills: list[_IMove] = []
        opens: list[_IMove] = []
        swaps: list[_IMove] = []
        deals = self.deals
        waiting = self.waiting
        for i in self.available():
            if waiting >> i & 1 or not self.can_home(i) or (soon is not None and soon[i] > deals):
                continue
            move = (_HOME, i, -1)
            if self.row_of[i] >= 0:
                opens.append(move)
            elif (self.card[i] >> 2) <= 3:
                fills.append(move)
            else:
                builds.append(move)
        # interchanges: a misplaced card of rank r+2 in row a with one of rank a+2 in row r
        for a in range(3):
            for i in self.mis[a]:
                t = (self.card[i] >> 2) - 1
                if not 0 <= t <= 2 or t <= a:
                    continue
                seen: set[int] = set()
                for j in self.mis[t]:
                    cj = self.card[j]
                    if (cj >> 2) - 1 == a and cj not in seen:
                        if soon is not None and max(soon[i], soon[j]) > deals:
                            continue
                        if waiting >> i & 1 or waiting >> j & 1:
                            continue
                        seen.add(cj)
                        swaps.append((_SWAP, i, j))
        out = builds + swaps + fills + opens
        if self.dealt < len(self.stock) and not any(self.sp):
            out.append(_DEAL_MOVE)
        return out

    # -------------------------------------------------------------- pruning

    def dead(self, probe: bool = False) -> bool:
        """True if some card can provably never go home (see the module docstring)."""
        return self.closure(probe) is None

    def closure(self, probe: bool = False) -> list[int] | None:
        """The earliest phase in which each instance might be home, or None if one never can."""
        bounds = self.bounds(probe)
        return None if bounds is None else bounds.joined

    def bounds(self, probe: bool = False, known: dict[int, int] = _NO_ORDERS) -> _Bounds | None:
        """Run the fixpoint of the module docstring; None if some card can never go home.

        First with no filler condition, then again and again with the filler
        condition asking for a base of the row that joined the previous run's set
        by that phase, until nothing changes. ``known``: orders of copies that
        every winning line from here keeps (learnt by the probe at an earlier
        deal), assumed like the waits; the probe does not ask them again.
        """
        card = self.card
        n_res = len(self.res)
        cur = self.deals
        arrive = [cur] * len(card)
        seqs = [list(pile) for pile in self.res]  # each pile, now and dealt, bottom first
        for k in range(self.dealt, len(self.stock)):
            i = self.stock[k]
            arrive[i] = cur + 1 + (k - self.dealt) // n_res
            seqs[self.res_pile[i]].append(i)
        last = cur + (len(self.stock) - self.dealt + n_res - 1) // n_res
        home = self.home
        pending: list[int] = []
        bases: list[list[int]] = [[], [], []]
        for i in range(len(card)):
            if not home[i]:
                pending.append(i)
                t = (card[i] >> 2) - 1
                if 0 <= t <= 2:
                    bases[t].append(i)
        # fill_by[row]: the first phase by which a base of the row not home now may be home
        fill_by = [cur, cur, cur]
        # a card of rank 5 up that waits for its other copy goes home after it
        after: dict[int, int] = {}
        waiting = self.waiting
        while waiting:  # each waiting card (one big-integer step a card, not one an instance)
            low = waiting & -waiting
            i = low.bit_length() - 1
            if card[i] >= 16 and self.partner[i] >= 0:
                after[i] = self.partner[i]
            waiting ^= low
        for x, y in known.items():
            if not home[x] and not home[y]:
                after.setdefault(x, y)
        trace = [0] * len(card) if probe else None
        while True:
            joined = self._fixpoint(arrive, seqs, last, fill_by, after, trace=trace)
            if joined is None:
                return None
            if cur == last:
                break  # no phase before the last: the filler condition never applies
            # the next run depends only on fill_by: if it repeats, so would the run
            nxt = [_NEVER, _NEVER, _NEVER]
            for t in range(3):
                for b in bases[t]:
                    if joined[b] < nxt[t]:
                        nxt[t] = joined[b]
            if nxt == fill_by:
                break
            fill_by = nxt
        if trace is not None:
            pairs = self.probe_pairs(pending)
            probed = self._probe(arrive, seqs, last, fill_by, after, pairs, joined, trace)
            if probed is None:
                return None
            joined, after = probed
        return _Bounds(arrive, seqs, last, pending, bases, fill_by, after, joined)

    def probe_pairs(self, pending: list[int]) -> list[tuple[int, int]]:
        """The pairs the ordering probe asks about, in its order, among the
        instances ``pending`` (not home): the two copies of a card of rank 5 up
        with fewer than two copies of the card three below home, or of a base;
        then any two bases of one row that are not copies (they compete for its
        spaces as copies do)."""
        card = self.card
        cnt = self.cnt
        group_of = [-1] * len(cnt)  # a card -> its group of copies (-1: none yet)
        groups: list[list[int]] = []  # the copies of each card asked about, in order
        for i in pending:
            c = card[i]
            if (c >= 16 and cnt[c - _STEP3] < 2) or 4 <= c < 16:
                at = group_of[c]
                if at < 0:
                    group_of[c] = len(groups)
                    groups.append([i])
                else:
                    groups[at].append(i)
        pairs = [(g[0], g[1]) for g in groups if len(g) == 2]
        rows: list[list[int]] = [[], [], []]
        for g in groups:
            c = card[g[0]]
            if c < 16:
                rows[(c >> 2) - 1].extend(g)
        for bases in rows:
            n = len(bases)
            for k in range(n):
                x = bases[k]
                cx = card[x]
                for m in range(k + 1, n):
                    y = bases[m]
                    if card[y] != cx:
                        pairs.append((x, y))
        return pairs

    def _probe(
        self,
        arrive: list[int],
        seqs: list[list[int]],
        last: int,
        fill_by: list[int],
        after: dict[int, int],
        pairs: list[tuple[int, int]],
        joined: list[int],
        trace: list[int],
    ) -> tuple[list[int], dict[int, int]] | None:
        """The ordering probe (``_probe_py``), in C where it was built."""
        if self.tables is not None and _C_PROBE is not None:
            return _C_PROBE(
                self.tables,
                self.cnt,
                self.home,
                self.sp,
                self.mis,
                self.deals,
                arrive,
                seqs,
                last,
                fill_by,
                after,
                [i for pair in pairs for i in pair],
                joined,
                trace,
            )
        return self._probe_py(arrive, seqs, last, fill_by, after, pairs, joined, trace)

    def _probe_py(
        self,
        arrive: list[int],
        seqs: list[list[int]],
        last: int,
        fill_by: list[int],
        after: dict[int, int],
        pairs: list[tuple[int, int]],
        joined: list[int],
        trace: list[int],
    ) -> tuple[list[int], dict[int, int]] | None:
        """The ordering probe over ``pairs`` of copies, from the run ``joined``
        (and its ``trace``) with the orders ``after``: None if the position is
        lost, else the last run and ``after`` with the orders learnt (see
        "Ordering probe" in the module docstring).
        """
        # an order that leaves a card out holds for no winning line: the other
        # order is then that of every winning line, and later probes assume it.
        # Each probe resumes the run with the orders learnt so far (``joined``,
        # ``trace``); an order that run keeps already, the later card finding a
        # slot or a space to spare, changes nothing, so it needs no run of its own.
        ordered = dict(after)
        changed = True
        while changed:
            changed = False
            for x, y in pairs:
                if x in ordered or y in ordered:
                    continue
                if joined[y] < joined[x] or (joined[y] == joined[x] and trace[y] < trace[x]):
                    x, y = y, x  # x went first in that run
                # each order as a run resumed from that one, but y after x is
                # that run itself if y found a slot (or a space) to spare in it
                runs: list[tuple[list[int] | None, list[int]]] = []
                for late, first in ((x, y), (y, x)):
                    if late == y and trace[y] & 1:
                        runs.append((joined, trace))
                        continue
                    late_trace = list(trace)
                    found = self._fixpoint(
                        arrive,
                        seqs,
                        last,
                        fill_by,
                        ordered | {late: first},
                        base=joined,
                        late=late,
                        trace=late_trace,
                    )
                    runs.append((found, late_trace))
                (x_late, x_trace), (y_late, y_trace) = runs
                if x_late is None and y_late is None:
                    return None
                if x_late is None and y_late is not None:
                    ordered[y] = x
                    joined, trace = y_late, y_trace
                    changed = True
                elif y_late is None and x_late is not None:
                    ordered[x] = y
                    joined, trace = x_late, x_trace
                    changed = True
        return joined, ordered

    def must(self, b: _Bounds, phase: int, start: int = 0) -> int | None:
        """The instances every winning line puts home by the end of ``phase`` (a mask).

        ``start``: instances known to be due by then already (those due by an
        earlier phase). None if they cannot all be home by then. See "Deadlines"
        in the module docstring. Only for a phase that ends with a deal.
        """
        card = self.card
        cnt = self.cnt
        joined = b.joined
        arrive = b.arrive
        work: list[int] = []
        bits = start
        while bits:  # each card due already (one big-integer step a card)
            low = bits & -bits
            work.append(low.bit_length() - 1)
            bits ^= low
        where: dict[int, tuple[int, int]] = {}
        # a reserve card with a card to be dealt onto its pile later: must it leave first?
        for j, seq in enumerate(b.seqs):
            n = 0
            while n < len(seq) and arrive[seq[n]] <= phase:
                n += 1
            for pos in range(n):
                where[seq[pos]] = (j, pos)
            if n == len(seq):
                continue
            # from the top down: holding a card holds the cards under it too, so if
            # holding one loses nothing, neither does holding any card under it
            for pos in range(n - 1, -1, -1):
                q = seq[pos]
                if joined[q] > phase:
                    break  # the cards under it join later still
                if start >> q & 1:
                    continue
                held = self._fixpoint(
                    arrive, b.seqs, b.last, b.fill_by, b.after, q, phase + 1, base=joined
                )
                if held is None:
                    work.append(q)
                else:
                    break
        if not work:
            return start
        copies: dict[int, list[int]] = {}
        for i in b.pending:
            copies.setdefault(card[i], []).append(i)
        bases = b.bases
        must = start
        for q in work:
            must |= 1 << q

        def add(xs: list[int]) -> None:
            nonlocal must
            for x in xs:
                if not must >> x & 1:
                    must |= 1 << x
                    work.append(x)

        while work:
            q = work.pop()
            if joined[q] > phase:
                return None
            if q in where:  # the cards surely above it when it leaves go first
                j, pos = where[q]
                seq = b.seqs[j]
                add([u for u in seq[pos + 1 :] if arrive[u] <= joined[q]])
            c = card[q]
            rank = c >> 2
            if rank >= 4:  # each copy of c home needs its own copy of the card below
                pred = c - _STEP3
                need = cnt[c] + sum(1 for x in copies[c] if must >> x & 1)
                free = [x for x in copies.get(pred, ()) if joined[x] <= phase]
                if need > cnt[pred] + len(free):
                    return None
                if need == cnt[pred] + len(free):
                    add(free)
            elif rank >= 1:  # each base home needs a space now or a card leaving its row
                t = rank - 1
                need = sum(1 for x in bases[t] if must >> x & 1)
                free = [x for x in self.mis[t] if joined[x] <= phase]
                if need > self.sp[t] + len(free):
                    return None
                if need == self.sp[t] + len(free):
                    add(free)
            a = self.row_of[q]
            if a >= 0:  # a card leaving a row: a base fills its space before the deal
                need = self.sp[a] + sum(1 for x in self.mis[a] if must >> x & 1)
                free = [x for x in bases[a] if joined[x] <= phase]
                if need > len(free):
                    return None
                if need == len(free):
                    add(free)
        return must

    def _fixpoint(
        self,
        arrive: list[int],
        seqs: list[list[int]],
        last: int,
        fill_by: list[int],
        after: dict[int, int],
        hold: int = -1,
        until: int = 0,
        base: list[int] | None = None,
        late: int = -1,
        trace: list[int] | None = None,
    ) -> list[int] | None:
        """One run of the fixpoint (``_fixpoint_py``), in C where it was built."""
        if self.tables is not None and _C_FIXPOINT is not None:
            return _C_FIXPOINT(
                self.tables,
                self.cnt,
                self.home,
                self.sp,
                self.mis,
                self.deals,
                arrive,
                seqs,
                last,
                fill_by,
                after,
                hold,
                until,
                base,
                late,
                trace,
            )
        return self._fixpoint_py(arrive, seqs, last, fill_by, after, hold, until, base, late, trace)

    def _fixpoint_py(
        self,
        arrive: list[int],
        seqs: list[list[int]],
        last: int,
        fill_by: list[int],
        after: dict[int, int],
        hold: int = -1,
        until: int = 0,
        base: list[int] | None = None,
        late: int = -1,
        trace: list[int] | None = None,
    ) -> list[int] | None:
        """One run of the fixpoint: each instance's phase of joining, None if one never joins.

        With ``hold``, that instance may not join before phase ``until`` (it stays
        where it is until then).

        Only the topmost card of a reserve pile not yet joined can join (the
        cards above it must all be in first), so each pass looks at one card a
        pile and at the misplaced cards: the joined set is the same as testing
        every card, since the conditions only grow easier as cards join.

        ``base``: the result of a run that succeeded with the same arguments
        but one constraint fewer: the hold, or the order of ``late`` (a key of
        ``after`` that the base run did not have). The answer is the same as
        without it, found with less work (see "Resuming the fixpoint" in the
        module docstring): the run starts where the constraint first bites,
        and stops as soon as it has caught up with the base run.

        ``trace``, if given, records how each instance joined: ``2 * n + s``,
        where it was the n-th to join in its phase, and ``s`` is 1 for a card
        of rank 5 up that found a slot to spare (a copy of the card below in
        beyond the one it needed) or a base that found a space to spare (or
        went by an interchange, which takes none). A run that resumes a base run
        is given a copy of the base run's trace.
        """
        # (``x[k] = x[k] + 1`` rather than ``x[k] += 1`` here: mypyc compiles the
        # augmented form on a list item to a generic Python addition)
        card = self.card
        row_of = self.row_of
        cnt = self.cnt
        hc = list(cnt)
        inh = list(self.home)
        opened = list(self.sp)  # spaces a row has or can get
        swap_ok = self._swap_ok()
        first_of: list[int] = []  # a card -> the twin that goes home before it (-1: none)
        if after:
            first_of = [-1] * len(card)
            for x, y in after.items():
                first_of[x] = y
        n_piles = len(seqs)
        stacks: list[list[int]] = [[] for _ in range(n_piles)]  # arrived, not joined (positions)
        dealt = [0] * n_piles  # positions of each pile's sequence on the board by this phase
        start = self.deals
        bound = hold if hold >= 0 else late  # the card whose constraint is new
        behind: list[int] = []  # phase -> instances still out after it in the base run
        if base is None:
            joined = [-1] * len(card)
            loose = [i for row in self.mis for i in row]  # misplaced cards not joined
        else:
            # the base run's state at the start of phase ``start``: the cards it had
            # joined before then (a card's phase in ``base`` is when it joined)
            start = base[bound]
            joined = [p if p < start else -1 for p in base]
            behind = [0] * (last + 1)
            for i, p in enumerate(base):
                if p >= 0:
                    behind[p] = behind[p] + 1
                if 0 <= p < start:
                    inh[i] = True
                    hc[card[i]] = hc[card[i]] + 1
                    if row_of[i] >= 0:
                        opened[row_of[i]] = opened[row_of[i]] + 1
            loose = [i for row in self.mis for i in row if not inh[i]]
            for j in range(n_piles):
                seq = seqs[j]
                k = 0
                while k < len(seq) and arrive[seq[k]] < start:
                    if not inh[seq[k]]:
                        stacks[j].append(k)
                    k += 1
                dealt[j] = k
        left = len(loose) + sum(len(stacks[j]) + len(seqs[j]) - dealt[j] for j in range(n_piles))
        if behind:  # from counts of cards joined per phase to cards still out after it
            out = left
            for p in range(start):
                behind[p] = 0
            for p in range(start, last + 1):
                out -= behind[p]
                behind[p] = out
        for phase in range(start, last + 1):
            stamp = 0
            for j in range(n_piles):
                seq = seqs[j]
                k = dealt[j]
                while k < len(seq) and arrive[seq[k]] <= phase:
                    stacks[j].append(k)
                    k += 1
                dealt[j] = k
            changed = True
            while changed:
                changed = False
                for j in range(n_piles):
                    stack = stacks[j]
                    while stack:
                        pos = stack[-1]
                        seq = seqs[j]
                        i = seq[pos]
                        if i == hold and phase < until:
                            break
                        c = card[i]
                        # the cards above i by this phase are all in; count those that
                        # used the same resource (a slot on c's pile, a space of c's row)
                        top = dealt[j]
                        same = self._same_above(seq, pos, top)
                        if first_of:
                            y = first_of[i]
                            if y >= 0:
                                if not inh[y]:
                                    break
                                u = pos + 1
                                while u < top and seq[u] != y:
                                    u += 1
                                if u == top:  # not above it: one more slot
                                    same += 1
                        room = _room(hc, cnt, opened, c, same)
                        if room < 0:
                            break
                        stack.pop()
                        if trace is not None:
                            trace[i] = 2 * stamp + (room > 0)
                            stamp += 1
                        inh[i] = True
                        joined[i] = phase
                        hc[c] = hc[c] + 1
                        left -= 1
                        changed = True
                if loose:
                    rest: list[int] = []
                    for i in loose:
                        if i == hold and phase < until:
                            rest.append(i)
                            continue
                        c = card[i]
                        rank = c >> 2
                        same = 0
                        if first_of:
                            y = first_of[i]
                            if y >= 0:
                                if not inh[y]:
                                    rest.append(i)
                                    continue
                                same = 1
                        a = row_of[i]
                        # a card leaving its row before the last phase needs a
                        # filler base too (not an Ace, nor a base going by an
                        # interchange, which takes no space)
                        if 1 <= rank <= 3 and swap_ok[a][rank - 1] and swap_ok[rank - 1][a]:
                            room = 1
                        else:
                            room = _room(hc, cnt, opened, c, same)
                            if rank and room >= 0 and phase < last and fill_by[a] > phase:
                                room = -1
                        if room >= 0:
                            if trace is not None:
                                trace[i] = 2 * stamp + (room > 0)
                                stamp += 1
                            inh[i] = True
                            joined[i] = phase
                            hc[c] = hc[c] + 1
                            opened[a] = opened[a] + 1
                            left -= 1
                            changed = True
                        else:
                            rest.append(i)
                    loose = rest
            # caught up with the base run: the same cards in (this run's are among
            # the base's, and as many). The card of the new constraint is among
            # them (the base run had it by ``start``), so the constraint is spent
            # and the rest of the run is the base run's.
            if base is not None and left == behind[phase]:
                for i in range(len(joined)):
                    if joined[i] < 0:
                        joined[i] = base[i]
                return joined
        return None if left else joined


def _room(hc: list[int], cnt: list[int], opened: list[int], c: int, same: int) -> int:
    """The slots (card ``c`` of rank 5 up) or spaces (a base) beyond the one it
    needs, with ``same`` cards before it taking the same resource: below 0 it
    cannot join yet, above 0 it has one to spare (0 for an Ace). ``hc``: the
    copies home or joined, ``cnt``: those home now, ``opened``: each row's
    spaces, now or to come."""
    rank = c >> 2
    if rank == 0:
        return 0
    if rank <= 3:
        return opened[rank - 1] - same - 1
    return _below(hc, c) - cnt[c] - same - 1


def _below(hc: list[int], c: int) -> int:
    """How many copies of the card three below ``c`` (a 5 or above) can be home
    together, by the counts ``hc``: no more than of any card under it in its
    foundation (condition 3 of "Dead cards" in the module docstring)."""
    d = c - _STEP3
    m = hc[d]
    d -= _STEP3
    while d >= 4:
        if hc[d] < m:
            m = hc[d]
        d -= _STEP3
    return m


@dataclass(slots=True)
class _Search:
    model: _Model
    opts: _Options
    max_nodes: int
    deadline: float
    clock: Callable[[], float]
    nodes: int = 0
    failed: set[int] = field(default_factory=set)
    line: list[_IMove] = field(default_factory=list)
    limit: int = 0  # the node count at which this run of the search stops
    rng: random.Random | None = None  # shuffles the order of moves (after the first run)


def position_key(game: Game) -> tuple[object, ...]:
    """A key equal for positions that play the same (piles of a row permuted).

    The search itself uses an equivalent integer key on its own model (see the
    module docstring); this one is for comparing positions of different games.
    """
    rows = tuple(tuple(sorted(game.row(r))) for r in range(3))
    return (rows, game.reserve, game.stock, game.aces)


def solve(
    game: Game,
    *,
    max_nodes: int = 2_000_000,
    max_seconds: float = 10.0,
    safe_aces: bool = True,
    safe_builds: bool = True,
    safe_fills: bool = True,
    dead_check: bool = True,
    decisions: bool = True,
    deadlines: bool = True,
    dead_ends: bool = True,
    probe_every_deal: bool | None = None,
    native: bool = True,
    sat: bool = True,
    clock: Callable[[], float] = time.perf_counter,
) -> Solution:
    """Search ``game`` (left unchanged) for a win within the budgets.

    The keyword switches turn off each safe-move rule and each pruning (the
    deadlines and the dead-end test work only with the dead-card check); the
    verdict never depends on them, only the effort does; ``native=False`` runs
    the fixpoint, the probe and the dead-end test in Python even where their C
    build is at hand (the same answers, node counts and lines: a switch for the tests).
    ``sat=False`` leaves the SAT prover out: the search alone, to its budget (a
    switch for the tests of the search's own rules).
    ``clock`` reads the
    seconds of the time budget (and of ``Solution.seconds``): wall time by
    default, or for example ``time.process_time`` to measure on a machine
    shared with other work.
    """
    start = clock()
    opts = _Options(
        safe_aces,
        safe_builds,
        safe_fills,
        dead_check,
        decisions,
        deadlines,
        dead_ends,
        (native and NATIVE) if probe_every_deal is None else probe_every_deal,
    )
    search = _Search(_Model(game, native), opts, max_nodes, start + max_seconds, clock)
    # the root's closure and probe: the SAT prover starts from them too
    root = search.model.bounds(probe=True) if dead_check and max_nodes > 0 else None
    if dead_check and max_nodes > 0 and root is None:
        return Solution(Verdict.UNWINNABLE, (), 1, clock() - start)
    run = RESTART_FIRST
    # (the SAT prover's clauses count the copies of a card as two packs have them)
    sat_after = SAT_AFTER if sat and game.variant.decks == 2 else max_nodes + 1
    while True:
        if search.nodes >= sat_after:
            sat_after = max_nodes + 1  # once
            answer = _schedule(search, game, native, start, root)
            if answer is not None:
                return answer
        search.limit = min(max_nodes, search.nodes + run)
        try:
            won = _dfs(search, True, None, 0)
            break
        except _OutOfBudget:
            if search.nodes >= max_nodes or clock() > search.deadline:
                return _unknown(search, max_nodes, clock() - start)
        search.model = _Model(game, native)
        search.line = []
        search.rng = search.rng or random.Random(SEED)
        run = int(run * RESTART_GROWTH)
    seconds = clock() - start
    if not won:
        return Solution(Verdict.UNWINNABLE, (), search.nodes, seconds)
    line = _translate(game, search.model, search.line)
    return Solution(Verdict.WON, line, search.nodes, clock() - start)


def _schedule(
    search: _Search, game: Game, native: bool, start: float, root: _Bounds | None
) -> Solution | None:
    """The SAT prover's answer for ``game`` within what is left of the budgets,
    each of its conflicts counted as a node; None if its order of moves did not
    play (a flaw of its clauses: the search goes on). ``root``: the closure of
    ``game``'s position with the probe, if the search made it."""
    model = _Model(game, native)
    bounds = root if root is not None else model.bounds(probe=True)
    if bounds is None:
        return Solution(Verdict.UNWINNABLE, (), search.nodes, search.clock() - start)
    answer = _sat.schedule(
        model, bounds, search.max_nodes - search.nodes, search.deadline, search.clock
    )
    search.nodes += answer.conflicts
    if answer.lost:
        return Solution(Verdict.UNWINNABLE, (), search.nodes, search.clock() - start)
    if not answer.won:
        return _unknown(search, search.max_nodes, search.clock() - start)
    line = _line_of(model, answer.order)  # (the clauses are written: the model is free)
    if line is None:
        return None
    try:
        won = _translate(game, model, line)
    except (AssertionError, ValueError):
        return None
    return Solution(Verdict.WON, won, search.nodes, search.clock() - start)


def _line_of(model: _Model, order: tuple[int, ...]) -> list[_IMove] | None:
    """The moves that play the events of ``order`` (instances, ``-k`` for deal k) on
    ``model``; None if some event cannot be played where it stands.

    A card that cannot go home by itself goes by an interchange with the next
    event's card.
    """
    line: list[_IMove] = []
    n = 0
    while n < len(order):
        i = order[n]
        n += 1
        if i < 0:
            if any(model.sp) or model.dealt >= len(model.stock):
                return None
            move: _IMove = _DEAL_MOVE
        elif _free(model, i) and model.can_home(i):
            move = (_HOME, i, -1)
        elif n < len(order) and order[n] >= 0 and model.row_of[i] >= 0:
            move = (_SWAP, i, order[n])
            n += 1
        else:
            return None
        model.play(move)
        line.append(move)
    return line if model.mask == 0 else None


def _free(model: _Model, i: int) -> bool:
    """Whether instance ``i`` is available: on top of its reserve pile, or misplaced."""
    pile = model.res_pile[i]
    if pile >= 0:
        return bool(model.res[pile]) and model.res[pile][-1] == i
    return i in model.mis[model.row_of[i]]


def _dead_end(model: _Model, soon: list[int], must: int) -> bool:
    """Whether no line from here ends the phase in a deal, while the stock is not empty.

    Only asked when the position cannot deal at once: a row has a space, or a
    due card is not home.
    """
    if model.dealt >= len(model.stock) or not (any(model.sp) or must & model.mask):
        return False
    return not model.can_end_phase(soon, must)


def _may_close(model: _Model, move: _IMove) -> bool:
    """Whether ``move`` can turn a phase that might end in a deal into a dead end.

    Only a card leaving a row (it opens a space) and a wait (a card that could
    have gone home may not) can; the dead-end test is skipped after other moves.
    """
    kind = move[0]
    return kind == _WAIT or (kind == _HOME and model.row_of[move[1]] >= 0)


def _count_node(search: _Search) -> None:
    """Count one node of ``search``; raise ``_OutOfBudget`` past its limit or deadline."""
    if search.nodes >= search.limit or (
        search.nodes & 255 == 255 and search.clock() > search.deadline
    ):
        raise _OutOfBudget
    search.nodes += 1


def _dfs(
    search: _Search,
    check: bool,
    soon: list[int] | None,
    must: int,
    opened: bool = True,
    orders: dict[int, int] = _NO_ORDERS,
) -> bool:
    """Search from the model's position; ``soon``, ``must`` and ``orders`` come from
    the phase's start.

    ``check``: the position was just dealt (run the fixpoint). ``opened``: the
    move to it may have made the phase a dead end (it opened a space in a row,
    or made a card wait); after any other move, the dead-end test is skipped.
    ``orders``: the orders of copies the probe learnt at the phase's start (see
    "The probe at every deal" in the module docstring).
    """
    _count_node(search)
    model = search.model
    failed = search.failed
    entry = model.key
    if entry in failed:
        return False
    line = search.line
    played: list[_IMove] = []
    while (forced := model.safe(search.opts)) is not None:
        model.play(forced)
        line.append(forced)
        played.append(forced)
    if model.mask == 0:
        return True
    key = model.key if played else entry  # (not in ``failed``: asked above)
    if not played or key not in failed:
        ok = True
        if check and search.opts.dead_check:
            probe = search.opts.probe_every_deal or model.dealt >= len(model.stock)
            bounds = model.bounds(probe, orders)
            ok = bounds is not None
            if bounds is not None:
                soon = bounds.joined
                orders = bounds.after if probe else _NO_ORDERS  # orders every line keeps
                must = 0  # the due cards of the phase before hold no more
                if search.opts.deadlines and model.dealt < len(model.stock):
                    found = model.must(bounds, model.deals)
                    ok = found is not None
                    must = found or 0
        if ok and opened and soon is not None and search.opts.dead_ends:
            ok = not _dead_end(model, soon, must)
        if ok:
            decide = model.decision(soon) if search.opts.decisions else None
            if decide is None:
                moves = model.moves(soon)
                if must & model.mask and moves and moves[-1][0] == _DEAL:
                    moves.pop()  # a card that must be home before the deal is not
                if search.rng is not None and len(moves) > 1:
                    rng = search.rng
                    tail = [moves.pop()] if moves[-1][0] == _DEAL else []
                    if rng.random() < P_SHUFFLE:
                        rng.shuffle(moves)
                    if tail and rng.random() < P_DEAL_FIRST:
                        moves = tail + moves
                    else:
                        moves += tail
            else:
                moves = model.decision_moves(decide[0], decide[1], soon, must, orders)
                if (
                    len(moves) == 2
                    and search.rng is not None
                    and search.rng.random() < P_WAIT_FIRST
                ):
                    moves.reverse()
            for move in moves:
                model.play(move)
                line.append(move)
                dealt = move[0] == _DEAL
                if _dfs(search, dealt, soon, must, dealt or _may_close(model, move), orders):
                    return True
                line.pop()
                model.undo(move)
        failed.add(key)
    if played:
        failed.add(entry)
    for move in reversed(played):
        line.pop()
        model.undo(move)
    return False


def _translate(game: Game, model: _Model, line: list[_IMove]) -> tuple[Move, ...]:
    """The internal winning line as the engine's moves, checked by playing it on a copy."""
    work, out = _replay(game, model, line)
    assert work.is_won()
    return out


def _replay(game: Game, model: _Model, line: list[_IMove]) -> tuple[Game, tuple[Move, ...]]:
    """Play an internal line of ``model`` (built from ``game``) on a copy of ``game``.

    Returns the position reached and the line as the engine's moves; ``Game.play``
    checks every move.
    """
    work = game.copy()
    out: list[Move] = []
    for kind, i, j in line:
        if kind == _WAIT:
            continue
        if kind == _DEAL:
            move = DEAL
        elif kind == _SWAP:
            move = Move(
                Pile("row", model.row_of[i], model.col_of[i]),
                Pile("row", model.row_of[j], model.col_of[j]),
            )
        else:
            card = model.card[i]
            if model.row_of[i] >= 0:
                src = Pile("row", model.row_of[i], model.col_of[i])
            else:
                src = Pile("reserve", 0, model.res_pile[i])
            rank = card >> 2
            if rank == 0:
                dst = ACE_PILE
            else:
                row = (rank - 1) % 3
                piles = work.row(row)
                if rank <= 3:
                    col = next(c for c, p in enumerate(piles) if not p)
                else:
                    pred = card - _STEP3
                    col = next(
                        c
                        for c, p in enumerate(piles)
                        if len(p) > 1 or (p and (p[0] >> 2) == row + 1)
                        if p[-1] == pred
                    )
                dst = Pile("row", row, col)
            move = Move(src, dst)
        work.play(move)
        out.append(move)
    return work, tuple(out)
