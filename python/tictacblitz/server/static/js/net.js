// The WebSocket connection (docs/protocol.md): send with refs, measure the clock with
// ping/pong, and come back after a drop with `resume` and the seat token.

import { ClockSync } from "./clock.js";
import { FINAL_CLOSES } from "./protocol.js";

export class Connection {
  constructor(onMessage, { url = null, onStatus = () => {} } = {}) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = url || `${proto}//${location.host}/ws`;
    this.clock = new ClockSync();
    this.ref = 0;
    this.pings = new Map();
    this.token = null;          // the seat token from `joined` (bearer secret)
    this.ws = null;
    this.closedByUs = false;
    this.retry = 0;
    this.queue = [];
    this.welcome = null;
  }

  open() {
    this.closedByUs = false;
    return new Promise((resolve) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => {
        this.retry = 0;
        this.onStatus("open");
        for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
        this.ping();
        resolve();
      };
      ws.onmessage = (e) => {
        let msg;
        try { msg = JSON.parse(e.data); } catch { return; }
        if (msg.type === "pong") this.onPong(msg);
        if (msg.type === "welcome") this.welcome = msg;
        if (msg.type === "joined" && msg.token) this.token = msg.token;
        this.onMessage(msg);
      };
      ws.onclose = (e) => {
        this.onStatus("closed", e.code);
        if (this.closedByUs || FINAL_CLOSES.includes(e.code)) return;
        // A dropped connection: come back and take the seat again (the grace period).
        const delay = Math.min(4000, 300 * 2 ** this.retry++);
        setTimeout(() => this.reopen(), delay);
      };
      ws.onerror = () => {};
    });
  }

  async reopen() {
    await this.open();
    if (this.token) this.send({ type: "resume", token: this.token });
    else if (this.rejoin) this.send(this.rejoin);
  }

  send(msg) {
    if (msg.ref === undefined) msg.ref = ++this.ref;
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

  serverNow() { return this.clock.serverNow(Date.now()); }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close(1000);
  }
}
