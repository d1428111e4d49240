// The Rift & Grid view: everything the shell (static/js/main.js) asks of a game's view
// module (docs/client.md, "A game's view module"). The server names this file in
// `welcome.game.view` (server/games/rift.py); the shell imports it from there.
//
//   SEATS, seatLabel(seat, long), DEFAULT_BOT            the menu's choices
//   TITLE_HTML, tagline(rules), helpHtml(rules), legend(rules), LEGEND_NOTE, drawLegendIcon
//   createModel(rules, game)                            a view model (applyState, applyEvents, view, …)
//   layoutFor(w, h, view), draw(ctx, view, lay, ui), cellCenter(lay, rect, cell)
//   stageHeight(w, avail, view), replayStatus(view, at)  a phone's canvas height, a replay's status (optional)
//   Input                                               pointer and keys → act intents
//   REASONS, describeRound, describeMatch, controlsHelp(seats)   words for the page
// and, for tests: abilityCenter(lay, rect, ability), tabCenter(lay, rect, seat).
// Every number in the words (costs, cooldowns, energy, points) is the server's rules'.

import { GameModel } from "./model.js";
import { drawGame } from "./draw.js";
import { cellRect, layout, stageHeight as stageHeightOf } from "./layout.js";
import { boxCenter } from "../../view_common.js";

export { Input } from "./input.js";
export { describeRound, describeMatch } from "./model.js";
export { drawLegendIcon } from "./draw.js";

export const SEATS = ["X", "O"]; // seats 0 and 1 (server/games/rift.py SEATS)
export const DEFAULT_BOT = "medium";

export function seatLabel(seat, long = false) {
  if (!long) return seat;
  return seat === "X" ? "X (names the next sector)" : "O";
}

export const TITLE_HTML = '<span class="x">✕</span> Rift &amp; Grid <span class="o">◯</span>';

export function tagline(R) {
  return (
    "Ultimate tic-tac-toe with simultaneous turns: both players program a move in secret and " +
    "the two resolve together. Pick the same cell and it is a collision. Shield, swap and reveal " +
    `cost energy (${R.energy_start} to start, at most ${R.energy_max}), and each player holds ` +
    `${R.objectives_per_player} secret objectives worth bonus points.`
  );
}

// G5's reasons in words (the server's order), and the server's own (the game is over;
// a seat's moves in one turn are capped, docs/server.md).
export const REASONS = {
  game_over: "The game is over.",
  sector_decided: "That sector is already decided.",
  wrong_sector: "Play in the active sector (outlined in gold).",
  not_empty: "That cell is taken.",
  no_energy: "Not enough energy for that ability.",
  cooling_down: "That ability is cooling down.",
  nothing_to_reveal: "Nothing left to reveal.",
  move_limit: "Too many moves this turn: your locked move stands.",
};

export function legend(R) {
  return [
    { icon: "X", html: "<b>X</b>: a cross (X's final target names the next sector)" },
    { icon: "O", html: "<b>O</b>: a ring" },
    { icon: "active", html: "Gold frame: the active sector (dashed: a free turn, any open sector)" },
    { icon: "grey", html: "Grey cell: a collision nobody won; it belongs to nobody" },
    { icon: "tie", html: "Hatched sector: tied (a large faint symbol: won)" },
    { icon: "ghost", html: "Dashed symbol: your programmed move, hidden from the other player" },
    {
      icon: "shield",
      html: `<b>Shield</b> (${R.shield_cost} energy, cooldown ${R.shield_cooldown}): wins a collision`,
    },
    {
      icon: "swap",
      html: `<b>Swap</b> (${R.swap_cost} energy, cooldown ${R.swap_cooldown}): exchanges the two targets`,
    },
    {
      icon: "reveal",
      html: `<b>Reveal</b> (${R.reveal_cost} energy, cooldown ${R.reveal_cooldown}): shows one of the opponent's objectives`,
    },
  ];
}
export const LOCAL_NOTE =
  "Two players take turns at one screen: the “Player X” / “Player O” switch shows one " +
  "player's view at a time, so neither sees the other's programmed move or objectives.";
export const LOCAL_SEAT = "The first view is";
export const LEGEND_NOTE =
  "Moves are secret until both players have locked in; then the turn resolves and is animated.";

export function helpHtml(R) {
  return `
  <ul>
    <li><b>The board</b>: nine sectors of nine cells. Win a sector with three in a row (+${R.sector_win_points}; a tie gives each +${R.sector_tie_points}); three won sectors in a row are a meta line (+${R.meta_line_points}).</li>
    <li><b>Simultaneous turns.</b> Both players choose a cell of the active sector (gold) in secret and lock in; you may change your move until the other player has locked in too. Then both moves resolve together.</li>
    <li><b>Next sector.</b> The position of X's final cell inside its sector names the next active sector. If that sector is decided, the next turn is free: any open sector.</li>
    <li><b>Collisions.</b> The same cell for both: it turns grey, unless exactly one player used <b>shield</b> (${R.shield_cost} energy): that player takes it.</li>
    <li><b>Swap</b> (${R.swap_cost} energy): when only you swap, you get the other player's cell and they get yours. <b>Reveal</b> (${R.reveal_cost} energy): see one hidden objective of the opponent. Cooldowns: shield ${R.shield_cooldown}, swap ${R.swap_cooldown}, reveal ${R.reveal_cooldown} turns.</li>
    <li><b>Energy</b> starts at ${R.energy_start}, at most ${R.energy_max}: +${R.energy_idle_gain} for a turn without an ability, +${R.energy_sector_gain} per sector won.</li>
    <li><b>Objectives.</b> You hold ${R.objectives_per_player} secret objectives; each scores its points once it holds. The game ends when all nine sectors are decided: the higher score wins.</li>
  </ul>
  <h3>Controls</h3>
  <ul>
    <li>Choose an ability with its button (or keys 1 2 3 4: place, shield, swap, reveal), then click a cell to lock in. Keyboard: arrows or WASD move the cursor, Space, Enter or F lock in.</li>
    <li>Local, one screen: the tabs “Player X” / “Player O” (or V, Tab) switch whose view is shown; each player's programmed move and objectives show only in their own view. After one locks in, the view passes to the other.</li>
    <li>R: rematch after a game. H: this help. Esc: close.</li>
  </ul>`;
}

export function createModel(rules, game) {
  return new GameModel(rules, game);
}

/** Where everything goes on a w×h canvas for this view. */
export function layoutFor(w, h, view) {
  return layout(w, h, view.seatNames, view.perPlayer);
}

/** The canvas height a phone's page gives this view `w` wide (the page scrolls; the board
 *  stays inside `avail`, the height visible under the header): the shell asks when the
 *  side column is under the board. */
export function stageHeight(w, avail, view) {
  return stageHeightOf(w, avail, view.seatNames, view.perPlayer);
}

/** The status line of a replay: turns, not a real-time round and clock. */
export function replayStatus(view, at) {
  return `Replay · ${view.turns} of ${Math.max(0, at.steps - 1)} turns`;
}

export const draw = drawGame;
export { animating } from "./draw.js";

/** The page coordinates of a cell's centre (the browser tests click there). */
export function cellCenter(lay, rect, cell) {
  const q = cellRect(lay, cell);
  return { x: rect.left + q.x + q.s / 2, y: rect.top + q.y + q.s / 2 };
}

/** The page coordinates of an ability button's centre. */
export function abilityCenter(lay, rect, ability) {
  return boxCenter(
    rect,
    lay.buttons.find((b) => b.ability === ability),
  );
}
/** The page coordinates of a view-switch tab's centre (local). */
export function tabCenter(lay, rect, seat) {
  return boxCenter(
    rect,
    lay.tabs.find((t) => t.seat === seat),
  );
}

/** The key help beside the board, for the input's seats. */
export function controlsHelp(s) {
  if (!s.mouse) return "Spectating: each turn shows when both players have locked in.";
  return (
    "Pick an ability (buttons or 1–4), then click a cell to lock in; click again to change your move " +
    "until the other player locks in. Keys: arrows/WASD + Space or Enter. Local: V or Tab switches the view."
  );
}
