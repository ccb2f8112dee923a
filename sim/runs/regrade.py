"""`compsim regrade RUN --grader judge`: a model's verdict beside the text grader's.

For every level text a run kept (traces.jsonl, the first trials of each cell) and every live
planted fact, the judge model answers one forced choice (sim.grading.judge) through the
record/replay cache, and the text grader grades the same text again. The run gains
`judge.jsonl` (one row per fact and level: both verdicts, the reply) and `judge_summary.json`
(agreement overall and per class, the confusion, the judge's identity), which the report lists.
The facts are rebuilt from the manifest's scenario with the trial's own seed, so nothing but
the run directory is needed.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sim.errors import UserError
from sim.files import parse_json, read_capped
from sim.grading.agreement import label_of
from sim.grading.grade import grade_text
from sim.grading.judge import JUDGE_MAX_TOKENS, judge_prompt, parse_judge
from sim.runs.results import iter_jsonl, read_manifest
from sim.runs.runner import grid_from_manifest
from sim.runs.scenario import Scenario, format_validation_error
from sim.runs.stats import wilson
from sim.runs.store import atomic_write
from sim.runs.trial import trial_history
from sim.summarizers.config import SummarizerConfig
from sim.summarizers.registry import (
    TrialContext,
    build_summarizer,
    counter_for,
    usage,
    usage_delta,
)
from sim.types import History

JUDGE_ROWS = "judge.jsonl"
JUDGE_SUMMARY = "judge_summary.json"
TRACES = "traces.jsonl"
MAX_SUMMARY_BYTES = 1 << 20


def judge_config(scenario: Scenario, overrides: dict[str, Any]) -> SummarizerConfig:
    """The judge model: the flags' fields over the scenario's `[grading] judge`, else over its
    summarizer. The simulated summarizer is no model and cannot judge."""
    base = scenario.grading.judge if scenario.grading and scenario.grading.judge else None
    data = (base or scenario.summarizer).model_dump()
    data.update({k: v for k, v in overrides.items() if v is not None})
    data["probe"] = False
    try:
        config = SummarizerConfig.model_validate(data)
    except ValidationError as exc:
        raise UserError(f"judge: {format_validation_error(exc)}") from None
    if config.name == "simulated":
        raise UserError(
            "judge: the simulated summarizer is no model; give one with --summarizer "
            "(scripted | http | local | a plug-in) or a [grading] judge table"
        )
    return config


@dataclass(frozen=True, slots=True)
class Verdict:
    row: dict[str, Any]

    @property
    def agrees(self) -> bool:
        return bool(self.row["text_grade"] == self.row["judge_grade"])


def _traces(run_dir: Path) -> Iterator[dict[str, Any]]:
    path = run_dir / TRACES
    if not path.is_file():
        raise UserError(f"{run_dir}: no {TRACES}; the judge reads the level texts a run kept")
    yield from iter_jsonl(path)


def judge_run(run_dir: Path, overrides: dict[str, Any]) -> dict[str, Any]:
    """Judge every kept level text of the run; write judge.jsonl and judge_summary.json."""
    manifest = read_manifest(run_dir)
    grid = grid_from_manifest(manifest)
    scenarios = {c.id: c.scenario for c in grid.cells}
    config = judge_config(grid.base, overrides)
    histories: dict[tuple[str, int], History] = {}
    rows: list[dict[str, Any]] = []
    before = usage()
    for trace in _traces(run_dir):
        cell, trial = str(trace.get("cell", "")), int(trace["trial"])
        scenario = scenarios.get(cell) or grid.base
        counter = counter_for(scenario.summarizer, scenario.tokenizer)
        history = histories.get((cell, trial))
        if history is None:
            history = histories[(cell, trial)] = trial_history(scenario, trial)
        facts = [f for f in history.facts if f.floored]
        judge = build_summarizer(
            config, TrialContext(history, counter, scenario.seed, trial, "judge")
        )
        ask = judge.ask
        if ask is None:
            raise UserError(f"judge: summarizer {config.name!r} cannot answer questions")
        for level in trace["levels"]:
            text = level.get("text") or ""
            grades = grade_text(text, facts, counter)
            for fact, grade in zip(facts, grades, strict=True):
                reply = ask(judge_prompt(text, fact), f"judge:{fact.fact_id}", JUDGE_MAX_TOKENS)
                rows.append(
                    {
                        "trial_id": trace["trial_id"],
                        "cell": cell,
                        "strategy": trace["strategy"],
                        "level": level["name"],
                        "fact_id": fact.fact_id,
                        "cls": fact.cls,
                        "text_grade": label_of(grade.grade),
                        "judge_grade": parse_judge(reply),
                        "reply": reply[:200],
                    }
                )
    summary = summarize(rows, config, usage_delta(usage(), before))
    body = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)
    atomic_write(run_dir / JUDGE_ROWS, body.encode("utf-8"))
    atomic_write(run_dir / JUDGE_SUMMARY, (json.dumps(summary, indent=1) + "\n").encode("utf-8"))
    return summary


def summarize(
    rows: list[dict[str, Any]], config: SummarizerConfig, calls: dict[str, int]
) -> dict[str, Any]:
    """Agreement between the text grader and the judge, overall and per class."""
    answered = [r for r in rows if r["judge_grade"] is not None]
    by_class: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in answered:
        by_class[r["cls"]].append(r)

    def rate(group: list[dict[str, Any]]) -> dict[str, Any]:
        k = sum(r["text_grade"] == r["judge_grade"] for r in group)
        lo, hi = wilson(k, len(group))
        return {"cases": len(group), "agree": k, "rate": k / len(group) if group else None,
                "lo": lo, "hi": hi}  # fmt: skip

    confusion = Counter((r["text_grade"], r["judge_grade"]) for r in answered)
    return {
        "judge": {"name": config.name, "model": config.model or config.model_path or ""},
        "cases": len(rows),
        "unanswered": len(rows) - len(answered),
        "overall": rate(answered),
        "by_class": {c: rate(g) for c, g in sorted(by_class.items())},
        "confusion": [
            {"text": t, "judge": j, "count": n} for (t, j), n in sorted(confusion.items())
        ],
        "model_calls": calls.get("model_calls", 0),
        "cache_hits": calls.get("cache_hits", 0),
    }


def read_judgements(run_dir: Path) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A run's judge summary and disagreeing rows, or None when it was never judged."""
    path = run_dir / JUDGE_SUMMARY
    if not path.is_file():
        return None
    raw = read_capped(path, "judge summary", UserError, MAX_SUMMARY_BYTES)
    try:
        summary = parse_json(raw)
    except ValueError as exc:
        raise UserError(f"{path}: not a judge summary ({str(exc)[:80]})") from None
    rows = [r for r in iter_jsonl(run_dir / JUDGE_ROWS) if r["text_grade"] != r["judge_grade"]]
    return summary, rows
