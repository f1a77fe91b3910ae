// Picking cards up: drag and drop with Pointer Events (mouse, pen and touch alike), tap a
// card then tap a pile, and a double tap (or double click) to send a card to its only
// place. While a card is held, the piles the server's legal moves name for it are
// highlighted, and a move that would leave a space no base can fill yet is marked, its
// warning on the status line, before it is played; the page never judges a move itself:
// a drop on any pile is sent to the server, and a refusal returns the card with the
// server's reason.
//
// The hands change the page's state (the chosen card, the lifted one: marks.ts) and ask
// for a redraw; render.ts alone writes the board's classes. What a tap or a drop does is
// decided by taps.ts. A drag whose card a pushed board took away is cancelled: its ghost
// removed, nothing sent.

import { movableCard, type PageState } from "./marks";
import { dropAction, type LastTap, NO_TAP, tapAction } from "./taps";
import { carefulText, GONE, OFF_BOARD } from "./texts";
import type { Board } from "./types";

export interface Hooks {
  board(): Board | null;
  /** The page's state, which the hands change (``selected``, ``lifted``). */
  state: PageState;
  /** Draw the board again, from the board and the state. */
  redraw(): void;
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
  card: string; // its code (data-card): the drag goes on only while it is still there
  x: number;
  y: number;
  ghost: HTMLElement | null;
}

const DRAG_AFTER = 6; // pixels the pointer moves before a press becomes a drag

export function reducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class Hands {
  private held: Held | null = null;
  private selectedAt = 0; // the board's version when the card was chosen
  private lastTap: LastTap = NO_TAP;
  private dropped: number | null = null; // the pointer of a drag cancelled under it: its release is no tap

  constructor(
    private readonly root: HTMLElement,
    private readonly hooks: Hooks,
  ) {
    root.addEventListener("pointerdown", (e) => this.down(e));
    window.addEventListener("pointermove", (e) => this.move(e));
    window.addEventListener("pointerup", (e) => void this.up(e));
    window.addEventListener("pointercancel", () => this.cancel());
  }

  private get state(): PageState {
    return this.hooks.state;
  }

  /** A new board is about to be drawn: a held card no longer on its pile (another board's
   * move took it, or the board became read-only) is let go, nothing sent. */
  boardChanged(): void {
    const held = this.held;
    const board = this.hooks.board();
    if (held === null || (board !== null && movableCard(board, held.source, this.state.readOnly) === held.card)) return;
    this.held = null;
    this.dropped = held.pointer;
    this.state.selected = null;
    this.state.lifted = null;
    if (held.ghost !== null) {
      held.ghost.remove();
      this.hooks.say(GONE, "note");
    }
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
    this.dropped = null;
    const version = this.hooks.board()?.version ?? 0;
    const source = pile.dataset.pile ?? "";
    this.held = {
      pointer: event.pointerId,
      version,
      source,
      card: card.dataset.card ?? "",
      x: event.clientX,
      y: event.clientY,
      ghost: null,
    };
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

  /** The ghost (a copy of the card, outside the board) that follows the pointer. */
  private lift(held: Held): HTMLElement {
    const card = this.root.querySelector<HTMLElement>(`[data-pile="${held.source}"] [data-card="${held.card}"]`);
    const rect = card?.getBoundingClientRect() ?? new DOMRect(held.x, held.y, 0, 0);
    const ghost = (card?.cloneNode(true) as HTMLElement | undefined) ?? document.createElement("div");
    ghost.classList.add("ghost");
    ghost.classList.remove("movable", "lifted");
    ghost.removeAttribute("data-card");
    Object.assign(ghost.style, {
      left: `${rect.left}px`,
      top: `${rect.top}px`,
      width: `${rect.width}px`,
      height: `${rect.height}px`,
    });
    document.body.append(ghost);
    this.state.lifted = { pile: held.source, card: held.card };
    this.select(held.source);
    return ghost;
  }

  private async up(event: PointerEvent): Promise<void> {
    const held = this.held;
    if (held === null || event.pointerId !== held.pointer) {
      if (this.dropped === event.pointerId) {
        this.dropped = null; // the release of a drag cancelled under it: nothing more
        return;
      }
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
    const lifted = this.state.lifted;
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const drop = dropAction(held.source, this.pileOf(under)?.dataset.pile, OFF_BOARD);
    this.deselect();
    if (drop.kind === "back") {
      this.giveBack(ghost, lifted, drop.reason);
      return;
    }
    const reason = await this.hooks.play(drop.move, held.version);
    if (reason === null) this.land(ghost, lifted);
    else this.giveBack(ghost, lifted, reason);
  }

  private cancel(): void {
    const held = this.held;
    this.held = null;
    if (held?.ghost) this.giveBack(held.ghost, this.state.lifted, null);
    this.deselect();
  }

  /** The ghost gone and its card no longer dimmed (unless another drag lifted one since). */
  private land(ghost: HTMLElement, lifted: PageState["lifted"]): void {
    ghost.remove();
    if (lifted !== null && this.state.lifted === lifted) {
      this.state.lifted = null;
      this.hooks.redraw();
    }
  }

  /** The card flies back to its pile (at once with reduced motion); ``reason`` is shown. */
  private giveBack(ghost: HTMLElement, lifted: PageState["lifted"], reason: string | null): void {
    if (reason !== null) this.hooks.say(reason, "error");
    else this.hooks.calm(); // put back where it was: the held card's warnings go
    if (reducedMotion()) {
      this.land(ghost, lifted);
      return;
    }
    ghost.classList.add("returning");
    ghost.style.transform = "translate(0px, 0px)";
    window.setTimeout(() => this.land(ghost, lifted), 160);
  }

  /** A tap (or click) on ``pile``; ``onCard``: it began on a movable card of it. */
  private tap(pile: HTMLElement | null, onCard: boolean): void {
    const chosen = this.state.selected;
    const legal = this.hooks.board()?.legal ?? {};
    const tap = { pile: pile?.dataset.pile ?? null, onCard, now: performance.now(), chosen, last: this.lastTap, legal };
    const { action, last } = tapAction(tap);
    this.lastTap = last;
    switch (action.kind) {
      case "none":
        return;
      case "deselect":
        this.deselect();
        if (action.calm) this.hooks.calm();
        return;
      case "deal":
        this.deselect();
        this.hooks.deal();
        return;
      case "select":
        this.select(action.pile);
        return;
      case "home":
        this.deselect();
        void this.hooks.play(action.pile, this.version()); // a card alone: its only place (or the server says which)
        return;
      case "play": {
        const version = this.selectedAt;
        this.deselect();
        void this.hooks.play(action.move, version);
        return;
      }
    }
  }

  private version(): number {
    return this.hooks.board()?.version ?? 0;
  }

  /** ``source``'s card chosen: its targets marked, and the status line says the warnings
   * of its moves (or goes back to the board's own words if none has one). */
  private select(source: string): void {
    if (this.state.selected !== source) this.selectedAt = this.version();
    this.state.selected = source;
    this.hooks.redraw();
    const careful = carefulText(this.hooks.board()?.legal[source] ?? []);
    if (careful === null) this.hooks.calm();
    else this.hooks.say(careful, "note");
  }

  private deselect(): void {
    if (this.state.selected === null) return;
    this.state.selected = null;
    this.hooks.redraw();
  }
}
