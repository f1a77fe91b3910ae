"""The general search's dead-card check: a card that can never go home, whatever order of
play brings the stock's cards, proves a position of Royal Parade or Big Parade lost.

The model's closure (closure.py) follows each stock card to the pile and the phase the
deal puts it in; in the parades an emptied reserve pile takes the next stock card at
once, so neither is known. This check is the model's closure without phases, a
relaxation: every stock card counts as free from the start. A card joins the set of
cards that might go home once the cards above it in its reserve pile have (a reserve
card leaves only to go home), and it has a place: a slot on a foundation for each
copy that must be home with it, or, for a base, a space of its row. Why it is sound:
"The dead-card check" in docs/solver.md. In Blue Jacket a card can leave a reserve
pile by being parked, so nothing holds a card under another, and the count of places
always leaves one (a row has a pile not based for each base of it not home): the check
proves nothing there and is not run.
"""

from __future__ import annotations

from ..cards import RANK_STEP3
from ..game import Game


def dead_card(game: Game) -> bool:
    """True if some card of ``game`` not home can never go home: the position is lost."""
    if game.variant.reserve_refill == "any":  # Blue Jacket: see the module's docstring
        return False
    decks = game.variant.decks
    home = [decks] * 52  # copies of each card home (the Aces' on the Ace pile included)
    spaces = [0, 0, 0]
    misplaced: list[list[int]] = [[], [], []]  # each row's misplaced cards
    for r in range(3):
        for pile in game.row(r):
            if not pile:
                spaces[r] += 1
            elif pile[0] >> 2 != r + 1:
                misplaced[r].append(pile[0])
                home[pile[0]] -= 1
    reserve = game.reserve
    for pile in reserve:
        for card in pile:
            home[card] -= 1
    stock = game.stock
    for card in stock:
        home[card] -= 1
    joined = [0] * 52  # copies of each card in the set (not home now)
    opened = [0, 0, 0]  # each row's misplaced cards in the set: each leaves a space

    def places(card: int, before: int, copies_before: int) -> bool:
        """Whether ``card`` has a place once the cards in the set are home: ``before`` bases
        of its row placed before it, ``copies_before`` copies of it home before it."""
        rank = card >> 2
        if rank == 0:
            return True
        if rank <= 3:
            row = rank - 1
            return spaces[row] + opened[row] > before
        need = home[card] + copies_before + 1
        below = card - RANK_STEP3
        while True:
            if home[below] + joined[below] < need:
                return False
            if below >> 2 <= 3:
                return True
            below -= RANK_STEP3

    def interchanges(card: int, row: int) -> bool:
        """Whether ``card``, misplaced in ``row``, can go home by an interchange: a card of
        its own row misplaced there is a base of ``row`` (none is ever added)."""
        rank = card >> 2
        return 1 <= rank <= 3 and any(other >> 2 == row + 1 for other in misplaced[rank - 1])

    # (the misplaced cards, their rows; the stock; each reserve pile's next card down)
    row_out = [(card, r) for r in range(3) for card in misplaced[r]]
    stock_out = list(stock)
    tops = [len(pile) - 1 for pile in reserve]  # each pile's highest card not yet in
    changed = True
    while changed:
        changed = False
        left: list[tuple[int, int]] = []
        for card, r in row_out:
            if places(card, 0, 0) or interchanges(card, r):
                joined[card] += 1
                opened[r] += 1
                changed = True
            else:
                left.append((card, r))
        row_out = left
        still = []
        for card in stock_out:
            if places(card, 0, 0):
                joined[card] += 1
                changed = True
            else:
                still.append(card)
        stock_out = still
        for j, pile in enumerate(reserve):
            while tops[j] >= 0:
                k = tops[j]
                card = pile[k]
                rank = card >> 2
                above = pile[k + 1 :]
                if 1 <= rank <= 3:
                    before = sum(1 for other in above if other >> 2 == rank)
                    ok = places(card, before, 0)
                else:
                    ok = places(card, 0, above.count(card))
                if not ok:
                    break
                joined[card] += 1
                tops[j] -= 1
                changed = True
    return bool(row_out or stock_out or any(top >= 0 for top in tops))


def no_deal_ahead(game: Game) -> bool:
    """True if ``game`` is lost because its stock can never be dealt: a game whose deal
    needs no space and is its stock's only way out (Virginia Reel, Three Up, Blue
    Jacket), cards in the stock, and a set of rows with more spaces than bases that
    can fill them before the deal: the set's bases on the reserve piles and its bases
    misplaced in the other rows.

    Why: until the next deal no card comes from the stock, and the deal needs every
    space filled. Take a set T of rows and count its spaces. Only a fill brings it
    down, with a base of a row of T, by one: from a reserve pile (a base there now,
    or one parked there in Blue Jacket from a row, whose leaving opened a space: if
    from a row of T, the two cancel), or from a row outside T (a base misplaced there
    now: misplaced cards are never added). A fill from a row of T moves a space
    within T, an interchange leaves every row's spaces as they were, and any other
    card leaving a row opens one. A game with cards in the stock is won only once
    they are all home, after a deal.
    """
    variant = game.variant
    if not variant.deal_needs_no_space or variant.reserve_refill == "stock":
        return False
    if game.stock_count == 0:
        return False
    spaces = [0, 0, 0]
    misplaced = [[0, 0, 0] for _ in range(3)]  # [R][r]: bases of row R misplaced in row r
    for r in range(3):
        for pile in game.row(r):
            if not pile:
                spaces[r] += 1
            elif len(pile) == 1 and 1 <= pile[0] >> 2 <= 3 and pile[0] >> 2 != r + 1:
                misplaced[(pile[0] >> 2) - 1][r] += 1
    if not any(spaces):
        return False
    reserve = [0, 0, 0]  # each row's bases on the reserve piles
    for pile in game.reserve:
        for card in pile:
            if 1 <= card >> 2 <= 3:
                reserve[(card >> 2) - 1] += 1
    for subset in range(1, 8):  # each set of rows, as bits
        rows = [r for r in range(3) if subset >> r & 1]
        short = sum(spaces[r] for r in rows) - sum(reserve[r] for r in rows)
        short -= sum(misplaced[big][r] for big in rows for r in range(3) if not subset >> r & 1)
        if short > 0:
            return True
    return False
