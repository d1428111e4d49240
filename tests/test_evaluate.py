"""``tictacblitz evaluate`` and its Python API (issue 28, "Evaluation"): a policy, a
callable or a model file, against every bot of a game with intervals."""

from __future__ import annotations

import doctest
import json

import numpy as np
import pytest

from tictacblitz.cli import main
from tictacblitz.games.doh.exploitability import solver_policy
from tictacblitz.games.doh.rules import DohRules
from tictacblitz.lab import evaluation, policies
from tictacblitz.lab.evaluation import choose, evaluate_policy
from tictacblitz.lab.policies import MlpPolicy, load_policy, save_mlp

pytest.importorskip("gymnasium")


def uniform(obs, mask):
    return mask.astype(float)


def doh_mlp(path, seed=0):
    rng = np.random.default_rng(seed)
    weights = [rng.normal(size=(135, 16)), rng.normal(size=(16, 75))]
    biases = [rng.normal(size=16), rng.normal(size=75)]
    save_mlp(str(path), weights, biases, ["observation"], "tanh")
    return weights, biases


def test_the_model_file_round_trips_and_is_the_numpy_forward(tmp_path):
    weights, biases = doh_mlp(tmp_path / "m.npz")
    policy = load_policy(str(tmp_path / "m.npz"))
    rng = np.random.default_rng(1)
    obs = {"observation": rng.random((4, 15, 3, 3)).astype(np.float32)}
    mask = rng.random((4, 75)) < 0.3
    logits = np.tanh(obs["observation"].reshape(4, -1) @ weights[0] + biases[0]) @ weights[1]
    logits = np.where(mask, logits + biases[1], -np.inf)
    want = np.exp(logits - logits.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    assert np.allclose(policy(obs, mask), want)
    greedy = load_policy(str(tmp_path / "m.npz"), greedy=True)
    assert (greedy(obs, mask) == want.argmax(axis=1)).all()
    # a finished row (no legal action) gives no NaN
    assert np.isfinite(policy(obs, np.zeros((4, 75), bool))).all()


def test_bad_model_files_are_one_line_errors(tmp_path):
    with pytest.raises(ValueError, match="no model file"):
        load_policy(str(tmp_path / "none.npz"))
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="junk.npz"):
        load_policy(str(tmp_path / "junk.npz"))
    np.savez(tmp_path / "other.npz", W0=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="format"):
        load_policy(str(tmp_path / "other.npz"))
    with pytest.raises(ValueError, match="do not fit"):
        MlpPolicy([np.zeros((3, 4))], [np.zeros(5)], ["observation"])


def test_sampling_follows_the_probabilities():
    rng = np.random.default_rng(0)
    probs = np.tile([0.0, 0.25, 0.75], (4000, 1))
    actions = choose(probs, np.ones((4000, 3), bool), rng)
    assert set(actions.tolist()) == {1, 2}
    assert 0.7 < (actions == 2).mean() < 0.8
    with pytest.raises(ValueError, match="shape"):
        choose(np.zeros((2, 2)), np.ones((2, 3), bool), rng)


def test_the_perfect_policy_never_loses_to_any_doh_bot():
    report = evaluate_policy(solver_policy(DohRules()), "doh", matches=6, seed=3)
    assert [r["bot"] for r in report["rows"]] == [
        "random", "easy", "greedy", "medium", "hard", "perfect"
    ]  # fmt: skip
    for row in report["rows"]:
        assert row["games"] == 12 and row["losses"] == 0
        assert row["wins"] + row["draws"] == 12
        assert row["wins_ci"][0] <= row["wins_share"] <= row["wins_ci"][1]
        assert row["p_holm"] >= row["p"] - 1e-12  # holm() rounds to 12 places
    perfect = report["rows"][-1]
    assert perfect["draws"] == 12  # Doh is a draw under perfect play (docs/doh.md)


@pytest.mark.parametrize("game, options", [("rift", None), ("blitz", {"preset": "tiny"})])
def test_every_game_evaluates_through_its_env(game, options):
    report = evaluate_policy(uniform, game, bots=["random"], matches=8, env_options=options)
    (row,) = report["rows"]
    assert row["wins"] + row["draws"] + row["losses"] == row["games"] == 16
    assert [s["games"] for s in row["by_seat"]] == [8, 8]


def test_the_cli_evaluates_a_model_file(tmp_path, capsys):
    doh_mlp(tmp_path / "m.npz")
    rules = json.dumps({"pieces_per_size": 2, "grid": 2})
    argv = ["evaluate", str(tmp_path / "m.npz"), "--game", "doh", "--bots", "random,perfect"]
    status = main([*argv, "--matches", "5", "--rules", rules, "--exploitability", "--json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["games"] for r in report["rows"]] == [10, 10]
    assert 0 <= report["exploitability"]["exploitability"] <= 2
    assert main([*argv, "--matches", "5"]) == 0
    assert "perfect" in capsys.readouterr().out


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--bots", "nobot"], "nobot"),
        (["--rules", "{"], "--rules"),
        (["--game", "rift", "--exploitability"], "has no exploitability"),
        (["--game", "nogame"], "nogame"),
    ],
)
def test_bad_evaluate_arguments_are_one_line(tmp_path, capsys, extra, message):
    doh_mlp(tmp_path / "m.npz")
    assert main(["evaluate", str(tmp_path / "m.npz"), "--game", "doh", *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and err.count("\n") == 1


def test_the_modules_doctests():
    for module in (evaluation, policies):
        result = doctest.testmod(module)
        assert result.failed == 0
    assert doctest.testmod(policies).attempted >= 2


def test_a_model_file_enters_the_tournament_with_the_bots(tmp_path, capsys):
    from tictacblitz.lab.tournament import run_tournament

    doh_mlp(tmp_path / "m.npz")
    spec = f"policy:{tmp_path / 'm.npz'}"
    report = run_tournament([spec, "random", "perfect"], 6, seed=2, game="doh")
    assert report["bots"][spec] == {"policy": str(tmp_path / "m.npz")}
    pairs = {(p["a"], p["b"]): p for p in report["pairs"]}
    versus_perfect = pairs[(spec, "perfect")]
    assert versus_perfect["a_wins"] == 0  # a drawn game: perfect never loses it
    for pair in report["pairs"]:
        assert pair["a_wins"] + pair["b_wins"] + pair["draws"] == 6
    # the same pair, played again, gives the same results (seeded per match)
    again = run_tournament([spec, "random"], 6, seed=2, game="doh")
    assert again["pairs"][0] == pairs[(spec, "random")]
    # the command line takes it like a bot name; a bad one is one line
    argv = ["tournament", "--game", "doh", "--bots", f"{spec},random", "--matches", "4"]
    assert main([*argv, "--yes", "--no-progress", "--json"]) == 0
    assert spec in json.loads(capsys.readouterr().out)["bots"]
    assert main(["tournament", "--game", "doh", "--bots", "policy:/none.npz,random"]) == 2
    assert "no model file" in capsys.readouterr().err


def test_a_torchscript_model_is_the_same_policy_as_its_npz(tmp_path):
    torch = pytest.importorskip("torch")
    weights, biases = doh_mlp(tmp_path / "m.npz")
    layers = torch.nn.Sequential(torch.nn.Linear(135, 16), torch.nn.Tanh(), torch.nn.Linear(16, 75))
    with torch.no_grad():
        for layer, w, b in ((layers[0], weights[0], biases[0]), (layers[2], weights[1], biases[1])):
            layer.weight.copy_(torch.from_numpy(w.T))
            layer.bias.copy_(torch.from_numpy(b))
    torch.jit.save(
        torch.jit.script(layers), str(tmp_path / "m.pt"), _extra_files={"inputs": "observation"}
    )
    rng = np.random.default_rng(2)
    obs = {"observation": rng.random((5, 15, 3, 3)).astype(np.float32)}
    mask = rng.random((5, 75)) < 0.4
    npz = load_policy(str(tmp_path / "m.npz"))(obs, mask)
    pt = load_policy(str(tmp_path / "m.pt"))(obs, mask)
    assert np.allclose(npz, pt, atol=1e-5)
