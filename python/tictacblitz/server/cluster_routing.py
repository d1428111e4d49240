"""Which process of a cluster answers a client's ``create``, ``join``, ``watch`` or
``resume`` (docs/server.md, "More than one process"): this one (the lobby handles it),
another (a ``redirect`` naming its WebSocket URL), or none (``room_lost``,
``server_closing``, ``too_many_rooms`` over the cluster). Part of :mod:`.cluster`, whose
:class:`~.cluster.Cluster` is the ``cluster`` every function takes. Generic: nothing
here names a game.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Dict, Optional, Tuple

from . import protocol as P

__all__ = [
    "route",
    "redirect",
    "route_create",
    "least_loaded",
    "route_code",
    "answers_at",
    "ROUTED",
]

log = logging.getLogger("tictacblitz.server")
ROUTED = ("create", "join", "watch", "resume")


async def route(cluster: Any, peer: Any, msg: P.ClientMessage) -> bool:
    """Send ``msg`` on when another process should answer it: True when answered
    here (a ``redirect``), False when the lobby handles it.

    :raises ProtocolError: ``room_lost``, ``server_closing``, ``too_many_rooms``.
    """
    if cluster.outage:  # (messages of other types never come here: Cluster.route)
        return False
    try:
        if msg.type == "create":
            return await route_create(cluster, peer, msg)
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


def redirect(peer: Any, msg: P.ClientMessage, url: str) -> bool:
    """Tell ``peer`` to send ``msg`` again at ``url`` (docs/protocol.md, ``redirect``)."""
    out: Dict[str, Any] = {"type": "redirect", "url": url}
    if msg.ref is not None:
        out["ref"] = msg.ref
    peer.send(out)
    return True


async def route_create(cluster: Any, peer: Any, msg: P.ClientMessage) -> bool:
    """A create: to the least loaded process unless a redirect sent it here (then it
    stays), after the address's limits over the cluster."""
    if not getattr(peer, "routed", False) or cluster.lobby.draining:
        target = await least_loaded(cluster)
        if target is None:
            raise P.ProtocolError("server_closing", "every server is shutting down")
        if target[0] != cluster.process:
            return redirect(peer, msg, target[1] + "?routed=1")
    # One create only: a later one on this connection is placed like any other.
    peer.routed = False
    address = getattr(peer, "address", "")
    s = cluster.settings
    if await cluster.held("rooms", address, cluster.lobby.rooms_by_address.get(address, 0)) >= (
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


async def least_loaded(cluster: Any) -> Optional[Tuple[str, str]]:
    """The live, not draining process with the fewest rooms (this one on a tie): its
    id and WebSocket URL."""
    live = await cluster.read_processes()
    scores = await cluster.redis.zrange(cluster.key("procs"), 0, -1, withscores=True)
    loads = {process: int(score) for process, score in scores}
    loads[cluster.process] = len(cluster.lobby.rooms)
    candidates = [
        (loads.get(p, 0), True, p, str(info["url"]))
        for p, info in live.items()
        if p != cluster.process and info.get("reachable") and not info.get("draining")
    ]
    if not cluster.lobby.draining:
        candidates.append((loads[cluster.process], False, cluster.process, cluster.ws_url))
    if not candidates:
        return None
    _, _, process, url = min(candidates)
    return process, url


async def route_code(cluster: Any, peer: Any, msg: P.ClientMessage, code: str) -> bool:
    """A join, watch or resume of another process's room: to it, or ``room_lost``."""
    entry_text = await cluster.redis.get(cluster.key("room", code))
    if entry_text is None:
        return False  # the lobby answers: room_not_found or bad_token
    entry = json.loads(entry_text)
    if entry["process"] == cluster.process:
        return False  # an entry of a room this process closed a moment ago
    if not await cluster.redis.exists(cluster.key("proc", entry["process"])):
        raise P.ProtocolError(
            "room_lost", f"room {code} was lost: the server process hosting it stopped"
        )
    return redirect(peer, msg, entry["url"])


async def answers_at(public_url: str, process: str, timeout_s: float = 2.0) -> bool:
    """Whether ``{public_url}/healthz`` is answered by ``process`` (the URL reaches it)."""
    import asyncio
    import urllib.request

    def ask() -> bool:
        try:
            with urllib.request.urlopen(
                public_url.rstrip("/") + "/healthz", timeout=timeout_s
            ) as r:
                return bool(json.loads(r.read()).get("process") == process)
        except (OSError, ValueError):
            return False

    return await asyncio.get_running_loop().run_in_executor(None, ask)
