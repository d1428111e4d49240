"""Player specs (issue 23, item 1): one syntax, ``BOT[:NAME=VALUE,...]``, for every game
and every command (tictacblitz.games.players and each game's ``players`` module)."""

import doctest
from dataclasses import replace

import numpy as np
import pytest

from cli_support import in_process as run
from tictacblitz.games import players
from tictacblitz.games.blitz import bots as blitz_bots
from tictacblitz.games.blitz import players as blitz_players
from tictacblitz.games.blitz.rules import Rules
from tictacblitz.games.doh import bots as doh_bots
from tictacblitz.games.doh import players as doh_players
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.games.rift import bots as rift_bots
from tictacblitz.games.rift import players as rift_players
from tictacblitz.games.rift.game import play_matches as rift_play_matches
from tictacblitz.lab import player_axes

SEEDS = np.arange(40, dtype=np.uint64)


@pytest.mark.parametrize("module", [players, blitz_players, doh_players, rift_players, player_axes])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


TIME = players.PlayerParam("reaction", "ms", 0, 60_000, 0, "", spread=True)
RATE = players.PlayerParam("error", "%", 0.0, 1.0, 0.0, "")
COUNT = players.PlayerParam("budget", "count", 1, 100, 64, "")


@pytest.mark.parametrize(
    "param, raw, value",
    [
        (TIME, "250", (250, 0)),
        (TIME, "250ms", (250, 0)),
        (TIME, "0.25s", (250, 0)),
        (TIME, "250ms±80", (250, 80)),
        (TIME, "250ms+-80", (250, 80)),
        (TIME, "0.3s±0.1", (300, 100)),  # a bare spread has the mean's unit
        (TIME, "0.3s±80ms", (300, 80)),
        (RATE, "3%", 0.03),
        (RATE, "0.5", 0.5),
        (RATE, "100%", 1.0),
        (COUNT, "16", 16),
    ],
)
def test_values_in_their_units(param, raw, value):
    assert players.parse_value(param, raw) == value


@pytest.mark.parametrize(
    "param, raw, reason",
    [
        (TIME, "-5ms", "a time cannot be negative"),
        (TIME, "250ms±-5", "a spread cannot be negative"),
        (TIME, "fast", "is not a time"),
        (TIME, "2.5ms", "whole milliseconds"),
        (TIME, "61s", "above the largest value"),
        (RATE, "150%", "150% is over 100%"),
        (RATE, "1.5", "1.5 is over 100%"),
        (RATE, "-1%", "a rate cannot be negative"),
        (RATE, "3 percent", "not a rate"),
        (COUNT, "0", "below the least value"),
        (COUNT, "1.5", "not a whole number"),
    ],
)
def test_bad_values_say_why(param, raw, reason):
    with pytest.raises(ValueError, match=reason):
        players.parse_value(param, raw)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("greedy:foo=1", "unknown parameter 'foo'"),
        ("greedy:reaction=-5ms", "reaction=-5ms: a time cannot be negative"),
        ("greedy:error=150%", "error=150%: 150% is over 100%"),
        ("greedy:error=abc", "error=abc: not a rate"),
        ("greedy:", "nothing after ':'"),
        ("greedy:error", "'error' is not NAME=VALUE"),
        ("greedy:error=1%,error=2%", "'error' is given twice"),
        ("nobody:error=1%", "unknown bot 'nobody'"),
        (":error=1%", "no bot name"),
    ],
)
def test_bad_specs_are_one_line_naming_the_spec(spec, message):
    with pytest.raises(ValueError) as info:
        blitz_bots.resolve(spec)
    text = str(info.value)
    assert message in text and repr(spec) in text and "\n" not in text


def test_a_spec_sets_the_blitz_bot_fields_and_a_preset_is_a_base():
    spec = blitz_bots.resolve("search:reaction=0.08s,error=3%,budget=16,horizon=2s,candidates=4")
    assert (spec.kind, spec.reaction_ms, spec.error_rate) == ("search", 80, 0.03)
    assert (spec.budget, spec.horizon_ms, spec.candidates) == (16, 2000, 4)
    club = blitz_bots.resolve("club")
    assert (club.kind, club.reaction_ms, club.error_rate) == ("greedy", 350, 0.05)
    # A preset's parameters are overridden by the spec's own.
    assert blitz_bots.resolve("club:error=0%").error_rate == 0.0
    assert blitz_bots.resolve("club:error=0%").reaction_ms == 350


def test_blitz_specs_play_the_games_of_the_equal_bot_spec():
    """A spec is only another spelling: ``greedy:reaction=150ms,error=10%`` plays the
    ``medium`` preset's games, byte for byte, and zero overrides play raw greedy's."""
    rules = Rules()
    seeds = list(range(30))
    same = blitz_bots.play_matches(rules, "greedy:reaction=150ms,error=10%", "random", seeds)
    medium = blitz_bots.play_matches(rules, "medium", "random", seeds)
    assert same["winner"].tolist() == medium["winner"].tolist()
    raw = blitz_bots.play_matches(rules, "greedy", "search:budget=8", seeds)
    zero = blitz_bots.play_matches(rules, "greedy:reaction=0ms,error=0%", "search:budget=8", seeds)
    assert blitz_bots.match_records(raw, seeds) == blitz_bots.match_records(zero, seeds)
    assert blitz_bots.resolve("search:budget=8") == replace(
        blitz_bots.PRESETS["search"], budget=8, description=""
    )


def test_a_slower_reaction_changes_blitz_games():
    """The parameter reaches the native loop (a check that the spec is not ignored)."""
    rules = Rules()
    seeds = list(range(30))
    fast = blitz_bots.play_matches(rules, "greedy", "greedy", seeds)
    slow = blitz_bots.play_matches(rules, "greedy:reaction=400ms", "greedy", seeds)
    assert blitz_bots.match_records(fast, seeds) != blitz_bots.match_records(slow, seeds)


def test_doh_specs_are_the_native_epsilon():
    assert doh_bots.bot_spec("perfect:error=10%,fallback=greedy") == doh_bots.bot_spec("hard")
    assert doh_bots.bot_spec("greedy:error=30%,fallback=random") == doh_bots.bot_spec("easy")
    rules = DohRules()
    a = doh_bots.play_matches(rules, ("perfect:error=30%", "random"), SEEDS)
    b = doh_bots.play_matches(rules, ("medium", "random"), SEEDS)
    assert all((a[k] == b[k]).all() for k in a)
    with pytest.raises(ValueError, match="fallback=best: expected one of random, greedy, perfect"):
        doh_bots.bot_spec("perfect:fallback=best")


def test_doh_error_moves_strength_monotonically():
    """Issue 23: imperfection that scales smoothly. Against greedy, in both seats, the
    perfect bot's wins fall and its losses rise with every step of its error rate
    (200 games a seat a step; measured: wins 256, 125, 50, 14, 1 as first on 400)."""
    rules = DohRules()
    seeds = np.arange(200, dtype=np.uint64)
    scores = []
    for error in ("0%", "25%", "50%", "75%", "100%"):
        bot = f"perfect:error={error},fallback=random"
        first = doh_bots.play_matches(rules, (bot, "greedy"), seeds)["winner"]
        second = doh_bots.play_matches(rules, ("greedy", bot), seeds)["winner"]
        scores.append(int((first == 0).sum() + (second == 1).sum()))
        scores[-1] -= int((first == 1).sum() + (second == 0).sum())
    assert all(a > b for a, b in zip(scores, scores[1:], strict=False)), scores


def test_rift_specs_map_onto_its_bots():
    easy = rift_bots.resolve_bot("greedy:error=50%")
    assert easy.native() == rift_bots.PRESETS["easy"].native()
    a = rift_play_matches(None, "greedy:error=50%", "random", SEEDS)
    b = rift_play_matches(None, "easy", "random", SEEDS)
    assert all((a[k] == b[k]).all() for k in a)
    assert rift_bots.resolve_bot("hard:simulations=50").simulations == 50
    with pytest.raises(ValueError, match="'greedy' is not a search bot"):
        rift_bots.resolve_bot("greedy:simulations=50")


@pytest.mark.parametrize("game", ["blitz", "doh", "rift"])
def test_every_game_has_the_four_human_presets(game):
    model = players.player_model(game)
    assert list(model.presets) == ["novice", "casual", "club", "expert"]
    for name in model.presets:
        model.resolve(name)  # each preset is a valid spec of its game
        assert name in model.preset_reasons


def test_the_parser_knows_no_game_names():
    text = open(players.__file__, encoding="utf-8").read()
    assert not any(g in text for g in ('"blitz"', '"doh"', '"rift"'))


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "--matches", "2", "--x", "greedy:reaction=-5ms"], "reaction=-5ms"),
        (["simulate", "--matches", "2", "--o", "greedy:error=101%"], "101% is over 100%"),
        (["simulate", "--matches", "2", "--seat", "2=greedy:speed=3"], "unknown parameter"),
        (["sweep", "--grid", "set_ms=1,2", "--x", "greedy:error=2x"], "error=2x: not a rate"),
        (["tournament", "--bots", "greedy,random:error=-1%"], "a rate cannot be negative"),
        (["demo", "--game", "doh", "--x", "perfect:fallback=x"], "fallback=x"),
        (["players", "--game", "rift", "--check", "greedy:error=5"], "5 is over 100%"),
    ],
)
def test_bad_specs_on_the_command_line_exit_2(args, message):
    proc = run(*args)
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if "error:" in ln]
    assert len(lines) == 1 and message in lines[0] and proc.stdout == ""


def test_simulate_takes_a_spec_and_names_it():
    proc = run(
        "simulate", "--matches", "10", "--no-progress", "--x", "greedy:reaction=250ms,error=3%"
    )
    assert proc.returncode == 0, proc.stderr
    assert "X = greedy:reaction=250ms,error=3%, O = greedy" in proc.stdout


def test_players_lists_a_games_parameters_and_presets():
    proc = run("players", "--game", "doh")
    assert proc.returncode == 0, proc.stderr
    for word in ("error", "fallback", "novice", "casual", "club", "expert"):
        assert word in proc.stdout
    proc = run("players", "--check", "club:error=1%")
    assert proc.returncode == 0, proc.stderr
    assert '"error": "1%"' in proc.stdout and '"reaction": "350ms±100"' in proc.stdout


@pytest.mark.parametrize("bot", ["random", "greedy", "perfect", "medium"])
def test_doh_zero_error_specs_play_the_bots_games(bot):
    rules = DohRules()
    a = doh_bots.play_matches(rules, (f"{bot}:error=0%", "greedy"), SEEDS)
    b = doh_bots.play_matches(rules, (bot if bot != "medium" else "perfect", "greedy"), SEEDS)
    assert all((a[k] == b[k]).all() for k in a)


def test_a_sweep_varies_a_player_parameter_like_a_rule():
    """``SEAT.PARAM`` grid axes (lab/player_axes.py): each point's seat gets the value;
    a slower reaction loses more, and the points hold the values as numbers."""
    from tictacblitz.lab.sweep import sweep

    result = sweep({"x.reaction": [0, 400]}, 60, x="greedy", o="greedy", seed=1)
    assert [s["x_bot"] for s in result.summaries] == [
        "greedy:reaction=0ms",
        "greedy:reaction=400ms",
    ]
    assert [s["params"] for s in result.summaries] == [{"x.reaction": 0}, {"x.reaction": 400}]
    wins = [s["x_wins"] for s in result.summaries]
    assert wins[0] > wins[1] == 0, wins
    # a preset keeps its other parameters; the swept one replaces its own
    result = sweep({"o.error": [0.0, 0.5]}, 10, o="club", seed=1)
    assert [s["o_bot"] for s in result.summaries] == ["club:error=0%", "club:error=50%"]


@pytest.mark.parametrize(
    "grid, message",
    [
        ("x.reaction=-5", "a time cannot be negative"),
        ("x.reaction=0:400", "takes a list"),
        ("o.error=5%,120%", "120% is over 100%"),
        ("x.reaction=250ms±80", "no spread"),
        ("x.reaction=0,0ms", "a value is given twice"),
    ],
)
def test_bad_player_axes_exit_2(grid, message, tmp_path):
    proc = run("sweep", "--grid", grid, "--matches", "5", "--out", str(tmp_path / "s"))
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and not (tmp_path / "s").exists()


@pytest.mark.parametrize(
    "game, spec",
    [
        ("blitz", "greedy:reaction=100ms,error=10%"),
        ("doh", "perfect:error=30%"),
        ("rift", "greedy:error=30%"),
    ],
)
def test_rl_opponents_take_a_spec(game, spec):
    """Issue 23: the envs' ``opponent=`` takes a player spec (native vector envs and the
    single env alike); a bad one is one line naming it."""
    from tictacblitz.envs import make_env, make_vector_env

    make_env(game, opponent=spec).reset(seed=1)
    make_vector_env(game, 2, opponent=spec).reset(seed=1)
    with pytest.raises(ValueError, match="over 100%"):
        make_vector_env(game, 2, opponent=spec.split(":")[0] + ":error=150%")


def test_blitz_batched_envs_draw_the_opponents_reactions():
    """The native stepper's opponent draws its reactions per match as play_matches does
    (bots.pxd policy_seed): a spread plays deterministically, changes the games, and a
    zero spread is today's fixed reaction, byte for byte."""
    from tictacblitz.envs import make_vector_env

    def trajectory(opponent: str) -> bytes:
        vec = make_vector_env("blitz", 4, opponent=opponent, seed=5)
        obs, _ = vec.reset(seed=5)
        out = [np.asarray(obs["planes"]).tobytes()]
        for _ in range(400):  # the agent waits: the opponent's timing decides everything
            obs, reward, term, trunc, _ = vec.step(np.zeros(4, dtype=np.int64))
            out.append(np.asarray(obs["planes"]).tobytes())
            out.append(np.asarray(reward).tobytes())
        return b"".join(out)

    spread = trajectory("greedy:reaction=300ms±120")
    assert spread == trajectory("greedy:reaction=300ms±120")
    assert spread != trajectory("greedy:reaction=300ms")
    assert trajectory("greedy:reaction=300ms±0") == trajectory("greedy:reaction=300ms")


def test_the_servers_bots_take_a_spec():
    """The server's bot seats build their bots through the games' resolvers: a spec (here
    with a reaction spread, which NativeBot draws) is a level from Python."""
    from tictacblitz.games.doh.game import DohGame
    from tictacblitz.games.rift.game import make_game
    from tictacblitz.server.games import doh as doh_server
    from tictacblitz.server.games import rift as rift_server
    from tictacblitz.server.games.blitz import BotSeat

    seat = BotSeat("greedy:reaction=250ms±80", 3)
    assert (seat.native.spec.reaction_ms, seat.native.spec.reaction_sd) == (250, 80)
    assert doh_server.BotSeat(DohGame(), "perfect:error=30%", 1).bot.name == "perfect:error=30%"
    assert rift_server.BotSeat(make_game(), "club", 1).bot.spec.error_rate == 0.1


def test_doh_temperature_moves_strength_monotonically():
    """Issue 23: a softmax temperature over the perfect bot's move values (native,
    solver.pyx softmax_action). Against greedy, both seats, 150 seeds a seat: the score
    falls with the temperature (measured on 300: wins 495, 485, 414, 30, 2 of 600 at
    0, 0.1, 0.3, 1, 3)."""
    rules = DohRules()
    seeds = np.arange(150, dtype=np.uint64)
    scores = []
    for temperature in ("0", "0.3", "1", "3"):
        bot = f"perfect:temperature={temperature}"
        first = doh_bots.play_matches(rules, (bot, "greedy"), seeds)["winner"]
        second = doh_bots.play_matches(rules, ("greedy", bot), seeds)["winner"]
        scores.append(int((first == 0).sum() + (second == 1).sum()))
        scores[-1] -= int((first == 1).sum() + (second == 0).sum())
    assert all(a > b for a, b in zip(scores, scores[1:], strict=False)), scores


def test_doh_temperature_zero_is_perfect_and_only_perfect_has_one():
    a = doh_bots.play_matches(DohRules(), ("perfect:temperature=0", "greedy"), SEEDS)
    b = doh_bots.play_matches(DohRules(), ("perfect", "greedy"), SEEDS)
    assert all((a[k] == b[k]).all() for k in a)  # 0: the solver's own moves
    assert doh_bots.bot_spec("perfect:temperature=0.5")[-1] == 0.5
    with pytest.raises(ValueError, match="only the perfect bot has one"):
        doh_bots.bot_spec("greedy:temperature=1")
    with pytest.raises(ValueError, match="temperature=-1: temperature cannot be negative"):
        doh_bots.bot_spec("perfect:temperature=-1")
    # the Python bot and the native loop agree, and the RL env takes it
    bot = doh_bots.make_bot("perfect:temperature=0.3", seed=5)
    from tictacblitz.envs import make_vector_env

    make_vector_env("doh", 2, opponent="perfect:temperature=0.3").reset(seed=1)
    assert bot.name == "perfect:temperature=0.3"


def test_the_docs_preset_table_is_the_models():
    """docs/bots.md's one table of human-level presets says what the models hold."""
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    for preset in ("novice", "casual", "club", "expert"):
        row = next(line for line in text.splitlines() if line.startswith(f"| `{preset}` |"))
        cells = [c.strip().strip("`") for c in row.split("|")[2:5]]
        specs = [players.player_model(g).presets[preset] for g in ("blitz", "doh", "rift")]
        assert cells == specs, preset
