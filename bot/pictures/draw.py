"""The board drawn as a picture: the facts of the text board (``engine.render``), in cards.

A pure function from a position to a Pillow image, then to PNG bytes. Each
card face is drawn once (per size) and pasted, so a board is a few dozen
pastes and some text. The layout takes the number of piles a row from the
variant, so 12-pile games get narrower cards on a wider canvas; the three rows
are as tall as the tallest pile of the board.

    Deal 1 · move 0                      Score 5/104    (another game named first)
       1     2     3   ...
    A  [2♥]  [6♦]  ...    based piles fanned downwards, the top card whole;
    2                     the row's build sequence under its letter;
    5  ...                misplaced cards with an amber edge and a ★;
    B  ...                a space a dashed outline naming the base it takes
    C  ...
    R  [J♣]  [K♠]  ...    the reserve's top cards, a deeper pile's count under it
             3 cards
    (A) Aces 0/8          (▒) Stock: 9 deals left
    ★ amber edge: misplaced · dashed: ...   (or Won! / Stuck:), a margin under it

``Style.key`` is the test mode: every card on view also gets a small patch in
a colour of its own (``key_colour``), so a test can count the cards drawn.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from engine import Game, Status
from engine.cards import RANK_CHARS, SUIT_SYMBOLS
from engine.variant import ROW_LETTERS, ROWS

FONTS: Final = Path(__file__).resolve().parent / "fonts"
REGULAR: Final = FONTS / "DejaVuSans.ttf"
BOLD: Final = FONTS / "DejaVuSans-Bold.ttf"

FELT: Final = (24, 92, 56)
FELT_DARK: Final = (18, 70, 43)
FELT_TEXT: Final = (236, 244, 238)
FELT_DIM: Final = (176, 212, 189)  # 4.9:1 on FELT: WCAG AA for text, however small
CARD: Final = (252, 252, 248)
CARD_EDGE: Final = (120, 120, 120)
RED: Final = (200, 24, 40)
BLACK: Final = (24, 24, 30)
AMBER: Final = (255, 176, 32)
MISPLACED_CARD: Final = (255, 243, 214)
BACK: Final = (44, 84, 160)
WON: Final = (255, 214, 90)

MARGIN: Final = 16  # the felt left bare at each edge of the board
TITLE_SIZE: Final = 32  # the title's and the score's size; a long title is drawn smaller
BUILD_SIZE: Final = 24  # a row's build sequence beside it, in bold: 12 px on a phone
KEY_SIZE: Final = 10  # the side of a card's key patch in ``Style.key`` mode
FAN_SHOWN: Final = 0.27  # the part of a card's height left showing under the next in a pile
SEQUENCES: Final = ("2 5 8 J", "3 6 9 Q", "4 7 T K")  # a Ten is T, as everywhere


@dataclass(frozen=True, slots=True)
class Style:
    """How a board is drawn: ``key`` adds each card's colour key (tests only)."""

    key: bool = False


PLAIN: Final = Style()
KEYED: Final = Style(key=True)


@dataclass(frozen=True, slots=True)
class Layout:
    """Sizes in pixels for a board of ``piles`` piles a row."""

    piles: int
    tallest: int = 4  # the most cards in a pile of any row (1 at least)

    @property
    def card_w(self) -> int:
        return 88 if self.piles <= 8 else 72

    @property
    def card_h(self) -> int:
        return self.card_w * 7 // 5

    @property
    def gap(self) -> int:
        return 10 if self.piles <= 8 else 8

    @property
    def fan(self) -> int:
        return int(self.card_h * FAN_SHOWN)

    @property
    def label_size(self) -> int:
        """The size of the small words on the felt: a reserve pile's count ("10 cards" fits
        its column) and the words inside a dashed outline (clear of its dashes)."""
        return 20 if self.piles <= 8 else 17

    @property
    def left(self) -> int:  # the row letters' column
        return 50

    @property
    def width(self) -> int:
        return self.left + self.piles * (self.card_w + self.gap) + 6

    @property
    def header(self) -> int:
        return 86

    @property
    def row_h(self) -> int:
        """Every row's height: the tallest pile of the board, wherever it is, so the rows
        stay the same height, 150 at least (the row's letter and build beside it)."""
        return max(self.card_h + (self.tallest - 1) * self.fan + 14, 150)

    @property
    def reserve_top(self) -> int:
        return self.row_y(ROWS) + 14

    @property
    def footer_top(self) -> int:
        return self.reserve_top + self.card_h + 44

    @property
    def last_line(self) -> int:
        """The top of the footer's last line: the legend, or the win or the dead end."""
        return self.footer_top + 62

    @property
    def height(self) -> int:
        # the last line's text takes 28 px (descenders too), then the margin of every edge
        return self.last_line + 28 + MARGIN

    def x(self, col: int) -> int:
        return self.left + col * (self.card_w + self.gap)

    def row_y(self, row: int) -> int:
        return self.header + row * self.row_h

    @classmethod
    def of(cls, game: Game) -> Layout:
        """The layout of ``game``'s board: every row as tall as the tallest pile."""
        return cls(game.width, max(len(pile) for r in range(ROWS) for pile in game.row(r)) or 1)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at ``size`` px: never a system font."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def suit_colour(card: int) -> tuple[int, int, int]:
    return RED if card & 3 in (1, 2) else BLACK


def rank_text(card: int) -> str:
    """A card's rank as its corners show it: ``T`` for a Ten, as every message writes it."""
    return RANK_CHARS[card >> 2]


def key_colour(card: int, copy: int) -> tuple[int, int, int]:
    """The colour of a card's key patch: the card (0-51) and which copy of it (0-2),
    in colours the plain drawing never makes (blue full, green at most 5)."""
    return (card * 4 + 2, 1 + 2 * copy, 255)


@lru_cache(maxsize=2048)
def text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """``text`` drawn once as a mask (a board's labels repeat from one board to the next),
    and where its top left corner lies from the anchor point."""
    face = font(size, bold)
    left, top, right, bottom = (int(v) for v in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, (left, top)


@cache
def card_face(card: int, width: int, height: int, misplaced: bool) -> Image.Image:
    """One card, face up: rank and suit in the top corner (so a fanned card reads),
    a large suit in the middle, the rank again at the bottom; misplaced: amber edged."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = width // 9
    fill = MISPLACED_CARD if misplaced else CARD
    edge = AMBER if misplaced else CARD_EDGE
    edge_w = 5 if misplaced else 2
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=fill, outline=edge,
                           width=edge_w)  # fmt: skip
    colour = suit_colour(card)
    corner = font(width * 30 // 88, bold=True)
    rank = rank_text(card)
    pad = width // 14
    draw.text((pad + 1, pad - 2), rank, font=corner, fill=colour)
    rank_w = draw.textlength(rank, font=corner)
    suit_font = font(width * 28 // 88)
    draw.text((pad + rank_w + 2, pad), SUIT_SYMBOLS[card & 3], font=suit_font, fill=colour)
    big = font(width * 54 // 88)
    draw.text((width / 2, height * 0.6), SUIT_SYMBOLS[card & 3], font=big, fill=colour,
              anchor="mm")  # fmt: skip
    if misplaced:
        star = font(width * 24 // 88, bold=True)
        draw.text((width - pad, height - pad), "★", font=star, fill=AMBER, anchor="rs")
    else:
        small = font(width * 20 // 88, bold=True)
        draw.text((width - pad, height - pad), rank, font=small, fill=colour, anchor="rs")
    return image


@cache
def card_back(width: int, height: int) -> Image.Image:
    """The back of a card (the stock)."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), width // 9, fill=CARD,
                           outline=CARD_EDGE, width=2)  # fmt: skip
    inset = max(3, width // 12)
    draw.rounded_rectangle((inset, inset, width - 1 - inset, height - 1 - inset), width // 14,
                           fill=BACK)  # fmt: skip
    return image


def dashed_outline(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """An empty place: a dashed rounded outline on the felt."""
    x0, y0, x1, y1 = box
    dash, colour = 10, FELT_DIM
    for x in range(x0 + 8, x1 - 8, 2 * dash):
        draw.line((x, y0, min(x + dash, x1 - 8), y0), fill=colour, width=2)
        draw.line((x, y1, min(x + dash, x1 - 8), y1), fill=colour, width=2)
    for y in range(y0 + 8, y1 - 8, 2 * dash):
        draw.line((x0, y, x0, min(y + dash, y1 - 8)), fill=colour, width=2)
        draw.line((x1, y, x1, min(y + dash, y1 - 8)), fill=colour, width=2)


class Canvas:
    """One board being drawn: the image, its layout, and the copies of each card seen."""

    def __init__(self, layout: Layout, style: Style) -> None:
        self.layout, self.style = layout, style
        self.image = Image.new("RGB", (layout.width, layout.height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.copies: dict[int, int] = {}

    def card(self, card: int, x: int, y: int, misplaced: bool = False) -> None:
        lay = self.layout
        face = card_face(card, lay.card_w, lay.card_h, misplaced)
        self.image.paste(face, (x, y), face)
        if self.style.key:
            copy = self.copies.get(card, 0)
            self.copies[card] = copy + 1
            # below the corner's rank, in the part a fanned card keeps showing
            kx, ky = x + lay.card_w - KEY_SIZE - 6, y + 6
            self.draw.rectangle((kx, ky, kx + KEY_SIZE - 1, ky + KEY_SIZE - 1),
                                fill=key_colour(card, copy))  # fmt: skip

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        *,
        bold: bool = False,
        fill: tuple[int, int, int] = FELT_TEXT,
        anchor: str = "la",
    ) -> None:
        mask, (left, top) = text_mask(text, size, bold, anchor)
        x, y = round(xy[0]) + left, round(xy[1]) + top
        self.image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)

    def png(self) -> bytes:
        """The board as PNG: mapped onto ``palette()`` (a third of the size, and faster to
        compress) unless keyed, where the key colours must stay exact."""
        image = self.image
        if not self.style.key:
            image = image.quantize(palette=palette(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=1)
        return out.getvalue()


BLENDS: Final = (
    (RED, CARD), (BLACK, CARD), (RED, MISPLACED_CARD), (BLACK, MISPLACED_CARD),
    (AMBER, MISPLACED_CARD), (AMBER, FELT), (FELT_TEXT, FELT), (FELT_DIM, FELT),
    (FELT_TEXT, FELT_DARK), (FELT_DIM, FELT_DARK), (CARD_EDGE, FELT), (CARD_EDGE, CARD),
    (BACK, CARD), (CARD, FELT), (BLACK, FELT_DARK), (CARD, FELT_DARK), (FELT_DARK, FELT),
    (WON, FELT_DARK), (AMBER, FELT_DARK),
)  # fmt: skip
"""The pairs of colours the drawing puts side by side: their anti-aliased edges are blends."""


@cache
def palette() -> Image.Image:
    """The fixed palette of every plain board: each colour pair of ``BLENDS`` in 13 steps."""
    colours: list[tuple[int, int, int]] = []
    for fg, bg in BLENDS:
        for step in range(13):
            mix = tuple(round(bg[i] + (fg[i] - bg[i]) * step / 12) for i in range(3))
            if mix not in colours:
                colours.append((mix[0], mix[1], mix[2]))
    assert len(colours) <= 256
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in colours for v in colour])
    return image


def draw_board(game: Game, title: str, style: Style = PLAIN) -> Canvas:
    """The board of ``game`` under ``title`` (as the text board's first line)."""
    canvas = Canvas(Layout.of(game), style)
    _header(canvas, game, title)
    for r in range(ROWS):
        _row(canvas, game, r)
    _reserve(canvas, game)
    _footer(canvas, game)
    return canvas


def board_png(game: Game, title: str, style: Style = PLAIN) -> bytes:
    """``draw_board`` as PNG bytes."""
    return draw_board(game, title, style).png()


@lru_cache(maxsize=256)
def title_size(title: str, room: float) -> int:
    """The size of ``title`` (bold): ``TITLE_SIZE``, or smaller until it fits in ``room``
    px (a game's name and a nine-digit deal would run into the score)."""
    size = TITLE_SIZE
    while size > 12 and font(size, bold=True).getlength(title) > room:
        size -= 1
    return size


def _header(canvas: Canvas, game: Game, title: str) -> None:
    lay = canvas.layout
    baseline = 44  # the title and the score share it, whatever the title's size
    score = f"Score {game.score}/{game.variant.card_total}"
    canvas.text((lay.width - MARGIN, baseline), score, TITLE_SIZE, bold=True, anchor="rs")
    room = lay.width - 2 * MARGIN - font(TITLE_SIZE, bold=True).getlength(score) - 24
    canvas.text((MARGIN, baseline), title, title_size(title, room), bold=True, anchor="ls")
    for col in range(lay.piles):
        canvas.text((lay.x(col) + lay.card_w / 2, lay.header - 10), str(col + 1), 22,
                    fill=FELT_DIM, anchor="ms")  # fmt: skip


def _row(canvas: Canvas, game: Game, r: int) -> None:
    lay = canvas.layout
    top = lay.row_y(r)
    canvas.text((lay.left / 2, top + 4), ROW_LETTERS[r], 36, bold=True, anchor="ma")
    for i, step in enumerate(SEQUENCES[r].split()):
        canvas.text((lay.left / 2, top + 42 + i * 25), step, BUILD_SIZE, bold=True,
                    fill=FELT_DIM, anchor="ma")  # fmt: skip
    base = r + 1  # card >> 2 of the row's base
    for col, pile in enumerate(game.row(r)):
        x = lay.x(col)
        if not pile:
            dashed_outline(canvas.draw, (x, top, x + lay.card_w - 1, top + lay.card_h - 1))
            label, mid, middle = ("2", "3", "4")[r], x + lay.card_w / 2, top + lay.card_h / 2
            canvas.text((mid, middle - 12), "space", lay.label_size, fill=FELT_DIM, anchor="mm")
            canvas.text((mid, middle + 14), f"for a {label}", lay.label_size, fill=FELT_DIM,
                        anchor="mm")  # fmt: skip
            continue
        misplaced = len(pile) == 1 and pile[0] >> 2 != base
        for depth, card in enumerate(pile):
            canvas.card(card, x, top + depth * lay.fan, misplaced)


def _reserve(canvas: Canvas, game: Game) -> None:
    lay = canvas.layout
    top = lay.reserve_top
    canvas.draw.line((12, top - 10, lay.width - 12, top - 10), fill=FELT_DARK, width=3)
    canvas.text((lay.left / 2, top + 4), "R", 36, bold=True, anchor="ma")
    for col, pile in enumerate(game.reserve):
        x = lay.x(col)
        if not pile:
            dashed_outline(canvas.draw, (x, top, x + lay.card_w - 1, top + lay.card_h - 1))
            canvas.text((x + lay.card_w / 2, top + lay.card_h / 2), "empty", lay.label_size,
                        fill=FELT_DIM, anchor="mm")  # fmt: skip
        else:
            for under in range(min(len(pile) - 1, 3), 0, -1):  # the depth, as edges
                canvas.draw.rounded_rectangle(
                    (x + 3 * under, top - 3 * under, x + lay.card_w - 1 + 3 * under,
                     top + lay.card_h - 1 - 3 * under), lay.card_w // 9, fill=CARD,
                    outline=CARD_EDGE, width=1)  # fmt: skip
            canvas.card(pile[-1], x, top)
        count = depth_label(len(pile))
        if count is not None:
            canvas.text((x + lay.card_w / 2, top + lay.card_h + 8), count, lay.label_size,
                        anchor="ma")  # fmt: skip


def depth_label(cards: int) -> str | None:
    """The count under a reserve pile of ``cards`` cards, where it tells something: none
    under a single card (the card shows it) or an empty pile (its dashed outline says
    "empty"); "3 cards" under a deeper one, whose edges show only that there are more."""
    return f"{cards} cards" if cards >= 2 else None


def _footer(canvas: Canvas, game: Game) -> None:
    lay = canvas.layout
    top = lay.footer_top
    canvas.draw.rectangle((0, top - 6, lay.width, lay.height), fill=FELT_DARK)
    small_w, small_h = 36, 50
    box = (16, top + 4, 16 + small_w, top + 4 + small_h)
    if game.aces:
        canvas.draw.rounded_rectangle(box, 4, fill=CARD, outline=CARD_EDGE, width=2)
    else:
        canvas.draw.rounded_rectangle(box, 4, outline=FELT_DIM, width=2)
    canvas.text((16 + small_w / 2, top + 4 + small_h / 2), "A", 28, bold=True,
                fill=BLACK if game.aces else FELT_DIM, anchor="mm")  # fmt: skip
    canvas.text((62, top + 12), f"Aces {game.aces}/{game.variant.ace_total}", 28, bold=True)
    deals = game.deals_left
    stock = f"Stock: {deals} deal{'s' if deals != 1 else ''} left" if deals else "Stock empty"
    sx = lay.width // 2 - 20
    if deals:
        back = card_back(small_w, small_h)
        canvas.image.paste(back, (sx, top + 4), back)
    else:
        canvas.draw.rounded_rectangle((sx, top + 4, sx + small_w, top + 4 + small_h), 4,
                                      outline=FELT_DIM, width=2)  # fmt: skip
    canvas.text((sx + 46, top + 12), stock, 28, bold=True)
    status = game.status
    last = (MARGIN, lay.last_line)
    if status is Status.WON:
        canvas.text(last, f"Won! All {game.variant.card_total} cards home.", 24, bold=True,
                    fill=WON)  # fmt: skip
    elif status is Status.STUCK:
        canvas.text(last, "Stuck: no legal move left.", 24, bold=True, fill=AMBER)
    else:
        legend = "★ amber edge: misplaced · dashed: a space or an empty pile"
        canvas.text(last, legend, 22, fill=FELT_DIM)


def prepare(piles: int) -> None:
    """Draw every card face of the layout for ``piles`` piles a row ahead of the first
    board (else the first boards of a process draw the faces they need, some ms each)."""
    layout = Layout(piles)
    for card in range(52):
        for misplaced in (False, True):
            card_face(card, layout.card_w, layout.card_h, misplaced)


def cards_on_view(game: Game) -> Iterator[int]:
    """Every card a board shows face up: the row piles whole, each reserve pile's top."""
    for r in range(ROWS):
        for pile in game.row(r):
            yield from pile
    for pile in game.reserve:
        if pile:
            yield pile[-1]
