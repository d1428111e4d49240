// The server clock as the page estimates it (docs/client.md, "Timers between messages").
// Pure: tests run it under Node.

/** Server clock estimate from ping/pong: keep the sample with the smallest round trip. */
export class ClockSync {
  constructor() {
    this.offset = 0;
    this.rtt = Infinity;
    this.samples = 0;
  }
  // sent, received: local Date.now() ms; serverMs: the pong's server_ms.
  sample(sent, received, serverMs) {
    const rtt = received - sent;
    this.samples += 1;
    // Older samples age: a clock drift or a route change is picked up eventually.
    this.rtt *= 1.05;
    if (rtt <= this.rtt) {
      this.rtt = rtt;
      this.offset = serverMs - (sent + received) / 2;
    }
  }
  serverNow(localNow) {
    return localNow + this.offset;
  }
}
