"""`sim.test_compactor(fn, scenario="note")`: a runtime's own compactor through the ladder in
one line, and a report object to assert on or hand to a design review.

`fn` is `fn(text, budget_tokens)` returning a `str`, a `(text, consumed_input_tokens)` pair or an
object with `.text` (strategies.from_callable), or its reference (`"pkg.mod:fn"`,
`"path/to/file.py:fn"`). With `jobs > 1` worker processes import `fn` by reference, so it must
be defined at module level in an importable module or file; with `jobs=1` (the default) any
callable works, a lambda included. The run is a normal run directory, with the reference
baselines (`empty`, `head`, `tail`, `keep_all`) beside `fn`.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.grading.outcomes import REFERENCES
from sim.regression.compactor_report import CompactorReport
from sim.runs.grid import load_grid
from sim.runs.runner import run_grid
from sim.runtime.reference import local_reference, reference_of

REPO = Path(__file__).resolve().parents[2]
NAMED = {"note": "credential_rotation"}
"""Short names for the shipped scenarios; any other `scenarios/<stem>.toml` goes by its stem."""
DEFAULT_TRIALS = 20


def scenario_path(scenario: str | Path) -> Path:
    """A path as given, or a shipped scenario by name (`note`, `tight_ladder`, ...)."""
    p = Path(scenario)
    if p.suffix == ".toml" or p.exists():
        return p
    stem = NAMED.get(str(scenario), str(scenario))
    shipped = REPO / "scenarios" / f"{stem}.toml"
    if not shipped.is_file():
        known = sorted({*NAMED, *(f.stem for f in (REPO / "scenarios").glob("*.toml"))})
        raise UserError(
            f"scenario={scenario!r}: no such file or shipped scenario; "
            f"shipped: {', '.join(known) or '(none: not a checkout)'}"
        )
    return shipped


def _reference(fn: Callable[..., Any] | str, jobs: int) -> str:
    if isinstance(fn, str):
        return fn
    if not callable(fn):
        raise UserError(f"fn={fn!r}: expected a callable or a 'pkg.mod:fn' reference")
    ref = reference_of(fn)
    if ref is not None:
        return ref
    if jobs > 1:
        raise UserError(
            f"fn={getattr(fn, '__qualname__', fn)!r}: jobs={jobs} runs worker processes, which "
            "import fn by reference; define it at module level or pass 'pkg.mod:fn' (or jobs=1)"
        )
    return local_reference(fn)


def test_compactor(
    fn: Callable[..., Any] | str,
    scenario: str | Path = "note",
    *,
    trials: int = DEFAULT_TRIALS,
    jobs: int = 1,
    name: str | None = None,
    seed: int | None = None,
    overrides: Sequence[str] = (),
    out: str | Path | None = None,
    progress: bool = False,
) -> CompactorReport:
    """Run `fn` at every level of `scenario` for `trials` trials; the run directory is `out`
    (default: a new temporary directory, kept: `report.path`)."""
    if jobs < 1:
        raise UserError(f"jobs={jobs}: must be >= 1")
    ref = _reference(fn, jobs)
    label = name or _label(fn, ref)
    entry = "{" + f"callable = {_toml(ref)}, name = {_toml(label)}" + "}"
    listed = ", ".join([entry, *map(_toml, REFERENCES)])
    given = [*overrides, f"strategies=[{listed}]", f"trials={trials}"]
    if seed is not None:
        given.append(f"seed={seed}")
    grid = load_grid(scenario_path(scenario), given)
    where = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="compsim-"))
    result = run_grid(grid, where, jobs=jobs, force=True, progress=progress)
    return CompactorReport.load(result.path, (label,))


test_compactor.__test__ = False  # type: ignore[attr-defined]  # pytest: not a test to collect


def _label(fn: Callable[..., Any] | str, ref: str) -> str:
    own = ref.rpartition(":")[2].rpartition(".")[2]
    if not isinstance(fn, str):
        own = str(getattr(fn, "__name__", own))
    return own if own.isidentifier() else "compactor"


def _toml(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
