"""The pytest plugin (entry point `pytest11`): a runtime's own tests assert on its compactor.

    def test_compaction_keeps_rules(compsim_check):
        compsim_check(my_compactor, scenario="note", fail="silent_collapse_rate:+0.00",
                      baseline="tests/compsim_baseline.json")

`compsim_check` runs `sim.test_compactor` into the test's temporary directory and fails the test
with the verdicts: against `baseline` with the `fail` expressions (as `compsim check`; an
inconclusive check fails too, saying it needs more trials), or, with no baseline, on any silent
collapse. `pytest --compsim-update-baseline` writes the baseline from this run instead (commit
it). `@pytest.mark.compsim(scenario=..., trials=..., baseline=..., fail=...)` sets a test's
defaults, the `compsim_baseline` ini option the project's. `compsim_run` runs without asserting.
Importing this module loads nothing of the harness: the fixtures import it when a test uses them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from sim.regression.compactor_report import CompactorReport

MARKER = "compsim"
SILENT_GATE = ("silent_collapse_rate:+0.00",)
UPDATE = "--compsim-update-baseline"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("compaction-sim")
    group.addoption(
        UPDATE,
        action="store_true",
        default=False,
        help="compsim_check: write each baseline from this run instead of checking against it",
    )
    parser.addini("compsim_baseline", "compsim_check: default baseline file (rootdir-relative)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(scenario=..., trials=..., baseline=..., fail=..., jobs=...): "
        "defaults for the compsim_check and compsim_run fixtures",
    )


def _defaults(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker(MARKER)
    return dict(marker.kwargs) if marker else {}


@pytest.fixture
def compsim_run(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., CompactorReport]:
    """`compsim_run(fn, scenario=..., trials=...)`: the report of a run, no assertion."""
    defaults = _defaults(request)
    count = iter(range(1_000_000))

    def run(fn: Any, **kwargs: Any) -> CompactorReport:
        from sim.regression.compactor import test_compactor

        options = {k: v for k, v in {**defaults, **kwargs}.items() if k not in ("baseline", "fail")}
        options.setdefault("out", tmp_path / f"compsim-{next(count)}")
        return test_compactor(fn, **options)

    return run


@pytest.fixture
def compsim_check(
    request: pytest.FixtureRequest, compsim_run: Callable[..., CompactorReport]
) -> Callable[..., CompactorReport]:
    """`compsim_check(fn, scenario=..., fail=..., baseline=...)`: run, then fail the test on a
    regression against the baseline (or on any silent collapse when there is none)."""
    defaults = _defaults(request)
    config = request.config

    def check(
        fn: Any,
        *,
        fail: str | Sequence[str] | None = None,
        baseline: str | Path | None = None,
        **kwargs: Any,
    ) -> CompactorReport:
        report = compsim_run(fn, **kwargs)
        base = baseline or defaults.get("baseline") or config.getini("compsim_baseline") or None
        exprs = fail if fail is not None else defaults.get("fail")
        if base is None:
            try:
                report.assert_no_silent_collapse()
            except AssertionError as exc:
                pytest.fail(str(exc), pytrace=False)
            return report
        path = Path(base)
        if not path.is_absolute():
            path = config.rootpath / path
        if config.getoption(UPDATE):
            from sim.regression.baseline import write_baseline
            from sim.regression.suite_run import load_outcomes

            write_baseline(load_outcomes(report.path), path)
            return report
        if not path.is_file():
            pytest.fail(
                f"compsim baseline {path} does not exist; write it with pytest {UPDATE} "
                "and commit it",
                pytrace=False,
            )
        listed = (
            [exprs] if isinstance(exprs, str) else list(exprs or ("silent_collapse_rate:+0.00",))
        )
        gate = report.check(path, listed)
        if gate.exit_code != 0:
            word = "inconclusive (more trials needed)" if gate.exit_code == 3 else "regressed"
            pytest.fail(f"compsim: {word}\n{report.check_text(gate, path)}", pytrace=False)
        return report

    return check
