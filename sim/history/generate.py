"""The seeded L0 history generator: realistic agent-session turns at a target token length,
with K constraints planted at controlled depths, near-miss distractors and superseded rules.

Nothing in the text marks what was planted: a constraint is one more line of a user turn,
written like everything else, so a compactor cannot find it by its label.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sim.errors import ScenarioError
from sim.history.constraints import CLASSES, PlantedText, build_fact, near_miss, variant_object
from sim.history.draws import Draws, drawing
from sim.history.filler import SALIENCE, filler_line
from sim.history.filler_forms import REQUEST_FORMS, RULE_LEADS, SLOTS
from sim.tokens import MemoCounter
from sim.types import Fact, History, Turn, Unit, UnitKind

ROLES = ("user", "assistant", "tool")
STATED_ALONE = 0.4
"""Share of random rules written as a line of their own; the rest are stated inside a user
request ("Please add retry to the gateway client, and never ...") or after a short lead."""


@dataclass(frozen=True, slots=True)
class Placement:
    """A fact chosen by the scenario: where it goes (1-based turn, or depth 0..1)."""

    planted: PlantedText
    turn: int | None = None
    depth: float | None = None


@dataclass(frozen=True, slots=True)
class HistorySpec:
    """What to generate. Validation with file/field names happens in sim.runs.scenario."""

    target_tokens: int = 7800
    classes: tuple[str, ...] = tuple(CLASSES)
    constraints: int = 4
    depths: tuple[float, ...] = ()
    declared_fraction: float = 1.0
    near_misses: int = 2
    superseded: int = 0
    placements: tuple[Placement, ...] = ()


class _Builder:
    def __init__(self, counter: MemoCounter) -> None:
        self.counter = counter
        self.units: list[Unit] = []
        self.turns: list[list[int]] = []
        self.roles: list[str] = []
        # tokens per unit and per turn, kept as units are placed: finding the turn at a depth
        # then walks the turns, not every unit of the history for every planted fact
        self._tokens: list[int] = []
        self.turn_tokens: list[int] = []
        self._total = 0

    def unit(
        self,
        kind: UnitKind,
        renderings: tuple[str, ...],
        salience: float,
        fact_id: str | None = None,
        inverted: str | None = None,
    ) -> int:
        uid = len(self.units)
        self.units.append(Unit(uid, kind, salience, renderings, fact_id, inverted))
        self._tokens.append(self.counter.count_line(renderings[0]))
        return uid

    def tokens(self, uid: int) -> int:
        return self._tokens[uid]

    def total(self) -> int:
        return self._total

    def place(self, turn: int, uid: int, at: int | None = None) -> None:
        """Put a unit into a turn; the running total keeps length fitting linear."""
        ids = self.turns[turn]
        ids.append(uid) if at is None else ids.insert(at, uid)
        self.turn_tokens[turn] += self._tokens[uid]
        self._total += self._tokens[uid]

    def remove(self, turn: int, uid: int) -> None:
        self.turns[turn].remove(uid)
        self.turn_tokens[turn] -= self._tokens[uid]
        self._total -= self._tokens[uid]

    def filler_turn(self, draws: Draws) -> None:
        role = ROLES[len(self.turns) % len(ROLES)]
        ids = [
            self.unit(
                UnitKind.HEADER,
                (f"### turn {len(self.turns) + 1} · {role}",),
                SALIENCE[UnitKind.HEADER],
            )
        ]
        if role == "user":
            kinds = [UnitKind.SUBGOAL if draws.random() < 0.4 else UnitKind.CHATTER]
            if draws.random() < 0.4:
                kinds.append(UnitKind.CHATTER)
        elif role == "assistant":
            kinds = [UnitKind.PLAN] * draws.integers(1, 3)
            if draws.random() < 0.25:
                kinds.append(UnitKind.SUBGOAL)
        else:
            kinds = [UnitKind.TOOL] * draws.integers(2, 5)
        for kind in kinds:
            full, short = filler_line(kind, draws)
            jitter = draws.uniform(-0.05, 0.05)
            ids.append(self.unit(kind, (full, short), SALIENCE[kind] + jitter))
        self.turns.append(ids)
        self.roles.append(role)
        tokens = sum(map(self._tokens.__getitem__, ids))
        self.turn_tokens.append(tokens)
        self._total += tokens


def _choose_facts(spec: HistorySpec, rng: np.random.Generator) -> list[Placement]:
    """Random facts never share an object with each other or with the scenario's own facts
    (two rules about one object would make the grader's evidence ambiguous)."""
    placements = list(spec.placements)
    taken = {p.planted.fact.topic.forms[0].lower() for p in placements}
    order = {c: [int(i) for i in rng.permutation(CLASSES[c][1])] for c in CLASSES}
    for i in range(spec.constraints):
        cls = spec.classes[i % len(spec.classes)]
        pool = [v for v in order[cls] if variant_object(cls, v).lower() not in taken]
        if not pool:
            raise ScenarioError(
                f"constraints.count={spec.constraints}: class {cls!r} has no distinct object "
                f"left (it has {CLASSES[cls][1]}); lower the count or add classes"
            )
        variant = pool[0]
        taken.add(variant_object(cls, variant).lower())
        fid = f"f{len(placements) + 1}"
        depth = spec.depths[i % len(spec.depths)] if spec.depths else float(rng.uniform(0, 1))
        placements.append(Placement(build_fact(cls, variant, rng, fid), depth=depth))
    return placements


def _stated(planted: PlantedText, rng: np.random.Generator) -> PlantedText:
    """A random rule as a user states it: alone, inside a request, or after a short lead (the
    whole line is its verbatim text; the shorter renderings are the rule's own)."""
    u = float(rng.random())
    k = int(rng.integers(len(REQUEST_FORMS) + len(RULE_LEADS)))
    if u < STATED_ALONE:
        return planted
    rule = planted.fact.text
    rule = rule[:1].lower() + rule[1:]
    if k < len(REQUEST_FORMS):
        joint = ", and " if u < 0.75 else ", but "
        slots = {name: values[int(rng.integers(len(values)))] for name, values in SLOTS.items()}
        slots.update({name: str(int(rng.integers(1, 10))) for name in ("n", "n2", "n3")})
        text = REQUEST_FORMS[k].format(**slots) + joint + rule
    else:
        text = f"{RULE_LEADS[k - len(REQUEST_FORMS)]} {rule}"
    fact = replace(planted.fact, text=text)
    return replace(planted, fact=fact, renderings=(text, *planted.renderings[1:]))


def _turn_at_depth(b: _Builder, depth: float) -> int:
    """0-based index of the turn holding the token position `depth` of the history."""
    target, pos = depth * b.total(), 0
    for i, tokens in enumerate(b.turn_tokens):
        pos += tokens
        if pos >= target:
            return i
    return len(b.turns) - 1


def generate_history(spec: HistorySpec, rng: np.random.Generator, counter: MemoCounter) -> History:
    """Build L0; the same spec and generator state always give the same history."""
    b = _Builder(counter)
    placements = _choose_facts(spec, rng)
    planted_tokens = sum(counter.count_line(p.planted.fact.text) for p in placements)
    need = max((p.turn or 0) for p in placements) if placements else 0
    with drawing(rng) as draws:  # the filler's thousands of small draws (sim.history.draws)
        while b.total() < spec.target_tokens - planted_tokens:
            b.filler_turn(draws)
        while len(b.turns) < need:
            b.filler_turn(draws)

    n_random = sum(1 for p in placements if p.turn is None and p.depth is not None)
    n_declared = round(spec.declared_fraction * n_random)
    declared_random = set(int(i) for i in rng.permutation(n_random)[:n_declared])
    superseded = set(int(i) for i in rng.permutation(n_random)[: spec.superseded])
    facts: dict[str, Fact] = {}
    k = -1
    for p in placements:
        fact = p.planted.fact
        if p.turn is None:
            k += 1
            fact = replace(fact, declared=k in declared_random, superseded=k in superseded)
        t = p.turn - 1 if p.turn is not None else _turn_at_depth(b, p.depth or 0.0)
        planted = p.planted
        if p.turn is None:  # the scenario's own facts keep the wording it gave
            planted = _stated(planted, rng)
            fact = replace(fact, text=planted.fact.text)
        uid = b.unit(
            UnitKind.CONSTRAINT,
            planted.renderings,
            SALIENCE[UnitKind.CONSTRAINT],
            fact.fact_id,
            planted.inverted,
        )
        b.place(t, uid, 1 + int(rng.integers(len(b.turns[t]))))
        facts[fact.fact_id] = fact
        if fact.superseded:
            later = int(rng.integers(t + 1, len(b.turns))) if t + 1 < len(b.turns) else t
            rid = b.unit(UnitKind.REVOCATION, p.planted.revocation, SALIENCE[UnitKind.REVOCATION])
            b.place(later, rid)
    for i in range(spec.near_misses):
        if not placements:
            break
        near = near_miss(rng, placements[i % len(placements)].planted)
        t = int(rng.integers(len(b.turns)))
        b.place(t, b.unit(UnitKind.DISTRACTOR, near.renderings, SALIENCE[UnitKind.DISTRACTOR]))
    with drawing(rng) as draws:
        _fit_length(b, spec.target_tokens, draws)
    return _assemble(b, facts)


_FILLER_OF_ROLE = {"user": UnitKind.CHATTER, "assistant": UnitKind.PLAN, "tool": UnitKind.TOOL}


def _fit_length(b: _Builder, target: int, draws: Draws) -> None:
    """Bring the total within 2% of the target by adding or removing trailing filler."""
    for _ in range(10_000):
        total = b.total()
        if total > target * 1.02:
            for t in range(len(b.turns) - 1, -1, -1):
                removable = [u for u in b.turns[t][1:] if not b.units[u].kind.constraint_like]
                if removable and len(b.turns[t]) > 2:
                    b.remove(t, removable[-1])
                    break
            else:
                return
        elif total < target * 0.98:
            kind = _FILLER_OF_ROLE[b.roles[-1]]
            full, short = filler_line(kind, draws)
            b.place(len(b.turns) - 1, b.unit(kind, (full, short), SALIENCE[kind]))
        else:
            return


def _assemble(b: _Builder, facts: dict[str, Fact]) -> History:
    total = b.total()
    pos = 0
    placed: dict[str, Fact] = {}
    for i, ids in enumerate(b.turns):
        for u in ids:
            fid = b.units[u].fact_id
            if fid is not None:
                placed[fid] = replace(facts[fid], turn=i + 1, depth=round(pos / max(total, 1), 4))
            pos += b.tokens(u)
    turns = tuple(Turn(i + 1, b.roles[i], tuple(ids)) for i, ids in enumerate(b.turns))
    ordered = tuple(placed[f] for f in facts if f in placed)
    return History(turns, tuple(b.units), ordered)
