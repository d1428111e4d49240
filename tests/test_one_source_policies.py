"""The bots' policy codes, written in C and in Python, tied (issue 27, item 3).

Rift's native core numbers its policies in a C enum (``BOT_RANDOM = 0``, ... in
``src/blitz_core/rift/*.pxd``) that its Python module does not export (Blitz's and Doh's
export theirs as ``KIND_CODES``, which their Python side imports); ``games/rift/bots.py``
types the same numbers as ``KINDS``. This test reads the enum from the ``.pxd`` source, so
a policy added, removed or renumbered on one side only fails here, not as the wrong bot
in a game.
"""

from __future__ import annotations

import re
from pathlib import Path

from tictacblitz.games.rift.bots import KINDS

RIFT_NATIVE = Path(__file__).resolve().parents[1] / "src" / "blitz_core" / "rift"
POLICY = re.compile(r"^\s*BOT_([A-Z_]+)\s*=\s*(\d+)", re.MULTILINE)


def native_policies() -> dict:
    found: dict = {}
    for pxd in sorted(RIFT_NATIVE.glob("*.pxd")):
        for name, code in POLICY.findall(pxd.read_text()):
            assert found.get(name.lower(), int(code)) == int(code), (pxd.name, name)
            found[name.lower()] = int(code)
    return found


def test_rift_policy_names_have_the_native_codes():
    native = native_policies()
    assert native, f"no BOT_* enum in {RIFT_NATIVE}/*.pxd: the policies moved?"
    assert dict(KINDS) == native


def test_a_drifted_policy_code_would_be_seen():
    # The reader itself: a renumbered policy in the C text is not the Python table.
    text = "cdef enum:\n    BOT_RANDOM = 0\n    BOT_GREEDY = 2\n"
    drifted = {name.lower(): int(code) for name, code in POLICY.findall(text)}
    assert drifted == {"random": 0, "greedy": 2}
    assert {k: KINDS[k] for k in drifted} != drifted
