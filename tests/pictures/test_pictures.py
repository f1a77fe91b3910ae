"""The picture board: drawn as the stored references show it, every card of the position
on it exactly once, its words where the layout promises (the game's name, counts only
under deeper reserve piles, builds in AA contrast, margins, rows of one height), with the
bundled fonts only, cached by position and style, and written by ``reel board --image``."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from picture_positions import REFERENCE, STUCK_LINE, WIN_LINE, drawn, played, positions
from PIL import Image, ImageChops, ImageFont

from bot import cli
from bot.pictures import (
    FONTS,
    KEYED,
    PLAIN,
    PictureCache,
    board_png,
    board_title,
    board_words,
    cards_on_view,
    draw_board,
    key_colour,
)
from bot.pictures import draw as draw_module
from engine import Game, format_position, play_line, render, variant_by_code
from engine.variant import BIG_PARADE, ROWS, ROYAL_PARADE, THREE_UP, VIRGINIA_REEL, Variant

# Three Up's deal 1 after nine moves: spaces in rows A-C and an empty reserve pile.
THREE_UP_SPACES = "A7 ACE;A10 ACE;B6 ACE;A6 A1;A3 A1;A9 C1;B10 B1;C3 C1;R4 C1"

# A pixel "differs" when a channel is off by more than this; at most this share may.
CHANNEL_TOLERANCE = 48
DIFFERING_SHARE = 0.005


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


@pytest.mark.parametrize("name", sorted(positions()))
def test_a_fixed_position_is_drawn_as_its_reference_image(name: str) -> None:
    now = opened(drawn(positions()[name]))
    reference = Image.open(REFERENCE / f"{name}.png").convert("RGB")
    assert now.size == reference.size
    diff = ImageChops.difference(now, reference).convert("L")
    differing = sum(diff.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0).histogram()[255:])
    # (if the design changed on purpose: picture_positions.py --write, and look at them)
    assert differing <= DIFFERING_SHARE * now.width * now.height, f"{name}: {differing} pixels"


@dataclass(frozen=True)
class Text:
    """A text the board drew, and the box its pixels take."""

    text: str
    size: int
    bold: bool
    fill: tuple[int, int, int]
    box: tuple[int, int, int, int]  # left, top, right, bottom (exclusive)


def texts_drawn(monkeypatch: pytest.MonkeyPatch, game: Game, title: str = "x") -> list[Text]:
    """Every text ``draw_board`` writes on the board (not those of the card faces)."""
    seen: list[Text] = []
    real = draw_module.Canvas.text

    def watched(canvas: draw_module.Canvas, xy: tuple[float, float], text: str, size: int,
                **options: object) -> None:  # fmt: skip
        real(canvas, xy, text, size, **options)  # type: ignore[arg-type]
        bold, anchor = bool(options.get("bold", False)), str(options.get("anchor", "la"))
        mask, (left, top) = draw_module.text_mask(text, size, bold, anchor)
        x, y = round(xy[0]) + left, round(xy[1]) + top
        fill = options.get("fill", draw_module.FELT_TEXT)
        assert isinstance(fill, tuple)
        seen.append(Text(text, size, bold, fill, (x, y, x + mask.width, y + mask.height)))

    with monkeypatch.context() as patch:
        patch.setattr(draw_module.Canvas, "text", watched)
        draw_board(game, title)
    return seen


def key_counts(image: Image.Image) -> dict[tuple[int, int, int], int]:
    """The pixels of each key-like colour (blue full, green at most 5) in ``image``."""
    counts: dict[tuple[int, int, int], int] = {}
    for n, colour in image.getcolors(maxcolors=image.width * image.height) or []:
        assert isinstance(colour, tuple)
        r, g, b = colour[:3]
        if b == 255 and g <= 5:
            counts[(r, g, b)] = n
    return counts


def expected_keys(game: Game) -> dict[tuple[int, int, int], int]:
    seen: dict[int, int] = {}
    keys = {}
    for card in cards_on_view(game):
        copy = seen.get(card, 0)
        seen[card] = copy + 1
        keys[key_colour(card, copy)] = draw_module.KEY_SIZE**2
    return keys


def random_game(deal: int, moves: int, variant: Variant = VIRGINIA_REEL) -> Game:
    game = Game.new(deal, variant)
    pick = random.Random(deal * 1000 + moves)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(pick.choice(legal))
    return game


@settings(max_examples=25, deadline=None)
@given(
    deal=st.integers(1, 5000),
    moves=st.integers(0, 120),
    variant=st.sampled_from([VIRGINIA_REEL, THREE_UP]),
)
def test_every_card_on_view_is_drawn_exactly_once(deal: int, moves: int, variant: Variant) -> None:
    game = random_game(deal, moves, variant)
    image = opened(board_png(game, "keyed", KEYED))
    # each key patch whole (not covered by another card), no card missing or doubled
    assert key_counts(image) == expected_keys(game)


def test_the_key_test_sees_a_missing_card() -> None:
    # the check above fails when a card is not drawn: here, the top of reserve pile 1
    game = Game.new(1)
    canvas = draw_board(game, "keyed", KEYED)
    x, y = canvas.layout.x(0), canvas.layout.reserve_top
    canvas.draw.rectangle((x, y, x + canvas.layout.card_w, y + 30), fill=(0, 0, 0))
    assert key_counts(opened(canvas.png())) != expected_keys(game)


def test_a_plain_board_has_no_key_colours() -> None:
    assert key_counts(opened(drawn(positions()["deal28-move70"]))) == {}


def test_the_board_shows_the_facts_of_the_text_board() -> None:
    # the header, the score and the stock are those of the text board, word for word
    game = played(1, "R5 C1;deal")
    text = render(game)
    assert board_title(1, game.move_count) == text.splitlines()[0] == "Deal 1 · move 2"
    assert f"Score {game.score}/104" in text


def test_the_title_names_the_game_unless_it_is_virginia_reel() -> None:
    assert board_title(3, 0, THREE_UP) == "Three Up · deal 3 · move 0"
    assert board_title(3, 12, ROYAL_PARADE) == "Royal Parade · deal 3 · move 12"
    assert board_title(None, 5, BIG_PARADE) == "Big Parade · position · move 5"
    # Virginia Reel's stays the text board's first line
    assert board_title(3, 0) == board_title(3, 0, VIRGINIA_REEL) == "Deal 3 · move 0"
    assert board_title(3, 0) == render(Game.new(3)).splitlines()[0]
    assert board_title(None, 5) == "Position · move 5"


@pytest.mark.parametrize("variant", [VIRGINIA_REEL, ROYAL_PARADE, THREE_UP])
def test_a_long_title_is_drawn_smaller_and_never_runs_into_the_score(
    monkeypatch: pytest.MonkeyPatch, variant: Variant
) -> None:
    game = Game.new(999_999_999, variant)  # a random deal's number has up to nine digits
    width = draw_board(game, "x").layout.width
    sizes = []
    for title in (board_title(1, 0, variant), board_title(999_999_999, 150, variant)):
        texts = texts_drawn(monkeypatch, game, title)
        drawn_title = next(t for t in texts if t.text == title)
        score = next(t for t in texts if t.text.startswith("Score "))
        assert drawn_title.box[0] >= draw_module.MARGIN
        assert drawn_title.box[2] + 16 <= score.box[0] and score.box[2] <= width - 14
        sizes.append(drawn_title.size)
    assert sizes[0] == draw_module.TITLE_SIZE
    if variant is ROYAL_PARADE:  # its name and nine digits on 8 piles' width: smaller
        assert sizes[1] < draw_module.TITLE_SIZE


def test_the_board_in_words_names_the_game_unless_it_is_virginia_reel() -> None:
    assert board_words(16, 3) == "board of deal 16 at move 3"
    assert board_words(16, 3, THREE_UP) == "board of Three Up deal 16 at move 3"
    assert board_words(None, 0, ROYAL_PARADE) == "board of a Royal Parade position at move 0"


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two sRGB colours (1 to 21; AA asks 4.5 of text)."""

    def luminance(colour: tuple[int, int, int]) -> float:
        linear = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
                  for v in colour]  # fmt: skip
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_ratio_is_wcags() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


def test_the_felts_text_colours_meet_wcag_aa_on_the_felt_and_the_footer() -> None:
    for text in (draw_module.FELT_TEXT, draw_module.FELT_DIM):
        for felt in (draw_module.FELT, draw_module.FELT_DARK):
            assert contrast(text, felt) >= 4.5, (text, felt)


@pytest.mark.parametrize("variant", [VIRGINIA_REEL, THREE_UP])
def test_each_rows_build_is_written_beside_it_large_bold_and_in_aa_contrast(
    monkeypatch: pytest.MonkeyPatch, variant: Variant
) -> None:
    game = Game.new(1, variant)
    layout = draw_board(game, "x").layout
    beside = [t for t in texts_drawn(monkeypatch, game) if t.box[2] <= layout.left]
    for r, sequence in enumerate(draw_module.SEQUENCES):
        top, bottom = layout.row_y(r), layout.row_y(r) + layout.row_h
        letter, *steps = [t for t in beside if top <= t.box[1] and t.box[3] <= bottom]
        assert letter.text == "ABC"[r] and [t.text for t in steps] == sequence.split()
        for step in steps:
            assert step.bold and step.size >= 24  # 12 px at the half size a phone shows
            assert contrast(step.fill, draw_module.FELT) >= 4.5


def test_a_reserve_pile_is_counted_only_when_it_holds_more_than_one_card() -> None:
    # one card shows itself; an empty pile's dashed outline says "empty"
    assert draw_module.depth_label(0) is None
    assert draw_module.depth_label(1) is None
    assert draw_module.depth_label(2) == "2 cards"
    assert draw_module.depth_label(10) == "10 cards"


@pytest.mark.parametrize(
    "game",
    [Game.new(1), played(1, STUCK_LINE), played(28, WIN_LINE, 70), Game.new(1, THREE_UP)],
    ids=["start", "stuck", "deal28-move70", "three-up"],
)
def test_the_counts_under_the_reserve_are_those_of_its_deeper_piles(
    monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    layout = draw_board(game, "x").layout
    counts = [t for t in texts_drawn(monkeypatch, game) if t.text.endswith((" card", " cards"))]
    deeper = [col for col, pile in enumerate(game.reserve) if len(pile) >= 2]
    assert [t.text for t in counts] == [f"{len(game.reserve[col])} cards" for col in deeper]
    for col, count in zip(deeper, counts, strict=True):  # each under its own pile
        assert layout.x(col) <= (count.box[0] + count.box[2]) / 2 <= layout.x(col) + layout.card_w
        assert count.box[1] > layout.reserve_top + layout.card_h
    if game.deal_number == 28:  # deep piles and empty ones: both kinds are there
        assert counts and any(len(pile) < 2 for pile in game.reserve)


@pytest.mark.parametrize("variant", [VIRGINIA_REEL, THREE_UP])
def test_the_widest_counts_side_by_side_stay_apart(
    monkeypatch: pytest.MonkeyPatch, variant: Variant
) -> None:
    game = Game.new(1, variant)
    play_line(game, ";".join(["deal"] * 9))  # every reserve pile 10 cards deep
    counts = [t for t in texts_drawn(monkeypatch, game) if t.text == "10 cards"]
    assert len(counts) == variant.reserve_piles
    for left, right in pairwise(counts):
        assert right.box[0] - left.box[2] >= 6


@pytest.mark.parametrize(
    "game",
    [played(28, WIN_LINE, 3), played(1, STUCK_LINE, 2), played(1, STUCK_LINE, 4)],
    ids=["row-A-fanned", "row-C-fanned", "rows-B-C-fanned"],
)
def test_a_fanned_pile_makes_every_row_as_tall_as_itself(game: Game) -> None:
    layout = draw_board(game, "x").layout
    tops = [layout.row_y(r) for r in range(ROWS)] + [layout.reserve_top - 14]
    assert len({below - above for above, below in pairwise(tops)}) == 1  # all rows alike
    tallest = max(len(pile) for r in range(ROWS) for pile in game.row(r))
    assert tallest >= 2 and layout.row_h >= layout.card_h + (tallest - 1) * layout.fan
    for r in range(ROWS):  # each pile ends inside its row
        for pile in game.row(r):
            assert tops[r] + (len(pile) - 1) * layout.fan + layout.card_h < tops[r + 1]


def test_the_board_is_as_tall_wherever_its_tallest_pile_is() -> None:
    # a pile of two in row A or in row C: the same board, rows and reserve in the same
    # places, so a redraw after a move does not shift the rows under the player's eye
    row_a, row_c = played(28, WIN_LINE, 3), played(1, STUCK_LINE, 2)
    assert [max(map(len, g.row(r))) for g in (row_a, row_c) for r in range(ROWS)] == [
        2, 1, 1, 1, 1, 2]  # fmt: skip
    one, other = draw_board(row_a, "x"), draw_board(row_c, "x")
    assert one.layout == other.layout and one.image.size == other.image.size
    assert draw_board(Game.new(1), "x").image.height < one.image.height  # compact at first


@pytest.mark.parametrize(
    "game",
    [Game.new(1), played(1, STUCK_LINE), played(28, WIN_LINE), Game.new(1, THREE_UP)],
    ids=["legend", "stuck", "won", "three-up"],
)
def test_the_last_line_keeps_the_margin_of_the_other_edges_from_the_bottom(
    monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    margin = draw_module.MARGIN
    assert margin >= 14  # what the title, the score and the piles keep from the edges
    canvas = draw_board(game, "x")
    last = max(texts_drawn(monkeypatch, game), key=lambda t: t.box[3])
    assert last.text.startswith(("★ amber edge", "Stuck:", "Won!"))
    assert last.box[3] <= canvas.image.height - margin
    # and in the pixels: the bottom strip is bare footer, the last line just above it
    width, height = canvas.image.size
    strip = canvas.image.crop((0, height - margin, width, height))
    assert strip.getcolors() == [(width * margin, draw_module.FELT_DARK)]
    above = canvas.image.crop((0, height - margin - 12, width, height - margin))
    assert len(above.getcolors() or []) > 1


@pytest.mark.parametrize(
    "game",
    [played(1, STUCK_LINE), played(1, THREE_UP_SPACES, game=Game.new(1, THREE_UP))],
    ids=["virginia-reel", "three-up"],
)
def test_the_words_in_a_dashed_outline_stay_clear_of_its_dashes(
    monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    layout = draw_board(game, "x").layout
    words = [t for t in texts_drawn(monkeypatch, game)
             if t.text in ("space", "empty") or t.text.startswith("for a ")]  # fmt: skip
    spaces = sum(not pile for r in range(ROWS) for pile in game.row(r))
    assert len(words) == 2 * spaces + sum(not pile for pile in game.reserve) > 2 * spaces > 0
    for word in words:
        col = (word.box[0] - layout.left) // (layout.card_w + layout.gap)
        assert layout.x(col) + 6 <= word.box[0] and word.box[2] <= layout.x(col) + layout.card_w - 6


def test_the_fonts_are_the_bundled_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    opened_paths: list[str] = []
    real = ImageFont.truetype

    def only_bundled(font: str, *args: object, **kwargs: object) -> ImageFont.FreeTypeFont:
        opened_paths.append(str(font))
        assert Path(font).parent == FONTS, f"a font from outside the package: {font}"
        return real(font, *args, **kwargs)  # type: ignore[arg-type]

    def no_default(*args: object, **kwargs: object) -> None:
        raise AssertionError("Pillow's default font was asked for")

    monkeypatch.setattr(ImageFont, "truetype", only_bundled)
    monkeypatch.setattr(ImageFont, "load_default", no_default)
    draw_module.font.cache_clear()
    draw_module.card_face.cache_clear()
    try:
        board_png(Game.new(2), "Deal 2 · move 0")
    finally:
        draw_module.font.cache_clear()
        draw_module.card_face.cache_clear()
    assert opened_paths
    assert (FONTS / "LICENSE.txt").read_text(encoding="utf-8").count("Bitstream Vera") >= 1


def test_twelve_piles_a_row_fit_a_wider_board_of_smaller_cards() -> None:
    eight = draw_board(Game.new(1), "x").layout
    twelve = draw_board(Game.new(1, THREE_UP), "x").layout
    assert twelve.piles == 12 and twelve.card_w < eight.card_w
    assert twelve.x(11) + twelve.card_w <= twelve.width
    assert eight.x(7) + eight.card_w <= eight.width <= 900  # ~800 px: half of it on a phone


def test_the_cache_draws_a_position_once_and_forgets_the_oldest() -> None:
    cache = PictureCache(2)
    one, two, three = (format_position(Game.new(n)) for n in (1, 2, 3))
    first = cache.png(one, "Deal 1 · move 0")
    assert cache.png(one, "Deal 1 · move 0") is first and (cache.hits, cache.misses) == (1, 1)
    assert cache.png(one, "Deal 1 · move 0", KEYED) is not first  # another style
    assert cache.png(two, "Deal 2 · move 0") and len(cache) == 2
    # ``one`` plain was used least recently: it went when ``two`` came
    cache.png(one, "Deal 1 · move 0")
    assert cache.misses == 4
    cache.png(three, "Deal 3 · move 0")
    assert len(cache) == 2
    assert opened(first).size == opened(cache.png(three, "Deal 3 · move 0", PLAIN)).size
    with pytest.raises(ValueError):
        PictureCache(0)


def test_reel_board_image_writes_a_png_of_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "board.png"
    assert cli.main(["board", "--deal", "1", "--image", str(target)]) == 0
    assert capsys.readouterr().out == f"Wrote the board of deal 1 at move 0 to {target}.\n"
    assert opened(target.read_bytes()).size == opened(drawn(Game.new(1))).size
    assert target.read_bytes() == drawn(Game.new(1))


def test_reel_board_without_image_prints_the_text_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["board", "--deal", "1", "--moves", "r5 c1"]) == 0
    assert capsys.readouterr().out.strip() == render(played(1, "R5 C1"))
    assert cli.main(["board", "--deal", "1", "--ascii"]) == 0
    assert capsys.readouterr().out.strip() == render(Game.new(1), symbols=False)


def test_reel_board_refuses_a_bad_move_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["board", "--deal", "1", "--moves", "r5 c1;a1 b1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("reel board: move 2") and len(err.splitlines()) == 1


def test_reel_board_draws_any_game_of_the_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "big.png"
    assert cli.main(["board", "--deal", "4", "--variant", "BP", "--image", str(target)]) == 0
    assert target.read_bytes() == drawn(Game.new(4, variant_by_code("bp")))
    wrote = capsys.readouterr().out
    assert wrote == f"Wrote the board of Big Parade deal 4 at move 0 to {target}.\n"
    # the text board names the game in its first line, as the picture's title does
    assert cli.main(["board", "--deal", "4", "--variant", "tu"]) == 0
    board = capsys.readouterr().out.strip()
    assert board == render(Game.new(4, variant_by_code("tu")))
    assert board.splitlines()[0] == board_title(4, 0, variant_by_code("tu"))
