import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DOUBLE_TAP, dropAction, NO_TAP, type Tap, tapAction } from "../src/taps";
import { target } from "./boards";

const LEGAL = { R3: [target("A5", "R3"), target("ACE", "R3")], C2: [target("A5", "C2")] };

function tap(fields: Partial<Tap>): Tap {
  return { pile: "R3", onCard: true, now: 10_000, chosen: null, last: NO_TAP, legal: LEGAL, ...fields };
}

describe("a tap with nothing chosen", () => {
  test("on a movable card chooses it, and is remembered for a double tap", () => {
    const { action, last } = tapAction(tap({}));
    assert.deepEqual(action, { kind: "select", pile: "R3" });
    assert.deepEqual(last, { pile: "R3", at: 10_000 });
  });
  test("on a pile's background does nothing", () => {
    assert.deepEqual(tapAction(tap({ pile: "A5", onCard: false })).action, { kind: "none" });
  });
  test("off every pile does nothing, and is not remembered", () => {
    const last = { pile: "R3", at: 9_900 };
    assert.deepEqual(tapAction(tap({ pile: null, onCard: false, last })), { action: { kind: "none" }, last });
  });
  test("on the stock deals", () => {
    assert.deepEqual(tapAction(tap({ pile: "STOCK", onCard: false })).action, { kind: "deal" });
  });
});

describe("a tap with a card chosen", () => {
  const chosen = "R3";
  test("on one of its targets plays the move", () => {
    assert.deepEqual(tapAction(tap({ chosen, pile: "A5", onCard: false })).action, { kind: "play", move: "R3 A5" });
  });
  test("on a target's own movable card plays the move too", () => {
    assert.deepEqual(tapAction(tap({ chosen, pile: "ACE", onCard: true })).action, { kind: "play", move: "R3 ACE" });
  });
  test("on a pile that is no target is sent all the same: the server judges it", () => {
    assert.deepEqual(tapAction(tap({ chosen, pile: "B7", onCard: false })).action, { kind: "play", move: "R3 B7" });
  });
  test("on another movable card that is no target chooses that card instead", () => {
    assert.deepEqual(tapAction(tap({ chosen, pile: "C2", onCard: true })).action, { kind: "select", pile: "C2" });
  });
  test("on the chosen card again puts it down", () => {
    const last = { pile: "R3", at: 10_000 - DOUBLE_TAP - 1 }; // too late for a double tap
    assert.deepEqual(tapAction(tap({ chosen, last })).action, { kind: "deselect", calm: true });
  });
  test("off every pile puts it down", () => {
    assert.deepEqual(tapAction(tap({ chosen, pile: null, onCard: false })).action, { kind: "deselect", calm: true });
  });
  test("on the stock deals (the card is put down)", () => {
    assert.deepEqual(tapAction(tap({ chosen, pile: "STOCK", onCard: false })).action, { kind: "deal" });
  });
});

describe("a double tap", () => {
  test("on a card within the double tap's time sends it home, and starts afresh", () => {
    const last = { pile: "R3", at: 10_000 - DOUBLE_TAP + 1 };
    assert.deepEqual(tapAction(tap({ chosen: "R3", last })), { action: { kind: "home", pile: "R3" }, last: NO_TAP });
  });
  test("a third tap after it is a single tap again", () => {
    const first = tapAction(tap({ now: 1_000 }));
    const second = tapAction(tap({ now: 1_100, chosen: "R3", last: first.last }));
    assert.equal(second.action.kind, "home");
    const third = tapAction(tap({ now: 1_200, last: second.last }));
    assert.deepEqual(third.action, { kind: "select", pile: "R3" });
  });
  test("on another pile is no double tap", () => {
    const last = { pile: "C2", at: 9_990 };
    assert.deepEqual(tapAction(tap({ last })).action, { kind: "select", pile: "R3" });
  });
  test("whose second tap is on the pile's background, not its card, is no double tap", () => {
    const last = { pile: "R3", at: 9_990 };
    assert.deepEqual(tapAction(tap({ chosen: "R3", onCard: false, last })).action, { kind: "deselect", calm: true });
  });
});

describe("a drop", () => {
  const OFF = "off the board";
  test("on another pile plays the move (a target or not: the server judges)", () => {
    assert.deepEqual(dropAction("R3", "A5", OFF), { kind: "play", move: "R3 A5" });
    assert.deepEqual(dropAction("R3", "B7", OFF), { kind: "play", move: "R3 B7" });
  });
  test("off every pile, or on the stock, gives the card back with the reason", () => {
    assert.deepEqual(dropAction("R3", undefined, OFF), { kind: "back", reason: OFF });
    assert.deepEqual(dropAction("R3", "STOCK", OFF), { kind: "back", reason: OFF });
  });
  test("on its own pile gives it back quietly", () => {
    assert.deepEqual(dropAction("R3", "R3", OFF), { kind: "back", reason: null });
  });
});
