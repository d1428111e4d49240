"""A server of several processes through Redis (docs/server.md, "More than one process";
issue 18): real ``tictacblitz serve --redis`` processes on loopback ports and a real
Redis (tests/cluster_support.py).

Covered: create goes to the least loaded process; join, watch and resume reach the
hosting process through any entry point (a ``redirect``); tokens hold only there;
replays answer from every process; the per-address limits hold over the processes; a
killed process loses only its own rooms (``room_lost``), the others play on; SIGTERM
drains a process (its new rooms go elsewhere, its running match finishes)."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import urllib.error
import urllib.request

import pytest

from cluster_support import (
    QUICK_RULES,
    Client,
    LocalCluster,
    free_port,
    require_redis,
    ws,
)

require_redis()
pytest.importorskip("blitz_core.blitz")

RULES = [arg for name, v in QUICK_RULES.items() for arg in ("--rule", f"{name}={v}")]
SERVE = [*RULES, "--pause-ms", "200", "--grace-ms", "3000", "--max-rooms-per-ip", "3"]
SERVE += ["--max-connections-per-ip", "4"]


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(3, SERVE) as c:
        yield c


def test_join_watch_and_resume_reach_the_hosting_process_from_any_entry(cluster) -> None:
    async def scenario() -> None:
        host = Client("127.0.0.10")
        created = await host.create_on(cluster.urls[0], "online")
        assert created["type"] == "joined" and host.redirects == []
        code, token = created["room"], created["token"]
        assert created["link"] == f"{cluster.urls[0]}/r/{code}"

        # The second player comes in through process 2, a spectator through process 3.
        guest = Client("127.0.0.11")
        joined = await guest.enter(ws(cluster.urls[1]), type="join", code=code, ref="j")
        assert guest.redirects == [ws(cluster.urls[0])]
        assert joined["type"] == "joined" and joined["role"] == "player"
        assert joined["room"] == code and joined["seats"] == ["O"]
        fan = Client("127.0.0.12")
        watching = await fan.enter(ws(cluster.urls[2]), type="watch", code=code)
        assert fan.redirects == [ws(cluster.urls[0])] and watching["role"] == "spectator"
        # The redirect answers the message it was sent for.
        probe = Client("127.0.0.13")
        await probe.connect(ws(cluster.urls[1]))
        assert await probe.ask(type="watch", code=code, ref=7) == {
            "type": "redirect",
            "url": ws(cluster.urls[0]),
            "ref": 7,
        }

        # The match plays on the hosting process; every connection sees its end.
        ends = [await c.until("match_end") for c in (host, guest, fan)]
        assert len({e["replay_id"] for e in ends}) == 1

        # A token holds a seat only on the hosting process: another process sends the
        # resume on when it names the room, and knows nothing of the token otherwise.
        await host.close()
        back = Client("127.0.0.10")
        await back.connect(ws(cluster.urls[2]))
        assert (await back.ask(type="resume", token=token))["code"] == "bad_token"
        resumed = await back.enter(ws(cluster.urls[2]), type="resume", token=token, code=code)
        assert back.redirects == [ws(cluster.urls[0])] and resumed["type"] == "joined"
        for c in (back, guest, fan, probe):
            await c.close()

        # The replay answers from every process (the shared store), the same file.
        replay_id = ends[0]["replay_id"]
        files = [
            json.loads(urllib.request.urlopen(f"{u}/replays/{replay_id}", timeout=5).read())
            for u in cluster.urls
        ]
        assert files[0] == files[1] == files[2] and files[0]["match_id"] == ends[0]["match_id"]
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{cluster.urls[1]}/replays/NoSuchReplay01", timeout=5)
        assert missing.value.code == 404

        # An unknown code is unknown everywhere.
        nobody = Client("127.0.0.14")
        answer = await nobody.enter(ws(cluster.urls[1]), type="join", code="ABCDEFGHJK")
        assert answer["code"] == "room_not_found" and nobody.redirects == []
        await nobody.close()

    run(scenario())


def test_a_code_is_found_everywhere_as_soon_as_its_creator_has_it(cluster) -> None:
    async def scenario() -> None:
        # The creator's answer waits until the room's entry is in Redis: a join sent the
        # moment the code arrives, through another process, never misses it.
        for i in range(9):
            creator, friend = Client(f"127.0.1.{i + 1}"), Client(f"127.0.2.{i + 1}")
            await friend.connect(ws(cluster.urls[(i + 1) % 3]))  # ready before the code
            made = await creator.create_on(cluster.urls[i % 3], "online")
            found = await friend.ask(type="watch", code=made["room"])
            assert found == {"type": "redirect", "url": ws(cluster.urls[i % 3])}, (i, found)
            for c in (creator, friend):
                await c.close()

    run(scenario())


def test_create_goes_to_the_least_loaded_process(cluster) -> None:
    async def scenario() -> None:
        cluster.wait_for(lambda h: h["rooms"] == 0, "the earlier rooms to close")
        # Two rooms on process 1 (pinned there, as a redirect's URL pins them).
        holders = [Client(f"127.0.0.{20 + i}") for i in range(2)]
        for holder in holders:
            made = await holder.create_on(cluster.urls[0], "online")
            assert made["type"] == "joined"
        # `routed` places one create only: the next one on that connection is placed
        # like any other (here: away from process 1, which has the most rooms).
        pinned = Client("127.0.0.24")
        assert (await pinned.create_on(cluster.urls[0], "online"))["type"] == "joined"
        await pinned.send(type="leave")
        again = await pinned.ask(type="create", mode="online")
        assert again["type"] == "redirect" and again["url"].endswith("?routed=1"), again
        await pinned.close()
        # A create at process 1 is sent to a process with no room; the one it lands on
        # keeps it (no second redirect).
        newcomer = Client("127.0.0.22")
        made = await newcomer.enter(ws(cluster.urls[0]), type="create", mode="online")
        assert made["type"] == "joined" and len(newcomer.redirects) == 1
        assert newcomer.redirects[0] in (
            ws(cluster.urls[1], routed=True),
            ws(cluster.urls[2], routed=True),
        )
        # With every process equal, the entry keeps the room itself.
        equal = Client("127.0.0.23")
        target = cluster.urls.index(newcomer.redirects[0].split("/ws")[0].replace("ws:", "http:"))
        other = ({1, 2} - {target}).pop()
        first = await equal.enter(ws(cluster.urls[other]), type="create", mode="online")
        assert first["type"] == "joined" and equal.redirects == []
        for c in (*holders, newcomer, equal):
            await c.close()

    run(scenario())


def test_per_address_limits_hold_over_the_processes(cluster) -> None:
    async def scenario() -> None:
        # --max-rooms-per-ip 3: one room on each process, and the fourth is refused
        # wherever it is asked for, though no process holds more than one.
        owner = [Client("127.0.0.30") for _ in range(4)]
        for i in range(3):
            made = await owner[i].create_on(cluster.urls[i], "online")
            assert made["type"] == "joined"
        refused = await owner[3].create_on(cluster.urls[0], "online")
        assert refused["code"] == "too_many_rooms" and "over all the servers" in refused["message"]
        for c in owner:
            await c.close()

        # The creation rate (a burst of 6): two rooms made and left on each process,
        # then the seventh is refused, where each process alone would allow it.
        maker = Client("127.0.0.31")
        for n in range(6):
            made = await maker.create_on(cluster.urls[n % 3], "online")
            assert made["type"] == "joined", made
            await maker.send(type="leave")
        late = await maker.create_on(cluster.urls[1], "online")
        assert late["code"] == "too_many_rooms" and "try again in" in late["message"]
        await maker.close()

        # Open connections: four over the three processes, and the fifth is refused
        # (each count reaches Redis within milliseconds; the test leaves it 0.2 s).
        held = [Client("127.0.0.32") for _ in range(5)]
        for i in range(4):
            await held[i].connect(ws(cluster.urls[i % 3]))
            await asyncio.sleep(0.2)
        refused = await held[4].connect(ws(cluster.urls[1]))  # no welcome: this
        assert refused["code"] == "too_many_connections", refused
        for c in held:
            await c.close()

        # A burst of handshakes at one process at once: the count is read and taken
        # with no wait between, so exactly the limit gets in.
        burst = [Client("127.0.0.33") for _ in range(10)]
        first = await asyncio.gather(*(c.connect(ws(cluster.urls[0])) for c in burst))
        assert sorted(m["type"] for m in first) == ["error"] * 6 + ["welcome"] * 4, first
        for c in burst:
            await c.close()

    run(scenario())


def test_a_killed_process_loses_only_its_own_rooms() -> None:
    with LocalCluster(2, SERVE + ["--rule", "round_ms=60000"]) as cluster:

        async def scenario() -> None:
            keeps = Client("127.0.0.40")
            kept = await keeps.create_on(cluster.urls[0], "bot", bot="easy")
            lost = Client("127.0.0.41")
            doomed = await lost.create_on(cluster.urls[1], "bot", bot="easy")
            assert kept["type"] == doomed["type"] == "joined"
            for c in (keeps, lost):
                await c.until("events")

            # One more room on process 0: process 1 is now the least loaded.
            extra = Client("127.0.0.43")
            assert (await extra.create_on(cluster.urls[0], "online"))["type"] == "joined"
            cluster.kill(1)
            # Its record lives on for up to 3 s; still no create is sent to it (issue 26:
            # 3 of 6 were): it does not answer at its public URL, so they stay here.
            for i in range(6):
                maker = Client(f"127.0.3.{i + 1}")
                await maker.connect(ws(cluster.urls[0]))
                made = await maker.ask(type="create", mode="online")
                assert made["type"] == "joined", (i, made)
                await maker.close()
            assert cluster.health(0)["processes"] == 2, "the dead one expired meanwhile"
            # Within a few heartbeats its record expires: it leaves the cluster.
            cluster.wait_for(lambda h: h["processes"] == 1, "the dead process to expire")
            # Its player comes back through the survivor and is told the room is lost.
            again = Client("127.0.0.41")
            answer = await again.enter(
                ws(cluster.urls[0]), type="resume", token=doomed["token"], code=doomed["room"]
            )
            assert answer["type"] == "error" and answer["code"] == "room_lost", answer
            assert doomed["room"] in answer["message"]
            # The survivor's match plays on: events keep coming, seq after seq.
            seqs = [(await keeps.until("events"))["seq"] for _ in range(5)]
            assert seqs == sorted(seqs) and len(set(seqs)) == 5
            # New rooms are not sent to the dead process.
            fresh = Client("127.0.0.42")
            made = await fresh.enter(ws(cluster.urls[0]), type="create", mode="online")
            assert made["type"] == "joined" and fresh.redirects == []
            for c in (keeps, again, fresh, extra):
                await c.close()

        run(scenario())


def test_sigterm_drains_a_process_and_its_new_rooms_go_elsewhere() -> None:
    with LocalCluster(2, [*RULES, "--pause-ms", "200", "--rule", "round_ms=4000"]) as cluster:

        async def scenario() -> None:
            player = Client("127.0.0.50")
            made = await player.create_on(cluster.urls[0], "local")
            assert made["type"] == "joined"
            await player.until("events")
            started = time.monotonic()
            cluster.procs[0].send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 10
            while not cluster.health(0)["draining"]:
                assert time.monotonic() < deadline, "the process did not start draining"
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.5)  # a heartbeat: the others know it drains

            # New rooms asked of the draining process go to the other one.
            newcomer = Client("127.0.0.51")
            moved = await newcomer.create_on(cluster.urls[0], "online")
            assert moved["type"] == "joined", moved
            assert newcomer.redirects == [ws(cluster.urls[1], routed=True)]
            # The running match finishes, then the room closes with a reason.
            end = await player.until("match_end")
            assert end["match_id"] == made["match_id"]
            closing = await player.until("error")
            assert closing["code"] == "server_closing"
            assert cluster.procs[0].wait(timeout=30) == 0
            # It went when its match ended, not at drain_s (60 s): the bound sits between
            # the two, wide for a loaded machine (issue 27: count, or widen with a reason).
            assert time.monotonic() - started < 50
            await newcomer.close()
            await player.close()

        run(scenario())


def test_without_redis_each_process_serves_its_own_rooms_and_then_rejoins() -> None:
    with LocalCluster(2, SERVE + ["--rule", "round_ms=60000"]) as cluster:

        async def scenario() -> None:
            player = Client("127.0.0.60")
            made = await player.create_on(cluster.urls[0], "bot", bot="easy")
            assert made["type"] == "joined"
            cluster.redis.terminate()
            cluster.redis.wait(timeout=10)
            # Its match plays on, and both processes still make rooms, themselves.
            seqs = [(await player.until("events"))["seq"] for _ in range(3)]
            assert seqs == sorted(seqs)
            for i in (0, 1):
                other = Client(f"127.0.0.{61 + i}")
                answer = await other.enter(ws(cluster.urls[i]), type="create", mode="online")
                assert answer["type"] == "joined" and other.redirects == []
                await other.close()
            # Redis is back, empty: within a heartbeat or two both processes have
            # written their records and rooms again, and a code works from any entry.
            cluster.restart_redis()
            deadline = time.monotonic() + 10
            while True:
                guest = Client("127.0.0.63")
                answer = await guest.enter(ws(cluster.urls[1]), type="watch", code=made["room"])
                if answer["type"] == "joined" or time.monotonic() > deadline:
                    break
                await guest.close()
                await asyncio.sleep(0.2)
            assert answer["type"] == "joined" and guest.redirects == [ws(cluster.urls[0])], answer
            for c in (player, guest):
                await c.close()

        run(scenario())


@pytest.mark.parametrize("game", ["doh", "rift"])
def test_every_game_the_server_hosts_is_sent_on_the_same_way(game: str) -> None:
    pytest.importorskip(f"blitz_core.{game}")
    with LocalCluster(2, ["--game", game, "--pause-ms", "200"]) as cluster:

        async def scenario() -> None:
            host = Client("127.0.0.70")
            made = await host.create_on(cluster.urls[0], "online")
            guest = Client("127.0.0.71")
            joined = await guest.enter(ws(cluster.urls[1]), type="join", code=made["room"])
            assert guest.redirects == [ws(cluster.urls[0])] and joined["type"] == "joined"
            assert joined["seats"] != made["seats"]
            # The match starts on the host, for both.
            for c in (host, guest):
                assert (await c.until("round_break"))["round"] == 0
                assert (await c.until("events"))["match_id"] == made["match_id"]
            for c in (host, guest):
                await c.close()

        run(scenario())


def test_a_stopped_process_leaves_the_cluster_clean() -> None:
    import redis

    with LocalCluster(2, SERVE + ["--rule", "round_ms=60000"]) as cluster:

        async def scenario() -> None:
            player = Client("127.0.0.80")
            made = await player.create_on(cluster.urls[0], "bot", bot="easy")
            await player.until("events")
            store = redis.Redis(port=cluster.redis_port, decode_responses=True)
            assert any(made["room"] in key for key in store.keys("*"))
            # SIGINT: at once, with a room playing; the process removes what it wrote.
            gone = cluster.health(0)["process"]
            cluster.procs[0].send_signal(signal.SIGINT)
            assert cluster.procs[0].wait(timeout=15) is not None
            left = store.keys("*")
            assert not [k for k in left if made["room"] in k], left
            assert not [k for k in left if k.endswith(gone)], left
            assert [k for k in left if ":proc:" in k] == [
                k for k in left if k.endswith(":proc:" + cluster.health(1)["process"])
            ]
            store.close()
            await player.close()

        run(scenario())


def test_serve_options_of_a_cluster(monkeypatch, capsys, redis_port) -> None:
    from server_support import assert_serve_refuses, serve_parser
    from tictacblitz import server as server_package

    parser = serve_parser()
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    cases = (
        (["--redis", "redis://127.0.0.1:6379/0"], "--redis needs --public-url"),
        (["--redis", "http://x", "--public-url", "http://a:1"], "a Redis URL is redis://"),
        (["--public-url", "blitz.example.org"], "a URL is http(s)://host"),
        (["--redis", nobody, "--public-url", "http://a:1"], "Redis does not answer"),
        (["--drain-s", "-1"], "--drain-s -1.0 is out of range"),
        (["--max-connections-per-ip", "0"], "--max-connections-per-ip 0 is out of range"),
    )
    assert_serve_refuses(parser, capsys, cases)
    seen = {}
    monkeypatch.setattr(
        server_package, "serve", lambda settings, **kw: seen.update(settings=settings)
    )
    url = f"redis://127.0.0.1:{redis_port}/0"
    args = parser.parse_args(
        ["serve", "--redis", url, "--public-url", "https://b.example/p/1", "--drain-s", "5"]
    )
    assert args.handler(args) == 0
    settings = seen["settings"]
    assert (settings.redis_url, settings.public_url, settings.drain_s) == (
        url,
        "https://b.example/p/1",
        5.0,
    )


def test_a_process_whose_public_url_does_not_reach_it_gets_no_creates() -> None:
    with LocalCluster(1, SERVE) as cluster:
        # A --public-url that another process answers is refused at start, in one line
        # (issue 26: a redirect loop, warned about only after 10 s).
        twin = cluster.start(free_port(), public_url=cluster.urls[0])
        try:
            _, err = twin.communicate(timeout=30)
        finally:
            if twin.poll() is None:
                twin.kill()
                twin.wait()
        assert twin.returncode == 2
        assert err.splitlines() == [
            f"tictacblitz serve: error: --public-url {cluster.urls[0]} is already answered "
            f"by another server (process {cluster.health(0)['process']} of a cluster): "
            "give each process the URL that reaches it"
        ], err
        # A second process registers with a URL that leads nowhere (a wrong setting).
        port = free_port()
        stray = cluster.start(port, public_url=f"http://127.0.0.1:{free_port()}")
        try:
            cluster.wait_for(lambda h: h["processes"] == 2, "the stray process to register")

            async def scenario() -> None:
                # Process 1 holds a room, so the stray one (none) is the least loaded;
                # still every create stays on process 1.
                holder = Client("127.0.0.90")
                await holder.create_on(cluster.urls[0], "online")
                for i in range(3):
                    maker = Client(f"127.0.0.{91 + i}")
                    made = await maker.enter(ws(cluster.urls[0]), type="create", mode="online")
                    assert made["type"] == "joined" and maker.redirects == [], made
                    await maker.close()
                await holder.close()

            run(scenario())
            stray_health = json.loads(
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).read()
            )
            assert stray_health["reachable"] is False and stray_health["processes"] == 2
        finally:
            stray.send_signal(signal.SIGINT)
            stray.wait(timeout=15)


def test_shared_replays_keep_the_newest_within_their_byte_cap(redis_port) -> None:
    import redis.asyncio as aioredis

    from tictacblitz.server.cluster_store import SharedReplays

    port = redis_port

    async def scenario() -> None:
        client = aioredis.from_url(f"redis://127.0.0.1:{port}/0", decode_responses=True)
        store = SharedReplays(client, "t:", cap_bytes=300)
        files = [json.dumps({"n": n, "pad": "x" * 80}) for n in range(5)]
        size = len(files[0])  # 99 bytes each: 3 fit under the cap
        for n, text in enumerate(files):
            await store.put(f"match{n}", text)
        # Over the 300-byte cap the oldest go: the 3 newest stay.
        assert await store.stats() == (3, 3 * size)
        assert await store.get("match0") is None and await store.get("match1") is None
        assert json.loads(await store.get("match4"))["n"] == 4
        # Writing a file again replaces it: its bytes are counted once.
        await store.put("match4", json.dumps({"n": 4, "pad": "y" * 80}))
        assert await store.stats() == (3, 3 * size)
        await client.aclose()

    run(scenario())


def test_create_spam_is_refused_before_any_redis_command(redis_port) -> None:
    """Issue 26: each create cost ~3 Redis commands (the placement) before any check of
    its address, so spam was never refused at the entry. Now this process's own limits
    come first: once an address has used its burst of creates here, further ones cost
    no Redis command at all, whether they would be sent on or kept. Counted with Redis'
    INFO commandstats, on one process in this test process (no heartbeat running: every
    command counted is a create's)."""
    import redis.asyncio as aioredis

    from server_support import Peer
    from tictacblitz.games import load_game
    from tictacblitz.server import protocol as P
    from tictacblitz.server.clock import ManualClock
    from tictacblitz.server.cluster import Cluster
    from tictacblitz.server.lobby import Lobby
    from tictacblitz.server.settings import Settings

    port = redis_port

    async def scenario() -> None:
        url = f"redis://127.0.0.1:{port}/0"
        settings = Settings(
            game=load_game("blitz"), redis_url=url, public_url="http://127.0.0.1:9", bot_threads=0
        )
        # The clock stands still: no token comes back during the test.
        lobby = Lobby(settings, ManualClock())
        cluster = Cluster(settings, lobby)
        # Another live process, with no room, that answers at its public URL.
        other = await asyncio.start_server(healthz_of("other"), "127.0.0.1", 0)
        other_url = f"ws://127.0.0.1:{other.sockets[0].getsockname()[1]}/ws"
        record = {"url": other_url, "origin": "x", "reachable": True, "draining": False}
        await cluster.redis.set(cluster.key("proc", "other"), json.dumps(record))
        await cluster.redis.zadd(cluster.key("procs"), {"other": 0})
        lobby.handle(Peer(), lobby.parse('{"type": "create", "mode": "online"}'))  # one here
        cluster.processes = await cluster.read_processes()
        counter = aioredis.from_url(url, decode_responses=True)

        async def commands() -> int:
            stats = await counter.info("commandstats")
            return sum(v["calls"] for k, v in stats.items() if k != "cmdstat_info")

        async def attempts(address: str, routed: bool, n: int) -> list:
            answers = []
            for _ in range(n):
                peer = Peer()
                peer.address, peer.routed = address, routed
                msg = lobby.parse('{"type": "create", "mode": "online"}')
                try:
                    if not await cluster.route(peer, msg):
                        lobby.handle(peer, msg)  # kept here, as the app does
                except P.ProtocolError as exc:
                    peer.send(exc.to_dict())
                answers.append(peer.out[0])  # the answer; then maybe its state
            return answers

        for address, routed, first in (
            ("10.0.0.1", False, "redirect"),
            ("10.0.0.2", True, "joined"),
        ):
            before = await commands()
            burst = await attempts(address, routed, settings.room_burst)
            during = await commands()
            spam = await attempts(address, routed, 30)
            after = await commands()
            # Sent on to the idle process / kept here (a create a redirect sent here).
            assert [a["type"] for a in burst] == [first] * settings.room_burst, burst
            assert during - before >= settings.room_burst  # commands are counted
            assert {a.get("code") for a in spam} == {"too_many_rooms"}, spam
            assert after - during == 0, (address, after - during)
        other.close()
        await counter.aclose()
        await cluster.redis.aclose()

    run(scenario())


def healthz_of(process: str):
    """An asyncio server's handler answering any HTTP request as /healthz of
    ``process`` does."""

    async def answer(reader, writer) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = json.dumps({"ok": True, "process": process}).encode()
        writer.write(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + body)
        await writer.drain()
        writer.close()

    return answer


def test_a_room_whose_process_claims_this_process_url_is_not_redirected_in_a_loop(
    redis_port,
) -> None:
    """Two processes with one --public-url (started from Python: the CLI refuses it):
    a join of the other's room through this one would be sent here again and again.
    It is answered ``room_lost`` instead, naming the cause."""
    from server_support import Peer
    from tictacblitz.games import load_game
    from tictacblitz.server import protocol as P
    from tictacblitz.server.clock import ManualClock
    from tictacblitz.server.cluster import Cluster
    from tictacblitz.server.lobby import Lobby
    from tictacblitz.server.settings import Settings

    port = redis_port

    async def scenario() -> None:
        settings = Settings(
            game=load_game("blitz"),
            redis_url=f"redis://127.0.0.1:{port}/0",
            public_url="http://127.0.0.1:9",
            bot_threads=0,
        )
        lobby = Lobby(settings, ManualClock())
        cluster = Cluster(settings, lobby)
        entry = {"process": "twin", "url": cluster.ws_url, "mode": "online"}
        await cluster.redis.set(cluster.key("room", "ABCDEFGHJK"), json.dumps(entry))
        await cluster.redis.set(cluster.key("proc", "twin"), json.dumps({"url": cluster.ws_url}))
        peer = Peer()
        with pytest.raises(P.ProtocolError) as lost:
            await cluster.route(peer, lobby.parse('{"type": "join", "code": "ABCDEFGHJK"}'))
        assert lost.value.code == "room_lost" and "--public-url" in lost.value.message
        assert peer.out == []  # no redirect
        await cluster.redis.aclose()

    run(scenario())
