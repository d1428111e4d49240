// The Rift & Grid view model: server messages (state, events, …) in, what to draw out.
//
// Pure: no DOM, no clock, no network. Every fact of the game comes from the server
// (server/games/rift/: __init__.py, wire.py): each `events` message and each `state`
// carries the whole public picture — the 81 cells by id (".XO#"), the sectors, the
// active sector and the legal targets (G4), scores, energy, each ability's cost,
// cooldown, first usable turn and whether it is usable (G5, G14), who has locked in
// (never what), and the objectives that are public (accomplished or revealed). A
// player's own hand and programmed move come only in its own `state` (`private`). A
// resolved turn's report (`turn` event) drives the resolution's animation. This file
// has no rules and no rule numbers. Rule ids (G…) refer to docs/rift.md. Pure but for
// one read of the system's reduced-motion setting (`reducedMotion`, false without a
// window, as in Node's tests): with it, a resolution's animation is over at once.

import { ModelBase, seatNamesOf } from "../../model_common.js";
import { reducedMotion } from "../../view_common.js";

export const ANIM_MS = 1600; // the resolution's animation (ghosts, swap, collision, landing)
export const SIDE = 9; // cells per side of the board (G1)

const PICTURE_KEYS = [
  "turn",
  "cells",
  "sectors",
  "active",
  "targets",
  "score",
  "energy",
  "abilities",
  "objectives",
  "locked",
  "result",
];

function emptyPicture(seats) {
  const per = (v) => Object.fromEntries(seats.map((s) => [s, typeof v === "function" ? v() : v]));
  return {
    turn: 1,
    cells: ".".repeat(81),
    sectors: Array(9).fill("open"),
    active: null,
    targets: [],
    score: per(0),
    energy: per(0),
    abilities: per(() => ({})),
    objectives: per(() => ({ known: [], hidden: 0 })),
    locked: per(false),
    result: null,
  };
}

function emptyPlayer() {
  return { name: "", kind: "human", level: null, connected: true, grace_until: null, locked: false };
}

/** A cell's sector and position (G1). */
export const sectorOf = (cell) => Math.floor(cell / 9);
export const positionOf = (cell) => cell % 9;
/** G1: where a cell id sits on the 9×9 grid: [row, col]. */
export function gridRowCol(cell) {
  const s = sectorOf(cell),
    p = positionOf(cell);
  return [3 * Math.floor(s / 3) + Math.floor(p / 3), 3 * (s % 3) + (p % 3)];
}
/** The cell id at grid [row, col]. */
export function cellAt(row, col) {
  return 9 * (3 * Math.floor(row / 3) + Math.floor(col / 3)) + 3 * (row % 3) + (col % 3);
}

export class GameModel extends ModelBase {
  /** rules: the server's rules; game: `welcome.game` (seats, abilities, objectives). */
  constructor(rules, game) {
    if (!rules || typeof rules.energy_max !== "number") throw new Error("GameModel needs the server's rules");
    super();
    this.rules = { ...rules };
    this.game = game || {};
    this.seatNames = seatNamesOf(this.game, ["X", "O"]);
    this.reset();
  }

  reset() {
    this.resetRoom();
    this.pic = emptyPicture(this.seatNames);
    this.players = {};
    for (const s of this.seatNames) this.players[s] = emptyPlayer();
    this.roundEnd = null; // one round: never set (the shell's banner reads it)
    this.result = null; // the match_end body
    this.end = null; // the game's end event
    this.rematch = {};
    this.spectators = 0;
    this.turns = []; // resolved turns' reports (G6)
    this.priv = {}; // seat -> {objectives, move}: this screen's own seats only
    this.hands = null; // a replay's both hands (the game is over: nothing is secret)
    this.anim = null; // {report, start}: the last resolution, animated from `start`
    this.rejected = []; // this turn's rejections of this screen's moves
    this.lastRejected = null;
    this.needSync = false;
  }

  setRules(rules) {
    if (!rules) return;
    this.rules = { ...rules };
  }

  takePicture(msg) {
    for (const k of PICTURE_KEYS) if (msg[k] !== undefined) this.pic[k] = msg[k];
    if (msg.hands) this.hands = msg.hands;
  }

  /** A full snapshot replaces everything (docs/protocol.md, `state`). */
  applyState(msg) {
    this.beginState(msg);
    this.takePicture(msg);
    this.turns = (msg.turns || []).slice();
    this.priv = msg.private || {};
    if (msg.players) this.updatePlayers(msg.players);
    return this.endState(msg);
  }

  /** One `events` message (or one replay frame: the same shape). */
  applyEvents(msg) {
    if (!this.takeSeq(msg)) return false;
    if (this.phase !== "over") this.phase = "live";
    const turnBefore = this.pic.turn;
    this.takePicture(msg);
    if (msg.t !== undefined) this.t = Math.max(this.t, msg.t);
    for (const ev of msg.events || []) {
      if (ev.kind === "started") {
        this.turns = [];
        this.end = null;
        this.anim = null;
        this.rejected = [];
      } else if (ev.kind === "turn") {
        this.turns.push(ev);
        this.anim = { report: ev, start: null };
      } else if (ev.kind === "end") this.end = ev;
    }
    if (this.pic.turn !== turnBefore) {
      // a new turn: no programmed move yet (G3)
      this.rejected = [];
      for (const s of Object.keys(this.priv)) this.priv[s] = { ...this.priv[s], move: null };
    }
    for (const s of this.seatNames) this.players[s].locked = !!this.pic.locked[s];
    return true;
  }

  applyRejected(msg) {
    this.lastRejected = msg;
    this.rejected.push(msg);
    return true;
  }

  /** Nothing is timed in Rift but the animation: live, "now" is the server clock;
   *  a replay's player passes its own clock to view(). */
  nowT(serverNow) {
    return serverNow ?? this.t;
  }

  /** `seat`'s hand as this screen may know it: its own (private) or a replay's, with
   *  the public flags; else only the public part. */
  hand(seat) {
    const pub = this.pic.objectives[seat] || { known: [], hidden: 0 };
    const full = (this.hands && this.hands[seat]) || (this.priv[seat] && this.priv[seat].objectives);
    if (!full) return { full: false, items: pub.known.slice(), hidden: pub.hidden };
    const known = new Map(pub.known.map((o) => [o.id, o]));
    return { full: true, items: full.map((o) => ({ ...o, ...(known.get(o.id) || {}) })), hidden: 0 };
  }

  /** What everybody knows of `seat`'s hand: the accomplished or revealed objectives. */
  publicHand(seat) {
    const pub = this.pic.objectives[seat] || { known: [], hidden: 0 };
    return { full: false, items: pub.known.slice(), hidden: pub.hidden };
  }

  /** Every scoring, newest first: {turn, seat, cause, points, sector|line|objective}. */
  causes() {
    const out = [];
    for (const r of this.turns) {
      for (const s of this.seatNames)
        for (const p of (r.points && r.points[s]) || []) out.push({ turn: r.turn, seat: s, ...p });
    }
    return out.reverse();
  }

  /** Per seat, the points by kind of cause (sectors, meta lines, objectives). */
  totals() {
    const out = {};
    for (const s of this.seatNames) out[s] = { sectors: 0, lines: 0, objectives: 0 };
    for (const c of this.causes()) {
      const k = c.cause === "meta_line" ? "lines" : c.cause === "objective" ? "objectives" : "sectors";
      out[c.seat][k] += c.points;
    }
    return out;
  }

  /** Everything to draw at `nowT` (ms of the server clock, or of a replay's clock). */
  view(nowT = this.t, serverNow = null) {
    const mine = this.mySeats();
    const pic = this.pic;
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
        locked: !!pic.locked[s],
        mine: mine.includes(s),
        rematch: !!this.rematch[s],
        score: pic.score[s] ?? 0,
        energy: pic.energy[s] ?? 0,
        abilities: pic.abilities[s] || {},
        hand: this.hand(s),
        publicHand: this.publicHand(s),
        move: (this.priv[s] && this.priv[s].move) || null,
      };
    });
    let countdown = null;
    if ((this.phase === "countdown" || this.phase === "break") && this.resumeAt !== null && serverNow !== null) {
      countdown = Math.max(0, (this.resumeAt - serverNow) / 1000);
    }
    let anim = null;
    if (this.anim) {
      if (this.anim.start === null || nowT < this.anim.start) this.anim.start = nowT;
      // Less motion (the system's setting): the resolution shows its end at once.
      const p = reducedMotion() ? 1 : Math.min(1, (nowT - this.anim.start) / ANIM_MS);
      anim = { report: this.anim.report, p, done: p >= 1 };
    }
    const live = this.phase === "live" && !this.result && !pic.result;
    const free = pic.active === null || pic.active === undefined;
    const open = pic.sectors.map((r, i) => (r === "open" ? i : -1)).filter((i) => i >= 0);
    return {
      size: SIDE,
      round: 1,
      t: nowT,
      phase: this.phase,
      mode: this.mode,
      room: this.room,
      turn: pic.turn,
      cells: pic.cells,
      sectors: pic.sectors,
      active: free ? null : pic.active,
      free,
      highlighted: live ? (free ? open : [pic.active]) : [],
      targets: live ? pic.targets : [],
      locked: { ...pic.locked },
      players,
      seatNames: this.seatNames,
      result: this.result,
      gameResult: pic.result,
      end: this.end,
      roundEnd: null,
      rounds: [],
      countdown,
      mine,
      live,
      spectators: this.spectators,
      causes: this.causes(),
      totals: this.totals(),
      anim,
      turns: this.turns.length,
      rejected: this.rejected.slice(),
      energyMax: this.rules.energy_max,
      perPlayer: this.rules.objectives_per_player,
    };
  }
}

/** The act a click (or the act key) on `cell` means for `seat` with `ability`, or null. */
export function intentFor(view, cell, seat, ability) {
  if (cell === null || cell === undefined || !view.live || !view.mine.includes(seat)) return null;
  const intent = { cell };
  if (ability && ability !== "none") intent.ability = ability;
  return intent;
}

// G17's catalogue in words, by id (welcome.game.objectives lists the ids; the counts in
// the words belong to the objectives' definitions, not to the rules). Points: the rules.
export const OBJECTIVE_TEXT = {
  centre: "Win the centre sector",
  diagonal_win: "Win a sector with a diagonal",
  shield_win: "Win a collision with a shield",
  full_energy: "Reach full energy",
  centre_cells: "Hold the centre cell of 3 sectors",
  two_corners: "Win 2 corner sectors",
  two_edges: "Win 2 edge sectors",
  four_sectors: "Win 4 sectors",
  clean_sweep: "Win a sector the opponent never touched",
  swap_win: "Win a sector with a lone swap",
  opposite_corners: "Win opposite corner sectors",
  meta_line: "Complete a line of three sectors",
};
export const objectiveName = (id) => OBJECTIVE_TEXT[id] || id;

/** Whether `seat` may take `ability` now, as the picture says (G5, G14): "none" always;
 *  another only while live and `usable`. */
export function abilityUsable(view, seat, ability) {
  const a = view && view.players[seat] && view.players[seat].abilities[ability];
  return ability === "none" || Boolean(a && a.usable && view.live);
}

const AB_WORDS = { shield: "shield", swap: "swap", reveal: "reveal" };

/** Words for one scoring cause. */
export function describeCause(c) {
  if (c.cause === "sector_win") return `won sector ${c.sector}`;
  if (c.cause === "sector_tie") return `tied sector ${c.sector}`;
  if (c.cause === "meta_line") return `line of sectors ${c.line.join("–")}`;
  if (c.cause === "objective") return `objective: ${objectiveName(c.objective)}`;
  return c.cause;
}

/** Words for a resolved turn (G6): swap, collision, shield, grey. */
export function describeTurn(r) {
  if (!r) return "";
  const parts = [];
  for (const s of Object.keys(r.moves)) {
    const m = r.moves[s];
    if (m.ability && m.ability !== "none") parts.push(`${s} used ${AB_WORDS[m.ability] || m.ability}`);
  }
  if (r.swapped) parts.push("the targets were swapped");
  for (const s of Object.keys(r.revealed || {})) if (r.revealed[s]) parts.push(`${s} saw an objective`);
  if (r.collision) {
    const winner = Object.keys(r.cells).find((s) => r.cells[s] !== null && r.cells[s] === r.targets[s]);
    parts.push(
      r.grey !== null ? `collision on cell ${r.grey}: it turns grey` : `collision: ${winner}'s shield takes the cell`,
    );
  }
  return `Turn ${r.turn}: ${parts.length ? parts.join("; ") : "both placed"}`;
}

/** Words for a round's end: Rift has one round (the shell asks anyway). */
export function describeRound(rec) {
  return rec ? describeTurn(rec) : "";
}

/** Words for the match end. */
export function describeMatch(res) {
  if (!res) return "";
  const score = res.score ? ` ${res.score.X}–${res.score.O}` : "";
  if (res.by === "forfeit") return `${res.result} wins: ${res.forfeited_by || "the other player"} left`;
  if (res.by === "abandoned") return "Game abandoned";
  if (res.result === "draw") return `Draw${score}`;
  return `${res.result} wins${score}`;
}
