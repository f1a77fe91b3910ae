import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { boardMarks, hinted, movableCard, type PageState, pageState, topCard } from "../src/marks";
import { board, hint, target } from "./boards";

function state(fields: Partial<PageState> = {}): PageState {
  return { ...pageState(), ...fields };
}

/** The piles whose marks have ``name`` (a class of the pile, or of its top card with ``top``). */
function having(marks: ReturnType<typeof boardMarks>, name: string, top = false): string[] {
  return [...marks]
    .filter(([, m]) => (top ? m.top : m.classes).includes(name))
    .map(([pile]) => pile)
    .sort();
}

// A1 is a based pile of two cards, A2 a misplaced card, B4 a space; R2 is empty.
const BOARD = board({
  rowCards: { A1: ["2H", "5H"], A2: ["7D"], B4: [] },
  reserveCards: { R2: [] },
  legal: {
    R3: [target("A2", "R3"), target("B4", "R3", "leaves a space no Three can fill")],
    A2: [target("ACE", "A2")],
  },
  can: { deal: true, undo: true, redo: false, auto: false, restart: true },
});

describe("the cards that may be picked up", () => {
  test("are each reserve pile's top card and the misplaced cards of the rows", () => {
    const marks = boardMarks(BOARD, state());
    const reserve = ["R1", "R3", "R4", "R5", "R6", "R7", "R8"];
    assert.deepEqual(having(marks, "movable", true), ["A2", ...reserve].sort());
  });
  test("are none on a read-only board", () => {
    assert.deepEqual(having(boardMarks(BOARD, state({ readOnly: true })), "movable", true), []);
    assert.equal(movableCard(BOARD, "R1", true), null);
  });
  test("movableCard names the card, or null for a based pile, an empty one, the Ace pile", () => {
    assert.equal(movableCard(BOARD, "A2", false), "7D");
    assert.equal(movableCard(BOARD, "R1", false), "KH");
    assert.equal(movableCard(BOARD, "A1", false), null);
    assert.equal(movableCard(BOARD, "R2", false), null);
    assert.equal(movableCard(BOARD, "ACE", false), null);
    assert.equal(topCard(BOARD, "A1"), "5H");
  });
});

describe("a pile's own classes", () => {
  test("say its kind and what the server says of it", () => {
    const marks = boardMarks(BOARD, state());
    assert.deepEqual(marks.get("A1")?.classes, ["pile", "row-pile", "based"]);
    assert.deepEqual(marks.get("A2")?.classes, ["pile", "row-pile", "misplaced"]);
    assert.deepEqual(marks.get("B4")?.classes, ["pile", "row-pile", "space"]);
    assert.deepEqual(marks.get("R2")?.classes, ["pile", "reserve-pile", "empty"]);
    assert.deepEqual(marks.get("R1")?.classes, ["pile", "reserve-pile"]);
    assert.deepEqual(marks.get("STOCK")?.classes, ["pile", "stock", "can-deal"]);
    assert.deepEqual(marks.get("ACE")?.classes, ["pile", "ace-pile"]);
    assert.equal(marks.size, 24 + 8 + 2);
  });
});

describe("a chosen card", () => {
  test("marks its pile chosen and the server's targets, a warned one with its warning", () => {
    const marks = boardMarks(BOARD, state({ selected: "R3" }));
    assert.deepEqual(having(marks, "chosen"), ["R3"]);
    assert.deepEqual(having(marks, "target"), ["A2", "B4"]);
    assert.deepEqual(having(marks, "warn"), ["B4"]);
    assert.equal(marks.get("B4")?.warning, "leaves a space no Three can fill");
    assert.equal(marks.get("B4")?.title, "R3 to B4: leaves a space no Three can fill");
    assert.equal(marks.get("A2")?.warning, null);
    assert.equal(marks.get("A2")?.title, null);
  });
  test("with no legal move marks its pile alone", () => {
    const marks = boardMarks(BOARD, state({ selected: "R1" }));
    assert.deepEqual(having(marks, "chosen"), ["R1"]);
    assert.deepEqual(having(marks, "target"), []);
  });
  test("put down leaves no mark of it: every draw computes the marks afresh", () => {
    const marks = boardMarks(BOARD, state({ selected: null }));
    for (const name of ["chosen", "target", "warn", "hinted"]) assert.deepEqual(having(marks, name), [], name);
    assert.ok([...marks.values()].every((m) => m.warning === null && m.title === null));
  });
});

describe("the hint", () => {
  test("marks its move's two piles", () => {
    assert.deepEqual(having(boardMarks(BOARD, state({ hint: hint() })), "hinted"), ["A5", "R3"]);
  });
  test("marks the stock for a deal", () => {
    const deal = hint({ move: "deal", from: null, to: null });
    assert.deepEqual(hinted(deal), ["STOCK"]);
    assert.deepEqual(having(boardMarks(BOARD, state({ hint: deal })), "hinted"), ["STOCK"]);
  });
  test("of a lost game with no move marks nothing", () => {
    assert.deepEqual(hinted(hint({ move: null, from: null, to: null })), []);
  });
});

describe("the lifted card", () => {
  test("is dimmed while it is its pile's top card", () => {
    const marks = boardMarks(BOARD, state({ lifted: { pile: "R1", card: "KH" } }));
    assert.deepEqual(having(marks, "lifted", true), ["R1"]);
    assert.deepEqual(marks.get("R1")?.top, ["movable", "lifted"]);
  });
  test("is not marked once a new board took it away", () => {
    const after = board({ reserveCards: { R1: ["KH", "9C"] } }); // a deal covered it
    assert.deepEqual(having(boardMarks(after, state({ lifted: { pile: "R1", card: "KH" } })), "lifted", true), []);
    assert.equal(movableCard(after, "R1", false), "9C");
  });
});
