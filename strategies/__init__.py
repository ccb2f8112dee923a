"""Compaction strategies for compaction-sim, and the registry third parties extend.

Importing this package registers the built-ins: budget_open, budget_closed, re_ranking,
floor_gated, pinned, keep_all, head, tail, empty.
"""

from strategies import baselines, budget_closed, budget_open, floor_gated
from strategies.base import CallContext, Strategy, read_closed, summarize_fitting
from strategies.registry import create_strategy, strategy, strategy_names

BUILTIN = (
    "budget_open",
    "budget_closed",
    "re_ranking",
    "floor_gated",
    "pinned",
    "keep_all",
    "head",
    "tail",
    "empty",
)

__all__ = [
    "BUILTIN",
    "CallContext",
    "Strategy",
    "baselines",
    "budget_closed",
    "budget_open",
    "create_strategy",
    "floor_gated",
    "read_closed",
    "strategy",
    "strategy_names",
    "summarize_fitting",
]
