"""A line that reports or describes the rule's object states no rule: dropped, not degraded.
Summaries are full of status lines ("last backup 02:00", "roughly 4,000 rows"); read as a
weakened rule, each one would hide that the rule itself is gone."""

from __future__ import annotations

import pytest

from sim.grading.grade import grade_text
from sim.tokens import get_counter
from sim.types import Fact, Grade
from tests.sim.grading.declared_rules import MAILBOX, PAYROLL


def grade_one(text: str, fact: Fact) -> Grade:
    return grade_text(text, [fact], get_counter())[0].grade


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (PAYROLL, "Payroll batch: last reprocess 14:20, 312 rows."),
        (PAYROLL, "Average reprocess time for the payroll batch is 4 minutes."),
        (PAYROLL, "Payroll batch stats: reprocess count 3 this month."),
        (MAILBOX, "Support mailbox: latest archive 02:00 UTC, 1,204 threads."),
        (MAILBOX, "The support mailbox archive log shows 12 runs since Monday."),
        # a hedge on a number describes it; it cautions about nothing
        (PAYROLL, "The payroll batch holds roughly 4,000 rows."),
        (MAILBOX, "The support mailbox gets approximately 300 emails a day."),
    ],
)  # fmt: skip
def test_a_report_about_the_object_is_no_rule(fact: Fact, text: str) -> None:
    assert grade_one(text, fact) is Grade.DROPPED


@pytest.mark.parametrize(
    ("fact", "text", "grade"),
    [
        # the act asked for, not counted: the rule weakened, not gone
        (PAYROLL, "Maybe hold off on reprocessing the payroll batch late in the run.",
         Grade.DEGRADED),
        (PAYROLL, "Payroll batch: be careful, perhaps.", Grade.DEGRADED),
        (MAILBOX, "Support mailbox: next archive only once Ines confirms, 1,204 threads.",
         Grade.ACTIONABLE),
        (PAYROLL, "Payroll batch: last reprocess 14:20. Do not reprocess it after step 3.",
         Grade.ACTIONABLE),
    ],
)  # fmt: skip
def test_a_rule_beside_a_report_still_counts(fact: Fact, text: str, grade: Grade) -> None:
    assert grade_one(text, fact) is grade
