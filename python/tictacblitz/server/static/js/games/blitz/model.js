// The Tic Tac Blitz view model: server messages (state, events, …) in, what to draw out.
//
// Pure: no DOM, no clock, no network. `GameModel` keeps what the server said; `view(nowT)`
// answers "what does the screen show at engine ms nowT of this round" — the setting
// rings, charge rings, crater fades and powerup burn-outs are all functions of nowT, so
// the page animates them locally between messages (docs/protocol.md, "Animating").
// Rule ids (R…) refer to docs/blitz.md.
//
// Every number comes from the server: the rules (`welcome.rules`, a room's `state.rules`,
// a replay's `rules`) and the game's vocabulary (`welcome.game`: its seats and the
// powerup kinds with their board letters, R14). This file has no copy of either.

import { ModelBase, secondsLeft } from "../../model_common.js";

export const PLAYERS = ["X", "O"]; // the Blitz view draws X as a cross and O as a ring

/** Board letter → powerup key, from the server's `welcome.game.powerups` (R14). */
export function powerupLetters(game) {
  const out = {};
  for (const p of (game && game.powerups) || []) out[p.letter] = p.key;
  return out;
}

export const other = (p) => (p === "X" ? "O" : "X");
const clamp01 = (x) => (x < 0 ? 0 : x > 1 ? 1 : x);
const key = (cell) => cell[0] + "," + cell[1];

function emptyPlayer() {
  return {
    name: "",
    kind: "human",
    level: null,
    connected: true,
    grace_until: null,
    charge_full: true,
    charge_progress: 1,
    charge_ready_t: 0,
    marks: 0,
    next_to_retire: null,
    frozen: false,
    hasted: false,
    frozen_until: null,
    hasted_until: null,
    round_wins: 0,
    statusT: 0,
  };
}

/** Charge fraction at nowT: linear from `charge_progress` at statusT to 1 at charge_ready_t. */
export function chargeAt(p, nowT) {
  if (p.charge_full) return 1;
  const t0 = p.statusT,
    t1 = p.charge_ready_t;
  if (nowT >= t1) return 1;
  if (t1 <= t0) return 1;
  return clamp01(p.charge_progress + ((1 - p.charge_progress) * (nowT - t0)) / (t1 - t0));
}

/** The board rows of a `state` message (docs/replay-format.md letters) as cells. */
export function parseBoard(rows, letterPowerup) {
  const cells = [];
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < rows[r].length; c++) {
      const ch = rows[r][c];
      const cell = { mark: null, setUntil: null, crater: null, powerup: null };
      if (ch === "X" || ch === "O") cell.mark = ch;
      else if (ch === "x" || ch === "o") {
        cell.mark = ch.toUpperCase();
        cell.setUntil = Infinity;
      } else if (ch === "#") cell.crater = Infinity;
      else if (letterPowerup[ch]) cell.powerup = { kind: letterPowerup[ch], until: Infinity };
      cells.push(cell);
    }
  }
  return cells;
}

export class GameModel extends ModelBase {
  /** rules: the full rules object the server sent; game: `welcome.game`. */
  constructor(rules, game) {
    if (!rules || typeof rules.size !== "number") throw new Error("GameModel needs the server's rules");
    super();
    this.rules = { ...rules };
    this.game = game || {};
    this.letterPowerup = powerupLetters(this.game);
    this.reset();
  }

  reset() {
    const n = this.rules.size * this.rules.size;
    this.resetRoom();
    this.epochMs = null;
    this.cells = Array.from({ length: n }, () => ({ mark: null, setUntil: null, crater: null, powerup: null }));
    this.players = { X: emptyPlayer(), O: emptyPlayer() };
    this.roundWins = { X: 0, O: 0 };
    this.rounds = []; // finished rounds of this match (records)
    this.roundEnd = null; // the round_over event of the current round, if it ended
    this.result = null; // the match_end body
    this.rematch = { X: false, O: false };
    this.spectators = 0;
    this.flashes = []; // short-lived marks of what just happened {kind, cell, t, player}
    this.lastRejected = null;
    this.needSync = false;
    this.tally = {}; // "kind:player" -> count, this match (tests, summaries)
  }

  /** The seats, in order (the shared model's presence and player updates read them). */
  get seatNames() {
    return PLAYERS;
  }

  setRules(rules) {
    if (!rules) return;
    const size = this.rules.size;
    this.rules = { ...rules };
    if (this.rules.size !== size) this.reset();
  }

  cellAt(cell) {
    return this.cells[cell[0] * this.rules.size + cell[1]];
  }

  /** A full snapshot replaces everything (docs/protocol.md, `state`). */
  applyState(msg) {
    this.beginState(msg);
    this.round = msg.round || 1;
    this.epochMs = msg.epoch_ms ?? null;
    if (msg.board) this.cells = parseBoard(msg.board, this.letterPowerup);
    for (const s of msg.setting || []) {
      const c = this.cellAt(s.cell);
      c.mark = s.player;
      c.setUntil = s.until;
    }
    for (const s of msg.craters || []) this.cellAt(s.cell).crater = s.until;
    for (const s of msg.powerups || []) this.cellAt(s.cell).powerup = { kind: s.powerup, until: s.until };
    for (const cell of this.cells) {
      // Letters without a timer in the lists (should not happen): show them, never expire.
      if (cell.setUntil === Infinity) cell.setUntil = this.t + this.rules.set_ms;
      if (cell.crater === Infinity) cell.crater = this.t + this.rules.crater_ms;
      if (cell.powerup && cell.powerup.until === Infinity) cell.powerup.until = this.t + this.rules.powerup_ms;
    }
    if (msg.players) this.updatePlayers(msg.players, this.t);
    if (msg.round_wins) this.roundWins = { ...msg.round_wins };
    this.rounds = (msg.rounds || []).slice();
    const last = this.rounds[this.rounds.length - 1];
    if (last && last.round === this.round && this.phase !== "live") {
      this.roundEnd = {
        kind: "round_over",
        round: last.round,
        t: last.end_t,
        result: last.result,
        by: last.by,
        line: last.line,
        scores: last.scores,
      };
      this.t = last.end_t;
    } else if (last && last.round === this.round) {
      this.roundEnd = {
        kind: "round_over",
        round: last.round,
        t: last.end_t,
        result: last.result,
        by: last.by,
        line: last.line,
        scores: last.scores,
      };
    }
    return this.endState(msg);
  }

  updatePlayers(players, t) {
    for (const p of PLAYERS) {
      if (!players[p]) continue;
      Object.assign(this.players[p], players[p]);
      this.players[p].statusT = t;
      if (players[p].round_wins !== undefined) this.roundWins[p] = players[p].round_wins;
    }
  }

  /** One `events` message (or one replay frame: the same shape). */
  applyEvents(msg) {
    if (!this.takeSeq(msg)) return false;
    if (msg.epoch_ms !== undefined) this.epochMs = msg.epoch_ms;
    for (const ev of msg.events || []) this.applyEvent(ev);
    if (msg.round !== undefined && msg.round === this.round && !this.roundEnd) this.t = Math.max(this.t, msg.t);
    if (msg.players) this.updatePlayers(msg.players, msg.t ?? this.t);
    return true;
  }

  applyEvent(ev) {
    const R = this.rules;
    const c = ev.cell ? this.cellAt(ev.cell) : null;
    const tk = ev.kind + ":" + (ev.player || "");
    this.tally[tk] = (this.tally[tk] || 0) + 1;
    const flash = (kind) =>
      this.flashes.push({ kind, cell: ev.cell, t: ev.t, round: ev.round, player: ev.player, powerup: ev.powerup });
    switch (ev.kind) {
      case "round_started": {
        const n = R.size * R.size;
        this.cells = Array.from({ length: n }, () => ({ mark: null, setUntil: null, crater: null, powerup: null }));
        this.round = ev.round;
        this.t = ev.t;
        this.roundEnd = null;
        this.flashes = [];
        this.phase = "live";
        this.resumeAt = null;
        for (const p of PLAYERS)
          Object.assign(this.players[p], {
            charge_full: true,
            charge_progress: 1,
            charge_ready_t: 0,
            marks: 0,
            next_to_retire: null,
            frozen: false,
            hasted: false,
            frozen_until: null,
            hasted_until: null,
            statusT: 0,
          });
        break;
      }
      case "placed":
      case "stolen":
        c.mark = ev.player;
        c.setUntil = ev.until;
        c.powerup = null;
        c.crater = null;
        if (ev.kind === "stolen") flash("stolen");
        break;
      case "set":
        c.mark = ev.player;
        c.setUntil = null;
        break;
      case "knocked_out":
        flash("knocked_out");
        c.mark = null;
        c.setUntil = null;
        c.crater = ev.until ?? null;
        break;
      case "crater_cleared":
        c.crater = null;
        break;
      case "retired":
        flash("retired");
        c.mark = null;
        c.setUntil = null;
        break;
      case "bombed":
        flash("bombed");
        c.mark = null;
        c.setUntil = null;
        break;
      case "powerup_spawned":
        c.powerup = { kind: ev.powerup, until: ev.until };
        break;
      case "powerup_claimed":
        flash("claimed");
        c.powerup = null;
        break;
      case "powerup_burned_out":
        c.powerup = null;
        break;
      case "freeze_started":
        Object.assign(this.players[ev.player], { frozen: true, frozen_until: ev.until });
        break;
      case "freeze_ended":
        Object.assign(this.players[ev.player], { frozen: false, frozen_until: null });
        break;
      case "haste_started":
        Object.assign(this.players[ev.player], { hasted: true, hasted_until: ev.until });
        break;
      case "haste_ended":
        Object.assign(this.players[ev.player], { hasted: false, hasted_until: null });
        break;
      case "round_over": {
        this.roundEnd = ev;
        this.t = ev.t;
        if (ev.result === "X" || ev.result === "O") this.roundWins[ev.result] += 1;
        const rec = { round: ev.round, result: ev.result, by: ev.by, end_t: ev.t };
        if (ev.line) rec.line = ev.line;
        if (ev.scores) rec.scores = ev.scores;
        if (!this.rounds.some((r) => r.round === ev.round)) this.rounds.push(rec);
        break;
      }
      case "match_over":
        this.matchOver = ev.result;
        break;
      default:
        break; // clients ignore what they do not know (protocol versioning)
    }
    if (this.flashes.length > 40) this.flashes.splice(0, this.flashes.length - 40);
  }

  applyMatchEnd(msg) {
    this.result = msg;
    this.phase = "over";
    if (msg.round_wins) this.roundWins = { ...msg.round_wins };
    if (msg.rounds) this.rounds = msg.rounds.slice();
    this.rematch = { X: false, O: false };
    return true;
  }

  /** The engine ms now, from the server clock (`serverNow`, Unix ms): clamped to the
   *  round (a finished round stands still at its end; R2 step 5 ends it at round_ms). */
  nowT(serverNow) {
    if (this.roundEnd) return this.roundEnd.t;
    if (this.phase !== "live" || this.epochMs === null) return this.t;
    const t = serverNow - this.epochMs;
    return Math.min(Math.max(t, this.t), this.rules.round_ms);
  }

  /** Everything to draw at engine ms nowT. */
  view(nowT, serverNow = null) {
    const R = this.rules,
      size = R.size;
    const mine = this.mySeats();
    const over = !!this.roundEnd;
    const lineCells = new Set(((this.roundEnd && this.roundEnd.line) || []).map(key));
    const retire = {};
    for (const p of PLAYERS) {
      const nr = this.players[p].next_to_retire;
      if (nr) retire[key(nr)] = p;
    }
    const cells = this.cells.map((c, i) => {
      const row = Math.floor(i / size),
        col = i % size,
        k = row + "," + col;
      const v = {
        row,
        col,
        mark: c.mark,
        setting: false,
        setProgress: 1,
        knockable: false,
        faded: false,
        inLine: lineCells.has(k),
        crater: null,
        powerup: null,
      };
      if (c.mark) {
        if (c.setUntil !== null && (over || nowT < c.setUntil)) {
          v.setting = true;
          v.setProgress = clamp01((nowT - (c.setUntil - R.set_ms)) / R.set_ms);
          // R9: a setting mark of the other player can be knocked out.
          v.knockable = !over && this.phase === "live" && mine.some((s) => s !== c.mark);
        }
        v.faded = retire[k] === c.mark; // R12: the mark that goes next
      }
      if (c.crater !== null && (over || nowT < c.crater)) {
        // R9: the crater fades over crater_ms.
        v.crater = { left: clamp01((c.crater - nowT) / R.crater_ms) };
      }
      if (c.powerup && (over || nowT < c.powerup.until)) {
        v.powerup = { kind: c.powerup.kind, left: clamp01((c.powerup.until - nowT) / R.powerup_ms) };
      }
      return v;
    });
    const players = {};
    for (const p of PLAYERS) {
      const s = this.players[p];
      const charge = over ? (s.charge_full ? 1 : chargeAt(s, nowT)) : chargeAt(s, nowT);
      const frozen = s.frozen && (s.frozen_until === null || nowT < s.frozen_until);
      const hasted = s.hasted && (s.hasted_until === null || nowT < s.hasted_until);
      players[p] = {
        symbol: p,
        name: s.name || (s.kind === "bot" ? `bot (${s.level})` : p),
        kind: s.kind,
        level: s.level,
        connected: s.connected,
        graceUntil: s.grace_until,
        // Seconds left to a dropped player's grace (issue 26, item 7), with the server clock.
        graceLeft: s.grace_until && serverNow !== null ? secondsLeft(s.grace_until, serverNow) : null,
        empty: s.kind === null, // a free seat: nobody to charge

        charge,
        full: charge >= 1,
        frozen,
        hasted,
        frozenLeft: frozen && s.frozen_until !== null ? clamp01((s.frozen_until - nowT) / R.freeze_ms) : 0,
        hastedLeft: hasted && s.hasted_until !== null ? clamp01((s.hasted_until - nowT) / R.haste_ms) : 0,
        marks: s.marks,
        markLimit: R.mark_limit,
        roundWins: this.roundWins[p] || 0,
        roundsToWin: R.rounds_to_win,
        mine: mine.includes(p),
        rematch: !!this.rematch[p],
      };
    }
    const timeLeft = over ? Math.max(0, R.round_ms - this.roundEnd.t) : Math.max(0, R.round_ms - nowT);
    const flashes = this.flashes
      .filter((f) => f.round === this.round && nowT - f.t < 600 && nowT >= f.t)
      .map((f) => ({ ...f, age: (nowT - f.t) / 600 }));
    let countdown = null;
    if ((this.phase === "countdown" || this.phase === "break") && this.resumeAt !== null && serverNow !== null) {
      countdown = Math.max(0, (this.resumeAt - serverNow) / 1000);
    }
    return {
      size,
      round: this.round,
      t: nowT,
      phase: this.phase,
      mode: this.mode,
      room: this.room,
      cells,
      players,
      timeFrac: clamp01(timeLeft / R.round_ms),
      timeLeft,
      roundEnd: this.roundEnd ? { ...this.roundEnd } : null,
      result: this.result,
      rounds: this.rounds,
      countdown,
      flashes,
      mine,
      spectators: this.spectators,
      maxRounds: R.max_rounds,
    };
  }
}

/** The action a click (or the act key) on `cell` means for `seat`: a knock-out on the
 *  other player's setting mark (R9), a placement on a free cell (R6), else null. */
export function intentFor(view, cell, seat) {
  const v = view.cells[cell[0] * view.size + cell[1]];
  if (!v) return null;
  if (v.mark && v.setting && v.mark !== seat) return { action: "knockout", cell };
  if (!v.mark && !v.crater) return { action: "place", cell };
  return null;
}

/** Words for a round's end (the round result banner). */
export function describeRound(rec) {
  if (!rec) return "";
  const who = rec.result === "draw" ? "Draw" : `${rec.result} wins round ${rec.round}`;
  if (rec.by === "line") return `${who}: four in a row`;
  if (rec.by === "double_line") return `Round ${rec.round} drawn: both lines set together`;
  // R20: time ran out; each side's score is its most set marks in a line the other
  // side does not block. Both scores, and why the round ended.
  const s = rec.scores ? `: X ${rec.scores.X} – O ${rec.scores.O} (best open line)` : "";
  return rec.result === "draw"
    ? `Time up, round ${rec.round} drawn${s}`
    : `Time up, ${rec.result} wins round ${rec.round}${s}`;
}

/** Words for the match end. */
export function describeMatch(res) {
  if (!res) return "";
  const score = res.round_wins ? ` ${res.round_wins.X}–${res.round_wins.O}` : "";
  if (res.by === "forfeit") return `${res.result} wins: ${res.forfeited_by || "the other player"} left`;
  if (res.by === "abandoned") return "Match abandoned";
  return res.result === "draw" ? `Match drawn${score}` : `${res.result} wins the match${score}`;
}
