"""The solver's dead-card fixpoint written the slow, obvious way, as a test oracle.

``engine.solver.closure.fixpoint`` looks only at the topmost card of each
reserve pile not yet joined; this one tests every card not home against every
condition of "Dead cards" in docs/solver.md on every pass, as the first
version of the solver did. The two must agree on every position.

Also the closure's answers the tests ask for: ``dead`` and ``closure``.
"""

from __future__ import annotations

from engine.cards import RANK_STEP3
from engine.solver.closure import NEVER, bounds
from engine.solver.model import Model


def dead(model: Model, probe: bool = False) -> bool:
    """True if some card can provably never go home (the closure, with the probe if asked)."""
    return bounds(model, probe) is None


def closure(model: Model, probe: bool = False) -> list[int] | None:
    """The earliest phase in which each instance might be home, or None if one never can."""
    found = bounds(model, probe)
    return None if found is None else found.joined


def slow_closure(model: Model) -> list[int] | None:
    """The earliest phase each instance may be home (-1 if home), or None if one never can."""
    card = model.card
    n_res = len(model.res)
    cur = model.deals
    arrive = [cur] * len(card)
    above: dict[int, list[int]] = {}
    future: list[list[int]] = [[] for _ in range(n_res)]
    for k in range(model.dealt, len(model.stock)):
        i = model.stock[k]
        arrive[i] = cur + 1 + (k - model.dealt) // n_res
        future[model.res_pile[i]].append(i)
    for j in range(n_res):
        seq = model.res[j] + future[j]
        for pos in range(len(seq) - 1):
            above[seq[pos]] = seq[pos + 1 :]
    last = cur + (len(model.stock) - model.dealt + n_res - 1) // n_res
    pending = [i for i in range(len(card)) if not model.home[i]]
    bases = [[i for i in pending if (card[i] >> 2) == t + 1] for t in range(3)]
    fill_by = [cur, cur, cur]
    prev: list[int] | None = None
    while True:
        joined = _slow_fixpoint(model, arrive, above, last, pending, fill_by)
        if joined is None:
            return None
        if joined == prev:
            return joined
        prev = joined
        fill_by = [min((joined[b] for b in bases[t]), default=NEVER) for t in range(3)]


def _slow_fixpoint(
    model: Model,
    arrive: list[int],
    above: dict[int, list[int]],
    last: int,
    pending: list[int],
    fill_by: list[int],
) -> list[int] | None:
    card = model.card
    cnt = model.cnt
    joined = [-1] * len(card)
    hc = list(cnt)
    inh = list(model.home)
    opened = list(model.sp)
    swap_ok = [[False] * 3 for _ in range(3)]
    for a in range(3):
        for i in model.mis[a]:
            t = (card[i] >> 2) - 1
            if 0 <= t <= 2 and t != a:
                swap_ok[a][t] = True
    for phase in range(model.deals, last + 1):
        changed = True
        while changed:
            changed = False
            for i in pending:
                if inh[i] or arrive[i] > phase:
                    continue
                c = card[i]
                rank = c >> 2
                ups = [u for u in above.get(i, []) if arrive[u] <= phase]
                if not all(inh[u] for u in ups):
                    continue  # condition 2: the cards above go home first
                if rank >= 4:
                    same = sum(1 for u in ups if card[u] == c)
                else:
                    same = sum(1 for u in ups if rank and card[u] >> 2 == rank)
                a = model.row_of[i]
                if rank == 0:
                    ok = True
                elif rank <= 3:  # condition 3 for a base, or an interchange
                    t = rank - 1
                    if a >= 0 and swap_ok[a][t] and swap_ok[t][a]:
                        ok = True
                    else:
                        ok = opened[t] > same and (a < 0 or phase == last or fill_by[a] <= phase)
                else:  # condition 3, and condition 4 for a card leaving a row
                    ok = min(hc[d] for d in range(c - RANK_STEP3, 3, -RANK_STEP3)) > cnt[c] + same
                    ok = ok and (a < 0 or phase == last or fill_by[a] <= phase)
                if ok:
                    inh[i] = True
                    joined[i] = phase
                    hc[c] += 1
                    if a >= 0:
                        opened[a] += 1
                    changed = True
    return None if any(not inh[i] for i in pending) else joined
