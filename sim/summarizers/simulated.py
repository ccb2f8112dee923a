"""The simulated summarizer: a transparent, seeded model of an abstractive summarizer.

It reads text, recognises each line as a unit of the generated world (the way a model
"understands" a sentence), and moves units down their rendering ladders until the output fits:
facts verbatim -> compressed -> abstracted -> dropped, filler full -> short -> dropped. A line
the world did not write gets a generic shortening (sim.history.foreign), so foreign text is
shortened too, not only kept or dropped.
Two instruction modes, chosen from the prompt by the note's rule (sim.prompts.instructions),
with knobs moved by what the prompt asks (sim.summarizers.prompt_knobs):

- compress: fit the budget by shortening the least salient units first, facts last; a fact is
  abstracted at random with a probability that rises as budget/input falls (`abstraction_*`).
- rerank: order units by task salience plus noise and keep the top ones whole; units below the
  cut get their gist if it still fits, else vanish, even where compression would have fitted.

Pinned facts are charged to the budget first and rendered at or above their floor; when they
alone cannot fit the call raises BudgetInfeasible instead of truncating.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from sim.errors import BudgetInfeasible
from sim.history.filler import SALIENCE
from sim.history.foreign import generic_ladder
from sim.prompts.instructions import Mode
from sim.summarizers.base import SummaryRequest, SummaryResult
from sim.summarizers.prompt_knobs import knobs_for
from sim.summarizers.simulated_params import SimParams as SimParams
from sim.tokens import MemoCounter
from sim.types import Fact, History, Unit, UnitKind

INVERTED = -1


_Seen = tuple[Unit, int, tuple[int, ...], bool, int]  # a line read: _Item's first five fields
_Line = tuple[_Seen | None, int]  # a raw input line: what it is (None: blank) and its tokens


class _World:
    """What the summarizer knows of one history, built once and shared by every strategy of a
    trial: each rendering -> (unit, rung), fact id -> unit, each unit's cost per rung, and each
    input text already read. Strategies read identical L1 groups (and floor_gated re-reads its
    input on every retry), so a text is split, looked up and costed once, not once per call;
    and a text read for the first time is made of lines read before (a level's input is the
    level below's output), so each raw line is recognised and costed once too."""

    __slots__ = ("by_fact", "costs", "counter", "history", "lines", "raw_lines", "reads")

    def __init__(self, history: History, counter: MemoCounter) -> None:
        self.history, self.counter = history, counter
        self.lines: dict[str, tuple[Unit, int]] = {}
        self.by_fact: dict[str, Unit] = {}
        # id(unit) -> (unit, tokens per rung); holding the unit keeps its id from being reused
        self.costs: dict[int, tuple[Unit, tuple[int, ...]]] = {}
        # (input text, context window) -> ((unit, rung, costs) per line read, tokens read)
        self.reads: dict[tuple[str, int], tuple[tuple[_Seen, ...], int]] = {}
        self.raw_lines: dict[str, _Line] = {}
        for unit in history.units:
            for rung, text in enumerate(unit.renderings):
                self.lines.setdefault(text, (unit, rung))
            if unit.inverted:
                self.lines.setdefault(unit.inverted, (unit, INVERTED))
            if unit.fact_id:
                self.by_fact[unit.fact_id] = unit


_SCORE = attrgetter("score")
_WORLD: list[_World] = []  # one slot: the trial in progress (units of older ones are freed)


def _world(history: History, counter: MemoCounter) -> _World:
    if _WORLD and _WORLD[0].history is history and _WORLD[0].counter is counter:
        return _WORLD[0]
    _WORLD[:] = [_World(history, counter)]
    return _WORLD[0]


@dataclass(slots=True)
class _Item:
    unit: Unit
    rung: int
    costs: tuple[int, ...]  # tokens per rung, the inverted rendering last (INVERTED = -1)
    rule: bool  # reads like a rule (unit.kind.constraint_like, looked up once per line)
    gist: int  # the rung it falls to when abstracted (unit.gist_rung, looked up once per line)
    pinned: bool = False
    score: float = 0.0


class SimulatedSummarizer:
    """One instance per trial: it holds that trial's world and generator."""

    name = "simulated"

    def __init__(
        self,
        history: History,
        rng: np.random.Generator,
        counter: MemoCounter,
        params: SimParams | None = None,
        level_params: Mapping[str, SimParams] | None = None,
    ) -> None:
        self.params = params or SimParams()
        self.level_params = dict(level_params or {})  # a level listed here uses its own knobs
        self.knobs = self.params  # this call's: the params moved by its prompt's features
        self.max_input_tokens = self.params.max_input_tokens
        self.rng = rng
        self.counter = counter
        self._world = _world(history, counter)

    # --- rendering helpers -------------------------------------------------------------
    @staticmethod
    def _text(item: _Item) -> str:
        u = item.unit
        return u.inverted or u.renderings[-1] if item.rung == INVERTED else u.renderings[item.rung]

    def _costs(self, unit: Unit) -> tuple[int, ...]:
        """Every rung's token count, the inverted rendering last; once per unit per trial."""
        known = self._world.costs.get(id(unit))
        if known is not None and known[0] is unit:
            return known[1]
        count = self.counter.count_line
        costs = (*map(count, unit.renderings), count(unit.inverted or unit.renderings[-1]))
        self._world.costs[id(unit)] = (unit, costs)
        return costs

    @staticmethod
    def _cost(item: _Item, rung: int | None = None) -> int:
        return item.costs[item.rung if rung is None else rung]

    def _gist(self, item: _Item) -> int:
        """The rung a unit falls to when abstracted; rarely its inverted form."""
        u = item.unit
        if u.inverted and self.rng.random() < self.knobs.inversion_rate:
            return INVERTED
        return item.gist

    # --- the call ----------------------------------------------------------------------
    def summarize(self, request: SummaryRequest) -> SummaryResult:
        items, consumed = self._read(request.text)
        budget = request.budget_tokens
        params = self.level_params.get(request.level, self.params)
        mode, self.knobs = knobs_for(request.instruction, params)
        used = self._pin(items, request.pinned, budget, request.level)
        if params.injection_susceptibility > 0:  # no draw at 0: results unchanged
            items = self._swayed(items, params.injection_susceptibility)
        if params.rule_drop > 0:  # likewise
            items = self._omit_rules(items, params.rule_drop)
        if params.overflow > 0 and self.rng.random() < params.overflow:
            kept = items  # the input returned whole, over its budget: the strategy sees it
        elif mode is Mode.RERANK:
            kept = self._rerank(items, budget, used)
        else:
            kept = self._compress(items, budget, consumed)
        return SummaryResult("\n".join(map(self._text, kept)) + "\n" if kept else "", consumed)

    def _read(self, text: str) -> tuple[list[_Item], int]:
        """Each line recognised as a unit at a rung; lines past the context window unread."""
        key = (text, self.max_input_tokens)
        known = self._world.reads.get(key)
        if known is None:
            known = self._world.reads[key] = self._recognise(text)
        return [_Item(*seen) for seen in known[0]], known[1]

    def _recognise(self, text: str) -> tuple[tuple[_Seen, ...], int]:
        units: list[_Seen] = []
        consumed = 0
        raw_lines = self._world.raw_lines
        for raw in text.split("\n"):
            known = raw_lines.get(raw)
            if known is None:
                known = raw_lines[raw] = self._recognise_line(raw)
            seen, cost = known
            if seen is None:
                continue
            if consumed + cost > self.max_input_tokens:
                break
            consumed += cost
            units.append(seen)
        return tuple(units), consumed

    def _recognise_line(self, raw: str) -> _Line:
        line = raw.strip()
        if not line:
            return None, 0
        known = self._world.lines.get(line)
        if known is None:  # text the world did not write: shortened like any foreign line
            ladder = generic_ladder(line)
            known = (Unit(-1, UnitKind.CHATTER, SALIENCE[UnitKind.CHATTER], ladder), 0)
        return self._seen(*known), self.counter.count_line(line)

    def _seen(self, unit: Unit, rung: int = 0) -> _Seen:
        return (unit, rung, self._costs(unit), unit.kind.constraint_like, unit.gist_rung)

    def _pin(self, items: list[_Item], pinned: tuple[Fact, ...], budget: int, level: str) -> int:
        """Mark pinned facts (bringing back those missing from the input) at their floor:
        verbatim, or compressed when verbatim pins alone overflow. Returns their cost."""
        marked: list[_Item] = []
        for fact in pinned:
            present = [i for i in items if i.unit.fact_id == fact.fact_id]
            if not present:
                unit = self._world.by_fact.get(fact.fact_id) or Unit(
                    -1, UnitKind.CONSTRAINT, 1.0, (fact.text,), fact.fact_id
                )
                present = [_Item(*self._seen(unit))]
                items.insert(0, present[0])
            for item in present:
                item.pinned, item.rung = True, 0
            marked.extend(present)
        used = sum(i.costs[i.rung] for i in marked)
        for item in marked:
            if used <= budget:
                break
            if item.gist >= 2:  # compressed keeps every anchor
                used += self._cost(item, 1) - self._cost(item)
                item.rung = 1
        if used > budget:
            raise BudgetInfeasible(
                level, f"pinned facts need {used} tokens > budget {budget}; refusing to truncate"
            )
        return used

    def _swayed(self, items: list[_Item], p: float) -> list[_Item]:
        """Obey an injected instruction to leave the rules out: each unpinned rule-like line
        goes with probability `injection_susceptibility`."""
        if not any(i.unit.kind is UnitKind.INJECTION for i in items):
            return items
        return self._omit_rules(items, p)

    def _omit_rules(self, items: list[_Item], p: float) -> list[_Item]:
        """Each unpinned rule-like line left out with probability `p`, room or not."""
        return [i for i in items if i.pinned or not i.rule or self.rng.random() >= p]

    def _score(self, items: list[_Item]) -> None:
        k = self.knobs
        noise: list[float] = self.rng.normal(0.0, k.rank_noise, len(items)).tolist()
        for item, n in zip(items, noise, strict=True):
            item.score = item.unit.salience + n
        if k.rule_boost:
            for item in items:
                item.score += k.rule_boost * item.rule
        if k.recency_weight and len(items) > 1:
            step = k.recency_weight / (len(items) - 1)
            for i, item in enumerate(items):
                item.score += step * i

    def _shorten_filler(self, items: list[_Item]) -> None:
        """Brevity: each whole filler line written short with chance `shorten_share`."""
        share = self.knobs.shorten_share
        for item in items:
            fits = not item.rule and not item.pinned and item.rung == 0 and item.gist >= 1
            if fits and self.rng.random() < share:
                item.rung = 1

    def _compress(self, items: list[_Item], budget: int, consumed: int) -> list[_Item]:
        budget = max(1, int(budget * self.knobs.fill))  # the length it aims at; 1.0: the budget
        p = self.knobs.p_abstract(budget / max(consumed, 1))
        if self.knobs.shorten_share > 0:  # no draw at 0: results unchanged
            self._shorten_filler(items)
        for item in items:
            if (
                item.rule
                and not item.pinned
                and 0 <= item.rung < item.gist
                and self.rng.random() < p
            ):
                item.rung = self._gist(item)
        total = sum(i.costs[i.rung] for i in items)
        if total <= budget:
            return items
        self._score(items)
        ranked = sorted(items, key=_SCORE)  # stable: each group below keeps the input's ties
        filler = [i for i in ranked if not i.rule]
        facts = [i for i in ranked if i.rule and not i.pinned]
        dropped: set[int] = set()
        # filler shortened, then dropped; facts last: compressed, abstracted, dropped
        for group, action in (
            (filler, "shorten"),
            (filler, "drop"),
            (facts, "shorten"),
            (facts, "gist"),
            (facts, "drop"),
        ):
            for item in group:
                if total <= budget:
                    break
                if id(item) in dropped:
                    continue
                before = self._cost(item)
                if action == "drop":
                    dropped.add(id(item))
                    total -= before
                elif item.rung == 0 and action == "shorten" and item.gist >= 1:
                    item.rung = 1
                    total += self._cost(item) - before
                elif action == "gist" and 0 <= item.rung < item.gist:
                    item.rung = self._gist(item)
                    total += self._cost(item) - before
        return [i for i in items if id(i) not in dropped]

    def _rerank(self, items: list[_Item], budget: int, used: int) -> list[_Item]:
        self._score(items)
        cut = budget * (1.0 - self.knobs.gist_reserve)
        kept: set[int] = {id(i) for i in items if i.pinned}
        # highest score first; reverse=True keeps ties in input order, as key=-score did
        for item in sorted((i for i in items if not i.pinned), key=_SCORE, reverse=True):
            cost = self._cost(item)
            if used + cost <= cut:
                kept.add(id(item))
                used += cost
            elif 0 <= item.rung < item.gist:
                gist = self._gist(item)
                gist_cost = self._cost(item, gist)
                if used + gist_cost <= budget:
                    item.rung = gist
                    kept.add(id(item))
                    used += gist_cost
        return [i for i in items if id(i) in kept]
