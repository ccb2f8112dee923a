"""Quantities a pinned value may be written in, so a pin is matched by amount, not spelling.

A duration is the same pin in any unit it converts to whole ("90 days" = "2160h" = "129600
minutes"), and a duration in a unit that converts to another amount is another value ("12
weeks" is not 90 days). A count keeps its unit on either side of the number ("3 replicas" =
"replicas=3" = "replica count pinned at 3"). Everything is in the grader's lemma space
(sim.grading.text.lemmas), where "90d" already reads "90 day".
"""

from __future__ import annotations

import re

SECONDS = {"second": 1, "minute": 60, "hour": 3_600, "day": 86_400, "week": 604_800}
"""Units whose conversions are exact. Months and years vary in length: a pin in days is also
read in 30-day months and 365-day years, and a pin written in months or years as written only."""

_DURATION = re.compile(r"^(\d+) (second|minute|hour|day|week|month|year)$")
_COUNT = re.compile(r"^(\d+(?:\.\d+)?) ([a-z][a-z-]+)$")  # "3 replicas", "0.15 ppm"

_GLUED = 4  # a unit's letters written against its number: "mbar", "rpm", "khz", "psi"

_SHORT = r"s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?"
_LONG = r"h|hrs?|hours?|d|days?|w|wks?|weeks?|months?|mo|y|yrs?|years?"
_MIDDLE = r"m|mins?|minutes?|h|hrs?|hours?|d|days?"  # a pin in hours: a TTL cut to 10 minutes


def other_duration(value: str) -> re.Pattern[str]:
    """Any duration of the pin's scale in raw text ("12 weeks", "2160h" for a pin in days;
    "90s" for one in minutes; "10 minutes" or "2 days" for one in hours): another value unless
    it converts to the pinned amount. A run that "took 14 min" is no retention period."""
    m = _DURATION.match(value)
    scale = m.group(2) if m is not None else ""
    units = _SHORT if scale in ("second", "minute") else _MIDDLE if scale == "hour" else _LONG
    return re.compile(rf"(?<![\w.])\d+[ -]?(?:{units})(?![\w-])")  # "60-minute slots" too


def equivalents(value: str) -> tuple[str, ...]:
    """`value` (lemma space, stripped) in every unit it converts to whole, as padded forms."""
    m = _DURATION.match(value)
    if m is None or m.group(2) not in SECONDS:
        unit = _COUNT.match(value)
        if unit is not None and len(unit.group(2)) <= _GLUED:
            return (f" {unit.group(1)}{unit.group(2)} ",)  # "150mbar" for "150 mbar"
        return ()
    total = int(m.group(1)) * SECONDS[m.group(2)]
    exact = tuple(
        f" {total // size} {unit} "
        for unit, size in SECONDS.items()
        if unit != m.group(2) and total % size == 0
    )
    days, rest = divmod(total, SECONDS["day"])
    calendar = tuple(  # "3 months" for 90 days, "1 year" for 365: how people round them
        f" {days // length} {unit} "
        for unit, length in (("month", 30), ("year", 365))
        if not rest and days and days % length == 0
    )
    return exact + calendar


def is_duration(value: str) -> bool:
    return _DURATION.match(value) is not None


_STEPS = "(?:step|stage|phase|round|pass|version|v)"


def count_patterns(value: str) -> tuple[re.Pattern[str], ...]:
    """A count's unit before its number, up to four words apart ("replicas 3", "replica
    count is pin at 3"), in lemma space; none of them a step ("replicas restart at step 3"
    is no count), and the unit not another number's ("42 Hz on this job, not 50").
    Durations have their own forms (`equivalents`)."""
    m = _COUNT.match(value)
    if m is None or is_duration(value):
        return ()
    number, unit = m.groups()
    return (
        re.compile(
            rf"(?<![\d.]) {re.escape(unit)}(?: (?!{_STEPS}\b)\S+){{0,4}} "
            rf"{re.escape(number)}(?![\d.])"
        ),
    )
