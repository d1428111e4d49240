"""A match played to its end in a real browser through a second entry point of a server
of three processes (issue 18; docs/server.md, "More than one process"): the room is
created on process 1; the second player's page is process 2's and is redirected to
process 1 for the match; a spectator's page is process 3's; the replay is then opened
from process 2's page (the shared store). Real ``serve --redis`` processes and a real
Redis (tests/cluster_support.py), Debian's chromium through Playwright."""

from __future__ import annotations

import pytest

from browser_support import Page, require_browser, x_builds_row_0
from cluster_support import LocalCluster, require_redis

require_browser()
require_redis()

# One round of 12 s that X wins by building row 0 (browser_support.x_builds_row_0).
SERVE = ["--rule", "round_ms=12000", "--rule", "rounds_to_win=1", "--rule", "max_rounds=1"]
SERVE += ["--pause-ms", "1000", "--grace-ms", "5000"]
LIVE = "() => window.__blitz.view && window.__blitz.view.phase === 'live' && !window.__blitz.view.roundEnd"  # noqa: E501


def create_online_room(page: Page, url: str) -> str:
    """``page`` opens the process at ``url`` and creates an online room: its code."""
    page.open(url + "/")
    page.page.click("#create-room")
    page.page.wait_for_selector("#room-box:not([hidden])")
    return page.page.inner_text("#room-code-show").replace("-", "")


@pytest.mark.slow
def test_a_match_through_the_second_entry_point_of_three_processes(browser):
    with LocalCluster(3, SERVE) as cluster:
        one, two, three = cluster.urls
        a = Page(browser, "cluster_a")
        b = Page(browser, "cluster_b")
        s = Page(browser, "cluster_spectator")
        code = create_online_room(a, one)
        # Three processes with no room: process 1 keeps the room it was asked for.
        assert a.js("() => window.__blitz.conn.url") == one.replace("http", "ws") + "/ws"
        assert cluster.health(0)["rooms"] == 1

        # The friend's page is process 2's: joining by code moves its socket to process 1.
        b.open(f"{two}/r/{code}")
        b.page.click("#join-room")
        s.open(f"{three}/r/{code}")
        s.page.click("#watch-room")
        for p in (a, b):
            p.wait(LIVE)
        s.wait("() => !!window.__blitz.model && window.__blitz.model.role === 'spectator'")
        for p in (b, s):
            assert p.js("() => window.__blitz.conn.url") == one.replace("http", "ws") + "/ws"
            assert p.js("() => location.origin") != one
        assert b.js("() => window.__blitz.view.mine") == ["O"]
        b.shot("live_through_process_2")

        x_builds_row_0(a, b)
        for p in (a, b, s):
            p.wait("() => !!window.__blitz.view.result")
        assert b.js("() => window.__blitz.view.result.result") == "X"
        b.shot("match_end")
        replay_id = b.js("() => window.__blitz.view.result.replay_id")

        # The replay of process 1's match, opened from process 2's page.
        r = Page(browser, "cluster_replay")
        r.page.goto(f"{two}/?replay={replay_id}")
        r.wait("() => window.__blitz.replay && window.__blitz.view && window.__blitz.view.cells")
        r.page.click("[data-speed='4']")
        r.wait("() => window.__blitz.replay.done && !!window.__blitz.view.result", timeout=60_000)
        assert r.js("() => window.__blitz.view.result.result") == "X"
        for p in (a, b, s, r):
            p.close()


@pytest.mark.slow
def test_a_page_whose_room_process_dies_is_told_the_room_is_lost(browser):
    with LocalCluster(2, SERVE + ["--rule", "round_ms=60000"]) as cluster:
        one, two = cluster.urls
        a = Page(browser, "lost_a")
        b = Page(browser, "lost_b")
        code = create_online_room(a, one)
        b.open(f"{two}/r/{code}")
        b.page.click("#join-room")
        b.wait(LIVE)
        assert b.js("() => window.__blitz.conn.url") == one.replace("http", "ws") + "/ws"

        cluster.kill(0)
        # The page cannot reach process 1 any more: it goes back to its own process, whose
        # answer (once process 1's record expired) is room_lost, shown in the menu.
        b.wait("() => document.body.dataset.screen === 'menu'", timeout=60_000)
        message = b.page.inner_text("#menu-error")
        assert "lost" in message and code in message, message
        b.shot("room_lost")
        # Chromium logs each refused WebSocket as a console error: expected here, and
        # nothing else is.
        for p in (a, b):
            p.errors = [e for e in p.errors if "WebSocket connection to" not in e]
            p.close()
