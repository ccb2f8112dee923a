"""The strategy registry: a decorator registers a *factory*, and every instance it builds
records the arguments it was called with (defaults included), so a result file says exactly
what ran and can rebuild it. Third parties register through the entry-point group
`compaction_sim` (an entry point that names a module or a factory; importing it registers).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, TypeVar

from sim.errors import RegistryError

T = TypeVar("T")

_FACTORIES: dict[str, Callable[..., Any]] = {}
_LOADED_ENTRY_POINTS = False


def strategy(name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Register `factory` under `name`; instances get `.name` and `.args`."""

    def register(factory: Callable[..., T]) -> Callable[..., T]:
        if name in _FACTORIES and _FACTORIES[name] is not factory:
            raise RegistryError(f"strategy {name!r} is already registered")
        signature = inspect.signature(factory)

        def build(*args: Any, **kwargs: Any) -> T:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise RegistryError(f"strategy {name!r}: {exc}") from None
            bound.apply_defaults()
            instance = factory(*bound.args, **bound.kwargs)
            instance.name = name  # type: ignore[attr-defined]
            instance.args = dict(bound.arguments)  # type: ignore[attr-defined]
            return instance

        build.__doc__ = factory.__doc__
        build.__wrapped__ = factory  # type: ignore[attr-defined]
        _FACTORIES[name] = build
        return build

    return register


def _load_entry_points() -> None:
    global _LOADED_ENTRY_POINTS
    if _LOADED_ENTRY_POINTS:
        return
    _LOADED_ENTRY_POINTS = True
    for ep in entry_points(group="compaction_sim"):
        ep.load()


def strategy_names() -> list[str]:
    _load_entry_points()
    return sorted(_FACTORIES)


def create_strategy(name: str, **args: Any) -> Any:
    """Build a registered strategy; an unknown name lists the valid ones."""
    _load_entry_points()
    factory = _FACTORIES.get(name)
    if factory is None:
        raise RegistryError(f"unknown strategy {name!r}; valid: {', '.join(sorted(_FACTORIES))}")
    return factory(**args)
