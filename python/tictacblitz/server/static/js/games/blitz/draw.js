// Canvas drawing of a Blitz view (model.js). Nothing here decides anything: it paints.
//
// Colour-blind-safe palette (Okabe–Ito): X sky blue, O vermillion; every state also has
// a shape: X is a cross, O a ring; a setting mark is hollow with a filling ring; a
// knockable mark wears a target; a crater is hatched; the mark that goes next is faded
// and dashed; a full charge is gold *and* thick with a tick; a frozen ring is slate blue
// *and* shows a snowflake; haste shows a lightning bolt.

import { reducedMotion, roundRect } from "../../view_common.js";

export { cellFromPoint } from "../../view_common.js";

export const COLORS = {
  bg: "#151a24",
  board: "#222a3a",
  cell: "#2d364a",
  cellHi: "#39445c",
  grid: "#151a24",
  X: "#56B4E9",
  O: "#D55E00",
  gold: "#F0C93A",
  frozen: "#6A86A8",
  track: "#47516a",
  text: "#e8ecf4",
  dim: "#97a2b8",
  target: "#ffffff",
  line: "#F0C93A",
  bomb: "#e85d5d",
  freeze: "#8fd3ff",
  haste: "#F0E442",
  swap: "#b48ce6",
};

// One glyph per powerup kind (R14). The kinds themselves come from the server
// (`welcome.game.powerups`); tests/test_server_ties.py checks every kind has a glyph.
export const POWERUP_GLYPHS = {
  bomb: (ctx, cx, cy, r, c) => drawBomb(ctx, cx, cy, r, c),
  freeze: (ctx, cx, cy, r, c) => drawSnowflake(ctx, cx, cy, r * 0.85, c),
  haste: (ctx, cx, cy, r, c) => drawBolt(ctx, cx, cy, r * 0.9, c),
  swap: (ctx, cx, cy, r, c) => drawSwap(ctx, cx, cy, r, c),
};

const LABEL = 16; // the timer's label line ("Round 2 … 12 s") above its bar

/** Where everything goes on a w×h canvas (CSS pixels). */
export function layout(w, h, size) {
  const pad = Math.max(8, Math.min(w, h) * 0.02);
  const bar = 12;
  const landscape = w >= h * 1.15;
  let board, panels;
  if (landscape) {
    const pw = Math.min(220, Math.max(120, w * 0.2));
    const top = LABEL + bar + 8;
    const s = Math.max(60, Math.min(h - 2 * pad - top, w - 2 * pw - 4 * pad));
    const x = (w - s) / 2,
      y = pad + top + Math.max(0, (h - 2 * pad - top - s) / 2);
    board = { x, y, s };
    const ph = Math.min(s, 300);
    panels = {
      X: { x: x - pad - pw, y: y + (s - ph) / 2, w: pw, h: ph },
      O: { x: x + s + pad, y: y + (s - ph) / 2, w: pw, h: ph },
    };
  } else {
    // Panels on top, then the timer with its label, then the board: nothing below it,
    // so no gap (the page sizes the stage to fit, style.css).
    const ph = Math.min(130, Math.max(96, h * 0.23));
    const s = Math.max(60, Math.min(w - 2 * pad, h - ph - 3 * pad - LABEL - bar - 8));
    const x = (w - s) / 2,
      y = pad + ph + pad + LABEL + bar + 8;
    board = { x, y, s };
    panels = {
      X: { x: x, y: pad, w: s / 2 - pad / 2, h: ph },
      O: { x: x + s / 2 + pad / 2, y: pad, w: s / 2 - pad / 2, h: ph },
    };
  }
  board.cell = board.s / size;
  const timer = { x: board.x, y: board.y - bar - 8, w: board.s, h: bar };
  return { w, h, board, panels, timer, size, landscape };
}

export function drawMark(ctx, p, cx, cy, r, { width, alpha = 1, color, dashed = false } = {}) {
  ctx.save();
  ctx.globalAlpha *= alpha;
  ctx.strokeStyle = color || COLORS[p];
  ctx.lineWidth = width || r * 0.32;
  ctx.lineCap = "round";
  if (dashed) ctx.setLineDash([r * 0.25, r * 0.22]);
  ctx.beginPath();
  if (p === "X") {
    const d = r * 0.72;
    ctx.moveTo(cx - d, cy - d);
    ctx.lineTo(cx + d, cy + d);
    ctx.moveTo(cx + d, cy - d);
    ctx.lineTo(cx - d, cy + d);
  } else {
    ctx.arc(cx, cy, r * 0.75, 0, Math.PI * 2);
  }
  ctx.stroke();
  ctx.restore();
}

function arcRing(ctx, cx, cy, r, frac, color, width) {
  ctx.beginPath();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineCap = "butt";
  ctx.arc(cx, cy, r, -Math.PI / 2, -Math.PI / 2 + Math.PI * 2 * Math.max(0, Math.min(1, frac)));
  ctx.stroke();
}

export function drawSnowflake(ctx, cx, cy, r, color) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(1.5, r * 0.16);
  ctx.lineCap = "round";
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    const ex = cx + Math.cos(a) * r,
      ey = cy + Math.sin(a) * r;
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(ex, ey);
    ctx.stroke();
    for (const s of [-1, 1]) {
      const bx = cx + Math.cos(a) * r * 0.6,
        by = cy + Math.sin(a) * r * 0.6;
      ctx.beginPath();
      ctx.moveTo(bx, by);
      ctx.lineTo(bx + Math.cos(a + s * 0.8) * r * 0.3, by + Math.sin(a + s * 0.8) * r * 0.3);
      ctx.stroke();
    }
  }
  ctx.restore();
}

export function drawBolt(ctx, cx, cy, r, color) {
  ctx.save();
  ctx.fillStyle = color;
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 1;
  ctx.beginPath();
  const pts = [
    [0.15, -1],
    [-0.55, 0.12],
    [-0.05, 0.12],
    [-0.2, 1],
    [0.55, -0.15],
    [0.05, -0.15],
    [0.3, -1],
  ];
  pts.forEach(([x, y], i) => {
    if (i) ctx.lineTo(cx + x * r, cy + y * r);
    else ctx.moveTo(cx + x * r, cy + y * r);
  });
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}

function drawBomb(ctx, cx, cy, r, color) {
  ctx.save();
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.arc(cx, cy + r * 0.12, r * 0.62, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = color;
  ctx.lineWidth = r * 0.14;
  ctx.beginPath();
  ctx.moveTo(cx + r * 0.35, cy - r * 0.35);
  ctx.quadraticCurveTo(cx + r * 0.6, cy - r * 0.9, cx + r * 0.9, cy - r * 0.7);
  ctx.stroke();
  ctx.fillStyle = "#fff";
  ctx.beginPath();
  ctx.arc(cx + r * 0.9, cy - r * 0.72, r * 0.13, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

function drawSwap(ctx, cx, cy, r, color) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = r * 0.16;
  ctx.lineCap = "round";
  for (const s of [-1, 1]) {
    const y = cy + s * r * 0.32;
    ctx.beginPath();
    ctx.moveTo(cx - s * r * 0.75, y);
    ctx.lineTo(cx + s * r * 0.75, y);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(cx + s * r * 0.95, y);
    ctx.lineTo(cx + s * r * 0.5, y - r * 0.3);
    ctx.lineTo(cx + s * r * 0.5, y + r * 0.3);
    ctx.closePath();
    ctx.fill();
  }
  ctx.restore();
}

export function drawPowerupGlyph(ctx, kind, cx, cy, r) {
  const glyph = POWERUP_GLYPHS[kind];
  if (glyph) glyph(ctx, cx, cy, r, COLORS[kind]);
}

function drawTarget(ctx, cx, cy, r, pulse) {
  // R9: a crosshair around the mark (the mark stays visible inside it).
  ctx.save();
  ctx.strokeStyle = COLORS.target;
  ctx.lineWidth = 2;
  ctx.globalAlpha = 0.7 + 0.3 * pulse;
  ctx.beginPath();
  ctx.arc(cx, cy, r * 1.02, 0, Math.PI * 2);
  ctx.stroke();
  ctx.beginPath();
  for (const [dx, dy] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ]) {
    ctx.moveTo(cx + dx * r * 0.8, cy + dy * r * 0.8);
    ctx.lineTo(cx + dx * r * 1.3, cy + dy * r * 1.3);
  }
  ctx.stroke();
  ctx.fillStyle = COLORS.target;
  ctx.beginPath();
  ctx.arc(cx, cy, Math.max(2, r * 0.1), 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

function drawCrater(ctx, x, y, s, left) {
  ctx.save();
  ctx.globalAlpha = 0.25 + 0.75 * left; // R9: fades over its 2 s
  roundRect(ctx, x + 3, y + 3, s - 6, s - 6, 6);
  ctx.fillStyle = "#1a1f2b";
  ctx.fill();
  ctx.clip();
  ctx.strokeStyle = "#8a93a8";
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let d = -s; d < s; d += s / 7) {
    ctx.moveTo(x + d, y + s);
    ctx.lineTo(x + d + s, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** True while something on the board pulses with the page's clock (a powerup's glow, a
 *  knockable mark's target): the shell paints every frame then. The clocks, rings and
 *  fades are in the view itself, so a live round's view changes every frame anyway. */
export function animating(view) {
  return !reducedMotion() && view.cells.some((c) => c.powerup || (c.mark && c.setting && c.knockable));
}

/** Paint the whole screen. `ui`: {cursors: [{seat, cell, label}], hover, now (ms, for pulses)}. */
export function drawGame(ctx, view, lay, ui = {}) {
  const { w, h } = lay;
  const now = ui.now || 0;
  const pulse = reducedMotion() ? 1 : 0.5 + 0.5 * Math.sin(now / 180);
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = COLORS.bg;
  ctx.fillRect(0, 0, w, h);

  drawTimer(ctx, view, lay);
  const { x: bx, y: by, s: bs, cell: cs } = lay.board;
  roundRect(ctx, bx - 6, by - 6, bs + 12, bs + 12, 12);
  ctx.fillStyle = COLORS.board;
  ctx.fill();

  for (const c of view.cells) {
    const x = bx + c.col * cs,
      y = by + c.row * cs,
      cx = x + cs / 2,
      cy = y + cs / 2,
      r = cs * 0.36;
    roundRect(ctx, x + 3, y + 3, cs - 6, cs - 6, 8);
    const hover = ui.hover && ui.hover[0] === c.row && ui.hover[1] === c.col;
    ctx.fillStyle = c.inLine ? "#5a4d1e" : hover ? COLORS.cellHi : COLORS.cell;
    ctx.fill();
    if (c.crater) drawCrater(ctx, x, y, cs, c.crater.left);
    if (c.powerup) {
      const col = COLORS[c.powerup.kind];
      ctx.save();
      // Glow: a pulsing halo, so a powerup square stands out at a glance.
      const g = ctx.createRadialGradient(cx, cy, r * 0.2, cx, cy, cs * 0.6);
      g.addColorStop(0, col + "88");
      g.addColorStop(1, col + "00");
      ctx.globalAlpha = 0.55 + 0.45 * pulse;
      ctx.fillStyle = g;
      ctx.fillRect(x, y, cs, cs);
      ctx.restore();
      ctx.save();
      ctx.globalAlpha = 0.35;
      ctx.beginPath();
      ctx.strokeStyle = COLORS.track;
      ctx.lineWidth = 3;
      ctx.arc(cx, cy, cs * 0.42, 0, Math.PI * 2);
      ctx.stroke();
      ctx.restore();
      arcRing(ctx, cx, cy, cs * 0.42, c.powerup.left, col, 3); // R16: burns out
      drawPowerupGlyph(ctx, c.powerup.kind, cx, cy, r * 0.8);
    }
    if (c.mark) {
      if (c.setting) {
        // R6: a setting mark is hollow-ish; its ring fills over set_ms.
        drawMark(ctx, c.mark, cx, cy, r, { alpha: 0.55, width: r * 0.22 });
        ctx.save();
        ctx.globalAlpha = 0.3;
        ctx.beginPath();
        ctx.strokeStyle = COLORS.track;
        ctx.lineWidth = 4;
        ctx.arc(cx, cy, cs * 0.43, 0, Math.PI * 2);
        ctx.stroke();
        ctx.restore();
        arcRing(ctx, cx, cy, cs * 0.43, c.setProgress, COLORS[c.mark], 4);
        if (c.knockable) drawTarget(ctx, cx, cy, r, pulse);
      } else if (c.faded) {
        // R12: the oldest mark, which goes at the next placement.
        drawMark(ctx, c.mark, cx, cy, r, { alpha: 0.3, dashed: true });
      } else {
        drawMark(ctx, c.mark, cx, cy, r);
      }
    }
  }

  for (const f of view.flashes || []) {
    if (!f.cell) continue;
    const cx = bx + f.cell[1] * cs + cs / 2,
      cy = by + f.cell[0] * cs + cs / 2;
    ctx.save();
    ctx.globalAlpha = 1 - f.age;
    ctx.strokeStyle =
      f.kind === "claimed" ? COLORS[f.powerup] || COLORS.gold : f.kind === "retired" ? COLORS.dim : "#ffffff";
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(cx, cy, cs * (0.2 + 0.5 * f.age), 0, Math.PI * 2);
    ctx.stroke();
    ctx.restore();
  }

  if (view.roundEnd && view.roundEnd.line && view.roundEnd.line.length) {
    // R10: the winning line.
    const line = view.roundEnd.line;
    const p0 = line[0],
      p1 = line[line.length - 1];
    ctx.save();
    ctx.strokeStyle = COLORS.line;
    ctx.lineWidth = Math.max(5, cs * 0.12);
    ctx.lineCap = "round";
    ctx.globalAlpha = 0.9;
    ctx.beginPath();
    ctx.moveTo(bx + p0[1] * cs + cs / 2, by + p0[0] * cs + cs / 2);
    ctx.lineTo(bx + p1[1] * cs + cs / 2, by + p1[0] * cs + cs / 2);
    ctx.stroke();
    ctx.restore();
  }

  for (const cur of ui.cursors || []) {
    if (!cur.cell) continue;
    const x = bx + cur.cell[1] * cs,
      y = by + cur.cell[0] * cs;
    ctx.save();
    ctx.strokeStyle = COLORS[cur.seat] || COLORS.text;
    ctx.lineWidth = 3;
    ctx.setLineDash(cur.seat === "O" ? [6, 4] : []);
    roundRect(ctx, x + 1.5, y + 1.5, cs - 3, cs - 3, 9);
    ctx.stroke();
    if (cur.label) {
      ctx.fillStyle = COLORS[cur.seat] || COLORS.text;
      ctx.font = `bold ${Math.max(10, cs * 0.16)}px system-ui, sans-serif`;
      ctx.textAlign = cur.seat === "O" ? "right" : "left";
      ctx.textBaseline = "top";
      ctx.fillText(cur.label, cur.seat === "O" ? x + cs - 7 : x + 7, y + 6);
    }
    ctx.restore();
  }

  lay.labels = { X: [], O: [] }; // where the panels' words went (the phone test reads them)
  for (const p of ["X", "O"]) drawPanel(ctx, view.players[p], lay.panels[p], lay.labels[p]);
}

function drawTimer(ctx, view, lay) {
  const { x, y, w, h } = lay.timer;
  roundRect(ctx, x, y, w, h, h / 2);
  ctx.fillStyle = COLORS.track;
  ctx.fill();
  const frac = view.timeFrac;
  if (frac > 0) {
    roundRect(ctx, x, y, Math.max(h, w * frac), h, h / 2);
    ctx.fillStyle = view.timeLeft < 10000 ? COLORS.O : COLORS.dim;
    ctx.fill();
  }
  ctx.fillStyle = COLORS.text;
  ctx.font = "12px system-ui, sans-serif";
  ctx.textBaseline = "bottom";
  ctx.textAlign = "left";
  ctx.fillText(`Round ${view.round}`, x, y - 3);
  ctx.textAlign = "right";
  ctx.fillText(`${Math.ceil(view.timeLeft / 1000)} s`, x + w, y - 3);
  lay.timerLabel = { x, y: y - 3 - LABEL + 2, w, h: LABEL - 2 };
}

/** Text drawn inside ``box`` (shrunk, then cut with "…", to fit its width); its box is
 *  recorded in ``boxes`` (the phone test checks they stay inside their panel). */
function fitText(ctx, text, x, y, align, box, size, weight, boxes) {
  let fs = size;
  const room = align === "center" ? box.w - 12 : box.x + box.w - 8 - x;
  ctx.font = `${weight}${fs}px system-ui, sans-serif`;
  while (ctx.measureText(text).width > room && fs > 9) {
    fs -= 0.5;
    ctx.font = `${weight}${fs}px system-ui, sans-serif`;
  }
  let shown = text;
  while (ctx.measureText(shown).width > room && shown.length > 1) shown = shown.slice(0, -2) + "…";
  ctx.fillText(shown, x, y);
  const w = ctx.measureText(shown).width;
  const left = align === "center" ? x - w / 2 : x;
  if (boxes) boxes.push({ text: shown, x: left, y: y - fs * 0.6, w, h: fs * 1.2 });
}

export function drawPanel(ctx, pl, box, boxes = null) {
  if (!pl || !box) return;
  const { x, y, w, h } = box;
  ctx.save();
  roundRect(ctx, x, y, w, h, 12);
  ctx.fillStyle = pl.mine ? "#26324a" : "#1f2636";
  ctx.fill();
  ctx.strokeStyle = pl.mine ? COLORS[pl.symbol] : "#30394d";
  ctx.lineWidth = pl.mine ? 2 : 1;
  ctx.stroke();
  const compact = h < 200;
  const r = compact ? Math.min(h * 0.3, w * 0.17) : Math.min(w * 0.28, h * 0.2);
  const cx = compact ? x + r + 14 : x + w / 2,
    cy = compact ? y + h / 2 : y + 22 + r;
  // The charge ring (R4, R5): grey track, filling; gold and thick when full; slate blue
  // frozen. A free seat has no ring to fill: only the track and a faded mark.
  ctx.beginPath();
  ctx.strokeStyle = COLORS.track;
  ctx.lineWidth = r * 0.2;
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.stroke();
  const full = pl.full && !pl.empty;
  if (!pl.empty) {
    const ringColor = pl.frozen ? COLORS.frozen : full ? COLORS.gold : COLORS[pl.symbol];
    arcRing(ctx, cx, cy, r, pl.charge, ringColor, full ? r * 0.28 : r * 0.2);
  }
  drawMark(ctx, pl.symbol, cx, cy, r * 0.62, { alpha: pl.empty ? 0.3 : 1, dashed: pl.empty });
  if (full) {
    ctx.save();
    ctx.globalAlpha = 0.35;
    ctx.beginPath();
    ctx.strokeStyle = COLORS.gold;
    ctx.lineWidth = 2;
    ctx.arc(cx, cy, r * 1.22, 0, Math.PI * 2);
    ctx.stroke();
    ctx.restore();
  }
  if (pl.frozen && !pl.empty) drawSnowflake(ctx, cx + r * 0.85, cy - r * 0.85, r * 0.32, COLORS.freeze);
  if (pl.hasted && !pl.empty) drawBolt(ctx, cx - r * 0.9, cy - r * 0.85, r * 0.38, COLORS.haste);

  ctx.fillStyle = COLORS.text;
  ctx.textBaseline = "middle";
  const fs = Math.max(11, Math.min(16, w * 0.075));
  let tx, ty, align;
  if (compact) {
    tx = cx + r * 1.25 + 10;
    ty = y + 18;
    align = "left";
  } else {
    tx = x + w / 2;
    ty = cy + r + 22;
    align = "center";
  }
  ctx.textAlign = align;
  if (pl.empty) {
    fitText(ctx, pl.symbol, tx, ty, align, box, fs, "bold ", boxes);
    ctx.fillStyle = COLORS.dim;
    const words = compact ? ["waiting for", "a player"] : ["waiting for a player"];
    words.forEach((line, i) => {
      fitText(ctx, line, tx, ty + fs * (1.3 + 1.1 * i), align, box, fs * 0.85, "", boxes);
    });
    ctx.restore();
    return;
  }
  const name = (pl.name || pl.symbol).slice(0, 18) + (pl.mine ? " (you)" : "");
  fitText(ctx, name, tx, ty, align, box, fs, "bold ", boxes);
  ctx.fillStyle = COLORS.dim;
  const status = pl.frozen ? "frozen" : pl.hasted ? "hasted" : pl.full ? "ready" : "charging";
  const away =
    pl.connected !== false
      ? ""
      : pl.graceLeft !== null && pl.graceLeft !== undefined
        ? ` · away, ${pl.graceLeft} s to return`
        : " · away";
  fitText(ctx, `${status}${away}`, tx, ty + fs * 1.3, align, box, fs * 0.85, "", boxes);
  // Three round pips (R22).
  const pipR = Math.max(4, fs * 0.42),
    pipY = ty + fs * 2.7;
  const n = pl.roundsToWin;
  const startX = align === "center" ? tx - (n - 1) * pipR * 1.5 : tx + pipR;
  for (let i = 0; i < n; i++) {
    ctx.beginPath();
    ctx.arc(startX + i * pipR * 3, pipY, pipR, 0, Math.PI * 2);
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLORS[pl.symbol];
    if (i < pl.roundWins) {
      ctx.fillStyle = COLORS[pl.symbol];
      ctx.fill();
    }
    ctx.stroke();
  }
  ctx.fillStyle = COLORS.text;
  fitText(ctx, `marks ${pl.marks}/${pl.markLimit}`, tx, pipY + fs * 1.5, align, box, fs * 0.9, "", boxes);
  if (pl.rematch) {
    ctx.fillStyle = COLORS.gold;
    fitText(ctx, "wants a rematch", tx, pipY + fs * 2.8, align, box, fs * 0.9, "", boxes);
  }
  ctx.restore();
}

/** Small legend swatches (drawn into their own canvases in the sidebar). */
export function drawLegendIcon(canvas, kind) {
  const ctx = canvas.getContext("2d");
  const s = canvas.width;
  ctx.clearRect(0, 0, s, s);
  ctx.fillStyle = COLORS.cell;
  roundRect(ctx, 1, 1, s - 2, s - 2, 6);
  ctx.fill();
  const c = s / 2;
  if (POWERUP_GLYPHS[kind]) {
    const g = ctx.createRadialGradient(c, c, 2, c, c, s * 0.6);
    g.addColorStop(0, COLORS[kind] + "88");
    g.addColorStop(1, COLORS[kind] + "00");
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, s, s);
    drawPowerupGlyph(ctx, kind, c, c, s * 0.3);
  } else if (kind === "setting") {
    drawMark(ctx, "X", c, c, s * 0.3, { alpha: 0.55 });
    arcRing(ctx, c, c, s * 0.4, 0.6, COLORS.X, 3);
  } else if (kind === "target") {
    drawMark(ctx, "O", c, c, s * 0.3, { alpha: 0.55 });
    arcRing(ctx, c, c, s * 0.4, 0.4, COLORS.O, 3);
    drawTarget(ctx, c, c, s * 0.3, 1);
  } else if (kind === "crater") {
    drawCrater(ctx, 0, 0, s, 1);
  } else if (kind === "faded") {
    drawMark(ctx, "X", c, c, s * 0.3, { alpha: 0.3, dashed: true });
  } else if (kind === "X" || kind === "O") {
    drawMark(ctx, kind, c, c, s * 0.3);
  }
}
