"""The text board of every game of the family: what it shows, and that it fits 30 columns."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import STUCK_POSITION, WON_POSITION, board, full_rows, random_play
from wcwidth import wcswidth

from engine import DEAL, MAX_DEAL, MAX_WIDTH, MIN_DEAL, Game, Pile, display_width, render
from engine.cards import board_code, make_card
from engine.notation import format_position, parse_position
from engine.render import header_lines
from engine.variant import BIG_PARADE, THREE_UP, VARIANTS, variant_by_code


def widest(text: str) -> int:
    return max(wcswidth(line) for line in text.splitlines())


def test_the_longest_deal_number_still_fits_30_columns() -> None:
    game = Game.new(MAX_DEAL)
    for _ in range(12):
        game.play(DEAL if DEAL in game.legal_moves() else game.legal_moves()[0])
    for symbols in (True, False):
        text = render(game, symbols=symbols)
        assert widest(text) <= MAX_WIDTH, text
        assert f"Deal {MAX_DEAL}" in text and "12" in text


def test_the_board_shows_deal_move_rows_reserve_aces_stock_and_score() -> None:
    text = render(Game.new(1), symbols=True)
    lines = text.splitlines()
    assert lines[0] == "Deal 1 · move 0"
    assert lines[1] == "  1  2  3  4  5  6  7  8"
    assert lines[2] == "A 2♥ 6♦*7♦*J♠*8♠*K♣*7♥*6♣*"
    assert lines[4] == "C 4♣ A♦*Q♣*T♣*4♥ 4♠ J♠*9♣*"
    assert lines[5] == "R J♣ K♠ 5♣ 3♣ 7♣ A♠ 8♣ 9♠"
    assert lines[6] == "   1  1  1  1  1  1  1  1"
    assert "Aces 0/8 · stock 9 deals" in lines
    assert "Score 5/104" in lines


def test_letters_mode_is_plain_ascii_and_symbols_carry_no_variation_selector() -> None:
    game = Game.new(2)
    letters = render(game, symbols=False)
    assert all(ch.isascii() or ch == "·" for ch in letters)
    assert "\ufe0f" not in render(game, symbols=True)


def test_based_piles_misplaced_cards_and_spaces_look_different() -> None:
    game = parse_position(board(full_rows(A1="2S5S8S", A2="-"), ["AS", "9C5C"]))
    text = render(game, symbols=False)
    assert text.splitlines()[2].startswith("A 8S -- 4S*6S*")
    assert "R AS 5C  ." in text
    assert "   1  2  0" in text
    assert text.splitlines()[-1] == "7S* misplaced  -- space"
    assert render(game, symbols=True).splitlines()[-1] == "7♠* misplaced  -- space"


def test_a_won_and_a_stuck_game_say_so() -> None:
    assert render(parse_position(WON_POSITION)).splitlines()[-1] == "Won! All 104 cards home."
    stuck = render(parse_position(STUCK_POSITION)).splitlines()
    assert stuck[-1] == "Stuck: no legal move left."
    assert "Aces 8/8 · stock empty" in stuck


@pytest.mark.parametrize("doc", ["README.md", "docs/notation.md"])
def test_the_board_the_docs_show_is_the_renderers(doc: str) -> None:
    text = (Path(__file__).parents[2] / doc).read_text(encoding="utf-8")
    assert f"```\n{render(Game.new(1))}\n```" in text  # deal 1 at move 0


def test_display_width_counts_columns_not_characters() -> None:
    assert display_width("5♥") == 2
    assert display_width("漢") == 2


# ---------------------------------------------------------------- every game of the family

THREE_UP_DEAL_1 = """\
Three Up · deal 1 · move 0
  1  2  3  4  5  6
A 2♥ 4♠*8♥*T♥*4♦*5♥*
B 3♣ K♥*K♥*T♣*3♦ A♠*
C 4♠ 5♠*T♠*K♣*Q♥*6♦*
R 7♣ 6♥ 2♣ K♠ 4♥ 7♥
   1  1  1  1  1  1
  7  8  9  10 11 12
A A♣*T♦*7♠*A♣*9♠*4♥*
B 8♣*3♦ 6♠*6♣*9♥*4♣*
C 9♥*J♣*9♠*5♠*3♣*K♦*
R J♦ 3♣ T♣ 2♣ 2♥ K♠
   1  1  1  1  1  1
Aces 0/12 · stock 9 deals
Score 5/156
A:2-5-8-J B:3-6-9-Q C:4-7-T-K
7♠* misplaced  -- space"""


def test_a_twelve_pile_deal_is_drawn_in_two_halves_of_six() -> None:
    assert render(Game.new(1, THREE_UP)) == THREE_UP_DEAL_1


def sample_positions(per_variant: int) -> list[Game]:
    """Positions along random games, careless and careful, of every variant."""
    rng = random.Random(35)
    found: list[Game] = []
    for variant in VARIANTS.values():
        for _ in range(per_variant):
            start = Game.new(rng.randint(MIN_DEAL, MAX_DEAL), variant)
            care = rng.choice([0.0, 0.8, 0.97])
            found += [g.copy() for g in random_play(start, rng, care)]
    return found


SAMPLE = sample_positions(5)


def is_heads(line: str) -> bool:
    """Whether a line of the board is a line of column numbers."""
    return line.startswith("  ") and line.strip()[0].isdigit() and "·" not in line


def read_board(text: str) -> dict[str, str]:
    """Each pile's cell as the board shows it, by the name a player reads off the board:
    the letter starting its line and the number in the column heads above it. A cell is
    three columns starting under its number: a card and its mark (``*`` or a blank),
    ``--`` and a blank for a space, a blank, ``.`` and a blank for an empty reserve pile."""
    cells: dict[str, str] = {}
    numbers: dict[int, str] = {}
    for line in text.splitlines():
        assert display_width(line) == len(line), line  # one column a character: cells line up
        assert line == line.rstrip(), f"{line!r} ends with a blank"
        if is_heads(line):
            numbers = {m.start(): m.group() for m in re.finditer(r"\d+", line)}
        elif line[:1] in ("A", "B", "C", "R") and line[1:2] == " ":
            for at, number in numbers.items():
                name = line[0] + number
                assert name not in cells, f"{name} drawn twice"
                cells[name] = line[at : at + 3].ljust(3)
            assert len(line) <= max(numbers) + 3, f"{line!r} goes on past its last column"
    return cells


def expected_cell(game: Game, pile: Pile) -> str:
    cards = game.pile(pile)
    if not cards:
        return "-- " if pile.area == "row" else " . "
    mark = "*" if game.is_misplaced(pile) else " "
    return board_code(cards[-1], True) + mark


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_every_line_of_every_board_of_every_game_fits_30_columns(code: str) -> None:
    games = [g for g in SAMPLE if g.variant.code == code]
    assert len(games) > 20
    for game in games:
        for symbols in (True, False):
            text = render(game, symbols)
            assert widest(text) <= MAX_WIDTH, format_position(game) + "\n" + text


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_every_pile_is_drawn_once_under_its_own_name_with_its_top_card(code: str) -> None:
    games = [g for g in SAMPLE if g.variant.code == code]
    for game in games:
        text = render(game, symbols=True)
        cells = read_board(text)
        piles = [Pile("row", r, c) for r in range(3) for c in range(game.width)]
        piles += [Pile("reserve", 0, j) for j in range(game.variant.reserve_piles)]
        assert sorted(cells) == sorted(p.name for p in piles), text
        for pile in piles:
            assert cells[pile.name] == expected_cell(game, pile), (pile.name, text)


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_the_board_accounts_for_every_card_of_the_packs(code: str) -> None:
    for game in [g for g in SAMPLE if g.variant.code == code][::7]:
        lines = render(game, symbols=False).splitlines()[len(header_lines(game)) :]
        # the depth lines follow the reserve lines: they count the reserve's cards
        depths = [lines[i + 1] for i, line in enumerate(lines) if line.startswith("R")]
        in_reserve = sum(int(n) for line in depths for n in line.split())
        # score = Aces home + every card of every based pile; the rest of the rows are
        # the misplaced cards, one each (the starred cells)
        [score_line] = [line for line in lines if line.startswith("Score ")]
        score, out_of = (int(n) for n in score_line.removeprefix("Score ").split("/"))
        assert out_of == 52 * game.variant.decks
        misplaced = sum(line.count("*") for line in lines if line[:1] in "ABC")
        total = in_reserve + score + misplaced + game.stock_count
        assert total == 52 * game.variant.decks, "\n".join(lines)


def test_a_won_game_of_three_packs_says_156_cards() -> None:
    rows = [
        [make_card(r + 2 + 3 * k, c % 4) for k in range(4)] for r in range(3) for c in range(12)
    ]
    won = Game(rows, [[] for _ in range(12)], [], aces=12, variant=BIG_PARADE)
    text = render(won)
    assert text.endswith("Won! All 156 cards home.") and "Aces 12/12 · stock empty" in text
    assert widest(text) <= MAX_WIDTH


# ---------------------------------------------------------------- the misplaced mark


def row_cards_drawn(text: str) -> Iterator[tuple[Pile, str, int]]:
    """Each row pile drawn, the line it is drawn on and the column its card's code starts
    at: the column of the number over it, in the line of its row's letter."""
    numbers: list[tuple[int, int]] = []
    for line in text.splitlines():
        if is_heads(line):
            numbers = [(m.start(), int(m.group())) for m in re.finditer(r"\d+", line)]
        elif line[:2] in ("A ", "B ", "C "):
            for at, number in numbers:
                yield Pile("row", "ABC".index(line[0]), number - 1), line, at


@given(
    st.sampled_from(sorted(VARIANTS)),
    st.integers(MIN_DEAL, MAX_DEAL),
    st.integers(0, 2**32),
    st.sampled_from([0.0, 0.8, 0.97]),
)
@settings(derandomize=True, max_examples=40, deadline=None)
def test_a_misplaced_cards_star_is_the_character_right_after_its_code_and_only_there(
    code: str, deal: int, seed: int, care: float
) -> None:
    start = Game.new(deal, VARIANTS[code])
    for game in random_play(start, random.Random(seed), care):
        for symbols in (True, False):
            text = render(game, symbols)
            stars = drawn = 0
            for pile, line, at in row_cards_drawn(text):
                drawn += 1
                cards = game.pile(pile)
                after = line[at + 2 : at + 3]  # the character right after the card's code
                if game.is_misplaced(pile):
                    assert line[at : at + 2] == board_code(cards[0], symbols), (pile.name, text)
                    assert after == "*", (pile.name, text)
                    stars += 1
                else:  # a based pile's top card, or a space: no star follows
                    shown = board_code(cards[-1], symbols) if cards else "--"
                    assert line[at : at + 2] == shown, (pile.name, text)
                    assert after in ("", " "), (pile.name, text)
            assert drawn == 3 * game.width, text
            # and no star stands anywhere else in the rows
            rows = [line for line in text.splitlines() if line[:2] in ("A ", "B ", "C ")]
            assert sum(line.count("*") for line in rows) == stars, text


@pytest.mark.parametrize(
    ("code", "deal", "moves", "expected"),
    [
        ("vr", 16, 0, ["Deal 16 · move 0"]),
        ("tu", 16, 3, ["Three Up · deal 16 · move 3"]),
        ("bp", 999_999_999, 0, ["Big Parade · deal 999999999", "Move 0"]),
        ("rp", MAX_DEAL, 2, ["Royal Parade", f"Deal {MAX_DEAL}", "Move 2"]),
    ],
)
def test_the_first_line_names_the_game_unless_it_is_virginia_reel(
    code: str, deal: int, moves: int, expected: list[str]
) -> None:
    game = Game.new(deal, variant_by_code(code))
    while game.move_count < moves:
        game.play(next(m for m in game.legal_moves()))
    assert header_lines(game) == expected
    assert render(game).splitlines()[: len(expected)] == expected
    assert all(len(line) <= MAX_WIDTH for line in expected)
