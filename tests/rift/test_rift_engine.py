"""Rule by rule on both engines (G1-G17), the deal (G12), the native tables, the bots."""

from __future__ import annotations

import numpy as np
import pytest

from tictacblitz.games.rift.native import NativeRift
from tictacblitz.games.rift.reference import ReferenceRift, deal_objectives
from tictacblitz.games.rift.replay import parse_setup
from tictacblitz.games.rift.rules import RiftRules
from tictacblitz.games.rift.types import (
    LINES,
    OBJECTIVE_IDS,
    Ability,
    Player,
    Reason,
    cell_at,
    cell_id,
    grid_row_col,
)

ENGINES = [NativeRift, ReferenceRift]
X, O = Player.X, Player.O  # noqa: E741 - the seats' own names
NONE, SHIELD, SWAP, REVEAL = Ability


def rows(**sectors):
    out = [["."] * 9 for _ in range(9)]
    for key, text in sectors.items():
        s = int(key[1:])
        for p, ch in enumerate(text):
            r, c = grid_row_col(cell_id(s, p))
            out[r][c] = ch
    return ["".join(r) for r in out]


def test_geometry_g1():
    assert [grid_row_col(c) for c in (0, 8, 9, 40, 80)] == [(0, 0), (2, 2), (0, 3), (4, 4), (8, 8)]
    assert all(cell_at(*grid_row_col(c)) == c for c in range(81))


def test_line_table_matches_lines():
    from blitz_core.rift.engine import line_table

    table = line_table()
    for mask in range(512):
        expected = sum(1 << i for i, line in enumerate(LINES) if all(mask >> p & 1 for p in line))
        assert table[mask] == expected


@pytest.mark.parametrize("seed", [0, 1, 2, 12345, 2**64 - 1])
def test_deal_g12_seeded_distinct_and_shared_by_engines(seed):
    rules = RiftRules()
    x, o = deal_objectives(rules, seed)
    assert len(set(x)) == 3 and len(set(o)) == 3
    assert deal_objectives(rules, seed) == (x, o)
    native = NativeRift(rules, seed).summary()["objectives"]
    assert [h["id"] for h in native["X"]] == list(x) and [h["id"] for h in native["O"]] == list(o)


@pytest.mark.parametrize("seed", [-5, 2**64])
def test_both_engines_refuse_a_seed_out_of_range_with_the_one_line(seed):
    # issue 27, item 3: -5 was wrapped modulo 2**64 (the same deal in both engines);
    # every place a seed enters now refuses it with games/rng.py's line.
    line = f"seed must be an integer in [0, 2**64), not {seed}"
    for make in (
        lambda: deal_objectives(RiftRules(), seed),
        lambda: ReferenceRift(RiftRules(), seed),
        lambda: NativeRift(RiftRules(), seed),
    ):
        with pytest.raises(ValueError) as info:
            make()
        assert str(info.value) == line


def test_deal_uses_the_whole_catalogue_and_only_it():
    seen = set()
    rules = RiftRules(objectives=("centre", "meta_line", "swap_win"), objectives_per_player=2)
    for seed in range(200):
        x, o = deal_objectives(rules, seed)
        seen |= set(x) | set(o)
    assert seen == {"centre", "meta_line", "swap_win"}
    seen = set()
    for seed in range(300):
        seen |= set(deal_objectives(RiftRules(), seed)[0])
    assert seen == set(OBJECTIVE_IDS)


@pytest.mark.parametrize("Engine", ENGINES)
def test_g5_rejections_in_order(Engine):
    rules = RiftRules(objectives_per_player=1)
    game = Engine(
        rules,
        0,
        deal=(("centre",), ("meta_line",)),
        setup=parse_setup(rows(s4="OOO......", s0="X........")),
    )
    # free turn (G4): any empty cell of an open sector
    assert game.rejection(X, 36, NONE) == Reason.SECTOR_DECIDED  # decided beats not_empty
    assert game.rejection(X, 0, NONE) == Reason.NOT_EMPTY
    assert game.rejection(X, 0, REVEAL) == Reason.NOT_EMPTY  # target reasons first
    assert game.rejection(X, 1, REVEAL) == Reason.NO_ENERGY
    assert game.rejection(X, 80, SWAP) is None
    game.resolve((1, SHIELD), (2, NONE))  # next sector: 1
    assert game.rejection(O, 0, NONE) == Reason.WRONG_SECTOR
    assert game.rejection(O, 36, NONE) == Reason.SECTOR_DECIDED  # before wrong_sector
    assert game.rejection(X, 9, SHIELD) == Reason.COOLING_DOWN
    assert game.rejection(X, 9, NONE) is None


@pytest.mark.parametrize("Engine", ENGINES)
def test_nothing_to_reveal_counts_accomplished(Engine):
    rules = RiftRules(objectives_per_player=1, reveal_cost=0)
    game = Engine(
        rules, 0, deal=(("centre",), ("centre",)), setup=parse_setup(rows(s4="OO......."))
    )
    game.resolve((0, NONE), (38, NONE))  # O wins sector 4: centre accomplished
    assert game.summary()["objectives"]["O"][0]["accomplished"]
    assert game.rejection(X, 1, REVEAL) == Reason.NOTHING_TO_REVEAL
    assert game.rejection(O, 1, REVEAL) is None


@pytest.mark.parametrize("Engine", ENGINES)
def test_energy_g13_cap_and_sector_gain(Engine):
    rules = RiftRules(objectives_per_player=0, energy_start=9, energy_sector_gain=3)
    game = Engine(rules, 0, setup=parse_setup(rows(s0="XX.......", s8="OO.......")))
    game.resolve((2, NONE), (74, SHIELD))  # X: 9+1+3 -> 10; O: 9-2+3 = 10
    assert game.summary()["energy"] == {"X": 10, "O": 10}


@pytest.mark.parametrize("Engine", ENGINES)
def test_cooldown_g14_usable_from_t_plus_cooldown(Engine):
    game = Engine(RiftRules(energy_start=10, swap_cooldown=2), 0)
    game.resolve((0, SWAP), (80, NONE))  # turn 1; X gets 80 -> sector 8
    assert game.summary()["cooldowns"]["X"]["swap"] == 3
    assert game.rejection(X, 72, SWAP) == Reason.COOLING_DOWN  # turn 2
    game.resolve((72, NONE), (73, NONE))  # -> sector 0
    assert game.rejection(X, 1, SWAP) is None  # turn 3


@pytest.mark.parametrize("Engine", ENGINES)
def test_full_game_ends_g16_within_81_turns(Engine):
    rng = np.random.default_rng(3)
    for seed in range(5):
        game = Engine(RiftRules(), seed)
        turns = 0
        while not game.over:
            moves = []
            for p in Player:
                legal = [
                    (c, a) for a in Ability for c in range(81) if game.rejection(p, c, a) is None
                ]
                moves.append(legal[rng.integers(len(legal))])
            game.resolve(*moves)
            turns += 1
        s = game.summary()
        assert turns <= 81 and "open" not in s["sectors"]
        x, o = s["score"]["X"], s["score"]["O"]
        assert game.result == ("X" if x > o else "O" if o > x else "draw")
        assert game.rejection(X, 0, NONE) == Reason.GAME_OVER


def test_resolve_refuses_an_illegal_move():
    for Engine in ENGINES:
        game = Engine(RiftRules(), 0)
        game.resolve((0, NONE), (1, NONE))
        before = game.summary()
        with pytest.raises(ValueError):
            game.resolve((0, NONE), (2, NONE))  # 0 is taken
        assert game.summary() == before


def test_core_checks_its_arguments():
    from blitz_core.rift.engine import Core, play_matches

    rules = RiftRules().native_params()
    core = Core(rules, 1)
    for args, error in [
        ((2, 0, 0), ValueError),
        ((0, 81, 0), ValueError),
        ((0, 0, 4), ValueError),
        ((0, "1", 0), TypeError),
        ((True, 0, 0), TypeError),
    ]:
        with pytest.raises(error):
            core.rejection(*args)
    with pytest.raises(ValueError):
        Core(rules[:-1], 0)
    with pytest.raises(ValueError):
        Core(rules, 0, setup=[5] * 81)
    with pytest.raises(ValueError):
        core.load_state_bytes(b"\x00" * 3)
    with pytest.raises(ValueError):
        core.choose(0, 7, 0.0, 1)
    with pytest.raises(ValueError):
        play_matches(rules, 0, 2.0, 0, 0.0, [1])
    assert core.legal_mask(0).sum() == 81 * 3  # turn 1: everything but reveal? see below


def test_turn_one_mask_is_every_cell_with_none_shield_swap_reveal():
    from blitz_core.rift.engine import Core

    # energy 5 < reveal_cost 10: reveal is not usable at the start (G5)
    mask = Core(RiftRules().native_params(), 1).legal_mask(0)
    assert mask[:243].all() and not mask[243:].any()
    mask = Core(RiftRules(energy_start=10).native_params(), 1).legal_mask(1)
    assert mask.all()


def test_loaded_state_bytes_are_checked_fuzz():
    """Flipped bytes of a real state: refused with ValueError, or a sound state that plays
    on to the end (never a crash, never a move outside the board)."""
    from blitz_core.rift.engine import Core

    rules = RiftRules().native_params()
    base = Core(rules, 4)
    for _ in range(10):
        code, _ = base.choose(0, 0, 0.0, 1)
        other, _ = base.choose(1, 0, 0.0, 2)
        base.resolve(code % 81, code // 81, other % 81, other // 81)
    good = base.state_bytes()
    rng = np.random.default_rng(0)
    accepted = 0
    for _ in range(400):
        data = bytearray(good)
        for at in rng.integers(0, len(data), rng.integers(1, 4)):
            data[at] = int(rng.integers(0, 256))
        core = Core(rules, 0)
        try:
            core.load_state_bytes(bytes(data))
        except ValueError:
            continue
        accepted += 1
        seed = 1
        for _ in range(200):
            if core.over:
                break
            x, seed = core.choose(0, 1, 0.0, seed)
            o, seed = core.choose(1, 0, 0.0, seed)
            assert 0 <= x < 324 and 0 <= o < 324
            if core.rejection(0, x % 81, x // 81) or core.rejection(1, o % 81, o // 81):
                break  # a strange but sound state: the policy's pick
            core.resolve(x % 81, x // 81, o % 81, o // 81)
    assert accepted > 0
