// What the player types, read before anything is sent: the Move box's commands (as the
// terminal takes them: ``undo 3``, ``undo to 12``, ``redo 2``) and the start form's deal
// number. Pure (no DOM): tested without a browser (web/test/).

import { BAD_DEAL, CONFIRM_UNDO, MAX_DEAL, MIN_DEAL, VERSIONED } from "./wire";

export { CONFIRM_UNDO, MAX_DEAL, MIN_DEAL };

const WORDS = new Set<string>(VERSIONED); // the commands the Move box takes (and their counts)
const STEP_USAGE: Record<string, string> = {
  undo: "Type 'undo' to take back your last move, 'undo N' for the last N moves, or 'undo to N' to go back to move N.",
  redo: "Type 'redo' to play again the last move taken back, or 'redo N' for N of them.",
};

export type Typed = { kind: string; fields: Record<string, number> } | { refusal: string } | null;

/** What the Move box takes besides a move, as the terminal does: a command alone, ``undo
 * N``, ``undo to N``, ``redo N``. Null: a move (the server judges it); ``refusal``: why
 * the text is neither. */
export function typedCommand(text: string): Typed {
  const words = text.toLowerCase().split(/\s+/);
  const [head, ...rest] = words;
  if (!WORDS.has(head)) return null;
  if (rest.length === 0) return { kind: head, fields: {} };
  const number = (word: string) => (/^[0-9]+$/.test(word) && Number.isSafeInteger(Number(word)) ? Number(word) : null);
  if (head === "undo" || head === "redo") {
    const count = rest.length === 1 ? number(rest[0]) : null;
    if (count !== null) return { kind: head, fields: { count } };
    const to = head === "undo" && rest.length === 2 && rest[0] === "to" ? number(rest[1]) : null;
    if (to !== null) return { kind: head, fields: { to } };
    return { refusal: STEP_USAGE[head] };
  }
  return { refusal: `'${head}' takes nothing after it: type '${head}' alone.` };
}

/** How many moves a command takes back from a game of ``moves`` moves: an undo's, or a
 * restart's (all of them, as the terminal counts it); 0 for any other command. */
export function movesBack(kind: string, fields: Record<string, number>, moves: number): number {
  if (kind === "restart") return moves;
  if (kind !== "undo") return 0;
  return fields.to !== undefined ? moves - fields.to : (fields.count ?? 1);
}

/** The question asked before taking back ``back`` moves (``asksFirst``). */
export function takeBackQuestion(kind: string, back: number): string {
  return kind === "restart"
    ? `Start this deal over, taking back all ${back} moves? (Redo brings them back.)`
    : `Take back ${back} moves? (Redo brings them back.)`;
}

/** Whether taking back ``back`` of ``moves`` moves asks first (more than ten, and possible). */
export function asksFirst(back: number, moves: number): boolean {
  return back > CONFIRM_UNDO && back <= moves;
}

/** The deal number typed in the start form, as the server takes it (its digits: deal
 * numbers go past JavaScript's exact numbers); null: none typed (a random deal);
 * ``refusal`` when it is no deal number. */
export function dealNumber(text: string): { deal: string | null } | { refusal: string } {
  const typed = text.trim();
  if (typed === "") return { deal: null };
  const digits = typed.replace(/[,_\s]/g, "");
  if (!/^[0-9]+$/.test(digits) || BigInt(digits) < MIN_DEAL || BigInt(digits) > MAX_DEAL) {
    return { refusal: `${BAD_DEAL}, not '${typed}'.` };
  }
  return { deal: BigInt(digits).toString() };
}
