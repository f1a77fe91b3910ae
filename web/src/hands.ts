// Picking cards up: drag and drop with Pointer Events (mouse, pen and touch alike), tap a
// card then tap a pile, and a double tap (or double click) to send a card to its only
// place. While a card is held, the piles the server's legal moves name for it are
// highlighted, and a move that would leave a space no base can fill yet is marked, its
// warning on the status line, before it is played; the page never judges a move itself:
// a drop on any pile is sent to the server, and a refusal returns the card with the
// server's reason.

import type { Board } from "./types";

export interface Hooks {
  board(): Board | null;
  /** Send a move in the notation, made on the board of ``version``; resolves with the
   * refusal's reason, or null if played. */
  play(move: string, version: number): Promise<string | null>;
  deal(): void;
  say(text: string, kind?: "error" | "note"): void;
  /** The status line back to what the board itself says (a chosen card put down). */
  calm(): void;
}

interface Held {
  pointer: number;
  version: number; // the board's when the card was picked up: a move crossed by another is stale
  source: string;
  card: HTMLElement;
  x: number;
  y: number;
  ghost: HTMLElement | null;
}

const DRAG_AFTER = 6; // pixels the pointer moves before a press becomes a drag
const DOUBLE_TAP = 400; // ms between two taps of one card that send it to its place
export const OFF_BOARD = "Dropped off the board: drop the card on a highlighted pile.";

export function reducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class Hands {
  private held: Held | null = null;
  private selected: string | null = null;
  private selectedAt = 0; // the board's version when the card was chosen
  private lastTap = { pile: "", at: 0 };

  constructor(private readonly root: HTMLElement, private readonly hooks: Hooks) {
    root.addEventListener("pointerdown", (e) => this.down(e));
    window.addEventListener("pointermove", (e) => this.move(e));
    window.addEventListener("pointerup", (e) => void this.up(e));
    window.addEventListener("pointercancel", () => this.cancel());
  }

  /** The board was drawn again: the highlights of the held or chosen card are redone. */
  redrawn(): void {
    if (this.selected !== null) this.highlight(this.selected);
  }

  private pileOf(target: EventTarget | null): HTMLElement | null {
    return target instanceof Element ? (target.closest("[data-pile]") as HTMLElement | null) : null;
  }

  private down(event: PointerEvent): void {
    if (event.button !== 0) return;
    const card = event.target instanceof Element ? (event.target.closest(".card.movable") as HTMLElement | null) : null;
    const pile = this.pileOf(card);
    if (card === null || pile === null) return;
    event.preventDefault();
    const version = this.hooks.board()?.version ?? 0;
    this.held = { pointer: event.pointerId, version, source: pile.dataset.pile ?? "", card, x: event.clientX, y: event.clientY, ghost: null };
  }

  private move(event: PointerEvent): void {
    const held = this.held;
    if (held === null || event.pointerId !== held.pointer) return;
    const dx = event.clientX - held.x;
    const dy = event.clientY - held.y;
    if (held.ghost === null) {
      if (Math.hypot(dx, dy) < DRAG_AFTER) return;
      held.ghost = this.lift(held);
    }
    held.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  private lift(held: Held): HTMLElement {
    const rect = held.card.getBoundingClientRect();
    const ghost = held.card.cloneNode(true) as HTMLElement;
    ghost.classList.add("ghost");
    ghost.removeAttribute("data-card");
    Object.assign(ghost.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
    document.body.append(ghost);
    held.card.classList.add("lifted");
    this.select(held.source);
    return ghost;
  }

  private async up(event: PointerEvent): Promise<void> {
    const held = this.held;
    if (held === null || event.pointerId !== held.pointer) {
      const inside = event.target instanceof Node && this.root.contains(event.target);
      if (held === null && event.button === 0 && inside) this.tap(this.pileOf(event.target), false);
      return;
    }
    this.held = null;
    if (held.ghost === null) {
      this.tap(this.pileOf(event.target), true);
      return;
    }
    const ghost = held.ghost;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const pile = this.pileOf(under);
    const target = pile?.dataset.pile;
    this.deselect();
    if (target === undefined || target === "STOCK") {
      this.giveBack(held, ghost, OFF_BOARD);
    } else if (target === held.source) {
      this.giveBack(held, ghost, null);
    } else {
      const reason = await this.hooks.play(`${held.source} ${target}`, held.version);
      if (reason === null) ghost.remove();
      else this.giveBack(held, ghost, reason);
    }
  }

  private cancel(): void {
    const held = this.held;
    this.held = null;
    if (held?.ghost) this.giveBack(held, held.ghost, null);
    this.deselect();
  }

  /** The card flies back to its pile (at once with reduced motion); ``reason`` is shown. */
  private giveBack(held: Held, ghost: HTMLElement, reason: string | null): void {
    if (reason !== null) this.hooks.say(reason, "error");
    else this.hooks.calm(); // put back where it was: the held card's warnings go
    const done = () => {
      ghost.remove();
      held.card.classList.remove("lifted");
    };
    if (reducedMotion()) {
      done();
      return;
    }
    ghost.classList.add("returning");
    ghost.style.transform = "translate(0px, 0px)";
    window.setTimeout(done, 160);
  }

  /** A tap (or click) on ``pile``; ``onCard``: it began on a movable card of it. */
  private tap(pile: HTMLElement | null, onCard: boolean): void {
    const name = pile?.dataset.pile;
    if (name === undefined) {
      if (this.selected !== null) this.hooks.calm();
      this.deselect();
      return;
    }
    if (name === "STOCK") {
      this.deselect();
      this.hooks.deal();
      return;
    }
    const now = performance.now();
    const again = this.lastTap.pile === name && now - this.lastTap.at < DOUBLE_TAP;
    this.lastTap = { pile: name, at: now };
    if (again && onCard) {
      this.deselect();
      this.lastTap = { pile: "", at: 0 };
      void this.hooks.play(name, this.version()); // a card alone: its only place (or the server says which)
      return;
    }
    const chosen = this.selected;
    if (chosen === null) {
      if (onCard) this.select(name);
      return;
    }
    if (chosen === name) {
      this.deselect();
      this.hooks.calm();
      return;
    }
    const legal = (this.hooks.board()?.legal[chosen] ?? []).some((t) => t.to === name);
    if (!legal && onCard) {
      this.select(name);
      return;
    }
    const version = this.selectedAt;
    this.deselect();
    void this.hooks.play(`${chosen} ${name}`, version);
  }

  private version(): number {
    return this.hooks.board()?.version ?? 0;
  }

  /** ``source``'s card chosen: its targets marked, and the status line says the warnings
   * of its moves (or goes back to the board's own words if none has one). */
  private select(source: string): void {
    if (this.selected !== source) this.selectedAt = this.version();
    this.selected = source;
    this.highlight(source);
    const warned = (this.hooks.board()?.legal[source] ?? []).filter((t) => t.note !== null);
    if (warned.length === 0) this.hooks.calm();
    else this.hooks.say(`Careful: ${warned.map((t) => `${t.label} ${t.note}`).join("; ")}.`, "note");
  }

  private deselect(): void {
    this.selected = null;
    this.highlight(null);
  }

  private highlight(source: string | null): void {
    for (const el of this.root.querySelectorAll<HTMLElement>(".target, .chosen")) {
      el.classList.remove("target", "chosen", "warn");
      delete el.dataset.warning;
      el.removeAttribute("title");
    }
    if (source === null) return;
    this.root.querySelector(`[data-pile="${source}"]`)?.classList.add("chosen");
    for (const target of this.hooks.board()?.legal[source] ?? []) {
      const pile = this.root.querySelector<HTMLElement>(`[data-pile="${target.to}"]`);
      pile?.classList.add("target");
      if (pile && target.note !== null) {
        pile.classList.add("warn"); // a move that leaves a space no base can fill yet
        pile.dataset.warning = target.note;
        pile.title = `${target.label}: ${target.note}`;
      }
    }
  }
}
