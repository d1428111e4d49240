// Canvas drawing of a Rift & Grid view (model.js). Nothing here decides anything: it paints.
//
// The board: 81 cells in nine sectors (G1), the active sector outlined in gold (every
// open sector, dashed, in a free turn: G4, G9), won sectors under a large faint symbol,
// tied ones hatched, grey cells hatched dark (G2). The acting seat's legal targets carry
// a dot; its programmed move is a dashed ghost with its ability's badge. A resolved turn
// is animated (G6): both moves appear as ghosts, slide to each other's cell after a lone
// swap, then land; a collision flashes and the cell turns grey, or the lone shield's
// owner takes it. The panel: the view switch (local), each seat's score (with its
// causes), energy and lock, the ability buttons with cost and cooldown, the objectives.

import { ANIM_MS, abilityUsable, cellAt, describeCause, describeTurn, objectiveName } from "./model.js";
import { cellRect, sectorRect } from "./layout.js";
import { roundRect } from "../../view_common.js";

export { layout } from "./layout.js";

export const COLORS = {
  bg: "#151a24",
  board: "#1b2130",
  sector: "#232b3c",
  sectorHi: "#2f3a52",
  cell: "#2b3447",
  grey: "#5d6472",
  text: "#e8ecf4",
  dim: "#97a2b8",
  gold: "#F0C93A",
  X: "#56B4E9",
  O: "#D55E00",
  panel: "#1f2636",
  panel2: "#26324a",
  tie: "#8a93a6",
};
const ABILITY_LABEL = { none: "Place", shield: "Shield", swap: "Swap", reveal: "Reveal" };

/** X a cross, O a ring (shape, not only colour, tells them apart). */
export function drawMark(ctx, seat, cx, cy, size, opts = {}) {
  ctx.save();
  ctx.globalAlpha = opts.alpha ?? 1;
  ctx.strokeStyle = opts.color || COLORS[seat];
  ctx.lineWidth = Math.max(2, size * (opts.thin ? 0.09 : 0.14));
  ctx.lineCap = "round";
  if (opts.dashed) ctx.setLineDash([size * 0.16, size * 0.12]);
  const k = size * 0.32;
  ctx.beginPath();
  if (seat === "X") {
    ctx.moveTo(cx - k, cy - k);
    ctx.lineTo(cx + k, cy + k);
    ctx.moveTo(cx + k, cy - k);
    ctx.lineTo(cx - k, cy + k);
  } else ctx.arc(cx, cy, k * 1.05, 0, Math.PI * 2);
  ctx.stroke();
  ctx.restore();
}

function hatch(ctx, x, y, s, color, step) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, s, s);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let d = -s; d < s; d += step) {
    ctx.moveTo(x + d, y + s);
    ctx.lineTo(x + d + s, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** An ability's badge: a shield, two crossing arrows, an eye. */
export function drawGlyph(ctx, ability, cx, cy, r, color = COLORS.gold) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = Math.max(1.5, r * 0.18);
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  ctx.beginPath();
  if (ability === "shield") {
    ctx.moveTo(cx, cy - r);
    ctx.lineTo(cx + r * 0.85, cy - r * 0.6);
    ctx.lineTo(cx + r * 0.7, cy + r * 0.3);
    ctx.quadraticCurveTo(cx + r * 0.4, cy + r * 0.8, cx, cy + r);
    ctx.quadraticCurveTo(cx - r * 0.4, cy + r * 0.8, cx - r * 0.7, cy + r * 0.3);
    ctx.lineTo(cx - r * 0.85, cy - r * 0.6);
    ctx.closePath();
    ctx.stroke();
  } else if (ability === "swap") {
    ctx.moveTo(cx - r, cy - r * 0.35);
    ctx.lineTo(cx + r, cy - r * 0.35);
    ctx.lineTo(cx + r * 0.55, cy - r * 0.8);
    ctx.moveTo(cx + r, cy + r * 0.35);
    ctx.lineTo(cx - r, cy + r * 0.35);
    ctx.lineTo(cx - r * 0.55, cy + r * 0.8);
    ctx.stroke();
  } else if (ability === "reveal") {
    ctx.moveTo(cx - r, cy);
    ctx.quadraticCurveTo(cx, cy - r * 1.1, cx + r, cy);
    ctx.quadraticCurveTo(cx, cy + r * 1.1, cx - r, cy);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, cy, r * 0.32, 0, Math.PI * 2);
    ctx.fill();
  } else {
    ctx.arc(cx, cy, r * 0.35, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** The seat this screen shows and acts for (the view switch), from the input's list. */
export function actingSeat(view, cursors) {
  const c = (cursors || []).find((k) => k.viewing);
  return c && view.mine.includes(c.seat) ? c : null;
}

// A resolution's animation runs on the view's clock (the server's, or a replay's at its
// speed) and on the page's own (ui.now), whichever is further: so a paused replay's step
// still lands, and a 4× replay does not wait for the wall clock.
const started = new WeakMap();
function withProgress(view, now) {
  if (!view.anim || now === undefined) return view;
  if (!started.has(view.anim.report)) started.set(view.anim.report, now);
  // Less motion: the model's p is 1 at once (model.js), and so is this.
  const p = Math.max(view.anim.p, Math.min(1, (now - started.get(view.anim.report)) / ANIM_MS));
  return { ...view, anim: { ...view.anim, p, done: p >= 1 } };
}

/** True while the resolution's animation runs (the shell paints every frame then; a
 *  still board only when something changed). */
export function animating(view, now) {
  const v = withProgress(view, now);
  return !!v.anim && v.anim.p < 1;
}

export function drawGame(ctx, view0, lay, ui = {}) {
  const view = withProgress(view0, ui.now);
  ctx.fillStyle = COLORS.bg;
  ctx.fillRect(0, 0, lay.w, lay.h);
  const acting = actingSeat(view, ui.cursors);
  drawBoard(ctx, view, lay, ui, acting);
  drawPanel(ctx, view, lay, acting);
}

const ease = (q) => (q <= 0 ? 0 : q >= 1 ? 1 : q * q * (3 - 2 * q));
const center = (lay, cell) => {
  const r = cellRect(lay, cell);
  return [r.x + r.s / 2, r.y + r.s / 2];
};

function drawBoard(ctx, view, lay, ui, acting) {
  const b = lay.board;
  ctx.fillStyle = COLORS.board;
  roundRect(ctx, b.x - 8, b.y - 8, b.s + 16, b.s + 16, 12);
  ctx.fill();
  const anim = view.anim && !view.anim.done ? view.anim : null;
  const r = anim ? anim.report : null;
  const landed = !anim || anim.p >= 0.62;
  const hidden = new Set();
  if (r && !landed) {
    for (const c of [r.cells.X, r.cells.O, r.grey]) if (c !== null && c !== undefined) hidden.add(c);
  }
  const fresh = new Set(r && anim.p < 0.8 ? r.sectors.map((d) => d.sector) : []);
  const hi = new Set(view.highlighted);
  for (let s = 0; s < 9; s++) {
    const q = sectorRect(lay, s);
    ctx.fillStyle = hi.has(s) ? COLORS.sectorHi : COLORS.sector;
    roundRect(ctx, q.x - 3, q.y - 3, q.s + 6, q.s + 6, 8);
    ctx.fill();
  }
  for (let cell = 0; cell < 81; cell++) {
    const q = cellRect(lay, cell);
    const ch = hidden.has(cell) ? "." : view.cells[cell];
    ctx.fillStyle = ch === "#" ? COLORS.grey : COLORS.cell;
    roundRect(ctx, q.x + 1.5, q.y + 1.5, q.s - 3, q.s - 3, 4);
    ctx.fill();
    if (ch === "#") hatch(ctx, q.x + 1.5, q.y + 1.5, q.s - 3, "rgba(20,24,32,0.55)", Math.max(5, q.s / 5));
    else if (ch === "X" || ch === "O") drawMark(ctx, ch, q.x + q.s / 2, q.y + q.s / 2, q.s);
  }
  // Decided sectors (G2, G8): a large faint symbol, or hatching and "tie".
  view.sectors.forEach((res, s) => {
    if (res === "open" || fresh.has(s)) return;
    const q = sectorRect(lay, s);
    ctx.save();
    ctx.fillStyle =
      res === "tie" ? "rgba(138,147,166,0.28)" : res === "X" ? "rgba(86,180,233,0.16)" : "rgba(213,94,0,0.18)";
    roundRect(ctx, q.x - 3, q.y - 3, q.s + 6, q.s + 6, 8);
    ctx.fill();
    if (res === "tie") {
      hatch(ctx, q.x, q.y, q.s, "rgba(200,205,215,0.25)", q.s / 7);
      ctx.fillStyle = COLORS.text;
      ctx.font = `700 ${Math.round(q.s * 0.2)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText("tie", q.x + q.s / 2, q.y + q.s / 2);
    } else drawMark(ctx, res, q.x + q.s / 2, q.y + q.s / 2, q.s * 0.95, { alpha: 0.5, thin: true });
    ctx.restore();
  });
  // The active sector (G9), or every open sector in a free turn.
  for (const s of view.highlighted) {
    const q = sectorRect(lay, s);
    ctx.save();
    ctx.strokeStyle = COLORS.gold;
    ctx.lineWidth = view.free ? 2 : 3.5;
    if (view.free) ctx.setLineDash([8, 6]);
    roundRect(ctx, q.x - 4, q.y - 4, q.s + 8, q.s + 8, 9);
    ctx.stroke();
    ctx.restore();
  }
  // The acting seat's legal targets (G4): a small dot.
  if (acting && view.live) {
    ctx.fillStyle = "rgba(240,201,58,0.45)";
    for (const cell of view.targets) {
      const [cx, cy] = center(lay, cell);
      ctx.beginPath();
      ctx.arc(cx, cy, Math.max(2, b.cell * 0.07), 0, Math.PI * 2);
      ctx.fill();
    }
  }
  // Hover and keyboard cursor.
  const marks = [];
  if (ui.hover !== null && ui.hover !== undefined && acting) marks.push(ui.hover);
  if (acting && acting.cell) marks.push(cellAt(acting.cell[0], acting.cell[1]));
  for (const cell of marks) {
    const q = cellRect(lay, cell);
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = 2;
    roundRect(ctx, q.x + 2, q.y + 2, q.s - 4, q.s - 4, 5);
    ctx.stroke();
  }
  // The acting seat's programmed move: a dashed ghost with its ability's badge. The
  // other seat's never shows (local: the view switch hides it).
  if (acting && acting.move && view.live) {
    const q = cellRect(lay, acting.move.cell);
    ctx.save();
    ctx.strokeStyle = COLORS.gold;
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    roundRect(ctx, q.x + 2, q.y + 2, q.s - 4, q.s - 4, 5);
    ctx.stroke();
    ctx.restore();
    drawMark(ctx, acting.seat, q.x + q.s / 2, q.y + q.s / 2, q.s, { alpha: 0.55, dashed: true });
    if (acting.move.ability !== "none")
      drawGlyph(ctx, acting.move.ability, q.x + q.s * 0.8, q.y + q.s * 0.2, q.s * 0.18);
  }
  if (r) drawResolution(ctx, view, lay, anim);
}

function drawResolution(ctx, view, lay, anim) {
  const r = anim.report,
    p = anim.p,
    b = lay.board;
  const seats = view.seatNames;
  if (p < 0.62) {
    const q = r.swapped ? ease((p - 0.22) / 0.32) : 0;
    for (const s of seats) {
      const from = center(lay, r.moves[s].cell),
        to = center(lay, r.targets[s]);
      const x = from[0] + (to[0] - from[0]) * q,
        y = from[1] + (to[1] - from[1]) * q;
      const pop = ease(p / 0.15);
      ctx.save();
      ctx.fillStyle = "rgba(21,26,36,0.7)";
      ctx.beginPath();
      ctx.arc(x, y, b.cell * 0.5 * pop, 0, Math.PI * 2);
      ctx.fill();
      ctx.restore();
      drawMark(ctx, s, x, y, b.cell * 1.1 * pop, { alpha: 0.9 });
      const ab = r.moves[s].ability;
      if (ab !== "none") drawGlyph(ctx, ab, x + b.cell * 0.42, y - b.cell * 0.42, b.cell * 0.2);
    }
    if (r.swapped && p > 0.15) {
      const a = center(lay, r.moves.X.cell),
        c = center(lay, r.moves.O.cell);
      ctx.save();
      ctx.strokeStyle = COLORS.gold;
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 5]);
      ctx.globalAlpha = 0.8;
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.quadraticCurveTo((a[0] + c[0]) / 2, Math.min(a[1], c[1]) - b.cell * 1.2, c[0], c[1]);
      ctx.stroke();
      ctx.restore();
    }
  } else if (r.collision) {
    const cell = r.targets.X,
      [x, y] = center(lay, cell),
      q = (p - 0.62) / 0.38;
    ctx.save();
    ctx.globalAlpha = 1 - q;
    ctx.strokeStyle = r.grey !== null ? "#ffffff" : COLORS.gold;
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.arc(x, y, b.cell * (0.4 + 1.4 * q), 0, Math.PI * 2);
    ctx.stroke();
    if (r.grey === null) {
      const winner = seats.find((s) => r.cells[s] === cell);
      drawGlyph(ctx, "shield", x, y, b.cell * (0.55 + 0.2 * q), COLORS.gold);
      if (winner) drawMark(ctx, winner, x, y, b.cell, { alpha: 1 - q });
    } else {
      const k = b.cell * (0.3 + 0.5 * q);
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = 3;
      ctx.beginPath();
      ctx.moveTo(x - k, y - k);
      ctx.lineTo(x + k, y + k);
      ctx.moveTo(x + k, y - k);
      ctx.lineTo(x - k, y + k);
      ctx.stroke();
    }
    ctx.restore();
  } else {
    const q = (p - 0.62) / 0.38;
    for (const s of seats) {
      const [x, y] = center(lay, r.cells[s]);
      ctx.save();
      ctx.globalAlpha = 1 - q;
      ctx.strokeStyle = COLORS[s];
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(x, y, b.cell * (0.45 + 0.5 * q), 0, Math.PI * 2);
      ctx.stroke();
      ctx.restore();
    }
  }
  // The turn's sector points rise from their sectors as the turn lands (G10).
  if (p >= 0.62) {
    const q = (p - 0.62) / 0.38;
    for (const s of seats) {
      for (const c of r.points[s] || []) {
        if (c.sector === undefined) continue;
        const box = sectorRect(lay, c.sector);
        const dx = c.cause === "sector_tie" ? (s === seats[0] ? -0.18 : 0.18) * box.s : 0;
        text(ctx, `${s} +${c.points}`, box.x + box.s / 2 + dx, box.y + box.s * (0.45 - 0.25 * q), {
          px: Math.round(box.s * 0.16),
          weight: 800,
          align: "center",
          color: COLORS[s],
        });
      }
    }
  }
  // The caption: what happened this turn (G6), in its strip under the board (issue 26:
  // drawn over the board, it hid the bottom row).
  const c = lay.caption;
  ctx.save();
  ctx.fillStyle = "rgba(17,21,29,0.88)";
  roundRect(ctx, c.x, c.y, c.w, c.h, 8);
  ctx.fill();
  ctx.fillStyle = COLORS.text;
  ctx.font = `600 ${Math.round(c.h * 0.56)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(describeTurn(r), c.x + c.w / 2, c.y + c.h / 2, c.w - 12);
  ctx.restore();
}

function text(ctx, str, x, y, { px = 13, weight = 400, color = COLORS.text, align = "left", max } = {}) {
  ctx.fillStyle = color;
  ctx.font = `${weight} ${px}px system-ui, sans-serif`;
  ctx.textAlign = align;
  ctx.textBaseline = "middle";
  ctx.fillText(str, x, y, max);
}

function drawPanel(ctx, view, lay, acting) {
  const local = view.mine.length === 2;
  // The view switch (local), or the turn.
  if (local) {
    for (const t of lay.tabs) {
      const on = acting && acting.seat === t.seat;
      ctx.fillStyle = on ? COLORS.panel2 : COLORS.panel;
      roundRect(ctx, t.x, t.y, t.w, t.h, 8);
      ctx.fill();
      if (on) {
        ctx.strokeStyle = COLORS[t.seat];
        ctx.lineWidth = 2.5;
        ctx.stroke();
      }
      const lock = view.locked[t.seat] ? " ✓ locked" : "";
      text(ctx, `Player ${t.seat}${lock}`, t.x + t.w / 2, t.y + t.h / 2, {
        weight: 700,
        align: "center",
        color: on ? COLORS.text : COLORS.dim,
      });
    }
  } else {
    const t = lay.tabs[0];
    text(ctx, turnLine(view), t.x, t.y + t.h / 2, { px: 15, weight: 700, max: lay.panel.w });
  }
  for (const c of lay.cards) drawCard(ctx, view, c);
  drawButtons(ctx, view, lay, acting);
  drawObjectives(ctx, view, lay, acting);
  drawLog(ctx, view, lay);
}

/** The panel's first line: the turn and where to play, or how many turns the game had
 *  (the picture's `turn` is then the one that never came: "Turn 30" after 29). */
export function turnLine(view) {
  if (view.gameResult) return `Game over after ${view.turn - 1} turn${view.turn === 2 ? "" : "s"}`;
  return `Turn ${view.turn} · ${view.free ? "free turn: any open sector" : `sector ${view.active}`}`;
}

function drawCard(ctx, view, c) {
  const p = view.players[c.seat];
  ctx.fillStyle = COLORS.panel;
  roundRect(ctx, c.x, c.y, c.w, c.h, 10);
  ctx.fill();
  ctx.strokeStyle = COLORS[c.seat];
  ctx.lineWidth = 1.5;
  ctx.stroke();
  drawMark(ctx, c.seat, c.x + 18, c.y + 18, 22);
  text(
    ctx,
    `${p.name === c.seat ? "" : p.name}${p.mine && view.mine.length === 1 ? " (you)" : ""}`,
    c.x + 34,
    c.y + 18,
    { px: 12.5, weight: 600, max: c.w - 80 },
  );
  text(ctx, String(p.score), c.x + c.w - 10, c.y + 20, { px: 24, weight: 800, align: "right" });
  // Energy (G13): a bar to energy_max, with the number.
  const max = view.energyMax || 1,
    bx = c.x + 10,
    by = c.y + 40,
    bw = c.w - 20;
  ctx.fillStyle = "#11151d";
  roundRect(ctx, bx, by, bw, 10, 5);
  ctx.fill();
  ctx.fillStyle = COLORS.gold;
  roundRect(ctx, bx, by, Math.max(4, bw * Math.min(1, p.energy / max)), 10, 5);
  ctx.fill();
  text(ctx, `energy ${p.energy}/${view.energyMax}`, bx, by + 22, { px: 11.5, color: COLORS.dim });
  const t = view.totals[c.seat];
  if (!c.compact)
    text(ctx, `sectors ${t.sectors} · lines ${t.lines} · objectives ${t.objectives}`, bx, by + 38, {
      px: 11,
      color: COLORS.dim,
      max: bw,
    });
  const replay = view.mode === "replay"; // a replay: nobody is choosing anything
  const tag = view.gameResult
    ? p.rematch
      ? "wants a rematch"
      : ""
    : replay
      ? ""
      : !p.connected
        ? "away"
        : p.locked
          ? "locked in ✓"
          : view.live
            ? "choosing…"
            : "";
  text(ctx, tag, c.x + c.w - 10, by + 22, {
    px: 11.5,
    weight: 600,
    align: "right",
    color: p.locked ? COLORS.gold : COLORS.dim,
  });
}

function drawButtons(ctx, view, lay, acting) {
  if (!acting) {
    const b = lay.buttons[0];
    text(ctx, view.mine.length ? "" : "Spectating: moves show when a turn resolves.", b.x, b.y + b.h / 2, {
      px: 12.5,
      color: COLORS.dim,
      max: lay.panel.w,
    });
    return;
  }
  const abilities = view.players[acting.seat].abilities;
  for (const b of lay.buttons) {
    const a = abilities[b.ability];
    const usable = abilityUsable(view, acting.seat, b.ability);
    const chosen = acting.ability === b.ability;
    const refused = acting.refused && acting.refused.ability === b.ability;
    ctx.fillStyle = chosen ? "#3a4660" : COLORS.panel;
    roundRect(ctx, b.x, b.y, b.w, b.h, 8);
    ctx.fill();
    if (chosen) {
      ctx.strokeStyle = COLORS.gold;
      ctx.lineWidth = 2.5;
      ctx.stroke();
    }
    if (refused) {
      ctx.strokeStyle = "#ff8a80";
      ctx.lineWidth = 2.5;
      ctx.stroke();
    } // a greyed one clicked: its why
    ctx.globalAlpha = usable ? 1 : 0.45;
    drawGlyph(ctx, b.ability, b.x + 14, b.y + 15, 8, usable ? COLORS.gold : COLORS.dim);
    text(ctx, ABILITY_LABEL[b.ability], b.x + 27, b.y + 15, { px: 13, weight: 700, max: b.w - 30 });
    let line1 = "free",
      line2 = "no ability";
    if (a) {
      line1 = `cost ${a.cost} · cd ${a.cooldown}`;
      line2 = a.usable
        ? "ready"
        : a.ready > view.turn
          ? `from turn ${a.ready}`
          : view.players[acting.seat].energy < a.cost
            ? `needs ${a.cost} energy`
            : b.ability === "reveal"
              ? "nothing to reveal"
              : "—";
    }
    text(ctx, line1, b.x + 7, b.y + 34, { px: 11, color: COLORS.dim, max: b.w - 10 });
    text(ctx, line2, b.x + 7, b.y + 48, { px: 11, color: a && a.usable ? COLORS.gold : COLORS.dim, max: b.w - 10 });
    ctx.globalAlpha = 1;
  }
}

function drawObjectives(ctx, view, lay, acting) {
  const o = lay.objectives;
  ctx.fillStyle = COLORS.panel;
  roundRect(ctx, o.x, o.y, o.w, o.h, 10);
  ctx.fill();
  ctx.save();
  ctx.beginPath();
  ctx.rect(o.x, o.y, o.w, o.h);
  ctx.clip();
  const order = acting ? [acting.seat, view.seatNames.find((s) => s !== acting.seat)] : view.seatNames;
  let y = o.y + 12;
  for (const seat of order) {
    const own = acting && seat === acting.seat;
    // Local: the view switch shows the other player's objectives as their opponent sees them.
    const h = !own && view.mine.includes(seat) ? view.players[seat].publicHand : view.players[seat].hand;
    // Once the game is over the server shows both hands whole (server/games/rift/wire.py, picture).
    const all = h.full || (view.gameResult && !h.hidden);
    const title = own ? `Your objectives (${seat})` : `${seat}'s objectives${all ? "" : " (known)"}`;
    text(ctx, title, o.x + 10, y, { px: 12.5, weight: 700, color: COLORS[seat] });
    y += 16;
    const items = h.items;
    for (const it of items) {
      const mark = it.accomplished ? "✓" : "○";
      const seen = own && it.revealed ? " (revealed)" : "";
      text(ctx, `${mark} ${objectiveName(it.id)}${seen}`, o.x + 12, y, {
        px: 11.5,
        color: it.accomplished ? COLORS.gold : COLORS.text,
        max: o.w - 60,
      });
      text(ctx, `+${it.points}`, o.x + o.w - 10, y, {
        px: 11.5,
        weight: 700,
        align: "right",
        color: it.accomplished ? COLORS.gold : COLORS.dim,
      });
      y += 15;
    }
    if (h.hidden) {
      text(ctx, `? ${h.hidden} hidden`, o.x + 12, y, { px: 11.5, color: COLORS.dim });
      y += 15;
    }
    if (!items.length && !h.hidden) {
      text(ctx, "—", o.x + 12, y, { px: 11.5, color: COLORS.dim });
      y += 15;
    }
    y += 4;
  }
  ctx.restore();
}

function drawLog(ctx, view, lay) {
  const l = lay.log;
  if (l.h < 30) return;
  text(ctx, "Scores, newest first", l.x + 2, l.y + 9, { px: 12.5, weight: 700, color: COLORS.dim });
  let y = l.y + 27;
  for (const c of view.causes) {
    if (y > l.y + l.h - 6) break;
    text(ctx, `T${c.turn}`, l.x + 2, y, { px: 11.5, color: COLORS.dim });
    text(ctx, `${c.seat} +${c.points}`, l.x + 34, y, { px: 11.5, weight: 700, color: COLORS[c.seat] });
    text(ctx, describeCause(c, objectiveName), l.x + 82, y, { px: 11.5, max: l.w - 84 });
    y += 16;
  }
  if (!view.causes.length) text(ctx, "No points yet.", l.x + 2, y, { px: 11.5, color: COLORS.dim });
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
  if (icon === "X" || icon === "O") drawMark(ctx, icon, w / 2, h / 2, w * 0.8);
  else if (icon === "grey") {
    ctx.fillStyle = COLORS.grey;
    roundRect(ctx, 3, 3, w - 6, h - 6, 4);
    ctx.fill();
    hatch(ctx, 3, 3, w - 6, "rgba(20,24,32,0.55)", 6);
  } else if (icon === "active") {
    ctx.strokeStyle = COLORS.gold;
    ctx.lineWidth = 3;
    roundRect(ctx, 4, 4, w - 8, h - 8, 5);
    ctx.stroke();
  } else if (icon === "tie") {
    hatch(ctx, 2, 2, w - 4, "rgba(200,205,215,0.5)", 6);
  } else if (icon === "ghost") {
    drawMark(ctx, "X", w / 2, h / 2, w * 0.8, { alpha: 0.55, dashed: true });
  } else drawGlyph(ctx, icon, w / 2, h / 2, w * 0.3);
}
