// The board drawn from the server's view: rows A-C, the reserve, the stock, the Ace pile.
// Every pile element carries data-pile (A1, R5, ACE, STOCK), every card data-card, and
// the board's root data-position (the engine's position string).
//
// The one writer of the board's DOM: ``draw`` takes the board and the page's state
// (marks.ts) and writes every element, class and attribute of the board. Its elements are
// built anew only when the board itself changes; the marks (the chosen card, targets,
// warnings, the hint, the lifted card, what is movable) are computed by ``boardMarks`` in
// one place and set on every draw, so none is left over from an earlier one.

import { cardElement, type Look } from "./cards";
import { boardMarks, type PageState } from "./marks";
import type { Board, ReservePile, Row, RowPile } from "./types";

const HALF_AT = 12; // games of 12 piles a row are drawn in two halves of 6 (as the text board)

function pileElement(name: string, kind: string): HTMLElement {
  const pile = document.createElement("div");
  pile.className = `pile ${kind}`;
  pile.dataset.pile = name;
  return pile;
}

function rowPile(data: RowPile, look: Look): HTMLElement {
  const pile = pileElement(data.pile, "row-pile");
  pile.setAttribute("aria-label", `${data.pile}${data.space ? ", a space" : ""}`);
  const cards = data.cards.map((code) => cardElement(code, look));
  cards.forEach((card, i) => {
    card.style.setProperty("--i", String(i));
  });
  pile.append(...cards);
  return pile;
}

function reservePile(data: ReservePile, look: Look): HTMLElement {
  const pile = pileElement(data.pile, "reserve-pile");
  pile.setAttribute("aria-label", `${data.pile}, ${data.depth} card${data.depth === 1 ? "" : "s"}`);
  if (data.cards.length > 0) pile.append(cardElement(data.cards[data.cards.length - 1], look));
  const depth = document.createElement("span");
  depth.className = "depth";
  depth.textContent = String(data.depth);
  pile.append(depth);
  return pile;
}

/** A row's line of one half. ``depth``: the row's tallest pile over both halves, which
 * halves drawn side by side share, so that each row stays one line across the board. In
 * the second half the label is left blank: the same rows go on, not new ones. */
function rowLine(row: Row, from: number, to: number, depth: number, look: Look): HTMLElement {
  const line = document.createElement("div");
  line.className = "line";
  line.dataset.row = row.row;
  const piles = row.piles.slice(from, to);
  line.style.setProperty("--dh", String(tallest(piles)));
  line.style.setProperty("--dr", String(depth));
  line.append(label(row.row, from, `Row ${row.row} builds ${row.builds}`), ...piles.map((p) => rowPile(p, look)));
  return line;
}

function tallest(piles: RowPile[]): number {
  return Math.max(1, ...piles.map((p) => p.cards.length));
}

function label(text: string, from: number, title: string): HTMLElement {
  const span = document.createElement("span");
  span.className = "label";
  if (from === 0) {
    span.textContent = text;
    span.title = title;
  }
  return span;
}

/** The column numbers over a half, as the notation names the piles (A5, R12). */
function numbers(from: number, to: number): HTMLElement {
  const line = document.createElement("div");
  line.className = "line numbers";
  line.setAttribute("aria-hidden", "true"); // each pile's own label names it
  const columns = Array.from({ length: to - from }, (_, i) => {
    const span = document.createElement("span");
    span.className = "number";
    span.textContent = String(from + i + 1);
    return span;
  });
  line.append(label("", 1, ""), ...columns);
  return line;
}

function reserveLine(board: Board, from: number, to: number, look: Look): HTMLElement {
  const line = document.createElement("div");
  line.className = "line reserve";
  line.append(label("R", from, "The reserve"), ...board.reserve.slice(from, to).map((p) => reservePile(p, look)));
  return line;
}

function side(board: Board, look: Look): HTMLElement {
  const box = document.createElement("div");
  box.className = "side";
  const stock = pileElement("STOCK", "stock");
  stock.setAttribute("role", "button");
  stock.setAttribute("aria-label", `Stock: ${board.stock.deals_left} deals left. Deal`);
  const back = document.createElement("div");
  back.className = "card back";
  back.textContent = String(board.stock.deals_left);
  stock.append(back, caption(`${board.stock.deals_left} deal${board.stock.deals_left === 1 ? "" : "s"}`));
  const aces = pileElement("ACE", "ace-pile");
  aces.setAttribute("aria-label", `Ace pile: ${board.aces.count} of ${board.aces.total}`);
  const last = board.aces.cards[board.aces.cards.length - 1];
  aces.append(last ? cardElement(last, look) : emptySlot("A"), caption(`${board.aces.count}/${board.aces.total} Aces`));
  box.append(stock, aces);
  return box;
}

function caption(text: string): HTMLElement {
  const span = document.createElement("span");
  span.className = "caption";
  span.textContent = text;
  return span;
}

function emptySlot(text: string): HTMLElement {
  const slot = document.createElement("div");
  slot.className = "card slot";
  slot.textContent = text;
  return slot;
}

/** The board's elements built into ``root`` (its children replaced; data-position set). */
function build(root: HTMLElement, board: Board, look: Look): void {
  const width = board.rows[0].piles.length;
  const halves =
    width >= HALF_AT
      ? [
          [0, width / 2],
          [width / 2, width],
        ]
      : [[0, width]];
  const parts = halves.map(([from, to]) => {
    const half = document.createElement("div");
    half.className = "half";
    half.style.setProperty("--cols", String(to - from));
    half.append(
      numbers(from, to),
      ...board.rows.map((row) => rowLine(row, from, to, tallest(row.piles), look)),
      reserveLine(board, from, to, look),
    );
    return half;
  });
  const grid = document.createElement("div");
  grid.className = `grid${halves.length > 1 ? " halves" : ""}`;
  grid.append(...parts);
  root.replaceChildren(grid, side(board, look));
  root.dataset.position = board.position;
  root.dataset.version = String(board.version);
  root.dataset.status = board.status;
  root.dataset.variant = board.variant;
}

const built = new WeakMap<HTMLElement, Board>(); // the board each root's elements were built from

/** Draw ``board`` into ``root`` with the page's ``state``: its elements built if the
 * board is new, then every pile's classes, warning and title, and its top card's, set
 * from ``boardMarks``. Null: no game (an empty board). */
export function draw(root: HTMLElement, board: Board | null, state: PageState): void {
  if (board === null) {
    built.delete(root);
    root.replaceChildren();
    root.dataset.position = "";
    return;
  }
  if (built.get(root) !== board) {
    build(root, board, { symbols: board.settings.symbols });
    built.set(root, board);
  }
  const marks = boardMarks(board, state);
  for (const pile of root.querySelectorAll<HTMLElement>("[data-pile]")) {
    const mark = marks.get(pile.dataset.pile ?? "");
    if (mark === undefined) continue;
    pile.className = mark.classes.join(" ");
    attribute(pile, "data-warning", mark.warning);
    attribute(pile, "title", mark.title);
    const cards = pile.querySelectorAll<HTMLElement>(".card[data-card]");
    cards.forEach((card, i) => {
      for (const name of CARD_MARKS) card.classList.toggle(name, i === cards.length - 1 && mark.top.includes(name));
    });
  }
  root.dataset.view = state.view;
  root.dataset.readOnly = String(state.readOnly);
}

const CARD_MARKS = ["movable", "lifted"];

function attribute(element: HTMLElement, name: string, value: string | null): void {
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}
