// The web board: draws the server's board, sends the player's moves in the notation, and
// shows what the server says. It decides no rule: legal targets come from the server.
// It keeps the page's state (marks.ts: the hint, read-only, whose board) beside the board
// and asks render.ts to draw the two; it never writes the board's classes itself.

import { boot, followParticipants } from "./activity";
import { Hands } from "./hands";
import { pageState } from "./marks";
import { Connection } from "./net";
import { draw } from "./render";
import { drawRoom } from "./room";
import { boardNote, figuresText, hintText, LOST, screenText } from "./texts";
import { asksFirst, dealNumber, movesBack, takeBackQuestion, typedCommand } from "./typed";
import type { Board, Frame, RequestId } from "./types";

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const root = byId<HTMLDivElement>("board");
const status = byId<HTMLParagraphElement>("status");
const figures = byId<HTMLParagraphElement>("figures");
const moveInput = byId<HTMLInputElement>("move");
const screen = byId<HTMLDivElement>("screen");
const roomBox = byId<HTMLElement>("room");

let board: Board | null = null;
let clock = { seconds: 0, at: 0 };
const page = pageState(); // the hint, read-only, whose board; the hands' chosen and lifted card
let refused: RequestId = null; // the id of the last request refused
let dismissed = -1; // the version whose won/stuck screen the player closed
const waiting = new Map<number, (reason: string | null) => void>();

function say(text: string, kind: "error" | "note" | "" = ""): void {
  status.textContent = text;
  status.className = `status ${kind}`;
}

/** The status line says what the board says: the last move's message and warning. */
function calm(): void {
  if (board === null) return;
  const note = boardNote(board);
  say(note.text, note.kind);
}

/** The board drawn again, from the board and the page's state (the one writer: render.ts). */
function redraw(): void {
  draw(root, board, page);
}

function settle(id: RequestId, reason: string | null): void {
  if (typeof id !== "number") return; // (the page's ids are numbers)
  const done = waiting.get(id);
  waiting.delete(id);
  done?.(reason);
}

function request(frame: { type: string; [field: string]: unknown }): Promise<string | null> {
  const id = connection.send(frame);
  return new Promise((resolve) => waiting.set(id, resolve));
}

function play(move: string, version?: number): Promise<string | null> {
  return request({ type: "move", move, version: version ?? board?.version ?? 0 });
}

/** A command (a button, or typed in the Move box), with its fields (``count``, ``to``);
 * resolves as ``request`` does, or at once with a reason if the player said no. */
function command(kind: string, fields: Record<string, number> = {}): Promise<string | null> {
  const declined = Promise.resolve("Nothing was changed.");
  if (kind === "resign" && !confirm("Give up this game? It is recorded as resigned.")) return declined;
  const moves = board?.moves ?? 0;
  const back = movesBack(kind, fields, moves);
  if (asksFirst(back, moves) && !confirm(takeBackQuestion(kind, back))) {
    return declined;
  }
  return request({ type: kind, version: board?.version ?? 0, ...fields });
}

function scoreLine(b: Board): string {
  return figuresText(b, clock.seconds + (performance.now() - clock.at) / 1000);
}

/** Draw ``b``; ``keep``: the status line keeps the refusal that came with it (a stale
 * request is answered with an error and the current board). */
function show(b: Board, keep = false): void {
  board = b;
  clock = { seconds: b.elapsed_s ?? 0, at: performance.now() };
  if (page.hint !== null && page.hint.version !== b.version) page.hint = null;
  if (!keep) calm();
  if (page.hint !== null) say(hintText(page.hint), "note");
  hands.boardChanged(); // a held card the board took away is let go (and said so)
  redraw();
  document.body.classList.toggle("racing", page.view !== "game");
  byId("title").textContent = `${b.game} · deal ${b.deal}`;
  figures.textContent = scoreLine(b);
  const can: Record<string, boolean> = { ...b.can, hint: b.playing, resign: b.playing };
  for (const button of document.querySelectorAll<HTMLButtonElement>("nav [data-command]")) {
    button.disabled = !can[button.dataset.command ?? ""];
  }
  byId<HTMLInputElement>("set-letters").checked = !b.settings.symbols;
  byId<HTMLInputElement>("set-auto").checked = b.settings.auto_aces;
  byId<HTMLInputElement>("set-winnable").checked = b.settings.winnable;
  byId<HTMLSelectElement>("variant").value = b.variant;
  showScreen(b);
}

function showScreen(b: Board): void {
  const over = b.status === "won" || b.status === "stuck" || b.finished;
  screen.hidden = !over || dismissed === b.version || page.readOnly; // not over another's board
  if (!over || page.readOnly) return;
  const racing = page.view !== "game";
  byId("screen-text").textContent = screenText(b, racing, page.readOnly);
  const share = byId("screen-share"); // a won daily's share line: selected whole by a click
  share.textContent = b.status === "won" && !racing ? (b.share ?? "") : "";
  share.hidden = share.textContent === "";
  byId<HTMLButtonElement>("screen-undo").hidden = !b.can.undo;
  screen.dataset.status = b.status;
}

function received(frame: Frame): void {
  switch (frame.type) {
    case "hello": {
      const select = byId<HTMLSelectElement>("variant");
      select.replaceChildren(...frame.games.map((g) => new Option(g.name, g.code)));
      document.body.classList.toggle("in-room", frame.room);
      return;
    }
    case "room":
      drawRoom(roomBox, frame, (ask) => void request(ask));
      settle(frame.id, null);
      return;
    case "board":
      if ((frame.view ?? "game") !== page.view) dismissed = -1;
      page.view = frame.view ?? "game";
      page.readOnly = frame.read_only ?? false;
      show(frame.board, frame.id !== null && frame.id === refused);
      settle(frame.id, null);
      return;
    case "no-game":
      board = null;
      hands.boardChanged();
      redraw();
      figures.textContent = "";
      say(frame.message);
      settle(frame.id, frame.message); // nothing was played: a held card goes back
      return;
    case "hint":
      page.hint = frame.hint; // shown now, and on the board that follows (same version)
      say(hintText(frame.hint), "note");
      redraw();
      settle(frame.id, null);
      return;
    case "error":
      refused = frame.id;
      say(frame.message, "error");
      settle(frame.id, frame.message);
      return;
  }
}

const connection = new Connection(received, (up) => document.body.classList.toggle("offline", !up));
connection.onLost = (ids) => {
  const waited = ids.filter((id) => waiting.has(id));
  for (const id of waited) settle(id, LOST);
  if (waited.length > 0) say(LOST, "error");
};
const hands = new Hands(root, {
  board: () => board,
  state: page,
  redraw,
  play,
  deal: () => void command("deal"),
  say,
  calm,
});

function wire(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("[data-command]")) {
    const kind = button.dataset.command ?? "";
    if (kind === "new") continue; // the start form's submit
    button.addEventListener("click", () => (kind === "daily" ? start("daily") : void command(kind)));
  }
  byId<HTMLButtonElement>("screen-close").addEventListener("click", () => {
    dismissed = board?.version ?? -1;
    screen.hidden = true;
  });
  screen.querySelector<HTMLButtonElement>("[data-command=new]")?.addEventListener("click", () => start("new"));
  byId<HTMLFormElement>("start").addEventListener("submit", (event) => {
    event.preventDefault();
    start("new");
  });
  byId<HTMLFormElement>("entry").addEventListener("submit", (event) => {
    event.preventDefault();
    void typed(moveInput.value.trim());
  });
  wireSettings();
}

async function typed(text: string): Promise<void> {
  if (text === "") return;
  const asked = typedCommand(text);
  if (asked !== null && "refusal" in asked) {
    say(asked.refusal, "error");
    return;
  }
  // "deal" is a move of the notation: the server plays it as the Deal button does
  const reason = asked === null || asked.kind === "deal" ? await play(text) : await command(asked.kind, asked.fields);
  if (reason === null) moveInput.value = "";
}

function start(kind: "new" | "daily"): void {
  const typed = kind === "new" ? dealNumber(byId<HTMLInputElement>("deal-number").value) : { deal: null };
  if ("refusal" in typed) {
    say(typed.refusal, "error"); // before asking anything: nothing is ended
    return;
  }
  const deal = typed.deal;
  const ending = board?.in_progress === true && !(kind === "daily" && board.daily !== null);
  if (ending && !confirm("End the game in progress? It is recorded as abandoned.")) return;
  const variant = byId<HTMLSelectElement>("variant").value || "vr";
  const frame: Record<string, unknown> = { type: kind, version: board?.version ?? null, variant };
  if (deal !== null) frame.deal = deal;
  screen.hidden = true;
  void request(frame as { type: string });
}

function wireSettings(): void {
  const server: [string, string, boolean][] = [
    ["set-letters", "symbols", true],
    ["set-auto", "auto_aces", false],
    ["set-winnable", "winnable", false],
  ];
  for (const [id, name, inverted] of server) {
    const box = byId<HTMLInputElement>(id);
    box.addEventListener(
      "change",
      () => void request({ type: "settings", [name]: inverted ? !box.checked : box.checked }),
    );
  }
  const four = byId<HTMLInputElement>("set-four");
  four.checked = kept("reel-four") === "1";
  document.documentElement.classList.toggle("four", four.checked);
  four.addEventListener("change", () => {
    keep("reel-four", four.checked ? "1" : "0");
    document.documentElement.classList.toggle("four", four.checked);
  });
  const saved = kept("reel-theme");
  if (saved) document.documentElement.dataset.theme = saved;
  byId<HTMLButtonElement>("theme").addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === "dark"
      : window.matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "light" : "dark";
    keep("reel-theme", dark ? "light" : "dark");
  });
}

/** The browser's storage, where the page's own settings are kept: a frame may be denied it
 * (a browser's privacy setting in Discord's iframe), and reading it then throws; the page
 * goes on without, and says so beside the settings. */
function kept(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    noStorage();
    return null;
  }
}

function keep(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    noStorage();
  }
}

function noStorage(): void {
  const note = byId<HTMLParagraphElement>("storage-note");
  note.textContent =
    "This browser lets the page keep nothing (its storage is blocked): four-colour suits and the theme last until the page is closed.";
  note.hidden = false;
}

window.setInterval(() => {
  if (board?.playing && board.elapsed_s !== null) figures.textContent = scoreLine(board);
}, 1000);
wire();

/** Sign in (in Discord, or through the SDK's mock in a test or local mode) and connect;
 * outside Discord, with no local player, say where the board runs. */
async function begin(): Promise<void> {
  say("Signing in…", "note");
  const started = await boot((text) => say(text, "note")).catch((error: unknown) => ({
    kind: "outside" as const,
    reason: `Sign-in failed: ${String(error)}`,
  }));
  if (started.kind === "outside") {
    document.body.classList.add("outside");
    byId("outside").textContent = started.reason;
    say(started.reason, "error");
    return;
  }
  say("");
  connection.open(started.kind === "signed" ? started.session : null);
  if (started.kind === "signed") {
    let present: string[] | null = null; // the participants the SDK reported last
    const report = (users: string[]) => {
      present = users;
      connection.send({ type: "participants", users });
    };
    connection.onOpen = () => {
      if (present !== null) connection.send({ type: "participants", users: present }); // again, after a reconnect
    };
    void followParticipants(started.sdk, report); // subscribed once
  }
}

void begin();
