// The board's WebSocket: requests out with an id, frames in; it reconnects when closed
// (the server then sends the current board, so nothing is missed: a request sent before
// the drop was played or not, and the board says which; one queued while offline carries
// the version it was made on, so it is never played twice).

import type { Frame, Request } from "./types";

export type Listener = (frame: Frame) => void;

const REFUSED = 4003; // the server's close when a socket may not enter its room

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private retry = 250;
  private queue: string[] = [];
  /** Called each time the socket opens (again): the room's participants are sent then. */
  onOpen: (() => void) | null = null;

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
    const protocols = session === null ? ["reel"] : ["reel", `session.${session}`];
    const ws = new WebSocket(`${scheme}//${location.host}/ws`, protocols);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 250;
      this.onState(true);
      for (const text of this.queue.splice(0)) ws.send(text);
      this.onOpen?.();
    };
    ws.onmessage = (event) => {
      if (typeof event.data === "string") this.listener(JSON.parse(event.data) as Frame);
    };
    ws.onclose = (event) => {
      if (event.code === REFUSED) return; // not in this room: the page says why, no retry
      this.onState(false);
      this.ws = null;
      window.setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  /** Send ``request``; its id (the answer's frames carry it back). */
  send(request: Request): number {
    const id = this.nextId++;
    const text = JSON.stringify({ ...request, id });
    if (this.ws !== null && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
    return id;
  }
}
