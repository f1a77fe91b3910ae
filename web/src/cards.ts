// A card drawn by the page: its rank and suit in text, coloured by CSS (no images).

const SYMBOLS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const NAMES: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS: Record<string, string> = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };

export interface Look {
  symbols: boolean; // suit signs (♠) or letters (S): the player's setting
}

/** The rank as shown: the code's letter or digit ("T" for a Ten, as every message and
 * the text board write it). */
export function rankText(code: string): string {
  return code[0];
}

export function cardName(code: string): string {
  const rank = RANKS[code[0]] ?? code[0];
  return `${rank} of ${NAMES[code[1]]}`;
}

/** A card element with ``data-card`` (its code in the notation: 7C, TD). */
export function cardElement(code: string, look: Look): HTMLElement {
  const card = document.createElement("div");
  const suit = code[1];
  card.className = `card suit-${suit}`;
  card.dataset.card = code;
  card.setAttribute("aria-label", cardName(code));
  const sign = look.symbols ? SYMBOLS[suit] : suit;
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = rankText(code) + sign;
  const middle = document.createElement("span");
  middle.className = "pip";
  middle.textContent = sign;
  middle.setAttribute("aria-hidden", "true");
  card.append(corner, middle);
  return card;
}

/** The words of a move's pile names, as the status line shows them. */
export function suitSign(suit: string, symbols: boolean): string {
  return symbols ? SYMBOLS[suit] : suit;
}
