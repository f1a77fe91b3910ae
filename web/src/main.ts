// The web board: draws the server's board, sends the player's moves in the notation, and
// shows what the server says. It decides no rule: legal targets come from the server.

import { boot, followParticipants } from "./activity";
import { Hands } from "./hands";
import { Connection } from "./net";
import { drawBoard } from "./render";
import { drawRoom } from "./room";
import type { Board, Frame, Hint, RequestId } from "./types";
import { BAD_DEAL, CONFIRM_UNDO, MAX_DEAL, MIN_DEAL, VERSIONED } from "./wire";

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const root = byId<HTMLDivElement>("board");
const status = byId<HTMLParagraphElement>("status");
const figures = byId<HTMLParagraphElement>("figures");
const moveInput = byId<HTMLInputElement>("move");
const screen = byId<HTMLDivElement>("screen");
const roomBox = byId<HTMLElement>("room");

let board: Board | null = null;
let clock = { seconds: 0, at: 0 };
let hint: Hint | null = null; // the last hint, shown while the board is at its version
let refused: RequestId = null; // the id of the last request refused
let dismissed = -1; // the version whose won/stuck screen the player closed
let shown = "game"; // whose board: "game" (the player's own) or "race:<race>:<racer>"
let readOnly = false; // another racer's board, or a race game that is over
const waiting = new Map<number, (reason: string | null) => void>();
const WORDS = new Set<string>(VERSIONED); // the commands the Move box takes (and their counts)
const STEP_USAGE: Record<string, string> = {
  undo: "Type 'undo' to take back your last move, 'undo N' for the last N moves, or 'undo to N' to go back to move N.",
  redo: "Type 'redo' to play again the last move taken back, or 'redo N' for N of them.",
};
const LOST =
  "The connection dropped before the server answered: once it is back, the board shows whether that was played.";

function say(text: string, kind: "error" | "note" | "" = ""): void {
  status.textContent = text;
  status.className = `status ${kind}`;
}

/** The status line says what the board says: the last move's message and warning. */
function calm(): void {
  if (board === null) return;
  const note = [board.message, board.warning === null ? null : `Warning: ${board.warning}`].filter(Boolean).join(" · ");
  say(note, board.warning === null ? "" : "note");
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
  const back = kind !== "undo" ? 0 : fields.to !== undefined ? (board?.moves ?? 0) - fields.to : (fields.count ?? 1);
  if (back > CONFIRM_UNDO && back <= (board?.moves ?? 0) && !confirm(`Take back ${back} moves? (Redo brings them back.)`)) {
    return declined;
  }
  return request({ type: kind, version: board?.version ?? 0, ...fields });
}

/** What the Move box takes besides a move, as the terminal does: a command alone, ``undo
 * N``, ``undo to N``, ``redo N``. Null: a move (the server judges it); ``refusal``: why
 * the text is neither. */
function typedCommand(text: string): { kind: string; fields: Record<string, number> } | { refusal: string } | null {
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

function figuresText(b: Board): string {
  const time = b.elapsed_s === null ? "" : ` · ${clockText(clock.seconds + (performance.now() - clock.at) / 1000)}`;
  const daily = b.daily === null ? "" : ` · daily ${b.daily}${b.par === null ? "" : ` (par ${b.par})`}`;
  return `Score ${b.score}/${b.card_total} · move ${b.moves}${time}${daily}`;
}

function clockText(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** Draw ``b``; ``keep``: the status line keeps the refusal that came with it (a stale
 * request is answered with an error and the current board). */
function show(b: Board, keep = false): void {
  board = b;
  clock = { seconds: b.elapsed_s ?? 0, at: performance.now() };
  drawBoard(root, b, { symbols: b.settings.symbols });
  if (readOnly) for (const card of root.querySelectorAll(".movable")) card.classList.remove("movable");
  root.dataset.view = shown;
  root.dataset.readOnly = String(readOnly);
  document.body.classList.toggle("racing", shown !== "game");
  hands.redrawn();
  if (hint !== null && hint.version !== b.version) hint = null;
  byId("title").textContent = `${b.game} · deal ${b.deal}`;
  figures.textContent = figuresText(b);
  if (!keep) calm();
  const can: Record<string, boolean> = { ...b.can, hint: b.playing, resign: b.playing };
  for (const button of document.querySelectorAll<HTMLButtonElement>("nav [data-command]")) {
    button.disabled = !can[button.dataset.command ?? ""];
  }
  byId<HTMLInputElement>("set-letters").checked = !b.settings.symbols;
  byId<HTMLInputElement>("set-auto").checked = b.settings.auto_aces;
  byId<HTMLInputElement>("set-winnable").checked = b.settings.winnable;
  byId<HTMLSelectElement>("variant").value = b.variant;
  showScreen(b);
  if (hint !== null) showHint(hint);
}

function showScreen(b: Board): void {
  const over = b.status === "won" || b.status === "stuck" || b.finished;
  screen.hidden = !over || dismissed === b.version || readOnly; // not over another's board
  if (!over || readOnly) return;
  const racing = shown !== "game";
  const text =
    racing && b.status === "won"
      ? `${readOnly && b.message === null ? "This racer" : "You"} finished the race's deal ${b.deal} in ${b.moves} moves!`
      : b.status === "won"
      ? `You won deal ${b.deal} in ${b.moves} moves!`
      : b.finished
        ? `This game of deal ${b.deal} is over (${b.score}/${b.card_total} cards home).`
        : `No move is left: ${b.score}/${b.card_total} cards home. Undo, or start a new game.`;
  byId("screen-text").textContent = text;
  const share = byId("screen-share"); // a won daily's share line: selected whole by a click
  share.textContent = b.status === "won" && !racing ? b.share ?? "" : "";
  share.hidden = share.textContent === "";
  byId<HTMLButtonElement>("screen-undo").hidden = !b.can.undo;
  screen.dataset.status = b.status;
}

function showHint(hint: Hint): void {
  const back = hint.undo_to === null ? "" : ` Type 'undo to ${hint.undo_to}' in the Move box to go back to ${hint.back_to}.`;
  say(hint.message + back, "note");
  for (const el of root.querySelectorAll(".hinted")) el.classList.remove("hinted");
  const piles = hint.move === "deal" ? ["STOCK"] : [hint.from, hint.to];
  for (const name of piles) if (name) root.querySelector(`[data-pile="${name}"]`)?.classList.add("hinted");
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
      if ((frame.view ?? "game") !== shown) dismissed = -1;
      shown = frame.view ?? "game";
      readOnly = frame.read_only ?? false;
      show(frame.board, frame.id !== null && frame.id === refused);
      settle(frame.id, null);
      return;
    case "no-game":
      board = null;
      root.replaceChildren();
      root.dataset.position = "";
      figures.textContent = "";
      say(frame.message);
      settle(frame.id, frame.message); // nothing was played: a held card goes back
      return;
    case "hint":
      hint = frame.hint; // shown now, and again on the board that follows (same version)
      showHint(frame.hint);
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
const hands = new Hands(root, { board: () => board, play, deal: () => void command("deal"), say, calm });

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

/** The deal number typed in the start form, as the server takes it (its digits: deal
 * numbers go past JavaScript's exact numbers); null: none typed (a random deal). Throws
 * the refusal when it is no deal number. */
function typedDeal(): string | null {
  const typed = byId<HTMLInputElement>("deal-number").value.trim();
  if (typed === "") return null;
  const digits = typed.replace(/[,_\s]/g, "");
  if (!/^[0-9]+$/.test(digits) || BigInt(digits) < MIN_DEAL || BigInt(digits) > MAX_DEAL) {
    throw new Error(`${BAD_DEAL}, not '${typed}'.`);
  }
  return BigInt(digits).toString();
}

function start(kind: "new" | "daily"): void {
  let deal: string | null = null;
  try {
    deal = kind === "new" ? typedDeal() : null;
  } catch (refusal) {
    say((refusal as Error).message, "error"); // before asking anything: nothing is ended
    return;
  }
  const ending = board !== null && board.in_progress && !(kind === "daily" && board.daily !== null);
  if (ending && !confirm("End the game in progress? It is recorded as abandoned.")) return;
  const variant = byId<HTMLSelectElement>("variant").value || "vr";
  const frame: Record<string, unknown> = { type: kind, version: board?.version ?? null, variant };
  if (deal !== null) frame.deal = deal;
  screen.hidden = true;
  void request(frame as { type: string });
}

function wireSettings(): void {
  const server: [string, string, boolean][] = [["set-letters", "symbols", true], ["set-auto", "auto_aces", false], ["set-winnable", "winnable", false]];
  for (const [id, name, inverted] of server) {
    const box = byId<HTMLInputElement>(id);
    box.addEventListener("change", () => void request({ type: "settings", [name]: inverted ? !box.checked : box.checked }));
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
  note.textContent = "This browser lets the page keep nothing (its storage is blocked): four-colour suits and the theme last until the page is closed.";
  note.hidden = false;
}

window.setInterval(() => {
  if (board !== null && board.playing && board.elapsed_s !== null) figures.textContent = figuresText(board);
}, 1000);
wire();

/** Sign in (in Discord, or through the SDK's mock in a test or local mode) and connect;
 * outside Discord, with no local player, say where the board runs. */
async function begin(): Promise<void> {
  say("Signing in…", "note");
  const started = await boot((text) => say(text, "note")).catch((error: unknown) => ({ kind: "outside" as const, reason: `Sign-in failed: ${String(error)}` }));
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
