"""`sim` and `strategies` are generic names: another installed package could shadow them.
These tests pin both imports (and the console script) to this repository's files."""

from __future__ import annotations

import importlib
import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["sim", "strategies"])
def test_package_resolves_to_this_repository(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    assert Path(module.__file__).resolve() == REPO / name / "__init__.py"


@pytest.mark.parametrize(
    "name", ["sim.engine.ladder", "sim.summarizers.simulated", "strategies.registry"]
)
def test_submodules_resolve_to_this_repository(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    assert Path(module.__file__).resolve().is_relative_to(REPO)


def test_distribution_declares_the_console_script() -> None:
    scripts = importlib.metadata.entry_points(group="console_scripts")
    compsim = [ep for ep in scripts if ep.name == "compsim"]
    assert [ep.value for ep in compsim] == ["sim.commands.main:main"]


def _compsim() -> str:
    beside = Path(sys.executable).parent / "compsim"
    found = str(beside) if beside.exists() else shutil.which("compsim")
    assert found, "the console script `compsim` is not installed"
    return found


def test_console_script_is_installed_and_runs() -> None:
    done = subprocess.run(
        [_compsim(), "--help"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "demo" in done.stdout


def test_public_api_reexports_resolve() -> None:
    import sim

    for name in sim.__all__:
        assert getattr(sim, name) is not None, name
    with pytest.raises(AttributeError):
        _ = sim.no_such_name  # type: ignore[attr-defined]
