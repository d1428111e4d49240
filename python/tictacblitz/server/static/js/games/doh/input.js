// Tic Tac Doh input: the piece in hand (a stash button, or keys 1 2 3) and the square to
// put it on (a click or tap, or a keyboard cursor and a key to act).
//
// Keys (docs/client.md):
//   playing alone (bot, online): 1 2 3 (or Tab) choose the piece; arrows or WASD move the
//   cursor; Space, Enter or F put the piece in hand on the square under it.
//   local, one screen: the keyboard player uses 1 2 3, the arrows and Enter (or Space);
//   the mouse player clicks a stash button and a square (or 7 8 9, WASD and F).
//   local with three or four players (D10): they take turns, the screen passed round:
//   whoever is to move plays with the mouse or the keys, as when playing alone.

import { PIECES, firstPlayable, intentFor } from "./model.js";
import { cellFromPoint, pieceFromPoint } from "./draw.js";
import { ARROW_KEYS, canvasPoint, CURSOR_MOVES, listen, moveCursor } from "../../view_common.js";

const PIECE_KEYS = { 1: "S", 2: "M", 3: "L", 7: "S", 8: "M", 9: "L" };
const MOUSE_PIECE_KEYS = new Set(["7", "8", "9"]);

/** The seats the mouse and the keys drive now: `seats` ({mouse, keyboard}), or, when
 *  the players take turns on one screen (`seats.turns`), the one to move (else the
 *  first): pure, so tests can check it. */
export function driving(seats, toMove) {
  if (!seats.turns) return seats;
  const seat = seats.turns.includes(toMove) ? toMove : seats.turns[0];
  return { mouse: seat, keyboard: seat };
}

/** Which seat a key drives, and what it does: pure, so tests can check the key map.
 *  `seats`: {mouse, keyboard} (local) or both the same seat (alone). */
export function keyAction(key, seats) {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const alone = seats.mouse === seats.keyboard;
  if (CURSOR_MOVES[k]) {
    if (alone) return { seat: seats.keyboard, move: CURSOR_MOVES[k] };
    return { seat: ARROW_KEYS.has(k) ? seats.keyboard : seats.mouse, move: CURSOR_MOVES[k] };
  }
  if (PIECE_KEYS[k]) {
    const seat = alone ? seats.keyboard : MOUSE_PIECE_KEYS.has(k) ? seats.mouse : seats.keyboard;
    return { seat, piece: PIECE_KEYS[k] };
  }
  if (k === "Tab") return { seat: seats.keyboard, cycle: true };
  if (k === "Enter" || k === " ") return { seat: seats.keyboard, act: true };
  if (k === "f") return { seat: alone ? seats.keyboard : seats.mouse, act: true };
  return null;
}

export { moveCursor };
export const DEFAULT_HAND = "L";

export class Input {
  /** opts: {canvas, getView, getLayout, act(seat, intent), isTyping()} */
  constructor(opts) {
    this.opts = opts;
    this.seats = { mouse: null, keyboard: null };
    this.cursors = {}; // seat -> [row, col]
    this.showCursor = {};
    this.hands = {}; // seat -> "S" | "M" | "L": the piece in hand
    this.hover = null;
    listen(this, opts.canvas);
  }

  /** Seats of this screen: local → the mouse seat and the keyboard seat (three or four:
   *  they take turns); alone → one. */
  configure(seats, mouseSeat = null) {
    if (seats.length > 2) {
      this.seats = { mouse: null, keyboard: null, turns: seats.slice() };
      this.showCursor = {};
    } else if (seats.length === 2) {
      const mouse = seats.includes(mouseSeat) ? mouseSeat : seats[0];
      this.seats = { mouse, keyboard: seats.find((s) => s !== mouse) };
      this.showCursor = { [this.seats.keyboard]: true };
    } else if (seats.length === 1) {
      this.seats = { mouse: seats[0], keyboard: seats[0] };
      this.showCursor = {};
    } else {
      this.seats = { mouse: null, keyboard: null };
      this.showCursor = {};
    }
    // The piece in hand starts large: the solver values a first medium as a loss for the
    // first player and small or large as draws; large is the easier one to hold (docs/doh.md).
    for (const s of seats) {
      if (!this.cursors[s]) this.cursors[s] = [2, 2];
      if (!this.hands[s]) this.hands[s] = DEFAULT_HAND;
    }
  }

  /** The piece in hand of `seat`, kept playable (a size used up is put down). */
  hand(seat) {
    const view = this.opts.getView();
    if (!view) return this.hands[seat] || null;
    const mine = view.toMove === seat ? view : { ...view, myTurn: false };
    this.hands[seat] = firstPlayable(mine, this.hands[seat]);
    return this.hands[seat];
  }

  select(seat, piece) {
    if (seat && PIECES.includes(piece)) this.hands[seat] = piece;
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

  /** The seats the mouse and the keys drive now (`driving`). */
  now() {
    const view = this.opts.getView();
    return driving(this.seats, view && view.toMove);
  }

  onPointer(e) {
    const seat = this.now().mouse;
    if (!seat) return;
    const lay = this.opts.getLayout();
    if (!lay) return;
    const [x, y] = this.point(e);
    const piece = pieceFromPoint(lay, x, y);
    if (piece) {
      e.preventDefault();
      this.select(seat, piece);
      return;
    }
    const cell = cellFromPoint(lay, x, y);
    if (!cell) return;
    e.preventDefault();
    this.fire(seat, cell);
  }

  onKey(e) {
    if (this.opts.isTyping && this.opts.isTyping()) return;
    const seats = this.now();
    if (!seats.keyboard || e.ctrlKey || e.metaKey || e.altKey) return;
    const a = keyAction(e.key, seats);
    if (!a || !a.seat) return;
    const view = this.opts.getView();
    if (!view) return;
    e.preventDefault();
    if (a.piece) {
      this.select(a.seat, a.piece);
      return;
    }
    if (a.cycle) {
      const i = PIECES.indexOf(this.hand(a.seat));
      for (let k = 1; k <= 3; k++) {
        const p = PIECES[(i + k) % 3];
        if (view.stash[p] > 0) {
          this.select(a.seat, p);
          break;
        }
      }
      return;
    }
    const cur = this.cursors[a.seat] || [2, 2];
    if (a.move) {
      this.cursors[a.seat] = this.showCursor[a.seat] ? moveCursor(cur, a.move, view.size) : cur;
      this.showCursor[a.seat] = true;
    } else if (a.act) {
      this.showCursor[a.seat] = true;
      this.fire(a.seat, cur);
    }
  }

  fire(seat, cell) {
    const view = this.opts.getView();
    if (!view) return;
    const intent = intentFor(view, cell, seat, this.hand(seat));
    if (intent) this.opts.act(seat, intent);
  }

  /** What the drawing needs of this screen's seats: [{seat, cell (or null), label, hand}]. */
  cursorList() {
    const out = [];
    const seats = this.now();
    const local = seats.mouse && seats.mouse !== seats.keyboard;
    for (const seat of new Set([seats.mouse, seats.keyboard])) {
      if (!seat) continue;
      out.push({
        seat,
        cell: this.showCursor[seat] ? this.cursors[seat] : null,
        label: local ? (seat === this.seats.keyboard ? "keys" : "mouse") : "",
        hand: this.hand(seat),
      });
    }
    return out;
  }
}
