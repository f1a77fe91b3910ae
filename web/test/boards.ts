// Boards for the page's tests, shaped as the server sends them (bot/web/board.py), with
// only what a test needs written out.

import type { Board, Hint, RowPile, Target } from "../src/types";

/** A row pile from its cards, bottom first: based if it starts with its row's base (the
 * base given), misplaced if it is one card that is not. */
export function pile(name: string, cards: string[], base: string): RowPile {
  const based = cards.length > 0 && cards[0][0] === base;
  return { pile: name, cards, based, misplaced: cards.length === 1 && !based, space: cards.length === 0 };
}

export function target(to: string, from: string, note: string | null = null): Target {
  return { to, move: `${from} ${to}`, card: null, label: `${from} to ${to}`, note };
}

/** Virginia Reel's 3 rows of 8 and 8 reserve piles: ``rows`` gives some row piles' cards
 * (the others hold their row's base alone), ``reserve`` some reserve piles' cards. */
export function board(
  fields: Partial<Board> & { rowCards?: Record<string, string[]>; reserveCards?: Record<string, string[]> } = {},
): Board {
  const { rowCards = {}, reserveCards = {}, ...rest } = fields;
  const bases: Record<string, string> = { A: "2", B: "3", C: "4" };
  const rows = ["A", "B", "C"].map((row) => ({
    row,
    builds: { A: "2-5-8-J", B: "3-6-9-Q", C: "4-7-T-K" }[row] ?? "",
    piles: Array.from({ length: 8 }, (_, i) => {
      const name = `${row}${i + 1}`;
      return pile(name, rowCards[name] ?? [`${bases[row]}S`], bases[row]);
    }),
  }));
  const reserve = Array.from({ length: 8 }, (_, i) => {
    const cards = reserveCards[`R${i + 1}`] ?? ["KH"];
    return { pile: `R${i + 1}`, cards, depth: cards.length };
  });
  return {
    version: 3,
    position: "vr test",
    variant: "vr",
    game: "Virginia Reel",
    deal: "16",
    rows,
    reserve,
    stock: { cards: 72, deals_left: 9 },
    aces: { count: 0, total: 8, cards: [] },
    score: 5,
    card_total: 104,
    moves: 2,
    undos: 0,
    clock: null,
    elapsed_s: null,
    status: "playing",
    finished: false,
    playing: true,
    in_progress: true,
    message: null,
    warning: null,
    can: { deal: false, undo: true, redo: false, auto: false, restart: true },
    legal: {},
    daily: null,
    scored: false,
    par: null,
    assisted: false,
    share: null,
    settings: { symbols: true, auto_aces: true, winnable: true },
    ...rest,
  };
}

export function hint(fields: Partial<Hint> = {}): Hint {
  return {
    move: "R3 A5",
    from: "R3",
    to: "A5",
    label: "R3 to A5",
    source: "solver",
    message: "Try R3 to A5.",
    undo_to: null,
    back_to: null,
    version: 3,
    ...fields,
  };
}
