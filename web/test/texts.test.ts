import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { boardNote, carefulText, clockText, figuresText, hintText, screenText } from "../src/texts";
import { board, hint, target } from "./boards";

describe("the status line", () => {
  test("says the board's message, and its warning as a note", () => {
    assert.deepEqual(boardNote(board({ message: "R3 to A5." })), { text: "R3 to A5.", kind: "" });
    const warned = board({ message: "B6 to B3.", warning: "row B has a space no Three can fill" });
    assert.deepEqual(boardNote(warned), {
      text: "B6 to B3. · Warning: row B has a space no Three can fill",
      kind: "note",
    });
    assert.deepEqual(boardNote(board()), { text: "", kind: "" });
  });
  test("says a hint, and for a lost game what to type to go back", () => {
    assert.equal(hintText(hint()), "Try R3 to A5.");
    const lost = hint({ message: "This game can't be won now.", undo_to: 12, back_to: "move 12" });
    assert.equal(
      hintText(lost),
      "This game can't be won now. Type 'undo to 12' in the Move box to go back to move 12.",
    );
  });
  test("warns of a chosen card's moves that would stop the deal, and only those", () => {
    assert.equal(carefulText([target("A5", "R3")]), null);
    const careful = carefulText([target("A5", "R3"), target("B3", "R3", "leaves a space"), target("C1", "R3", "too")]);
    assert.equal(careful, "Careful: R3 to B3 leaves a space; R3 to C1 too.");
  });
});

describe("the score line", () => {
  test("says score and move, and the clock only where the game keeps one", () => {
    assert.equal(figuresText(board(), 0), "Score 5/104 · move 2");
    assert.equal(figuresText(board({ elapsed_s: 61 }), 61.9), "Score 5/104 · move 2 · 1:01");
  });
  test("names the daily and its par", () => {
    assert.equal(figuresText(board({ daily: "2026-12-07" }), 0), "Score 5/104 · move 2 · daily 2026-12-07");
    assert.equal(
      figuresText(board({ daily: "2026-12-07", par: 88 }), 0),
      "Score 5/104 · move 2 · daily 2026-12-07 (par 88)",
    );
  });
  test("counts the clock in minutes, then hours", () => {
    assert.equal(clockText(0), "0:00");
    assert.equal(clockText(59.99), "0:59");
    assert.equal(clockText(600), "10:00");
    assert.equal(clockText(3600 + 62), "1:01:02");
  });
});

describe("the end-of-game screen", () => {
  test("says a won game, a game over and a stuck one", () => {
    assert.equal(screenText(board({ status: "won", moves: 140 }), false, false), "You won deal 16 in 140 moves!");
    assert.equal(
      screenText(board({ finished: true, score: 40 }), false, false),
      "This game of deal 16 is over (40/104 cards home).",
    );
    assert.equal(
      screenText(board({ status: "stuck", score: 71 }), false, false),
      "No move is left: 71/104 cards home. Undo, or start a new game.",
    );
  });
  test("says who finished a race: you, or the racer watched", () => {
    const won = board({ status: "won", moves: 99 });
    assert.equal(screenText(won, true, false), "You finished the race's deal 16 in 99 moves!");
    assert.equal(screenText(won, true, true), "This racer finished the race's deal 16 in 99 moves!");
  });
});
