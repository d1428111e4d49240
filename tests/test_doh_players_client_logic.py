"""Tic Tac Doh's browser view for three and four players (issue 25, item 5; D9, D10) under
Node: the model's seats from the rules, who is out, the words of a D9 end, the local
screen passed round (input.js ``driving``), and a panel with a row and a colour per seat.
Skipped when ``node`` is missing (a failure under CI=true)."""

from __future__ import annotations

import json

import pytest

from node_support import JS, node_json, require_node

require_node()  # skips the module without node (fails under CI=true)
pytest.importorskip("blitz_core.doh")

DOH = JS / "games" / "doh"
SEATS = ["first", "second", "third", "fourth"]


def run(body: str, data=None):
    script = f"""
globalThis.window = {{addEventListener() {{}}}};
const M = await import({json.dumps((DOH / "model.js").as_uri())});
const D = await import({json.dumps((DOH / "draw.js").as_uri())});
const I = await import({json.dumps((DOH / "input.js").as_uri())});
const DATA = JSON.parse(process.argv[1]);
const ops = [];
const ctx = new Proxy({{}}, {{
  get(t, k) {{
    if (k in t) return t[k];
    if (k === "measureText") return (s) => ({{width: 6 * String(s).length}});
    return (...a) => {{
      ops.push({{op: k, a, fillStyle: t.fillStyle, strokeStyle: t.strokeStyle}});
    }};
  }},
  set(t, k, v) {{ t[k] = v; return true; }},
}});
const out = await (async () => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script, json.dumps(data))


def test_the_seats_come_from_the_rules_players() -> None:
    out = run(
        """
      const game = {seats: ["first", "second"], display: 5};
      const three = new M.GameModel({pieces_per_size: 5, grid: 3, players: 3}, game);
      const two = new M.GameModel({pieces_per_size: 5, grid: 3}, game);
      const grown = new M.GameModel({pieces_per_size: 5, grid: 3, players: 2}, game);
      grown.setRules({pieces_per_size: 5, grid: 3, players: 4});
      return {three: three.seatNames, two: two.seatNames, four: grown.seatNames,
              players: Object.keys(grown.view(0).players)};
    """
    )
    assert out["three"] == ["first", "second", "third"]
    assert out["two"] == ["first", "second"]  # no players rule: the server's seats
    assert out["four"] == out["players"] == ["first", "second", "third", "fourth"]


def test_a_stuck_table_puts_every_other_seat_out_and_the_last_mover_wins() -> None:
    out = run(
        """
      const m = new M.GameModel({pieces_per_size: 5, grid: 3, players: 3},
                                {seats: ["first", "second", "third"], display: 5});
      m.role = "player"; m.seats = ["second"]; m.phase = "live";
      m.applyEvents({seq: 1, events: [{kind: "move", seat: "second", piece: "S", cell: [2, 2]},
                    {kind: "end", result: "second", by: "no_move", lines: [],
                     out: ["third", "first"]}],
                    to_move: null, result: "second", by: "no_move", out: ["third", "first"],
                    squares: [{cell: [2, 2], content: "S", counts: ["S"]}]});
      const v = m.view(0);
      return {out: v.out, flags: v.seatNames.map((s) => v.players[s].out),
              end: M.describeEnd(v.end),
              match: M.describeMatch({result: "second", by: "rounds", end: "no_move", out: v.out}),
              two: M.describeEnd({result: "first", by: "no_move", out: ["second"]}),
              left: M.describeMatch({result: "draw", by: "abandoned", forfeited_by: "third"})};
    """
    )
    assert out["out"] == ["third", "first"] and out["flags"] == [True, False, True]
    assert out["end"] == out["match"] == "Second wins: the others are out: no legal move"
    assert out["two"] == "First wins: the other player has no legal move"  # 2 players: as before
    assert out["left"] == "Game abandoned: third left"


def test_a_local_screen_of_four_is_played_by_whoever_is_to_move() -> None:
    out = run(
        """
      let view = {toMove: "third", mine: ["first", "second", "third", "fourth"], myTurn: true,
                  squares: [{cell: [2, 2], content: "L", counts: ["L"]}],
                  stash: {S: 5, M: 5, L: 4}, legal: {S: [[2, 2]], M: [[2, 2]], L: [[1, 1]]}};
      const sent = [];
      const input = new I.Input({canvas: {addEventListener() {}}, getView: () => view,
                                 getLayout: () => null,
                                 act: (seat, intent) => sent.push([seat, intent])});
      input.configure(view.mine, "first");
      input.fire(input.now().mouse, [1, 1]);
      view = {...view, toMove: "fourth"};
      const fourth = input.now();
      const cursors = input.cursorList().map((c) => c.seat);
      return {sent, fourth, cursors, turns: input.seats.turns,
              none: I.driving({turns: ["first", "second", "third"]}, null),
              pair: I.driving({mouse: "first", keyboard: "second"}, "second")};
    """
    )
    assert out["sent"] == [["third", {"piece": "L", "cell": [1, 1]}]]
    assert out["fourth"] == {"mouse": "fourth", "keyboard": "fourth"}
    assert out["cursors"] == ["fourth"] and out["turns"] == ["first", "second", "third", "fourth"]
    assert out["none"] == {"mouse": "first", "keyboard": "first"}
    assert out["pair"] == {"mouse": "first", "keyboard": "second"}  # two players: as before


@pytest.mark.parametrize("size", [(390, 700), (1280, 700), (844, 390)])
def test_four_seat_rows_each_in_its_colour_fit_the_panel(size) -> None:
    out = run(
        """
      const [w, h] = DATA;
      const seats = ["first", "second", "third", "fourth"];
      const players = {};
      seats.forEach((s, i) => { players[s] = {seat: s, index: i, name: s, connected: true,
        toMove: s === "second", mine: s === "first", rematch: false, out: s === "fourth",
        free: false}; });
      const view = {size: 5, squares: [], stash: {S: 5, M: 5, L: 5}, legal: {S: [], M: [], L: []},
        box: null, last: {seat: "third", cell: [2, 2]}, lines: [], end: null, toMove: "second",
        myTurn: false, mine: ["first"], mode: "online", seatNames: seats, players};
      const stage = D.stageHeight(w, h, view);
      const lay = D.layout(w, stage, 5, 4);
      D.drawGame(ctx, view, lay, {cursors: []});
      const dots = ops.filter((o) => o.op === "arc").map((o) => o.fillStyle);
      const texts = ops.filter((o) => o.op === "fillText").map((o) => String(o.a[0]));
      const ticks = ops.filter((o) => o.op === "stroke").map((o) => o.strokeStyle);
      return {rows: lay.seats, stash: lay.stash[0], panel: lay.panel, status: lay.status, h: stage,
              dots, texts, ticks, colors: D.SEAT_COLORS};
    """,
        list(size),
    )
    rows = out["rows"]
    assert len(rows) == 4
    for upper, lower in zip(rows, rows[1:], strict=False):
        assert upper["y"] + upper["h"] <= lower["y"]  # no two rows overlap
    assert rows[-1]["y"] + rows[-1]["h"] <= out["stash"]["y"]  # nor the stash
    assert out["status"]["y"] + out["status"]["h"] <= out["h"] + 0.5  # the hint is on the canvas
    colors = out["colors"]
    assert [c for c in out["dots"] if c in colors.values()][:4] == [
        colors[s] for s in ("first", "second", "third", "fourth")
    ]
    assert colors["third"] in out["ticks"]  # the last move's ticks: its mover's colour
    assert "◀ to move" in out["texts"] and "out" in out["texts"]
    assert [t for t in out["texts"] if t in ("1", "2", "3", "4")] == ["1", "2", "3", "4"]


def test_the_model_follows_a_real_four_player_game_frame_by_frame() -> None:
    from tictacblitz.games import load_game
    from tictacblitz.games.doh.bots import make_bot
    from tictacblitz.server.games.doh.table import replay_frames

    game = load_game("doh", {"players": 4})
    bots = [make_bot("random", seed) for seed in range(4)]
    state = game.new_state(record=True)
    while not state.is_over():  # turns round the four seats (D10)
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state.clone(), seat))
    data = replay_frames(game, state.to_replay())
    out = run(
        """
      const m = new M.GameModel(DATA.rules, {seats: ["first", "second"], display: 5});
      m.role = "player"; m.seats = ["third"]; m.phase = "live";
      const seen = [];
      for (const f of DATA.frames) {
        m.applyEvents(f);
        const v = m.view(m.nowT());
        seen.push({toMove: v.toMove, myTurn: v.myTurn, rows: Object.keys(v.players).length,
                   out: v.out, squares: v.squares});
      }
      return seen;
    """,
        data,
    )
    frames = data["frames"]
    assert len(out) == len(frames) and all(v["rows"] == 4 for v in out)
    for got, frame in zip(out, frames, strict=True):
        assert got["squares"] == frame["squares"] and got["out"] == frame["out"]
        assert got["toMove"] == frame["to_move"] and got["myTurn"] == (frame["to_move"] == "third")
    assert [f["to_move"] for f in frames[:-1]] == [
        SEATS[(i + 1) % 4] for i in range(len(frames) - 1)
    ]
