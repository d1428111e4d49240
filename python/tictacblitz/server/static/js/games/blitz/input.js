// Blitz input: a click or tap on a cell, and keyboard play (a cursor and a key to act).
//
// One rule for every input (model.js intentFor): on the other player's setting mark the
// action is a knock-out (R9), on a free cell a placement (R6).
//
// Keys (docs/client.md):
//   playing alone (bot, online): arrows or WASD move the cursor; Space, Enter or F act.
//   local, one screen: the mouse player may also use WASD + F; the keyboard player uses
//   the arrows + Enter (or Space).

import { intentFor } from "./model.js";
import { cellFromPoint } from "./draw.js";
import { ARROW_KEYS, canvasPoint, CURSOR_MOVES, listen, moveCursor } from "../../view_common.js";

/** Which seat a key drives, and what it does: pure, so tests can check the key map.
 *  `seats`: {mouse, keyboard} (local) or {mouse: seat, keyboard: seat} equal (alone). */
export function keyAction(key, seats) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const alone = seats.mouse === seats.keyboard;
  if (CURSOR_MOVES[k]) {
    if (alone) return { seat: seats.keyboard, move: CURSOR_MOVES[k] };
    return { seat: ARROW_KEYS.has(k) ? seats.keyboard : seats.mouse, move: CURSOR_MOVES[k] };
  }
  if (k === "Enter" || k === " ") return { seat: seats.keyboard, act: true };
  if (k === "f") return { seat: alone ? seats.keyboard : seats.mouse, act: true };
  return null;
}

export { moveCursor };

export class Input {
  /** opts: {canvas, getView, getLayout, act(seat, intent), isTyping()} */
  constructor(opts) {
    this.opts = opts;
    this.seats = { mouse: null, keyboard: null };
    this.cursors = {}; // seat -> [row, col]
    this.showCursor = {}; // seat -> bool (after its first key)
    this.hover = null;
    listen(this, opts.canvas);
  }

  /** Seats from the view: local → mouse X / keyboard O (or as chosen); alone → both one seat. */
  configure(seats, mouseSeat = "X") {
    if (seats.length === 2) {
      this.seats = { mouse: mouseSeat, keyboard: mouseSeat === "X" ? "O" : "X" };
      this.showCursor = { [this.seats.keyboard]: true };
    } else if (seats.length === 1) {
      this.seats = { mouse: seats[0], keyboard: seats[0] };
      this.showCursor = {};
    } else {
      this.seats = { mouse: null, keyboard: null };
      this.showCursor = {};
    }
    for (const s of seats) if (!this.cursors[s]) this.cursors[s] = s === "X" ? [2, 2] : [3, 3];
  }

  cellAt(e) {
    const lay = this.opts.getLayout();
    if (!lay) return null;
    const [x, y] = canvasPoint(this.opts.canvas, e);
    return cellFromPoint(lay, x, y);
  }

  onPointer(e) {
    if (!this.seats.mouse) return;
    const cell = this.cellAt(e);
    if (!cell) return;
    e.preventDefault();
    this.fire(this.seats.mouse, cell);
  }

  onKey(e) {
    if (this.opts.isTyping && this.opts.isTyping()) return;
    if (!this.seats.keyboard || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = keyAction(e.key, this.seats);
    if (!a || !a.seat) return;
    const view = this.opts.getView();
    if (!view) return; // nothing on screen yet: no board, no size
    e.preventDefault();
    const size = view.size;
    const cur = this.cursors[a.seat] || [0, 0];
    if (a.move) {
      this.cursors[a.seat] = this.showCursor[a.seat] ? moveCursor(cur, a.move, size) : cur;
      this.showCursor[a.seat] = true;
    } else if (a.act) {
      this.showCursor[a.seat] = true;
      this.fire(a.seat, cur);
    }
  }

  fire(seat, cell) {
    const view = this.opts.getView();
    if (!view) return;
    const intent = intentFor(view, cell, seat);
    if (intent) this.opts.act(seat, intent);
    else if (this.opts.onNothing) this.opts.onNothing(seat, cell);
  }

  /** Cursors to draw: [{seat, cell, label}]. */
  cursorList() {
    const out = [];
    const local = this.seats.mouse && this.seats.mouse !== this.seats.keyboard;
    for (const [seat, cell] of Object.entries(this.cursors)) {
      if (!this.showCursor[seat]) continue;
      if (seat !== this.seats.mouse && seat !== this.seats.keyboard) continue;
      out.push({ seat, cell, label: local ? (seat === this.seats.keyboard ? "keys" : "WASD") : "" });
    }
    return out;
  }
}
