"""Real transcripts as L0: run the harness's ladders and strategies over your own sessions.

Each shipped transcript (OpenAI chat JSONL, Claude-Code session JSONL, plain text) is imported,
given facts two ways (rules the transcript already states, declared by their anchors, and a
class-template constraint planted at a chosen depth), and compacted through a two-level ladder
by several strategies with the simulated summarizer. The table says, per fact, its grade at
the leaf and how it was lost: never read (a budget-open tail), dropped by the first level that
read it, or kept and then lost later. Then message-level head/tail on the Claude session: a
naive slice splits a tool-use pair, the message-aware tail does not.

    python examples/transcript_trial.py          # from the repository root
"""

from __future__ import annotations

from pathlib import Path

from sim.engine.ladder import run_trial
from sim.history.constraints import prohibition_for
from sim.history.generate import Placement
from sim.history.transcript_history import transcript_history
from sim.history.transcripts import load_transcript
from sim.runtime.floor_registry import declare_fact, load_floor_registry
from sim.runtime.validity import check_messages, tail_messages
from sim.seeds import rng_for
from sim.summarizers.simulated import SimulatedSummarizer
from sim.tokens import get_counter
from sim.types import Fact, Ladder, LevelSpec
from strategies import create_strategy

HERE = Path(__file__).resolve().parent
STRATEGIES = ("re_ranking", "floor_gated", "pinned", "head", "tail", "empty")
LADDER = Ladder((LevelSpec("L1", 200, 3), LevelSpec("L2", 64, 0)))

DECLARED: dict[str, list[Fact]] = {
    "deploy_openai.jsonl": list(load_floor_registry(HERE / "floors.toml").facts),
    "migration_claude.jsonl": [
        declare_fact(
            "Always back up the user table before changing the schema.",
            {
                "action": ["back up", "backing up", "backup"],
                "object": ["user table"],
                "condition": ["before changing the schema", "before the schema change"],
            },
            opposites={"condition": ["after changing the schema"]},
            fact_id="backup-first",
        )
    ],
    "oncall.txt": [
        declare_fact(
            "Do not scale down the analytics cluster before the quarterly report is exported.",
            {
                "action": ["scale down", "scaling down", "scale-down"],
                "object": ["analytics cluster"],
                "condition": ["before the quarterly report is exported", "until the export"],
            },
            fact_id="no-scale-down",
        )
    ],
}


def trial_table() -> list[str]:
    counter = get_counter()
    rows = []
    for name, declared in DECLARED.items():
        transcript = load_transcript(HERE / "transcripts" / name)
        planted = Placement(prohibition_for("rotate", "credential", 4, "planted"), depth=0.5)
        history = transcript_history(transcript, counter, plant=[planted], declare=declared)
        for strategy in STRATEGIES:
            summarizer = SimulatedSummarizer(history, rng_for(0, 0, strategy), counter)
            rec = run_trial(
                history, LADDER, create_strategy(strategy), summarizer, counter,
                trial_id=f"{name}:{strategy}", seed=0,
            )  # fmt: skip
            fates = ", ".join(
                f"{o.fact_id}={o.leaf_grade.label}"
                + (f" ({o.exposure} at {o.blame_level})" if o.lost else "")
                for o in rec.outcomes
            )
            verdict = "aborted" if rec.aborted_at else "silent" if rec.silent else "ok"
            rows.append(f"{name:24} {strategy:12} {verdict:8} {fates}")
    return rows


def message_tails() -> list[str]:
    transcript = load_transcript(HERE / "transcripts" / "migration_claude.jsonl")
    messages = list(transcript.messages)
    naive = messages[-2:]  # the last two messages, whatever they are
    aware = tail_messages(messages, 120, api="anthropic")
    out = []
    for label, kept in (("slice [-2:]", naive), ("tail_messages", aware)):
        problems = check_messages(kept, api="anthropic")
        out.append(f"{label:14} kept {len(kept)} messages, problems: {[p.rule for p in problems]}")
    return out


def main() -> int:
    for line in trial_table():
        print(line)
    print()
    for line in message_tails():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
