// The page's state beside the server's board (the chosen card, the card held, the hint,
// read-only), and the classes and attributes it gives each pile and its top card: every
// mark of the board computed here, in one place, from the board and that state (as
// chessground's computeSquareClasses does), and written to the DOM by render.ts alone.
// Pure (no DOM): tested without a browser (web/test/).

import type { Board, Hint } from "./types";

/** What the page adds to the server's board. main.ts and hands.ts change it and ask for a
 * redraw; they never touch the board's classes themselves. */
export interface PageState {
  /** The pile whose card is chosen (tapped, or held in a drag): its targets are marked. */
  selected: string | null;
  /** The card lifted by a drag (dimmed while its ghost is carried, or flies back). */
  lifted: { pile: string; card: string } | null;
  /** The last hint, its piles marked while the board is at its version. */
  hint: Hint | null;
  /** Another racer's board, or a race game that is over: no card can be picked up. */
  readOnly: boolean;
  /** Whose board: "game" (the player's own) or "race:<race>:<racer>". */
  view: string;
}

export function pageState(): PageState {
  return { selected: null, lifted: null, hint: null, readOnly: false, view: "game" };
}

/** One pile's marks: its classes, the warning of a move onto it (``data-warning`` and its
 * title), and the classes of its top card. */
export interface PileMarks {
  classes: string[];
  warning: string | null;
  title: string | null;
  top: string[];
}

/** The card on top of ``pile`` (A1, R5, ACE), or null. */
export function topCard(board: Board, pile: string): string | null {
  for (const row of board.rows) {
    const found = row.piles.find((p) => p.pile === pile);
    if (found) return found.cards[found.cards.length - 1] ?? null;
  }
  const reserve = board.reserve.find((p) => p.pile === pile);
  if (reserve) return reserve.cards[reserve.cards.length - 1] ?? null;
  if (pile === "ACE") return board.aces.cards[board.aces.cards.length - 1] ?? null;
  return null;
}

/** The card that may be picked up from ``pile``: a reserve pile's top card, or a row's
 * misplaced card (none on a read-only board). */
export function movableCard(board: Board, pile: string, readOnly: boolean): string | null {
  if (readOnly) return null;
  const reserve = board.reserve.find((p) => p.pile === pile);
  if (reserve) return topCard(board, pile);
  for (const row of board.rows) {
    const found = row.piles.find((p) => p.pile === pile);
    if (found) return found.misplaced ? topCard(board, pile) : null;
  }
  return null;
}

/** Every pile's marks, by its name (data-pile): rows, reserve, STOCK, ACE. */
export function boardMarks(board: Board, state: PageState): Map<string, PileMarks> {
  const marks = new Map<string, PileMarks>();
  const add = (pile: string, classes: string[]) => {
    const movable = movableCard(board, pile, state.readOnly) !== null;
    const lifted = state.lifted !== null && state.lifted.pile === pile && state.lifted.card === topCard(board, pile);
    const top = [...(movable ? ["movable"] : []), ...(lifted ? ["lifted"] : [])];
    marks.set(pile, { classes: ["pile", ...classes], warning: null, title: null, top });
  };
  for (const row of board.rows) {
    for (const p of row.piles) {
      add(p.pile, ["row-pile", ...flags({ space: p.space, based: p.based, misplaced: p.misplaced })]);
    }
  }
  for (const p of board.reserve) add(p.pile, ["reserve-pile", ...flags({ empty: p.cards.length === 0 })]);
  add("STOCK", ["stock", ...flags({ "can-deal": board.can.deal })]);
  add("ACE", ["ace-pile"]);
  const chosen = state.selected === null ? undefined : marks.get(state.selected);
  if (state.selected !== null && chosen !== undefined) {
    chosen.classes.push("chosen");
    for (const target of board.legal[state.selected] ?? []) {
      const pile = marks.get(target.to);
      if (pile === undefined) continue;
      pile.classes.push("target");
      if (target.note !== null) {
        pile.classes.push("warn"); // a move that leaves a space no base can fill yet
        pile.warning = target.note;
        pile.title = `${target.label}: ${target.note}`;
      }
    }
  }
  for (const name of hinted(state.hint)) marks.get(name)?.classes.push("hinted");
  return marks;
}

/** The piles a hint marks: its move's two, or the stock for a deal. */
export function hinted(hint: Hint | null): string[] {
  if (hint === null) return [];
  const piles = hint.move === "deal" ? ["STOCK"] : [hint.from, hint.to];
  return piles.filter((p): p is string => Boolean(p));
}

function flags(named: Record<string, boolean>): string[] {
  return Object.entries(named)
    .filter(([, on]) => on)
    .map(([name]) => name);
}
