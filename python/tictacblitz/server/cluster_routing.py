"""Which process of a cluster answers a client's ``create``, ``join``, ``watch`` or
``resume`` (docs/server.md, "More than one process"): this one (the lobby handles it),
another (a ``redirect`` naming its WebSocket URL), or none (``room_lost``,
``server_closing``, ``too_many_rooms`` over the cluster). Part of :mod:`.cluster`, whose
:class:`~.cluster.Cluster` is the ``cluster`` every function takes. Generic: nothing
here names a game.

Two rules of issue 26 (item 5): a ``create`` meets the address's limits of this
process first, before any Redis command (spam is refused for free), and is sent to
another process only after that process answered at its public URL (a process killed
a moment ago is still in the directory for up to ``process_ttl_ms``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
from typing import Any, Awaitable, Dict, Optional, Tuple, TypeVar
from urllib.parse import urlsplit

from . import protocol as P

__all__ = [
    "route",
    "redirect",
    "route_create",
    "check_here",
    "least_loaded",
    "route_code",
    "answers_at",
    "healthz_process",
    "check_public_url",
    "find_self",
    "within",
    "ROUTED",
]

log = logging.getLogger("tictacblitz.server")
T = TypeVar("T")
ROUTED = ("create", "join", "watch", "resume")
# A target's /healthz must answer this long before the create's deadline (REQUEST_S in
# all), so that a silent one leaves time to place the create elsewhere.
PROBE_MARGIN_S = 0.05


async def route(cluster: Any, peer: Any, msg: P.ClientMessage, deadline: float) -> bool:
    """Send ``msg`` (a ``create`` or a ``join``/``watch``/``resume`` outside a room) on
    when another process should answer it: True when answered here (a ``redirect``),
    False when the lobby handles it. Its Redis calls end by loop time ``deadline``; a
    create meets this process's limits first (:func:`check_here`).

    :raises ProtocolError: ``room_lost``, ``server_closing``, ``too_many_rooms``.
    """
    if msg.type == "create":
        check_here(cluster, peer, msg)  # this process's limits first: no Redis
    try:
        sent_on = await within(_route(cluster, peer, msg, deadline), deadline)
    except asyncio.TimeoutError:  # Redis slow: this process answers
        log.warning("Redis slower than the client's bound: answering locally")
        sent_on = False
    if msg.type == "create" and not sent_on:
        # A room here: the lobby takes the address's token itself.
        cluster.lobby.room_buckets.give_back(getattr(peer, "address", ""))
    return sent_on


async def _route(cluster: Any, peer: Any, msg: P.ClientMessage, deadline: float) -> bool:
    if cluster.outage:  # (messages of other types never come here: Cluster.route)
        return False
    try:
        if msg.type == "create":
            return await route_create(cluster, peer, msg, deadline)
        if msg.type == "resume":
            if msg.get("token") in cluster.lobby.tokens or msg.get("code") is None:
                return False
        code = msg.get("code")
        if code in cluster.lobby.rooms:
            return False
        return await route_code(cluster, peer, msg, code)
    except P.ProtocolError as exc:
        exc.ref = msg.ref
        raise
    except Exception as exc:  # Redis lost mid-way: answer from this process
        log.warning("Redis unreachable (%s): answering locally", exc)
        return False


async def within(call: Awaitable[T], deadline: float) -> T:
    """``call``, unless loop time ``deadline`` (a client's: ``Cluster.deadline``) passes
    first: then :class:`asyncio.TimeoutError`, and an unstarted call never starts."""
    left = deadline - asyncio.get_running_loop().time()
    if left <= 0:
        if asyncio.iscoroutine(call):
            call.close()
        raise asyncio.TimeoutError
    return await asyncio.wait_for(call, left)


def redirect(peer: Any, msg: P.ClientMessage, url: str) -> bool:
    """Tell ``peer`` to send ``msg`` again at ``url`` (docs/protocol.md, ``redirect``)."""
    out: Dict[str, Any] = {"type": "redirect", "url": url}
    if msg.ref is not None:
        out["ref"] = msg.ref
    peer.send(out)
    return True


def check_here(cluster: Any, peer: Any, msg: P.ClientMessage) -> None:
    """A create meets this process's own limits for its address first, before any
    Redis command: spam is refused for free (issue 26: ~3 commands per attempt before).
    A token of the local bucket is taken for every attempt; :class:`~.cluster.Cluster`
    gives it back when the create ends in a room here (the lobby takes its own).

    :raises ProtocolError: ``too_many_rooms``.
    """
    try:
        cluster.lobby.may_create_from(getattr(peer, "address", ""))
    except P.ProtocolError as exc:
        exc.ref = msg.ref
        raise


async def route_create(cluster: Any, peer: Any, msg: P.ClientMessage, deadline: float) -> bool:
    """A create (past :func:`check_here`): to the least loaded live process unless a
    redirect sent it here (then it stays), after the address's limits over the cluster."""
    address = getattr(peer, "address", "")
    lobby, s = cluster.lobby, cluster.settings
    if not getattr(peer, "routed", False) or lobby.draining:
        target = await least_loaded(cluster, deadline)
        if target is None:
            raise P.ProtocolError("server_closing", "every server is shutting down")
        if target[0] != cluster.process:
            return redirect(peer, msg, target[1] + "?routed=1")
    # One create only: a later one on this connection is placed like any other.
    peer.routed = False
    if await cluster.held("rooms", address, lobby.rooms_by_address.get(address, 0)) >= (
        s.max_rooms_per_ip
    ):
        raise P.ProtocolError(
            "too_many_rooms",
            f"at most {s.max_rooms_per_ip} rooms from one address over all the "
            "servers (a room left counts until its grace runs out)",
        )
    wait = await cluster.take("rooms", address, s.room_rate_per_s, s.room_burst)
    if wait:
        raise P.ProtocolError(
            "too_many_rooms",
            f"too many new rooms from this address: try again in {max(1, round(wait))} s",
        )
    return False


async def least_loaded(cluster: Any, deadline: float) -> Optional[Tuple[str, str]]:
    """The live, not draining process with the fewest rooms (this one on a tie): its
    id and WebSocket URL. Another process is chosen only once it answered at its
    public URL (:func:`answers_at`, by ``deadline`` less a margin); one that did not is
    passed over until its record would have expired (issue 26: creates went to a
    killed process for up to 3 s)."""
    live = await cluster.read_processes()
    scores = await cluster.redis.zrange(cluster.key("procs"), 0, -1, withscores=True)
    loads = {process: int(score) for process, score in scores}
    loads[cluster.process] = len(cluster.lobby.rooms)
    now = asyncio.get_running_loop().time()
    silent = cluster.silent_processes
    candidates = [
        (loads.get(p, 0), True, p, str(info["url"]))
        for p, info in live.items()
        if p != cluster.process
        and info.get("reachable")
        and not info.get("draining")
        and silent.get(p, 0.0) <= now
    ]
    if not cluster.lobby.draining:
        candidates.append((loads[cluster.process], False, cluster.process, cluster.ws_url))
    for _, _, process, url in sorted(candidates):
        left = deadline - asyncio.get_running_loop().time() - PROBE_MARGIN_S
        if process == cluster.process or left <= 0:
            break  # this process, or no time left to ask another: here
        if await answers_at(http_url_of(url), process, left):
            return process, url
        log.warning("process %s does not answer at %s: no creates sent to it", process, url)
        silent[process] = now + cluster.settings.process_ttl_ms / 1000.0
    return None if cluster.lobby.draining else (cluster.process, cluster.ws_url)


async def route_code(cluster: Any, peer: Any, msg: P.ClientMessage, code: str) -> bool:
    """A join, watch or resume of another process's room: to it, or ``room_lost``."""
    entry_text = await cluster.redis.get(cluster.key("room", code))
    if entry_text is None:
        return False  # the lobby answers: room_not_found or bad_token
    entry = json.loads(entry_text)
    if entry["process"] == cluster.process:
        return False  # an entry of a room this process closed a moment ago
    if entry["url"] == cluster.ws_url:
        # Another process gave this process's --public-url as its own: sent here again,
        # the client would loop. (Each process refuses such a URL at start.)
        raise P.ProtocolError(
            "room_lost",
            f"room {code} is on a server process whose --public-url is wrong: it cannot be reached",
        )
    if not await cluster.redis.exists(cluster.key("proc", entry["process"])):
        raise P.ProtocolError(
            "room_lost", f"room {code} was lost: the server process hosting it stopped"
        )
    return redirect(peer, msg, entry["url"])


async def answers_at(public_url: str, process: str, timeout_s: float = 2.0) -> bool:
    """Whether ``{public_url}/healthz`` is answered by ``process`` (the URL reaches it)."""
    return await healthz_process(public_url, timeout_s) == process


async def healthz_process(public_url: str, timeout_s: float = 2.0) -> Optional[str]:
    """The process id that answers ``{public_url}/healthz``: ``""`` for a server of
    ours outside any cluster, None when nothing does (refused, timed out, another
    kind of server). One HTTP/1.0 request on the loop: no thread is held."""
    parts = urlsplit(public_url.rstrip("/"))
    https = parts.scheme == "https"
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if https else 80)
    except ValueError:
        return None
    request = (
        f"GET {parts.path}/healthz HTTP/1.0\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n"
    ).encode()

    async def ask() -> bytes:
        reader, writer = await asyncio.open_connection(
            host, port, ssl=ssl.create_default_context() if https else None
        )
        try:
            writer.write(request)
            answer = await reader.read(65_536)
            while len(answer) < 65_536:
                more = await reader.read(65_536 - len(answer))
                if not more:
                    break
                answer += more
            return answer
        finally:
            writer.close()

    try:
        answer = await asyncio.wait_for(ask(), timeout_s)
        head, _, body = answer.partition(b"\r\n\r\n")
        if head.split(b" ", 2)[1:2] != [b"200"]:
            return None
        found = json.loads(body)
    except (OSError, ValueError, IndexError, asyncio.TimeoutError):
        return None
    if not isinstance(found, dict) or found.get("ok") is not True:
        return None
    return str(found.get("process", ""))


async def find_self(cluster: Any) -> None:
    """Ask the cluster process's own public URL who answers, until it is that process
    (the server starts serving after this starts, so the first tries may fail). Another
    process answering there is a wrong --public-url for sure: said at once (the CLI
    refuses to start then: :func:`check_public_url`; this is for a process started
    from Python)."""
    public_url, tries = cluster.settings.public_url, 0
    while (found := await healthz_process(public_url)) != cluster.process:
        tries += 1
        if found is not None and tries == 1:
            log.error(
                "--public-url %s reaches another server process (%s), not this one: no "
                "other process sends it new rooms, and its rooms cannot be joined through "
                "them",
                public_url,
                found or "one outside any cluster",
            )
        elif tries == 10:
            log.warning(
                "--public-url %s does not reach this process: no other process sends it "
                "new rooms until it does",
                public_url,
            )
        await asyncio.sleep(1.0)


def check_public_url(public_url: str, timeout_s: float = 2.0) -> Optional[str]:
    """None, or one line saying why ``public_url`` cannot be this process's (for the
    CLI, before it listens): a server of ours answering there now is another one, and
    every redirect to the URL would reach it (issue 26: a redirect loop)."""
    found = asyncio.run(healthz_process(public_url, timeout_s))
    if found is None:
        return None
    who = f"process {found} of a cluster" if found else "a server outside any cluster"
    return (
        f"--public-url {public_url} is already answered by another server ({who}): "
        "give each process the URL that reaches it"
    )


def http_url_of(ws_url: str) -> str:
    """The public URL of the process whose WebSocket URL is ``ws_url`` (ws→http)."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    path = parts.path[: -len("/ws")] if parts.path.endswith("/ws") else parts.path
    return f"{scheme}://{parts.netloc}{path}"
