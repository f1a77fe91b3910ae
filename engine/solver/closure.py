"""The dead-card closure: the earliest phase each card might be home, and the ordering probe.

``bounds`` runs the fixpoint ("Dead cards" in docs/solver.md) and, asked to,
the ordering probe ("Ordering probe"); its answer (``Bounds``) is what the
search's pruning, the deadlines (phase.py) and the SAT prover start from.
``fixpoint`` and ``ordering_probe`` run their C twins (_native.c) where they
were built; ``fixpoint_py`` and ``ordering_probe_py`` are the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .model import STEP3, Model

# the C loops (_native.c), as C constants of the mypyc build, not looked up at each call
try:
    from . import _native
except ImportError:  # no compiler at install, or the source tree
    _native = None  # type: ignore[assignment]
_C_FIXPOINT: Final = None if _native is None else _native.fixpoint
_C_PROBE: Final = None if _native is None else _native.probe

NEVER: Final = 1 << 30  # a phase after every phase
NO_ORDERS: dict[int, int] = {}  # no order learnt: the search's decisions use none


@dataclass(slots=True)
class Bounds:
    """What the dead-card fixpoint knows at a node (see ``bounds``)."""

    arrive: list[int]  # instance -> phase it is on the board
    seqs: list[list[int]]  # each reserve pile's instances, now and to be dealt, bottom first
    last: int  # the last phase
    pending: list[int]  # instances not home
    bases: list[list[int]]  # row -> its bases not home
    fill_by: list[int]  # row -> first phase a base of it may be home
    after: dict[int, int]  # a waiting card -> its other copy, which goes first
    joined: list[int]  # instance -> earliest phase it may be home ("soon")


def bounds(model: Model, probe: bool = False, known: dict[int, int] = NO_ORDERS) -> Bounds | None:
    """Run the fixpoint ("Dead cards" in docs/solver.md); None if some card never goes home.

    First with no filler condition, then again and again with the filler
    condition asking for a base of the row that joined the previous run's set
    by that phase, until nothing changes. ``known``: orders of copies that
    every winning line from here keeps (learnt by the probe at an earlier
    deal), assumed like the waits; the probe does not ask them again.
    """
    card = model.card
    n_res = len(model.res)
    cur = model.deals
    arrive = [cur] * len(card)
    seqs = [list(pile) for pile in model.res]  # each pile, now and dealt, bottom first
    for k in range(model.dealt, len(model.stock)):
        i = model.stock[k]
        arrive[i] = cur + 1 + (k - model.dealt) // n_res
        seqs[model.res_pile[i]].append(i)
    last = cur + (len(model.stock) - model.dealt + n_res - 1) // n_res
    home = model.home
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
    after = _orders(model, known)
    trace = [0] * len(card) if probe else None
    while True:
        joined = fixpoint(model, arrive, seqs, last, fill_by, after, trace=trace)
        if joined is None:
            return None
        if cur == last:
            break  # no phase before the last: the filler condition never applies
        # the next run depends only on fill_by: if it repeats, so would the run
        nxt = [NEVER, NEVER, NEVER]
        for t in range(3):
            for b in bases[t]:
                if joined[b] < nxt[t]:
                    nxt[t] = joined[b]
        if nxt == fill_by:
            break
        fill_by = nxt
    if trace is not None:
        pairs = probe_pairs(model, pending)
        probed = ordering_probe(model, arrive, seqs, last, fill_by, after, pairs, joined, trace)
        if probed is None:
            return None
        joined, after = probed
    return Bounds(arrive, seqs, last, pending, bases, fill_by, after, joined)


def _orders(model: Model, known: dict[int, int]) -> dict[int, int]:
    """The orders the fixpoint assumes (a card -> the other copy that goes home before
    it): a card of rank 5 up that waits for its other copy goes after it, and so does
    a card of an order ``known`` whose two cards are both out."""
    card = model.card
    home = model.home
    after: dict[int, int] = {}
    waiting = model.waiting
    while waiting:  # each waiting card (one big-integer step a card, not one an instance)
        low = waiting & -waiting
        i = low.bit_length() - 1
        if card[i] >= 16 and model.partner[i] >= 0:
            after[i] = model.partner[i]
        waiting ^= low
    for x, y in known.items():
        if not home[x] and not home[y]:
            after.setdefault(x, y)
    return after


def probe_pairs(model: Model, pending: list[int]) -> list[tuple[int, int]]:
    """The pairs the ordering probe asks about, in its order, among the
    instances ``pending`` (not home): the two copies of a card of rank 5 up
    with fewer than two copies of the card three below home, or of a base;
    then any two bases of one row that are not copies (they compete for its
    spaces as copies do)."""
    card = model.card
    cnt = model.cnt
    group_of = [-1] * len(cnt)  # a card -> its group of copies (-1: none yet)
    groups: list[list[int]] = []  # the copies of each card asked about, in order
    for i in pending:
        c = card[i]
        if (c >= 16 and cnt[c - STEP3] < 2) or 4 <= c < 16:
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


def ordering_probe(
    model: Model,
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
    if model.tables is not None and _C_PROBE is not None:
        return _C_PROBE(
            model.tables,
            model.cnt,
            model.home,
            model.sp,
            model.mis,
            model.deals,
            arrive,
            seqs,
            last,
            fill_by,
            after,
            [i for pair in pairs for i in pair],
            joined,
            trace,
        )
    return ordering_probe_py(model, arrive, seqs, last, fill_by, after, pairs, joined, trace)


def ordering_probe_py(
    model: Model,
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
    "The ordering probe" in docs/solver.md).
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
                found = fixpoint(
                    model,
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


def fixpoint(
    model: Model,
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
    if model.tables is not None and _C_FIXPOINT is not None:
        return _C_FIXPOINT(
            model.tables,
            model.cnt,
            model.home,
            model.sp,
            model.mis,
            model.deals,
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
    return fixpoint_py(model, arrive, seqs, last, fill_by, after, hold, until, base, late, trace)


def fixpoint_py(
    model: Model,
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
    docs/solver.md): the run starts where the constraint first bites,
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
    card = model.card
    row_of = model.row_of
    cnt = model.cnt
    hc = list(cnt)
    inh = list(model.home)
    opened = list(model.sp)  # spaces a row has or can get
    swap_ok = swappable(model)
    first_of: list[int] = []  # a card -> the twin that goes home before it (-1: none)
    if after:
        first_of = [-1] * len(card)
        for x, y in after.items():
            first_of[x] = y
    n_piles = len(seqs)
    stacks: list[list[int]] = [[] for _ in range(n_piles)]  # arrived, not joined (positions)
    dealt = [0] * n_piles  # positions of each pile's sequence on the board by this phase
    start = model.deals
    bound = hold if hold >= 0 else late  # the card whose constraint is new
    behind: list[int] = []  # phase -> instances still out after it in the base run
    if base is None:
        joined = [-1] * len(card)
        loose = [i for row in model.mis for i in row]  # misplaced cards not joined
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
        loose = [i for row in model.mis for i in row if not inh[i]]
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
                    same = same_above(model, seq, pos, top)
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
                    room = spare(hc, cnt, opened, c, same)
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
                        room = spare(hc, cnt, opened, c, same)
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


def same_above(model: Model, seq: list[int], pos: int, top: int) -> int:
    """How many of ``seq[pos + 1 : top]`` (cards above ``seq[pos]`` in its
    reserve pile) take the same resource as it: the same card (a slot on
    its foundation) for rank 5 up, a base of the same row (a space); 0 for
    an Ace."""
    card = model.card
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


def swappable(model: Model) -> list[list[bool]]:
    """``[a][t]``: row ``a`` has a misplaced base of row ``t`` (t != a), so a
    base of each can go home by an interchange if ``[t][a]`` holds too."""
    swap_ok = [[False] * 3 for _ in range(3)]
    for a in range(3):
        for i in model.mis[a]:
            t = (model.card[i] >> 2) - 1
            if 0 <= t <= 2 and t != a:
                swap_ok[a][t] = True
    return swap_ok


def spare(hc: list[int], cnt: list[int], opened: list[int], c: int, same: int) -> int:
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
    return below(hc, c) - cnt[c] - same - 1


def below(hc: list[int], c: int) -> int:
    """How many copies of the card three below ``c`` (a 5 or above) can be home
    together, by the counts ``hc``: no more than of any card under it in its
    foundation (condition 3 of "Dead cards" in docs/solver.md)."""
    d = c - STEP3
    m = hc[d]
    d -= STEP3
    while d >= 4:
        if hc[d] < m:
            m = hc[d]
        d -= STEP3
    return m
