"""Rules declared the way a user declares them, for the grading tests that need one fresh rule
(none of them is in the generator's pools or the labelled corpus)."""

from __future__ import annotations

from sim.runtime.floor_registry import declare_fact

PAYROLL = declare_fact(
    "Do not reprocess the payroll batch after step 3.",
    {"action": ["reprocess"], "object": ["payroll batch"], "condition": ["after step 3"]},
    fact_id="payroll",
)


MAILBOX = declare_fact(
    "Do not archive the support mailbox until Ines confirms.",
    {
        "action": ["archive"],
        "object": ["support mailbox"],
        "condition": ["until Ines confirms", "Ines confirms"],
    },
    fact_id="mailbox",
    cls="confirmation",
)
PROOFS = declare_fact(
    "Do not send the print proofs to the client until Oksana confirms.",
    {
        "action": ["send"],
        "object": ["print proofs"],
        "condition": ["until Oksana confirms", "Oksana confirms"],
    },
    fact_id="proofs",
    cls="confirmation",
)
TILES = declare_fact(
    "The render farm must use a tile size of 64 pixels.",
    {"setting": ["tile size"], "object": ["render farm"], "value": ["64 pixels"]},
    fact_id="tiles",
    cls="value_pin",
)
FLUSH = declare_fact(
    "Do not flush the edge cache after step 2.",
    {"action": ["flush"], "object": ["edge cache"], "condition": ["after step 2"]},
    fact_id="flush",
)
GATEWAY = declare_fact(
    "The payments gateway must use timeout 20 seconds.",
    {"setting": ["timeout"], "object": ["payments gateway"], "value": ["20 seconds"]},
    fact_id="gateway",
    cls="value_pin",
)
DRAIN = declare_fact(
    "Drain the print queue before patching the print server.",
    {
        "action": ["drain"],
        "object": ["print queue"],
        "condition": ["before patching the print server"],
    },
    fact_id="drain",
    cls="ordering",
)
