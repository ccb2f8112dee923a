"""A complete two-level compaction loop in plain Python, with the floor gate in the loop.

A runtime keeps the newest messages verbatim and compacts the older ones in two levels:
L1 summarizes each group of old messages, L2 summarizes the L1 summaries. Both calls go through
`FloorGate`, which loads its facts from a floor registry file at start-up (next to the level
budgets) and makes sure no declared rule is abstracted past actionability without a loud
`RecallFloorViolation`. The summarizer here is a toy (it keeps the lines that look most
relevant to "what to do next": re-ranking, the note's risky kind); swap in your model call.

    python examples/two_level_loop.py            # from the repository root
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sim.errors import RecallFloorViolation
from sim.runtime.floor_gate import FloorGate
from sim.runtime.floor_registry import load_floor_registry
from sim.runtime.validity import check_messages, message_text, tail_messages

HERE = Path(__file__).resolve().parent
KEEP_RECENT_TOKENS = 120  # newest messages kept verbatim (whole tool-call blocks only)
GROUP = 4  # old messages per L1 call
NEXT_STEP_WORDS = ("open step", "next", "deploy", "production", "go ahead", "staging")


def toy_summarizer(text: str, budget_tokens: int) -> str:
    """Keep the lines that mention the next step first, then the rest, while they fit.

    Words x 1.5 is its own rough token estimate; when it undercounts, the gate measures the
    real count and re-asks with a tighter budget instead of cutting the output."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    ranked = sorted(lines, key=lambda ln: -sum(w in ln.lower() for w in NEXT_STEP_WORDS))
    kept: list[str] = []
    used = 0.0
    for line in ranked:
        cost = len(line.split()) * 1.5
        if used + cost <= budget_tokens:
            kept.append(line)
            used += cost
    return "".join(ln + "\n" for ln in sorted(kept, key=lines.index))


def pin_aware_summarizer(text: str, budget_tokens: int, pinned: tuple[Any, ...]) -> str:
    """The same toy, told which facts to keep: it writes them first, inside its budget."""
    rules = "".join(f.text + "\n" for f in pinned)
    room = budget_tokens - sum(len(f.text.split()) * 1.5 for f in pinned)
    return rules + toy_summarizer(text, int(room))


def render(messages: list[dict[str, Any]]) -> str:
    """Messages as the text a summarizer reads: one `role: line` per line."""
    lines = [(m["role"], ln.strip()) for m in messages for ln in message_text(m).splitlines()]
    return "".join(f"{role}: {line}\n" for role, line in lines if line)


def main(transcript: Path = HERE / "transcripts" / "deploy_openai.jsonl") -> int:
    registry = load_floor_registry(HERE / "floors.toml")
    gate = FloorGate(registry.facts, max_retries=2, on_exhausted="pin")
    messages = [json.loads(line) for line in transcript.read_text().splitlines() if line.strip()]

    recent = tail_messages(messages, KEEP_RECENT_TOKENS)
    old = [m for m in messages if all(m is not r for r in recent)]
    print(f"{len(messages)} messages: {len(old)} to compact, {len(recent)} kept verbatim")

    try:
        l1 = []
        for i in range(0, len(old), GROUP):
            result = gate.compact(
                level="L1",
                text=render(old[i : i + GROUP]),
                budget_tokens=registry.budget("L1"),
                summarize=toy_summarizer,
            )
            l1.append(result)
        l2 = gate.compact(
            level="L2",
            text="".join(r.text for r in l1),
            budget_tokens=registry.budget("L2"),
            summarize=pin_aware_summarizer,
        )
    except RecallFloorViolation as exc:  # loud and attributed: the runtime keeps its context
        print(f"compaction refused: {exc}")
        return 1

    for r in [*l1, l2]:
        print(
            f"{r.level}: {r.tokens_in} -> {r.tokens_out}/{r.budget_tokens} tokens, "
            f"{r.calls} calls ({r.floor_retries} floor retries, {r.budget_retries} tighter "
            f"re-asks), pinned {list(r.pinned)}, inlined {list(r.inlined)}"
        )
        for v in r.violations:
            print(f"    attempt {v.attempt}: {v.fact_id} {v.reason} (recovered: {v.recovered})")

    system = [m for m in messages if m["role"] == "system"]
    summary = {"role": "user", "content": "Summary of the earlier work:\n" + l2.text}
    context = [*system, summary, *[m for m in recent if m["role"] != "system"]]
    problems = check_messages(context, invariants=list(registry.facts))
    print(f"compacted context: {len(context)} messages, structural problems: {len(problems)}")
    for p in problems:
        print(f"    {p.rule} at {p.index}: {p.detail}")
    print("--- L2 summary ---")
    print(l2.text, end="")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*(Path(a) for a in sys.argv[1:2])))
