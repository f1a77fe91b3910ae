"""Solver tests: winning lines replay through the engine, lost positions are proven lost,
the budgets hold, and no safe-move rule or pruning ever changes a verdict."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable

import pytest
from positions import WON_ROWS, board, position_key
from slow_closure import closure, dead, slow_closure

from engine import DEAL, Game, Move, Status, solver
from engine.notation import format_position, parse_position
from engine.solver import Solution, Verdict, phase
from engine.solver import closure as closure_module
from engine.solver import search as search_module
from engine.solver.closure import NO_ORDERS, bounds, fixpoint, probe_pairs
from engine.solver.model import DEAL as DEAL_KIND
from engine.solver.model import HOME, SWAP, WAIT, Model
from engine.solver.phase import can_end_phase, due_by
from engine.solver.search import Search
from engine.variant import THREE_UP


def solve(game: Game, **budgets_and_switches: object) -> Solution:
    """The search alone, without the SAT prover it hands hard positions to (that
    one has tests of its own, test_sat.py): these tests are of the search's rules."""
    return solver.solve(game, sat=False, **budgets_and_switches)  # type: ignore[arg-type]


# Deals the solver wins within a few thousand nodes.
QUICK_WINS = (3, 10, 16, 19, 28)


def replays_to_a_win(game: Game, solution: Solution) -> bool:
    work = game.copy()
    for move in solution.line:
        work.play(move)  # raises IllegalMoveError if the line is wrong
    return work.status is Status.WON


@pytest.mark.parametrize("deal", QUICK_WINS)
def test_a_winning_line_replays_to_a_win_from_the_deal(deal: int) -> None:
    solution = solve(Game.new(deal), max_nodes=100_000, max_seconds=60)
    assert solution.verdict is Verdict.WON
    game = Game.new(deal)
    for move in solution.line:
        game.play(move)
    assert game.status is Status.WON
    assert game.score == 104


def test_solve_leaves_the_game_unchanged() -> None:
    game = Game.new(QUICK_WINS[0])
    game.play(game.legal_moves()[0])
    before = (format_position(game), game.history)
    solve(game, max_nodes=5_000)
    assert (format_position(game), game.history) == before


def test_a_line_from_a_position_in_mid_game_replays() -> None:
    game = Game.new(QUICK_WINS[1])
    full = solve(game, max_nodes=100_000, max_seconds=60)
    assert full.verdict is Verdict.WON
    for move in full.line[:40]:
        game.play(move)
    middle = parse_position(format_position(game))
    solution = solve(middle, max_nodes=100_000, max_seconds=60)
    assert solution.verdict is Verdict.WON
    assert replays_to_a_win(middle, solution)


# ---------------------------------------------------------------- hand-built positions

# Spades of row A: A1 and A5 are the two spade piles. Hearts (A6) stay playable so
# that every position has legal moves that lead nowhere.
HEARTS_TO_PLAY = {"A6": "2H5H"}


def test_the_only_two_buried_under_a_card_that_needs_it_is_lost() -> None:
    # A5 is a space and the second 2♠ is at the bottom of R1 under 5♠ 8♠ J♠: the J♠
    # needs an 8♠ on a pile, but the only spade pile of row A is complete.
    position = board(
        WON_ROWS | HEARTS_TO_PLAY | {"A1": "2S5S8SJS", "A5": "-"},
        ["2S5S8SJS", "JH8H", "AH"],
        aces=7,
        stock="-",
    )
    game = parse_position(position)
    assert game.legal_moves()  # the hearts and the Ace can still move
    for dead_check in (True, False):
        solution = solve(game, dead_check=dead_check)
        assert solution.verdict is Verdict.UNWINNABLE
        assert solution.line == ()


def test_two_jacks_each_covering_an_eight_the_other_needs_is_lost() -> None:
    # Both 8♠ lie under a J♠, and each J♠ needs an 8♠ on its pile first.
    position = board(
        WON_ROWS | HEARTS_TO_PLAY | {"A1": "2S5S", "A5": "2S5S"},
        ["8SJS", "JH8H", "8SJS"],
        aces=8,
        stock="-",
    )
    game = parse_position(position)
    for dead_check in (True, False):
        assert solve(game, dead_check=dead_check).verdict is Verdict.UNWINNABLE


def test_a_space_no_two_can_fill_before_the_deal_is_lost() -> None:
    # A5 is a space, both 2♠ are home or in the stock, and the stock can't be dealt
    # while the space is open.
    position = board(
        WON_ROWS | HEARTS_TO_PLAY | {"A5": "-"},
        ["JH8H"],
        aces=8,
        stock="2S5S8SJS",
    )
    game = parse_position(position)
    assert game.legal_moves() and DEAL not in game.legal_moves()
    for dead_check in (True, False):
        assert solve(game, dead_check=dead_check).verdict is Verdict.UNWINNABLE


def test_two_copies_competing_for_one_slot_are_both_tried() -> None:
    # One 5♠ is home (A1) and two 8♠ want it. Playing R1's 8♠ there first loses (R2's
    # 8♠ then covers the 5♠ it needs); R2's first wins. The first version of the
    # solver built reserve cards blindly and called this position lost.
    position = board(WON_ROWS | {"A1": "2S5S", "A5": "2S"}, ["JSJS8S", "5S8S"], aces=8, stock="-")
    game = parse_position(position)
    solution = solve(game)
    assert solution.verdict is Verdict.WON
    assert replays_to_a_win(game, solution)
    assert str(solution.line[0]) == "R2 A1"


def test_two_bases_for_one_space_are_both_tried() -> None:
    # One space in row A (A5) and two Twos for it. Filling it with R1's 2♠ loses:
    # the 2♥ then needs the space the Q♦ misplaced in A6 would leave, and the Q♦
    # needs the 9♦ under the 2♥. The 2♥ first wins. The ordering decision tries
    # the 2♠ first, then makes it wait for another Two, which forces the 2♥.
    position = board(
        WON_ROWS | {"A5": "-", "A6": "QD", "B3": "3D6D"},
        ["JS8S5S2S", "9D2H", "JH8H5H"],
        aces=8,
        stock="-",
    )
    game = parse_position(position)
    for decisions in (True, False):
        solution = solve(game, decisions=decisions)
        assert solution.verdict is Verdict.WON
        assert replays_to_a_win(game, solution)
        assert str(solution.line[0]) == "R2 A5"


def test_a_card_freeing_the_filler_may_need_the_card_that_leaves_the_space() -> None:
    # The 5♥ misplaced in A6 can go on the 2♥ in A2, but its space must be filled
    # before the deal, and the only 2♥ lies under an 8♥ that needs that very 5♥:
    # 5♥ to A2, 8♥ onto it, 2♥ into the space, deal, and the rest goes home. The
    # dead-card check must not ask for the filler to be free before the 5♥ moves.
    position = board(WON_ROWS | {"A2": "2H", "A6": "5H"}, ["2H8H"], aces=8, stock="5H8HJHJH")
    game = parse_position(position)
    for dead_check in (True, False):
        solution = solve(game, dead_check=dead_check)
        assert solution.verdict is Verdict.WON
        assert replays_to_a_win(game, solution)


def test_two_copies_that_each_must_go_second_are_lost() -> None:
    # A1 holds the only free 5♠ slot. The 8♠ of R1 lies on the second 5♠ under a
    # J♠ that needs an 8♠ home first, so it cannot be the first 8♠ home; nor can it
    # be the second, whose slot is the 5♠ under it. Each 8♠ alone could go first,
    # so the plain dead-card closure passes; trying both orders of the two 8♠ does
    # not (the ordering probe run at the root).
    position = board(
        WON_ROWS | HEARTS_TO_PLAY | {"A1": "2S5S", "A5": "2S"},
        ["5S8SJS", "8S", "JS", "JH8H"],
        aces=8,
        stock="-",
    )
    game = parse_position(position)
    model = Model(game)
    assert not dead(model) and dead(model, probe=True)
    assert solve(game).nodes == 1  # proven at the root
    for dead_check in (True, False):
        assert solve(game, dead_check=dead_check).verdict is Verdict.UNWINNABLE


def test_a_jack_under_its_twin_over_the_two_its_pile_needs_is_lost() -> None:
    # R1 holds, from the bottom, the second 2♠ and two J♠; A5 is a space and A1 the
    # only spade pile of row A. The J♠ under its twin must be the second J♠ home, so
    # it needs a second 8♠ home, on a second 5♠, on the second 2♠: the one under it.
    # Each 8♠ and each 5♠ alone finds a copy of the card three below, so counting
    # those lets every card join; the fewest copies along the foundation (one 2♠)
    # do not, and the closure proves it at the root.
    position = board(
        WON_ROWS | HEARTS_TO_PLAY | {"A1": "2S", "A5": "-"},
        ["2SJSJS", "5S", "5S", "8S", "8S", "JH8H"],
        aces=8,
        stock="-",
    )
    game = parse_position(position)
    for native in (True, False):
        assert dead(Model(game, native))
    assert solve(game).nodes == 1
    for dead_check in (True, False):
        assert solve(game, dead_check=dead_check).verdict is Verdict.UNWINNABLE


def test_a_won_position_is_won_with_an_empty_line() -> None:
    game = parse_position(board(WON_ROWS, aces=8, stock="-"))
    solution = solve(game)
    assert solution.verdict is Verdict.WON and solution.line == ()


def test_the_key_ignores_the_order_of_piles_in_a_row() -> None:
    a = board(WON_ROWS | {"A1": "2S5S", "A5": "2S"}, ["JSJS8S", "5S8S"], aces=8, stock="-")
    b = board(WON_ROWS | {"A5": "2S5S", "A1": "2S"}, ["JSJS8S", "5S8S"], aces=8, stock="-")
    c = board(WON_ROWS | {"A1": "2S5S", "A5": "2S"}, ["5S8S", "JSJS8S"], aces=8, stock="-")
    key = position_key(parse_position(a))
    assert position_key(parse_position(b)) == key
    assert position_key(parse_position(c)) != key


def test_a_variant_the_model_does_not_play_is_refused_by_the_model() -> None:
    game = parse_position(board(WON_ROWS, aces=8, stock="-", variant="bj"))
    with pytest.raises(ValueError, match="Blue Jacket"):
        Model(game)


def test_a_variant_the_model_does_not_play_is_answered_by_the_general_search() -> None:
    # Blue Jacket, the Aces home and every pile built but A1's Jack, on the reserve
    rows = WON_ROWS | {"A1": "2S5S8S"}
    game = parse_position(board(rows, ["JS"], aces=8, stock="-", variant="bj"))
    solution = solve(game, max_nodes=100)
    assert solution.verdict is Verdict.WON
    assert [str(m) for m in solution.line] == ["R1 A1"]


# ---------------------------------------------------------------- budgets


def test_the_node_budget_is_respected() -> None:
    for budget in (1, 50, 700):
        solution = solve(Game.new(1), max_nodes=budget, max_seconds=60)
        assert solution.verdict is Verdict.UNKNOWN
        assert solution.nodes <= budget
        assert solution.line == ()
        assert solution.stopped_by == "nodes"


def test_the_time_budget_is_respected() -> None:
    solution = solve(Game.new(1), max_nodes=10**9, max_seconds=0.0)
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.nodes < 1_000  # the clock is read every 256 nodes
    assert solution.stopped_by == "time"
    assert solve(Game.new(16)).stopped_by == ""  # decided: no budget ran out


def test_the_time_budget_is_read_on_the_clock_given() -> None:
    ticks = itertools.count()  # a clock that moves one second each time it is read
    solution = solve(
        Game.new(1), max_nodes=10**9, max_seconds=5.0, clock=lambda: float(next(ticks))
    )
    assert solution.verdict is Verdict.UNKNOWN
    assert solution.seconds >= 5.0
    assert solution.nodes < 5_000  # a few reads of the clock, not the wall's seconds


# ---------------------------------------------------------------- verdicts kept


def late_positions(count: int) -> list[Game]:
    """Small trees, about half of them won: positions late on the winning lines of
    QUICK_WINS, each after a few random moves (often mistakes), and positions
    from random play with at most one deal left."""
    rng = random.Random(6)
    found: list[Game] = []
    for deal in QUICK_WINS:
        line = solve(Game.new(deal), max_nodes=100_000, max_seconds=60).line
        for _ in range(count // (2 * len(QUICK_WINS))):
            game = Game.new(deal)
            for move in line[: rng.randrange(len(line) // 2, len(line))]:
                game.play(move)
            for _ in range(rng.randrange(4)):
                if moves := game.legal_moves():
                    game.play(rng.choice(moves))
            found.append(game)
    deal = 1000
    while len(found) < count:
        game = Game.new(deal)
        while game.deals_left > 2 and (moves := game.legal_moves()):
            plays = [m for m in moves if not m.is_deal]
            game.play(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(moves))
        for _ in range(rng.randrange(8)):
            if moves := [m for m in game.legal_moves() if not m.is_deal]:
                game.play(rng.choice(moves))
        found.append(game)
        deal += 1
    return [parse_position(format_position(g)) for g in found]


LATE = late_positions(400)
SWITCHES = (
    "safe_aces",
    "safe_builds",
    "safe_fills",
    "dead_check",
    "decisions",
    "deadlines",
    "dead_ends",
    "probe_every_deal",
)


BUDGET = 5_000
# (the probe at every deal on in every build: off by default in pure Python)
ON = [solve(game, max_nodes=BUDGET, max_seconds=60, probe_every_deal=True) for game in LATE]


def solve_without(game: Game, *off: str) -> Solution:
    """``solve`` within ``BUDGET`` with the switches named in ``off`` turned off."""
    on = {name: name not in off for name in SWITCHES}
    return solve(
        game,
        max_nodes=BUDGET,
        max_seconds=60,
        safe_aces=on["safe_aces"],
        safe_builds=on["safe_builds"],
        safe_fills=on["safe_fills"],
        dead_check=on["dead_check"],
        decisions=on["decisions"],
        deadlines=on["deadlines"],
        dead_ends=on["dead_ends"],
        probe_every_deal=on["probe_every_deal"],
    )


def test_the_probed_closure_never_calls_a_won_position_lost() -> None:
    # The closure (with the ordering probe) is a proof of loss: wherever it says
    # dead, the search without it must not find a win; and it must say dead often.
    proven = 0
    for game, on in zip(LATE, ON, strict=True):
        if not dead(Model(game), probe=True):
            continue
        proven += 1
        plain = solve(game, max_nodes=BUDGET, max_seconds=60, dead_check=False)
        assert plain.verdict is not Verdict.WON, format_position(game)
        assert on.verdict is Verdict.UNWINNABLE
    assert proven >= 50


@pytest.mark.parametrize("switch", SWITCHES)
def test_each_rule_switched_off_keeps_every_verdict(switch: str) -> None:
    decided = 0
    verdicts = {Verdict.WON: 0, Verdict.UNWINNABLE: 0}
    for game, on in zip(LATE, ON, strict=True):
        off = solve_without(game, switch)
        if Verdict.UNKNOWN in (on.verdict, off.verdict):
            continue
        assert on.verdict is off.verdict, format_position(game)
        decided += 1
        verdicts[on.verdict] += 1
        if on.verdict is Verdict.WON:
            assert replays_to_a_win(game, on) and replays_to_a_win(game, off)
    assert decided >= 360
    assert min(verdicts.values()) >= 100  # both verdicts are exercised


def test_everything_switched_off_agrees_with_everything_on() -> None:
    compared = 0
    for game, on in zip(LATE, ON, strict=True):
        plain = solve_without(game, *SWITCHES)
        if Verdict.UNKNOWN not in (on.verdict, plain.verdict):
            assert on.verdict is plain.verdict, format_position(game)
            compared += 1
    assert compared >= 340


# ---------------------------------------------------------------- the closure and deadlines


def test_the_fast_closure_agrees_with_the_slow_one() -> None:
    # The solver's fixpoint looks only at the top card of each reserve pile not yet
    # in; the slow oracle tests every card on every pass. Same phases everywhere.
    dead = 0
    for game in LATE + [Game.new(deal) for deal in range(1, 60)]:
        model = Model(game)
        fast = closure(model)
        assert fast == slow_closure(model), format_position(game)
        dead += fast is None
    assert dead >= 20


def probe_by_runs_from_the_start(model: Model) -> tuple[dict[int, int], list[int]] | None:
    """The ordering probe as first written: every order tried by a run of the
    fixpoint of its own from the phase's start, learnt orders rerun at the end."""
    b = bounds(model)
    if b is None:
        return None
    ordered = dict(b.after)
    changed = True
    while changed:
        changed = False
        for x, y in probe_pairs(model, b.pending):
            if x in ordered or y in ordered:
                continue
            x_late = fixpoint(model, b.arrive, b.seqs, b.last, b.fill_by, ordered | {x: y})
            y_late = fixpoint(model, b.arrive, b.seqs, b.last, b.fill_by, ordered | {y: x})
            if x_late is None and y_late is None:
                return None
            if x_late is None:
                ordered[y] = x
                changed = True
            elif y_late is None:
                ordered[x] = y
                changed = True
    joined = fixpoint(model, b.arrive, b.seqs, b.last, b.fill_by, ordered)
    return None if joined is None else (ordered, joined)


def probe_positions() -> list[Game]:
    """Positions to probe: late ones, deals' starts, and phase starts of hard deals."""
    starts = phase_starts((11, 9, 2, 6, 20, 21, 43, 58), 120)
    return LATE[::4] + [Game.new(deal) for deal in range(1, 16)] + starts[::12]


def test_the_probe_resuming_runs_learns_what_runs_from_the_start_learn() -> None:
    # The probe resumes each run where its order first bites and stops it once it
    # has caught up, and skips an order its base run keeps with a slot to spare:
    # the same orders, the same phases, the same lost positions as running every
    # order from the phase's start.
    learnt = lost = 0
    for game in probe_positions():
        model = Model(game)
        b = bounds(model, probe=True)
        plain = probe_by_runs_from_the_start(model)
        assert (b is None) == (plain is None), format_position(game)
        if b is None or plain is None:
            lost += 1
            continue
        assert (b.after, b.joined) == plain, format_position(game)
        learnt += len(b.after) > len(bounds(model).after)  # type: ignore[union-attr]
    assert learnt >= 50 and lost >= 30


def test_a_resumed_run_of_the_fixpoint_is_the_run_from_the_start() -> None:
    # For each order the probe may ask and each card the deadlines may hold: the
    # run resumed from a base run gives the same phases and the same trace as a run
    # from the phase's start, and an order the base run keeps with a slot to spare
    # changes nothing.
    resumed = spared = held = 0
    for game in probe_positions():
        model = Model(game)
        b = bounds(model)
        if b is None:
            continue
        args = (b.arrive, b.seqs, b.last, b.fill_by)
        size = len(model.card)
        trace = [0] * size
        base = fixpoint(model, *args, b.after, trace=trace)
        assert base == b.joined
        for x, y in probe_pairs(model, b.pending):
            for late, first in ((x, y), (y, x)):
                after = b.after | {late: first}
                whole = [0] * size
                plain = fixpoint(model, *args, after, trace=whole)
                part = list(trace)
                again = fixpoint(model, *args, after, base=base, late=late, trace=part)
                assert again == plain, format_position(game)
                assert plain is None or part == whole, format_position(game)
                resumed += 1
                first_went_first = (base[first], trace[first]) < (base[late], trace[late])
                if first_went_first and trace[late] & 1:
                    assert plain == base, format_position(game)
                    spared += 1
        if model.dealt < len(model.stock):
            for q in (i for pile in model.res for i in pile if base[i] == model.deals):
                until = model.deals + 1
                plain = fixpoint(model, *args, b.after, q, until)
                again = fixpoint(model, *args, b.after, q, until, base=base)
                assert again == plain, format_position(game)
                held += 1
    assert resumed >= 4000 and spared >= 1000 and held >= 500


def due_cards(game: Game) -> tuple[Model, int | None] | None:
    """The solver's model of ``game`` and the cards due before its next deal."""
    model = Model(game)
    if model.dealt >= len(model.stock):
        return None
    found = bounds(model)
    if found is None:
        return None
    return model, due_by(model, found, model.deals)


def still_at_its_place(game: Game, model: Model, i: int) -> bool:
    """Whether instance ``i`` of ``model`` (built from an earlier position) has not moved."""
    if model.res_pile[i] >= 0:
        pile = game.reserve[model.res_pile[i]]
        depth = model.res[model.res_pile[i]].index(i)
        return len(pile) > depth
    pile = game.row(model.row_of[i])[model.col_of[i]]
    return len(pile) == 1 and pile[0] == model.card[i]


def positions_met(
    deals: tuple[int, ...],
    per_deal: int,
    seed: int,
    wanted: Callable[[Search, bool, list[int] | None, int], bool],
) -> list[Game]:
    """Positions the search meets in ``deals`` (15,000 nodes each) where ``wanted``
    holds (it sees the search and the node's arguments), a sample of each deal's."""
    rng = random.Random(seed)
    found: list[Game] = []
    dfs = search_module.dfs
    for deal in deals:
        game = Game.new(deal)
        lines: list[list[object]] = []

        def spy(
            search: Search,
            check: bool,
            soon: list[int] | None,
            must: int,
            opened: bool = True,
            orders: dict[int, int] = NO_ORDERS,
            lines: list[list[object]] = lines,
        ) -> bool:
            if wanted(search, check, soon, must):
                lines.append(list(search.line))
            return dfs(search, check, soon, must, opened, orders)

        search_module.dfs = spy
        try:
            solve(game, max_nodes=15_000, max_seconds=60)
        finally:
            search_module.dfs = dfs
        model = Model(game)
        for line in rng.sample(lines, min(per_deal, len(lines))):
            position, _ = search_module.replay(game, model, line)  # type: ignore[arg-type]
            found.append(parse_position(format_position(position)))
    return found


@functools.cache
def phase_starts(deals: tuple[int, ...], per_deal: int) -> list[Game]:
    """Positions just after a deal with deals still to come, as the search meets
    them in hard deals (where deadlines bite), a sample of each deal's."""

    def just_dealt(search: Search, check: bool, soon: list[int] | None, must: int) -> bool:
        model = search.model
        return check and model.deals > 0 and model.dealt < len(model.stock)

    return positions_met(deals, per_deal, 11, just_dealt)


def moved_by_next_deal(game: Game, line: tuple[Move, ...], due: int, model: Model) -> bool:
    """Whether ``line`` from ``game`` moves every instance of ``due`` before it deals."""
    work = game.copy()
    for move in line:
        if move.is_deal:
            break
        work.play(move)
    return not any(
        still_at_its_place(work, model, i) for i in range(due.bit_length()) if due >> i & 1
    )


def dead_end_positions(deals: tuple[int, ...], per_deal: int) -> list[Game]:
    """Positions in the middle of a phase, with no card waiting, that the dead-end
    test calls dead, as the search meets them in hard deals; a sample of each deal's."""

    def dead_end(search: Search, check: bool, soon: list[int] | None, must: int) -> bool:
        model = search.model
        return (
            soon is not None
            and not check
            and not model.waiting
            and phase.dead_end(model, soon, must)
        )

    return positions_met(deals, per_deal, 12, dead_end)


def test_a_phase_the_dead_end_test_closes_is_not_won_without_it() -> None:
    # The dead-end test prunes a position when no line from it can end the phase
    # in a deal: the search without the test finds no win there either.
    positions = dead_end_positions((11, 21, 43, 58), 30)
    assert len(positions) >= 80
    proven = 0
    for game in positions:
        plain = solve(game, max_nodes=BUDGET, max_seconds=60, dead_ends=False)
        assert plain.verdict is not Verdict.WON, format_position(game)
        proven += plain.verdict is Verdict.UNWINNABLE
    assert proven >= len(positions) // 2  # most are small enough to search through


def test_a_waiting_ace_is_no_wait_in_the_dead_end_test() -> None:
    # An Ace never waits in a search, but the tests of the C twin make random cards
    # wait: one on the only Two that can fill A5 must not block it (it read the
    # count of the bases of the row before the first, which is out of bounds in C).
    game = parse_position(board(WON_ROWS | {"A5": "-"}, ["2SAS"], aces=7, stock="5S8SJS"))
    model = Model(game, native=False)
    found = bounds(model)
    assert found is not None and can_end_phase(model, found.joined, 0)
    model.waiting = 1 << next(i for i, c in enumerate(model.card) if c < 4 and not model.home[i])
    assert can_end_phase(model, found.joined, 0)


def test_a_winning_line_has_the_due_cards_home_before_each_deal() -> None:
    # Along the solver's winning lines: just after each deal but the last, the
    # cards the deadline analysis calls due are all moved before the next deal.
    named = 0
    for deal in (*QUICK_WINS, 8, 13, 27, 29, 31):
        game = Game.new(deal)
        line = solve(game, max_nodes=200_000, max_seconds=60).line
        assert line
        for k, move in enumerate(line):
            game.play(move)
            if not move.is_deal:
                continue
            found = due_cards(game)
            if found is None:
                continue
            model, due = found
            assert due is not None, (deal, k)
            named += due != 0
            assert moved_by_next_deal(game, line[k + 1 :], due, model), (deal, k)
    assert named >= 5


def test_cards_due_before_the_deal_are_home_before_it_in_every_win() -> None:
    # Positions the search meets in hard deals: if the deadline analysis says the
    # cards due before the next deal cannot all be home by then, the search without
    # it finds no win; if it names cards, a win found without it moves them first.
    named = impossible = 0
    for game in phase_starts((11, 9, 2, 6, 20, 21, 43, 58), 120):
        found = due_cards(game)
        if found is None:
            continue
        model, due = found
        if due is None:
            impossible += 1
            plain = solve(game, max_nodes=BUDGET, max_seconds=60, deadlines=False)
            assert plain.verdict is not Verdict.WON, format_position(game)
        elif due:
            named += 1
            plain = solve(game, max_nodes=BUDGET, max_seconds=60, deadlines=False)
            if plain.verdict is Verdict.WON:
                assert moved_by_next_deal(game, plain.line, due, model), format_position(game)
    assert named >= 50 and impossible >= 3


def test_a_deal_stopped_and_restarted_gives_the_same_answer() -> None:
    # The restarts shuffle with a fixed seed: the same budget gives the same search.
    a = solve(Game.new(2), max_nodes=20_000, max_seconds=60)
    b = solve(Game.new(2), max_nodes=20_000, max_seconds=60)
    assert (a.verdict, a.nodes, a.line) == (b.verdict, b.nodes, b.line)


# ---------------------------------------------------------------- the probe at every deal


@functools.cache
def mid_positions(count: int) -> list[Game]:
    """Positions in the first half of the winning lines of a dozen deals, each after a
    few random moves: more deals to come than in ``LATE``, where the probe at every
    deal has more to do (it runs after the last deal in any case)."""
    rng = random.Random(8)
    deals = (*QUICK_WINS, 1, 2, 8, 11, 17, 18, 20)
    # (the winning lines of the whole solver: the search alone does not win them all)
    lines = {d: solver.solve(Game.new(d), max_nodes=100_000, max_seconds=60).line for d in deals}
    found: list[Game] = []
    while len(found) < count:
        deal = rng.choice(deals)
        game = Game.new(deal)
        for move in lines[deal][: rng.randrange(0, len(lines[deal]) // 2)]:
            game.play(move)
        for _ in range(rng.randrange(4)):
            if moves := [m for m in game.legal_moves() if not m.is_deal]:
                game.play(rng.choice(moves))
        found.append(parse_position(format_position(game)))
    return found


def test_the_probe_at_every_deal_keeps_every_verdict_earlier_in_the_game() -> None:
    decided = differ = 0
    verdicts = {Verdict.WON: 0, Verdict.UNWINNABLE: 0}
    for game in mid_positions(120):
        on = solve(game, max_nodes=2_000, max_seconds=60, probe_every_deal=True)
        off = solve(game, max_nodes=2_000, max_seconds=60, probe_every_deal=False)
        differ += on.nodes != off.nodes
        if Verdict.UNKNOWN in (on.verdict, off.verdict):
            continue
        assert on.verdict is off.verdict, format_position(game)
        decided += 1
        verdicts[on.verdict] += 1
        if on.verdict is Verdict.WON:
            assert replays_to_a_win(game, on) and replays_to_a_win(game, off)
    assert decided >= 100 and min(verdicts.values()) >= 40
    assert differ >= 25  # it took part in many of these searches


def test_the_probe_at_every_deal_is_on_by_default_where_the_c_loops_run() -> None:
    # Deal 13 is won in 126 nodes with it, and not within 2,000 without it.
    probed = solve(Game.new(13), max_nodes=2_000, max_seconds=60, probe_every_deal=True)
    plain = solve(Game.new(13), max_nodes=2_000, max_seconds=60, probe_every_deal=False)
    assert (probed.verdict, probed.nodes, plain.verdict) == (Verdict.WON, 126, Verdict.UNKNOWN)
    default = solve(Game.new(13), max_nodes=2_000, max_seconds=60)
    assert default.nodes == (probed if solver.NATIVE else plain).nodes
    python_twins = solve(Game.new(13), max_nodes=2_000, max_seconds=60, native=False)
    assert python_twins.nodes == plain.nodes


def test_a_lost_deal_is_proven_by_the_probe_at_every_deal() -> None:
    # Deal 317 is lost: without the probe at every deal the search does not prove
    # it within 20,000 nodes; with it, in a handful.
    plain = solve(Game.new(317), max_nodes=20_000, max_seconds=60, probe_every_deal=False)
    assert plain.verdict is Verdict.UNKNOWN
    assert not dead(Model(Game.new(317)), probe=True)  # the root's probe alone does not
    probed = solve(Game.new(317), max_nodes=20_000, max_seconds=60, probe_every_deal=True)
    assert probed.verdict is Verdict.UNWINNABLE and probed.nodes < 100


def test_the_probe_orders_the_two_copies_of_a_base_too() -> None:
    # Deal 73 is lost, and the probe proves it at the root only with its pairs of
    # copies of a base (before, it took the probe at the next deals, and 866,253
    # nodes without them).
    model = Model(Game.new(73))
    assert not dead(model)
    assert dead(model, probe=True)
    assert solve(Game.new(73), max_nodes=20_000, max_seconds=60).nodes == 1


def test_the_probe_orders_two_different_bases_of_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # Deal 286 is lost, and the probe proves it at the root only with its pairs of
    # two different bases of one row (both need a space of it): with the pairs of
    # copies alone it does not, and the search took 38 nodes.
    model = Model(Game.new(286))
    assert dead(model, probe=True)
    pairs_of = probe_pairs

    def copies_only(model: Model, pending: list[int]) -> list[tuple[int, int]]:
        return [(x, y) for x, y in pairs_of(model, pending) if model.card[x] == model.card[y]]

    monkeypatch.setattr(closure_module, "probe_pairs", copies_only)
    assert not dead(Model(Game.new(286)), probe=True)


def test_a_base_ordered_after_another_base_of_its_row_only_waits() -> None:
    # At an ordering decision on a base, an order learnt by the probe that puts it
    # after another base of its row not yet home leaves only the wait child; once
    # that base is home, both children again.
    model = Model(Game.new(1))
    decided = 0
    for i in range(len(model.card)):
        rank = model.card[i] >> 2
        if not 1 <= rank <= 3 or model.home[i]:
            continue
        rival = next(
            j
            for j in range(len(model.card))
            if j != i and model.card[j] >> 2 == rank and not model.home[j]
        )
        both = model.decision_moves(i, False, None, 0, {})
        assert both == [(HOME, i, -1), (WAIT, i, -1)]
        assert model.decision_moves(i, False, None, 0, {i: rival}) == [(WAIT, i, -1)]
        model.home[rival] = True
        assert model.decision_moves(i, False, None, 0, {i: rival}) == both
        model.home[rival] = False
        decided += 1
    assert decided >= 10


def internal_winning_line(
    monkeypatch: pytest.MonkeyPatch, game: Game
) -> list[tuple[int, int, int]]:
    """The solver's winning line from ``game`` in its own moves (instances, waits)."""
    caught: list[list[tuple[int, int, int]]] = []
    translate = search_module.translate

    def spy(game: Game, model: Model, line: list[tuple[int, int, int]]) -> tuple[Move, ...]:
        caught.append(list(line))
        return translate(game, model, line)

    monkeypatch.setattr(search_module, "translate", spy)
    assert solve(game, max_nodes=100_000, max_seconds=60).verdict is Verdict.WON
    monkeypatch.undo()
    return caught[-1]


def test_orders_learnt_at_one_deal_and_kept_at_the_next_hold_on_winning_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Along winning lines found without them, at the start and after each deal:
    # the probe's orders, with those of the deal before kept (as the search keeps
    # them), never put a copy (or a base) first that the line puts second.
    checked = kept = bases = 0
    for deal in QUICK_WINS:
        game = Game.new(deal)
        line = internal_winning_line(monkeypatch, game)
        model = Model(game)
        known: dict[int, int] = {}
        for step, move in enumerate([(DEAL_KIND, -1, -1), *line]):
            if step:
                model.play(move)
            if move[0] != DEAL_KIND:
                continue
            found = bounds(model, probe=True, known=known)
            assert found is not None, (deal, step)
            first_home: dict[int, int] = {}
            for at, later in enumerate(line[step:]):
                if later[0] in (HOME, SWAP):
                    for i in later[1:]:
                        first_home.setdefault(i, at)
            for x, y in found.after.items():
                assert first_home[y] < first_home[x], (deal, step, x, y)
                checked += 1
                kept += x in known
                bases += model.card[x] < 16 and model.card[x] != model.card[y]
            known = found.after
    assert checked >= 100 and kept >= 60  # the kept orders are most of them
    assert bases >= 10  # orders of two different bases of a row among them


def test_the_key_keeps_waiting_cards_apart_from_cards_out_in_a_three_pack_game() -> None:
    # Three Up has more than 128 instances. A key that put the waiting cards 128
    # bits above the cards out made "instance 1 waits, 129 is home" and "nothing
    # waits, 129 is out" one position for the transposition table.
    model = Model(Game.new(1, THREE_UP))
    assert len(model.card) > 130
    out = model.mask & ~(1 << 129)
    model.mask, model.waiting = out, 1 << 1
    one_waiting = model.key
    model.mask, model.waiting = out | 1 << 129, 0
    assert model.key != one_waiting
