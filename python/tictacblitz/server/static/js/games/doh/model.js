// The Tic Tac Doh view model: server messages (state, events, …) in, what to draw out.
//
// Pure: no DOM, no clock, no network. Every fact of the game comes from the server
// (server/games/doh.py): each `events` message and each `state` snapshot carries the
// whole small picture in the display frame (a 5×5 grid, the first piece at its centre):
// the squares with their contents (D4) and what each counts as (D5), the stash (D1),
// whose turn it is, the legal squares of each piece for the seat to move (D3, D4), the
// box as it becomes known (D2), the lines (D7) and the result. This file has no rules.
// Rule ids (D…) refer to docs/doh.md.

import { ModelBase, seatNamesOf } from "../../model_common.js";

export const PIECES = ["S", "M", "L"]; // the draw order (welcome.game.pieces says the same)

/** D10's seats in turn order (games/doh/types.py SEATS; tests/test_one_source.py ties
 *  them): a game of `players` N plays the first N. */
export const SEATS = ["first", "second", "third", "fourth"];

const PICTURE_KEYS = [
  "size",
  "squares",
  "stash",
  "pieces_per_size",
  "to_move",
  "ply",
  "legal",
  "box",
  "lines",
  "result",
  "by",
  "last",
  "out",
];

/** The seats of a game of these rules: the first `players` of SEATS (D10), else the
 *  server's (`welcome.game.seats`). A replay of a 4-player game names its own. */
export function seatsOf(rules, game) {
  const n = rules && rules.players;
  if (Number.isInteger(n) && n >= 2 && n <= SEATS.length) return SEATS.slice(0, n);
  return seatNamesOf(game, SEATS.slice(0, 2));
}

function emptyPicture(rules, game) {
  const n = rules && rules.pieces_per_size ? rules.pieces_per_size : 0;
  return {
    size: game && game.display,
    squares: [],
    stash: { S: n, M: n, L: n },
    pieces_per_size: n,
    to_move: null,
    ply: 0,
    legal: { S: [], M: [], L: [] },
    box: null,
    lines: [],
    result: null,
    by: null,
    last: null,
    out: [],
  };
}

function emptyPlayer(seat) {
  return { name: "", kind: "human", level: null, connected: true, grace_until: null, to_move: seat === 0 };
}

export class GameModel extends ModelBase {
  /** rules: the server's rules (pieces_per_size, grid); game: `welcome.game`. */
  constructor(rules, game) {
    if (!rules || typeof rules.pieces_per_size !== "number") throw new Error("GameModel needs the server's rules");
    super();
    this.rules = { ...rules };
    this.game = game || {};
    this.seatNames = seatsOf(this.rules, this.game);
    this.reset();
  }

  reset() {
    this.resetRoom();
    this.pic = emptyPicture(this.rules, this.game);
    this.players = {};
    this.seatNames.forEach((s, i) => {
      this.players[s] = emptyPlayer(i);
    });
    this.roundEnd = null; // Doh has one round: never set (the shell's banner reads it)
    this.result = null; // the match_end body
    this.end = null; // the game's end event {result, by, lines}
    this.rematch = {};
    this.spectators = 0;
    this.moves = []; // move events of this game
    this.lastRejected = null;
    this.needSync = false;
  }

  setRules(rules) {
    if (!rules) return;
    const changed =
      rules.pieces_per_size !== this.rules.pieces_per_size ||
      rules.grid !== this.rules.grid ||
      rules.players !== this.rules.players;
    this.rules = { ...rules };
    this.seatNames = seatsOf(this.rules, this.game);
    if (changed) this.reset();
  }

  takePicture(msg) {
    for (const k of PICTURE_KEYS) if (msg[k] !== undefined) this.pic[k] = msg[k];
  }

  /** A full snapshot replaces everything (docs/protocol.md, `state`). */
  applyState(msg) {
    this.beginState(msg);
    this.takePicture(msg);
    this.moves = (msg.moves || []).slice();
    if (msg.players) this.updatePlayers(msg.players);
    if (this.pic.result)
      this.end = { kind: "end", result: this.pic.result, by: this.pic.by, lines: this.pic.lines, out: this.pic.out };
    return this.endState(msg);
  }

  /** One `events` message (or one replay frame: the same shape). */
  applyEvents(msg) {
    if (!this.takeSeq(msg)) return false;
    if (this.phase !== "over") this.phase = "live";
    this.takePicture(msg);
    if (msg.t !== undefined) this.t = Math.max(this.t, msg.t);
    for (const ev of msg.events || []) {
      if (ev.kind === "move") this.moves.push(ev);
      else if (ev.kind === "end") this.end = ev;
      else if (ev.kind === "started") {
        this.moves = [];
        this.end = null;
      }
    }
    if (msg.players) this.updatePlayers(msg.players);
    for (const s of this.seatNames) this.players[s].to_move = this.pic.to_move === s;
    return true;
  }

  /** Nothing is timed in Doh: "now" is the last move's (ms of the replay viewer's clock). */
  nowT() {
    return this.t;
  }

  /** Everything to draw. */
  view(nowT = this.t, serverNow = null) {
    const mine = this.mySeats();
    const pic = this.pic;
    const out = pic.out || [];
    const players = {};
    this.seatNames.forEach((s, i) => {
      const p = this.players[s];
      players[s] = {
        seat: s,
        index: i,
        name: p.name || (p.kind === "bot" ? `bot (${p.level})` : s),
        kind: p.kind,
        level: p.level,
        connected: p.connected,
        graceUntil: p.grace_until,
        toMove: pic.to_move === s && !this.result && this.phase !== "waiting", // not while seats are free
        mine: mine.includes(s),
        rematch: !!this.rematch[s],
        out: out.includes(s),
        free: p.kind === null, // D9: out of the game; a seat nobody holds yet
      };
    });
    let countdown = null;
    if ((this.phase === "countdown" || this.phase === "break") && this.resumeAt !== null && serverNow !== null) {
      countdown = Math.max(0, (this.resumeAt - serverNow) / 1000);
    }
    const live = this.phase === "live" && !this.result;
    const myTurn = live && mine.includes(pic.to_move);
    return {
      size: pic.size || this.game.display || 5,
      round: 1,
      t: nowT,
      phase: this.phase,
      mode: this.mode,
      room: this.room,
      squares: pic.squares,
      stash: pic.stash,
      perSize: pic.pieces_per_size || this.rules.pieces_per_size,
      toMove: live ? pic.to_move : null,
      ply: pic.ply,
      legal: myTurn ? pic.legal : { S: [], M: [], L: [] },
      box: pic.box,
      lines: (this.end && this.end.lines) || pic.lines || [],
      last: pic.last,
      end: this.end,
      players,
      seatNames: this.seatNames,
      out,
      result: this.result,
      roundEnd: null,
      rounds: [],
      countdown,
      mine,
      myTurn,
      spectators: this.spectators,
      moves: this.moves,
    };
  }
}

/** The square's content at a cell of a view, or "". */
export function contentAt(view, cell) {
  const sq = view.squares.find((s) => s.cell[0] === cell[0] && s.cell[1] === cell[1]);
  return sq ? sq.content : "";
}

/** Whether `piece` may go on `cell` now (the server's legal squares of the seat to move). */
export function isLegal(view, piece, cell) {
  return (view.legal[piece] || []).some((c) => c[0] === cell[0] && c[1] === cell[1]);
}

/** The square a click on `cell` puts `piece` on. D2, D3: the first piece goes anywhere and
 *  any translation is the same position, so the board is drawn around it: on an empty
 *  board every square means the centre (the one legal square the server gives). */
export function targetOf(view, piece, cell) {
  const legal = (view.legal && view.legal[piece]) || [];
  if (view.squares && !view.squares.length && legal.length === 1) return legal[0];
  return cell;
}

/** The act a click (or the act key) on `cell` means for `seat` holding `piece`, or null.
 *  Out of turn it is sent all the same: the server's answer ("Not your turn.", "The
 *  game is over.") is the player's feedback (docs/doh.md); only a seat this screen does
 *  not hold (a spectator, a replay) sends nothing. */
export function intentFor(view, cell, seat, piece) {
  if (!cell || !piece || !(view.mine || []).includes(seat)) return null;
  return { piece, cell: targetOf(view, piece, cell) };
}

/** A piece of the stash that the seat may still play (the hand's default). */
export function firstPlayable(view, prefer) {
  if (prefer && view.stash[prefer] > 0 && (!view.myTurn || (view.legal[prefer] || []).length)) return prefer;
  for (const p of PIECES) if (view.stash[p] > 0 && (!view.myTurn || (view.legal[p] || []).length)) return p;
  return prefer || "S";
}

const BY = { line: "three in a line", stash_empty: "the stash is empty", no_move: "no legal move left" };

/** Words for the game's end (D7, D8, D9: with more than two players every other one is
 *  out at once, `end.out` names them). */
export function describeEnd(end) {
  if (!end || !end.result) return "";
  const why = BY[end.by] ? `: ${BY[end.by]}` : "";
  if (end.result === "draw") return `Draw${why}`;
  const who = end.result[0].toUpperCase() + end.result.slice(1);
  if (end.by !== "no_move") return `${who} wins${why}`;
  const others =
    (end.out || []).length > 1 ? "the others are out: no legal move" : "the other player has no legal move";
  return `${who} wins: ${others}`;
}

/** Words for a round's end: Doh has one round (the shell asks anyway). */
export function describeRound(rec) {
  return rec ? describeEnd(rec) : "";
}

/** Words for the match end. */
export function describeMatch(res) {
  if (!res) return "";
  const who = res.result && res.result !== "draw" ? res.result[0].toUpperCase() + res.result.slice(1) : "";
  if (res.by === "forfeit") return `${who} wins: ${res.forfeited_by || "the other player"} left`;
  if (res.by === "abandoned") return res.forfeited_by ? `Game abandoned: ${res.forfeited_by} left` : "Game abandoned";
  return describeEnd({ result: res.result, by: res.end, out: res.out });
}
