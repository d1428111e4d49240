// What every game's view model does the same way with the protocol's messages
// (docs/protocol.md): the room and seat bookkeeping, the dispatch of a server message,
// a `state` snapshot's room fields, an `events` message's place in the stream, the
// match end, presence and rematch votes. Pure: no DOM, no clock, no network.
//
// A game's `GameModel` extends `ModelBase` and keeps everything of its own game: its
// `reset()` (calling `resetRoom()`), `setRules`, `applyState` (between `beginState` and
// `endState`), `applyEvents` (after `takeSeq`), `nowT` and `view`. It has `seatNames`
// (its seats, in order) and `players` (seat -> what the server said of it).

/** The seats of `welcome.game` (as many as the rules' players: issue 25), or `fallback`
 *  when it names none. */
export function seatNamesOf(game, fallback) {
  return game && Array.isArray(game.seats) && game.seats.length >= 2 ? game.seats : fallback;
}

/** Whole seconds left until `untilMs` at `nowMs` (server clock ms), never below 0: a
 *  dropped player's grace, counted down (docs/protocol.md, `presence`: `grace_until`). */
export function secondsLeft(untilMs, nowMs) {
  return Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
}

export class ModelBase {
  /** The room and seat fields, as before any message. */
  resetRoom() {
    this.room = null;
    this.link = null;
    this.mode = null;
    this.matchId = null;
    this.phase = "waiting";
    this.seq = 0;
    this.round = 1;
    this.t = 0;
    this.resumeAt = null;
    this.role = "spectator";
    this.seats = [];
    this.host = false;
  }

  /** Dispatch one server message; returns true when the screen should change. */
  apply(msg) {
    switch (msg.type) {
      case "welcome":
        if (msg.rules) this.setRules(msg.rules);
        return true;
      case "joined":
        return this.applyJoined(msg);
      case "state":
        return this.applyState(msg);
      case "events":
        return this.applyEvents(msg);
      case "round_break":
        this.phase = msg.round === 0 ? "countdown" : "break";
        this.resumeAt = msg.resume_at;
        return true;
      case "match_end":
        return this.applyMatchEnd(msg);
      case "presence":
        return this.applyPresence(msg);
      case "rematch":
        this.rematch = { ...this.rematch, ...msg.votes };
        return true;
      case "rejected":
        return this.applyRejected(msg);
      default:
        return false;
    }
  }

  applyJoined(msg) {
    this.room = msg.room;
    this.link = msg.link;
    this.mode = msg.mode;
    this.role = msg.role;
    this.seats = msg.seats || [];
    this.matchId = msg.match_id;
    return true;
  }

  applyRejected(msg) {
    this.lastRejected = msg;
    return true;
  }

  /** A `state` snapshot replaces everything (docs/protocol.md, `state`): the rules, a
   *  `reset()`, then the room fields (the room's link stays). The game then takes its
   *  own fields and ends with `endState`. */
  beginState(msg) {
    const keep = { room: this.room, link: this.link };
    if (msg.rules) this.setRules(msg.rules);
    this.reset();
    this.room = msg.room || keep.room;
    this.link = keep.link;
    this.mode = msg.mode;
    this.matchId = msg.match_id;
    this.phase = msg.phase;
    this.seq = msg.seq || 0;
    this.t = msg.t || 0;
    this.resumeAt = msg.resume_at ?? null;
    if (msg.you) {
      this.role = msg.you.role;
      this.seats = msg.you.seats || [];
      this.host = !!msg.you.host;
    }
  }

  /** The end of a `state` snapshot: the match result, rematch votes, spectators. */
  endState(msg) {
    this.result = msg.result || null;
    if (msg.rematch) this.rematch = { ...msg.rematch };
    this.spectators = msg.spectators || 0;
    this.needSync = false;
    return true;
  }

  /** Whether an `events` message (or a replay frame) is to be applied: not for another
   *  match, not one already in a snapshot; a gap in `seq` asks for a sync (needSync). */
  takeSeq(msg) {
    if (msg.match_id && this.matchId && msg.match_id !== this.matchId) return false;
    if (msg.seq !== undefined) {
      if (msg.seq <= this.seq) return false; // already in a snapshot
      if (this.seq && msg.seq !== this.seq + 1) this.needSync = true; // a lost message
      this.seq = msg.seq;
    }
    return true;
  }

  updatePlayers(players) {
    for (const s of this.seatNames) if (players[s]) Object.assign(this.players[s], players[s]);
  }

  applyMatchEnd(msg) {
    this.result = msg;
    this.phase = "over";
    this.rematch = {};
    return true;
  }

  applyPresence(msg) {
    for (const s of this.seatNames) if (msg.players && msg.players[s]) Object.assign(this.players[s], msg.players[s]);
    if (msg.spectators !== undefined) this.spectators = msg.spectators;
    return true;
  }

  /** Which seats this screen plays. */
  mySeats() {
    return this.role === "player" ? this.seats : [];
  }

  /** The seats nobody holds yet (an online room still filling: issue 25). */
  freeSeats() {
    return this.seatNames.filter((s) => this.players[s] && !this.players[s].kind);
  }
}
