"""Facts that must be written twice (C and Python) are tied here, so a drift fails CI
(docs/architecture.md "One source of truth")."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from blitz_core.blitz import bots as native_bots
from blitz_core.blitz import match as engine
from blitz_core.blitz import playout
from tictacblitz.games import load_game
from tictacblitz.games.blitz import (
    REASON_BY_CODE,
    Action,
    ActionKind,
    Event,
    EventKind,
    Player,
    PlayerStatus,
    PowerupKind,
    Reason,
    RoundEnd,
    RoundRecord,
    Rules,
    parse_cell,
)
from tictacblitz.games.blitz.encoding import action_code, decode_action, num_actions
from tictacblitz.games.blitz.rules import DEFAULT_WEIGHTS


class Vocabulary:
    Rules, Action, ActionKind, Event, EventKind = Rules, Action, ActionKind, Event, EventKind
    PlayerStatus, Player, PowerupKind, Reason = PlayerStatus, Player, PowerupKind, Reason
    RoundEnd, RoundRecord, REASON_BY_CODE, parse_cell = (
        RoundEnd,
        RoundRecord,
        REASON_BY_CODE,
        parse_cell,
    )


def test_python_enums_have_the_engine_codes():
    codes = engine.NATIVE_CODES
    assert {m.name: int(m) for m in EventKind} == codes["EventKind"]
    assert {m.name: int(m) for m in PowerupKind} == codes["PowerupKind"]
    assert {m.name: int(m) for m in ActionKind} == codes["ActionKind"]
    assert {m.name: int(m) for m in Player} == codes["Player"]
    assert {r.name: REASON_BY_CODE.index(r) for r in Reason} == codes["Reason"]
    assert {m.name: i for i, m in enumerate(RoundEnd)} == codes["RoundEnd"]


def test_a_drifted_vocabulary_is_refused_at_binding():
    import enum

    Shifted = enum.IntEnum("PowerupKind", {"BOMB": 0, "FREEZE": 2, "HASTE": 1, "SWAP": 3})

    class Drifted(Vocabulary):
        PowerupKind = Shifted

    with pytest.raises(RuntimeError, match="differ from the engine"):
        engine.bind_vocabulary(Drifted)
    engine.bind_vocabulary(Vocabulary)  # the real one again (unchanged anyway)
    assert load_game("blitz").new_state(1).summary()["round"] == 1


def test_the_powerup_list_is_powerupkind():
    keys = tuple(kind.key for kind in PowerupKind)
    assert tuple(DEFAULT_WEIGHTS) == keys
    assert native_bots._POWERUP_KEYS == keys
    cols = native_bots.play_matches(Rules(), _native("greedy"), _native("greedy"), [3])
    record = native_bots.match_record(cols, 0, 3)
    assert set(record["X"]["powerups"]) == set(keys)


def _native(name):
    from tictacblitz.games.blitz.bots import resolve

    return resolve(name).native()


def test_one_seed_gives_the_same_seat_streams_in_every_runner():
    from blitz_core.blitz import rollouts
    from tictacblitz.envs.games.blitz import StateBatch  # noqa: F401  (loads rollouts)

    assert (rollouts.SEED_SALTS["X"], rollouts.SEED_SALTS["O"]) == native_bots.SEAT_SALTS
    salts = [rollouts.SEED_SALTS[k] for k in ("X", "O", "reset", "sample")]
    assert len(set(salts + [playout.POLICY_SEED_SALT])) == 5  # five distinct streams


def test_layout_2_purpose_salts_are_the_same_in_c_and_python():
    """The salts are written in seeds.pxd (native) and games/blitz/streams.py (the
    reference engine, which imports nothing native): tied here."""
    from blitz_core.blitz import match
    from tictacblitz.games.blitz import streams

    assert match.PURPOSE_SALTS == streams.PURPOSE_SALTS
    assert len(set(streams.PURPOSE_SALTS)) == 4


def test_the_batched_masks_use_the_one_action_encoding():
    from tictacblitz.envs.games.blitz import BatchedMatches

    game = load_game("blitz")
    assert num_actions(Rules()) == game.num_actions
    for code in range(game.num_actions):
        assert action_code(decode_action(code)) == code
    batch = BatchedMatches(4, seed=3, policies=("random", "random"), masks=True)
    batch.reset(3)
    rng = random.Random(3)
    for _ in range(30):
        for i in range(4):
            state = game.state_from_bytes(batch.get_match(i).to_bytes())
            for seat in (0, 1):
                assert np.array_equal(batch.masks[i, seat].astype(bool), state.legal_mask(seat))
        batch.step(np.array([[rng.randrange(game.num_actions) for _ in (0, 1)] for _ in range(4)]))


def test_rift_native_codes_are_the_vocabulary():
    from blitz_core.rift import engine as rift_engine
    from tictacblitz.games.rift import native

    assert rift_engine.NATIVE_CODES == native.python_codes()
    drifted = {
        **rift_engine.NATIVE_CODES,
        "Ability": {"NONE": 0, "SHIELD": 2, "SWAP": 1, "REVEAL": 3},
    }
    with pytest.raises(ImportError, match="Ability"):
        native.check_native_codes(drifted)


def test_the_doh_view_names_the_pieces_of_the_rules():
    """The browser view's piece list is written in JavaScript too: tied to D1's sizes."""
    import json
    import re
    from pathlib import Path

    from tictacblitz.games.doh.types import SIZES

    model = Path(__file__).resolve().parents[1] / "python/tictacblitz/server/static/js/games/doh"
    text = (model / "model.js").read_text(encoding="utf-8")
    found = re.search(r"export const PIECES\s*=\s*(\[[^\]]*\])", text)
    assert found, "model.js no longer declares PIECES"
    assert json.loads(found.group(1).replace("'", '"')) == [size.name for size in SIZES]


def _js_object(text: str, name: str) -> dict:
    import json
    import re

    found = re.search(rf"export const {name}\s*=\s*(\{{[^}}]*\}})", text)
    assert found, f"no {name}"
    quoted = re.sub(r"(\w+):", r'"\1":', found.group(1))
    return json.loads(re.sub(r",\s*\}", "}", quoted))  # JSON has no trailing comma


def _rgb(color: str) -> tuple:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))


def _luminance(rgb: tuple) -> float:
    lin = [
        c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb
    ]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _simulated(rgb: tuple, matrix: tuple) -> tuple:
    """``rgb`` as a person with a colour vision deficiency sees it (Machado et al. 2009,
    severity 1, in linear light)."""
    lin = [
        c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb
    ]
    out = [max(0.0, min(1.0, sum(m * c for m, c in zip(row, lin, strict=True)))) for row in matrix]
    return tuple(
        255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055) for c in out
    )


def test_the_doh_view_names_the_seats_of_d10_each_in_a_colour_of_its_own():
    """Issue 25, item 5: the seat names and colours are written in JavaScript (the model's
    SEATS, draw.js's SEAT_COLORS): tied to D10's seats; the four colours differ (also for
    deuteranopia and protanopia) and each reads on the panel's rows (WCAG's 3:1 for
    graphics), since a phone or a desktop shows them at a dot's size."""
    import itertools
    import json
    import re
    from pathlib import Path

    from tictacblitz.games.doh.types import SEATS

    doh = Path(__file__).resolve().parents[1] / "python/tictacblitz/server/static/js/games/doh"
    model = (doh / "model.js").read_text(encoding="utf-8")
    found = re.search(r"export const SEATS\s*=\s*(\[[^\]]*\])", model)
    assert found, "model.js no longer declares SEATS"
    assert json.loads(found.group(1)) == list(SEATS)
    draw = (doh / "draw.js").read_text(encoding="utf-8")
    colors = _js_object(draw, "SEAT_COLORS")
    assert list(colors) == list(SEATS)
    panel = _js_object(draw.replace("\n", " "), "COLORS")
    for color in colors.values():
        for row in (panel["panel"], panel["panelHi"]):
            lighter, darker = sorted((_luminance(_rgb(color)), _luminance(_rgb(row))))[::-1]
            assert (lighter + 0.05) / (darker + 0.05) >= 3.0, (color, row)
    deuteranopia = ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969))
    protanopia = ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052))
    for a, b in itertools.combinations(colors.values(), 2):
        assert math.dist(_rgb(a), _rgb(b)) >= 100, (a, b)
        for matrix in (deuteranopia, protanopia):
            assert math.dist(_simulated(_rgb(a), matrix), _simulated(_rgb(b), matrix)) >= 40, (a, b)


SEED_VALUES = (
    0,
    7,
    2**64 - 1,
    np.uint64(2**64 - 1),
    -1,
    2**64,
    True,
    np.bool_(True),
    "1",
    1.5,
    None,
)


def test_the_native_seed_check_is_the_python_one():
    # The native package imports nothing from tictacblitz, so blitz_core.common.seed_check
    # repeats tictacblitz.games.rng.check_seed (issue 27, item 3): the same values taken,
    # the same line for each refused one.
    from blitz_core.common import seed_check
    from tictacblitz.games import rng

    def outcome(check, value):
        try:
            return check(value, "seed")
        except ValueError as err:
            return (type(err).__mro__[1:3], str(err))

    for value in SEED_VALUES:
        assert outcome(seed_check.check_seed, value) == outcome(rng.check_seed, value), value


def test_the_native_boundaries_refuse_a_bad_seed_with_the_python_line():
    from blitz_core.doh import engine as doh_engine
    from blitz_core.rift.engine import Core
    from tictacblitz.games.blitz.bots import resolve
    from tictacblitz.games.doh.rules import DohRules
    from tictacblitz.games.rift.rules import RiftRules
    from tictacblitz.games.rng import check_seed

    calls = {
        "blitz Match": lambda s: engine.Match(seed=s),
        "blitz NativePolicy": lambda s: native_bots.NativePolicy(resolve("random").native(), s),
        "doh random_games": lambda s: doh_engine.random_games(
            DohRules().native_params(), n=1, seed=s
        ),
        "rift Core": lambda s: Core(RiftRules().native_params(), s),
    }
    for name, call in calls.items():
        for value in (-1, 2**64, "1"):
            with pytest.raises(ValueError) as got:
                call(value)
            with pytest.raises(ValueError) as want:
                check_seed(value)
            assert str(got.value) == str(want.value), name


def _js_list(path, name: str) -> list:
    import json
    import re

    found = re.search(rf"export const {name}\s*=\s*(\[[^\]]*\])", path.read_text(encoding="utf-8"))
    assert found, f"{path.name} no longer declares {name}"
    return json.loads(found.group(1).replace("'", '"'))


@pytest.mark.parametrize("game", ["blitz", "rift"])
def test_every_view_names_the_seats_of_its_game(game):
    """Issue 27, item 3: a view's SEATS (which the shell never reads: it takes the seats
    of the welcome message) is written in JavaScript too; tied to the game type's seat
    names and the server adapter's (Doh's model.js is tied above)."""
    import importlib
    from pathlib import Path

    views = Path(__file__).resolve().parents[1] / "python/tictacblitz/server/static/js/games"
    seats = list(load_game(game).type.seat_names)
    assert _js_list(views / game / "view.js", "SEATS") == seats
    if game == "blitz":  # the model's seats, drawn as a cross and a ring
        assert _js_list(views / game / "model.js", "PLAYERS") == seats
    assert list(importlib.import_module(f"tictacblitz.server.games.{game}").SEATS) == seats
    counters = {"rift": "metrics"}.get(game, "balance")  # the lab's part: its columns
    balance = importlib.import_module(f"tictacblitz.lab.games.{game}.{counters}")
    assert list(balance.SEATS) == [s.lower() for s in seats]  # the columns' suffixes


def test_the_rift_view_names_the_abilities_of_g3():
    """Rift's abilities are written in JavaScript (layout.js ABILITIES): tied to G3's
    vocabulary, which the balance and the server picture derive theirs from."""
    from pathlib import Path

    from tictacblitz.games.rift.types import MAX_TURNS, Ability
    from tictacblitz.lab.games.rift import metrics as balance
    from tictacblitz.server.games.rift import wire

    keys = [a.key for a in Ability]
    rift = Path(__file__).resolve().parents[1] / "python/tictacblitz/server/static/js/games/rift"
    assert _js_list(rift / "layout.js", "ABILITIES") == keys
    assert list(wire.ABILITIES) == keys and list(balance.ABILITIES) == keys[1:]
    assert MAX_TURNS == 81  # G16: 81 cells, each turn fills one at least


def test_the_bounds_typed_once_follow_the_native_modules():
    """Doh's longest game (MAX_PLIES, the balance's length histogram) from the native
    engine's largest stash; Blitz's powerup keys from R14's enum, in one place."""
    from blitz_core.doh.engine import MAX_PIECES_PER_SIZE
    from tictacblitz.games.blitz.types import POWERUP_KEYS
    from tictacblitz.games.doh.rules import MAX_PLIES
    from tictacblitz.lab.games.blitz import balance, metrics, report, targets
    from tictacblitz.lab.games.doh import seats as balance_seats

    assert MAX_PLIES == balance_seats.MAX_PLIES == 3 * MAX_PIECES_PER_SIZE
    assert POWERUP_KEYS == tuple(k.name.lower() for k in PowerupKind) == tuple(codes_in_order())
    for module in (balance, metrics, report, targets):
        assert module.KINDS is POWERUP_KEYS


def codes_in_order():
    codes = engine.NATIVE_CODES["PowerupKind"]
    return [name.lower() for name, _ in sorted(codes.items(), key=lambda kv: kv[1])]


@pytest.mark.parametrize("pieces", [3, 7, 8, 10])
def test_doh_observation_keys_read_the_native_key_layout(pieces):
    """Issue 27, item 3: exploitability's observation_keys rebuilt engine.pxd's pos_key
    layout by hand (3 bits a stash count, 4 from 8 pieces a size, from bit 36); it now
    reads the layout from the engine, and here the two agree at both widths."""
    from blitz_core.doh import engine as doh_engine
    from tictacblitz.games.doh.exploitability import observation_keys
    from tictacblitz.games.doh.rules import DohRules

    assert doh_engine.key_stash_bits(DohRules(pieces_per_size=pieces).native_params()) == (
        3 if pieces <= 7 else 4
    )
    rules = DohRules(pieces_per_size=pieces)
    game = load_game("doh").with_rules({"pieces_per_size": pieces})
    rng = np.random.default_rng(pieces)
    checked = 0
    for _ in range(5):
        state = game.new_state()
        while not state.is_over():
            obs = np.stack([state.observation(seat) for seat in (0, 1)])
            assert observation_keys(obs, rules).tolist() == [state.position.key()] * 2
            checked += 1
            mover = state.to_move()[0]
            state.apply(mover, int(rng.choice(np.flatnonzero(state.legal_mask(mover)))))
    assert checked >= 5  # one position a game at least


def test_the_labs_worker_count_is_the_native_steppers_core_count():
    """lab.jobs.default_workers and blitz_core's usable_cores count the cores one way
    (the lab may not import the native package, so the fact is written twice)."""
    from blitz_core.common.batch_args import usable_cores
    from tictacblitz.lab.jobs import default_workers

    assert default_workers() == usable_cores() >= 1
