"""A reload keeps the seat (issue 26, item 7; docs/client.md, "A reload keeps the seat"),
in headless Chromium, for every game and mode: a page that reloads mid-match is back in
the same seat of the same match (same room, same match id, not forfeited) and plays on.
Also: a join to a live room with no free seat says so ("that match is full", "that
seat is held for its player"), a dropped opponent is counted down ("Opponent
disconnected: 12 s to return"), and the menu's "Rejoin your match".

The page keeps its seat in the tab's session storage, which Playwright's
``page.reload()`` and ``page.goto()`` keep, as a browser does. One server per game for
the whole module, started when a test first needs it; tests wait for the page's view
model (``window.__blitz``), never for fixed sleeps; any console error fails a test.
"""

from __future__ import annotations

import contextlib
import random

import pytest

import browser_support

browser_support.require_browser("blitz_core.blitz.engine", "blitz_core.doh", "blitz_core.rift")

# Long enough that a reload on a loaded 2-core machine is well inside it (a reload takes
# about a second there); nothing here waits for a grace to run out.
GRACE_MS = 30_000
RULES = {"blitz": {"round_ms": 40_000, "rounds_to_win": 3, "max_rounds": 5}, "doh": {}, "rift": {}}


@pytest.fixture(scope="module")
def servers():
    """game -> the base URL of its server, each started on first use (one per module)."""
    with contextlib.ExitStack() as stack:
        urls: dict = {}

        def url(game: str) -> str:
            if game not in urls:
                urls[game] = stack.enter_context(
                    browser_support.serve_game(
                        game, RULES[game] or None, pause_ms=500, grace_ms=GRACE_MS
                    )
                )
            return urls[game]

        yield url


class Page(browser_support.Page):
    prefix = "reload_"

    def status(self) -> str:
        return self.js("() => document.getElementById('status-line').textContent")

    def where(self) -> dict:
        """The page's room, match and seats, from its view model."""
        return self.js(
            "() => { const m = window.__blitz.model; return {screen: window.__blitz.screen, "
            "room: m.room, match: m.matchId, seats: m.seats, role: m.role, mode: m.mode, "
            "result: m.result ? m.result.by || 'over' : null}; }"
        )

    def reload(self) -> None:
        self.page.reload()
        self.wait("() => window.__blitz && window.__blitz.screen === 'game' && window.__blitz.view")


# -- one move of each game, by clicking, for the seat the page acts for -------------------


def _move_blitz(p: Page, rng: random.Random) -> None:
    seat = p.js("() => window.__blitz.mouseSeat")
    p.wait(
        "(s) => { const v = window.__blitz.view; return v && v.phase === 'live' && !v.roundEnd"
        " && v.players[s].full; }",
        seat,
    )
    v = p.view()
    free = browser_support.free_cells(v, [(r, c) for r in range(6) for c in range(6)])
    cell = rng.choice(free)
    p.click_cell(cell)
    # Placed: the mark is on the board (or the round ended at that moment).
    p.wait(
        "(c) => { const v = window.__blitz.view; return v.roundEnd || v.phase === 'over' || "
        "v.cells.some((x) => x.row === c[0] && x.col === c[1] && x.mark); }",
        list(cell),
    )


def _move_doh(p: Page, rng: random.Random) -> None:
    p.wait("() => { const v = window.__blitz.view; return v && (v.myTurn || v.result); }")
    v = p.view()
    if v["result"]:
        return
    piece, cell = rng.choice([(k, c) for k, cells in v["legal"].items() for c in cells])
    if v["toMove"] != p.js("() => window.__blitz.mouseSeat"):
        # Local play, the keyboard's seat: its move through the page's own connection.
        p.js(
            "(m) => window.__blitz.conn.send({type: 'act', piece: m[0], cell: m[1], seat: m[2]})",
            [piece, cell, v["toMove"]],
        )
        p.wait("(n) => window.__blitz.view.ply > n || window.__blitz.view.result", v["ply"])
        return
    p.click_box("pieceCenter", piece)
    p.wait("(x) => window.__blitz.input.hand(window.__blitz.view.toMove) === x", piece)
    p.click_cell(cell)
    p.wait("(n) => window.__blitz.view.ply > n || window.__blitz.view.result", v["ply"])


def _move_rift(p: Page, rng: random.Random) -> None:
    seat_js = "(window.__blitz.input.viewing || window.__blitz.view.mine[0])"
    p.wait("() => { const v = window.__blitz.view; return v && (v.result || v.live); }")
    v = p.view()
    waiting = [s for s in v["mine"] if not v["locked"][s]]
    if len(v["mine"]) == 2 and waiting and p.js(f"() => {seat_js}") not in waiting:
        # Local play after a reload: the screen shows the mouse's seat first (as at the
        # start); its player locked in already, so the other player takes the screen.
        p.click_box("tabCenter", waiting[0])
    p.wait(
        "() => { const v = window.__blitz.view; return v && (v.result || (v.live && "
        f"!v.locked[{seat_js}] && (!v.anim || v.anim.done))); }}"
    )
    v = p.view()
    if v["result"]:
        return
    seat = p.js(f"() => {seat_js}")
    xy = p.js("(c) => window.__blitz.cellCenter(c)", rng.choice(v["targets"]))
    p.page.mouse.click(xy["x"], xy["y"])
    # Locked in (or the turn resolved at once: the other seat had locked already).
    p.wait(
        "(a) => { const v = window.__blitz.view; return v.result || v.locked[a[0]] || "
        "v.turn > a[1]; }",
        [seat, v["turn"]],
    )


MOVES = {"blitz": _move_blitz, "doh": _move_doh, "rift": _move_rift}


def _start(p: Page, url: str, mode: str) -> None:
    p.open(url)
    p.page.click({"bot": "#play-bot", "local": "#play-local", "online": "#create-room"}[mode])
    p.wait("() => window.__blitz.screen === 'game' && !!window.__blitz.model.room")


def _live(p: Page) -> None:
    p.wait(
        "() => window.__blitz.view && !['waiting', 'countdown'].includes(window.__blitz.view.phase)"
    )


def _reload_and_check(p: Page, before: dict) -> None:
    p.reload()
    after = p.where()
    # The same seat(s) of the same match, still running (not forfeited).
    assert after == {**before, "result": None}, (before, after)
    assert p.js("() => !document.getElementById('menu').hidden") is False


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
@pytest.mark.parametrize("mode", ["bot", "local"])
def test_a_reload_mid_match_keeps_the_seat(servers, browser, game: str, mode: str) -> None:
    url, move, rng = servers(game), MOVES[game], random.Random(7)
    p = Page(browser, f"{game}_{mode}")
    try:
        _start(p, url, mode)
        _live(p)
        move(p, rng)
        before = p.where()
        assert before["role"] == "player" and before["result"] is None
        assert len(before["seats"]) == (2 if mode == "local" else 1)
        mouse = p.js("() => window.__blitz.mouseSeat")
        _reload_and_check(p, before)
        # Local play: the mouse plays the seat it played (the menu's choice is kept too).
        assert p.js("() => window.__blitz.mouseSeat") == mouse
        move(p, rng)  # the match goes on, with this page acting for its seat
        assert p.where()["match"] == before["match"]
        assert p.where()["result"] != "forfeit"  # it may have ended, by the game's rules
        p.shot("after")
    finally:
        p.close()


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
def test_a_reload_mid_online_match_keeps_the_seat(servers, browser, game: str) -> None:
    url, move, rng = servers(game), MOVES[game], random.Random(11)
    a, b = Page(browser, f"{game}_host"), Page(browser, f"{game}_guest")
    try:
        _start(a, url, "online")
        room = a.js("() => window.__blitz.model.room")
        b.open(f"{url}/r/{room}")  # the room link: the code is filled in
        b.page.click("#join-room")
        _live(a)
        _live(b)
        first = a.js("() => window.__blitz.model.seats[0]")
        # The guest's move first where turns alternate from the host's seat.
        move(a, rng)
        if game == "doh":
            move(b, rng)
        before = b.where()
        assert before["mode"] == "online" and before["seats"] != [first]
        _reload_and_check(b, before)  # the page is at /r/{room}: the same room
        # The host saw the guest drop and come back; no forfeit.
        a.wait("(s) => window.__blitz.model.players[s].connected === true", before["seats"][0])
        assert a.where()["result"] is None
        if game == "doh":
            move(a, rng)
        move(b, rng)
        assert b.where()["match"] == before["match"] == a.where()["match"]
    finally:
        a.close()
        b.close()


def test_full_room_held_seat_countdown_and_rejoin_entry(servers, browser) -> None:
    url = servers("blitz")
    a, b, c = Page(browser, "host"), Page(browser, "guest"), Page(browser, "third")
    try:
        _start(a, url, "online")
        room = a.js("() => window.__blitz.model.room")
        b.open(f"{url}/r/{room}")
        b.page.click("#join-room")
        _live(a)
        # A third page with the link: the room lives and is full (it said "no room").
        c.open(f"{url}/r/{room}")
        c.page.click("#join-room")
        c.wait("() => /match is full/.test(document.getElementById('menu-error').textContent)")
        assert c.js("() => window.__blitz.screen") == "menu"
        # The guest's tab is closed: the host counts its grace down, in seconds.
        b.context.close()
        a.wait(
            "() => /^Opponent disconnected: \\d+ s to return$/.test("
            "document.getElementById('status-line').textContent)"
        )
        first = int(a.status().split(": ")[1].split()[0])
        # Whole seconds, rounded up, on the page's estimate of the server's clock, which
        # is off by up to half a ping's round trip: read within a millisecond of the drop
        # (a server with nothing else to do), a 30 s grace can show 31 s for that moment.
        assert 0 < first <= GRACE_MS // 1000 + 1
        a.wait(
            "(n) => { const m = /^Opponent disconnected: (\\d+) s/.exec("
            "document.getElementById('status-line').textContent); return m && +m[1] < n; }",
            first,
        )
        a.shot("grace")
        # The seat is its player's, not anyone's with the link.
        c.page.click("#join-room")
        c.wait(
            "() => /seat is held for its player/.test("
            "document.getElementById('menu-error').textContent)"
        )
        assert c.js("() => window.__blitz.screen") == "menu"
        # The host follows another room's link in the same tab: the menu offers both,
        # and "Rejoin your match" takes the seat back.
        before = a.where()
        a.page.goto(f"{url}/r/0000000000")
        a.wait(
            "() => !document.getElementById('rejoin-box').hidden"
            " && !document.getElementById('rejoin').disabled"
        )
        a.shot("rejoin_menu")
        words = a.js("() => document.getElementById('rejoin-text').textContent")
        assert room[:5] in words and a.js("() => window.__blitz.screen") == "menu"
        a.page.click("#rejoin")
        a.wait("() => window.__blitz.screen === 'game' && window.__blitz.model.room")
        assert a.where() == before
        # Leaving forgets the seat: a reload then stays in the menu, with no rejoin.
        a.page.click("#btn-leave")
        a.page.reload()
        a.wait("() => !document.querySelector('#play-bot').disabled")
        assert a.js("() => document.getElementById('rejoin-box').hidden") is True
        assert a.js("() => window.__blitz.screen") == "menu"
        # A kept seat the server no longer knows (its grace ran out): the menu says so,
        # once, and forgets it.
        a.js(
            "(c) => sessionStorage.setItem('tictacblitz.seat', JSON.stringify({game: 'blitz', "
            "code: c, token: 'no-such-token', mode: 'online', seats: ['X'], mouseSeat: 'X'}))",
            room,
        )
        a.page.goto(url)  # the page was at another room's link: that would only offer it
        a.wait(
            "() => /could not be taken back: that token holds no seat/.test("
            "document.getElementById('menu-error').textContent)"
        )
        assert a.js("() => sessionStorage.getItem('tictacblitz.seat')") is None
        assert a.js("() => document.getElementById('rejoin-box').hidden") is True
    finally:
        a.close()
        b.errors.clear()  # its context is closed already
        c.close()
