"""Immutable values that flow through one trial.

Frozen, slotted dataclasses inside the simulation (cheap, hashable, safe to share across
strategies); pydantic appears only where files cross the boundary (scenario.py, results).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Literal


class Grade(IntEnum):
    """How much of a fact a level's text still carries; higher is better.

    `inverted` is the worst outcome: a downstream agent would act against the constraint.
    """

    INVERTED = 0
    DROPPED = 1
    DEGRADED = 2
    ACTIONABLE = 3
    VERBATIM = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def at_floor(self) -> bool:
        """True when the representation is still usable: the recall floor is met."""
        return self >= Grade.ACTIONABLE


AT_FLOOR_LABELS = frozenset(g.label for g in Grade if g.at_floor)
"""The grade labels a row writes for a fact at or above its floor (`verbatim`, `actionable`)."""


class Polarity(StrEnum):
    """Whether a constraint restricts an action (`forbid`) or demands it (`require`)."""

    FORBID = "forbid"
    REQUIRE = "require"


class UnitKind(StrEnum):
    """What a line of history is, known only to the generator and the simulated summarizer."""

    HEADER = "header"
    TOOL = "tool"
    CHATTER = "chatter"
    PLAN = "plan"
    SUBGOAL = "subgoal"
    CONSTRAINT = "constraint"
    DISTRACTOR = "distractor"
    REVOCATION = "revocation"
    INJECTION = "injection"
    """A line that tries to talk the summarizer out of the rules (sim.history.adversarial)."""

    @property
    def constraint_like(self) -> bool:
        """Units that read like rules; a summarizer cannot tell planted from distractor."""
        return self in _CONSTRAINT_LIKE


_CONSTRAINT_LIKE = frozenset({UnitKind.CONSTRAINT, UnitKind.DISTRACTOR, UnitKind.REVOCATION})


@dataclass(frozen=True, slots=True)
class AnchorGroup:
    """One slot a surviving sentence must fill, with every surface form accepted for it.

    `opposites` are forms that flip the meaning ("after deploying" for "before deploying"):
    a sentence that uses one is graded `inverted`, not `actionable`.
    """

    role: str
    forms: tuple[str, ...]
    opposites: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RecallFloor:
    """The minimum survivable representation of a fact: groups that must share a sentence
    (with the fact's polarity), and the fewest tokens that sentence may have."""

    required: tuple[str, ...]
    min_span_tokens: int = 3


@dataclass(frozen=True, slots=True)
class Fact:
    """A planted constraint: ground truth for the grader, never shown to strategies unless
    `declared` (then it is part of the runtime's floor registry)."""

    fact_id: str
    cls: str
    text: str
    anchors: tuple[AnchorGroup, ...]
    polarity: Polarity
    floor: RecallFloor
    turn: int = 0
    depth: float = 0.0
    declared: bool = True
    superseded: bool = False

    @property
    def topic(self) -> AnchorGroup:
        """The group that says what the fact is about; without it nothing of the fact remains."""
        return self.group("object")

    def group(self, role: str) -> AnchorGroup:
        for g in self.anchors:
            if g.role == role:
                return g
        raise KeyError(f"fact {self.fact_id}: no anchor group {role!r}")

    @property
    def floored(self) -> bool:
        """Every live fact has a floor (the note: absent a declared floor, treat it as at-floor);
        a superseded fact may vanish without loss."""
        return not self.superseded


@dataclass(frozen=True, slots=True)
class Unit:
    """One line of history with its rendering ladder (rung 0 = as written).

    For facts the rungs are verbatim, compressed (all anchors), abstracted (anchors lost);
    for filler, full and short. `inverted` is the rare polarity-flipped rendering.
    """

    unit_id: int
    kind: UnitKind
    salience: float
    renderings: tuple[str, ...]
    fact_id: str | None = None
    inverted: str | None = None

    @property
    def gist_rung(self) -> int:
        return len(self.renderings) - 1


@dataclass(frozen=True, slots=True)
class Turn:
    index: int  # 1-based, as shown in the transcript
    role: str
    unit_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class History:
    """L0: the raw turns, the units they are made of, and the planted facts."""

    turns: tuple[Turn, ...]
    units: tuple[Unit, ...]
    facts: tuple[Fact, ...]

    def turn_text(self, turn: Turn) -> str:
        return "".join(self.units[u].renderings[0] + "\n" for u in turn.unit_ids)

    @property
    def pieces(self) -> list[str]:
        return [self.turn_text(t) for t in self.turns]

    @property
    def text(self) -> str:
        return "".join(self.pieces)

    @property
    def declared_facts(self) -> tuple[Fact, ...]:
        return tuple(f for f in self.facts if f.declared and f.floored)


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """One rung of the ladder. `budget_tokens` is the whole level's budget, shared between
    its calls in proportion to their input; `group_size` lower pieces make one call (0 = all)."""

    name: str
    budget_tokens: int
    group_size: int = 0
    instruction: str | None = None


@dataclass(frozen=True, slots=True)
class Ladder:
    levels: tuple[LevelSpec, ...]


@dataclass(frozen=True, slots=True)
class FactGrade:
    """A fact's grade at one level, with the evidence: best sentence and what it misses."""

    fact_id: str
    grade: Grade
    span_tokens: int = 0
    missing: tuple[str, ...] = ()
    sentence: str = ""


Grader = Callable[[str, Sequence["Fact"]], tuple[FactGrade, ...]]
"""Text-only grading of a fact list against one text (sim.grading.grade, memoized per trial)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A floor check that failed after a call: loud and attributed to its level."""

    level: str
    fact_id: str
    reason: str
    grade: Grade
    attempt: int = 0
    recovered: bool = False


@dataclass(frozen=True, slots=True)
class PieceResult:
    """What a strategy returns for one call group at one level."""

    text: str
    declared_input_tokens: int
    consumed_input_tokens: int
    unread_text: str = ""
    calls: int = 0
    floor_retries: int = 0
    budget_retries: int = 0
    pin_tokens: int = 0
    violations: tuple[Violation, ...] = ()
    flagged: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LevelRecord:
    """Everything measured at one level: the two counters and every check."""

    name: str
    budget_tokens: int
    tokens_in: int
    tokens_read: int
    tokens_unread: int
    tokens_out: int
    calls: int
    floor_retries: int
    budget_retries: int
    pin_tokens: int
    closure_ok: bool
    budget_ok: bool
    floored_present: int
    floored_retained: int
    monotonicity_breaks: tuple[str, ...]
    grades: tuple[FactGrade, ...]
    never_read: tuple[str, ...] = ()
    flagged: tuple[str, ...] = ()
    text: str = ""

    @property
    def floor_ok(self) -> bool:
        return self.floored_retained == self.floored_present

    @property
    def passed(self) -> bool:
        """The note's two counters: tokens emitted vs budget and floored facts retained."""
        return self.budget_ok and self.floor_ok


@dataclass(frozen=True, slots=True)
class FactOutcome:
    """A fact's fate at the end of the ladder."""

    fact_id: str
    cls: str
    declared: bool
    superseded: bool
    depth: float
    leaf_grade: Grade
    lost: bool
    loud: bool
    blame_level: str | None
    exposure: str  # "kept" | "never_read" | "dropped_when_read" | "kept_then_lost" | "superseded"


@dataclass(frozen=True, slots=True)
class ProbeAnswer:
    """The behavioural probe's answer for one fact at the leaf (sim.prompts.probe): the option the
    model chose, and whether acting on it would break the rule (None: no option named)."""

    fact_id: str
    answer: str
    violates: bool | None


@dataclass(frozen=True, slots=True)
class TrialRecord:
    trial_id: str
    strategy: str
    seed: int
    levels: tuple[LevelRecord, ...]
    outcomes: tuple[FactOutcome, ...]
    violations: tuple[Violation, ...] = ()
    aborted_at: str | None = None
    failure: str | None = None
    error: str | None = None
    l0_tokens: int = 0
    l0_text: str = field(default="", repr=False)
    facts: tuple[Fact, ...] = field(default=(), repr=False)
    l0_grades: tuple[FactGrade, ...] = field(default=(), repr=False)
    probes: tuple[ProbeAnswer, ...] = ()
    transient_retries: int = 0
    """Summarizer calls retried after a transient failure (apart from floor/budget retries)."""
    faults: tuple[tuple[str, int], ...] = ()
    """Faults injected by sim.summarizers.faulty, per kind (only when a scenario asks)."""

    @property
    def collapsed(self) -> bool:
        """The leaf holds a live fact below its floor."""
        return trial_outcome(self.outcomes, self.aborted_at) in ("silent", "loud")

    @property
    def silent(self) -> bool:
        return trial_outcome(self.outcomes, self.aborted_at) == "silent"

    @property
    def loud(self) -> bool:
        return trial_outcome(self.outcomes, self.aborted_at) == "loud"

    @property
    def stopped(self) -> bool:
        return trial_outcome(self.outcomes, self.aborted_at) == "stopped"

    @property
    def blame_level(self) -> str | None:
        """The level that first let a lost fact fall below its floor (locality of blame)."""
        blamed = [o.blame_level for o in self.outcomes if o.lost and o.blame_level]
        if self.aborted_at:
            blamed.append(self.aborted_at)
        return min(blamed, key=level_order) if blamed else None


Outcome = Literal["kept", "stopped", "silent", "loud"]
"""A trial's one outcome; collapsed = silent + loud, and no trial has two."""


def trial_outcome(outcomes: Iterable[FactOutcome], aborted_at: str | None) -> Outcome:
    """The one place a trial is classified (rows, summaries, tables and the gate read it):

    - `silent`: the leaf lost a live fact whose loss no level raised or flagged (a loss the
      runtime never heard of, even if it raised about another fact or stopped later);
    - `loud`: the leaf lost live facts and every one of those losses was raised
      (`RecallFloorViolation`) or flagged by a level;
    - `stopped`: nothing lost, but a level raised and the ladder stopped there (pins that
      cannot fit, text that would not fit its budget): no compaction, not a collapse;
    - `kept`: nothing lost, the ladder ran to the leaf.
    """
    lost = [o.loud for o in outcomes if o.lost]
    if lost:
        return "loud" if all(lost) else "silent"
    return "kept" if aborted_at is None else "stopped"


def level_order(name: str) -> tuple[int, str]:
    """L2 before L10: level names sorted by their number."""
    digits = "".join(c for c in name if c.isdigit())
    return (int(digits) if digits else 1 << 30, name)
