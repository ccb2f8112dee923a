"""The strategy registry: a decorator registers a *factory*, and every instance it builds
records the arguments it was called with (defaults included), so a result file says exactly
what ran and can rebuild it. Third parties register through the entry-point group
`compaction_sim` (an entry point that names a module or a factory; importing it registers).
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from sim.errors import RegistryError

T = TypeVar("T")

_FACTORIES: dict[str, Callable[..., Any]] = {}
_LABEL = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
_LOADED_ENTRY_POINTS = False


def strategy(name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Register `factory` under `name`; instances get `.name` and `.args`."""

    def register(factory: Callable[..., T]) -> Callable[..., T]:
        if name in _FACTORIES and _FACTORIES[name] is not factory:
            raise RegistryError(f"strategy {name!r} is already registered")
        signature = inspect.signature(factory)
        hints: dict[str, Any] | None = None  # resolved on first use, once: a sweep builds
        # every strategy once per trial and get_type_hints costs more than the trial's reads

        def build(*args: Any, **kwargs: Any) -> T:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise RegistryError(f"strategy {name!r}: {exc}") from None
            bound.apply_defaults()
            nonlocal hints
            if hints is None:
                hints = _hints(factory)
            for arg, value in bound.arguments.items():
                if arg in hints and not _fits(value, hints[arg]):
                    raise RegistryError(
                        f"strategy {name!r}: {arg}={value!r}: expected {_show(hints[arg])}"
                    )
            instance = factory(*bound.args, **bound.kwargs)
            instance.name = name  # type: ignore[attr-defined]
            instance.args = dict(bound.arguments)  # type: ignore[attr-defined]
            return instance

        build.__doc__ = factory.__doc__
        build.__wrapped__ = factory  # type: ignore[attr-defined]
        _FACTORIES[name] = build
        return build

    return register


def _hints(factory: Callable[..., Any]) -> dict[str, Any]:
    try:
        return get_type_hints(factory)
    except (NameError, TypeError):  # an annotation this module cannot resolve: not checked
        return {}


def _fits(value: Any, hint: Any) -> bool:
    """Whether a scenario value has the type a factory argument declares (bool is not a
    number here, an int is a float); annotations other than these are not checked, so a
    third-party factory still gets its own arguments."""
    origin = get_origin(hint)
    if origin is Literal:
        return value in get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_fits(value, h) for h in get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    return True


def _show(hint: Any) -> str:
    if get_origin(hint) is Literal:
        return " or ".join(repr(a) for a in get_args(hint))
    if get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_show(h) for h in get_args(hint))
    return "None" if hint is type(None) else getattr(hint, "__name__", str(hint))


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
    """Build a registered strategy; an unknown name lists the valid ones. With a `callable`
    or `factory` argument, `name` labels user code named by reference (strategies.from_callable)."""
    _load_entry_points()
    if "callable" in args or "factory" in args:
        if name in _FACTORIES:
            raise RegistryError(
                f"name {name!r} is a registered strategy; give your compactor another name"
            )
        if not _LABEL.match(name):
            raise RegistryError(f"name {name!r}: letters, digits, '_', '.' and '-' only")
        from strategies.from_callable import build

        return build({"name": name, **args})
    factory = _FACTORIES.get(name)
    if factory is None:
        raise RegistryError(f"unknown strategy {name!r}; valid: {', '.join(sorted(_FACTORIES))}")
    return factory(**args)
