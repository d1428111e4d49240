"""Whole random matches: native loop == native engine via the API == reference (R23)."""

import pytest

from blitz_core.blitz.playout import play_random as native_play_random
from tictacblitz import Match, Rules
from tictacblitz.games.blitz.playout import play_random
from tictacblitz.games.blitz.reference import ReferenceMatch

RULE_VARIANTS = [
    Rules(),
    Rules(set_ms=0, crater_ms=0),
    Rules(size=5, line_length=3, mark_limit=4, round_ms=8000, spawn_min_ms=0, spawn_max_ms=300),
    Rules(size=8, line_length=5, recharge_place_ms=0, freeze_factor=1.5, haste_factor=0.5),
    Rules(powerup_weights={"swap": 3, "bomb": 1}, swap_max=8, powerup_max=5, mark_limit=3),
]


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=range(len(RULE_VARIANTS)))
@pytest.mark.parametrize("seed", [0, 1, 2, 12345])
@pytest.mark.parametrize("stream", [1, 2])
def test_random_matches_agree(rules, seed, stream):
    reference = ReferenceMatch(rules, seed=seed, stream=stream)
    via_api = Match(rules, seed=seed, stream=stream)
    native = Match(rules, seed=seed, stream=stream)
    counts = play_random(reference, seed)
    assert play_random(via_api, seed) == counts
    assert native_play_random(native, seed) == counts
    for match in (via_api, native):
        assert match.rounds == reference.rounds
        assert match.round_wins == reference.round_wins
        assert match.match_result == reference.match_result
        assert match.board_text() == reference.board_text()
        assert match.state_dict() == reference.state_dict()
    assert reference.match_over
