"""Rift & Grid's browser view logic under Node (static/js/games/rift/), fed with the
frames of a real game (``server/games/rift/wire.replay_frames``): issue 26, item 9.
The turn line at the end, both hands shown once the game is over, the caption under
the board (never over its bottom row), a greyed ability that cannot be taken in hand,
and the hover box dropped when the view passes to the other player. Skipped when
``node`` is missing."""

from __future__ import annotations

import json

import pytest

from node_support import JS, node_json, require_node
from server_support import welcome_of

require_node()  # skips the module without node (fails under CI=true)
pytest.importorskip("blitz_core.rift")

RIFT = JS / "games" / "rift"


def _welcome() -> dict:
    return welcome_of("rift")


def _frames() -> dict:
    """A whole game between two bots, as the replay viewer gets it."""
    from tictacblitz.games import load_game
    from tictacblitz.games.play import play_out
    from tictacblitz.server.games.rift.wire import replay_frames

    game = load_game("rift")
    bots = (game.make_bot("easy", 1), game.make_bot("easy", 2))
    return replay_frames(game, play_out(game.new_state(5, record=True), bots).to_replay())


def run_js(body: str, data=None):
    script = f"""
globalThis.window = {{addEventListener() {{}}}};
const M = await import({json.dumps((RIFT / "model.js").as_uri())});
const D = await import({json.dumps((RIFT / "draw.js").as_uri())});
const I = await import({json.dumps((RIFT / "input.js").as_uri())});
const DATA = JSON.parse(process.argv[1]);
const WELCOME = JSON.parse(process.argv[2]);
const ops = [];
const ctx = new Proxy({{}}, {{
  get(t, k) {{
    if (k in t) return t[k];
    if (k === "measureText") return (s) => ({{width: 6 * String(s).length}});
    return (...a) => {{ ops.push({{op: k, a}}); }};
  }},
  set(t, k, v) {{ t[k] = v; return true; }},
}});
const out = await (async () => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script, json.dumps(data), json.dumps(_welcome()))


def test_the_end_of_a_real_game_its_turn_line_hands_and_caption() -> None:
    data = _frames()
    out = run_js(
        """
      const m = new M.GameModel(WELCOME.rules, WELCOME.game);
      m.role = "spectator"; m.phase = "live";
      const last = DATA.frames[DATA.frames.length - 1];
      for (const f of DATA.frames.slice(0, -1)) m.applyEvents(f);
      const before = m.view(0);
      m.applyEvents(last);
      const v = m.view(last.t + 10);               // the last turn's animation, under way
      const lay = D.layout(390, 855, v.seatNames, v.perPlayer);
      D.drawGame(ctx, v, lay, {cursors: [], now: undefined});
      const caption = ops.find((o) => o.op === "fillText" && /^Turn \\d+:/.test(o.a[0]));
      const line = ops.find((o) => o.op === "fillText" && /^Game over/.test(o.a[0]));
      return {turns: v.turns, line: D.turnLine(v), drawn: line && line.a[0],
              caption: caption && caption.a[2], board: lay.board, box: lay.caption,
              hiddenBefore: before.players.X.publicHand.hidden,
              pub: v.seatNames.map((s) => [v.players[s].publicHand.hidden,
                                           v.players[s].publicHand.items.length])};
    """,
        data,
    )
    turns = len(data["frames"]) - 1
    assert out["turns"] == turns
    assert out["line"] == f"Game over after {turns} turns" == out["drawn"]
    # The caption sits in its strip under the board, not over the bottom row.
    board, box = out["board"], out["box"]
    assert box["y"] >= board["y"] + board["s"] and box["y"] < out["caption"] < box["y"] + box["h"]
    # Before the end some objective was hidden; the final picture shows both hands whole.
    assert out["hiddenBefore"] > 0
    assert out["pub"] == [[0, 3], [0, 3]], out["pub"]


def test_a_greyed_ability_is_not_taken_and_the_hover_goes_with_the_view() -> None:
    data = _frames()
    out = run_js(
        """
      const m = new M.GameModel(WELCOME.rules, WELCOME.game);
      m.applyJoined({room: "r", mode: "local", role: "player", seats: ["X", "O"]});
      m.phase = "live";
      m.applyEvents(DATA.frames[0]);
      const sent = [];
      const input = new I.Input({canvas: {addEventListener() {}}, getView: () => m.view(0),
                                 getLayout: () => null, act: (s, i) => sent.push([s, i])});
      input.configure(["X", "O"], "X");
      const usable = m.view(0).players.X.abilities;
      input.pick("X", "reveal");                  // 10 energy; X has the starting 5
      const afterReveal = input.picked.X, refused = input.cursorList()[0].refused;
      input.pick("X", "shield");
      const afterShield = input.picked.X;
      input.hover = 40;                            // X's pointer on the cell it picks
      input.fire("X", 40);
      return {reveal: usable.reveal.usable, shield: usable.shield.usable, afterReveal,
              refused: refused && refused.ability, afterShield, sent,
              viewing: input.viewing, hover: input.hover};
    """,
        data,
    )
    assert out["reveal"] is False and out["shield"] is True
    assert out["afterReveal"] == "none" and out["refused"] == "reveal"
    assert out["afterShield"] == "shield"
    assert out["sent"] == [["X", {"cell": 40, "ability": "shield"}]]
    assert out["viewing"] == "O" and out["hover"] is None
