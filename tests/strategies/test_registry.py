"""The strategy registry (strategies/registry.py): factories record their arguments, unknown
names list the valid ones, third parties register through the `compaction_sim` entry points."""

from __future__ import annotations

from typing import Any

import pytest

import strategies
from sim.errors import RegistryError
from strategies import registry
from strategies.registry import create_strategy, strategy, strategy_names


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A copy of the registry, restored after the test; entry points not yet loaded."""
    factories = dict(registry._FACTORIES)
    monkeypatch.setattr(registry, "_FACTORIES", factories)
    monkeypatch.setattr(registry, "_LOADED_ENTRY_POINTS", False)
    return factories


def test_builtins_are_registered() -> None:
    assert set(strategies.BUILTIN) <= set(strategy_names())
    for name in strategies.BUILTIN:
        assert create_strategy(name).name == name


@pytest.mark.parametrize(
    ("name", "args", "recorded"),
    [
        (
            "floor_gated",
            {},
            {"instruction": None, "max_retries": 2, "on_exhausted": "raise", "sticky": True},
        ),
        (
            "floor_gated",
            {"max_retries": 0},
            {"instruction": None, "max_retries": 0, "on_exhausted": "raise", "sticky": True},
        ),
        ("budget_open", {}, {"read_window_factor": 2.0, "instruction": None}),
        ("re_ranking", {}, {"instruction": "continuity"}),
        ("budget_closed", {"instruction": "Keep it short."}, {"instruction": "Keep it short."}),
        ("keep_all", {}, {}),
    ],
)
def test_instances_record_their_arguments_with_defaults(
    name: str, args: dict[str, Any], recorded: dict[str, Any]
) -> None:
    instance = create_strategy(name, **args)
    assert instance.name == name
    assert instance.args == recorded
    # the record is enough to rebuild it
    assert create_strategy(name, **instance.args).args == recorded


def test_unknown_name_lists_the_valid_ones() -> None:
    with pytest.raises(RegistryError) as info:
        create_strategy("budget_clsoed")
    message = str(info.value)
    assert "'budget_clsoed'" in message
    for name in strategies.BUILTIN:
        assert name in message


def test_unknown_argument_is_a_registry_error() -> None:
    with pytest.raises(RegistryError, match="floor_gated"):
        create_strategy("floor_gated", retries=3)


def test_invalid_argument_values_are_user_errors() -> None:
    from sim.errors import UserError

    with pytest.raises(UserError, match="max_retries=-1"):
        create_strategy("floor_gated", max_retries=-1)
    with pytest.raises(UserError, match="on_exhausted"):
        create_strategy("floor_gated", on_exhausted="ignore")


def test_decorator_registers_a_factory(isolated_registry: dict[str, Any]) -> None:
    class Mine:
        def __init__(self, window: int) -> None:
            self.window = window

    @strategy("mine")
    def mine(window: int = 7, note: str = "x") -> Mine:
        """A test strategy."""
        return Mine(window)

    built = create_strategy("mine", window=3)
    assert isinstance(built, Mine) and built.window == 3
    assert built.name == "mine" and built.args == {"window": 3, "note": "x"}
    assert "mine" in strategy_names()
    assert mine.__doc__ == "A test strategy."


def test_a_name_cannot_be_registered_twice(isolated_registry: dict[str, Any]) -> None:
    with pytest.raises(RegistryError, match="already registered"):

        @strategy("keep_all")
        def other() -> object:
            return object()


class _EntryPoint:
    def __init__(self, name: str, load: Any) -> None:
        self.name = name
        self._load = load
        self.loaded = 0

    def load(self) -> Any:
        self.loaded += 1
        return self._load()


def test_entry_points_are_loaded_once(
    isolated_registry: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    groups: list[str] = []

    def register_third_party() -> Any:
        @strategy("third_party")
        def third_party(level: int = 1) -> object:
            class ThirdParty:
                pass

            return ThirdParty()

        return third_party

    ep = _EntryPoint("third_party", register_third_party)

    def fake_entry_points(*, group: str) -> list[_EntryPoint]:
        groups.append(group)
        return [ep]

    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    assert "third_party" not in isolated_registry
    built = create_strategy("third_party")
    assert built.name == "third_party" and built.args == {"level": 1}
    assert groups == ["compaction_sim"]
    assert "third_party" in strategy_names()
    assert ep.loaded == 1  # not reloaded on every lookup


def test_unknown_name_after_loading_entry_points_lists_them(
    isolated_registry: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def register() -> None:
        strategy("plugin_strategy")(lambda: object())

    monkeypatch.setattr(
        registry, "entry_points", lambda *, group: [_EntryPoint("plugin_strategy", register)]
    )
    with pytest.raises(RegistryError, match="plugin_strategy"):
        create_strategy("nope")
