"""The seat a tab keeps across a reload (static/js/seat.js; issue 26, item 7) under Node:
what is stored from a server's own ``joined``, what is refused back, the ``resume`` it
makes, and when a page takes it back by itself. Skipped when ``node`` is missing; the
same flow in Chromium is tests/test_browser_reload.py."""

from __future__ import annotations

import json

import pytest

from node_support import JS, node_json, require_node
from server_support import lobby_for

require_node()  # skips the module without node (fails under CI=true)

SEAT_JS = JS / "seat.js"

# A storage like the page's sessionStorage (a Map underneath), and one that refuses
# everything, as a browser with storage disabled does.
STORAGES = """
class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
}
const broken = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); },
                 removeItem() { throw new Error("denied"); } };
"""


def run_seat(body: str, data=None):
    script = f"""
const S = await import({json.dumps(SEAT_JS.as_uri())});
{STORAGES}
const DATA = JSON.parse(process.argv[1]);
const out = (() => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return node_json(script, json.dumps(data))


def server_joined(mode: str) -> dict:
    """A real ``joined`` from the server's lobby (a player's: with its token)."""
    from tictacblitz.games import load_game
    from tictacblitz.server.clock import ManualClock

    pytest.importorskip("blitz_core.blitz.engine")
    _, say, connect = lobby_for(load_game("blitz"), ManualClock())
    peer = connect()
    fields = {"mode": mode, "symbol": "O"} if mode != "local" else {"mode": "local"}
    if mode == "bot":
        fields["bot"] = "easy"
    say(peer, type="create", **fields)
    return peer.last("joined")


def test_a_kept_seat_round_trips_and_makes_its_resume() -> None:
    joined = server_joined("online")
    out = run_seat(
        """
        const st = new MemoryStorage();
        const store = new S.SeatStore(st, "blitz");
        const saved = store.save(DATA, "O");
        const seat = store.load();
        return { saved, seat, resume: S.resumeMessage(seat), words: S.describeSeat(seat),
                 otherGame: new S.SeatStore(st, "rift").load(), afterOther: store.load() };
        """,
        joined,
    )
    assert out["saved"] is True
    seat = out["seat"]
    assert (seat["code"], seat["token"], seat["mode"]) == (
        joined["room"],
        joined["token"],
        "online",
    )
    assert seat["seats"] == ["O"] and seat["mouseSeat"] == "O"
    assert out["resume"] == {"type": "resume", "token": joined["token"], "code": joined["room"]}
    code = joined["room"]
    assert out["words"] == f"your online match in room {code[:5]}-{code[5:]} (as O)"
    # Another game's server on this origin does not take it (and drops it).
    assert out["otherGame"] is None and out["afterOther"] is None


@pytest.mark.parametrize("mode", ["bot", "local"])
def test_bot_and_local_seats_are_kept_with_the_mouse_seat(mode: str) -> None:
    joined = server_joined(mode)
    out = run_seat(
        """
        const store = new S.SeatStore(new MemoryStorage(), "blitz");
        store.save(DATA, "X");
        return { seat: store.load(), words: S.describeSeat(store.load()) };
        """,
        joined,
    )
    assert out["seat"]["mode"] == mode and out["seat"]["mouseSeat"] == "X"
    assert out["seat"]["seats"] == joined["seats"]
    assert out["words"] == (
        "your match against a bot (as O)" if mode == "bot" else "your match on one screen"
    )


def test_nothing_is_kept_for_a_spectator_or_garbage_and_storage_failures_are_no_seat() -> None:
    bad = [
        "{",
        "42",
        "null",
        json.dumps({"game": "blitz", "code": "", "token": "t", "mode": "bot", "seats": []}),
        json.dumps({"game": "blitz", "code": "C", "token": "t", "mode": "chess", "seats": []}),
    ]
    out = run_seat(
        """
        const st = new MemoryStorage();
        const store = new S.SeatStore(st, "blitz");
        const spectator = store.save(
          { type: "joined", room: "7XK2M9QF4T", role: "spectator", seats: [] });
        const results = { spectator, afterSpectator: store.load() };
        for (const value of DATA) {
          st.setItem("tictacblitz.seat", value);
          results[value] = [store.load(), st.getItem("tictacblitz.seat")];
        }
        const off = new S.SeatStore(broken, "blitz");
        const seat = { room: "C", token: "t", mode: "bot", seats: ["X"] };
        results.broken = [off.save(seat), off.load()];
        off.clear();
        results.none = new S.SeatStore(null, "blitz").load();
        return results;
        """,
        bad,
    )
    assert out.pop("spectator") is False and out.pop("afterSpectator") is None
    assert out.pop("broken") == [False, None] and out.pop("none") is None
    # Each malformed value reads as no seat, and is dropped ("null": nothing was there).
    for value, (seat, left) in out.items():
        assert seat is None and left is None, value


def test_a_page_takes_the_seat_back_unless_its_link_names_another_room() -> None:
    out = run_seat(
        """
        const seat = { code: "7XK2M9QF40", token: "t", mode: "online", seats: ["X"] };
        return [S.resumesOnLoad(seat, null), S.resumesOnLoad(seat, "7xk2m-9qf4o"),
                S.resumesOnLoad(seat, "7XK2M9QF41"), S.resumesOnLoad(null, null)];
        """
    )
    # The same room's link, typed in any case with a dash and O for 0: taken back.
    assert out == [True, True, False, False]
