// The board's WebSocket: requests out with an id, frames in; it reconnects when closed
// (the server then sends the current board, so nothing is missed).

import type { Frame, Request } from "./types";

export type Listener = (frame: Frame) => void;

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private retry = 250;
  private queue: string[] = [];

  constructor(private readonly listener: Listener, private readonly onState: (up: boolean) => void) {}

  open(): void {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 250;
      this.onState(true);
      for (const text of this.queue.splice(0)) ws.send(text);
    };
    ws.onmessage = (event) => {
      if (typeof event.data === "string") this.listener(JSON.parse(event.data) as Frame);
    };
    ws.onclose = () => {
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
