"""Blitz's view says when its picture moves on its own (``animating``, docs/client.md):
the shell (main.js ``drawIfChanged``) paints every frame only then, so a powerup's glow
or a knockable mark's target that stopped pulsing, or a still board painted every frame,
would pass every other test. Checked under Node on views of the real model, built from a
``state`` snapshot as the server sends it (tests/test_client_logic.py's ``STATE``); Rift's
path is checked in a browser (tests/test_browser_rift.py). Skipped without node (a
failure under CI=true)."""

from __future__ import annotations

import copy
import json

from node_support import JS, node_json, require_node
from server_support import welcome_of
from test_client_logic import STATE

require_node()  # skips the module without node (fails under CI=true)

BLITZ = JS / "games" / "blitz"


def animating_of(states, reduced_motion=False):
    """``animating(view, now)`` of the shell's Blitz view module (view.js), for each
    ``(state message, engine ms)``; ``reduced_motion``: the page's ``matchMedia`` says
    the player asks for less motion (view_common.js reads it once, at import)."""
    script = f"""
if (JSON.parse(process.argv[3])) {{
  globalThis.matchMedia = (query) => ({{ matches: query === "(prefers-reduced-motion: reduce)" }});
}}
const M = await import({json.dumps((BLITZ / "model.js").as_uri())});
const V = await import({json.dumps((BLITZ / "view.js").as_uri())});
const WELCOME = JSON.parse(process.argv[2]);
const out = JSON.parse(process.argv[1]).map(([state, t]) => {{
  const m = new M.GameModel(WELCOME.rules, WELCOME.game);
  m.applyState(state);
  return V.animating(m.view(t), 1000);
}});
console.log(JSON.stringify(out));
"""
    welcome = welcome_of("blitz", {})
    return node_json(script, json.dumps(states), json.dumps(welcome), json.dumps(reduced_motion))


def state(powerups=True, setting=True, seats=("X",)):
    """STATE (a live round at 5310 ms: X to play; O's mark at (2, 2) setting until 6100;
    a bomb at (3, 3) until 9400; placed marks and a crater) without its powerup, its
    setting mark, or seen from other seats."""
    s = copy.deepcopy(STATE)
    assert s["board"][2:4] == ["..o#..", "...B.."]  # the letters changed below
    if not powerups:  # the board's letter too: a letter without a timer never expires
        s["powerups"], s["board"][3] = [], "......"
    if not setting:  # "o": O's setting mark
        s["setting"], s["board"][2] = [], "...#.."
    s["you"] = {"role": "player" if seats else "spectator", "seats": list(seats)}
    return s


def test_blitz_animates_while_a_powerup_glows_or_a_knockable_mark_shows_its_target():
    cases = {
        "powerup and knockable mark": (state(), 5310),
        "powerup only": (state(setting=False), 5310),
        "knockable mark only": (state(powerups=False), 5310),
        "powerup, O's own setting mark": (state(setting=False, seats=("O",)), 5310),
        # still: placed marks, a fading crater (the view's time moves it, not the page's)
        "nothing pulses": (state(powerups=False, setting=False), 5310),
        "setting mark, not X's to knock (O sees its own)": (
            state(powerups=False, seats=("O",)),
            5310,
        ),
        "setting mark, a spectator": (state(powerups=False, seats=()), 5310),
        "the mark has set": (state(powerups=False), 6100),
    }
    got = dict(zip(cases, animating_of(list(cases.values())), strict=True))
    assert got == {
        "powerup and knockable mark": True,
        "powerup only": True,
        "knockable mark only": True,
        "powerup, O's own setting mark": True,
        "nothing pulses": False,
        "setting mark, not X's to knock (O sees its own)": False,
        "setting mark, a spectator": False,
        "the mark has set": False,
    }


def test_blitz_never_animates_under_reduced_motion():
    # The glows are drawn without a pulse then (draw.js), so nothing moves with the clock.
    assert animating_of([(state(), 5310), (state(setting=False), 5310)], True) == [False, False]
    assert animating_of([(state(), 5310)], False) == [True]  # the stub alone changes it
