"""Rules declared the way a user declares them, for the grading tests that need one fresh rule
(none of them is in the generator's pools or the labelled corpus)."""

from __future__ import annotations

from sim.runtime.floor_registry import declare_fact

PAYROLL = declare_fact(
    "Do not reprocess the payroll batch after step 3.",
    {"action": ["reprocess"], "object": ["payroll batch"], "condition": ["after step 3"]},
    fact_id="payroll",
)
