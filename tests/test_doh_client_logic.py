"""Tic Tac Doh's browser view logic under Node (static/js/games/doh/model.js, input.js's
key map), fed with the server's own welcome and the frames of a real game
(``server/games/doh/table.replay_frames``). Skipped when ``node`` is missing (a failure under
CI=true, where .ci/run installs it)."""

from __future__ import annotations

import json

import pytest

from node_support import JS, node_json, require_node
from server_support import welcome_of

require_node()  # skips the module without node (fails under CI=true)
pytest.importorskip("blitz_core.doh")

DOH = JS / "games" / "doh"


def _welcome() -> dict:
    return welcome_of("doh")


def _frames() -> dict:
    from tictacblitz.games import load_game
    from tictacblitz.games.doh.bots import make_bot
    from tictacblitz.games.play import play_out
    from tictacblitz.server.games.doh.table import replay_frames

    game = load_game("doh")
    bots = (make_bot("medium", 4), make_bot("greedy", 4))
    return replay_frames(game, play_out(game.new_state(record=True), bots).to_replay())


def run_js(body: str, data=None):
    script = f"""
const M = await import({json.dumps((DOH / "model.js").as_uri())});
const RP = await import({json.dumps((JS / "replay.js").as_uri())});
const DATA = JSON.parse(process.argv[1]);
const WELCOME = JSON.parse(process.argv[2]);
const model = () => new M.GameModel(WELCOME.rules, WELCOME.game);
const out = await (async () => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script, json.dumps(data), json.dumps(_welcome()))


def test_the_model_follows_a_real_game_frame_by_frame() -> None:
    data = _frames()
    out = run_js(
        """
      const m = model();
      m.role = "player"; m.seats = ["first"]; m.phase = "live";
      const seen = [];
      for (const f of DATA.frames) {
        m.applyEvents(f);
        const v = m.view(m.nowT());
        seen.push({ply: v.ply, squares: v.squares, toMove: v.toMove, myTurn: v.myTurn,
                   legalS: v.legal.S.length, stash: v.stash, end: v.end && v.end.by});
      }
      return {seen, match: M.describeMatch({result: DATA.match, by: "rounds"}),
              end: M.describeEnd(m.end)};
    """,
        data,
    )
    frames = data["frames"]
    assert len(out["seen"]) == len(frames)
    for got, frame in zip(out["seen"], frames, strict=True):
        assert got["ply"] == frame["ply"] and got["squares"] == frame["squares"]
        assert got["stash"] == frame["stash"]
        if frame["to_move"] == "first":
            assert got["myTurn"] and got["legalS"] == len(frame["legal"]["S"])
        else:
            assert not got["myTurn"] and got["legalS"] == 0
    assert out["seen"][-1]["end"] == frames[-1]["by"]
    assert out["end"] and ("wins" in out["end"] or "Draw" in out["end"])


def test_snapshots_rejections_and_the_replay_player() -> None:
    data = _frames()
    out = run_js(
        """
      const m = model();
      const last = DATA.frames[DATA.frames.length - 1];
      m.applyState({type: "state", phase: "over", match_id: "a", seq: 9, rules: WELCOME.rules,
                    you: {role: "spectator", seats: []}, ...last,
                    players: {first: {name: "Ann", kind: "human"},
                              second: {name: "hard", kind: "bot", level: "hard"}},
                    result: {type: "match_end", result: last.result, by: "rounds", end: last.by}});
      const v = m.view(0);
      m.apply({type: "events", seq: 11, events: []});
      const rp = new RP.ReplayPlayer(DATA, () => model());
      rp.playing = true; rp.setSpeed(4);
      for (let i = 0; i < 200 && !rp.done; i++) rp.tick(250);
      return {squares: v.squares.length, result: M.describeMatch(v.result),
              names: [v.players.first.name, v.players.second.name],
              needSync: m.needSync, replayDone: rp.done, replaySquares: rp.view().squares.length,
              intent: M.intentFor({toMove: "first", mine: ["first"], squares: [{cell: [2, 2]}]},
                                  [1, 2], "first", "L"),
              none: M.intentFor({toMove: "first", mine: []}, [1, 2], "first", "L")};
    """,
        data,
    )
    assert out["squares"] == len(data["frames"][-1]["squares"])
    assert out["names"] == ["Ann", "hard"] and out["needSync"] is True
    assert out["replayDone"] and out["replaySquares"] == out["squares"]
    assert out["result"] and out["intent"] == {"piece": "L", "cell": [1, 2]} and out["none"] is None


def test_the_key_map() -> None:
    script = f"""
const I = await import({json.dumps((DOH / "input.js").as_uri())});
const alone = {{mouse: "first", keyboard: "first"}};
const local = {{mouse: "first", keyboard: "second"}};
console.log(JSON.stringify([I.keyAction("2", alone), I.keyAction("2", local),
  I.keyAction("8", local),
  I.keyAction("Enter", local), I.keyAction("f", local), I.keyAction("ArrowUp", local),
  I.keyAction("w", local), I.keyAction("x", alone), I.moveCursor([0, 4], [-1, 1], 5)]));
"""
    out = node_json(script)
    assert out[0] == {"seat": "first", "piece": "M"} and out[1] == {"seat": "second", "piece": "M"}
    assert out[2] == {"seat": "first", "piece": "M"} and out[3] == {"seat": "second", "act": True}
    assert out[4] == {"seat": "first", "act": True}
    assert out[5] == {"seat": "second", "move": [-1, 0]}
    assert out[6] == {"seat": "first", "move": [-1, 0]}
    assert out[7] is None and out[8] == [0, 4]


# A recording 2D context: every call and property set, in order (the drawing's order).
MOCK_CTX = """
const ops = [];
const ctx = new Proxy({}, {
  get(t, k) {
    if (k in t) return t[k];
    if (k === "measureText") return (s) => ({width: 6 * String(s).length});
    return (...a) => { ops.push({op: k, a, strokeStyle: t.strokeStyle, font: t.font}); };
  },
  set(t, k, v) { t[k] = v; return true; },
});
"""


def run_draw(body: str):
    script = f"""
const D = await import({json.dumps((DOH / "draw.js").as_uri())});
const M = await import({json.dumps((DOH / "model.js").as_uri())});
{MOCK_CTX}
const out = await (async () => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script)


# A view at the end of a game won on the diagonal through a nest (issue 26, item 10).
VIEW = """
const player = (seat, i) => ({seat, index: i, name: seat, connected: true, toMove: false,
  mine: false, rematch: false});
const view = (extra) => ({size: 5, squares: [
    {cell: [1, 1], content: "L", counts: ["L"]}, {cell: [2, 2], content: "SML", counts: ["L"]},
    {cell: [3, 3], content: "L", counts: ["L"]}],
  stash: {S: 4, M: 4, L: 2}, legal: {S: [], M: [], L: []}, box: null, last: null,
  lines: [[[1, 1], [2, 2], [3, 3]]], end: {result: "first", by: "line"}, toMove: null,
  myTurn: false, mine: [], mode: "replay", seatNames: ["first", "second"],
  players: {first: player("first", 0), second: player("second", 1)}, ...extra});
const lay = D.layout(400, 640, 5);
"""


def test_the_winning_stroke_is_under_the_nest_label_and_chips() -> None:
    out = run_draw(
        VIEW
        + """
    D.drawGame(ctx, view({}), lay, {cursors: []});
    const stroke = ops.findIndex((o) => o.op === "stroke" && o.strokeStyle === D.COLORS.line);
    const label = ops.findIndex((o) => o.op === "fillText" && o.a[0] === "nest");
    const chip = ops.findIndex((o) => o.op === "fillText" && o.a[0] === "S");
    return {stroke, label, chip};
    """
    )
    assert out["stroke"] >= 0 and out["label"] >= 0
    assert out["label"] > out["stroke"] and out["chip"] > out["stroke"], out


def test_the_hint_line_words() -> None:
    out = run_draw(
        VIEW
        + """
    const texts = (v, ui) => { ops.length = 0; D.drawGame(ctx, v, lay, ui);
      return ops.filter((o) => o.op === "fillText").map((o) => String(o.a[0])); };
    const live = {lines: [], end: null, toMove: "second", mode: "bot", mine: ["first"]};
    const one = texts(view({...live, toMove: "first", myTurn: true,
                            legal: {S: [], M: [], L: [[0, 0]]}}),
                      {cursors: [{seat: "first", hand: "L", cell: null}]});
    const replay = texts(view({...live, mode: "replay", mine: []}), {cursors: []});
    const waiting = texts(view(live), {cursors: [{seat: "first", hand: "L", cell: null}]});
    return {one, replay, waiting};
    """
    )
    assert "large in hand: 1 square (dashed)" in out["one"], out["one"]
    assert "Second to move" in out["replay"], out["replay"]
    assert not any("thinking" in t for t in out["replay"]), out["replay"]
    assert "second is thinking…" in out["waiting"], out["waiting"]


def test_an_empty_board_takes_the_first_piece_anywhere_and_out_of_turn_is_sent() -> None:
    out = run_draw(
        """
    const empty = {squares: [], legal: {S: [[2, 2]], M: [[2, 2]], L: [[2, 2]]}, toMove: "first",
                   myTurn: true, mine: ["first"]};
    const later = {squares: [{cell: [2, 2], content: "L", counts: ["L"]}],
                   legal: {S: [], M: [], L: []},
                   toMove: "second", myTurn: false, mine: ["first"]};
    return {corner: M.intentFor(empty, [0, 4], "first", "L"),
            outOfTurn: M.intentFor(later, [1, 1], "first", "S"),
            spectator: M.intentFor({...later, mine: []}, [1, 1], "second", "S"),
            target: M.targetOf(later, "S", [1, 1])};
    """
    )
    # D2/D3: the first piece goes anywhere; the display frame puts it at the centre.
    assert out["corner"] == {"piece": "L", "cell": [2, 2]}
    # Sent for the server's "Not your turn." (docs/doh.md), not dropped.
    assert out["outOfTurn"] == {"piece": "S", "cell": [1, 1]}
    assert out["spectator"] is None and out["target"] == [1, 1]


def test_the_piece_in_hand_starts_large_not_the_losing_medium() -> None:
    script = f"""
globalThis.window = {{addEventListener() {{}}}};
const I = await import({json.dumps((DOH / "input.js").as_uri())});
const canvas = {{addEventListener() {{}}}};
const input = new I.Input({{canvas, getView: () => null, getLayout: () => null, act() {{}}}});
input.configure(["first"]);
console.log(JSON.stringify(input.hand("first")));
"""
    out = node_json(script)
    # docs/doh.md: the solver values a first M as a loss for the first player.
    assert out == "L"
