"""The floor gate as a library for real runtimes: the gated call, floor registries and
message-list validity. Imports only grading and the root modules, and loads no numpy, pandas or
pydantic (benchmarks/import_time.py measures it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.runtime.floor_gate import FloorGate as FloorGate
    from sim.runtime.floor_gate import GateResult as GateResult
    from sim.runtime.floor_registry import FloorRegistry as FloorRegistry
    from sim.runtime.floor_registry import FloorRegistryError as FloorRegistryError
    from sim.runtime.floor_registry import declare_fact as declare_fact
    from sim.runtime.floor_registry import load_floor_registry as load_floor_registry
    from sim.runtime.reference import ReferenceLoadError as ReferenceLoadError
    from sim.runtime.reference import load_reference as load_reference
    from sim.runtime.validity import StructureViolation as StructureViolation
    from sim.runtime.validity import check_levels as check_levels
    from sim.runtime.validity import check_messages as check_messages
    from sim.runtime.validity import head_messages as head_messages
    from sim.runtime.validity import tail_messages as tail_messages

_EXPORTS = {
    "FloorGate": "sim.runtime.floor_gate",
    "FloorRegistry": "sim.runtime.floor_registry",
    "FloorRegistryError": "sim.runtime.floor_registry",
    "GateResult": "sim.runtime.floor_gate",
    "ReferenceLoadError": "sim.runtime.reference",
    "StructureViolation": "sim.runtime.validity",
    "load_reference": "sim.runtime.reference",
    "check_levels": "sim.runtime.validity",
    "check_messages": "sim.runtime.validity",
    "declare_fact": "sim.runtime.floor_registry",
    "head_messages": "sim.runtime.validity",
    "load_floor_registry": "sim.runtime.floor_registry",
    "tail_messages": "sim.runtime.validity",
}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
