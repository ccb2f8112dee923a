"""Prompt comparison: one row per cell x prompt x strategy of a finished run.

Which prompt a strategy sent is read from the manifest: the strategy's own `instruction`
argument (defaults included), else the levels' instructions, else the strategy's built-in
default. Rates carry 95% Wilson intervals. Model calls and cache hits are per run (manifest
`model_usage`): a replay must not change the rows, so the rows carry only the summarizer calls
of the levels a trial completed. With the behavioural probe on, each row also has the share
of probed constraints a downstream agent would break, and how often that agrees with the text
grade (a rule below its floor at the leaf vs a violating answer).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sim.prompts.templates import prompt_label
from sim.report.fit import WIDTH, fit
from sim.report.rates import pct, pct_ci
from sim.runs.results import Run
from sim.runs.stats import wilson


@dataclass
class PromptRow:
    cell: str
    prompt: str
    strategy: str
    key: str
    trials: int = 0
    errors: int = 0
    collapsed: int = 0
    silent: int = 0
    loud: int = 0
    stopped: int = 0  # a level refused and the ladder stopped with nothing lost
    violations: int = 0
    retries: int = 0
    calls: int = 0
    emitted: int = 0
    probes: int = 0
    probe_violations: int = 0
    probe_agree: int = 0

    def rate(self, count: int) -> tuple[float, float, float]:
        n = self.trials
        lo, hi = wilson(count, n)
        return (count / n if n else 0.0, lo, hi)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cell": self.cell,
            "prompt": self.prompt,
            "strategy": self.strategy,
            "key": self.key,
            "trials": self.trials,
            "errors": self.errors,
        }
        for name, count in (
            ("collapse", self.collapsed),
            ("silent", self.silent),
            ("loud", self.loud),
            ("stopped", self.stopped),
        ):
            rate, lo, hi = self.rate(count)
            out |= {name: rate, f"{name}_lo": lo, f"{name}_hi": hi}
        n = max(self.trials, 1)
        out |= {
            "violations_per_trial": self.violations / n,
            "retries_per_trial": self.retries / n,
            "calls_per_trial": self.calls / n,
            "tokens_per_trial": self.emitted / n,
        }
        if self.probes:
            lo, hi = wilson(self.probe_violations, self.probes)
            out |= {
                "probe_violation": self.probe_violations / self.probes,
                "probe_violation_lo": lo,
                "probe_violation_hi": hi,
                "probe_agreement": self.probe_agree / self.probes,
            }
        return out


def prompt_of(entry_args: dict[str, Any], levels: Iterable[dict[str, Any]]) -> str:
    own = entry_args.get("instruction")
    if own:
        return prompt_label(str(own))
    per_level = [lv.get("instruction") for lv in levels]
    labels = list(dict.fromkeys(prompt_label(i) for i in per_level if i))
    return "+".join(labels) if labels else "default"


def compare(run: Run) -> list[PromptRow]:
    rows: dict[tuple[str, str], PromptRow] = {}
    for cell in run.meta.cells:
        levels = cell.scenario.get("ladder", [])
        for s in cell.strategies:
            rows[(cell.id, s.key)] = PromptRow(cell.id, prompt_of(s.args, levels), s.name, s.key)
    for r in run.rows():
        row = rows.get((r.get("cell", ""), r["strategy"]))
        if row is None:
            continue
        row.trials += 1
        if r.get("error"):
            row.errors += 1
            continue
        row.collapsed += bool(r["collapsed"])
        row.silent += bool(r["silent"])
        row.loud += bool(r["loud"])
        row.stopped += bool(r.get("stopped"))
        row.violations += sum(1 for v in r.get("violations", ()) if not v.get("recovered"))
        row.retries += int(r.get("floor_retries", 0)) + int(r.get("budget_retries", 0))
        row.calls += int(r.get("calls", 0))
        row.emitted += int(r.get("tokens_emitted", 0))
        lost = {f["fact_id"]: bool(f["lost"]) for f in r.get("facts", ())}
        for p in r.get("probes", ()):
            if p["violates"] is None:
                continue
            row.probes += 1
            row.probe_violations += bool(p["violates"])
            row.probe_agree += bool(p["violates"]) == lost.get(p["fact_id"], False)
    return list(rows.values())


def _pct(rate: float, lo: float, hi: float) -> str:
    return pct_ci(rate, lo, hi)


def format_rows(rows: list[PromptRow], *, wide: bool = False) -> str:
    """An aligned terminal table, fitted to 100 columns: collapse, silent with its 95%
    interval, loud, stopped (when a ladder stopped with nothing lost), tokens per trial and
    the probe's violation rate and agreement (errors when any trial raised); `wide`: every
    rate with its interval, violations, retries and calls per trial, however wide."""
    cells = len({r.cell for r in rows}) > 1
    probe = any(r.probes for r in rows)
    errors = wide or any(r.errors for r in rows)
    stopped = wide or any(r.stopped for r in rows)
    head = (["cell"] if cells else []) + ["prompt", "strategy", "trials"]
    head += ["errors"] if errors else []
    if wide:
        head += ["collapse [95% CI]", "silent [95% CI]", "loud [95% CI]", "stopped"]
        head += ["viol/trial", "retries/trial", "calls/trial", "tokens/trial"]
        head += ["probe viol [95% CI]", "agree"] if probe else []
    else:
        head += ["collapse", "silent [95% CI]", "loud", *(["stopped"] if stopped else []), "tokens"]
        head += ["probe viol", "agree"] if probe else []
    body = []
    for r in rows:
        d = r.as_dict()
        line = ([r.cell] if cells else []) + [r.prompt, r.strategy, str(r.trials)]
        line += [str(r.errors)] if errors else []
        ci = {k: _pct(d[k], d[f"{k}_lo"], d[f"{k}_hi"]) for k in ("collapse", "silent", "loud")}
        if wide:
            line += [ci["collapse"], ci["silent"], ci["loud"], pct(d["stopped"])]
            line += [f"{d['violations_per_trial']:.2f}", f"{d['retries_per_trial']:.2f}"]
            line += [f"{d['calls_per_trial']:.1f}", f"{d['tokens_per_trial']:.0f}"]
        else:
            line += [pct(d["collapse"]), ci["silent"], pct(d["loud"])]
            line += [pct(d["stopped"])] if stopped else []
            line += [f"{d['tokens_per_trial']:.0f}"]
        if probe:
            if r.probes:
                rate = d["probe_violation"]
                lo, hi = d["probe_violation_lo"], d["probe_violation_hi"]
                line += [_pct(rate, lo, hi) if wide else pct(rate), pct(d["probe_agreement"])]
            else:
                line += ["-", "-"]
        body.append(line)
    left = 3 if cells else 2
    return fit(head, body, left, 10**9 if wide else WIDTH)


def tokenizer_line(run: Run) -> str:
    """Which tokenizer counted every budget and token column."""
    name = run.meta.tokenizer
    if name == "model":
        cell = run.meta.cells[0].summarizer if run.meta.cells else {}
        return f"tokens counted with: the model's own tokenizer ({cell.get('model_path')})"
    return f"tokens counted with: {name}"


def usage_line(run: Run) -> str:
    u = run.meta.model_usage
    if not u:
        return "model calls: none recorded (simulated summarizer, or a run from before the cache)"
    return (
        f"model calls: {u.get('model_calls', 0)} of {u.get('calls', 0)} summarizer calls; "
        f"cache hits {u.get('cache_hits', 0)}, misses {u.get('cache_misses', 0)}, "
        f"{u.get('cache_bytes_read', 0)} bytes read, {u.get('cache_bytes_written', 0)} written; "
        f"outputs cut at max_tokens {u.get('cut_at_max_tokens', 0)}"
    )
