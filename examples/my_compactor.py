"""A compactor of one's own, as a runtime might write it, to try in one command:

    compsim run scenarios/credential_rotation.toml --compactor examples/my_compactor.py:keep_rules

or in one line of Python: `sim.test_compactor("examples/my_compactor.py:keep_rules")`.

`keep_rules(text, budget_tokens)` is extractive and budget-aware: it keeps the lines that read
like rules (a "do not", "never", "must", "only" or "no") first, then the newest other lines,
while they fit its own rough token estimate (the larger of words x 2 and characters / 3:
words alone undercount tool output such as JSON, hashes and paths), and returns the kept
lines in their original order. It never abstracts a rule: what it loses, it loses by leaving
the line out.
"""

from __future__ import annotations

RULE_WORDS = (" do not ", " don't ", " never ", " must ", " only ", " no ")
TOKENS_PER_WORD = 2.0
CHARS_PER_TOKEN = 3.0


def _cost(line: str) -> float:
    return max(len(line.split()) * TOKENS_PER_WORD, len(line) / CHARS_PER_TOKEN) + 1


def _is_rule(line: str) -> bool:
    low = f" {line.lower()} "
    return any(w in low for w in RULE_WORDS)


def keep_rules(text: str, budget_tokens: int) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    order = sorted(
        range(len(lines)), key=lambda i: (not _is_rule(lines[i]), -i)
    )  # rules first, then the newest
    kept: set[int] = set()
    used = 0.0
    for i in order:
        cost = _cost(lines[i])
        if used + cost <= budget_tokens:
            kept.add(i)
            used += cost
    return "".join(lines[i] + "\n" for i in sorted(kept))
