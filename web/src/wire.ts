// Generated from bot/web/wire.py by `python -m bot.web.wire_ts`: do not edit.
// To change the wire, change bot/web/wire.py, run `python -m bot.web.wire_ts` from the
// repository's root, then `npm run build` in web/ (.ci/run fails when this file differs).

export const MAX_FRAME = 2048;
export const MAX_ID = 40;
export const MAX_USERS = 50;
export const DEAL_DIGITS = 19;
export const MIN_DEAL = 1;
export const MAX_DEAL = 9223372036854775807n;
export const BAD_DEAL = "A deal number is a whole number from 1 to 9223372036854775807, like 42";
export const CONFIRM_UNDO = 10;
export const REFUSED = 4003;
export const PROTOCOL = "reel";
export const TOKEN_PROTOCOL = "session.";
export const VERSIONED = ["deal", "undo", "redo", "restart", "auto", "hint", "resign"] as const;
export const SETTINGS = ["symbols", "auto_aces", "winnable"] as const;

export interface GameName {
  code: string;
  name: string;
}

/** The first frame on a socket: the games of the family, whether someone is signed in, the limits, and whether the socket is in an Activity's room. */
export interface HelloFrame {
  type: "hello";
  games: GameName[];
  signed_in: boolean;
  max_frame: number;
  version: null;
  room: boolean;
}

export interface RowPile {
  pile: string;
  cards: string[];
  based: boolean;
  misplaced: boolean;
  space: boolean;
}

export interface Row {
  row: string;
  builds: string;
  piles: RowPile[];
}

export interface ReservePile {
  pile: string;
  cards: string[];
  depth: number;
}

export interface Stock {
  cards: number;
  deals_left: number;
}

export interface Aces {
  count: number;
  total: number;
  cards: string[];
}

export interface Can {
  deal: boolean;
  undo: boolean;
  redo: boolean;
  auto: boolean;
  restart: boolean;
}

/** Where a card may go: a legal move from its pile. */
export interface Target {
  to: string;
  move: string;
  card: string | null;
  label: string;
  note: string | null;
}

export interface BoardSettings {
  symbols: boolean;
  auto_aces: boolean;
  winnable: boolean;
}

/** The whole board, as the page draws it (``board.board_json``). */
export interface Board {
  version: number;
  position: string;
  variant: string;
  game: string;
  deal: string;
  rows: Row[];
  reserve: ReservePile[];
  stock: Stock;
  aces: Aces;
  score: number;
  card_total: number;
  moves: number;
  undos: number;
  clock: string | null;
  elapsed_s: number | null;
  status: "playing" | "won" | "stuck";
  finished: boolean;
  playing: boolean;
  in_progress: boolean;
  message: string | null;
  warning: string | null;
  can: Can;
  legal: Record<string, Target[]>;
  daily: string | null;
  scored: boolean;
  par: number | null;
  assisted: boolean;
  share: string | null;
  settings: BoardSettings;
}

/** A board, after every change; in a room, ``view`` says whose (``"game"``: the player's own, ``"race:<race>:<racer>"``: a race game), with its race and racer. */
export interface BoardFrame {
  type: "board";
  id: number | string | null;
  version: number;
  board: Board;
  view?: string;
  race?: string;
  racer?: string;
  read_only?: boolean;
}

/** The player has no game yet: ``message`` says how to start one. */
export interface NoGameFrame {
  type: "no-game";
  id: number | string | null;
  version: null;
  message: string;
  view?: string;
}

export interface Hint {
  move: string | null;
  from: string | null;
  to: string | null;
  label: string | null;
  source: "solver" | "heuristic" | "lost" | "none" | "blind";
  message: string;
  undo_to: number | null;
  back_to: string | null;
  version: number;
}

export interface HintFrame {
  type: "hint";
  id: number | string | null;
  version: number;
  hint: Hint;
}

/** A refusal: nothing was done. ``version``: the game's, when one is known. */
export interface ErrorFrame {
  type: "error";
  id: number | string | null;
  code: string;
  message: string;
  version: number | null;
}

export interface Person {
  id: string;
  name: string;
  here: boolean;
}

export interface RoomRacer {
  id: string;
  name: string;
  status: "joined" | "racing" | "won" | "left" | "timed_out";
  score: number;
  moves: number;
  elapsed_s: number;
  place: number | null;
  version: number;
}

export interface Race {
  id: string;
  deal: string;
  state: "lobby" | "running" | "over" | "cancelled";
  host: string;
  starts_at: string;
  ends_at: string | null;
  card_total: number;
  racers: RoomRacer[];
}

/** An Activity's room: who is in it, its race and standings, whose board is shown. */
export interface RoomFrame {
  type: "room";
  id: number | string | null;
  version: null;
  instance: string;
  you: string;
  people: Person[];
  race: Race | null;
  watching: string | null;
}

/** ``POST /api/play``'s answer: the request's frames, the first one's type on top. */
export interface ApiAnswer {
  type: string;
  frames: Frame[];
}

/** ``GET /api/activity``: what the page may do (nothing secret). */
export interface ActivityConfig {
  client_id: string | null;
  mock: boolean;
  local: boolean;
}

export interface SignedUser {
  id: string;
  name: string;
}

/** ``POST /api/token``'s answer: the access token for the SDK, and the session. */
export interface SignedIn {
  access_token: string;
  session: string;
  user: SignedUser;
  expires: number;
}

export interface BoardRequest {
  type: "board";
  id?: number | string | null;
}

export interface MoveRequest {
  type: "move";
  id?: number | string | null;
  move: string;
  version: number;
}

/** A command with the version of the board it was made on (``auto``: the safe Aces). */
export interface CommandRequest {
  type: "deal" | "restart" | "auto" | "hint" | "resign";
  id?: number | string | null;
  version: number;
}

/** ``count``: the last so many moves; ``to``: back to that move (not both). */
export interface UndoRequest {
  type: "undo";
  id?: number | string | null;
  version: number;
  count?: number | null;
  to?: number | null;
}

export interface RedoRequest {
  type: "redo";
  id?: number | string | null;
  version: number;
  count?: number | null;
}

/** A new game; ``deal``: its digits, as text (a JSON number up to 2**53 - 1). */
export interface NewRequest {
  type: "new";
  id?: number | string | null;
  version?: number | null;
  variant?: string | null;
  deal?: number | string | null;
}

export interface DailyRequest {
  type: "daily";
  id?: number | string | null;
  version?: number | null;
  variant?: string | null;
}

export interface SettingsRequest {
  type: "settings";
  id?: number | string | null;
  symbols?: boolean | null;
  auto_aces?: boolean | null;
  winnable?: boolean | null;
}

/** The participants the SDK reports (Discord ids, as text), ``MAX_USERS`` at most. */
export interface ParticipantsRequest {
  type: "participants";
  id?: number | string | null;
  users: (string | number)[];
}

export interface RaceRequest {
  type: "race-open" | "race-join" | "race-start" | "race-leave";
  id?: number | string | null;
}

/** Watch a racer's board (``user``: their id, as text); null: back to your own. */
export interface WatchRequest {
  type: "watch";
  id?: number | string | null;
  user?: number | string | null;
}

/** ``POST /api/token``: the code Discord's authorize gave, and the instance. */
export interface SignInRequest {
  code: string;
  instance_id: string;
}

/** Every frame the server sends. */
export type Frame = HelloFrame | BoardFrame | NoGameFrame | HintFrame | ErrorFrame | RoomFrame;
/** A request's id, which its answer's frames carry back. */
export type RequestId = BoardFrame["id"];
/** Every request a page may send. */
export type WireRequest = BoardRequest | MoveRequest | CommandRequest | UndoRequest | RedoRequest | NewRequest | DailyRequest | SettingsRequest | ParticipantsRequest | RaceRequest | WatchRequest;

type Kind = "string" | "number" | "boolean" | "null" | "array" | "object";

function kindOf(value: unknown): Kind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  return kind === "string" || kind === "number" || kind === "boolean" ? kind : "object";
}

/** Why ``value`` (a message, parsed) is no frame the server defines, or null when it is
 * one: an object, of a known type, with its required fields, each field of its kind. */
export function frameProblem(value: unknown): string | null {
  if (kindOf(value) !== "object") return `not an object but ${kindOf(value)}`;
  const frame = value as Record<string, unknown>;
  const type = frame.type;
  if (typeof type !== "string" || !Object.hasOwn(FRAME_FIELDS, type)) {
    return `no frame of type ${JSON.stringify(type)}`;
  }
  for (const [name, [required, kinds]] of Object.entries(FRAME_FIELDS[type as Frame["type"]])) {
    if (!Object.hasOwn(frame, name)) {
      if (required) return `${type} frame without its ${name}`;
    } else if (!kinds.includes(kindOf(frame[name]))) {
      return `${type} frame whose ${name} is ${kindOf(frame[name])}, not ${kinds.join(" or ")}`;
    }
  }
  return null;
}

/** Each frame's fields (``type`` aside): required, and the JSON kinds it takes. */
const FRAME_FIELDS: Record<Frame["type"], Record<string, readonly [boolean, readonly Kind[]]>> = {
  "hello": { games: [true, ["array"]], signed_in: [true, ["boolean"]], max_frame: [true, ["number"]], version: [true, ["null"]], room: [true, ["boolean"]] },
  "board": { id: [true, ["null", "number", "string"]], version: [true, ["number"]], board: [true, ["object"]], view: [false, ["string"]], race: [false, ["string"]], racer: [false, ["string"]], read_only: [false, ["boolean"]] },
  "no-game": { id: [true, ["null", "number", "string"]], version: [true, ["null"]], message: [true, ["string"]], view: [false, ["string"]] },
  "hint": { id: [true, ["null", "number", "string"]], version: [true, ["number"]], hint: [true, ["object"]] },
  "error": { id: [true, ["null", "number", "string"]], code: [true, ["string"]], message: [true, ["string"]], version: [true, ["null", "number"]] },
  "room": { id: [true, ["null", "number", "string"]], version: [true, ["null"]], instance: [true, ["string"]], you: [true, ["string"]], people: [true, ["array"]], race: [true, ["null", "object"]], watching: [true, ["null", "string"]] },
};
