"""The browser client's pure logic under Node: the shell's replay.js and clock.js, and the
Blitz view's model.js and input.js (static/js/games/blitz/).

Each test runs a small ES-module script that imports the client's own modules and
prints JSON; Python checks it. Skipped when ``node`` is missing. The rules and the
game's vocabulary come from the server's own ``welcome`` (the client has no copy of
them); the events fed in are
the engine's own (``Event.to_dict()`` from a real match, via
``tictacblitz.server.games.blitz.replay.scenario_frames``), so the view model is checked
against what the server really sends.
"""

from __future__ import annotations

import json

import pytest

from node_support import JS, node_json, require_node
from server_support import welcome_of

require_node()  # skips the module without node (fails under CI=true)

BLITZ = JS / "games" / "blitz"


def welcome(**rules) -> dict:
    """What the server says first: its rules and its game (seats, powerup kinds)."""
    return welcome_of("blitz", rules)


def run_js(body: str, data=None, welcome_message=None):
    """Run ``body`` (an async function body with ``S`` = the Blitz model.js, ``C`` =
    clock.js, ``RP`` = replay.js, ``DATA`` = data, ``WELCOME`` = the server's welcome,
    ``model(rules)`` = a fresh Blitz model) and return what it returns, as JSON."""
    script = f"""
const S = await import({json.dumps((BLITZ / "model.js").as_uri())});
const C = await import({json.dumps((JS / "clock.js").as_uri())});
const RP = await import({json.dumps((JS / "replay.js").as_uri())});
const DATA = JSON.parse(process.argv[1]);
const WELCOME = JSON.parse(process.argv[2]);
const model = (rules) => new S.GameModel(rules || WELCOME.rules, WELCOME.game);
const out = await (async () => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script, json.dumps(data), json.dumps(welcome_message or welcome()))


def run_input(body: str):
    # input.js imports draw.js, which needs no DOM at import time.
    script = f"""
const I = await import({json.dumps((BLITZ / "input.js").as_uri())});
const out = (() => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script)


STATE = {
    "type": "state",
    "room": "7XK2M9QF4T",
    "mode": "online",
    "match_id": "m1",
    "phase": "live",
    "seq": 12,
    "round": 2,
    "t": 5310,
    "epoch_ms": 1_000_000.0,
    "resume_at": None,
    "you": {"role": "player", "seats": ["X"]},
    "board": ["......", "..X...", "..o#..", "...B..", "......", "X....."],
    "setting": [{"cell": [2, 2], "player": "O", "until": 6100}],
    "craters": [{"cell": [2, 3], "until": 6900}],
    "powerups": [{"cell": [3, 3], "powerup": "bomb", "until": 9400}],
    "players": {
        "X": {
            "name": "Ann",
            "kind": "human",
            "level": None,
            "connected": True,
            "grace_until": None,
            "charge_full": False,
            "charge_progress": 0.5,
            "charge_ready_t": 5510,
            "marks": 8,
            "next_to_retire": [5, 0],
            "frozen": False,
            "hasted": True,
            "frozen_until": None,
            "hasted_until": 7310,
            "round_wins": 1,
        },
        "O": {
            "name": "medium",
            "kind": "bot",
            "level": "medium",
            "connected": True,
            "grace_until": None,
            "charge_full": True,
            "charge_progress": 1.0,
            "charge_ready_t": 5310,
            "marks": 1,
            "next_to_retire": None,
            "frozen": True,
            "hasted": False,
            "frozen_until": 8310,
            "hasted_until": None,
            "round_wins": 0,
        },
    },
    "round_wins": {"X": 1, "O": 0},
    "rounds": [
        {
            "round": 1,
            "result": "X",
            "by": "line",
            "end_t": 8200,
            "line": [[0, 0], [1, 1], [2, 2], [3, 3]],
        }
    ],
    "result": None,
    "rematch": {"X": False, "O": False},
    "spectators": 2,
}


def test_state_snapshot_to_view_with_timers():
    out = run_js(
        """
      const m = model(); m.applyState(DATA);
      const at = (t) => m.view(t);
      const cell = (v, r, c) => v.cells[r * 6 + c];
      const v0 = at(5310), v1 = at(5510), v2 = at(6100), v3 = at(8000);
      return {
        setting0: cell(v0, 2, 2), crater0: cell(v0, 2, 3).crater, pow0: cell(v0, 3, 3).powerup,
        set: cell(v0, 1, 2), faded: cell(v0, 5, 0).faded,
        chargeX: [v0.players.X.charge, at(5410).players.X.charge, v1.players.X.charge, v1.players.X.full],
        settingAtEnd: cell(v2, 2, 2).setting, craterLate: cell(v3, 2, 3).crater,
        hasted: [v0.players.X.hasted, v3.players.X.hasted], frozenO: v0.players.O.frozen,
        pips: [v0.players.X.roundWins, v0.players.O.roundWins], timeFrac: v0.timeFrac,
        nowT: [m.nowT(1_000_000 + 5000), m.nowT(1_000_000 + 6000), m.nowT(1_000_000 + 99999)],
      };
    """,  # noqa: E501
        STATE,
    )
    s = out["setting0"]
    assert s["mark"] == "O" and s["setting"] and s["knockable"]  # R9: X may knock it out
    assert s["setProgress"] == pytest.approx((5310 - 4500) / 1600)
    assert out["crater0"]["left"] == pytest.approx((6900 - 5310) / 2000)  # fading over 2 s
    assert out["pow0"]["kind"] == "bomb" and out["pow0"]["left"] == pytest.approx(
        (9400 - 5310) / 6000
    )
    assert out["set"]["mark"] == "X" and not out["set"]["setting"] and not out["set"]["knockable"]
    assert out["faded"] is True  # R12's next mark
    assert out["chargeX"][0] == pytest.approx(0.5) and out["chargeX"][1] == pytest.approx(0.75)
    assert out["chargeX"][2] == 1 and out["chargeX"][3] is True
    assert out["settingAtEnd"] is False and out["craterLate"] is None
    assert out["hasted"] == [True, False] and out["frozenO"] is True
    assert out["pips"] == [1, 0]
    assert out["timeFrac"] == pytest.approx((45000 - 5310) / 45000)
    assert out["nowT"] == [5310, 6000, 45000]  # never back, never past


def test_real_match_frames_drive_the_board():
    from tictacblitz.server.games.blitz.replay import scenario_frames

    scenario = {
        "rules": {"powerup_max": 0, "rounds_to_win": 1},
        "seed": 3,
        "script": [
            {"t": 0, "player": "X", "place": [0, 0]},
            {"t": 0, "player": "O", "place": [3, 3]},
            {"t": 500, "player": "X", "place": [0, 1]},
            {"t": 600, "player": "X", "knockout": [3, 3]},  # not charged yet: rejected
            {"t": 1000, "player": "X", "place": [0, 2]},
            {"t": 1500, "player": "X", "knockout": [3, 3]},  # still setting (sets at 1600)
            {"t": 2200, "player": "X", "place": [0, 3]},  # knock-out refill: 700 ms
        ],
    }
    data = scenario_frames(scenario)
    assert data["match"] == "X"
    out = run_js(
        """
      const m = model(DATA.rules); m.role = 'player'; m.seats = ['O'];
      const snaps = {};
      for (const f of DATA.frames) {
        m.applyEvents(f);
        if (f.t === 1500) { const v = m.view(1500); snaps.ko = { crater: v.cells[3*6+3].crater, tally: m.tally['knocked_out:X'] }; }
        if (f.t === 2200) { const v = m.view(2200); snaps.k = v.cells[3].knockable; snaps.charge = v.players.X.charge; }
      }
      const v = m.view(m.nowT(0));
      return { snaps, end: v.roundEnd, line: v.cells.filter((c) => c.inLine).map((c) => [c.row, c.col]),
               wins: v.players.X.roundWins, rounds: S.describeRound(m.rounds[0]),
               desc: S.describeMatch({ result: 'X', by: 'rounds', round_wins: { X: 1, O: 0 } }) };
    """,  # noqa: E501
        data,
    )
    assert out["snaps"]["ko"]["crater"]["left"] == 1 and out["snaps"]["ko"]["tally"] == 1
    assert out["snaps"]["k"] is True  # O sees X's newest setting mark as a target
    assert out["snaps"]["charge"] == 0
    assert out["end"]["result"] == "X" and out["end"]["by"] == "line"
    assert out["line"] == [[0, 0], [0, 1], [0, 2], [0, 3]]
    assert out["wins"] == 1
    assert out["rounds"] == "X wins round 1: four in a row"
    assert out["desc"] == "X wins the match 1–0"


def test_events_gap_asks_for_sync_and_old_events_are_ignored():
    out = run_js(
        """
      const m = model(); m.applyState(DATA);
      const ev = (seq, t, events) => ({ type: 'events', match_id: 'm1', seq, round: 2, t, events });
      const dup = m.applyEvents(ev(12, 5300, [{ round: 2, t: 5300, kind: 'set', player: 'O', cell: [2, 2] }]));
      const ok = m.applyEvents(ev(13, 5400, [{ round: 2, t: 5400, kind: 'placed', player: 'X', cell: [4, 4], until: 7000 }]));
      const gap1 = m.needSync;
      m.applyEvents(ev(15, 5500, [{ round: 2, t: 5500, kind: 'powerup_claimed', player: 'X', cell: [3, 3], powerup: 'bomb' }]));
      const other = m.applyEvents({ ...ev(16, 5600, []), match_id: 'old' });
      return { dup, ok, gap1, gap2: m.needSync, still: m.cells[2*6+2].setUntil, pow: m.cells[3*6+3].powerup, other };
    """,  # noqa: E501
        STATE,
    )
    assert out == {
        "dup": False,
        "ok": True,
        "gap1": False,
        "gap2": True,
        "still": 6100,
        "pow": None,
        "other": False,
    }


def test_intents_and_clock_sync():
    out = run_js(
        """
      const m = model(); m.applyState(DATA);
      const v = m.view(5400);
      const c = new C.ClockSync(); c.sample(1000, 1100, 5050); c.sample(2000, 2020, 6015); c.sample(3000, 3400, 9999);
      return {
        knock: S.intentFor(v, [2, 2], 'X'), own: S.intentFor(v, [2, 2], 'O'), place: S.intentFor(v, [0, 0], 'X'),
        crater: S.intentFor(v, [2, 3], 'X'), onSet: S.intentFor(v, [1, 2], 'O'), pow: S.intentFor(v, [3, 3], 'X'),
        offset: c.offset,
      };
    """,  # noqa: E501
        STATE,
    )
    assert out["knock"] == {"action": "knockout", "cell": [2, 2]}
    assert out["own"] is None and out["crater"] is None and out["onSet"] is None
    assert out["place"] == {"action": "place", "cell": [0, 0]}
    assert out["pow"] == {"action": "place", "cell": [3, 3]}  # R15: claim by placing
    assert out["offset"] == pytest.approx(6015 - 2010)  # the fastest round trip wins


def test_keyboard_map():
    out = run_input("""
      const local = { mouse: 'X', keyboard: 'O' }, alone = { mouse: 'X', keyboard: 'X' };
      return {
        arrowLocal: I.keyAction('ArrowUp', local), wasdLocal: I.keyAction('a', local),
        enterLocal: I.keyAction('Enter', local), fLocal: I.keyAction('F', local),
        arrowAlone: I.keyAction('ArrowLeft', alone), spaceAlone: I.keyAction(' ', alone), other: I.keyAction('q', alone),
        clampLo: I.moveCursor([0, 0], [-1, 0], 6), clampHi: I.moveCursor([5, 5], [0, 1], 6),
      };
    """)  # noqa: E501
    assert out["arrowLocal"] == {"seat": "O", "move": [-1, 0]}
    assert out["wasdLocal"] == {"seat": "X", "move": [0, -1]}
    assert out["enterLocal"] == {"seat": "O", "act": True}
    assert out["fLocal"] == {"seat": "X", "act": True}
    assert out["arrowAlone"] == {"seat": "X", "move": [0, -1]}
    assert out["spaceAlone"] == {"seat": "X", "act": True}
    assert out["other"] is None
    assert out["clampLo"] == [0, 0] and out["clampHi"] == [5, 5]


def test_replay_player_clock_speed_step_and_back():
    from tictacblitz.server.games.blitz.replay import scenario_frames

    scenario = {
        "rules": {"powerup_max": 0, "rounds_to_win": 2, "round_ms": 5000},
        "seed": 1,
        # X builds row 0 in both rounds, a placement every 500 ms (the refill is 450).
        "script": [
            {"t": 500 * i, "round": r, "player": "X", "place": [0, i]}
            for r in (1, 2)
            for i in range(4)
        ],
    }
    data = scenario_frames(scenario)
    assert data["match"] == "X"
    out = run_js(
        """
      const p = new RP.ReplayPlayer(DATA, model);
      const first = p.next;
      p.tick(250); const t1 = p.t;
      p.setSpeed(4); p.tick(250); const t4 = p.t;
      p.playing = false; const n = p.next; p.step(); const stepped = p.next - n;
      p.back(); const back = p.next;
      p.playing = true; let guard = 0;
      while (!p.done && guard++ < 10000) p.tick(50);
      const v = p.view();
      return { first, t1, t4, stepped, back, n, done: p.done, result: v.result && v.result.result,
               wins: v.players.X.roundWins, round: v.round, progress: p.progress() };
    """,
        data,
    )
    assert out["first"] == 0
    assert out["t1"] == 250 and out["t4"] == 1250
    assert out["stepped"] == 1 and out["back"] == out["n"]
    assert out["done"] and out["result"] == "X" and out["wins"] == 2 and out["round"] == 2
    assert out["progress"] == 1


def test_the_blitz_words_carry_the_servers_rules():
    """Tagline, help and legend say this server's numbers (no copy of the rules in JS)."""
    view = (BLITZ / "view.js").as_uri()
    body = f"""
      const V = await import({json.dumps(view)});
      const R = WELCOME.rules;
      return {{ tagline: V.tagline(R), help: V.helpHtml(R), legend: V.legend(R).map((l) => l.html) }};
    """  # noqa: E501
    default = run_js(body)
    assert default["tagline"] == (
        "Four in a row on a 6×6 board — no turns. Place whenever your charge is "
        "full; new marks take 1.6 s to set and can be knocked out until then."
    )
    assert (
        "Win three rounds" in default["help"]
        and "<b>Eight marks at most.</b> Your ninth" in default["help"]
    )
    assert "<b>45 s a round.</b>" in default["help"] and "(0.7 s)" in default["help"]
    assert "<b>Freeze</b>: your opponent recharges 2.5× slower for 3 s." in default["legend"]
    changed = run_js(
        body,
        welcome_message=welcome(
            set_ms=1200, round_ms=30000, mark_limit=6, haste_factor=3, rounds_to_win=2
        ),
    )
    assert "new marks take 1.2 s to set" in changed["tagline"]
    assert "<b>30 s a round.</b>" in changed["help"] and "Win two rounds" in changed["help"]
    assert "<b>Six marks at most.</b> Your seventh" in changed["help"]
    assert "<b>Haste</b>: you recharge 3× as fast for 4 s." in changed["legend"]


def test_a_round_ended_on_time_says_why_with_both_scores_and_not_charged_goes_when_gold():
    """R20: a timeout round names both scores and why it ended (issue 16); an empty seat
    is empty, not "ready"; the view tells the shell when "not charged" stops being true."""
    from tictacblitz.server.games.blitz.replay import scenario_frames

    data = scenario_frames(
        {
            "rules": {"round_ms": 3000, "rounds_to_win": 1, "max_rounds": 1, "powerup_max": 0},
            "seed": 1,
            "script": [
                {"t": 0, "player": "X", "place": [0, 0]},
                {"t": 100, "player": "O", "place": [5, 5]},
                {"t": 600, "player": "X", "place": [0, 1]},
                {"t": 1200, "player": "X", "place": [0, 2]},
            ],
        }
    )
    assert data["rounds"][0]["by"] == "timeout"
    view_js = json.dumps((BLITZ / "view.js").as_uri())
    out = run_js(
        f"""
      const V = await import({view_js});
      const m = model(DATA.rules);
      for (const f of DATA.frames) m.applyEvents(f);
      const v = m.view(m.nowT(0));
      const w = model(); w.applyState({{ type: 'state', phase: 'waiting', seq: 0, round: 1, t: 0, epoch_ms: 0,
        board: Array(6).fill('......'), players: {{ X: {{ name: 'Ann', kind: 'human', connected: true }},
        O: {{ name: '', kind: null, connected: false }} }}, rounds: [], round_wins: {{ X: 0, O: 0 }} }});
      const full = {{ players: {{ X: {{ full: true }}, O: {{ full: false }} }} }};
      return {{ end: S.describeRound(v.roundEnd), list: S.describeRound(m.rounds[0]),
               empty: w.view(0).players.O.empty, taken: w.view(0).players.X.empty,
               over: [V.reasonOver('not_charged', full, 'X'), V.reasonOver('not_charged', full, 'O'),
                      V.reasonOver('occupied', full, 'X')] }};
    """,  # noqa: E501
        data,
    )
    assert out["end"] == "Time up, X wins round 1: X 3 – O 1 (best open line)"
    assert out["list"] == out["end"]
    assert out["empty"] is True and out["taken"] is False
    assert out["over"] == [True, False, False]
