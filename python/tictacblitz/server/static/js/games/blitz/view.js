// The Tic Tac Blitz view: everything the shell (static/js/main.js) asks of a game's view
// module, and nothing else of the page knows about Blitz. The server names this file in
// `welcome.game.view`; the shell imports it from there.
//
// The interface (docs/client.md, "A game's view module"):
//   SEATS, seatLabel(seat, long), DEFAULT_BOT            the menu's choices
//   TITLE_HTML, tagline(rules), helpHtml(rules), legend(rules), LEGEND_NOTE, drawLegendIcon
//   createModel(rules, game)                            a view model (applyState, applyEvents, view, …)
//   layoutFor(w, h, view), draw(ctx, view, lay, ui), cellCenter(lay, rect, cell)
//   Input                                               pointer and keys → act intents
//   REASONS, describeRound, describeMatch, controlsHelp(seats)   words for the page
//   reasonOver(reason, view, seat)                      (optional) when a rejection's words go

import { GameModel } from "./model.js";
import { drawGame, layout } from "./draw.js";

export { Input } from "./input.js";
export { describeRound, describeMatch } from "./model.js";
export { drawLegendIcon } from "./draw.js";

export const SEATS = ["X", "O"]; // seat 0 and 1 (server/games/blitz.py SEATS; tests tie them)
export const DEFAULT_BOT = "medium";

export function seatLabel(seat, long = false) {
  if (!long) return seat;
  return seat === "X" ? "X (cross)" : "O (ring)";
}

export const TITLE_HTML = '<span class="x">✕</span> Tic Tac Blitz <span class="o">◯</span>';

// Words with the server's numbers in them: the page says what the rules of this server
// are (`welcome.rules`), so a server run with --rule set_ms=1200 explains 1.2 s.
const WORDS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
];
const ORDINALS = [
  "zeroth",
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
  "thirteenth",
];
const word = (n) => WORDS[n] || String(n);
const Word = (n) => {
  const w = word(n);
  return w[0].toUpperCase() + w.slice(1);
};
const ordinal = (n) => ORDINALS[n] || `${n}th`;
const sec = (ms) => `${+(ms / 1000).toFixed(2)} s`;
const times = (f) => (f === 2 ? "twice" : `${f}×`);

export function tagline(R) {
  return (
    `${Word(R.line_length)} in a row on a ${R.size}×${R.size} board — no turns. Place whenever your ` +
    `charge is full; new marks take ${sec(R.set_ms)} to set and can be knocked out until then.`
  );
}

// R7's reasons in words (tests/test_server_ties.py checks they are exactly Reason's values).
export const REASONS = {
  not_charged: "Not charged yet — wait for the gold ring.",
  occupied: "That square is taken.",
  crater: "A crater: nobody can place there for 2 s.",
  not_opponent_mark: "Only an opponent's setting mark can be knocked out.",
  already_set: "Too late: that mark has set.",
  round_over: "The round is over.",
};

/** Whether a rejection's words stopped being true (the shell then clears them): "not
 *  charged" goes once that seat's ring is gold. */
export function reasonOver(reason, view, seat) {
  const pl = view.players && view.players[seat];
  return reason === "not_charged" && !!pl && pl.full;
}

export function legend(R) {
  return [
    { icon: "bomb", html: "<b>Bomb</b> removes every opponent mark touching it — set or not." },
    {
      icon: "freeze",
      html: `<b>Freeze</b>: your opponent recharges ${R.freeze_factor}× slower for ${sec(R.freeze_ms)}.`,
    },
    { icon: "haste", html: `<b>Haste</b>: you recharge ${times(R.haste_factor)} as fast for ${sec(R.haste_ms)}.` },
    {
      icon: "swap",
      html: `<b>Swap</b> steals up to ${word(R.swap_max)} touching opponent marks (set first); they set again.`,
    },
    { icon: "setting", html: `Setting mark: the ring fills over ${sec(R.set_ms)}.` },
    { icon: "target", html: "Target: an opponent's setting mark — select it to knock it out." },
    { icon: "crater", html: `Crater: nobody can place here for ${sec(R.crater_ms)}.` },
    { icon: "faded", html: `Faded: the oldest mark, gone at the next one (${R.mark_limit}-mark limit).` },
  ];
}
export const LEGEND_NOTE =
  "A glowing square is a powerup; the ring around it shows how long before it " +
  "burns out. Claim it by placing a mark on it.";

export function helpHtml(R) {
  const refill = R.recharge_place_ms < 500 ? "in under half a second" : `in ${sec(R.recharge_place_ms)}`;
  return `
  <ul>
    <li><b>Win a round</b> with ${word(R.line_length)} of your marks in a row — across, down or diagonally — on the ${R.size}×${R.size} board. Win ${word(R.rounds_to_win)} rounds to take the match.</li>
    <li><b>No turns.</b> Act whenever your charge ring is full (gold). Placing empties it; it refills ${refill}.</li>
    <li><b>Marks take ${sec(R.set_ms)} to set</b> — the ring around a new mark fills. A line only wins once all ${word(R.line_length)} marks have set.</li>
    <li><b>Knock out</b> an opponent's mark while it is still setting (it shows a target): select it. The square becomes a crater for ${sec(R.crater_ms)}. A knock-out takes longer to recharge from (${sec(R.recharge_knockout_ms)}).</li>
    <li><b>${Word(R.mark_limit)} marks at most.</b> Your ${ordinal(R.mark_limit + 1)} removes your oldest mark — it is drawn faded so you always know which.</li>
    <li><b>Powerups</b> glow on the board and burn out after about ${sec(R.powerup_ms)}: bomb, freeze, haste, swap (see the legend). Place a mark on one to claim it.</li>
    <li><b>${sec(R.round_ms)} a round.</b> When time runs out, the longest open line of <em>set</em> marks wins the round.</li>
  </ul>
  <h3>Controls</h3>
  <ul>
    <li>Mouse or touch: select a free square to place, an opponent's setting mark to knock it out.</li>
    <li>Keyboard: arrows (or WASD) move the cursor, Space or Enter (or F) acts on the square under it. In local play the keyboard player uses the arrows and Enter; the mouse player can use WASD and F.</li>
    <li>R: rematch after a match. H: this help. Esc: close.</li>
  </ul>`;
}

export function createModel(rules, game) {
  return new GameModel(rules, game);
}

/** Where everything goes on a w×h canvas for this view (a new layout when the size changes). */
export function layoutFor(w, h, view) {
  return layout(w, h, view.size);
}

export const draw = drawGame;
export { animating } from "./draw.js";

/** The page coordinates of a cell's centre (the browser tests click there). */
export { cellCenter } from "../../view_common.js";

/** The key help beside the board, for the input's seats ({mouse, keyboard}). */
export function controlsHelp(s) {
  if (s.mouse && s.mouse !== s.keyboard) {
    return (
      `<b>${s.mouse}</b> (mouse/touch, or WASD + F) · <b>${s.keyboard}</b> (arrows + Enter or Space). ` +
      "Select a free square to place, a setting mark with a target to knock it out."
    );
  }
  if (s.mouse) {
    return "Click a free square to place; click a mark with a target to knock it out. Keyboard: arrows/WASD + Space or Enter.";
  }
  return "Spectating.";
}
