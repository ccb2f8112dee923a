"""Near-synonyms of the verbs rules are made of, for anchors that list only their own verb.

A user declares "Do not start the promo until Ana confirms" with action ["start"]; a
summarizer writes "don't kick off the promo before Ana's OK". The generator's planted facts list
such words in their anchors (sim.history.constraint_pools); a user's rarely do, so the grader
adds them. Each group holds verbs that name the same act on any object an agent handles, so a
rule said with one is the rule said with another: nothing here widens a rule (no "run" for
"start", which runs a query as well as starts a job; no "drop", which is also "lower"; no
"release", which also frees a lock). Phrasal verbs are listed whole; their particles may
stand apart in the text (sim.grading.frames reads "kick the promo off").
"""

from __future__ import annotations

from functools import lru_cache

GROUPS: tuple[tuple[str, ...], ...] = (
    ("delete", "remove", "erase", "purge", "wipe", "get rid of"),
    (
        "start",
        "launch",
        "kick off",
        "begin",
        "trigger",
        "switch on",
        "turn on",
        "flip on",
        "fire up",
        "spin up",
    ),
    ("stop", "halt", "shut down", "switch off", "turn off"),
    ("send", "dispatch", "send out", "mail out", "email", "email out", "distribute", "send over"),
    ("publish", "post", "put up", "advertise", "push live"),
    ("restart", "reboot", "bounce", "recycle", "power-cycle", "power cycle"),
    ("rerun", "re-run", "redo", "run again", "repeat"),
    ("regenerate", "recompute", "rebuild", "recreate", "redo"),
    ("merge", "combine", "consolidate", "unify"),
    ("back up", "snapshot", "take a backup of"),
    ("export", "dump", "extract"),
    ("modify", "change", "alter", "edit", "tweak", "amend", "revise"),
    ("increase", "raise", "bump", "bump up", "up"),
    ("decrease", "lower", "reduce", "turn down"),
    ("cancel", "call off", "terminate"),
    ("deploy", "roll out", "ship"),
    ("disable", "deactivate", "switch off", "turn off"),
    ("enable", "activate", "switch on", "turn on"),
    ("notify", "alert", "inform", "tell", "ping"),
    ("approve", "sign off", "greenlight", "green-light", "okay"),
    ("reprocess", "rerun", "re-run", "redo"),
    ("repost", "re-post", "rebook", "re-book"),
    ("overwrite", "clobber"),
    ("refund", "reimburse"),
    ("archive", "shelve"),
    ("deny", "decline", "reject", "turn down", "refuse"),
    ("schedule", "book", "pencil in"),
    ("discard", "dispose of", "throw away", "throw out", "destroy"),
    ("file", "e-file", "lodge"),
    ("print", "print out"),
    ("validate", "verify"),
    ("climb", "ascend"),
)
"""Near-synonym groups, each read in both directions."""


@lru_cache(maxsize=1_024)
def near_synonyms(verb: str) -> tuple[str, ...]:
    """The other verbs of every group `verb` (a plain form, lowercase) belongs to."""
    verb = verb.strip().lower()
    found: dict[str, None] = {}
    for group in GROUPS:
        if verb in group:
            found.update(dict.fromkeys(w for w in group if w != verb))
    return tuple(found)
