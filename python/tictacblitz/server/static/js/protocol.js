// The protocol's names as the page uses them (docs/protocol.md). The source is
// python/tictacblitz/server/protocol.py; tests/test_server_ties.py fails when the two
// differ, and when the page sends or handles a message type not listed here.

export const VERSION = 1;

export const CLIENT_MESSAGES = [
  "create",
  "join",
  "start",
  "watch",
  "resume",
  "act",
  "rematch",
  "sync",
  "ping",
  "leave",
];

export const SERVER_MESSAGES = [
  "welcome",
  "joined",
  "state",
  "events",
  "rejected",
  "round_break",
  "match_end",
  "presence",
  "rematch",
  "pong",
  "error",
  "redirect",
];

export const CLOSE_CODES = {
  normal: 1000,
  flood: 1008,
  too_big: 1009,
  too_slow: 1013,
  seat_taken_over: 4001,
  room_closed: 4002,
  server_closing: 4003,
};

/** Close codes after which the page does not reconnect by itself. */
export const FINAL_CLOSES = [
  CLOSE_CODES.seat_taken_over,
  CLOSE_CODES.room_closed,
  CLOSE_CODES.server_closing,
  CLOSE_CODES.flood,
];

/** The `resume` that takes a seat back: its token, and the room's code when known (with
 *  several server processes another one sends it on: docs/protocol.md, `resume`). */
export function resumeMessage({ token, code }) {
  const msg = { type: "resume", token };
  if (code) msg.code = code;
  return msg;
}

/** A room code as the server reads it (protocol.py's `normalize_code`: Crockford, case,
 *  dashes and spaces aside, I/L = 1, O = 0). */
export function normalizeCode(code) {
  return String(code).toUpperCase().replace(/[-\s]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
}

/** A room code as people read it: XXXXX-XXXXX. */
export function formatCode(code) {
  return code.length === 10 ? `${code.slice(0, 5)}-${code.slice(5)}` : code;
}
