"""What a summarizer did at each level of a run, read from its trial rows alone: the shares a
calibration matches (sim.runs.calibration) and `compsim calibrate` prints.

Per level: of the live facts that entered the level at their floor, how many came out kept,
degraded (abstracted), dropped or inverted; how many calls came back over budget; how full the
output was. The same code reads a recorded real run and a simulated one, so the two are
compared on equal terms.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sim.types import AT_FLOOR_LABELS as AT_FLOOR
from strategies.base import OVERFLOW_FAILURE

OUTCOMES = ("kept", "degraded", "dropped", "inverted")


def outcome(grade: str) -> str:
    return "kept" if grade in AT_FLOOR else grade


@dataclass(slots=True)
class LevelMoments:
    """One level's counts, summed over trials."""

    entered: int = 0  # level attempts (the trial reached this level)
    aborted: int = 0  # attempts that failed loudly at this level
    calls: int = 0
    over: int = 0  # calls whose output came back over budget (re-asked, or refused)
    fill_sum: float = 0.0  # output tokens / budget, summed over completed attempts
    carried: Counter[str] = field(default_factory=Counter)  # of facts entering at floor
    by_class: dict[str, Counter[str]] = field(default_factory=dict)

    @property
    def facts(self) -> int:
        return sum(self.carried.values())

    def share(self, what: str) -> float:
        """Share of the facts that entered at their floor with outcome `what` here."""
        return self.carried[what] / self.facts if self.facts else 0.0

    @property
    def overflow(self) -> float:
        return self.over / self.calls if self.calls else 0.0

    @property
    def fill(self) -> float:
        done = self.entered - self.aborted
        return self.fill_sum / done if done else 0.0

    @property
    def inverted_of_lost(self) -> float:
        """Of the facts abstracted or inverted here, the inverted share."""
        changed = self.carried["degraded"] + self.carried["inverted"]
        return self.carried["inverted"] / changed if changed else 0.0


@dataclass(slots=True)
class Moments:
    levels: dict[str, LevelMoments] = field(default_factory=dict)
    trials: int = 0
    collapsed: int = 0

    @property
    def collapse(self) -> float:
        return self.collapsed / self.trials if self.trials else 0.0

    def level(self, name: str) -> LevelMoments:
        return self.levels.setdefault(name, LevelMoments())


def _live(fact: dict[str, Any]) -> bool:
    return not fact.get("superseded", False)


def add_row(m: Moments, row: dict[str, Any], ladder: tuple[str, ...]) -> None:
    """One trial row's contribution; `ladder` is the run's level names, in order."""
    m.trials += 1
    m.collapsed += bool(row.get("collapsed"))
    done = row.get("levels") or []
    for i, lv in enumerate(done):
        lm = m.level(lv["name"])
        lm.entered += 1
        lm.calls += int(lv.get("calls", 0))
        lm.over += int(lv.get("budget_retries", 0))
        budget = max(int(lv.get("budget_tokens", 0)), 1)
        lm.fill_sum += int(lv.get("tokens_out", 0)) / budget
        for fact in row.get("facts", ()):
            grades = fact.get("grades") or []
            if not _live(fact) or i >= len(grades):
                continue
            before = fact.get("l0_grade") if i == 0 else grades[i - 1]
            if before not in AT_FLOOR:
                continue
            got = outcome(grades[i])
            lm.carried[got] += 1
            lm.by_class.setdefault(str(fact.get("cls")), Counter())[got] += 1
    stopped = row.get("aborted_at")
    if stopped and stopped in ladder:
        lm = m.level(stopped)
        lm.entered += 1
        lm.aborted += 1
        found = OVERFLOW_FAILURE.search(str(row.get("failure") or ""))
        if found:  # every call of a level refused on overflow came back over budget
            n = int(found.group(1)) + 1
            lm.calls += n
            lm.over += n


def read_moments(rows: Iterable[dict[str, Any]], ladder: tuple[str, ...]) -> Moments:
    m = Moments({name: LevelMoments() for name in ladder})
    for row in rows:
        add_row(m, row, ladder)
    return m
