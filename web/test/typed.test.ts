import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { asksFirst, dealNumber, MAX_DEAL, movesBack, takeBackQuestion, typedCommand } from "../src/typed";

describe("the Move box", () => {
  test("sends a move in the notation as it is: the server judges it", () => {
    assert.equal(typedCommand("r3 a5"), null);
    assert.equal(typedCommand("5h"), null);
  });
  test("takes a command alone, in any case", () => {
    assert.deepEqual(typedCommand("deal"), { kind: "deal", fields: {} });
    assert.deepEqual(typedCommand("Hint"), { kind: "hint", fields: {} });
  });
  test("takes undo N, undo to N and redo N", () => {
    assert.deepEqual(typedCommand("Undo 2"), { kind: "undo", fields: { count: 2 } });
    assert.deepEqual(typedCommand("undo to 12"), { kind: "undo", fields: { to: 12 } });
    assert.deepEqual(typedCommand("redo 3"), { kind: "redo", fields: { count: 3 } });
  });
  test("refuses what an undo or a redo does not take, saying what it takes", () => {
    for (const text of ["undo two", "undo 2 3", "undo to", "redo to 4", "undo -1", "undo 99999999999999999"]) {
      const typed = typedCommand(text);
      assert.ok(typed !== null && "refusal" in typed, text);
      assert.match(typed.refusal, /^Type '(undo|redo)'/);
    }
  });
  test("refuses words after a command that takes none", () => {
    assert.deepEqual(typedCommand("hint me"), { refusal: "'hint' takes nothing after it: type 'hint' alone." });
  });
});

describe("an undo", () => {
  test("takes back one move, the count asked, or back to a move", () => {
    assert.equal(movesBack("undo", {}, 30), 1);
    assert.equal(movesBack("undo", { count: 5 }, 30), 5);
    assert.equal(movesBack("undo", { to: 12 }, 30), 18);
    assert.equal(movesBack("redo", { count: 5 }, 30), 0);
    assert.equal(movesBack("restart", {}, 30), 30); // all of them, as the terminal asks
  });
  test("a restart of more than ten moves asks in its own words, as the terminal does", () => {
    assert.equal(asksFirst(movesBack("restart", {}, 11), 11), true);
    assert.equal(asksFirst(movesBack("restart", {}, 10), 10), false);
    assert.match(takeBackQuestion("restart", 11), /^Start this deal over, taking back all 11 moves\?/);
    assert.match(takeBackQuestion("undo", 11), /^Take back 11 moves\?/);
  });
  test("of more than ten moves asks first, unless there are not so many to take back", () => {
    assert.equal(asksFirst(10, 30), false);
    assert.equal(asksFirst(11, 30), true);
    assert.equal(asksFirst(31, 30), false); // the server refuses it: nothing to confirm
  });
});

describe("the start form's deal number", () => {
  test("is none when nothing is typed: a random deal", () => {
    assert.deepEqual(dealNumber("  "), { deal: null });
  });
  test("keeps every digit past JavaScript's exact numbers", () => {
    assert.deepEqual(dealNumber("9007199254740993"), { deal: "9007199254740993" });
    assert.deepEqual(dealNumber(MAX_DEAL.toString()), { deal: "9223372036854775807" });
  });
  test("takes separators and leading zeros", () => {
    assert.deepEqual(dealNumber(" 1,000_000 "), { deal: "1000000" });
    assert.deepEqual(dealNumber("0042"), { deal: "42" });
  });
  test("refuses what is no deal number, naming what was typed", () => {
    for (const typed of ["abc", "12a", "0", "-5", (MAX_DEAL + 1n).toString()]) {
      assert.deepEqual(dealNumber(typed), {
        refusal: `A deal number is a whole number from 1 to ${MAX_DEAL}, like 42, not '${typed}'.`,
      });
    }
  });
});
