"""What the clients of a Rift & Grid match see: the public picture of a state, each
seat's private part, and replays as frames for the browser's viewer (docs/rift.md,
docs/client.md). Part of the Rift adapter (``server/games/rift/``).

- :func:`picture` is public (every ``events`` message and every ``state`` carries it):
  the cells by id (``.XO#``), the sectors, the active sector and the legal targets
  (G4: the same for both seats), scores, energy, per seat each ability's cost, cooldown,
  first usable turn and whether it is usable now (G5, G14), who has locked in (never
  what), and per seat only the objectives that are public: accomplished or revealed
  (G12, G15), with the number still hidden; once the game is over, both hands whole.
- :func:`private` is one seat's own part: its whole hand and its programmed move of
  this turn. The room sends it only to a connection holding that seat.
- :func:`replay_frames` plays a replay file back as frames shaped like ``events``
  messages, one per resolved turn; a replay is of a finished game, so its frames show
  both hands (``hands``).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from ....games.protocol import ReplayError
from ....games.rift.encoding import encode
from ....games.rift.game import RiftGame
from ....games.rift.native import NativeRift
from ....games.rift.replay import grid_rows, load_replay, play_replay
from ....games.rift.types import Ability, Player
from ...budget import current_budget

__all__ = [
    "picture",
    "private",
    "public_events",
    "replay_frames",
    "ABILITIES",
    "TURN_MS",
    "MAX_SCRIPT",
]

ABILITIES = tuple(a.key for a in Ability)  # "none", "shield", "swap", "reveal" (G3)
CELL_CHARS = ".XO#"  # empty, X, O, grey (G2)
TURN_MS = 2000  # a turn's spacing on the replay viewer's clock (and in `t`)
MAX_SCRIPT = 10_000  # a replay file's script entries the viewer plays at most


def hands(state: Any) -> List[List[Dict[str, Any]]]:
    """Both hands in dealt order: ``{"id", "points", "accomplished", "revealed"}``."""
    return state.engine.hands()


def picture(state: Any) -> Dict[str, Any]:
    """The public picture of ``state`` (a :class:`~tictacblitz.games.rift.game.RiftState`)."""
    engine = state.engine
    core = engine.core
    rules = state.game.rules
    summary = engine.summary()
    over = engine.over
    masks = [None if over else state.legal_mask(p).reshape(len(Ability), 81) for p in Player]
    abilities: Dict[str, Dict[str, Any]] = {}
    for p in Player:
        ready = dict(zip(ABILITIES[1:], core.ready(int(p)), strict=True))
        mask = masks[p]
        abilities[p.letter] = {
            a.key: {
                "cost": rules.cost(a),
                "cooldown": rules.cooldown(a),
                "ready": ready[a.key],
                "usable": bool(mask is not None and mask[int(a)].any()),
            }
            for a in Ability
            if a != Ability.NONE
        }
    objectives: Dict[str, Dict[str, Any]] = {}
    for p, hand in zip(Player, hands(state), strict=True):
        # Once the game is over nothing is secret: the final picture shows both hands
        # whole (issue 26: they stayed "2 hidden"); before, only what is public (G12).
        known = list(hand) if over else [o for o in hand if o["accomplished"] or o["revealed"]]
        objectives[p.letter] = {"known": known, "hidden": len(hand) - len(known)}
    targets = [] if masks[0] is None else [int(c) for c in masks[0][0].nonzero()[0]]
    return {
        "turn": summary["turn"],
        "cells": "".join(CELL_CHARS[c] for c in core.cells()),
        "sectors": summary["sectors"],
        "active": None if over else summary["active"],
        "targets": targets,
        "score": summary["score"],
        "energy": summary["energy"],
        "abilities": abilities,
        "objectives": objectives,
        "locked": {p.letter: (not over and state.is_locked(int(p))) for p in Player},
        "result": engine.result,
    }


def private(state: Any, seat: int, move: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """What only ``seat`` may see: its hand (G12) and its programmed move (G3)."""
    return {"objectives": hands(state)[seat], "move": move}


def public_events(events: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The state's drained events as everybody may see them: locks (who, never what),
    resolved turns and the end; rejections are the mover's alone (G5)."""
    out: List[Dict[str, Any]] = []
    for event in events:
        kind = event["kind"]
        if kind == "locked":
            out.append({"kind": "locked", "seat": event["player"], "turn": event["turn"]})
        elif kind == "turn":
            out.append(event)
        elif kind == "game_over":
            out.append({"kind": "end", "result": event["result"], "score": event["score"]})
    return out


def replay_frames(game: Any, data: Any) -> Dict[str, Any]:
    """A replay file played back as frames shaped like ``events`` messages: a first
    frame at turn 1, then one per resolved turn (``t = turn * TURN_MS``).

    :raises ReplayError: for an invalid file.
    """
    replay = load_replay(data)
    if len(replay.entries) > MAX_SCRIPT:
        raise ReplayError(f"the viewer plays at most {MAX_SCRIPT} script entries")
    result = play_replay(replay, NativeRift)
    rules_game = RiftGame(replay.rules)
    deal = None if replay.deal is None else {"X": list(replay.deal[0]), "O": list(replay.deal[1])}
    setup = None if replay.setup is None else grid_rows(replay.setup)
    state = rules_game.new_state(replay.seed, deal=deal, setup=setup)
    frames = [
        {
            "round": 1,
            "t": 0,
            "events": [{"kind": "started"}],
            **picture(state),
            "hands": _hands_by_seat(state),
        }
    ]
    budget = current_budget()  # a request's work budget (docs/server.md, "Limits")
    for report in result["turns"]:
        moves = report["moves"]
        codes = [
            encode(moves[p.letter]["cell"], Ability.parse(moves[p.letter]["ability"]))
            for p in Player
        ]
        state.apply_joint(codes)
        frame = {
            "round": 1,
            "t": report["turn"] * TURN_MS,
            "events": public_events(state.drain_events()),
            **picture(state),
            "hands": _hands_by_seat(state),
        }
        # Charged before it is kept: a request over its work budget stops here.
        budget.charge(events=len(frame["events"]), nbytes=len(json.dumps(frame)))
        frames.append(frame)
    last = frames[-1]["t"]
    return {
        "rules": replay.rules.to_dict(),
        "seed": replay.seed,
        "frames": frames,
        "rounds": [],
        "round_wins": {},
        "match": result["result"],
        "end": {"round": 1, "t": last},
    }


def _hands_by_seat(state: Any) -> Dict[str, List[Dict[str, Any]]]:
    return {p.letter: hand for p, hand in zip(Player, hands(state), strict=True)}
