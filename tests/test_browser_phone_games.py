"""Every game's whole page on a phone, upright and on its side (issue 26, item 8): at
360×640, 640×360, 390×844 and 844×390 (touch, 2× pixels) in Chromium, against a bot.

"Usable" here, checked from the layout boxes the page draws with (``window.__blitz.lay``)
and the side column's boxes:

- the page never scrolls sideways, and every part is within the viewport's width;
- every part of the canvas (the board, the caption strip, the seats' cards or rows, the
  buttons or the stash, the objectives, the score log, the hint line, the timer) lies
  inside the canvas, none overlaps another, and each is at most one viewport tall:
  scrolled to, it is wholly on screen;
- the board is wholly on screen with the page at the top (a move needs no scrolling);
- the side column's boxes (the status line with its buttons, the keys, the legend) are
  reachable by scrolling down: their top comes on screen, and the page reaches their
  bottom. A box may be taller than a landscape phone (the legend): it is read by
  scrolling.

Screenshots of each (the whole page) go to ``tests/artifacts/phone_<game>_<w>x<h>.png``.
"""

from __future__ import annotations

import pytest

import browser_support
from browser_support import Page, box_inside, boxes_overlap

browser_support.require_browser()

SIZES = [(360, 640), (640, 360), (390, 844), (844, 390)]

# The canvas parts of each game's layout, by their path in `lay` ({x, y, w, h} or {x, y, s}).
PARTS = {
    "blitz": ["board", "timer", "timerLabel", "panels.X", "panels.O"],
    "doh": ["board", "seats.0", "seats.1", "stash.0", "stash.1", "stash.2", "status"],
    # Four players (issue 25, D10): a row per seat, the stash and the hint still below.
    "doh4": [
        "board",
        "seats.0",
        "seats.1",
        "seats.2",
        "seats.3",
        "stash.0",
        "stash.1",
        "stash.2",
        "status",
    ],
    "rift": [
        "board",
        "caption",
        "tabs.0",
        "tabs.1",
        "cards.0",
        "cards.1",
        "buttons.0",
        "buttons.3",
        "objectives",
        "log",
    ],
}
CORES = {
    "blitz": "blitz_core.blitz.engine",
    "doh": "blitz_core.doh",
    "doh4": "blitz_core.doh",
    "rift": "blitz_core.rift",
}
SERVES = {"doh4": ("doh", {"players": 4})}  # a variant: (the game, its rules)

BOXES = """(parts) => {
  const c = document.getElementById('board').getBoundingClientRect();
  const sx = window.scrollX, sy = window.scrollY, L = window.__blitz.lay;
  const get = (path) => path.split('.').reduce((o, k) => o && o[k], L);
  const at = (b) => ({x: c.left + sx + b.x, y: c.top + sy + b.y, w: b.w ?? b.s, h: b.h ?? b.s});
  const dom = (el) => { const r = el.getBoundingClientRect();
    return {id: el.id || el.className, x: r.left + sx, y: r.top + sy, w: r.width, h: r.height}; };
  const out = {};
  for (const p of parts) { const b = get(p); out[p] = b ? at(b) : null; }
  return {
    vw: window.innerWidth, vh: window.innerHeight,
    pageW: document.documentElement.scrollWidth, pageH: document.documentElement.scrollHeight,
    canvas: {x: c.left + sx, y: c.top + sy, w: c.width, h: c.height}, parts: out,
    side: [...document.querySelectorAll('.side > :not([hidden])')].map(dom),
  };
}"""

SCREEN_BOX = """(b) => { window.scrollTo(0, Math.max(0, b.y - 2)); const top = window.scrollY;
  return {top: b.y - top, bottom: b.y + b.h - top, vh: window.innerHeight}; }"""


@pytest.fixture(scope="module", params=sorted(PARTS))
def game_server(request):
    game = request.param
    pytest.importorskip(CORES[game])
    name, rules = SERVES.get(game, (game, None))
    with browser_support.serve_game(name, rules, pause_ms=500, grace_ms=5_000) as url:
        yield game, url


def check_phone(p: Page, game: str, size) -> None:
    vw, vh = size
    p.page.evaluate("() => window.scrollTo(0, 0)")
    box = p.js(BOXES, PARTS[game])
    where = f"{game} at {vw}×{vh}"
    assert box["vw"] == vw and box["vh"] == vh
    assert box["pageW"] <= vw, f"{where}: the page scrolls sideways ({box['pageW']} px)"
    assert box_inside(box["canvas"], {"x": 0, "y": 0, "w": vw, "h": box["pageH"]}), box["canvas"]
    parts = box["parts"]
    for name, part in parts.items():
        assert part is not None, f"{where}: no {name} in the layout"
        assert box_inside(part, box["canvas"]), (where, name, part, box["canvas"])
        assert part["h"] <= vh, (where, name, "taller than the screen", part)
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not boxes_overlap(parts[a], parts[b]), f"{where}: {a} overlaps {b}"
    board = parts["board"]
    assert board["y"] + board["h"] <= vh, f"{where}: the board needs scrolling: {board}"
    for name, part in parts.items():  # scrolled to, each part is wholly on screen
        seen = p.js(SCREEN_BOX, part)
        assert seen["top"] >= -0.5 and seen["bottom"] <= vh + 0.5, (where, name, seen)
    ids = [el["id"] for el in box["side"]]
    assert "box status" in ids and "keys-help" in ids, ids
    for el in box["side"]:
        assert el["x"] >= -0.5 and el["x"] + el["w"] <= vw + 0.5, (where, el)
        assert el["y"] + el["h"] <= box["pageH"] + 0.5, (where, "the page ends above", el)
        seen = p.js(SCREEN_BOX, el)
        assert 0 <= seen["top"] < vh, (where, el, seen)
        if el["h"] <= vh:
            assert seen["bottom"] <= vh + 0.5, (where, el, seen)
    for button in ("#btn-leave", "#status-line"):
        p.page.locator(button).scroll_into_view_if_needed()
        b = p.page.locator(button).bounding_box()
        assert b and b["x"] >= 0 and b["x"] + b["width"] <= vw and -0.5 <= b["y"] < vh, (button, b)
    p.page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.slow
def test_every_game_whole_on_a_phone_upright_and_on_its_side(game_server, browser) -> None:
    game, url = game_server
    for size in SIZES:
        p = Page(
            browser,
            f"phone_{game}_{size[0]}x{size[1]}",
            size=size,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
        try:
            p.open(url)
            p.page.click("#play-bot")
            p.wait(
                "() => window.__blitz.view && window.__blitz.lay && "
                "window.__blitz.view.phase === 'live'"
            )
            p.page.wait_for_timeout(200)  # a frame or two after the layout: what a person sees
            check_phone(p, game, size)
            p.shot("page", full_page=True)
        finally:
            p.close()
