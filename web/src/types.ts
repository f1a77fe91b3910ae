// The page's types. The wire's (every frame and request, the board they carry) are
// defined once, in bot/web/wire.py, and generated into wire.ts: here are their names as
// the page has long imported them, and the page's own. Deal numbers and ids are text:
// they go to 2**63 - 1, past JavaScript's exact whole numbers (2**53), so the page never
// does arithmetic on them.

/** What the room's panel draws: the room frame as it came. */
export type {
  Board,
  BoardFrame,
  ErrorFrame,
  Frame,
  Hint,
  HintFrame,
  NoGameFrame,
  Race,
  RequestId,
  ReservePile,
  RoomFrame as Room,
  RoomRacer,
  Row,
  RowPile,
  Target,
  WireRequest,
} from "./wire";

/** What the page hands the socket to send (``net.ts`` adds its id): one of the wire's
 * requests (``WireRequest``), built where the player's controls are. */
export type Request = { type: string; [field: string]: unknown };
