// An Activity's room beside the board: who is here, the race (its lobby, its live
// standings, its final standings) and whose board is shown. A racer's row is clicked to
// watch their board (read-only); the page decides nothing: the server sends the room
// after every change. Hooks for tests: #room[data-race-state], each row's data-racer,
// data-place, data-score, data-moves and data-status.

import type { Room, RoomRacer } from "./types";

export type Ask = (frame: { type: string; [field: string]: unknown }) => void;

const STATUS: Record<string, string> = {
  joined: "in the lobby",
  racing: "racing",
  won: "finished",
  left: "left",
  timed_out: "time up",
};

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function row(racer: RoomRacer, room: Room, total: number, ask: Ask): HTMLLIElement {
  const li = document.createElement("li");
  Object.assign(li.dataset, {
    racer: racer.id,
    place: String(racer.place ?? ""),
    score: String(racer.score),
    moves: String(racer.moves),
    status: racer.status,
  });
  li.classList.toggle("you", racer.id === room.you);
  li.classList.toggle("watched", racer.id === room.watching);
  const button = document.createElement("button");
  button.type = "button";
  const lobby = room.race?.state === "lobby";
  const place = racer.place === null ? "–" : String(racer.place);
  const figures = lobby ? "" : ` · ${racer.score}/${total} · ${racer.moves} moves · ${clock(racer.elapsed_s)}`;
  const you = racer.id === room.you ? " (you)" : "";
  button.textContent = `${place}. ${racer.name}${you}${figures} · ${STATUS[racer.status] ?? racer.status}`;
  button.title = racer.id === room.you ? "Your race board" : `Watch ${racer.name}'s board`;
  button.disabled = lobby;
  button.addEventListener("click", () => ask({ type: "watch", user: racer.id }));
  li.append(button);
  return li;
}

function action(
  label: string,
  id: string,
  ask: Ask,
  frame: { type: string; [field: string]: unknown } = { type: id },
): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.id = id;
  button.textContent = label;
  button.addEventListener("click", () => ask(frame));
  return button;
}

function title(room: Room): string {
  const race = room.race;
  if (race === null) return "Your own game";
  const head = `Race ${race.id} · deal ${race.deal}`;
  const state: Record<string, string> = {
    lobby: "starts soon",
    running: "live standings",
    over: "final standings",
    cancelled: "cancelled",
  };
  return `${head} · ${state[race.state] ?? race.state}`;
}

function actions(room: Room, ask: Ask): HTMLButtonElement[] {
  const race = room.race;
  const me = race?.racers.find((r) => r.id === room.you);
  const found: HTMLButtonElement[] = [];
  if (race === null || race.state === "over" || race.state === "cancelled") {
    if (room.people.filter((p) => p.here).length > 1) found.push(action("Race everyone here", "race-open", ask));
  } else if (race.state === "lobby") {
    found.push(me === undefined ? action("Join the race", "race-join", ask) : action("Leave", "race-leave", ask));
    if (race.host === room.you) found.push(action("Start the race", "race-start", ask));
  } else if (me?.status === "racing") {
    found.push(action("Leave race", "race-leave", ask));
  }
  if (race !== null && race.state !== "lobby")
    found.push(action("My own game", "my-game", ask, { type: "watch", user: null }));
  return found;
}

/** Draw ``room`` into ``box`` (its children replaced; the data hooks set). */
export function drawRoom(box: HTMLElement, room: Room, ask: Ask): void {
  box.hidden = false;
  const race = room.race;
  box.dataset.race = race === null ? "" : String(race.id);
  box.dataset.raceState = race?.state ?? "none";
  const head = document.createElement("h2");
  head.textContent = title(room);
  const who = document.createElement("p");
  who.className = "people";
  who.textContent = `Here: ${room.people
    .filter((p) => p.here)
    .map((p) => p.name)
    .join(", ")}`;
  const list = document.createElement("ol");
  list.id = "standings";
  if (race !== null) list.append(...race.racers.map((r) => row(r, room, race.card_total, ask)));
  const buttons = document.createElement("div");
  buttons.className = "room-actions";
  buttons.append(...actions(room, ask));
  box.replaceChildren(head, who, list, buttons);
}
