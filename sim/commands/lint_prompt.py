"""`compsim lint-prompt FILES...`: the note's decision boundary applied to prompts.

A prompt file (any non-.toml file) is classified as compression or re-ranking, with every
matched phrase and its line, then its feature vector (sim.prompts.features) with the lines
that show each feature and the simulated summarizer's knobs they move
(sim.summarizers.prompt_knobs). A scenario file (.toml) is dry-run: each strategy is asked to
compact one line at each level with a recording summarizer, which yields the instruction it
would really send (its own, the level's, or its built-in default); a re-ranking instruction
under a strategy without a floor gate is a warning ("must be gated by an explicit floor check").

Exit codes: 0 (warnings allowed), 1 with `--strict` when anything was warned, 2 bad input.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from sim.commands.run import add_prompt_files_anywhere
from sim.errors import CompactionSimError
from sim.prompts.features import Feature, prompt_features
from sim.prompts.instructions import Mode, classify, matches
from sim.prompts.templates import base_dir, expand, load_prompt, prompt_label
from sim.runs.scenario import Scenario, load_scenario
from sim.runs.trial import strategy_key
from sim.summarizers.base import SummaryRequest, SummaryResult
from sim.summarizers.prompt_knobs import knob_line
from sim.tokens import MemoCounter, get_counter
from sim.types import Fact, FactGrade
from strategies import create_strategy
from strategies.base import CallContext

GATED = frozenset({"floor_gated"})
"""Strategies with the note's floor gate; a plug-in says so with `floor_gate = True`."""


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser(
        "lint-prompt",
        help="classify prompts as compression or re-ranking; warn on ungated re-ranking",
    )
    p.add_argument("files", nargs="+", help="prompt files (.txt) and/or scenario files (.toml)")
    p.add_argument("--strict", action="store_true", help="exit 1 when anything was warned")
    add_prompt_files_anywhere(p)
    p.set_defaults(func=run)


@dataclass
class _Recorder:
    """A summarizer that records the instruction it is sent and returns nothing."""

    counter: MemoCounter
    name: str = "lint"
    max_input_tokens: int = 1 << 30
    instructions: list[str] = field(default_factory=list)

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.instructions.append(request.instruction)
        return SummaryResult("", self.counter.count(request.text))


def _no_grades(text: str, facts: Sequence[Fact]) -> tuple[FactGrade, ...]:
    return ()


def lint_prompt_file(path: Path) -> list[str]:
    """The verdict by the note's rule with its re-ranking lines, then every feature the prompt
    shows (sim.prompts.features) with the lines that show it, and the knobs they move."""
    prompt = load_prompt(path)
    found = matches(prompt.text)
    if not found:
        lines = [f"{path}: compression (no re-ranking phrase)"]
    else:
        lines = [f"{path}: re-ranking"]
        lines += [f"  line {m.line_no}: {m.phrase!r} in {m.line.strip()!r}" for m in found]
    feats = prompt_features(prompt.text)
    if not feats.evidence:
        return [*lines, "  features: none"]
    lines.append("  features: " + ", ".join(f.value for f in Feature if feats.has(f)))
    for e in sorted(feats.evidence, key=lambda e: (list(Feature).index(e.feature), e.line_no)):
        lines.append(f"    {e.feature.value}: line {e.line_no} {e.cue!r} in {e.line.strip()!r}")
    lines.append("  knobs: " + knob_line(feats))
    return lines


def scenario_warnings(scenario: Scenario, source: str) -> list[str]:
    """One warning per strategy and re-ranking instruction it sends without a floor gate,
    naming the levels where it does."""
    counter = get_counter()
    where = base_dir(scenario)
    out: list[str] = []
    for name, args in scenario.strategy_specs():
        key = strategy_key(name, args)
        named = base_dir(scenario, "strategies")
        expanded = {k: expand(v, named) if isinstance(v, str) else v for k, v in args.items()}
        strategy = create_strategy(name, **expanded)
        if name in GATED or getattr(strategy, "floor_gate", False):
            continue
        default = getattr(strategy, "args", {}).get("instruction")
        sent: dict[tuple[str, str], list[str]] = {}
        for level in scenario.ladder:
            recorder = _Recorder(counter)
            ctx = CallContext(
                level.name, expand(level.instruction, where), recorder, counter, _no_grades, ()
            )
            with suppress(CompactionSimError):  # only the instruction it sent matters here
                strategy.compact("One line of session log.\n", level.budget_tokens, ctx)
            ref = args.get("instruction") or level.instruction or default
            for instruction in dict.fromkeys(recorder.instructions):
                c = classify(instruction)
                if c.mode is Mode.RERANK:
                    sent.setdefault((prompt_label(ref), c.why), []).append(level.name)
        for (label, why), levels in sent.items():
            out.append(
                f"{source}: warning: {key} sends a re-ranking prompt ({label}: {why}) at "
                f"{', '.join(levels)} with no floor gate; use floor_gated or a compression prompt"
            )
    return out


def run(args: argparse.Namespace) -> int:
    warned = False
    for name in args.files:
        path = Path(name)
        if path.suffix == ".toml":
            found = scenario_warnings(load_scenario(path), str(path))
            warned |= bool(found)
            print("\n".join(found) if found else f"{path}: no ungated re-ranking prompt")
        else:
            print("\n".join(lint_prompt_file(path)))
    return 1 if warned and args.strict else 0
