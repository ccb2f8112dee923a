"""The shipped examples run and show what they claim: the gate pins a dropped rule in a
two-level loop, and strategies run over imported transcripts with exposure per lost fact."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_level_loop_recovers_the_dropped_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert _load("two_level_loop").main() == 0
    out = capsys.readouterr().out
    assert "inlined ['payment-restart-needs-yes']" in out  # L1: the gate carried it
    assert "L2:" in out and "pinned ['payment-restart-needs-yes'], inlined []" in out
    assert "structural problems: 0" in out
    summary = out.split("--- L2 summary ---\n", 1)[1]
    assert "Do not restart the payment worker until the on-call lead says yes." in summary


def test_transcript_trial_table() -> None:
    module = _load("transcript_trial")
    rows = module.trial_table()
    assert len(rows) == 3 * len(module.STRATEGIES)
    gated = [r for r in rows if " floor_gated " in r]
    assert gated and all(" silent " not in r for r in gated)
    assert any("never_read at L1" in r for r in rows if " tail " in r)
    assert module.message_tails() == [
        "slice [-2:]    kept 2 messages, problems: ['orphan_tool_result']",
        "tail_messages  kept 4 messages, problems: []",
    ]


def test_my_compactor_fits_every_budget_and_still_loses_rules_silently(tmp_path: Path) -> None:
    """What docs/your-compactor.md says of the sample compactor: within budget at every level
    of the note's scenario, and it loses a rule with nothing raised."""
    import json

    import sim

    report = sim.test_compactor(
        str(EXAMPLES / "my_compactor.py") + ":keep_rules", trials=12, out=tmp_path / "run"
    )
    rows = [json.loads(ln) for ln in (tmp_path / "run" / "trials.jsonl").read_text().splitlines()]
    mine = [r for r in rows if r["strategy"] == "keep_rules"]
    assert len(mine) == 12 and not any(r["over_budget"] for r in mine)
    assert [c.silent > 0 for c in report.collapses()] == [True]
