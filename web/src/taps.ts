// The rules of the hands, pure (no DOM, no clock of their own): what a tap does, given the
// chosen card and the tap before it, and what a drop does. hands.ts carries them out;
// web/test/ tests them without a browser. The page judges no move: a tap or a drop on a
// pile that is not among the server's targets is sent all the same, and refused by it.

import type { Target } from "./types";

export const DOUBLE_TAP = 400; // ms between two taps of one card that send it to its place

/** The last tap: its pile and when (``performance.now()``), for the double tap. */
export interface LastTap {
  pile: string;
  at: number;
}

export const NO_TAP: LastTap = { pile: "", at: 0 };

export type TapAction =
  | { kind: "none" } // nothing chosen, and a tap on a pile's background
  | { kind: "deselect"; calm: boolean } // the chosen card put down (``calm``: the status line back to the board's words)
  | { kind: "deal" } // the stock: the chosen card put down, and a deal asked
  | { kind: "select"; pile: string } // this pile's card chosen, its targets marked
  | { kind: "home"; pile: string } // a double tap: the card alone sent, to its only place
  | { kind: "play"; move: string }; // the chosen card to this pile, on the board it was chosen on

export interface Tap {
  pile: string | null; // the pile tapped (data-pile), null: off every pile
  onCard: boolean; // the tap began on a movable card of it
  now: number;
  chosen: string | null; // the pile whose card is chosen
  last: LastTap;
  legal: Record<string, Target[]>; // the server's legal moves, by source pile
}

/** What ``tap`` does, and the last tap to remember for the next one. */
export function tapAction(tap: Tap): { action: TapAction; last: LastTap } {
  const { pile, onCard, now, chosen, last } = tap;
  if (pile === null) return { action: chosen === null ? { kind: "none" } : { kind: "deselect", calm: true }, last };
  if (pile === "STOCK") return { action: { kind: "deal" }, last };
  const again = last.pile === pile && now - last.at < DOUBLE_TAP;
  if (again && onCard) return { action: { kind: "home", pile }, last: NO_TAP };
  const next = { pile, at: now };
  if (chosen === null) return { action: onCard ? { kind: "select", pile } : { kind: "none" }, last: next };
  if (chosen === pile) return { action: { kind: "deselect", calm: true }, last: next };
  const legal = (tap.legal[chosen] ?? []).some((t) => t.to === pile);
  if (!legal && onCard) return { action: { kind: "select", pile }, last: next }; // another card chosen instead
  return { action: { kind: "play", move: `${chosen} ${pile}` }, last: next };
}

export type DropAction = { kind: "back"; reason: string | null } | { kind: "play"; move: string };

/** What a dragged card dropped on ``target`` (its data-pile; undefined: off every pile) does. */
export function dropAction(source: string, target: string | undefined, offBoard: string): DropAction {
  if (target === undefined || target === "STOCK") return { kind: "back", reason: offBoard };
  if (target === source) return { kind: "back", reason: null };
  return { kind: "play", move: `${source} ${target}` };
}
