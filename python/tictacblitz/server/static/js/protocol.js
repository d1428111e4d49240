// The protocol's names as the page uses them (docs/protocol.md). The source is
// python/tictacblitz/server/protocol.py; tests/test_server_ties.py fails when the two
// differ, and when the page sends or handles a message type not listed here.

export const VERSION = 1;

export const CLIENT_MESSAGES = ["create", "join", "watch", "resume", "act", "rematch", "sync", "ping", "leave"];

export const SERVER_MESSAGES = [
  "welcome", "joined", "state", "events", "rejected", "round_break", "match_end",
  "presence", "rematch", "pong", "error", "redirect",
];

export const CLOSE_CODES = {
  normal: 1000, flood: 1008, too_big: 1009, too_slow: 1013, seat_taken_over: 4001, room_closed: 4002,
  server_closing: 4003,
};

/** Close codes after which the page does not reconnect by itself. */
export const FINAL_CLOSES = [
  CLOSE_CODES.seat_taken_over, CLOSE_CODES.room_closed, CLOSE_CODES.server_closing, CLOSE_CODES.flood,
];
