// Canvas drawing of a Tic Tac Doh view (model.js). Nothing here decides anything: it paints.
//
// Pyramids are seen from above: a square with four shaded faces meeting at the apex, in
// three sizes and colours (small red, medium orange, large yellow) that also differ in
// size and carry their letter. A *stack* (D4: a smaller piece on top) shows every piece,
// one on the other, because it counts as every size in it (D5); a *nest* (a larger piece
// over) shows only its outer piece, the hidden ones as dashed outlines, because it counts
// only as the outer size. A chip row under each square says what it counts as.

import { PIECES, contentAt, isLegal, targetOf } from "./model.js";
import { roundRect } from "../../view_common.js";

export { cellFromPoint } from "../../view_common.js";

export const COLORS = {
  bg: "#151a24",
  board: "#222a3a",
  cell: "#2d364a",
  cellHi: "#39445c",
  out: "#1a202c",
  grid: "#151a24",
  text: "#e8ecf4",
  dim: "#97a2b8",
  gold: "#F0C93A",
  line: "#F0C93A",
  box: "#8fd3ff",
  cursor: "#ffffff",
  panel: "#1f2636",
  panelHi: "#33405a",
  gone: "#e07a6e",
};
/** Each seat's colour (D10's seats, model.js SEATS; tests/test_one_source.py checks the
 *  names, that the four differ and that each reads on the panel): the dot of its row,
 *  numbered so colour is never the only cue, and the ticks of its last move. None is a
 *  piece's colour (red, orange, yellow). */
export const SEAT_COLORS = { first: "#56B4E9", second: "#CC79A7", third: "#8CE06A", fourth: "#E4E4E4" };
export const PIECE_COLORS = { S: "#E0453A", M: "#F28C28", L: "#F5D33B" };
export const PIECE_NAMES = { S: "small", M: "medium", L: "large" };
const SCALE = { S: 0.36, M: 0.58, L: 0.8 };
const STACKS = new Set(["LM", "LMS", "MS"]); // bottom piece first, each smaller on top

const ROW_H = 36; // a seat's row in the panel, upright

/** The panel's natural height `pw` wide (upright): a row per seat, the stash, the hint. */
function panelNeed(pw, seats = 2) {
  const bw = (pw - 16) / 3;
  return seats * (ROW_H + 6) + 22 + Math.min(110, Math.max(60, bw * 1.1)) + 10 + 40;
}

/** Where everything goes on a w×h canvas (CSS pixels): the panel beside the board when
 *  the canvas is wide, else under it at its natural height (a phone: the page scrolls,
 *  stageHeight gives the canvas the height that holds it; issue 26: the hint was cut). */
export function layout(w, h, size = 5, seatCount = 2) {
  const pad = Math.max(10, Math.min(w, h) * 0.025);
  const landscape = w >= h * 1.2;
  let board, panel;
  if (landscape) {
    const s0 = h - 2 * pad;
    const pw = Math.min(300, Math.max(170, w * 0.3, w - s0 - 3 * pad)); // wider when the board leaves room
    const s = Math.max(80, Math.min(s0, w - pw - 3 * pad));
    const x = Math.max(pad, (w - s - pw - pad) / 2),
      y = (h - s) / 2;
    board = { x, y, s };
    panel = { x: x + s + pad, y, w: pw, h: s };
  } else {
    const pw = w - 2 * pad,
      need = panelNeed(pw, seatCount);
    const s = Math.max(80, Math.min(w - 2 * pad, h - need - 3 * pad));
    board = { x: (w - s) / 2, y: pad, s };
    panel = { x: pad, y: 2 * pad + s, w: pw, h: need };
  }
  board.cell = board.s / size;
  // The panel: a row per seat (2 to 4, D10), then the stash as three buttons (the piece
  // in hand), then the hint (two lines: the piece in hand or whose turn, the grid).
  const rowH = landscape ? Math.min(40, panel.h * 0.16, (panel.h * 0.42) / seatCount - 6) : ROW_H;
  const seats = Array.from({ length: seatCount }, (_, i) => ({
    x: panel.x,
    y: panel.y + i * (rowH + 6),
    w: panel.w,
    h: rowH,
  }));
  const top = panel.y + seatCount * (rowH + 6) + 22;
  const gap = 8;
  const bw = (panel.w - 2 * gap) / 3;
  const bh = landscape
    ? Math.max(60, Math.min(panel.y + panel.h - top - 50, bw * 1.25))
    : Math.min(110, Math.max(60, bw * 1.1));
  const stash = PIECES.map((p, i) => ({ piece: p, x: panel.x + i * (bw + gap), y: top, w: bw, h: bh }));
  const status = { x: panel.x, y: top + bh + 10, w: panel.w, h: 40 };
  return { w, h, board, panel, seats, stash, status, size, landscape, seatCount };
}

/** The canvas height (CSS px) that holds the whole view `w` wide when the page scrolls
 *  (a phone), the board inside `avail`, the height visible under the page's header. */
export function stageHeight(w, avail, view) {
  if (layout(w, avail).landscape) return avail;
  const pad = Math.max(10, Math.min(w, avail) * 0.025);
  const s = Math.max(80, Math.min(w - 2 * pad, avail - 2 * pad));
  return Math.ceil(3 * pad + s + panelNeed(w - 2 * pad, seatCountOf(view)));
}

/** How many seat rows a view has (2 before the server has named its seats). */
export function seatCountOf(view) {
  return (view && view.seatNames && view.seatNames.length) || 2;
}

/** The stash button under a point: "S", "M", "L" or null. */
export function pieceFromPoint(lay, px, py) {
  for (const b of lay.stash) if (px >= b.x && px < b.x + b.w && py >= b.y && py < b.y + b.h) return b.piece;
  return null;
}

function shade(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  const ch = (v) => Math.max(0, Math.min(255, Math.round(f >= 0 ? v + (255 - v) * f : v * (1 + f))));
  const r = ch((n >> 16) & 255),
    g = ch((n >> 8) & 255),
    b = ch(n & 255);
  return `rgb(${r},${g},${b})`;
}

/** A pyramid seen from above: four faces lit from the top left, its letter near the apex. */
export function drawPyramid(ctx, cx, cy, side, piece, opts = {}) {
  const c = PIECE_COLORS[piece],
    h = side / 2;
  const x0 = cx - h,
    y0 = cy - h,
    x1 = cx + h,
    y1 = cy + h;
  ctx.save();
  ctx.globalAlpha = opts.alpha ?? 1;
  if (opts.dashed) {
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = opts.stroke || "rgba(255,255,255,0.75)";
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x0, y0, side, side);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.moveTo(x1, y0);
    ctx.lineTo(x0, y1);
    ctx.stroke();
    ctx.restore();
    return;
  }
  const face = (ax, ay, bx, by, f) => {
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    ctx.lineTo(bx, by);
    ctx.lineTo(cx, cy);
    ctx.closePath();
    ctx.fillStyle = shade(c, f);
    ctx.fill();
  };
  face(x0, y0, x1, y0, 0.35); // top face: the lit side
  face(x0, y0, x0, y1, 0.15); // left
  face(x1, y0, x1, y1, -0.2); // right
  face(x0, y1, x1, y1, -0.38); // bottom: in shadow
  ctx.strokeStyle = shade(c, -0.6);
  ctx.lineWidth = Math.max(1, side * 0.025);
  ctx.strokeRect(x0, y0, side, side);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.moveTo(x1, y0);
  ctx.lineTo(x0, y1);
  ctx.stroke();
  if (opts.letter !== false && side > 18) {
    ctx.fillStyle = "rgba(20,20,20,0.85)";
    ctx.font = `700 ${Math.max(9, side * 0.2)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(piece, cx, y0 + side * 0.2);
  }
  ctx.restore();
}

/** A square's content (D4), drawn so that what it counts as (D5) reads at a glance. */
export function drawContent(ctx, cx, cy, cell, content, opts = {}) {
  if (!content) return;
  const pieces = content.split("");
  if (pieces.length === 1 || STACKS.has(content)) {
    // A single piece, or a stack: every piece shows, the largest at the bottom.
    const bySize = pieces.slice().sort((a, b) => SCALE[b] - SCALE[a]);
    for (const p of bySize) drawPyramid(ctx, cx, cy, cell * SCALE[p], p, opts);
  } else {
    // A nest: the outer (largest) piece hides the others; they show as dashed outlines.
    const outer = pieces[pieces.length - 1];
    drawPyramid(ctx, cx, cy, cell * SCALE[outer], outer, { ...opts, letter: true });
    for (const p of pieces.slice(0, -1)) drawPyramid(ctx, cx, cy, cell * SCALE[p], p, { dashed: true, alpha: 0.8 });
  }
}

function countChips(ctx, x, y, cell, sq) {
  // Under the square: each piece in it, coloured when the square counts as it (D5),
  // grey when hidden in a nest; the word says which it is, on a dark tag of its own so
  // the winning stroke (drawn before) never hides it (issue 26).
  const r = Math.max(5, cell * 0.07);
  const pieces = sq.content.split("").sort((a, b) => SCALE[a] - SCALE[b]);
  let px = x + 6 + r;
  const py = y + cell - r - 3;
  ctx.font = `700 ${Math.round(r * 1.25)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const p of pieces) {
    const counted = sq.counts.includes(p);
    ctx.beginPath();
    ctx.arc(px, py, r, 0, Math.PI * 2);
    ctx.fillStyle = counted ? PIECE_COLORS[p] : "#4a5368";
    ctx.fill();
    ctx.fillStyle = counted ? "#171717" : "#aab3c5";
    ctx.fillText(p, px, py + 0.5);
    px += 2 * r + 3;
  }
  if (pieces.length > 1) {
    const px = Math.max(9, Math.round(cell * 0.1)),
      word = STACKS.has(sq.content) ? "stack" : "nest";
    ctx.font = `${px}px system-ui, sans-serif`;
    const w = ctx.measureText(word).width;
    ctx.fillStyle = "rgba(21,26,36,0.85)";
    roundRect(ctx, x + cell - 9 - w, py - px * 0.7, w + 6, px * 1.4, 3);
    ctx.fill();
    ctx.fillStyle = COLORS.dim;
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillText(word, x + cell - 6, py);
  }
}

function inBox(box, r, c) {
  return !box || (r >= box.rows[0] && r <= box.rows[1] && c >= box.cols[0] && c <= box.cols[1]);
}

/** The piece in hand of the seat to move on this screen (from the input's cursors). */
export function handOf(view, cursors) {
  const mine = (cursors || []).find((c) => c.seat === view.toMove && view.mine.includes(c.seat));
  return mine ? mine.hand : null;
}

export function drawGame(ctx, view, lay, ui = {}) {
  ctx.fillStyle = COLORS.bg;
  ctx.fillRect(0, 0, lay.w, lay.h);
  drawBoard(ctx, view, lay, ui);
  drawPanel(ctx, view, lay, ui);
}

function drawBoard(ctx, view, lay, ui) {
  const { x, y, s, cell } = lay.board;
  const n = lay.size,
    box = view.box;
  const hand = handOf(view, ui.cursors);
  ctx.fillStyle = COLORS.board;
  roundRect(ctx, x - 6, y - 6, s + 12, s + 12, 12);
  ctx.fill();
  const lineCells = new Set((view.lines || []).flat().map((c) => c[0] + "," + c[1]));
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const cx = x + c * cell,
        cy = y + r * cell;
      const usable = inBox(box, r, c);
      ctx.fillStyle = lineCells.has(r + "," + c) ? "#4b4a2c" : usable ? COLORS.cell : COLORS.out;
      roundRect(ctx, cx + 2, cy + 2, cell - 4, cell - 4, 6);
      ctx.fill();
    }
  }
  // D2: the grid as it becomes known. Dashed: where the box may still be; solid: found.
  if (box) {
    const r0 = Math.max(0, box.rows[0]),
      r1 = Math.min(n - 1, box.rows[1]);
    const c0 = Math.max(0, box.cols[0]),
      c1 = Math.min(n - 1, box.cols[1]);
    ctx.save();
    ctx.strokeStyle = COLORS.box;
    ctx.lineWidth = box.known ? 3 : 2;
    if (!box.known) ctx.setLineDash([8, 6]);
    ctx.globalAlpha = box.known ? 0.95 : 0.6;
    roundRect(ctx, x + c0 * cell, y + r0 * cell, (c1 - c0 + 1) * cell, (r1 - r0 + 1) * cell, 8);
    ctx.stroke();
    ctx.restore();
  }
  // Legal squares for the piece in hand (D3, D4): a dashed frame in its colour.
  if (hand && view.myTurn) {
    for (const [r, c] of view.legal[hand] || []) {
      const cx = x + c * cell,
        cy = y + r * cell;
      ctx.save();
      ctx.strokeStyle = PIECE_COLORS[hand];
      ctx.lineWidth = 2.5;
      ctx.setLineDash([6, 4]);
      roundRect(ctx, cx + 6, cy + 6, cell - 12, cell - 12, 6);
      ctx.stroke();
      ctx.restore();
    }
  }
  for (const sq of view.squares) {
    const [r, c] = sq.cell;
    drawContent(ctx, x + (c + 0.5) * cell, y + (r + 0.47) * cell, cell, sq.content);
  }
  // The last move: corner ticks in its mover's colour (with more than two players, who
  // moved last matters: D9 makes them the winner when the table is stuck).
  if (view.last) {
    const [r, c] = view.last.cell;
    const cx = x + c * cell,
      cy = y + r * cell,
      k = cell * 0.16;
    ctx.strokeStyle = SEAT_COLORS[view.last.seat] || "rgba(255,255,255,0.8)";
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    for (const [ax, ay, dx, dy] of [
      [cx + 4, cy + 4, 1, 1],
      [cx + cell - 4, cy + 4, -1, 1],
      [cx + 4, cy + cell - 4, 1, -1],
      [cx + cell - 4, cy + cell - 4, -1, -1],
    ]) {
      ctx.moveTo(ax + dx * k, ay);
      ctx.lineTo(ax, ay);
      ctx.lineTo(ax, ay + dy * k);
    }
    ctx.stroke();
  }
  // The hover or cursor square: a ghost of the piece in hand where it would go.
  const targets = [];
  if (ui.hover && view.mine.includes(view.toMove)) targets.push(ui.hover);
  for (const cur of ui.cursors || []) if (cur.cell && cur.seat === view.toMove) targets.push(cur.cell);
  for (const t of targets) {
    const [r, c] = t;
    if (r < 0 || c < 0 || r >= n || c >= n) continue;
    const cx = x + c * cell,
      cy = y + r * cell;
    ctx.strokeStyle = COLORS.cursor;
    ctx.lineWidth = 2.5;
    roundRect(ctx, cx + 3, cy + 3, cell - 6, cell - 6, 7);
    ctx.stroke();
    const at = hand ? targetOf(view, hand, t) : t; // an empty board: the centre (D2)
    if (hand && isLegal(view, hand, at) && !contentAt(view, at)) {
      drawPyramid(ctx, x + (at[1] + 0.5) * cell, y + (at[0] + 0.47) * cell, cell * SCALE[hand], hand, { alpha: 0.45 });
    }
  }
  // D7: the winning line, a gold stroke through its squares.
  for (const line of view.lines || []) {
    const a = line[0],
      b = line[line.length - 1];
    ctx.save();
    ctx.strokeStyle = COLORS.line;
    ctx.lineWidth = Math.max(5, cell * 0.08);
    ctx.lineCap = "round";
    ctx.shadowColor = "rgba(240,201,58,0.8)";
    ctx.shadowBlur = 12;
    ctx.beginPath();
    ctx.moveTo(x + (a[1] + 0.5) * cell, y + (a[0] + 0.5) * cell);
    ctx.lineTo(x + (b[1] + 0.5) * cell, y + (b[0] + 0.5) * cell);
    ctx.stroke();
    ctx.restore();
  }
  // What each square counts as, over the stroke: the stroke never hides a chip or a word.
  for (const sq of view.squares) countChips(ctx, x + sq.cell[1] * cell, y + sq.cell[0] * cell, cell, sq);
}

const squares = (n) => `${n} square${n === 1 ? "" : "s"}`;
const seatWord = (seat) => seat[0].toUpperCase() + seat.slice(1);

function drawPanel(ctx, view, lay, ui) {
  const hand = handOf(view, ui.cursors) || ((ui.cursors || []).find((c) => view.mine.includes(c.seat)) || {}).hand;
  ctx.textBaseline = "middle";
  view.seatNames.forEach((seat, i) => {
    const p = view.players[seat],
      b = lay.seats[i];
    ctx.fillStyle = p.toMove ? COLORS.panelHi : COLORS.panel;
    roundRect(ctx, b.x, b.y, b.w, b.h, 8);
    ctx.fill();
    if (p.toMove) {
      ctx.strokeStyle = COLORS.gold;
      ctx.lineWidth = 2;
      ctx.stroke();
    }
    // The seat's colour, numbered in turn order (D10).
    const dot = Math.max(6, Math.min(8, b.h * 0.22));
    ctx.fillStyle = SEAT_COLORS[seat] || COLORS.dim;
    ctx.beginPath();
    ctx.arc(b.x + 16, b.y + b.h / 2, dot, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#151a24";
    ctx.textAlign = "center";
    ctx.font = `700 ${Math.round(dot * 1.3)}px system-ui, sans-serif`;
    ctx.fillText(String(i + 1), b.x + 16, b.y + b.h / 2 + 0.5);
    ctx.fillStyle = COLORS.text;
    ctx.textAlign = "left";
    ctx.font = `600 ${Math.max(12, Math.min(15, b.h * 0.4))}px system-ui, sans-serif`;
    const name = p.name === seat ? "" : p.name;
    const who = `${seat[0].toUpperCase() + seat.slice(1)}${name ? ": " + name : ""}${p.mine ? " (you)" : ""}`;
    ctx.fillText(who, b.x + 30, b.y + b.h / 2, b.w - 110);
    ctx.textAlign = "right";
    ctx.fillStyle = p.toMove ? COLORS.gold : COLORS.dim;
    ctx.font = `${Math.max(11, Math.min(13, b.h * 0.34))}px system-ui, sans-serif`;
    // D9: a seat with no legal move is out (with more than two players every seat after
    // the last mover goes out at once, and the last mover wins).
    const tag = p.toMove
      ? "◀ to move"
      : p.out
        ? "out"
        : p.free
          ? "free seat"
          : p.rematch
            ? "wants a rematch"
            : p.connected
              ? ""
              : "away";
    if (p.out && !p.toMove) ctx.fillStyle = COLORS.gone;
    ctx.fillText(tag, b.x + b.w - 10, b.y + b.h / 2);
  });
  const s0 = lay.stash[0];
  ctx.textAlign = "left";
  ctx.fillStyle = COLORS.dim;
  ctx.font = "12.5px system-ui, sans-serif";
  ctx.fillText(`The shared stash${view.myTurn ? ": pick a piece, then a square" : ""}`, s0.x, s0.y - 11, lay.panel.w);
  for (const b of lay.stash) {
    const left = view.stash[b.piece] ?? 0;
    const chosen = hand === b.piece && view.mine.length > 0;
    const playable = view.myTurn && (view.legal[b.piece] || []).length > 0;
    ctx.fillStyle = chosen ? "#3a4660" : "#242c3d";
    roundRect(ctx, b.x, b.y, b.w, b.h, 10);
    ctx.fill();
    if (chosen) {
      ctx.strokeStyle = PIECE_COLORS[b.piece];
      ctx.lineWidth = 3;
      ctx.stroke();
    }
    const side = Math.min(b.w * 0.8, b.h * 0.6) * (SCALE[b.piece] / SCALE.L);
    drawPyramid(ctx, b.x + b.w / 2, b.y + b.h * 0.4, side, b.piece, { alpha: left ? 1 : 0.25 });
    ctx.textAlign = "center";
    ctx.fillStyle = left ? COLORS.text : COLORS.dim;
    ctx.font = `600 ${Math.max(11, Math.min(15, b.w * 0.13))}px system-ui, sans-serif`;
    ctx.fillText(`${PIECE_NAMES[b.piece]} ×${left}`, b.x + b.w / 2, b.y + b.h * 0.85);
    if (view.myTurn && !playable) {
      ctx.fillStyle = "rgba(21,26,36,0.55)";
      roundRect(ctx, b.x, b.y, b.w, b.h, 10);
      ctx.fill();
    }
  }
  // The status line: whose turn, what the piece in hand can do.
  const st = lay.status;
  ctx.textAlign = "left";
  ctx.font = "13px system-ui, sans-serif";
  ctx.fillStyle = COLORS.dim;
  let text = "";
  if (view.end) text = "";
  else if (view.myTurn && hand)
    text = `${PIECE_NAMES[hand]} in hand: ${squares((view.legal[hand] || []).length)} (dashed)`;
  else if (view.toMove && view.mode === "replay") text = `${seatWord(view.toMove)} to move`;
  else if (view.toMove) text = `${view.players[view.toMove].name} is thinking…`;
  if (text) ctx.fillText(text, st.x, st.y + 8, st.w);
  const box = view.box;
  if (box && st.y + 28 < lay.panel.y + lay.panel.h + 40) {
    ctx.fillStyle = COLORS.box;
    ctx.globalAlpha = 0.9;
    ctx.fillText(
      box.known
        ? `The ${box.grid}×${box.grid} grid is fixed (solid frame).`
        : `Dashed: where the ${box.grid}×${box.grid} grid may still be.`,
      st.x,
      st.y + 28,
      st.w,
    );
    ctx.globalAlpha = 1;
  }
}

/** Small icons of the legend (the shell asks for them by name). */
export function drawLegendIcon(canvas, icon) {
  const ctx = canvas.getContext("2d");
  const w = canvas.width,
    h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = COLORS.cell;
  roundRect(ctx, 1, 1, w - 2, h - 2, 5);
  ctx.fill();
  if (PIECES.includes(icon)) drawPyramid(ctx, w / 2, h / 2, w * SCALE[icon] * 1.1, icon, { letter: false });
  else if (icon === "stack") drawContent(ctx, w / 2, h / 2, w * 1.05, "LMS", { letter: false });
  else if (icon === "nest") drawContent(ctx, w / 2, h / 2, w * 1.05, "SML", { letter: false });
  else if (icon === "legal") {
    ctx.strokeStyle = PIECE_COLORS.M;
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    roundRect(ctx, 6, 6, w - 12, h - 12, 4);
    ctx.stroke();
  } else if (icon === "box") {
    ctx.strokeStyle = COLORS.box;
    ctx.lineWidth = 2;
    ctx.setLineDash([5, 4]);
    roundRect(ctx, 4, 4, w - 8, h - 8, 4);
    ctx.stroke();
  } else if (icon === "line") {
    ctx.strokeStyle = COLORS.line;
    ctx.lineWidth = 4;
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(6, h - 6);
    ctx.lineTo(w - 6, 6);
    ctx.stroke();
  }
}
