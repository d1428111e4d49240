"""Every test in this folder runs with the fourth game registered by its folders only
(fourth_game_folders.py); the rest of the suite never sees it."""

from __future__ import annotations

from typing import Iterator

import pytest
from fourth_game_folders import registered


@pytest.fixture(scope="module", autouse=True)
def fourth_game() -> Iterator[str]:
    with registered() as name:
        yield name
