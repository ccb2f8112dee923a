"""A real transcript as the L0 `History` the engine runs: imported lines plus the facts graded.

Imported lines are read as sentence units (sim.history.foreign), each with a generic
shortening, so the simulated summarizer can shorten foreign text as well as keep or drop it.
Facts come two ways:

- planted: a `Placement` (a class template from sim.history.constraints, with its verbatim,
  compressed, abstracted and inverted renderings) appended to the user turn nearest the chosen
  depth or to the chosen turn;
- declared: a `Fact` the transcript already states (a system-prompt rule, a user instruction),
  given by its anchors (sim.runtime.floor_registry.declare_fact); the first sentence that carries
  it at its floor (else the first whole line, for a fact stated over two sentences) becomes that
  fact's unit, with a ladder derived from its anchors and class: compressed, abstracted and
  inverted renderings the grader reads as such. A declared fact no line carries is an error,
  not a silent 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sim.errors import UserError
from sim.grading.grade import grade_text
from sim.history.filler import SALIENCE
from sim.history.foreign import fact_ladder, generic_ladder, sentences
from sim.history.generate import Placement
from sim.history.transcripts import Transcript
from sim.tokens import MemoCounter
from sim.types import Fact, History, Turn, Unit, UnitKind

_KIND_OF_ROLE = {
    "system": UnitKind.PLAN,
    "developer": UnitKind.PLAN,
    "user": UnitKind.CHATTER,
    "assistant": UnitKind.PLAN,
    "tool": UnitKind.TOOL,
}


def _kind(role: str, line: str) -> UnitKind:
    if line.startswith(("call ", "result [")):
        return UnitKind.TOOL
    return _KIND_OF_ROLE.get(role, UnitKind.CHATTER)


def _unit(units: list[Unit], kind: UnitKind, line: str) -> int:
    units.append(Unit(len(units), kind, SALIENCE[kind], (line,)))
    return len(units) - 1


def _sentence_units(units: list[Unit], kind: UnitKind, line: str) -> list[int]:
    ids = []
    for sentence in sentences(line) or [line]:
        units.append(Unit(len(units), kind, SALIENCE[kind], generic_ladder(sentence)))
        ids.append(len(units) - 1)
    return ids


def _base(transcript: Transcript) -> tuple[list[Unit], list[list[int]], dict[str, list[int]]]:
    """Units and turns, and each raw line's sentence units (to rejoin a fact over two)."""
    units: list[Unit] = []
    turns: list[list[int]] = []
    of_line: dict[str, list[int]] = {}
    session: str | None = None
    many = len(transcript.sessions) > 1
    for i, t in enumerate(transcript.turns):
        ids = [_unit(units, UnitKind.HEADER, f"### turn {i + 1} · {t.role}")]
        if many and t.session != session:
            number = transcript.sessions.index(t.session) + 1
            ids.insert(0, _unit(units, UnitKind.HEADER, f"### session {number} · {t.session}"))
        session = t.session
        for ln in t.lines:
            parts = _sentence_units(units, _kind(t.role, ln), ln)
            of_line.setdefault(ln, parts)
            ids += parts
        turns.append(ids)
    return units, turns, of_line


def _rejoin(units: list[Unit], turns: list[list[int]], line: str, parts: list[int]) -> Unit:
    """A line's sentence units made one unit again (a fact stated over two sentences)."""
    first = parts[0]
    units[first] = replace(units[first], renderings=(line,))
    for ids in turns:
        if first in ids:
            ids[:] = [u for u in ids if u == first or u not in parts[1:]]
    return units[first]


def _target(
    transcript: Transcript,
    turns: list[list[int]],
    units: list[Unit],
    p: Placement,
    counter: MemoCounter,
) -> int:
    """0-based turn for a placement: the chosen turn, or the user turn nearest its depth."""
    if p.turn is not None:
        if not 1 <= p.turn <= len(turns):
            raise UserError(
                f"{transcript.source}: fact {p.planted.fact.fact_id!r}: turn={p.turn} is "
                f"outside 1..{len(turns)}"
            )
        return p.turn - 1
    sizes = [sum(counter.count_line(units[u].renderings[0]) for u in ids) for ids in turns]
    goal, pos, at = (p.depth or 0.0) * sum(sizes), 0, len(turns) - 1
    for i, size in enumerate(sizes):
        pos += size
        if pos >= goal:
            at = i
            break
    users = [i for i, t in enumerate(transcript.turns) if t.role == "user"]
    return min(users, key=lambda i: (abs(i - at), i)) if users else at


def transcript_history(
    transcript: Transcript,
    counter: MemoCounter,
    *,
    plant: Sequence[Placement] = (),
    declare: Sequence[Fact] = (),
) -> History:
    """L0 from a transcript, with planted and declared facts (turn and depth filled in)."""
    units, turns, of_line = _base(transcript)
    facts: dict[str, Fact] = {}
    for p in plant:
        fact = p.planted.fact
        if fact.fact_id in facts:
            raise UserError(f"{transcript.source}: fact id {fact.fact_id!r} is used twice")
        if fact.superseded:
            raise UserError(
                f"{transcript.source}: fact {fact.fact_id!r}: planting a superseded fact into "
                "a transcript is not supported"
            )
        at = _target(transcript, turns, units, p, counter)
        salience = SALIENCE[UnitKind.CONSTRAINT]
        renderings, inverted = p.planted.renderings, p.planted.inverted
        uid = len(units)
        units.append(Unit(uid, UnitKind.CONSTRAINT, salience, renderings, fact.fact_id, inverted))
        turns[at].append(uid)
        facts[fact.fact_id] = fact
    declared: set[str] = set()
    shared: dict[str, int] = {}  # a declared fact on a line another declared fact holds
    for fact in declare:
        if fact.fact_id in facts:
            raise UserError(f"{transcript.source}: fact id {fact.fact_id!r} is used twice")
        carriers = [
            u
            for u in units
            if u.kind is not UnitKind.HEADER
            and (u.fact_id is None or u.fact_id in declared)
            and grade_text(u.renderings[0] + "\n", [fact], counter)[0].grade.at_floor
        ]
        holder = next((u for u in carriers if u.fact_id is None), None)
        if not carriers:
            holder = _whole_line(units, turns, of_line, fact, counter)
        if holder is None and carriers:
            shared[fact.fact_id] = carriers[0].unit_id
        elif holder is None:
            raise UserError(
                f"{transcript.source}: fact {fact.fact_id!r}: no line of the transcript "
                f"carries it at its floor (anchors of {fact.text!r})"
            )
        else:
            ladder, flipped = fact_ladder(holder.renderings[0], fact, counter)
            units[holder.unit_id] = replace(
                holder,
                kind=UnitKind.CONSTRAINT,
                salience=SALIENCE[UnitKind.CONSTRAINT],
                renderings=ladder,
                fact_id=fact.fact_id,
                inverted=flipped,
            )
        declared.add(fact.fact_id)
        facts[fact.fact_id] = fact
    return _assemble(transcript, units, turns, facts, counter, shared)


def _whole_line(
    units: list[Unit],
    turns: list[list[int]],
    of_line: dict[str, list[int]],
    fact: Fact,
    counter: MemoCounter,
) -> Unit | None:
    """The first line whose sentences carry the fact only together, rejoined as one unit."""
    for line, parts in of_line.items():
        if len(parts) < 2 or any(units[u].fact_id is not None for u in parts):
            continue
        if grade_text(line + "\n", [fact], counter)[0].grade.at_floor:
            return _rejoin(units, turns, line, parts)
    return None


def _assemble(
    transcript: Transcript,
    units: list[Unit],
    turns: list[list[int]],
    facts: dict[str, Fact],
    counter: MemoCounter,
    shared: dict[str, int] | None = None,
) -> History:
    total = sum(counter.count_line(units[u].renderings[0]) for ids in turns for u in ids)
    placed: dict[str, Fact] = {}
    pos = 0
    for i, ids in enumerate(turns):
        for u in ids:
            own = units[u].fact_id
            here = [own] if own is not None else []
            here += [fid for fid, unit in (shared or {}).items() if unit == u]
            for fid in here:
                placed[fid] = replace(facts[fid], turn=i + 1, depth=round(pos / max(total, 1), 4))
            pos += counter.count_line(units[u].renderings[0])
    roles = [t.role for t in transcript.turns]
    history_turns = tuple(Turn(i + 1, roles[i], tuple(ids)) for i, ids in enumerate(turns))
    return History(history_turns, tuple(units), tuple(placed[f] for f in facts))
