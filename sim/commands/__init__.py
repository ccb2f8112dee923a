"""The `compsim` command line: one module per subcommand, `main` the entry point.

The top wing: it may import every other wing, and none imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.exports import lazy

if TYPE_CHECKING:
    from sim.commands.main import main as main

_EXPORTS = {"main": "sim.commands.main"}

__all__ = sorted(_EXPORTS)
__getattr__ = lazy(__name__, _EXPORTS)
