// Rift & Grid input: the ability in hand (a button, or keys 1-4) and the target cell (a
// click or tap, or a keyboard cursor and a key to lock in). Locking in again before the
// other player has locked changes the move (G3).
//
// Local, one screen: both players use the same mouse and keys in turn, with a
// "Player X" / "Player O" view switch (the tabs above the panel, or V / Tab). The board
// shows only the viewed player's programmed move and objectives; after a player locks
// in, the view passes to the other one if they have not locked in yet.
//
// Keys: arrows or WASD move the cursor; Space, Enter or F lock in the cell under it;
// 1 2 3 4 choose none, shield, swap, reveal; V or Tab switch the view (local).

import { abilityUsable, intentFor } from "./model.js";
import { abilityFromPoint, cellFromPoint, tabFromPoint } from "./layout.js";
import { canvasPoint, CURSOR_MOVES, listen } from "../../view_common.js";

export const ABILITY_KEYS = { 1: "none", 2: "shield", 3: "swap", 4: "reveal" };
const REFUSED_MS = 1200; // how long a greyed button clicked stays framed
const now = () => (typeof performance === "undefined" ? Date.now() : performance.now());

/** What a key does: pure, so tests can check the key map. */
export function keyAction(key) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  if (CURSOR_MOVES[k]) return { move: CURSOR_MOVES[k] };
  if (ABILITY_KEYS[k]) return { ability: ABILITY_KEYS[k] };
  if (k === "Enter" || k === " " || k === "f") return { act: true };
  if (k === "v" || k === "Tab") return { switchView: true };
  return null;
}

export function moveCursor(rc, move) {
  return [Math.min(8, Math.max(0, rc[0] + move[0])), Math.min(8, Math.max(0, rc[1] + move[1]))];
}

export class Input {
  /** opts: {canvas, getView, getLayout, act(seat, intent), isTyping()} */
  constructor(opts) {
    this.opts = opts;
    this.seats = { mouse: null, keyboard: null };
    this.all = []; // this screen's seats
    this.viewing = null; // the seat shown and acting (local: the view switch)
    this.cursor = [4, 4]; // grid [row, col]
    this.showCursor = false;
    this.picked = {}; // seat -> the ability in hand
    this.sent = {}; // seat -> [{cell, ability, turn}] sent this turn, in order
    this.hover = null;
    this.refused = null; // {seat, ability, at}: a greyed ability clicked
    listen(this, opts.canvas);
  }

  /** This screen's seats: local → both (the mouse seat is viewed first); alone → one. */
  configure(seats, mouseSeat = null) {
    this.all = seats.slice();
    this.viewing = seats.includes(mouseSeat) ? mouseSeat : seats[0] || null;
    this.seats = { mouse: this.viewing, keyboard: this.viewing };
    this.sent = {};
    for (const s of seats) this.picked[s] = "none";
  }

  get local() {
    return this.all.length === 2;
  }

  setViewing(seat) {
    if (!this.all.includes(seat)) return;
    this.viewing = seat;
    this.seats = { mouse: seat, keyboard: seat };
  }

  /** Take `ability` in hand for `seat`, if the picture says it is usable now (G5, G14):
   *  a greyed button is not selected (issue 26); it flashes, and its words say why. */
  pick(seat, ability) {
    if (!seat) return;
    if (!abilityUsable(this.opts.getView(), seat, ability)) {
      this.refused = { seat, ability, at: now() };
      return;
    }
    this.refused = null;
    this.picked[seat] = ability;
  }

  point(e) {
    return canvasPoint(this.opts.canvas, e);
  }

  cellAt(e) {
    const lay = this.opts.getLayout();
    if (!lay) return null;
    const [x, y] = this.point(e);
    return cellFromPoint(lay, x, y);
  }

  onPointer(e) {
    const lay = this.opts.getLayout();
    if (!lay || !this.viewing) return;
    const [x, y] = this.point(e);
    const tab = this.local ? tabFromPoint(lay, x, y) : null;
    if (tab) {
      e.preventDefault();
      this.setViewing(tab);
      return;
    }
    const ability = abilityFromPoint(lay, x, y);
    if (ability) {
      e.preventDefault();
      this.pick(this.viewing, ability);
      return;
    }
    const cell = cellFromPoint(lay, x, y);
    if (cell === null) return;
    e.preventDefault();
    this.fire(this.viewing, cell);
  }

  onKey(e) {
    if (this.opts.isTyping && this.opts.isTyping()) return;
    if (!this.viewing || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = keyAction(e.key);
    if (!a) return;
    e.preventDefault();
    if (a.switchView) {
      if (this.local) this.setViewing(this.all.find((s) => s !== this.viewing));
      return;
    }
    if (a.ability) {
      this.pick(this.viewing, a.ability);
      return;
    }
    if (a.move) {
      if (this.showCursor) this.cursor = moveCursor(this.cursor, a.move);
      this.showCursor = true;
    } else if (a.act) {
      this.showCursor = true;
      const [r, c] = this.cursor;
      this.fire(this.viewing, 9 * (3 * Math.floor(r / 3) + Math.floor(c / 3)) + 3 * (r % 3) + (c % 3));
    }
  }

  fire(seat, cell) {
    const view = this.opts.getView();
    if (!view) return;
    const intent = intentFor(view, cell, seat, this.picked[seat]);
    if (!intent) return;
    const list = (this.sent[seat] || []).filter((m) => m.turn === view.turn);
    list.push({ cell, ability: intent.ability || "none", turn: view.turn });
    this.sent[seat] = list;
    this.picked[seat] = "none";
    this.opts.act(seat, intent);
    // Local: hand the screen to the other player if they have not locked in yet, without
    // the hover box, which sat on the cell just chosen (issue 26) until the pointer moves.
    if (this.local) {
      const other = this.all.find((s) => s !== seat);
      if (!view.locked[other]) {
        this.setViewing(other);
        this.hover = null;
      }
    }
  }

  /** `seat`'s programmed move of this turn as this screen knows it: the last one it
   *  sent that was not rejected (G5), once the server says the seat is locked in; or the
   *  server's own copy (after a reconnect). */
  programmed(seat, view) {
    if (!view || !view.locked[seat]) return null;
    const refused = (m) =>
      view.rejected.some(
        (r) => r.seat === seat && r.turn === m.turn && r.cell === m.cell && (r.ability || "none") === m.ability,
      );
    const mine = (this.sent[seat] || []).filter((m) => m.turn === view.turn && !refused(m));
    if (mine.length) return mine[mine.length - 1];
    return view.players[seat] && view.players[seat].move;
  }

  /** What the drawing needs of this screen's seats: [{seat, viewing, ability, move, cell}]. */
  cursorList() {
    const view = this.opts.getView();
    return this.all.map((seat) => ({
      seat,
      viewing: seat === this.viewing,
      ability: this.picked[seat] || "none",
      move: this.programmed(seat, view),
      label: this.local ? `Player ${seat}` : "",
      cell: seat === this.viewing && this.showCursor ? this.cursor : null,
      refused: this.refused && this.refused.seat === seat && now() - this.refused.at < REFUSED_MS ? this.refused : null,
    }));
  }
}
