"""Where a sentence names a fact's object by less than its noun phrase, and what that says.

`sim.grading.frames.has_object` finds the object in full, by its head, or by its modifiers
beside the rule's action. Two more ways a summary names it: a label made only of the object's
own words ("main: force-push deferred"), after which the line is said of the object; and a
caution that names it by a modifier ("be careful with anything payroll related"), the rule's
gist, which is `degraded`, never kept.
"""

from __future__ import annotations

import re

from sim.grading import lexicon as lx
from sim.grading.frames import Frame
from sim.grading.frames import function_word as _function_word
from sim.grading.text import lemmas, normalize


def gist(frame: Frame, text: str) -> bool:
    """Whether a clause that names only part of the object ("anything payroll related")
    gestures at the rule: a caution or a tip with one of the object's modifiers that no other
    object's noun follows ("the build cache" is another object's)."""
    if not (lx.GESTURE_RE.search(text) or lx.HEDGE_RE.search(text)):
        return False
    for mods in frame.modifiers:
        at = text.find(mods)
        if len(mods.strip()) <= 4 or at < 0:
            continue
        after = text[at + len(mods) :].split(" ", 1)[0]
        # "payroll related", "the accruals", not "the build cache": a noun after the
        # modifier makes it another object's
        if not after or _function_word(after) or after in _GIST_TAILS:
            return True
    return False


_GIST_TAILS = frozenset(
    ("relate", "related", "stuff", "thing", "side", "work", "part", "matter", "one", "somewhere")
)


_LABEL = re.compile(r"^\s*(?:[-*+•]\s+)?([^:\n]{1,40}?):\s+\S")


def label_names_object(frame: Frame, raw: str) -> bool:
    """Whether the sentence opens with a label that names the fact's object by some of its own
    words and nothing else ("main: force-push deferred", "Canary: hold the promotion"): what
    follows the colon is said of the object. A label with a word of its own ("staging table:")
    names another object."""
    found = _LABEL.match(raw)
    if found is None:
        return False
    words = [w for w in lemmas(normalize(found.group(1))).split() if not _function_word(w)]
    if not words or len(words) > 4:
        return False
    frame_words = {w for f in (*frame.objects, *frame.modifiers) for w in f.split()}
    action_words = {w for a in frame.actions for w in a.split()}
    named = [w for w in words if w in frame_words]
    mods = {w for f in frame.modifiers for w in f.split()} | {
        w for f in frame.objects if " " not in f.strip() for w in f.split()
    }
    return (
        all(w in frame_words or w in action_words for w in words)
        and bool(named)
        and (any(w in mods for w in named) or len(named) > 1)
    )
