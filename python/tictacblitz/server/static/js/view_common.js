// Small helpers every game's view uses the same way: canvas shapes, a square board's
// cells (a layout's `board` of `{x, y, s, cell}`), page coordinates of a layout's boxes,
// the cursor's moves and the input's wiring to the canvas and the keyboard. Nothing of
// any game's rules or words. `tests/` and the games' modules import them from here.

// The player's system asks for less motion (prefers-reduced-motion): the views then show a
// resolution's end at once and glows without a pulse. No window (Node's tests): never.
const LESS_MOTION = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;
export function reducedMotion() {
  return !!LESS_MOTION && LESS_MOTION.matches;
}

/** A rounded rectangle path (fill or stroke it after). */
export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** The [row, col] of a square board (`lay.board`: x, y, s, cell) under a canvas point, or null. */
export function cellFromPoint(lay, px, py) {
  const { x, y, s, cell } = lay.board;
  if (px < x || py < y || px >= x + s || py >= y + s) return null;
  return [Math.floor((py - y) / cell), Math.floor((px - x) / cell)];
}

/** The page coordinates of a square board's cell centre (the browser tests click there). */
export function cellCenter(lay, rect, cell) {
  const b = lay.board;
  return { x: rect.left + b.x + (cell[1] + 0.5) * b.cell, y: rect.top + b.y + (cell[0] + 0.5) * b.cell };
}

/** The page coordinates of the centre of a layout's box ({x, y, w, h}); rect: the canvas's. */
export function boxCenter(rect, b) {
  return { x: rect.left + b.x + b.w / 2, y: rect.top + b.y + b.h / 2 };
}

/** The keys that move a keyboard cursor, [dr, dc]: the arrows, and WASD for a second
 *  player on one screen. Every game's input uses these. */
export const CURSOR_MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
  w: [-1, 0],
  s: [1, 0],
  a: [0, -1],
  d: [0, 1],
};
export const ARROW_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

/** A cursor [row, col] moved by [dr, dc], kept on a size×size board. */
export function moveCursor(cell, move, size) {
  return [Math.min(size - 1, Math.max(0, cell[0] + move[0])), Math.min(size - 1, Math.max(0, cell[1] + move[1]))];
}

/** A pointer event's point on the canvas, in CSS pixels: [x, y]. */
export function canvasPoint(canvas, e) {
  const rect = canvas.getBoundingClientRect();
  return [e.clientX - rect.left, e.clientY - rect.top];
}

/** Wire an input to its canvas and the keyboard: `onPointer(e)` on a press, `hover`
 *  kept as `cellAt(e)` (null when the pointer leaves), `onKey(e)` on a key. */
export function listen(input, canvas) {
  canvas.addEventListener("pointerdown", (e) => input.onPointer(e));
  canvas.addEventListener("pointermove", (e) => {
    input.hover = input.cellAt(e);
  });
  canvas.addEventListener("pointerleave", () => {
    input.hover = null;
  });
  window.addEventListener("keydown", (e) => input.onKey(e));
}
