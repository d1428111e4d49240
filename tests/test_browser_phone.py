"""The browser client on a phone (390×844, touch): layout boxes checked, no overlap,
nothing off-screen, the legend reachable, no large gap under the board (issue 16).

Uses the server and browser of tests/test_browser.py (Debian's chromium through
Playwright; skipped without them). Screenshots go to ``tests/artifacts/``."""

from __future__ import annotations

import json

from browser_support import Page, box_inside, boxes_overlap, require_browser

require_browser()

from test_browser import LIVE, server  # noqa: E402, F401

PHONE = {"width": 390, "height": 844}


class PhonePage(Page):
    def __init__(self, chromium, name: str) -> None:
        super().__init__(
            chromium,
            name,
            size=(PHONE["width"], PHONE["height"]),
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )


# The page's layout boxes, in page CSS pixels: the canvas, and inside it (from the Blitz
# layout the page draws with) the board, the timer with its label, the two panels and
# every word drawn in a panel; the side column's boxes.
BOXES = """() => {
  const a = window.__blitz, c = document.getElementById('board').getBoundingClientRect();
  const L = a.lay, sx = window.scrollX, sy = window.scrollY;
  const at = (b) => b && ({ x: c.left + sx + b.x, y: c.top + sy + b.y, w: b.w ?? b.s, h: b.h ?? b.s });
  const dom = (el) => { const r = el.getBoundingClientRect(); return { x: r.left + sx, y: r.top + sy, w: r.width, h: r.height }; };
  return {
    vw: window.innerWidth, vh: window.innerHeight, pageW: document.documentElement.scrollWidth,
    canvas: { x: c.left + sx, y: c.top + sy, w: c.width, h: c.height },
    board: at(L.board), timer: at(L.timer), timerLabel: at(L.timerLabel),
    panels: { X: at(L.panels.X), O: at(L.panels.O) },
    labels: { X: (L.labels.X || []).map(at), O: (L.labels.O || []).map(at) },
    words: { X: (L.labels.X || []).map((b) => b.text), O: (L.labels.O || []).map((b) => b.text) },
    side: [...document.querySelectorAll('.side > :not([hidden])')].map((el) => ({ id: el.id || el.className, ...dom(el) })),
  };
}"""  # noqa: E501


def check_layout(p: PhonePage) -> dict:
    box = p.js(BOXES)
    page = {"x": 0, "y": 0, "w": box["vw"], "h": 10**6}
    assert box["pageW"] <= box["vw"], f"the page scrolls sideways: {box['pageW']} > {box['vw']}"
    assert box_inside(box["canvas"], page), box["canvas"]
    parts = {
        "board": box["board"],
        "timer": box["timer"],
        "timer label": box["timerLabel"],
        "panel X": box["panels"]["X"],
        "panel O": box["panels"]["O"],
    }
    for name, part in parts.items():
        assert box_inside(part, box["canvas"]), (name, part, box["canvas"])
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not boxes_overlap(parts[a], parts[b]), f"{a} overlaps {b}: {parts[a]} {parts[b]}"
    for seat in ("X", "O"):
        assert box["labels"][seat], f"no words in panel {seat}"
        for label, word in zip(box["labels"][seat], box["words"][seat], strict=True):
            assert box_inside(label, box["panels"][seat]), (seat, word, label, box["panels"][seat])
    gap = box["canvas"]["y"] + box["canvas"]["h"] - (box["board"]["y"] + box["board"]["h"])
    assert gap <= 40, f"{gap:.0f} px of empty canvas under the board"
    board_on_page = box["board"]
    for el in box["side"]:
        assert box_inside(el, page), el
        assert not boxes_overlap(el, board_on_page), f"{el['id']} covers the board"
    return box


def test_phone_layout_bot_match_and_waiting_seat(server, browser):  # noqa: F811 (the fixtures of test_browser)
    p = PhonePage(browser, "phone")
    p.page.goto(server + "/")
    p.page.select_option("#bot-level", "easy")
    p.page.click("#play-bot")
    p.wait(LIVE)
    p.page.wait_for_timeout(300)
    p.shot("live")
    check_layout(p)
    # The legend is there and reachable: scrolled to, it is on screen.
    assert p.js("() => document.querySelectorAll('#legend-list li').length") >= 4
    p.page.locator(".legend").scroll_into_view_if_needed()
    legend = p.page.locator(".legend").bounding_box()
    assert legend and legend["height"] > 50 and 0 <= legend["y"] and legend["y"] + 40 <= 844, legend
    p.shot("legend")
    p.page.click("#btn-leave")

    # An online room: the free seat waits for a player (no gold ring, no "offline").
    p.page.click("#create-room")
    p.wait(
        "() => window.__blitz.view && window.__blitz.view.phase === 'waiting' && window.__blitz.lay"
        " && window.__blitz.lay.labels"
    )
    p.page.evaluate("() => window.scrollTo(0, 0)")
    p.page.wait_for_timeout(200)
    box = check_layout(p)
    assert p.js("() => window.__blitz.view.players.O.empty") is True
    assert "waiting for a player" in " ".join(box["words"]["O"]), box["words"]["O"]
    assert not any("offline" in w or "ready" in w for w in box["words"]["O"]), box["words"]["O"]
    p.shot("waiting")
    p.close()


# A round that ends on time (R20): X sets three marks in row 0, O one in the corner.
TIMEOUT_REPLAY = {
    "rules": {"round_ms": 3000, "rounds_to_win": 1, "max_rounds": 1, "powerup_max": 0},
    "seed": 1,
    "script": [
        {"t": 0, "player": "X", "place": [0, 0]},
        {"t": 100, "player": "O", "place": [5, 5]},
        {"t": 600, "player": "X", "place": [0, 1]},
        {"t": 1200, "player": "X", "place": [0, 2]},
    ],
}


def test_phone_replay_icons_and_a_round_ended_on_time(server, browser):  # noqa: F811 (the fixtures of test_browser)
    p = PhonePage(browser, "phone_replay")
    p.page.goto(server + "/")
    p.page.wait_for_selector("#replay-file:not([disabled])")
    p.open_replay_file("timeout.json", json.dumps(TIMEOUT_REPLAY).encode())
    p.wait(
        "() => window.__blitz.replay && window.__blitz.view && window.__blitz.lay && window.__blitz.lay.labels"  # noqa: E501
    )
    # The controls are drawn icons (SVG), not font glyphs, and they have a size.
    for button in ("#rp-play", "#rp-back", "#rp-step"):
        icon = p.page.locator(f"{button} svg.icon").bounding_box()
        assert icon and icon["width"] >= 12 and icon["height"] >= 12, (button, icon)
        assert not any(ch in p.page.inner_text(button) for ch in "⏸⏮⏭▶"), button
    p.page.click("[data-speed='4']")
    p.wait("() => window.__blitz.replay.done && !!window.__blitz.view.result", timeout=60_000)
    p.page.wait_for_selector("#banner:not([hidden])")
    p.page.evaluate("() => window.scrollTo(0, 0)")
    p.page.wait_for_timeout(200)
    check_layout(p)  # the banner (in the side column) is not over the board
    rounds = p.page.inner_text("#rounds-list")
    assert "Time up" in rounds and "X 3 – O 1" in rounds, rounds
    assert (
        p.js("() => window.__blitz.view.cells.filter((c) => c.mark).length") == 4
    )  # the final board shows
    p.shot("timeout", full_page=True)
    p.close()
