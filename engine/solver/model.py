"""The solver's compact position: instances, play and undo, the legal moves, the key.

Every card on the board or in the stock is an *instance* (an index), home or
not; the search plays on this model, not on ``Game``. The design and why each
rule is sound: docs/solver.md.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from typing import Final

from ..cards import RANK_STEP3
from ..game import Game
from ..variant import Variant

# The C loops (engine/solver/_native.c), built by setup.py where a C compiler is
# at hand; without them the solver runs their Python twins (closure.py, phase.py).
try:
    from . import _native
except ImportError:  # no compiler at install, or the source tree
    _native = None  # type: ignore[assignment]
NATIVE: Final = _native is not None

# (Final: mypyc compiles these to C constants, not look-ups in the module's dict)
STEP3: Final = RANK_STEP3  # card + STEP3: the same suit, three ranks higher

# Internal moves: (HOME, i, -1) puts instance i home; (SWAP, i, j) interchanges
# two misplaced instances; (DEAL, -1, -1) deals; (WAIT, i, -1) is no move of
# the game but a decision of the search: instance i goes home only after its
# rival (see "Ordering decisions" in docs/solver.md).
HOME: Final = 0
SWAP: Final = 1
DEAL: Final = 2
WAIT: Final = 3
DEAL_MOVE: Final = (DEAL, -1, -1)
IMove = tuple[int, int, int]


def models(variant: Variant) -> bool:
    """Whether the model plays ``variant``: its reserve is refilled only by a deal, and the
    deal needs no space in the rows (Virginia Reel, Three Up). The general search
    (general.py) plays the others."""
    return variant.reserve_refill == "deal" and variant.deal_needs_no_space


@dataclass(slots=True)
class Options:
    """The search's switches (``solve``'s keywords): each safe-move rule and each pruning."""

    safe_aces: bool
    safe_builds: bool
    safe_fills: bool
    dead_check: bool
    decisions: bool
    deadlines: bool
    dead_ends: bool
    probe_every_deal: bool


class Model:
    """The compact position the search plays on."""

    def __init__(self, game: Game, native: bool = True) -> None:
        v = game.variant
        if not models(v):
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
        self._place(game)
        self.home = [False] * len(self.card)
        # the other copy of a card of rank 5 up (-1 if it is home already, or if
        # the game has more than two packs: no ordering decision for those)
        self.partner = _partners(self.card, self.copies)
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

    def _place(self, game: Game) -> None:
        """Count the cards home of ``game`` and make an instance of every other card."""
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
        n_res = len(self.res)
        for k, card in enumerate(game.stock):
            self.stock.append(self._new(card, k % n_res, -1, -1))
        for ace in game.ace_pile_cards():
            self.cnt[ace] += 1

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

    def play(self, move: IMove) -> None:
        kind, i, j = move
        waiting = self.waiting
        self.log.append(waiting)
        if waiting:
            # a card home ends the wait of its rivals: the other copy of a card of
            # rank 5 up, the other bases of a row
            if kind == HOME:
                rank = self.card[i] >> 2
                if 1 <= rank <= 3:
                    waiting &= ~self.base_mask[rank - 1]
                else:
                    waiting &= ~(1 << i)
                    if self.partner[i] >= 0:
                        waiting &= ~(1 << self.partner[i])
            elif kind == SWAP:
                waiting &= ~self.base_mask[(self.card[i] >> 2) - 1]
                waiting &= ~self.base_mask[(self.card[j] >> 2) - 1]
            self.waiting = waiting
        if kind == WAIT:
            self.waiting = waiting | 1 << i
        elif kind == HOME:
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
        elif kind == SWAP:
            self.mis[self.row_of[i]].remove(i)
            self.mis[self.row_of[j]].remove(j)
            self.cnt[self.card[i]] += 1
            self.cnt[self.card[j]] += 1
            self.home[i] = self.home[j] = True
            self.mask ^= (1 << i) | (1 << j)
        elif kind == DEAL:
            n = min(len(self.res), len(self.stock) - self.dealt)
            for k in range(n):
                self.res[k].append(self.stock[self.dealt + k])
            self.dealt += n
            self.deal_sizes.append(n)
            self.deals += 1

    def undo(self, move: IMove) -> None:
        kind, i, j = move
        self.waiting = self.log.pop()
        if kind == HOME:
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
        elif kind == SWAP:
            insort(self.mis[self.row_of[i]], i)
            insort(self.mis[self.row_of[j]], j)
            self.cnt[self.card[i]] -= 1
            self.cnt[self.card[j]] -= 1
            self.home[i] = self.home[j] = False
            self.mask ^= (1 << i) | (1 << j)
        elif kind == DEAL:
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
        pred = card - STEP3
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

    def safe(self, opts: Options) -> IMove | None:
        """A safe move (see "Safe moves" in docs/solver.md), or None."""
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
                    return (HOME, i, -1)
            elif rank <= 3:
                if opts.safe_fills and self._fill_is_safe(rank):
                    return (HOME, i, -1)
            elif opts.safe_builds:
                slots = cnt[c - STEP3] - cnt[c]
                if slots > 0 and (
                    slots >= copies - cnt[c]
                    or sum(1 for k in pile if card[k] == c) == copies - cnt[c]
                ):
                    return (HOME, i, -1)
        if self.dealt < len(self.stock):
            return None
        # the stock is empty: a card may leave a row (spaces no longer matter)
        for row in self.mis:
            for i in row:
                c = card[i]
                rank = c >> 2
                if rank == 0:
                    if opts.safe_aces:
                        return (HOME, i, -1)
                elif rank <= 3:
                    if opts.safe_fills and self._fill_is_safe(rank):
                        return (HOME, i, -1)
                elif opts.safe_builds:
                    slots = cnt[c - STEP3] - cnt[c]
                    if slots > 0 and slots >= copies - cnt[c]:
                        return (HOME, i, -1)
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
        "Ordering decisions" in docs/solver.md); ``forced`` if its rivals
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
            slots = cnt[c - STEP3] - cnt[c]
            if slots <= 0 or slots >= self.copies - cnt[c]:
                continue
            other = self.partner[i]
            if other < 0 or self.home[other]:
                continue
            return i, bool(waiting >> other & 1)
        return None

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
    ) -> list[IMove]:
        """The children of the ordering decision on ``i``: home now, wait, or both.

        ``forced`` as ``decision`` says; ``soon`` and ``must`` from the phase's
        start; ``after``: orders every winning line keeps (a card -> the twin it
        goes home after, as ``bounds(model, probe=True)`` learns them).
        """
        twin = self.partner[i]
        if forced or (twin >= 0 and after.get(twin, -1) == i):
            return [(HOME, i, -1)]
        if twin >= 0 and after.get(i, -1) == twin:
            return [(WAIT, i, -1)]
        if 1 <= self.card[i] >> 2 <= 3:
            first = after.get(i, -1)  # a base goes home after another base of its row
            if first >= 0 and not self.home[first]:
                return [(WAIT, i, -1)]
        if must >> i & 1 and soon is not None and self.stuck_waiting(i, soon):
            return [(HOME, i, -1)]  # waiting would keep it out past the deal
        return [(HOME, i, -1), (WAIT, i, -1)]

    def moves(self, soon: list[int] | None = None) -> list[IMove]:
        """Legal moves, most promising first; the deal last.

        With ``soon`` (each instance's earliest phase home, from ``closure``),
        leave out the moves of cards that cannot go home in this phase.
        """
        builds: list[IMove] = []
        fills: list[IMove] = []
        opens: list[IMove] = []
        swaps: list[IMove] = []
        deals = self.deals
        waiting = self.waiting
        for i in self.available():
            if waiting >> i & 1 or not self.can_home(i) or (soon is not None and soon[i] > deals):
                continue
            move = (HOME, i, -1)
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
                        swaps.append((SWAP, i, j))
        out = builds + swaps + fills + opens
        if self.dealt < len(self.stock) and not any(self.sp):
            out.append(DEAL_MOVE)
        return out


def _partners(card: list[int], copies: int) -> list[int]:
    """Each instance's other copy, for the cards of rank 5 up of a two-pack game (-1 else)."""
    partner = [-1] * len(card)
    first: dict[int, int] = {}
    for i, c in enumerate(card):
        if c >= 16 and copies == 2:
            if c in first:
                partner[i] = first[c]
                partner[first[c]] = i
            else:
                first[c] = i
    return partner
