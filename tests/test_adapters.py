"""The one adapter lookup of every layer (issue 27, item 1): found by folder, and loud
on a misspelled folder, a module without its class, or a misspelled override."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from tictacblitz.games.adapters import AdapterError, adapter_class, adapter_names, check_overrides


class Base:
    def record_fields(self) -> list:
        return []

    def play_matches(self) -> None:
        return None


def _layer(tmp_path: Path, files: dict, name: str) -> types.ModuleType:
    root = tmp_path / name
    root.mkdir()
    for file, text in files.items():
        (root / file).write_text(text)
    package = types.ModuleType(name)
    package.__path__ = [str(root)]  # type: ignore[attr-defined]
    sys.modules[name] = package
    return package


sys.modules["adapter_test_base"] = types.SimpleNamespace(Base=Base)  # type: ignore[assignment]
ADAPTER = "from adapter_test_base import Base\nclass DohThing(Base):\n    pass\n"


def test_an_adapter_is_found_by_its_folder_and_a_missing_one_is_none(tmp_path):
    layer = _layer(tmp_path, {"doh.py": ADAPTER, "_shared.py": ""}, "layer_ok")
    assert adapter_names(layer) == ("doh",)
    found = adapter_class(layer, "doh", Base)
    assert found is not None and found.__name__ == "DohThing"
    assert adapter_class(layer, "rift", Base) is None
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        adapter_class(layer, "chess", Base)


def test_a_misspelled_adapter_folder_is_refused_with_its_near_miss(tmp_path):
    layer = _layer(tmp_path, {"doh.py": ADAPTER, "bliz.py": ADAPTER}, "layer_typo")
    with pytest.raises(
        AdapterError, match=r"layer_typo\.bliz adapts no registered game \(did you mean blitz\?\)"
    ):
        adapter_class(layer, "doh", Base)


def test_an_adapter_module_must_define_exactly_one_subclass(tmp_path):
    two = ADAPTER + "class Other(Base):\n    pass\n"
    layer = _layer(tmp_path, {"doh.py": two, "rift.py": "x = 1\n"}, "layer_count")
    with pytest.raises(AdapterError, match="exactly one Base subclass, found DohThing, Other"):
        adapter_class(layer, "doh", Base)
    with pytest.raises(AdapterError, match="found none"):
        adapter_class(layer, "rift", Base)


def test_a_misspelled_override_is_refused_and_a_new_name_is_not():
    class Good(Base):
        def record_fields(self) -> list:
            return [1]

        def helper_of_its_own(self) -> None:
            return None

    check_overrides(Good, Base)

    class Bad(Base):
        def record_field(self) -> list:
            return [1]

        def Play_Matche(self) -> None:
            return None

    with pytest.raises(
        AdapterError,
        match=r"Play_Matche is no Base name \(did you mean play_matches\?\); "
        r"record_field is no Base name \(did you mean record_fields\?\)",
    ):
        check_overrides(Bad, Base)
