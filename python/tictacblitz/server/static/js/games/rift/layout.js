// Where a Rift & Grid view's parts go on its canvas (draw.js paints them there; input.js
// and the browser tests find cells, ability buttons and tabs by the same boxes).
//
// The board (81 cells in nine sectors, G1) with a strip under it for a resolved turn's
// caption; the panel: the view switch (or the turn line), the two seats' cards, the four
// ability buttons, the objectives and the score log. Beside the board when the panel
// fits there; else under it, at its natural height, the page scrolling (a phone: issue
// 26, `stageHeight` gives the canvas the height that holds everything).

import { SIDE, cellAt, gridRowCol } from "./model.js";

export const ABILITIES = ["none", "shield", "swap", "reveal"]; // welcome.game.abilities says the same

const CAPTION = 28; // a resolved turn's caption: a strip under the board, never over it
const LOG_H = 27 + 5 * 16; // the score log's title and five scorings
const SPLIT_W = 480; // a panel this wide has the objectives and the log side by side

/** The objectives box's height for `rows` objectives a seat (both seats, a title each). */
const objectivesH = (rows) => 12 + 2 * (16 + rows * 15 + 4);

/** The panel's parts, top down from (x, y) in a panel `w` wide: the view switch (or the
 *  turn), the two cards, the ability buttons, the objectives and the score log (beside
 *  the objectives in a wide panel). `bottom`: where the log may grow to (desktop), or
 *  null (its natural height). */
function panelParts(x, y, w, seatNames, rows, compact, bottom) {
  const tw = (w - 6) / 2,
    th = compact ? 26 : 30;
  const tabs = seatNames.map((seat, i) => ({ seat, x: x + i * (tw + 6), y, w: tw, h: th }));
  let yy = y + th + 6;
  const cw = (w - 8) / 2,
    ch = compact ? 72 : 96;
  const cards = seatNames.map((seat, i) => ({ seat, x: x + i * (cw + 8), y: yy, w: cw, h: ch, compact }));
  yy += ch + 6;
  const bw = (w - 3 * 6) / 4;
  const buttons = ABILITIES.map((ability, i) => ({ ability, x: x + i * (bw + 6), y: yy, w: bw, h: 58 }));
  yy += 64;
  const oh = objectivesH(rows);
  let objectives, log;
  if (w >= SPLIT_W) {
    const half = (w - 10) / 2;
    objectives = { x, y: yy, w: half, h: Math.max(oh, LOG_H) };
    log = { x: x + half + 10, y: yy, w: half, h: objectives.h };
  } else {
    objectives = { x, y: yy, w, h: oh };
    log = { x, y: yy + oh + 6, w, h: LOG_H };
  }
  if (bottom !== null) log.h = Math.max(log.h, bottom - log.y);
  return { tabs, cards, buttons, objectives, log, end: log.y + log.h };
}

/** Where everything goes on a w×h canvas (CSS pixels): the board (with the caption strip
 *  under it) beside the panel when the panel fits there, else the panel under the board
 *  (a phone: the page scrolls; stageHeight gives the canvas height that holds it all).
 *  `rows`: objectives a seat. */
export function layout(w, h, seatNames = ["X", "O"], rows = 3) {
  const pad = Math.max(8, Math.min(w, h) * 0.02);
  if (w >= h * 1.15) {
    const s0 = h - 2 * pad - CAPTION;
    const pw = Math.min(SPLIT_W + 40, Math.max(Math.min(390, Math.max(260, w * 0.36)), w - s0 - 3 * pad));
    const s = Math.max(120, Math.min(s0, w - pw - 3 * pad));
    const compact = h < 480;
    const x = Math.max(pad, (w - s - pw - pad) / 2);
    const parts = panelParts(x + s + pad, pad, pw, seatNames, rows, compact, null);
    if (parts.end <= h - pad) {
      const full = panelParts(x + s + pad, pad, pw, seatNames, rows, compact, h - pad);
      return finish(
        { w, h, board: { x, y: pad + 6, s }, panel: { x: x + s + pad, y: pad, w: pw, h: h - 2 * pad }, ...full },
        seatNames,
        false,
      );
    }
  }
  // Stacked: the panel below the board takes its natural height; the board what is left.
  const pw = w - 2 * pad;
  const need = panelParts(pad, 0, pw, seatNames, rows, true, null).end;
  const s = Math.max(120, Math.min(w - 2 * pad, h - need - 3 * pad - CAPTION));
  const board = { x: (w - s) / 2, y: pad, s };
  const top = 2 * pad + s + CAPTION;
  const parts = panelParts(pad, top, pw, seatNames, rows, true, null);
  return finish({ w, h, board, panel: { x: pad, y: top, w: pw, h: parts.end - top }, ...parts }, seatNames, true);
}

function finish(lay, seatNames, stacked) {
  const b = lay.board;
  b.gap = b.s * 0.022;
  b.cell = (b.s - 2 * b.gap) / 9;
  lay.caption = { x: b.x, y: b.y + b.s + 6, w: b.s, h: CAPTION - 6 };
  return { ...lay, size: SIDE, landscape: !stacked, seatNames };
}

/** The canvas height (CSS px) that holds the whole view `w` wide when the page scrolls
 *  (a phone), with the board inside `avail`, the height visible under the page's header. */
export function stageHeight(w, avail, seatNames = ["X", "O"], rows = 3) {
  const side = layout(w, avail, seatNames, rows);
  if (side.landscape) return avail;
  const pad = Math.max(8, Math.min(w, avail) * 0.02);
  const need = panelParts(pad, 0, w - 2 * pad, seatNames, rows, true, null).end;
  const s = Math.max(120, Math.min(w - 2 * pad, avail - 2 * pad - CAPTION));
  return Math.ceil(3 * pad + s + CAPTION + need);
}

/** The top-left corner of a cell (and its size). */
export function cellRect(lay, cell) {
  const b = lay.board;
  const [r, c] = gridRowCol(cell);
  return {
    x: b.x + c * b.cell + Math.floor(c / 3) * b.gap,
    y: b.y + r * b.cell + Math.floor(r / 3) * b.gap,
    s: b.cell,
  };
}

export function sectorRect(lay, s) {
  const b = lay.board,
    span = 3 * b.cell + b.gap;
  return { x: b.x + (s % 3) * span, y: b.y + Math.floor(s / 3) * span, s: 3 * b.cell };
}

function axis(rel, b) {
  const span = 3 * b.cell + b.gap;
  const sc = Math.floor(rel / span),
    inside = rel - sc * span;
  if (rel < 0 || sc > 2 || inside >= 3 * b.cell) return null;
  return 3 * sc + Math.floor(inside / b.cell);
}

/** The cell id under a point, or null (the gaps between sectors are nobody's). */
export function cellFromPoint(lay, px, py) {
  const r = axis(py - lay.board.y, lay.board),
    c = axis(px - lay.board.x, lay.board);
  return r === null || c === null ? null : cellAt(r, c);
}

const inside = (b, px, py) => px >= b.x && px < b.x + b.w && py >= b.y && py < b.y + b.h;
export function abilityFromPoint(lay, px, py) {
  const b = lay.buttons.find((k) => inside(k, px, py));
  return b ? b.ability : null;
}
export function tabFromPoint(lay, px, py) {
  const t = lay.tabs.find((k) => inside(k, px, py));
  return t ? t.seat : null;
}
