"""Lazy re-exports (PEP 562) for the package and its wings.

A wing's `__init__` names its public API without importing it: `import sim.runtime.floor_gate`
must not load the report's matplotlib or the runs' pandas just because a sibling re-exports them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` for `package`: `exports` maps each public name to the module
    that defines it, imported on first use and cached in the package's namespace."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
