"""Policies the lab evaluates: a Python callable, or an exported model file (issue 28).

A policy is ``policy(obs, mask)`` over a batch, the RL envs' callable opponent: ``obs``
the env's observation dict (arrays ``(n, ...)``), ``mask`` bool ``(n, num_actions)``
(the legal actions); it answers ``(n,)`` action codes or ``(n, num_actions)``
probabilities (the lab samples them with its own seeded generator).

The model file, torch-free (``.npz``, NumPy's own archive; ``save_mlp`` writes it)::

    format       "tictacblitz-mlp/1"
    inputs       str (k,): the observation keys, flattened per row and concatenated
                 in this order (Doh, Rift: ["observation"]; Blitz: ["planes", "scalars"])
    activation   "relu" or "tanh" (between layers; none after the last)
    W0, b0, ...  float (in, out) and (out,): logits = ... act(x @ W0 + b0) ... @ Wk + bk

The policy is the softmax of the logits over the legal actions (uniform over all
actions on a row without a legal one, so a finished row never gives NaN), or with
``greedy=True`` the legal action of the largest logit. A TorchScript file (``.pt``,
needs torch) is a module ``forward(x: float32 (n, features)) -> logits`` over the same
flattened inputs, named by the ``inputs`` extra file of the archive.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Sequence

import numpy as np

__all__ = ["Policy", "MlpPolicy", "save_mlp", "load_policy", "FORMAT"]

Policy = Callable[[Dict[str, np.ndarray], np.ndarray], Any]
FORMAT = "tictacblitz-mlp/1"
ACTIVATIONS: Dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
}


def features(obs: Dict[str, np.ndarray], inputs: Sequence[str]) -> np.ndarray:
    """The rows' inputs, flattened and concatenated (float64 ``(n, features)``).

    :raises ValueError: naming an input the observation lacks.
    """
    missing = [k for k in inputs if k not in obs]
    if missing:
        raise ValueError(
            f"the model reads {missing[0]!r}, not in the observation ({', '.join(obs)})"
        )
    parts = [np.asarray(obs[k], dtype=np.float64) for k in inputs]
    return np.concatenate([p.reshape(len(p), -1) for p in parts], axis=1)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax over the legal actions; uniform on a row without one."""
    legal = mask.astype(bool) | ~mask.astype(bool).any(axis=1, keepdims=True)
    z = np.where(legal, logits, -np.inf)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


class MlpPolicy:
    """A multi-layer perceptron's policy (see the module); NumPy only.

    >>> policy = MlpPolicy([np.eye(2)], [np.zeros(2)], ["observation"], greedy=True)
    >>> policy({"observation": np.array([[0.0, 1.0], [3.0, 1.0]])}, np.ones((2, 2), bool)).tolist()
    [1, 0]
    """

    def __init__(
        self,
        weights: Sequence[np.ndarray],
        biases: Sequence[np.ndarray],
        inputs: Sequence[str],
        activation: str = "relu",
        *,
        greedy: bool = False,
    ) -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r}: expected one of {', '.join(ACTIVATIONS)}")
        if not weights or len(weights) != len(biases):
            raise ValueError(f"{len(weights)} weight matrices for {len(biases)} bias vectors")
        for k, (w, b) in enumerate(zip(weights, biases, strict=True)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {k}: W{k} {w.shape} and b{k} {b.shape} do not fit")
            if k and w.shape[0] != weights[k - 1].shape[1]:
                raise ValueError(
                    f"layer {k} takes {w.shape[0]} inputs, not {weights[k - 1].shape[1]}"
                )
        self.weights = [np.asarray(w, dtype=np.float64) for w in weights]
        self.biases = [np.asarray(b, dtype=np.float64) for b in biases]
        self.inputs = tuple(inputs)
        self.activation = activation
        self.greedy = greedy

    def logits(self, obs: Dict[str, np.ndarray]) -> np.ndarray:
        x = features(obs, self.inputs)
        if x.shape[1] != self.weights[0].shape[0]:
            raise ValueError(f"the model takes {self.weights[0].shape[0]} inputs, not {x.shape[1]}")
        act = ACTIVATIONS[self.activation]
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if k < len(self.weights) - 1:
                x = act(x)
        return x

    def __call__(self, obs: Dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        probs = masked_softmax(self.logits(obs), mask)
        return probs.argmax(axis=1) if self.greedy else probs


def save_mlp(
    path: str,
    weights: Sequence[np.ndarray],
    biases: Sequence[np.ndarray],
    inputs: Sequence[str],
    activation: str = "relu",
) -> None:
    """Write the model file (see the module); checked by building the policy first."""
    MlpPolicy(weights, biases, inputs, activation)
    arrays: Dict[str, Any] = {f"W{k}": np.asarray(w) for k, w in enumerate(weights)}
    arrays.update({f"b{k}": np.asarray(b) for k, b in enumerate(biases)})
    arrays.update(format=np.array(FORMAT), inputs=np.array(list(inputs)))
    arrays["activation"] = np.array(activation)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


def _torchscript(path: str, greedy: bool) -> Policy:
    try:
        import torch
    except ImportError:
        raise ValueError(f"{path}: a TorchScript model needs torch (pip install torch)") from None
    extra = {"inputs": ""}
    module = torch.jit.load(path, _extra_files=extra)
    raw: Any = extra["inputs"]  # torch hands an extra file back as bytes
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    inputs = [k for k in text.split(",") if k] or ["observation"]

    def policy(obs: Dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
        x = torch.from_numpy(features(obs, inputs).astype(np.float32))
        with torch.no_grad():
            logits = module(x).double().numpy()
        probs = masked_softmax(logits, mask)
        return probs.argmax(axis=1) if greedy else probs

    return policy


def load_policy(path: str, *, greedy: bool = False) -> Policy:
    """The policy of a model file: ``.npz`` (the format above) or ``.pt`` (TorchScript).

    :raises ValueError: one line naming the file, for a missing or malformed file.
    """
    if not os.path.isfile(path):
        raise ValueError(f"no model file {path!r}")
    if path.endswith(".pt"):
        return _torchscript(path, greedy)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a {FORMAT} .npz file ({exc})") from None
    if str(arrays.get("format", "")) != FORMAT:
        raise ValueError(f"{path}: format {str(arrays.get('format'))!r}, expected {FORMAT!r}")
    layers = sum(1 for k in arrays if k.startswith("W"))
    try:
        weights = [arrays[f"W{k}"] for k in range(layers)]
        biases = [arrays[f"b{k}"] for k in range(layers)]
        inputs = [str(k) for k in arrays["inputs"]]
        return MlpPolicy(weights, biases, inputs, str(arrays["activation"]), greedy=greedy)
    except (KeyError, ValueError) as exc:
        raise ValueError(f"{path}: {exc}") from None
