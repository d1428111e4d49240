"""Tic Tac Doh for three and four players in a real headless Chromium (issue 25, item 5;
D9, D10): a 3-player online room filled by code and link and played to the end by three
pages, then its replay; a 4-player local game on one screen, the players taking turns;
a 4-player room its host starts with bots in the free seats.

As tests/test_browser_doh.py: the servers run in threads of this process, Playwright
drives Debian's ``chromium``, tests wait on the page's view model (``window.__blitz``),
never on fixed sleeps, and any console error fails a test. Screenshots go to
``tests/artifacts/doh_players_*.png``.
"""

from __future__ import annotations

import random

import pytest

import browser_support

browser_support.require_browser("blitz_core.doh")

SEATS = ["first", "second", "third", "fourth"]


@pytest.fixture(scope="module")
def server3():
    with browser_support.serve_game("doh", {"players": 3}, pause_ms=300, grace_ms=5_000) as url:
        yield url


@pytest.fixture(scope="module")
def server4():
    with browser_support.serve_game("doh", {"players": 4}, pause_ms=300, grace_ms=5_000) as url:
        yield url


class Page(browser_support.Page):
    prefix = "doh_players_"

    def click_piece(self, piece: str) -> None:
        self.click_box("pieceCenter", piece)

    def move(self, rng: random.Random) -> None:
        """This page's seat to move: a random legal piece and square, by the mouse."""
        v = self.view()
        options = [(piece, cell) for piece, cells in v["legal"].items() for cell in cells]
        piece, cell = rng.choice(options)
        self.click_piece(piece)
        self.wait("(x) => window.__blitz.input.hand(window.__blitz.view.toMove) === x", piece)
        self.click_cell(cell)
        self.wait("(n) => window.__blitz.view.ply > n || window.__blitz.view.result", v["ply"])


LIVE = "() => window.__blitz.view && window.__blitz.view.phase === 'live' && window.__blitz.lay"


def _check_seats(view, names) -> None:
    """The view's seats and their rows: one per player, in turn order."""
    assert view["seatNames"] == names and list(view["players"]) == names


@pytest.mark.slow
def test_a_three_player_online_room_played_to_the_end_and_its_replay(server3, browser) -> None:
    a, b, c = Page(browser, "host"), Page(browser, "guest"), Page(browser, "third")
    try:
        a.open(server3)
        a.page.fill("#online-name", "Ann")
        a.page.click("#create-room")
        a.wait("() => window.__blitz.model.room && window.__blitz.view.phase === 'waiting'")
        link = a.page.input_value("#room-link")
        a.wait("() => /Waiting for 2 players/.test(document.getElementById('banner').textContent)")
        assert a.page.is_visible("#start-bots")  # the host may start with bots
        b.open(link)
        b.page.fill("#online-name", "Bob")
        b.page.click("#join-room")
        b.wait("() => window.__blitz.view && window.__blitz.view.phase === 'waiting'")
        assert b.view()["mine"] == ["second"] and not b.page.is_visible("#start-bots")
        a.wait("() => window.__blitz.view.players.second.name === 'Bob'")
        a.wait("() => /Waiting for a friend/.test(document.getElementById('banner').textContent)")
        a.shot("waiting")
        c.open(link)
        c.page.click("#join-room")
        pages = {"first": a, "second": b, "third": c}
        for seat, page in pages.items():
            page.wait(LIVE)
            assert page.view()["mine"] == [seat]
            _check_seats(page.view(), SEATS[:3])
        status = c.page.inner_text("#status-line")
        assert status == "You play third against Ann and Bob", status
        rng = random.Random(25)
        for _ in range(3 * 15 + 1):
            v = a.view()
            if v["result"]:
                break
            mover = pages[v["toMove"]]
            mover.wait(
                "(n) => window.__blitz.view.ply === n && window.__blitz.view.myTurn", v["ply"]
            )
            mover.move(rng)
            a.wait("(n) => window.__blitz.view.ply > n || window.__blitz.view.result", v["ply"])
        for page in pages.values():
            page.wait(
                "() => window.__blitz.view.result && !document.getElementById('banner').hidden"
            )
        end = a.view()["result"]
        assert end["result"] in ("first", "second", "third", "draw")
        assert {p.view()["ply"] for p in pages.values()} == {a.view()["ply"]}
        banner = c.page.inner_text("#banner")
        assert "wins" in banner or "Draw" in banner, banner
        if end["end"] == "no_move":  # D9: every other seat is out at once
            assert sorted(a.view()["out"] + [end["result"]]) == sorted(SEATS[:3])
        for page in pages.values():
            page.shot("end")
        # The replay of a 3-player match: three seat rows, the same last board.
        c.page.goto(f"{server3}/?replay={end['replay_id']}")
        c.wait("() => window.__blitz.replay && window.__blitz.replay.frames.length > 0")
        c.page.click(".speed[data-speed='4']")
        c.wait("() => window.__blitz.replay.done && window.__blitz.view.result")
        _check_seats(c.view(), SEATS[:3])
        assert c.view()["squares"] == a.view()["squares"]
        assert c.js("() => window.__blitz.lay.seats.length") == 3
        c.shot("replay")
    finally:
        for page in (a, b, c):
            page.close()


def test_a_four_player_local_game_taking_turns_on_one_screen(server4, browser) -> None:
    p = Page(browser, "local4", size=(1200, 760))
    try:
        p.open(server4)
        labels = p.js(
            "() => [...document.querySelectorAll('#form-bot fieldset label')]"
            ".map(l => l.textContent.trim())"
        )
        assert labels == ["First (moves first)", "Second", "Third", "Fourth"], labels
        assert p.page.is_hidden("fieldset[data-name=mouse]")  # no mouse seat to choose
        assert "Four players take turns" in p.page.inner_text("#local-note")
        p.page.click("#play-local")
        p.wait(LIVE)
        v = p.view()
        assert v["mine"] == SEATS and v["toMove"] == "first"
        _check_seats(v, SEATS)
        assert p.js("() => window.__blitz.lay.seats.length") == 4
        rng = random.Random(4)
        turns = []
        for _ in range(16):
            v = p.view()
            if v["result"]:
                break
            turns.append(v["toMove"])
            p.wait("() => window.__blitz.view.myTurn")
            p.move(rng)
            if len(turns) == 5:
                p.shot("playing")
        p.wait("() => window.__blitz.view.result && !document.getElementById('banner').hidden")
        # D10: the turns go round the four seats in order (nobody is out before the end).
        assert turns == [SEATS[i % 4] for i in range(len(turns))]
        v = p.view()
        assert v["result"]["result"] in (*SEATS, "draw") and v["ply"] == len(turns)
        p.shot("end")
    finally:
        p.close()


def test_a_four_player_room_its_host_starts_with_bots(server4, browser) -> None:
    a, b = Page(browser, "bots_host"), Page(browser, "bots_guest")
    try:
        a.open(server4)
        a.page.select_option("#bot-level", "easy")
        a.page.click("#create-room")
        a.wait("() => window.__blitz.view && window.__blitz.view.phase === 'waiting'")
        b.open(a.page.input_value("#room-link"))
        b.page.click("#join-room")
        a.wait("() => window.__blitz.view.players.second.kind === 'human'")
        a.page.click("#start-bots")
        for page in (a, b):
            page.wait(LIVE)
        v = a.view()
        assert [v["players"][s]["kind"] for s in SEATS] == ["human", "human", "bot", "bot"]
        assert v["players"]["third"]["level"] == "easy"
        a.shot("started")
        pages = {"first": a, "second": b}
        rng = random.Random(7)
        for _ in range(60):  # a human move each, or a reread after a bot's turn (below)
            a.wait(
                "() => window.__blitz.view.result || ['first', 'second']"
                ".includes(window.__blitz.view.toMove)"
            )
            v = a.view()
            if v["result"]:
                break
            if v["toMove"] not in pages:  # a bot's turn again between the wait and this read
                continue
            mover = pages[v["toMove"]]
            mover.wait(
                "(n) => window.__blitz.view.ply === n && window.__blitz.view.myTurn", v["ply"]
            )
            mover.move(rng)
        a.wait("() => window.__blitz.view.result")
        assert a.view()["result"]["result"] in (*SEATS, "draw")
        a.shot("end")
    finally:
        for page in (a, b):
            page.close()


def test_a_stuck_table_shows_who_is_out(browser) -> None:
    """D9 with three players, one piece a size on a 1x1 grid: first puts M, second stacks
    S on it; the large piece fits nowhere, so third and first are out at once and second,
    who moved last, wins. The banner says so and the rows are marked "out"."""
    rules = {"players": 3, "pieces_per_size": 1, "grid": 1}
    with browser_support.serve_game("doh", rules, pause_ms=300, grace_ms=5_000) as url:
        p = Page(browser, "stuck", size=(1200, 760))
        try:
            p.open(url)
            p.page.click("#play-local")
            p.wait(LIVE)
            for ply, piece in enumerate(("M", "S"), start=1):
                p.click_piece(piece)
                p.wait("(x) => window.__blitz.input.hand(window.__blitz.view.toMove) === x", piece)
                p.click_cell([2, 2])
                p.wait("(n) => window.__blitz.view.ply === n", ply)
            p.wait("() => window.__blitz.view.result && !document.getElementById('banner').hidden")
            v = p.view()
            assert v["out"] == ["third", "first"]
            assert [v["players"][s]["out"] for s in SEATS[:3]] == [True, False, True]
            banner = p.page.inner_text("#banner")
            assert banner.startswith("Second wins: the others are out: no legal move"), banner
            p.shot("out")
        finally:
            p.close()
