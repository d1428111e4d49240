// The shell: menu → a match (bot, local, online, spectating) or a replay; the connection;
// the replay controls; a render loop that draws the game's view every frame, so rings
// and timers move between messages. It knows no game: the server's `welcome` names the
// game, its rules and its view module (`welcome.game.view`), which the shell imports and
// asks for everything game-specific (docs/client.md, "A game's view module").

import { buildMenu } from "./menu.js";
import { secondsLeft } from "./model_common.js";
import { Connection } from "./net.js";
import { CLOSE_CODES, formatCode } from "./protocol.js";
import { ReplayPlayer, fetchReplay, replayFromFile } from "./replay.js";
import { SeatStore, describeSeat, resumeMessage, resumesOnLoad } from "./seat.js";

const $ = (id) => document.getElementById(id);
const canvas = $("board");
const ctx = canvas.getContext("2d");

const app = {
  screen: "menu",
  conn: null,
  game: null, // welcome.game: name, seats, view, and the game's vocabulary
  rules: null, // welcome.rules: the rules every room of this server plays
  ui: null, // the game's view module
  model: null,
  input: null,
  replay: null,
  lay: null,
  view: null,
  frames: 0, // animation frames run, and the canvas paints among them (a still board: none)
  paints: 0,
  mouseSeat: null,
  status: "",
  statusUntil: 0,
  errors: [],
  seat: new SeatStore(null, null), // the seat this tab keeps (welcome names the game)
  resumeRef: null, // the ref of the `resume` of a kept seat, until it is answered
};
window.__blitz = app; // for the browser tests and for curious players
// The page coordinates of a cell's centre (the tests click there).
app.cellCenter = (cell) => app.ui.cellCenter(app.lay, canvas.getBoundingClientRect(), cell);

let viewLoaded;
const viewReady = new Promise((resolve) => {
  viewLoaded = resolve;
});
/** The names a sentence lists: "a", "a and b", "a, b and c". */
const listed = (names) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
const newModel = (rules) => app.ui.createModel(rules || app.rules, app.game);

// -- screens ------------------------------------------------------------------------------

function show(screen) {
  app.screen = screen;
  document.body.dataset.screen = screen;
  $("menu").hidden = screen !== "menu";
  $("game").hidden = screen === "menu";
  $("btn-menu").hidden = screen === "menu";
  $("replay-box").hidden = screen !== "replay";
  if (screen !== "menu") {
    requestAnimationFrame(resize);
    canvas.focus({ preventScroll: true });
  }
}

function menuError(text) {
  $("menu-error").textContent = text || "";
}

function say(text, ms = 2500) {
  app.status = text;
  app.statusUntil = performance.now() + ms;
  app.statusReason = null;
}

// -- the connection -----------------------------------------------------------------------

async function connection() {
  if (app.conn && app.conn.ws && app.conn.ws.readyState <= 1) return app.conn;
  if (app.conn) app.conn.close(); // a dead one (a final close) or one still retrying: stop it
  app.conn = new Connection(onMessage, { onStatus });
  await app.conn.open();
  if (!app.pinger) app.pinger = setInterval(() => app.conn && app.conn.ping(), 2000);
  return app.conn;
}

function onStatus(s, code) {
  if (s === "redirect_failed") {
    showError("The servers keep sending this room elsewhere: try again later.", true);
    return;
  }
  if (app.screen !== "game") return;
  if (s === "moving") say("Moving to the room's server…");
  else if (s !== "closed") return;
  else if (code === CLOSE_CODES.seat_taken_over) say("This seat was taken over by another tab.", 4000);
  // A room's end normally comes as an error first (below); the close alone says it too.
  else if (code === CLOSE_CODES.room_closed) roomGone("The room was closed.");
  else if (code === CLOSE_CODES.server_closing) roomGone("The server is shutting down: this match ended.");
  else say("Connection lost — reconnecting…", 4000);
}

/** Errors that end the match view: the room is gone for this page. `bad_token` and
 *  `room_not_found` answer the `resume` after a drop (the grace ran out, or the entry point
 *  knows the room no more): in a match, nothing else sends them (docs/protocol.md). */
const ROOM_GONE = ["room_closed", "room_lost", "server_closing", "bad_token", "room_not_found"];

function showError(text, roomIsGone) {
  if (app.screen === "game" && roomIsGone) roomGone(text);
  else if (app.screen === "menu") menuError(text);
  else say(text, 4000);
}

// Messages are handled in order, each after the one before: the first (`welcome`)
// loads the game's view module before anything else is shown.
let inbox = Promise.resolve();
function onMessage(msg) {
  inbox = inbox.then(() => handle(msg)).catch((err) => console.error(err));
}

async function handle(msg) {
  if (msg.type === "welcome") {
    await welcome(msg);
    return;
  }
  await viewReady;
  const m = app.model;
  switch (msg.type) {
    case "joined":
      m.applyJoined(msg);
      app.resumeRef = null;
      if (msg.role === "player") app.seat.save(msg, app.mouseSeat);
      app.input.configure(msg.seats || [], app.mouseSeat);
      showRoom(msg);
      show("game");
      keysHelp();
      break;
    case "error":
      if (msg.ref != null && msg.ref === app.resumeRef) {
        if (ROOM_GONE.includes(msg.code)) {
          keptSeatGone(msg);
          break;
        }
        app.resumeRef = null;
        showRejoin(); // kept: "Rejoin your match" may try again
      }
      // `server_closing` also refuses a rematch vote: the room stays until the server
      // closes it (docs/protocol.md, "More than one process"), so that is only words.
      showError(
        msg.message || msg.code,
        ROOM_GONE.includes(msg.code) && !(msg.ref != null && msg.ref === app.rematchRef),
      );
      break;
    case "rejected":
      say(app.ui.REASONS[msg.reason] || msg.reason, 1500);
      app.statusReason = { reason: msg.reason, seat: msg.seat };
      m.apply(msg);
      break;
    case "state":
      m.applyState(msg);
      break;
    default:
      m.apply(msg);
  }
  if (m.needSync && app.conn) {
    m.needSync = false;
    app.conn.send({ type: "sync" });
  }
}

function showRoom(msg) {
  const online = msg.mode === "online" || msg.role === "spectator";
  $("room-box").hidden = !online;
  if (!online) return;
  $("room-code-show").textContent = formatCode(msg.room);
  $("room-link").value = msg.link || `${location.origin}/r/${msg.room}`;
}

/** The server's game: its rules, its vocabulary and its view module (once per page). */
async function welcome(msg) {
  app.rules = msg.rules;
  if (app.ui) {
    app.model.setRules(msg.rules);
    return;
  }
  app.game = msg.game;
  app.ui = await import(msg.game.view);
  app.mouseSeat = app.game.seats[0];
  app.model = newModel();
  app.input = new app.ui.Input({
    canvas,
    getView: () => app.view,
    getLayout: () => app.lay,
    isTyping,
    act: (seat, intent) => {
      if (!app.conn || app.replay) return;
      app.conn.send({ type: "act", ...intent, seat });
    },
  });
  buildMenu(app.ui, app.game, msg);
  app.seat = new SeatStore(tabStorage(), app.game.name);
  showRejoin();
  if (/\/r\/[^/]+\/?$/.test(location.pathname) && app.screen === "menu") $("join-room").focus();
  viewLoaded();
}

async function start(msg) {
  menuError("");
  app.replay = null;
  await viewReady;
  app.model = newModel();
  try {
    const conn = await connection();
    conn.forget();
    return conn.send(msg);
  } catch {
    menuError("Cannot reach the server.");
    return null;
  }
}

// -- a kept seat (js/seat.js; issue 26, item 7) ---------------------------------------------

function tabStorage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  } // storage disabled: keep nothing
}

/** The menu's "Rejoin your match", shown while this tab keeps a seat. */
function showRejoin(words) {
  const seat = app.seat.load();
  $("rejoin-box").hidden = !seat;
  if (seat) $("rejoin-text").textContent = words || `You still have ${describeSeat(seat)}.`;
}

/** Take the kept seat back: `resume` with its token and its room's code. */
async function rejoin() {
  const seat = app.seat.load();
  if (!seat) {
    showRejoin();
    return;
  }
  showRejoin(`Rejoining ${describeSeat(seat)}…`);
  app.mouseSeat = seat.mouseSeat || seat.seats[0];
  app.resumeRef = null;
  app.resumeRef = await start(resumeMessage(seat));
}

/** The kept seat's `resume` was refused (its grace ran out, its room is gone): forget it. */
function keptSeatGone(msg) {
  app.resumeRef = null;
  roomGone(`Your match could not be taken back: ${msg.message || msg.code}.`); // and forgotten
}

function leaveToMenu() {
  if (app.conn && app.screen === "game") app.conn.send({ type: "leave" });
  toMenu();
}

/** The room is gone: closed, lost with the server process that hosted it, or ended by a
 *  server shutting down (docs/protocol.md, "More than one process"). Back to the menu
 *  (nothing to `leave`), with the server's words in its error line. */
function roomGone(text) {
  toMenu();
  menuError(text);
}

function toMenu() {
  if (app.conn) app.conn.forget();
  app.seat.clear(); // left, or the room is gone: nothing to take back
  showRejoin();
  app.replay = null;
  if (app.ui) {
    app.model = newModel();
    app.input.configure([]);
  }
  show("menu");
}

// -- forms --------------------------------------------------------------------------------

$("form-bot").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  app.mouseSeat = f.get("symbol");
  start({ type: "create", mode: "bot", bot: f.get("level"), symbol: f.get("symbol") });
});
$("form-local").addEventListener("submit", (e) => {
  e.preventDefault();
  app.mouseSeat = new FormData(e.target).get("mouse");
  start({ type: "create", mode: "local" });
});
$("form-online").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const msg = { type: "create", mode: "online", symbol: f.get("symbol") };
  if (f.get("name")) msg.name = f.get("name");
  start(msg);
});
function roomCode() {
  const code = $("room-code").value.trim();
  if (!code) {
    menuError("Type the room code first.");
    return null;
  }
  return code;
}
$("join-room").addEventListener("click", () => {
  const code = roomCode();
  if (!code) return;
  const msg = { type: "join", code };
  if ($("online-name").value.trim()) msg.name = $("online-name").value.trim();
  start(msg);
});
$("rejoin").addEventListener("click", rejoin);
$("watch-room").addEventListener("click", () => {
  const code = roomCode();
  if (code) start({ type: "watch", code });
});
$("form-replay").addEventListener("submit", async (e) => {
  e.preventDefault();
  const id = $("replay-id").value.trim();
  if (!id) {
    menuError("Type a replay id, or open a file.");
    return;
  }
  openReplay(() => fetchReplay(id));
});
$("replay-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file) openReplay(async () => replayFromFile(await file.text()));
});

async function openReplay(load) {
  menuError("");
  try {
    const data = await load();
    await viewReady;
    app.replay = new ReplayPlayer(data, newModel);
    app.input.configure([]);
    $("room-box").hidden = true;
    show("replay");
    keysHelp();
    syncReplayButtons();
  } catch (err) {
    menuError(`Cannot open the replay: ${err.message}`);
  }
}

// -- in the game --------------------------------------------------------------------------

$("btn-leave").addEventListener("click", leaveToMenu);
$("btn-menu").addEventListener("click", leaveToMenu);
$("btn-rematch").addEventListener("click", rematch);
$("start-bots").addEventListener("click", () => {
  if (app.conn) app.conn.send({ type: "start", bot: $("bot-level").value }); // the bot card's level
});
$("copy-link").addEventListener("click", async () => {
  const link = $("room-link").value;
  try {
    await navigator.clipboard.writeText(link);
    say("Link copied.");
  } catch {
    $("room-link").select();
    say("Select and copy the link.");
  }
});
$("btn-help").addEventListener("click", () => $("help").showModal());

function rematch() {
  if (app.replay) {
    app.replay.seek(0);
    app.replay.playing = true;
    syncReplayButtons();
    return;
  }
  if (app.conn && app.model.phase === "over" && app.model.role === "player") {
    app.rematchRef = app.conn.send({ type: "rematch", agree: true });
    say(`Rematch asked: waiting for the other player${app.game.seats.length > 2 ? "s" : ""}.`);
  }
}

$("rp-play").addEventListener("click", () => {
  app.replay.toggle();
  syncReplayButtons();
});
$("rp-step").addEventListener("click", () => {
  app.replay.playing = false;
  app.replay.step();
  syncReplayButtons();
});
$("rp-back").addEventListener("click", () => {
  app.replay.playing = false;
  app.replay.back();
  syncReplayButtons();
});
for (const b of document.querySelectorAll(".speed")) {
  b.addEventListener("click", () => {
    app.replay.setSpeed(Number(b.dataset.speed));
    for (const o of document.querySelectorAll(".speed")) {
      o.classList.toggle("on", o === b);
      o.setAttribute("aria-pressed", String(o === b));
    }
  });
}
function syncReplayButtons() {
  if (!app.replay) return;
  const word = app.replay.playing ? "Pause" : "Play";
  $("rp-play")
    .querySelector("use")
    .setAttribute("href", app.replay.playing ? "#i-pause" : "#i-play");
  $("rp-play").querySelector("span").textContent = word;
  $("rp-play").setAttribute("aria-label", word);
}

const isTyping = () => {
  const a = document.activeElement;
  return (a && (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA")) || $("help").open;
};

window.addEventListener("keydown", (e) => {
  if (isTyping() || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "h" || e.key === "?") {
    $("help").showModal();
    e.preventDefault();
  } else if (e.key === "r" && app.screen !== "menu") rematch();
  else if (app.replay && (e.key === "p" || e.key === "k")) {
    app.replay.toggle();
    syncReplayButtons();
  } else if (app.replay && e.key === ".") {
    app.replay.playing = false;
    app.replay.step();
    syncReplayButtons();
  } else if (app.replay && e.key === ",") {
    app.replay.playing = false;
    app.replay.back();
    syncReplayButtons();
  }
});

function keysHelp() {
  const html = app.replay
    ? "<b>Replay</b>: P pause/play, “.” step forward, “,” step back."
    : app.ui.controlsHelp(app.input.seats);
  $("keys-help").innerHTML = `<div>${html}</div>`;
}

// -- drawing ------------------------------------------------------------------------------

let paintedKey = null; // what the canvas shows now (drawIfChanged, below); null: paint

function resize() {
  const stage = canvas.parentElement;
  // A phone (the side column under the board, the page scrolling): a view that says how
  // tall its canvas must be to hold all its parts (`stageHeight`) gets that; else the CSS's.
  const column = getComputedStyle($("game")).flexDirection === "column";
  const avail = window.innerHeight - (stage.getBoundingClientRect().top + window.scrollY);
  const want = column && app.view && app.ui.stageHeight ? app.ui.stageHeight(stage.clientWidth, avail, app.view) : 0;
  stage.style.height = want ? `${Math.round(want)}px` : "";
  const dpr = window.devicePixelRatio || 1;
  const w = stage.clientWidth,
    h = stage.clientHeight;
  if (!w || !h) return;
  paintedKey = null; // a canvas given a size is blank: paint it again
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (app.view) app.lay = app.ui.layoutFor(w, h, app.view);
}
window.addEventListener("resize", resize);
// A canvas whose pixels the browser dropped (a tab in the background, its 2D context
// lost and restored) is blank: paint it again, still board or not.
canvas.addEventListener("contextrestored", () => {
  paintedKey = null;
});
document.addEventListener("visibilitychange", () => {
  paintedKey = null;
});

let lastFrame = performance.now();
const dom = {};
function setText(id, text) {
  if (dom[id] !== text) {
    dom[id] = text;
    $(id).textContent = text;
  }
}
function setHTML(id, html) {
  if (dom[id + "#"] !== html) {
    dom[id + "#"] = html;
    $(id).innerHTML = html;
  }
}

// The canvas is painted again only when the picture can have changed: the view, the
// cursors, the hover or the canvas differ from the last painted, or the view module says
// its picture moves on its own (`animating(view, now)`: a pulse, a resolution's
// animation). A still board then costs the page no painting at all: a phone's battery,
// and the CPU of the browser tests (several pages of a still board at 60 frames a second
// kept a core busy; issue 27, CI item).
// The last paint was of a moving picture: the frame `animating` turns false is painted
// too (a paused replay's step ends on the page's clock alone, the view unchanged: else
// the picture stayed one frame short of its end, a collision's ring on the board).
let paintedMoving = false;
function drawIfChanged(view, now) {
  const cursors = app.input.cursorList();
  const hover = app.input.hover;
  // The view's clock `t` alone is no change: what the clock moves on the board is in the
  // view's other fields (a ring, a fade), or the module says `animating`. Nor is the
  // countdown before a round: the banner shows it, in the page; no view draws it (it
  // changed every frame, and a still board was painted in every frame of a countdown).
  const key = JSON.stringify([{ ...view, t: null, countdown: null }, cursors, hover, canvas.width, canvas.height]);
  const moving = !!(app.ui.animating && app.ui.animating(view, now));
  if (key === paintedKey && !moving && !paintedMoving) return;
  paintedKey = key;
  paintedMoving = moving;
  app.paints += 1; // the browser tests count paints against frames
  app.ui.draw(ctx, view, app.lay, { cursors, hover, now });
}

function frame(now) {
  app.frames += 1;
  const dt = Math.min(250, now - lastFrame);
  lastFrame = now;
  if (app.screen !== "menu" && app.ui) {
    let view, model;
    if (app.replay) {
      app.replay.tick(dt);
      model = app.replay.model;
      view = app.replay.view();
      $("rp-progress").value = app.replay.progress();
    } else {
      model = app.model;
      const serverNow = app.conn ? app.conn.serverNow() : Date.now();
      view = model.view(model.nowT(serverNow), serverNow);
    }
    app.view = view;
    if (!app.lay || app.lay.size !== view.size || (app.ui.layoutFits && !app.ui.layoutFits(app.lay, view))) resize();
    if (app.lay) drawIfChanged(view, now);
    updateDom(view, model);
  }
  requestAnimationFrame(frame);
}

function banner(view, model) {
  if (view.result)
    return [
      app.ui.describeMatch(view.result),
      app.replay ? "Replay over · R to watch again" : model.role === "player" ? "Rematch? (R)" : "",
    ];
  if (view.phase === "waiting") {
    const free = model.freeSeats().length;
    return [free > 1 ? `Waiting for ${free} players` : "Waiting for a friend", "Share the room code or link"];
  }
  if (view.roundEnd) {
    const next = view.countdown !== null ? `Round ${view.round + 1} in ${Math.ceil(view.countdown)} s` : "";
    return [app.ui.describeRound(view.roundEnd), next];
  }
  if (view.phase === "countdown" && view.countdown !== null)
    return [`Get ready: ${Math.max(1, Math.ceil(view.countdown))}`, mineText(view)];
  return null;
}

/** A dropped player's grace, counted down (docs/protocol.md, `presence`: `grace_until`,
 *  server clock ms): "Opponent disconnected: 12 s to return". */
function graceText(model) {
  const serverNow = app.conn ? app.conn.serverNow() : Date.now();
  const mine = model.mySeats();
  for (const seat of app.game.seats) {
    const p = model.players && model.players[seat];
    if (!p || mine.includes(seat) || p.connected !== false || !p.grace_until) continue;
    const left = secondsLeft(p.grace_until, serverNow);
    return `${mine.length ? "Opponent" : p.name || seat} disconnected: ${left} s to return`;
  }
  return "";
}

function mineText(view) {
  const seats = view.seatNames || app.game.seats;
  if (view.mine.length === 1) {
    const others = seats.filter((s) => s !== view.mine[0]).map((s) => view.players[s].name);
    return `You play ${view.mine[0]} against ${listed(others)}`;
  }
  if (view.mine.length > 1) return `Local match: ${listed(seats)} on one screen`;
  return "Spectating";
}

function updateDom(view, model) {
  document.body.dataset.phase = view.phase;
  document.body.dataset.round = String(view.round);
  const b = banner(view, model);
  const el = $("banner");
  el.hidden = !b;
  if (b) setHTML("banner", `${escapeHtml(b[0])}${b[1] ? `<span class="sub">${escapeHtml(b[1])}</span>` : ""}`);
  $("room-waiting").hidden = view.phase !== "waiting";
  // The host may start a room still filling, bots in the free seats (issue 25, `start`).
  const free = view.phase === "waiting" && model.host && !app.replay ? model.freeSeats().length : 0;
  $("start-bots").hidden = !free;
  if (free) setText("start-bots", free === 1 ? "Start now with a bot" : "Start now: bots in the free seats");
  const canRematch = (!!view.result && model.role === "player") || (!!app.replay && app.replay.done);
  $("btn-rematch").hidden = !canRematch;
  $("btn-rematch").textContent = app.replay ? "Watch again" : "Rematch";
  let status = "";
  // A rejection's words go as soon as they stop being true (the view says when: for
  // Blitz, "not charged" once the ring is gold).
  const r = app.statusReason;
  if (r && performance.now() < app.statusUntil && app.ui.reasonOver && app.ui.reasonOver(r.reason, view, r.seat)) {
    app.statusUntil = 0;
    app.statusReason = null;
  }
  if (performance.now() < app.statusUntil) status = app.status;
  else if (app.replay && app.ui.replayStatus)
    status = app.ui.replayStatus(view, { step: app.replay.next, steps: app.replay.frames.length });
  else if (app.replay) status = `Replay · round ${view.round} · ${(view.t / 1000).toFixed(1)} s`;
  else status = graceText(model) || `${mineText(view)}${view.spectators ? ` · ${view.spectators} watching` : ""}`;
  setText("status-line", status);
  setHTML("rounds-list", (view.rounds || []).map((r) => escapeHtml(app.ui.describeRound(r))).join("<br>"));
}

function escapeHtml(s) {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

// -- boot ---------------------------------------------------------------------------------

(async function boot() {
  // A link is {public_url}/r/{code}; a process's public URL may have a path (behind a
  // proxy, docs/server.md), so the code is the end of the path, wherever it starts.
  const room = location.pathname.match(/\/r\/([^/]+)\/?$/);
  const params = new URLSearchParams(location.search);
  show("menu");
  if (room) {
    $("room-code").value = decodeURIComponent(room[1]);
    $("join-room").focus();
  }
  try {
    await connection();
  } catch {
    menuError("Cannot reach the server.");
    requestAnimationFrame(frame);
    return;
  }
  requestAnimationFrame(frame);
  await viewReady;
  if (params.get("replay")) openReplay(() => fetchReplay(params.get("replay")));
  else if (room && params.get("watch") !== null) start({ type: "watch", code: $("room-code").value });
  // A reload, or a tab brought back: the seat it kept, unless its link names another room.
  else if (resumesOnLoad(app.seat.load(), room && $("room-code").value)) rejoin();
})();
