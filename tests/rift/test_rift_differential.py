"""The native core against the reference engine (hypothesis): random rules, random
sequences of attempted moves (rejected ones and their G5 reasons included), setups and
deals; every turn's report, every rejection and the state must agree."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tictacblitz.games.rift.native import NativeRift
from tictacblitz.games.rift.reference import ReferenceRift
from tictacblitz.games.rift.rules import RiftRules
from tictacblitz.games.rift.types import OBJECTIVE_IDS, Ability, Player

small = st.integers(min_value=0, max_value=12)


@st.composite
def rules(draw):
    catalogue = draw(st.permutations(OBJECTIVE_IDS))
    n = draw(st.integers(min_value=0, max_value=12))
    per = draw(st.integers(min_value=0, max_value=min(n, 5)))
    energy_max = draw(st.integers(min_value=0, max_value=12))
    return RiftRules(
        sector_win_points=draw(small),
        sector_tie_points=draw(small),
        meta_line_points=draw(small),
        objectives_per_player=per,
        energy_start=draw(st.integers(min_value=0, max_value=energy_max)),
        energy_max=energy_max,
        energy_idle_gain=draw(st.integers(0, 3)),
        energy_sector_gain=draw(st.integers(0, 3)),
        shield_cost=draw(st.integers(0, 6)),
        shield_cooldown=draw(st.integers(0, 5)),
        swap_cost=draw(st.integers(0, 6)),
        swap_cooldown=draw(st.integers(0, 5)),
        reveal_cost=draw(st.integers(0, 8)),
        reveal_cooldown=draw(st.integers(0, 5)),
        objectives=tuple(catalogue[:n]) if n else (),
        objective_points={
            oid: draw(small) for oid in draw(st.sets(st.sampled_from(OBJECTIVE_IDS), max_size=3))
        },
    )


setups = st.one_of(
    st.none(),
    st.dictionaries(st.integers(0, 80), st.sampled_from("XO#"), max_size=24).map(
        lambda cells: tuple(cells.get(c, ".") for c in range(81))
    ),
)


def play(rules_, seed, setup, with_deal, rng, attempts=300):
    """Both engines from the same random attempts: a seat tries a random move (one in
    three), else one of its legal moves; rejections and reasons must agree, and at each
    resolution the masks, the turn's report and the state."""
    deal = None
    if with_deal:
        k = rules_.objectives_per_player
        deal = (
            tuple(rules_.objectives[:k]),
            tuple(rules_.objectives[len(rules_.objectives) - k :]),
        )
    ref = ReferenceRift(rules_, seed, deal=deal, setup=setup)
    nat = NativeRift(rules_, seed, deal=deal, setup=setup)
    assert ref.summary() == nat.summary()
    chosen = [None, None]
    resolved = 0
    for _ in range(attempts):
        p = Player(rng.randrange(2))
        if rng.random() < 1 / 3:
            cell, a = rng.randrange(81), Ability(rng.randrange(4))
        else:
            codes = nat.legal_mask(p).nonzero()[0].tolist()
            if not codes:
                break
            code = rng.choice(codes)
            cell, a = code % 81, Ability(code // 81)
        reason = ref.rejection(p, cell, a)
        assert nat.rejection(p, cell, a) == reason
        if ref.over:
            assert reason.value == "game_over"
            break
        if reason is None:
            chosen[p] = (cell, a)
        if chosen[0] and chosen[1]:
            for q in Player:  # the whole mask against G4 x G5 of the reference
                assert sorted(
                    (code % 81, Ability(code // 81))
                    for code in range(324)
                    if ref.rejection(q, code % 81, Ability(code // 81)) is None
                ) == sorted(
                    (code % 81, Ability(code // 81))
                    for code in nat.legal_mask(q).nonzero()[0].tolist()
                )
            assert ref.resolve(*chosen) == nat.resolve(*chosen)
            assert ref.summary() == nat.summary()
            resolved += 1
            chosen = [None, None]
    assert ref.over == nat.over and ref.result == nat.result
    event(f"turns resolved: {min(resolved, 40) // 10 * 10}+")


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(
    rules(),
    st.integers(min_value=0, max_value=2**64 - 1),  # a seed (games/rng.check_seed)
    setups,
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_native_matches_reference(rules_, seed, setup, with_deal, rng):
    play(rules_, seed, setup, with_deal, rng)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_whole_random_games_agree(seed):
    """A whole game with default rules, moves drawn from the legal ones."""
    import random

    rng = random.Random(seed)
    ref, nat = ReferenceRift(RiftRules(), seed), NativeRift(RiftRules(), seed)
    while not ref.over:
        moves = []
        for p in Player:
            codes = nat.legal_mask(p).nonzero()[0]
            code = int(codes[rng.randrange(len(codes))])
            moves.append((code % 81, Ability(code // 81)))
        assert ref.resolve(*moves) == nat.resolve(*moves)
    assert ref.summary() == nat.summary() and nat.over and ref.result == nat.result
