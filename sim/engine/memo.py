"""Work that every strategy of a trial would repeat on the same history, done once.

All strategies of a trial run on one L0 history (sim.runs.trial), so its turn texts, the L0 text,
its token count, its first level's call groups and its grades are the same for each of them; so
is the grading of every L1 call group that two strategies both read (floor_gated and pinned
grade their input) and of keep_all's copies of L0. Grading is a pure function of (text, facts,
counter), so memoizing it cannot change a result; texts seen for the first time are graded line
by line with each line's evidence found once per trial (sim.grading.grade_lines).
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Sequence

from sim.engine.call_groups import calls
from sim.grading.grade import grade_text
from sim.grading.grade_lines import LineGrader
from sim.tokens import MemoCounter
from sim.types import Fact, FactGrade, History

Grades = tuple[FactGrade, ...]


class TrialMemo:
    """One history's shared work. Held for the trial in progress only (see `trial_memo`)."""

    __slots__ = (
        "_calls",
        "_grades",
        "_lines",
        "counter",
        "declared",
        "history",
        "l0_text",
        "l0_tokens",
        "pieces",
    )

    def __init__(self, history: History, counter: MemoCounter) -> None:
        self.history, self.counter = history, counter
        self.pieces = history.pieces
        self.l0_text = "".join(self.pieces)
        self.l0_tokens = counter.count(self.l0_text)
        self.declared = history.declared_facts
        self._lines = LineGrader(history.facts, counter)
        self._calls: dict[tuple[int, int], tuple[tuple[str, ...], tuple[int, ...]]] = {}
        # (text, ids of the facts) -> (the facts, their grades): holding the facts keeps
        # their ids from being reused by other objects while the memo lives
        self._grades: dict[tuple[str, tuple[int, ...]], tuple[tuple[Fact, ...], Grades]] = {}

    def first_calls(self, size: int, budget: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The first level's call groups over L0 and their budget shares
        (sim.engine.call_groups)."""
        known = self._calls.get((size, budget))
        if known is None:
            known = self._calls[(size, budget)] = calls(self.pieces, size, budget, self.counter)
        return known

    def grade(self, text: str, facts: Sequence[Fact]) -> Grades:
        """`grade_text`, memoized per text and fact list (facts by identity: hashing a Fact
        would hash all its anchors, on every call)."""
        key = (text, tuple(map(id, facts)))
        known = self._grades.get(key)
        if known is not None and all(map(operator.is_, known[0], facts)):
            return known[1]
        if self._lines.knows(facts):
            grades = self._lines.grade(text, facts)
        else:  # facts that are not this history's own: graded from scratch
            grades = grade_text(text, facts, self.counter)
        self._grades[key] = (tuple(facts), grades)
        return grades


class _Current(threading.local):
    """One slot per thread: the trial in progress there; an older one is released. Threads
    (sim.runs.threaded) run different trials at once, and must not swap each other's memo."""

    memo: TrialMemo | None = None


_CURRENT = _Current()


def trial_memo(history: History, counter: MemoCounter) -> TrialMemo:
    memo = _CURRENT.memo
    if memo is not None and memo.history is history and memo.counter is counter:
        return memo
    memo = _CURRENT.memo = TrialMemo(history, counter)
    return memo
