"""Every table and plot at 0% and 100% rates: keep_all never collapses and empty always does,
over 100 trials (where the Wilson lower bound of a 0% rate used to come out at 3.5e-18 and
compare-prompts crashed on the negative error bar)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sim.commands.main import main

SCENARIO = """\
name = "extremes"
seed = 3
trials = 100
strategies = [
    { name = "keep_all" },
    { name = "empty" },
    { name = "budget_closed", instruction = "compress" },
]

[history]
target_tokens = 300
near_misses = 0

[constraints]
count = 1

[[ladder]]
name = "L1"
budget_tokens = 100

[[ladder]]
name = "L2"
budget_tokens = 40
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("extremes")
    (tmp / "s.toml").write_text(SCENARIO, encoding="utf-8")
    out = tmp / "run"
    args = ["run", str(tmp / "s.toml"), "--jobs", "1", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    return out


def test_the_run_has_both_ends(run_dir: Path) -> None:
    summary = json.loads((run_dir / "summary.json").read_text())
    rows = {r["strategy"]: r for r in summary["groups"]}
    assert rows["keep_all"]["collapsed_rate"] == 0.0
    assert rows["keep_all"]["collapsed_lo"] == 0.0
    assert rows["empty"]["collapsed_rate"] == 1.0
    assert rows["empty"]["collapsed_hi"] == 1.0
    for r in rows.values():
        for rate in ("collapsed", "silent", "loud"):
            assert 0.0 <= r[f"{rate}_lo"] <= r[f"{rate}_rate"] <= r[f"{rate}_hi"] <= 1.0


def test_report_draws_every_plot(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(run_dir)]) == 0
    plots = sorted(p.name for p in (run_dir / "plots").glob("*.png"))
    assert plots, "no plot written"
    assert all((run_dir / "plots" / p).stat().st_size > 1000 for p in plots)
    assert (run_dir / "report.html").stat().st_size > 1000
    assert "keep_all" in capsys.readouterr().out


def test_compare_prompts_table_csv_and_plot(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare-prompts", str(run_dir)]) == 0
    out = capsys.readouterr().out
    assert "empty" in out and "keep_all" in out
    with (run_dir / "prompt_comparison.csv").open() as fh:
        rows = {r["strategy"]: r for r in csv.DictReader(fh)}
    assert float(rows["keep_all"]["silent_lo"]) == 0.0
    assert float(rows["empty"]["collapse_hi"]) == 1.0
    assert (run_dir / "plots" / "prompt_comparison.png").stat().st_size > 1000
