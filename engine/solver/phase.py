"""Within a phase: the cards due before the next deal, and the dead-end test.

``due_by`` finds the cards every winning line puts home before the next deal
("Deadlines" in docs/solver.md); ``can_end_phase`` tells whether any line can
still end the phase in a deal ("Dead ends"), in C where it was built
(``can_end_phase_py`` is the reference).
"""

from __future__ import annotations

from typing import Final

from .closure import Bounds, below, fixpoint, same_above, swappable
from .model import STEP3, Model

# the C loop (_native.c), as a C constant of the mypyc build
try:
    from . import _native
except ImportError:  # no compiler at install, or the source tree
    _native = None  # type: ignore[assignment]
_C_CAN_END_PHASE: Final = None if _native is None else _native.can_end_phase


def due_by(model: Model, b: Bounds, phase: int, start: int = 0) -> int | None:
    """The instances every winning line puts home by the end of ``phase`` (a mask).

    ``start``: instances known to be due by then already (those due by an
    earlier phase). None if they cannot all be home by then. See "Deadlines"
    in docs/solver.md. Only for a phase that ends with a deal.
    """
    card = model.card
    cnt = model.cnt
    joined = b.joined
    arrive = b.arrive
    work, where = _held_due(model, b, phase, start)
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
            pred = c - STEP3
            need = cnt[c] + sum(1 for x in copies[c] if must >> x & 1)
            free = [x for x in copies.get(pred, ()) if joined[x] <= phase]
            if need > cnt[pred] + len(free):
                return None
            if need == cnt[pred] + len(free):
                add(free)
        elif rank >= 1:  # each base home needs a space now or a card leaving its row
            t = rank - 1
            need = sum(1 for x in bases[t] if must >> x & 1)
            free = [x for x in model.mis[t] if joined[x] <= phase]
            if need > model.sp[t] + len(free):
                return None
            if need == model.sp[t] + len(free):
                add(free)
        a = model.row_of[q]
        if a >= 0:  # a card leaving a row: a base fills its space before the deal
            need = model.sp[a] + sum(1 for x in model.mis[a] if must >> x & 1)
            free = [x for x in bases[a] if joined[x] <= phase]
            if need > len(free):
                return None
            if need == len(free):
                add(free)
    return must


def _held_due(
    model: Model, b: Bounds, phase: int, start: int
) -> tuple[list[int], dict[int, tuple[int, int]]]:
    """The due cards ``due_by`` starts from: those of ``start``, and each reserve card
    that a card will be dealt onto whose hold until the next phase loses every line;
    with the pile and the place of each reserve card on the board by ``phase``."""
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
            held = fixpoint(
                model, arrive, b.seqs, b.last, b.fill_by, b.after, q, phase + 1, base=joined
            )
            if held is None:
                work.append(q)
            else:
                break
    return work, where


def can_end_phase(model: Model, soon: list[int], must: int) -> bool:
    """Whether this phase might still end in a deal (see "Dead ends" in docs/solver.md).

    Only while the stock is not empty. ``soon`` and ``must`` come from the
    phase's start. False if no line from here can fill every space of the
    rows and put every due card home before the next deal. In C where it
    was built (``can_end_phase_py`` is the same function).
    """
    if model.tables is not None and _C_CAN_END_PHASE is not None:
        size = (len(model.card) + 7) >> 3
        return _C_CAN_END_PHASE(
            model.tables,
            model.cnt,
            model.home,
            model.sp,
            model.res,
            model.mis,
            soon,
            model.deals,
            model.waiting.to_bytes(size, "little"),
            (must & model.mask).to_bytes(size, "little"),
        )
    return can_end_phase_py(model, soon, must)


def can_end_phase_py(model: Model, soon: list[int], must: int) -> bool:
    """``can_end_phase`` in Python."""
    # (``x[k] = x[k] + 1``, not ``x[k] += 1``: see ``fixpoint_py`` in closure.py)
    card = model.card
    cnt = model.cnt
    home = model.home
    deals = model.deals
    waits: set[int] = set()
    w = model.waiting
    while w:
        low = w & -w
        waits.add(low.bit_length() - 1)
        w ^= low
    if not must & model.mask:
        # quick answer: a free base on top of a reserve pile for each space
        need = list(model.sp)
        for pile in model.res:
            if pile:
                i = pile[-1]
                t = (card[i] >> 2) - 1
                if 0 <= t <= 2 and need[t] > 0 and soon[i] <= deals and i not in waits:
                    need[t] = need[t] - 1
        if not any(need):
            return True
    swap_ok = swappable(model)
    # a base of the row may go home by an interchange, taking no space
    swap_row = [any(swap_ok[a][t] and swap_ok[t][a] for a in range(3)) for t in range(3)]
    fill_ok = [True, True, True]
    while True:
        inh = list(home)
        hc = list(cnt)
        opened = list(model.sp)
        bases = [0, 0, 0]  # bases of each row that join
        tops = [len(pile) - 1 for pile in model.res]
        loose = [i for row in model.mis for i in row]
        changed = True
        while changed:
            changed = False
            for j, pile in enumerate(model.res):
                k = tops[j]
                while k >= 0:
                    i = pile[k]
                    if soon[i] > deals:
                        break
                    c = card[i]
                    rank = c >> 2
                    # the cards above it (all in) that used its slot or space
                    same = same_above(model, pile, k, len(pile))
                    if i in waits:
                        # its rival goes home first, on a slot or a space of its own
                        # (unless it lies above, counted already, or is a base that may
                        # go home by an interchange, which takes no space)
                        if rank >= 4:
                            y = model.partner[i]
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
                    elif below(hc, c) <= cnt[c] + same:
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
                a = model.row_of[i]
                ok = soon[i] <= deals
                same = 0
                if ok and i in waits:
                    if rank >= 4:
                        y = model.partner[i]
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
                        ok = below(hc, c) > cnt[c] + same and fill_ok[a]
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
        if any(model.sp[t] > bases[t] for t in range(3)):
            return False
        due = must & model.mask
        while due:
            low = due & -due
            if not inh[low.bit_length() - 1]:
                return False
            due ^= low
        nxt = [bases[t] > 0 for t in range(3)]
        if nxt == fill_ok:
            return True
        fill_ok = nxt


def dead_end(model: Model, soon: list[int], must: int) -> bool:
    """Whether no line from here ends the phase in a deal, while the stock is not empty.

    Only asked when the position cannot deal at once: a row has a space, or a
    due card is not home.
    """
    if model.dealt >= len(model.stock) or not (any(model.sp) or must & model.mask):
        return False
    return not can_end_phase(model, soon, must)
