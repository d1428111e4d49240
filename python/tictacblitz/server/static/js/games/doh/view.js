// The Tic Tac Doh view: everything the shell (static/js/main.js) asks of a game's view
// module (docs/client.md, "A game's view module"). The server names this file in
// `welcome.game.view` (server/games/doh.py); the shell imports it from there.
//
//   SEATS, seatLabel(seat, long), DEFAULT_BOT            the menu's choices
//   TITLE_HTML, tagline(rules), helpHtml(rules), legend(rules), LEGEND_NOTE, drawLegendIcon
//   createModel(rules, game)                            a view model (applyState, applyEvents, view, …)
//   layoutFor(w, h, view), draw(ctx, view, lay, ui), cellCenter(lay, rect, cell)
//   Input                                               pointer and keys → act intents
//   REASONS, describeRound, describeMatch, controlsHelp(seats)   words for the page
//   replayStatus(view, at)                              a replay's status line (optional)
// and, for tests: pieceCenter(lay, rect, piece), the page point of a stash button.

import { GameModel, SEATS } from "./model.js";
import { drawGame, layout, seatCountOf } from "./draw.js";
import { boxCenter } from "../../view_common.js";

export { Input } from "./input.js";
export { describeRound, describeMatch, SEATS } from "./model.js";
export { drawLegendIcon } from "./draw.js";

export const DEFAULT_BOT = "medium";

export function seatLabel(seat, long = false) {
  const name = seat[0].toUpperCase() + seat.slice(1);
  if (!long) return name;
  return seat === "first" ? "First (moves first)" : name;
}

export const TITLE_HTML = '<span style="color:#E0453A">▲</span> Tic Tac Doh <span style="color:#F5D33B">▲</span>';

const WORDS = ["zero", "one", "two", "three", "four", "five", "six"];
const word = (n) => WORDS[n] || String(n);

const others = (R) => ((R.players || 2) > 2 ? `${word(R.players)} players` : "");

export function tagline(R) {
  const many = others(R);
  return (
    `${many ? `For ${many}: t` : "T"}ic-tac-toe with one shared stash of pyramids — ${word(R.pieces_per_size)} small, ` +
    `${word(R.pieces_per_size)} medium and ${word(R.pieces_per_size)} large — on a ${R.grid}×${R.grid} ` +
    "grid the pieces themselves define. Nobody owns a piece: whoever completes a line wins."
  );
}

// D6's reasons in words, and the server's own (not your turn, the game is over).
export const REASONS = {
  game_over: "The game is over.",
  none_left: "None of that size left in the stash.",
  not_adjacent: "A new square must touch a piece (diagonals count).",
  outside_grid: `That square would not fit the grid.`,
  cannot_stack: "That piece cannot go on that square (stack one smaller, nest one larger).",
  not_your_turn: "Not your turn.",
};

export function legend(R) {
  return [
    { icon: "S", html: "<b>Small</b> (red)" },
    { icon: "M", html: "<b>Medium</b> (orange)" },
    { icon: "L", html: "<b>Large</b> (yellow)" },
    { icon: "stack", html: "<b>Stack</b>: smaller on top — counts as <em>every</em> size in it." },
    { icon: "nest", html: "<b>Nest</b>: larger over — counts only as the outer piece (hidden ones dashed)." },
    { icon: "legal", html: "Dashed square: where the piece in hand may go." },
    { icon: "box", html: `Blue frame: where the ${R.grid}×${R.grid} grid can still be; solid once fixed.` },
    { icon: "line", html: "Gold stroke: the winning line." },
  ];
}
export const LEGEND_NOTE =
  "The chips under a square show what it counts as: coloured sizes count, grey ones are hidden in a nest.";

export function helpHtml(R) {
  const n = R.pieces_per_size;
  return `
  <ul>
    <li><b>One stash for ${others(R) ? "all" : "both"}.</b> ${word(n)} pyramids of each size: small, medium, large. On your turn you take any piece still in the stash. Nobody owns a piece: the players differ only by whose turn it is.</li>
    <li><b>An imaginary ${R.grid}×${R.grid} grid.</b> The first piece goes anywhere: the board is drawn around it, so a click on any square of the empty board puts it at the centre. After that a new square must touch an occupied one (diagonals count), and all pieces must always fit in some ${R.grid}×${R.grid} box.</li>
    <li><b>Stack or nest.</b> Instead of a new square, you may <em>stack</em> a piece one size smaller on a single piece or a stack (large ← medium ← small), or <em>nest</em> a piece one size larger over a single piece or a nest (small → medium → large). A square is a stack or a nest, never both.</li>
    <li><b>What a square counts as.</b> A single piece: its size. A stack: every size in it. A nest: only its outer, largest piece.</li>
    <li><b>Win</b> by completing three squares in a row, column or diagonal that all count as one common size. If the stash runs out, it is a draw. If the player to move has pieces but no legal move, ${
      others(R)
        ? "they are out, and so is every player after them (nobody else has a move either): the player who moved last wins. Turns go round in seat order, first to " +
          SEATS[R.players - 1]
        : "the other player wins"
    }.</li>
  </ul>
  <h3>Controls</h3>
  <ul>
    <li>Choose the piece in hand with the stash buttons (or keys 1 2 3: small, medium, large); the squares it may go on are dashed. Click a square to put it there.</li>
    <li>Keyboard: arrows (or WASD) move the cursor, Space or Enter (or F) puts the piece in hand there. ${
      others(R)
        ? "In local play whoever is to move plays, with the mouse or the keys."
        : "In local play the keyboard player uses 1 2 3, the arrows and Enter; the mouse player the mouse (or 7 8 9, WASD and F)."
    }</li>
    <li>R: rematch after a game. H: this help. Esc: close.</li>
  </ul>`;
}

export function createModel(rules, game) {
  return new GameModel(rules, game);
}

/** Where everything goes on a w×h canvas for this view. */
export function layoutFor(w, h, view) {
  return layout(w, h, view.size, seatCountOf(view));
}

/** Whether a layout still fits a view (the shell lays out again when not): a replay of a
 *  4-player game after a 2-player match needs four seat rows. */
export function layoutFits(lay, view) {
  return lay.seatCount === seatCountOf(view);
}

/** The canvas height a phone's page gives this view `w` wide (the shell asks when the
 *  side column is under the board): the board inside `avail`, the whole panel below. */
export { stageHeight } from "./draw.js";

export const draw = drawGame;

/** The page coordinates of a cell's centre (the browser tests click there). */
export { cellCenter } from "../../view_common.js";

/** The page coordinates of a stash button's centre (the piece in hand). */
export function pieceCenter(lay, rect, piece) {
  return boxCenter(
    rect,
    lay.stash.find((s) => s.piece === piece),
  );
}

/** The status line of a replay (the shell's default is Blitz-like: a round and a clock):
 *  Doh has moves, not time. `at`: {step, steps}, the frames applied and in all. */
export function replayStatus(view, at) {
  return `Replay · move ${view.ply} of ${at.steps}`;
}

/** The local card's words and whether it offers the mouse's seat: with three or four
 *  players the screen is passed round (input.js, "taking turns"). */
export function localNote(game) {
  if ((game.seats || []).length <= 2) return null;
  return `${word(game.seats.length)[0].toUpperCase() + word(game.seats.length).slice(1)} players take turns on one screen: whoever is to move plays, with the mouse or the keys.`;
}

/** The key help beside the board, for the input's seats ({mouse, keyboard}, or {turns}
 *  when the players take turns on one screen). */
export function controlsHelp(s) {
  if (s.turns)
    return `<b>${s.turns.map((seat) => seatLabel(seat)).join(", ")}</b> take turns: whoever is to move picks a piece (or 1 2 3) and a dashed square (or arrows/WASD + Space or Enter).`;
  if (s.mouse && s.mouse !== s.keyboard) {
    return (
      `<b>${seatLabel(s.mouse)}</b>: mouse — a stash button, then a square (or 7 8 9, WASD + F). ` +
      `<b>${seatLabel(s.keyboard)}</b>: keys 1 2 3 for the piece, arrows, Enter or Space.`
    );
  }
  if (s.mouse)
    return "Pick a piece in the stash (or 1 2 3), then click a dashed square. Keyboard: arrows/WASD + Space or Enter.";
  return "Spectating.";
}
