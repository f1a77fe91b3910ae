// The board's WebSocket: requests out with an id, frames in; it reconnects when closed
// (the server then sends the current board, so nothing is missed: a request sent before
// the drop was played or not, and the board says which; one queued while offline carries
// the version it was made on, so it is never played twice). A request sent on a socket
// that closes before any frame answers it is given up (``onLost``): its answer can't come
// on another socket, and whoever waits on it must not wait for ever. Every frame that
// comes is checked against the wire's definitions (``frameProblem``, wire.ts) before the
// page sees it: one that is not a frame the server defines is logged and ignored.

import type { Frame, Request } from "./types";
import { frameProblem, PROTOCOL, REFUSED, TOKEN_PROTOCOL } from "./wire";

export type Listener = (frame: Frame) => void;

/** The frame in a message's text, or null (logged) when it is no frame the server defines. */
export function readFrame(text: string): Frame | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    console.warn(`reel: a message that is not JSON was ignored: ${text.slice(0, 200)}`);
    return null;
  }
  const problem = frameProblem(parsed);
  if (problem === null) return parsed as Frame;
  console.warn(`reel: a frame was ignored (${problem}): ${text.slice(0, 200)}`);
  return null;
}

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private retry = 250;
  private queue: { id: number; text: string }[] = [];
  private pending = new Set<number>(); // sent on the open socket, no frame of theirs yet
  private refused = false; // closed for good: not in this room
  /** Called each time the socket opens (again): the room's participants are sent then. */
  onOpen: (() => void) | null = null;
  /** Called with the ids of the requests the socket's close left unanswered. */
  onLost: ((ids: number[]) => void) | null = null;

  private session: string | null = null;

  constructor(
    private readonly listener: Listener,
    private readonly onState: (up: boolean) => void,
  ) {}

  /** Open the socket; ``session``: a signed-in player's (Discord's sign-in), carried in the
   * subprotocol (a cookie in Discord's iframe is a third-party cookie a browser may drop). */
  open(session: string | null = this.session): void {
    this.session = session;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const protocols = session === null ? [PROTOCOL] : [PROTOCOL, `${TOKEN_PROTOCOL}${session}`];
    const ws = new WebSocket(`${scheme}//${location.host}/ws`, protocols);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 250;
      this.onState(true);
      for (const { id, text } of this.queue.splice(0)) this.put(ws, id, text);
      this.onOpen?.();
    };
    ws.onmessage = (event) => {
      if (typeof event.data !== "string") return;
      const frame = readFrame(event.data);
      if (frame === null) return;
      if ("id" in frame && typeof frame.id === "number") this.pending.delete(frame.id);
      this.listener(frame);
    };
    ws.onclose = (event) => {
      this.ws = null;
      const lost = [...this.pending];
      this.pending.clear();
      if (event.code === REFUSED) {
        // refused for good (no session, or not in this room): the page says why, no retry, and nothing queued is ever sent
        this.refused = true;
        lost.push(...this.queue.splice(0).map((queued) => queued.id));
        this.lose(lost);
        return;
      }
      this.onState(false);
      this.lose(lost);
      window.setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  /** Send ``request``; its id (the answer's frames carry it back). */
  send(request: Request): number {
    const id = this.nextId++;
    const text = JSON.stringify({ ...request, id });
    if (this.refused)
      queueMicrotask(() => this.lose([id])); // (once its caller waits)
    else if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) this.put(this.ws, id, text);
    else this.queue.push({ id, text });
    return id;
  }

  private put(ws: WebSocket, id: number, text: string): void {
    this.pending.add(id);
    ws.send(text);
  }

  private lose(ids: number[]): void {
    if (ids.length > 0) this.onLost?.(ids);
  }
}
