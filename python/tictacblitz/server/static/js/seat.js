// The seat this tab holds, kept in the tab's session storage (issue 26, item 7): a reload
// or a tab brought back takes the same seat of the same match with `resume`, within the
// grace (docs/client.md, "A reload keeps the seat"). Session storage is the tab's own, so
// two tabs of one browser never share a seat (a second tab would take it over, 4001).
// Pure: the storage is given (`sessionStorage` in the page, a Map-like object in the
// tests), and every storage failure (storage disabled, full) only means "no seat kept".

import { formatCode, normalizeCode } from "./protocol.js";

const KEY = "tictacblitz.seat";
const MODES = ["bot", "local", "online"];

export class SeatStore {
  /** `storage`: getItem/setItem/removeItem (or null: nothing is kept); `game`: the
   *  server's game name (a seat of another game's server on this origin is not ours). */
  constructor(storage, game) {
    this.storage = storage;
    this.game = game;
  }

  /** Keep the seat of a `joined` answer (a player's: it has a token). `mouseSeat` is
   *  the seat the mouse plays (local play; the player's own seat otherwise). */
  save(joined, mouseSeat) {
    if (!joined || !joined.token || !joined.room) return false;
    const seat = {
      game: this.game,
      code: joined.room,
      token: joined.token,
      mode: joined.mode,
      seats: joined.seats || [],
      mouseSeat: mouseSeat || null,
    };
    try {
      this.storage.setItem(KEY, JSON.stringify(seat));
      return true;
    } catch {
      return false;
    }
  }

  /** The kept seat, or null (none, another game's, or not one this page wrote: dropped). */
  load() {
    let raw,
      seat = null;
    try {
      raw = this.storage.getItem(KEY);
    } catch {
      return null;
    }
    if (raw === null || raw === undefined) return null;
    try {
      seat = JSON.parse(raw);
    } catch {
      /* not ours: dropped below */
    }
    const ok =
      seat &&
      typeof seat === "object" &&
      seat.game === this.game &&
      typeof seat.code === "string" &&
      seat.code.length > 0 &&
      typeof seat.token === "string" &&
      seat.token.length > 0 &&
      MODES.includes(seat.mode) &&
      Array.isArray(seat.seats);
    if (!ok) {
      this.clear();
      return null;
    }
    return seat;
  }

  clear() {
    try {
      this.storage.removeItem(KEY);
    } catch {
      /* nothing was kept */
    }
  }
}

// The `resume` that takes a kept seat back is the protocol's (`seat` has token and code).
export { resumeMessage } from "./protocol.js";

/** Whether a page opened at `pathCode` (the room of a `/r/{code}` link, or null) takes
 *  the kept seat back by itself: yes, unless the link names another room (then the menu
 *  offers both: the link's room to join, the kept match to rejoin). Codes compare
 *  as the server does (Crockford: case, dashes and spaces aside, I/L = 1, O = 0). */
export function resumesOnLoad(seat, pathCode) {
  if (!seat) return false;
  if (!pathCode) return true;
  return normalizeCode(pathCode) === normalizeCode(seat.code);
}

/** The menu's words for a kept seat: what match it is. */
export function describeSeat(seat) {
  const code = formatCode(seat.code);
  if (seat.mode === "bot") return `your match against a bot (as ${seat.seats.join(" and ")})`;
  if (seat.mode === "local") return "your match on one screen";
  return `your online match in room ${code} (as ${seat.seats.join(" and ")})`;
}
