// The WebSocket connection (docs/protocol.md): send with refs, measure the clock with
// ping/pong, come back after a drop with `resume` (the seat token and the room's code),
// and follow `redirect` to the server process that hosts the room (docs/protocol.md,
// "More than one process"; docs/client.md, "Redirects").

import { ClockSync } from "./clock.js";
import { FINAL_CLOSES, resumeMessage } from "./protocol.js";

/** The messages that put a connection in a room: those a `redirect` may answer. */
const ENTERING = ["create", "join", "watch", "resume"];
/** Redirects followed in a row (no `joined` between) before giving up: one is the rule,
 *  each fallback to the entry point (below) may add one; more is a misconfigured cluster
 *  sending us round (docs/protocol.md, "More than one process"). */
const MAX_REDIRECTS = 3;
/** Sockets in a row that fail to open before going back to the entry point: the process
 *  that hosted the room is presumably gone (docs/protocol.md, "More than one process"). */
const FAILED_OPENS_TO_HOME = 2;

export class Connection {
  constructor(onMessage, { url = null, onStatus = () => {} } = {}) {
    this.onMessage = onMessage;
    this.onStatus = onStatus; // ("open") ("closed", code) ("moving") ("redirect_failed")
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.home = url || `${proto}//${location.host}/ws`; // the entry point: the page's server
    this.url = this.home; // the current socket's: the room's process after a redirect
    this.clock = new ClockSync();
    this.ref = 0;
    this.pings = new Map();
    this.token = null; // the seat token from `joined` (bearer secret)
    this.code = null; // the room's code from `joined`, sent with `resume`
    this.pending = null; // the create/join/watch/resume not answered yet
    this.redirects = 0; // redirects followed in a row
    this.failedOpens = 0; // sockets in a row that never opened
    this.ws = null;
    this.closedByUs = false; // close() was called: this connection is over
    this.retry = 0;
    this.queue = [];
    this.welcome = null;
  }

  open() {
    return new Promise((resolve) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      let opened = false;
      ws.onopen = () => {
        opened = true;
        this.retry = 0;
        this.failedOpens = 0;
        this.onStatus("open");
        for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
        this.ping();
        resolve();
      };
      ws.onmessage = (e) => {
        if (ws !== this.ws) return; // a socket left behind by a redirect
        let msg;
        try {
          msg = JSON.parse(e.data);
        } catch {
          return;
        }
        if (msg.type === "redirect") {
          this.follow(msg);
          return;
        }
        if (msg.type === "pong") this.onPong(msg);
        if (msg.type === "welcome") this.welcome = msg;
        if (msg.type === "joined") {
          if (msg.token) this.token = msg.token;
          this.code = msg.room;
          this.pending = null;
          this.redirects = 0;
          // `routed=1` placed one create; a later socket to this process must not
          // carry it (docs/protocol.md, `redirect`).
          this.url = this.url.replace(/\?routed=1$/, "");
        }
        if (msg.type === "error" && this.pending && msg.ref === this.pending.ref) this.pending = null;
        this.onMessage(msg);
      };
      ws.onclose = (e) => {
        if (ws !== this.ws) return; // left behind by a redirect: closed by us
        this.onStatus("closed", e.code);
        if (this.closedByUs || FINAL_CLOSES.includes(e.code)) return;
        // The room's process does not even answer: go back to the entry point, which
        // sends us on (`redirect`) if the room lives, or answers `room_lost`.
        if (!opened && ++this.failedOpens >= FAILED_OPENS_TO_HOME) this.moveTo(this.home);
        // A dropped connection: come back and take the seat again (the grace period).
        const delay = Math.min(4000, 300 * 2 ** this.retry++);
        setTimeout(() => this.reopen(), delay);
      };
      ws.onerror = () => {};
    });
  }

  /** A new socket after a drop, and the message that takes the room back: the one still
   *  unanswered, else `resume` with the token and the room's code (so that a process
   *  other than the room's can send it on: docs/protocol.md, `resume`). */
  reopen() {
    if (this.closedByUs) return;
    const resume = this.token && resumeMessage(this);
    this.openWith(this.pending || resume || this.rejoin || null);
  }

  /** Open a socket whose first room-entering message is `msg` (it replaces one queued
   *  before, which a socket that never opened did not send). */
  openWith(msg) {
    this.queue = this.queue.filter((m) => !ENTERING.includes(m.type));
    if (msg) this.transmit(msg);
    return this.open();
  }

  /** `redirect` (docs/protocol.md): the room is on another process. Send the same message
   *  there, on a new socket: the page keeps one socket, to the room's process. */
  follow(msg) {
    const again = this.pending;
    if (!again || (msg.ref != null && msg.ref !== again.ref)) return; // answers nothing in flight
    if (++this.redirects > MAX_REDIRECTS || !/^wss?:\/\//.test(msg.url)) {
      this.pending = null;
      this.redirects = 0;
      this.onStatus("redirect_failed");
      return;
    }
    this.onStatus("moving");
    const old = this.ws;
    this.ws = null; // its events are ignored from now on: its close is ours
    old.close(1000);
    this.moveTo(msg.url);
    this.openWith(again);
  }

  moveTo(url) {
    if (url === this.url) return;
    this.url = url;
    this.failedOpens = 0;
    this.clock = new ClockSync(); // another process, maybe another machine's clock
    this.pings.clear();
  }

  /** The page left its room: nothing to take back after a drop. */
  forget() {
    this.token = this.code = this.pending = this.rejoin = null;
    this.queue = this.queue.filter((m) => !ENTERING.includes(m.type));
  }

  /** Send `msg` (a ref is added). A create/join/watch/resume from the page starts a new
   *  count of redirects. */
  send(msg) {
    if (ENTERING.includes(msg.type)) this.redirects = 0;
    return this.transmit(msg);
  }

  transmit(msg) {
    if (msg.ref === undefined) msg.ref = ++this.ref;
    if (ENTERING.includes(msg.type)) this.pending = msg;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
    return msg.ref;
  }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const ref = ++this.ref;
    this.pings.set(ref, Date.now());
    this.ws.send(JSON.stringify({ type: "ping", ref }));
  }

  onPong(msg) {
    const sent = this.pings.get(msg.ref);
    if (sent === undefined) return;
    this.pings.delete(msg.ref);
    this.clock.sample(sent, Date.now(), msg.server_ms);
  }

  serverNow() {
    return this.clock.serverNow(Date.now());
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close(1000);
  }
}
