// The frames the server sends (bot/web/board.py, bot/web/protocol.py; docs/web.md). Deal
// numbers and ids are text: they go to 2**63 - 1, past JavaScript's exact whole numbers
// (2**53), so the page never does arithmetic on them.

export interface RowPile {
  pile: string; // "A1"
  cards: string[]; // bottom first: "2H", "5H"
  based: boolean;
  misplaced: boolean;
  space: boolean;
}

export interface Row {
  row: string; // "A"
  builds: string; // "2-5-8-J"
  piles: RowPile[];
}

export interface ReservePile {
  pile: string; // "R1"
  cards: string[];
  depth: number;
}

export interface Target {
  to: string; // "A5", "ACE"
  move: string; // "R3 A5"
  card: string | null;
  label: string;
  note: string | null;
}

export interface Board {
  version: number;
  position: string;
  variant: string;
  game: string;
  deal: string; // digits: "9223372036854775807"
  rows: Row[];
  reserve: ReservePile[];
  stock: { cards: number; deals_left: number };
  aces: { count: number; total: number; cards: string[] };
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
  can: { deal: boolean; undo: boolean; redo: boolean; auto: boolean; restart: boolean };
  legal: Record<string, Target[]>;
  daily: string | null;
  scored: boolean;
  par: number | null;
  assisted: boolean;
  share: string | null;
  settings: { symbols: boolean; auto_aces: boolean; winnable: boolean };
}

export interface Hint {
  move: string | null;
  from: string | null;
  to: string | null;
  label: string | null;
  message: string;
  undo_to: number | null; // a lost game: the move it could still be won from ("undo to N")
  back_to: string | null; // that move's name: "move 5", "the start"
  version: number;
}

export interface RoomRacer {
  id: string; // a Discord id, as text
  name: string;
  status: "joined" | "racing" | "won" | "left" | "timed_out";
  score: number;
  moves: number;
  elapsed_s: number;
  place: number | null;
  version: number; // the racer's game's version
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

export interface Room {
  instance: string;
  you: string;
  people: { id: string; name: string; here: boolean }[];
  race: Race | null;
  watching: string | null;
}

export type Frame =
  | { type: "hello"; games: { code: string; name: string }[]; signed_in: boolean; max_frame: number; room: boolean }
  | {
      type: "board";
      id: number | null;
      version: number;
      board: Board;
      view?: string; // "game", or "race:<race>:<racer>"
      race?: string;
      racer?: string;
      read_only?: boolean;
    }
  | ({ type: "room"; id: number | null } & Room)
  | { type: "no-game"; id: number | null; message: string }
  | { type: "hint"; id: number | null; version: number; hint: Hint }
  | { type: "error"; id: number | null; code: string; message: string; version: number | null };

export type Request = { type: string; [field: string]: unknown };
