"""The SAT prover: a position as clauses over the order of the moves still to come.

``schedule`` states the position (``Encoding``: one variable for each pair of
events a rule names, "a before b", the rules as clauses over them) and asks
CaDiCaL, through PySAT, for a model: its order is a winning line, and no
model proves the position lost. The clauses and why they are sound: "The SAT
prover" in docs/solver.md.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from heapq import heapify, heappop, heappush
from typing import Final

from pysat.solvers import Solver

from .closure import Bounds
from .model import STEP3, Model

# CaDiCaL stops within a few conflicts of a budget (Glucose only at its next restart)
SAT_SOLVER: Final = "cadical195"
CHUNK: Final = 500  # conflicts between two looks at the clock (about 0.05 s)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the SAT solver found: ``order`` (the events of a winning line, in order:
    an instance, or ``-k`` for deal k) when ``won``; ``lost`` when no order exists;
    neither when the budget ran out. ``conflicts``: the work it took."""

    won: bool
    lost: bool
    order: tuple[int, ...]
    conflicts: int


class Encoding:
    """The clauses of a position ("The SAT prover" in docs/solver.md)."""

    def __init__(self, model: Model, bounds: Bounds) -> None:
        self.model = model
        self.bounds = bounds
        cur, last = model.deals, bounds.last
        # events: the pending instances, then the deals to come (as -k)
        self.events: list[int] = list(bounds.pending) + [-k for k in range(cur + 1, last + 1)]
        n = self.n = len(self.events)
        self.index = {e: x for x, e in enumerate(self.events)}
        self.nv = n * n  # variable a * n + b + 1 (a < b) is "event a before event b"
        self.near: list[set[int]] = [set() for _ in range(n)]  # the pairs the clauses name
        self.clauses: list[list[int]] = []
        self.lost = False
        self._rules()
        if not self.lost:
            self.clauses += self._transitivity()

    def before(self, a: int, b: int) -> int:
        """The literal "event a before event b" (event numbers, not instances); the
        pair is one that the order must decide (an edge of ``_transitivity``'s graph)."""
        self.near[a].add(b)
        self.near[b].add(a)
        return a * self.n + b + 1 if a < b else -(b * self.n + a + 1)

    def _new(self) -> int:
        self.nv += 1
        return self.nv

    def _transitivity(self) -> list[list[int]]:
        """Clauses that make the pairs the rules name agree with one total order.

        The rules name a pair variable for only a fifth of the pairs of events.
        A set of "before" pairs agrees with some total order if it has no cycle,
        and for the edges of a chordal graph it is enough that no triangle is a
        cycle (Bryant and Velev, "Boolean satisfiability with transitivity
        constraints", 2002). So the graph of the pairs named is made chordal by
        eliminating its events one by one, fewest neighbours first, joining the
        neighbours of each (its triangles are then the triangles of that
        ordering), and each triangle gets two clauses: no cycle either way.
        About 30,000 triangles a deal, where all triples of events are 200,000.
        """
        n = self.n
        near = [set(x) for x in self.near]  # the graph left to eliminate
        out: list[list[int]] = []
        alive = set(range(n))
        while alive:
            v = min(alive, key=lambda x: (len(near[x]), x))
            alive.discard(v)
            around = sorted(near[v])
            for u in around:
                near[u].discard(v)
            for k, u in enumerate(around):
                for w in around[k + 1 :]:
                    if w not in near[u]:
                        near[u].add(w)
                        near[w].add(u)
                    vu, uw, vw = self.before(v, u), self.before(u, w), self.before(v, w)
                    out.append([-vu, -uw, vw])
                    out.append([vu, uw, -vw])
        return out

    def _rules(self) -> None:
        """The clauses of the rules (docs/solver.md): the deals in order, then
        1. arrival, 2. reserve piles, 3. foundations, 4. spaces."""
        cur, last = self.model.deals, self.bounds.last
        deal = {k: self.index[-k] for k in range(cur + 1, last + 1)}
        for k in range(cur + 1, last):
            self.clauses.append([self.before(deal[k], deal[k + 1])])
        self._arrival(deal)
        self._reserve(deal)
        self._foundations()
        if not self.lost:
            self._spaces(deal)

    def _arrival(self, deal: dict[int, int]) -> None:
        """1. Arrival, soon, and the probe's orders."""
        m, bd, ix = self.model, self.bounds, self.index
        before, add = self.before, self.clauses.append
        for i in bd.pending:
            phase = max(bd.arrive[i], bd.joined[i])
            if phase > m.deals:
                add([before(deal[phase], ix[i])])
        for x, y in bd.after.items():
            if x in ix and y in ix:
                add([before(ix[y], ix[x])])

    def _reserve(self, deal: dict[int, int]) -> None:
        """2. Reserve piles: a card goes home after those above it, unless before their deal."""
        cur, bd, ix = self.model.deals, self.bounds, self.index
        before, add = self.before, self.clauses.append
        for seq in bd.seqs:
            for p, i in enumerate(seq):
                for u in seq[p + 1 :]:
                    if bd.arrive[u] == cur:
                        add([before(ix[u], ix[i])])
                    else:
                        add([before(ix[u], ix[i]), before(ix[i], deal[bd.arrive[u]])])

    def _foundations(self) -> None:
        """3. Foundations: each copy of a card of rank 5 up on a copy of the card below;
        ``lost`` if too few of those are left."""
        m, bd, ix = self.model, self.bounds, self.index
        card, cnt = m.card, m.cnt
        before, add = self.before, self.clauses.append
        copies: dict[int, list[int]] = {}
        for i in bd.pending:
            copies.setdefault(card[i], []).append(ix[i])
        for c, xs in copies.items():
            if c < 16:  # Aces, and bases (their rule is the spaces)
                continue
            ys = copies.get(c - STEP3, [])
            for nth in range(len(xs)):
                need = cnt[c] + 1 + nth - cnt[c - STEP3]
                if need <= 0:
                    continue
                if need > len(ys):
                    self.lost = True  # not enough copies of the card below left
                    return
                if nth == 0:  # every copy has ``need`` of the cards below before it
                    for x in xs:
                        if need == len(ys):
                            for y in ys:
                                add([before(y, x)])
                        else:
                            add([before(y, x) for y in ys])
                elif need == len(ys):  # the later copy: each card below before one of them
                    for y in ys:
                        add([before(y, x) for x in xs])
                else:
                    add([before(y, x) for y in ys for x in xs])

    def _spaces(self, deal: dict[int, int]) -> None:
        """4. Spaces: each base takes one place of its row."""
        m, bd, ix = self.model, self.bounds, self.index
        cur, last = m.deals, bd.last
        before, add = self.before, self.clauses.append
        place: dict[tuple[int, int], int] = {}  # (base, place) -> variable
        for r in range(3):
            bases = bd.bases[r]
            places = [-1 - s for s in range(m.sp[r])] + list(m.mis[r])  # spaces as -1, -2 ...
            if len(bases) != len(places):
                raise AssertionError(f"row {r}: {len(bases)} bases for {len(places)} places")
            for b in bases:
                for p in places:
                    place[b, p] = self._new()
            for b in bases:
                _exactly_one(add, [place[b, p] for p in places])
            for p in places:
                _exactly_one(add, [place[b, p] for b in bases])
            for b in bases:
                for p in places:
                    v = place[b, p]
                    for k in range(cur + 1, last + 1):
                        if p < 0:  # a space open now: filled before the next deal
                            add([-v, before(ix[b], deal[k])])
                        else:  # emptied before deal k: filled before it
                            add([-v, -before(ix[p], deal[k]), before(ix[b], deal[k])])
                    if p < 0:
                        continue
                    back = place.get((p, b))  # p and b could take each other's places
                    if back is None:
                        add([-v, before(ix[p], ix[b])])
                        continue
                    add([-v, back, before(ix[p], ix[b])])
                    if b < p:  # the interchange: one event, placed alike against the others
                        both = [-v, -back]
                        xb, xp = ix[b], ix[p]
                        for e in range(self.n):
                            if e != xb and e != xp:
                                add([*both, -before(e, xb), before(e, xp)])
                                add([*both, before(e, xb), -before(e, xp)])

    def order(self, model: list[int]) -> tuple[int, ...]:
        """The events in an order that agrees with every pair of a model of the clauses
        (a topological order of the pairs named, lowest event first among those free)."""
        true = set(model)
        n = self.n
        later: list[list[int]] = [[] for _ in range(n)]
        waits = [0] * n  # how many events named beside each must come before it
        for a in range(n):
            for b in self.near[a]:
                if a < b:
                    first, then = (a, b) if a * n + b + 1 in true else (b, a)
                    later[first].append(then)
                    waits[then] += 1
        ready = [x for x in range(n) if waits[x] == 0]
        heapify(ready)
        out: list[int] = []
        while ready:
            x = heappop(ready)
            out.append(self.events[x])
            for y in later[x]:
                waits[y] -= 1
                if waits[y] == 0:
                    heappush(ready, y)
        if len(out) != n:
            raise AssertionError("the pairs of a model have a cycle")
        return tuple(out)


def _exactly_one(add: Callable[[list[int]], None], xs: list[int]) -> None:
    add(xs)
    for a in range(len(xs)):
        for b in range(a + 1, len(xs)):
            add([-xs[a], -xs[b]])


def schedule(
    model: Model,
    bounds: Bounds,
    max_conflicts: int,
    deadline: float,
    clock: Callable[[], float],
) -> Answer:
    """Ask the SAT solver for an order of the events of a win from ``model``'s position.

    Two packs only: the foundation clauses count the copies of a card as two.
    """
    if model.copies != 2:
        raise ValueError("the SAT prover's clauses are for games of two packs")
    if clock() >= deadline or max_conflicts <= 0:
        return Answer(False, False, (), 0)
    enc = Encoding(model, bounds)
    if enc.lost:
        return Answer(False, True, (), 0)
    with _ctrl_c_held() as ctrl_c:
        return _search(enc, max_conflicts, deadline, clock, ctrl_c)


def _search(
    enc: Encoding,
    max_conflicts: int,
    deadline: float,
    clock: Callable[[], float],
    ctrl_c: Callable[[], bool],
) -> Answer:
    """``schedule``'s search, in chunks, until an answer, a budget or a Ctrl-C. The SAT
    library's solver lives only in this call, so that it is gone (its ``__del__`` run)
    before ``schedule`` lets Ctrl-C through: a ``KeyboardInterrupt`` raised inside a
    ``__del__`` is printed and dropped, and the study went on as if never interrupted."""
    with Solver(name=SAT_SOLVER, bootstrap_with=enc.clauses) as sat:
        conflicts = 0
        while conflicts < max_conflicts and clock() < deadline and not ctrl_c():
            sat.conf_budget(min(CHUNK, max_conflicts - conflicts))
            found = _solve_limited(sat)
            conflicts = int(sat.accum_stats()["conflicts"])
            if found is not None:
                if found:
                    return Answer(True, False, enc.order(sat.get_model()), conflicts)
                return Answer(False, True, (), conflicts)
        return Answer(False, False, (), conflicts)


@contextmanager
def _ctrl_c_held() -> Iterator[Callable[[], bool]]:
    """Ctrl-C held back while the SAT library's solver lives; yields whether one waits.

    The library is not safe against Ctrl-C: on the main thread it puts in a SIGINT
    handler of its own for each call, which jumps out of the solver's C++ code
    (``longjmp``) wherever it is, and a ``KeyboardInterrupt`` landing just after its C
    delete leaves the solver to be deleted a second time. Either crashed the process
    (a segfault or a double free, in about 3 Ctrl-Cs of 100 in a study).
    With SIGINT blocked from before the solver is made until after it is deleted, the
    loop looks between chunks (about 0.05 s) for a waiting Ctrl-C and stops; the
    signal then arrives as anywhere else: ``KeyboardInterrupt``, or nothing where it is
    ignored (the solver's worker processes). Where signals can't be blocked (Windows),
    nothing is held and the library's error naming the interrupt is raised as
    ``KeyboardInterrupt`` (``_solve_limited``)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield lambda: False
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield _ctrl_c_waits
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _ctrl_c_waits() -> bool:
    """A Ctrl-C is held back, and this process does not ignore it."""
    ignored = signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, None)
    return not ignored and signal.SIGINT in signal.sigpending()


def _solve_limited(sat: Solver) -> bool | None:
    """``sat.solve_limited()``, with the library's error for a Ctrl-C during it (where it
    isn't held back: ``_ctrl_c_held``) raised as ``KeyboardInterrupt``."""
    try:
        found: bool | None = sat.solve_limited()
    except Exception as exc:
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from exc
        raise
    return found
