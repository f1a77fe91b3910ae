// What the status line, the score line and the end-of-game screen say: pure functions of
// the board (no DOM), so that they are tested without a browser (web/test/).

import type { Board, Hint, Target } from "./types";

export const LOST =
  "The connection dropped before the server answered: once it is back, the board shows whether that was played.";
export const OFF_BOARD = "Dropped off the board: drop the card on a highlighted pile.";
/** A held card that a pushed board took away (another tab, a chat move): nothing is sent. */
export const GONE = "That card was moved meanwhile, on another board: nothing was played.";

export type Kind = "error" | "note" | "";

/** What the board itself says: the last move's message and the space warning. */
export function boardNote(board: Board): { text: string; kind: Kind } {
  const text = [board.message, board.warning === null ? null : `Warning: ${board.warning}`].filter(Boolean).join(" · ");
  return { text, kind: board.warning === null ? "" : "note" };
}

/** A hint's sentence, with what to type for a lost game that could still be won further back. */
export function hintText(hint: Hint): string {
  const back =
    hint.undo_to === null ? "" : ` Type 'undo to ${hint.undo_to}' in the Move box to go back to ${hint.back_to}.`;
  return hint.message + back;
}

/** The warnings of a chosen card's moves (a space no base can fill yet), or null if none has one. */
export function carefulText(targets: Target[]): string | null {
  const warned = targets.filter((t) => t.note !== null);
  return warned.length === 0 ? null : `Careful: ${warned.map((t) => `${t.label} ${t.note}`).join("; ")}.`;
}

/** The score line: score, move, the clock (``seconds`` played, when the game keeps one), the daily. */
export function figuresText(b: Board, seconds: number): string {
  const time = b.elapsed_s === null ? "" : ` · ${clockText(seconds)}`;
  const daily = b.daily === null ? "" : ` · daily ${b.daily}${b.par === null ? "" : ` (par ${b.par})`}`;
  return `Score ${b.score}/${b.card_total} · move ${b.moves}${time}${daily}`;
}

export function clockText(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** The end-of-game screen's words; ``racing``: a race's board, ``readOnly``: another racer's. */
export function screenText(b: Board, racing: boolean, readOnly: boolean): string {
  if (racing && b.status === "won") {
    return `${readOnly && b.message === null ? "This racer" : "You"} finished the race's deal ${b.deal} in ${b.moves} moves!`;
  }
  if (b.status === "won") return `You won deal ${b.deal} in ${b.moves} moves!`;
  if (b.finished) return `This game of deal ${b.deal} is over (${b.score}/${b.card_total} cards home).`;
  return `No move is left: ${b.score}/${b.card_total} cards home. Undo, or start a new game.`;
}
