"""A runtime's own compactor as a strategy, named by reference (sim.runtime.reference).

Two shapes, one per scenario key:
- `{callable = "pkg.mod:fn", name = "mine"}`: `fn(text, budget_tokens)` returning a `str`, a
  `(text, consumed_input_tokens)` pair or an object with `.text` (and optionally
  `.consumed_input_tokens` and `.cut`), run on every call group of every level. A reply that
  reports no consumption is taken to have read all its input; one that says `.cut` (its
  backend stopped at an output cap) fails the level loudly, as the runtime would know.
- `{factory = "pkg.mod:make", name = "mine", <args>}`: `make(**args)` returns a full strategy
  (`compact(text, budget, ctx) -> PieceResult`, strategies.base.Strategy).

Worker processes rebuild the strategy from the same reference, so nothing is pickled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.errors import CompactionFailure
from sim.runtime.call import read_any_reply
from sim.runtime.reference import ReferenceLoadError, load_callable
from sim.types import PieceResult
from strategies.base import CallContext

CALLABLE = "callable"
FACTORY = "factory"
REFERENCE_KEYS = (CALLABLE, FACTORY)
"""Scenario keys that name user code; they stay out of a strategy's label (its `name` says it)."""


class CallableCompactor:
    """`fn(text, budget_tokens)` at every call of every level."""

    name: str
    args: dict[str, Any]

    def __init__(self, fn: Callable[..., Any], reference: str) -> None:
        self.fn = fn
        self.reference = reference

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        reply, consumed, cut = read_any_reply(self.reference, self.fn(text, budget))
        declared = ctx.counter.count(text)
        if cut:
            raise CompactionFailure(ctx.level, f"{self.reference}: output cut at its output cap")
        return PieceResult(
            text=reply,
            declared_input_tokens=declared,
            consumed_input_tokens=declared if consumed is None else consumed,
            calls=1,
        )


def build(spec: dict[str, Any]) -> Any:
    """The strategy a scenario entry with a `callable` or `factory` key describes."""
    name = spec["name"]
    args = {k: v for k, v in spec.items() if k != "name"}
    if CALLABLE in args and FACTORY in args:
        raise ReferenceLoadError(f"strategy {name!r}: give `callable` or `factory`, not both")
    if CALLABLE in args:
        ref = args.pop(CALLABLE)
        if args:
            extra = ", ".join(sorted(args))
            raise ReferenceLoadError(
                f"strategy {name!r}: a `callable` takes no arguments (got {extra}); "
                "use `factory` for a strategy with arguments"
            )
        fn = load_callable(_ref(name, ref), 2, "compactor fn(text, budget_tokens)")
        instance: Any = CallableCompactor(fn, ref)
        recorded = {CALLABLE: ref}
    else:
        ref = _ref(name, args.pop(FACTORY))
        make = load_callable(ref, None, "strategy factory")
        try:
            instance = make(**args)
        except TypeError as exc:
            raise ReferenceLoadError(f"{ref!r}: {exc}") from None
        if not callable(getattr(instance, "compact", None)):
            raise ReferenceLoadError(
                f"{ref!r} returned {type(instance).__name__}, which has no "
                "compact(text, budget, ctx) method"
            )
        recorded = {FACTORY: ref, **args}
    instance.name = name
    instance.args = recorded
    return instance


def _ref(name: str, ref: object) -> str:
    if not isinstance(ref, str) or not ref:
        raise ReferenceLoadError(f"strategy {name!r}: a reference must be a string, got {ref!r}")
    return ref
