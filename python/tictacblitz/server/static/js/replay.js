// The replay viewer's clock: frames from the server (`GET /replays/{id}/events` or
// `POST /api/replay-events`, see replay_events.py) fed to the game view's model at their
// engine ms. Play at 1× or 4×, pause, step one frame forward or back. Game-agnostic: the
// model comes from `createModel(rules)` (the game's view module). Pure apart from fetch().

const BREAK_MS = 1500; // a pause between rounds, in engine ms at the chosen speed

export class ReplayPlayer {
  /** data: {rules, frames: [{round, t, events, players}], rounds, round_wins, match};
   *  createModel(rules): a fresh view model of the game (it has applyEvents and view). */
  constructor(data, createModel) {
    this.data = data;
    this.createModel = createModel;
    this.frames = data.frames || [];
    this.speed = 1;
    this.playing = true;
    this.seek(0);
  }

  /** Rebuild the model with the first k frames applied (stepping back re-plays: cheap). */
  seek(k) {
    this.model = this.createModel(this.data.rules);
    this.model.role = "spectator";
    this.model.mode = "replay";
    this.model.phase = "live";
    this.next = 0;
    this.t = 0;
    this.round = 1;
    this.hold = 0;
    k = Math.max(0, Math.min(k, this.frames.length));
    while (this.next < k) this.applyNext();
    if (this.next > 0) this.t = this.frames[this.next - 1].t;
    this.finishIfDone();
  }

  applyNext() {
    const f = this.frames[this.next++];
    if (f.round !== this.round) {
      this.round = f.round;
      this.t = 0;
    }
    this.model.applyEvents(f);
    this.t = Math.max(this.t, f.t);
  }

  finishIfDone() {
    if (this.next >= this.frames.length && this.data.match && !this.model.result) {
      this.model.result = {
        result: this.data.match,
        by: "rounds",
        round_wins: this.data.round_wins,
        rounds: this.data.rounds,
      };
      this.model.phase = "over";
    }
  }

  get done() {
    return this.next >= this.frames.length;
  }

  /** Advance the clock by `dtReal` real ms (at the speed), applying due frames. */
  tick(dtReal) {
    if (!this.playing || this.done) return;
    let dt = dtReal * this.speed;
    while (dt > 0 && !this.done) {
      const f = this.frames[this.next];
      if (f.round !== this.round) {
        // The round is over: hold the final board a moment, then the next round.
        const wait = BREAK_MS - this.hold;
        if (dt < wait) {
          this.hold += dt;
          return;
        }
        dt -= wait;
        this.hold = 0;
        this.applyNext();
        continue;
      }
      const roundEnded = !!this.model.roundEnd;
      if (roundEnded) {
        this.applyNext();
        continue;
      }
      if (this.t + dt < f.t) {
        this.t += dt;
        return;
      }
      dt -= f.t - this.t;
      this.applyNext();
    }
    this.finishIfDone();
  }

  step() {
    if (!this.done) {
      this.applyNext();
      this.hold = 0;
    }
    this.finishIfDone();
  }
  back() {
    this.seek(this.next - 1);
  }
  toggle() {
    this.playing = !this.playing;
  }
  setSpeed(s) {
    this.speed = s;
  }
  nowT() {
    return this.model.roundEnd ? this.model.roundEnd.t : this.t;
  }
  view() {
    return this.model.view(this.nowT());
  }
  progress() {
    return this.frames.length ? this.next / this.frames.length : 1;
  }
}

export async function fetchReplay(id) {
  const r = await fetch(`/replays/${encodeURIComponent(id)}/events`);
  if (!r.ok) throw new Error(r.status === 404 ? "no replay with that id" : `the server said ${r.status}`);
  return r.json();
}

export async function replayFromFile(text) {
  const r = await fetch("/api/replay-events", {
    method: "POST",
    body: text,
    headers: { "Content-Type": "application/json" },
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.message || body.error || `the server said ${r.status}`);
  return body;
}
