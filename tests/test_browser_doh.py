"""End-to-end tests of Tic Tac Doh's browser view in a real headless Chromium
(``tictacblitz serve --game doh``; docs/client.md, docs/doh.md "The browser game").

As tests/test_browser.py: the server runs in a thread of this process (uvicorn on a free
loopback port), Playwright drives Debian's ``chromium`` (no browser download), tests wait
for the page's view model (``window.__blitz``), never for fixed sleeps, and any console
error fails a test. Screenshots go to ``tests/artifacts/``; the README's to
``docs/img/doh.png`` only with TICTACBLITZ_README_SHOT=1.
"""

from __future__ import annotations

import random

import pytest

import browser_support

browser_support.require_browser("blitz_core.doh")

README_SHOT = browser_support.readme_shot("doh.png", "doh_readme.png")


@pytest.fixture(scope="module")
def server():
    with browser_support.serve_game("doh", pause_ms=500, grace_ms=5_000) as url:
        yield url


class Page(browser_support.Page):
    prefix = "doh_"

    def click_piece(self, piece: str) -> None:
        self.click_box("pieceCenter", piece)


def _pick(view, rng: random.Random):
    options = [(piece, cell) for piece, cells in view["legal"].items() for cell in cells]
    return rng.choice(options)


def _play_by_mouse(p: Page, rng: random.Random, max_moves: int = 20) -> None:
    """Our moves by clicking a stash button and a dashed square, until the game ends."""
    for _ in range(max_moves):
        p.wait("() => { const v = window.__blitz.view; return v && (v.myTurn || v.result); }")
        v = p.view()
        if v["result"]:
            return
        piece, cell = _pick(v, rng)
        p.click_piece(piece)
        p.wait("(x) => window.__blitz.input.hand(window.__blitz.view.toMove) === x", piece)
        p.click_cell(cell)
        p.wait("(n) => window.__blitz.view.ply > n || window.__blitz.view.result", v["ply"])
    raise AssertionError("the game did not end")


def test_against_a_bot_level_and_seat(server, browser) -> None:
    p = Page(browser, "bot")
    try:
        p.open(server)
        assert "Tic Tac Doh" in p.page.title()
        levels = p.js("() => [...document.querySelectorAll('#bot-level option')].map(o => o.value)")
        assert levels == ["easy", "medium", "hard", "perfect"]
        p.page.select_option("#bot-level", "hard")
        p.page.check("#form-bot input[value=second]")
        p.page.click("#play-bot")
        # The bot plays first: the first piece is at the centre of the board.
        p.wait("() => window.__blitz.view && window.__blitz.view.myTurn")
        v = p.view()
        assert v["mine"] == ["second"] and v["ply"] == 1
        assert v["squares"][0]["cell"] == [2, 2] and v["players"]["first"]["kind"] == "bot"
        # An illegal square is refused with the rule's words (not adjacent: a far corner).
        p.click_piece("S")
        p.click_cell([0, 0] if [0, 0] not in v["legal"]["S"] else [4, 4])
        p.wait("() => document.getElementById('status-line').textContent.length > 0")
        p.wait(
            "() => /touch|fit|over|left|stack/.test("
            "document.getElementById('status-line').textContent)"
        )
        assert p.view()["ply"] == 1
        p.shot("turn")
        _play_by_mouse(p, random.Random(1))
        p.wait("() => window.__blitz.view.result && !document.getElementById('banner').hidden")
        v = p.view()
        assert v["result"]["result"] in ("first", "second", "draw") and v["end"]
        banner = p.js("() => document.getElementById('banner').textContent")
        assert "wins" in banner or "Draw" in banner
        if v["end"]["by"] == "line":
            assert v["lines"]
        p.shot("end")
        p.page.click("#btn-rematch")  # the bot always agrees
        p.wait(
            "() => window.__blitz.view.phase === 'live' && !window.__blitz.view.result "
            "&& window.__blitz.view.ply >= 1"
        )
    finally:
        p.close()


def test_local_mouse_and_keyboard_stack_and_nest(server, browser) -> None:
    p = Page(browser, "local", size=(1200, 720))
    try:
        p.open(server)
        p.page.check("#form-local input[value=first]")
        p.page.click("#play-local")
        p.wait(
            "() => window.__blitz.view && window.__blitz.view.phase === 'live' "
            "&& window.__blitz.view.toMove === 'first'"
        )
        # first (mouse): a large piece; second (keyboard): 2 then Enter stacks a medium on it
        p.click_piece("L")
        p.click_cell([2, 2])
        p.wait("() => window.__blitz.view.ply === 1")
        p.page.keyboard.press("2")
        p.page.keyboard.press("Enter")  # the keyboard cursor starts at the centre
        p.wait("() => window.__blitz.view.ply === 2")
        assert p.view()["squares"] == [{"cell": [2, 2], "content": "LM", "counts": ["M", "L"]}]
        # first: a small piece to the right; second: a medium nested over it (counts as M only)
        p.click_piece("S")
        p.click_cell([2, 3])
        p.wait("() => window.__blitz.view.ply === 3")
        p.page.keyboard.press("ArrowRight")
        p.page.keyboard.press("Enter")
        p.wait("() => window.__blitz.view.ply === 4")
        squares = {tuple(s["cell"]): s for s in p.view()["squares"]}
        assert squares[(2, 3)]["content"] == "SM" and squares[(2, 3)]["counts"] == ["M"]
        # more moves for the README's picture: the stack grows to LMS, a nest ML, a small piece
        moves = (
            ("first", "S", [2, 2]),
            ("second", "M", [1, 3]),
            ("first", "L", [1, 3]),
            ("second", "S", [3, 1]),
        )
        for ply, (seat, piece, cell) in enumerate(moves, start=5):
            p.js(
                "(m) => window.__blitz.conn.send({type: 'act', piece: m[1], cell: m[2], "
                "seat: m[0]})",
                [seat, piece, cell],
            )
            p.wait("(n) => window.__blitz.view.ply === n", ply)
        v = p.view()
        assert v["box"]["known"] and v["toMove"] == "first" and not v["result"]
        assert {tuple(s["cell"]): s["content"] for s in v["squares"]}[(2, 2)] == "LMS"
        p.click_piece("M")
        xy = p.js("(c) => window.__blitz.cellCenter(c)", v["legal"]["M"][0])
        p.page.mouse.move(xy["x"], xy["y"])
        p.page.wait_for_timeout(150)
        p.shot("readme", README_SHOT)
    finally:
        p.close()


@pytest.mark.slow
def test_online_room_link_spectator_replay_and_rematch(server, browser) -> None:
    a, b, s = Page(browser, "host"), Page(browser, "guest"), Page(browser, "spectator")
    try:
        a.open(server)
        a.page.fill("#online-name", "Ann")
        a.page.check("#form-online input[value=first]")
        a.page.click("#create-room")
        a.wait("() => window.__blitz.model.room")
        code = a.js("() => window.__blitz.model.room")
        link = a.page.input_value("#room-link")
        assert link.endswith(f"/r/{code}")
        b.open(link)
        b.page.click("#join-room")
        s.page.goto(f"{server}/r/{code}?watch")
        for page in (a, b, s):
            page.wait("() => window.__blitz.view && window.__blitz.view.phase === 'live'")
        assert s.view()["mine"] == [] and b.view()["mine"] == ["second"]
        rng = random.Random(5)
        for _ in range(20):
            v = a.view()
            if v["result"]:
                break
            mover = a if v["toMove"] == "first" else b
            mover.wait(
                "(n) => window.__blitz.view.ply === n && window.__blitz.view.myTurn", v["ply"]
            )
            piece, cell = _pick(mover.view(), rng)
            mover.click_piece(piece)
            mover.click_cell(cell)
            a.wait("(n) => window.__blitz.view.ply > n || window.__blitz.view.result", v["ply"])
        s.wait("() => window.__blitz.view.result")
        end = s.view()["result"]
        assert end["result"] in ("first", "second", "draw")
        assert s.view()["ply"] == a.view()["ply"] and s.view()["squares"] == a.view()["squares"]
        s.shot("end")
        # The replay, from its id: step back and forth, 4x.
        s.page.goto(f"{server}/?replay={end['replay_id']}")
        s.wait("() => window.__blitz.replay && window.__blitz.replay.frames.length > 0")
        frames = s.js("() => window.__blitz.replay.frames.length")
        assert frames == a.view()["ply"]
        s.page.click("#rp-play")  # pause
        s.page.click("#rp-back")
        s.page.click("#rp-step")
        s.page.click(".speed[data-speed='4']")
        s.page.click("#rp-play")
        s.wait("() => window.__blitz.replay.done && window.__blitz.view.result")
        assert s.view()["squares"] == a.view()["squares"]
        # A turn-based replay counts moves: no Blitz round or clock, nobody "thinking".
        status = s.page.inner_text("#status-line")
        assert status == f"Replay · move {frames} of {frames}", status
        # A rematch needs both players' consent.
        a.page.click("#btn-rematch")
        b.wait("() => window.__blitz.view.players.first.rematch")
        assert b.view()["result"] is not None
        b.page.click("#btn-rematch")
        for page in (a, b):
            page.wait("() => !window.__blitz.view.result && window.__blitz.view.phase === 'live'")
        assert a.view()["ply"] == 0 and a.view()["toMove"] == "first"
    finally:
        for page in (a, b, s):
            page.close()


def test_first_piece_anywhere_not_your_turn_and_another_games_replay(server, browser) -> None:
    """Issue 26, items 10 and 11: on the empty board a corner click puts the first piece
    (the large one in hand by default) at the centre, an out-of-turn click says "Not your
    turn.", and a Blitz replay file is refused with words naming both games."""
    p = Page(browser, "first_piece")
    try:
        p.open(server)
        p.page.check("#form-local input[value=first]")
        p.page.click("#play-local")
        p.wait("() => window.__blitz.view && window.__blitz.view.myTurn && window.__blitz.lay")
        assert p.js("() => window.__blitz.input.hand('first')") == "L"
        p.click_cell([0, 4])
        p.wait("() => window.__blitz.view.ply === 1")
        assert p.view()["squares"] == [{"cell": [2, 2], "content": "L", "counts": ["L"]}]
        # second (the keyboard) is to move: the mouse player's click is answered.
        p.click_cell([1, 1])
        p.wait("() => document.getElementById('status-line').textContent === 'Not your turn.'")
        assert p.view()["ply"] == 1
        p.page.click("#btn-leave")
        p.open_replay_file(
            "blitz.json", b'{"seed": 1, "script": [{"t": 0, "player": "X", "place": [0, 0]}]}'
        )
        p.wait("() => document.getElementById('menu-error').textContent.length > 0")
        assert p.page.inner_text("#menu-error") == (
            "Cannot open the replay: this is a Tic Tac Blitz replay; this server plays Tic Tac Doh"
        )
        p.shot("wrong_game_replay")
        # Chromium logs the refused request (422) itself: the one expected console error.
        assert sum("422" in e for e in p.errors) == 1, p.errors
        p.errors = [e for e in p.errors if "422" not in e]
    finally:
        p.close()


def test_a_countdown_does_not_paint_a_still_board(browser) -> None:
    """The countdown before a round is the banner's, in the page: the board under it is
    still, so the canvas is not painted while the count runs (docs/client.md, "Painting").
    A server of its own with a minute's countdown: the count is still running after the
    frames sampled (counts, not times)."""
    with browser_support.serve_game("doh", pause_ms=60_000) as url:
        p = Page(browser, "countdown")
        try:
            p.open(url)
            p.page.click("#play-local")
            p.wait("() => window.__blitz.view && window.__blitz.view.phase === 'countdown'")
            p.page.wait_for_selector("#banner:not([hidden])")
            assert "Get ready" in p.page.inner_text("#banner")
            sample = browser_support.SAMPLE_FRAMES
            p.js(sample, 10)  # the frames that paint the new screen and its banner
            before = p.view()["countdown"]
            sampled = p.js(sample, 30)
            after = p.view()
            assert after["phase"] == "countdown" and after["countdown"] < before, (before, after)
            assert sampled["frames"] == 30, sampled
            assert sampled["paints"] == 0, sampled
        finally:
            p.close()
