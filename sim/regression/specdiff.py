"""What differs between the baseline and the candidate besides the code under test.

A gate that compares a 128-token leaf with a 96-token one, or suite version 1 with version 2,
must say so rather than compare apples to oranges silently: every difference in suite version,
harness version, case version and resolved scenario (ladder, history, summarizer...) becomes
one warning line naming the key and both values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.grading.outcomes import HISTORY_KEYS, SuiteOutcomes
from sim.runs.manifest import EXECUTION_ONLY

MAX_LINES_PER_CASE = 12
_IGNORED = ("strategies",)  # compared strategy by strategy, by the gate itself


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted paths to leaves; list items of tables are named by their `name` when they have
    one (`ladder.L3.budget_tokens`), else by index."""
    out: dict[str, Any] = {}
    if isinstance(value, Mapping):
        for k in sorted(value):
            out.update(flatten(value[k], f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        for i, v in enumerate(value):
            name = v.get("name") if isinstance(v.get("name"), str) else None
            names = [x.get("name") for x in value]
            label = name if name and names.count(name) == 1 else str(i)
            out.update(flatten(v, f"{prefix}.{label}"))
    else:
        out[prefix] = value
    return out


def spec_differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """`key: old -> new` for every leaf that differs (absent shown as `-`)."""
    a = flatten({k: v for k, v in old.items() if k not in _IGNORED})
    b = flatten({k: v for k, v in new.items() if k not in _IGNORED})
    execution = {f"summarizer.{k}" for k in EXECUTION_ONLY}  # cannot change a result
    lines = []
    for key in sorted((a.keys() | b.keys()) - execution):
        va, vb = a.get(key, "-"), b.get(key, "-")
        if va != vb:
            lines.append(f"{key}: {_show(va)} -> {_show(vb)}")
    return lines


def _show(v: Any) -> str:
    s = repr(v) if isinstance(v, str) and v != "-" else str(v)
    return s if len(s) <= 60 else s[:57] + "..."


def spec_warnings(base: SuiteOutcomes, cand: SuiteOutcomes) -> list[str]:
    out = []
    if base.harness_version != cand.harness_version:
        out.append(
            f"harness version differs: baseline {base.harness_version}, "
            f"candidate {cand.harness_version}"
        )
    if (base.name, base.version) != (cand.name, cand.version):
        out.append(
            f"suite differs: baseline {base.name} v{base.version}, "
            f"candidate {cand.name} v{cand.version}"
        )
    for name, bc in base.cases.items():
        cc = cand.cases.get(name)
        if cc is None:
            continue
        if bc.version != cc.version:
            out.append(
                f"case {name}: version differs: baseline {bc.version}, candidate {cc.version}"
            )
        diffs = spec_differences(bc.spec, cc.spec)
        more = len(diffs) - MAX_LINES_PER_CASE
        out += [f"case {name}: {d}" for d in diffs[:MAX_LINES_PER_CASE]]
        if more > 0:
            out.append(f"case {name}: ... and {more} more differences")
        if bc.history_spec() != cc.history_spec():
            out.append(
                f"case {name}: histories differ ({', '.join(HISTORY_KEYS)}), so its trials "
                "are compared unpaired"
            )
    return out
