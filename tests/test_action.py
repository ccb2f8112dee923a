"""The GitHub Action (action.yml) and its bench-and-check script (action/gate.sh), run as the
Action runs it: inputs in the environment, the job summary and outputs in GitHub's files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "action" / "gate.sh"
SUITE = ROOT / "tests" / "fixtures" / "gate" / "suite" / "suite.toml"
FIXTURE = ROOT / "tests" / "fixtures" / "compactors.py"


def test_the_action_is_composite_and_feeds_the_script_every_input() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with the test extras (ray)")
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert {"suite", "baseline", "fail", "compactor", "strategy"} <= set(action["inputs"])
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert uses[0].startswith("actions/setup-python@") and uses[-1].startswith(
        "actions/upload-artifact@"
    )
    assert steps[-1]["if"] == "always()"  # the run is uploaded when the gate fails too
    (gate,) = [s for s in steps if s.get("id") == "gate"]
    assert "action/gate.sh" in gate["run"]
    wanted = set(re.findall(r"\$\{?(COMPSIM_[A-Z_]+)", SCRIPT.read_text()))
    assert wanted == set(gate["env"])


def _gate(tmp_path: Path, name: str, **env: str) -> tuple[int, str, str, dict[str, str]]:
    summary, outputs = tmp_path / f"{name}.summary", tmp_path / f"{name}.outputs"
    full = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "COMPSIM_SUITE": str(SUITE),
        "COMPSIM_OUT": str(tmp_path / name),
        "COMPSIM_JOBS": "1",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(outputs),
        **env,
    }
    done = subprocess.run(
        ["bash", str(SCRIPT)], env=full, capture_output=True, text=True, timeout=600
    )
    got = (
        dict(ln.split("=", 1) for ln in outputs.read_text().splitlines() if "=" in ln)
        if outputs.exists()
        else {}
    )
    text = summary.read_text() if summary.exists() else ""
    return done.returncode, done.stdout + done.stderr, text, got


@pytest.mark.slow  # three suite runs
def test_the_gate_passes_a_kept_compactor_and_fails_a_regression(tmp_path: Path) -> None:
    from sim.commands.main import main

    keep = {"COMPSIM_COMPACTOR": f"mine={FIXTURE}:keep_everything"}
    code, log, _, out = _gate(
        tmp_path, "base", COMPSIM_BASELINE=str(tmp_path / "none.json"), **keep
    )
    assert code == 2 and "none.json" in log  # no baseline yet: bad input, after the bench
    assert out["run-dir"] == str(tmp_path / "base")
    assert main(["baseline", "update", out["run-dir"], "--name", "b", "--dir", str(tmp_path)]) == 0
    baseline = str(tmp_path / "b.json")

    code, log, summary, out = _gate(tmp_path, "same", COMPSIM_BASELINE=baseline, **keep)
    assert code == 0, log
    assert out["exit-code"] == "0" and "PASS" in summary and summary.startswith("#")

    code, log, summary, out = _gate(
        tmp_path, "worse", COMPSIM_BASELINE=baseline,
        COMPSIM_COMPACTOR=f"mine={FIXTURE}:drop_rules",
        COMPSIM_FAIL="  silent_collapse_rate:+0.00  \n\ncollapse_rate:+0.05\n",
    )  # fmt: skip
    assert code == 1, log
    assert out["exit-code"] == "1" and "REGRESSED" in summary
    assert "silent_collapse_rate" in summary and "collapse_rate" in summary
    assert (tmp_path / "worse" / "suite.json").is_file()  # what the upload step sends


def test_bad_inputs_stop_before_the_check(tmp_path: Path) -> None:
    code, log, summary, out = _gate(
        tmp_path, "bad", COMPSIM_BASELINE="x.json", COMPSIM_COMPACTOR=f"{FIXTURE}:one_arg"
    )
    assert code == 2 and "2 positional arguments" in log
    assert out["exit-code"] == "2" and summary == ""
    code, log, _, _ = _gate(
        tmp_path, "bad2", COMPSIM_BASELINE="x.json", COMPSIM_INCONCLUSIVE="maybe"
    )
    assert code == 2 and "expected fail or pass" in log
