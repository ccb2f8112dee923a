"""Many model calls in flight from one process: trial units and their strategies on threads.

Against an HTTP endpoint a sweep waits on the network, not the CPU, so processes (`--jobs`)
are the wrong tool: each holds one request in flight and a whole interpreter (~130 MB). Every
(trial, strategy) pair is independent -- its history is the trial's, its summarizer streams
are seeded by (run seed, trial, strategy), the model is asked at temperature 0 with the
trial's seed -- so they run on a pool of `max_concurrency` threads and their rows are put
back in the scenario's strategy order: the results are byte-identical to a serial run.

Units are started in order, at most a window of them at a time, and each is yielded when its
last strategy finishes, so memory stays flat and a Ctrl-C loses only the units in flight (a
resume runs them again). Usage counters are process-wide, so the window's model calls are
reported once, with the last unit, rather than per unit.

`make_executor` chooses between the three executors.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from sim.runs.scenario import Scenario
from sim.runs.sweep import (
    Executor,
    InProcessExecutor,
    LocalExecutor,
    TrialSpec,
    UnitResult,
    strategy_outcome,
    unit_history,
    unit_result,
)
from sim.summarizers.registry import usage, usage_delta
from sim.types import History, TrialRecord

Outcome = tuple[TrialRecord | None, str | None]


def calls_in_flight(workload: Mapping[str, Scenario]) -> int:
    """How many calls the workload's summarizers allow at once (1 unless every cell's is
    an HTTP endpoint: in-process models are CPU-bound and gain nothing from threads)."""
    flights = [
        s.summarizer.max_concurrency if s.summarizer.name == "http" else 1
        for s in workload.values()
    ]
    return min(flights, default=1)


@dataclass
class _Unit:
    spec: TrialSpec
    scenario: Scenario
    history: History | None
    failed: str | None
    outcomes: list[Future[Outcome] | None] = field(default_factory=list)


class ThreadedExecutor:
    """`threads` (trial, strategy) pairs at once, in one process."""

    def __init__(self, workload: Mapping[str, Scenario], threads: int) -> None:
        self.workload = workload
        self.threads = max(1, threads)
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="compsim-call")

    def _start(self, spec: TrialSpec) -> _Unit:
        scenario = self.workload[spec.cell]
        history, failed = unit_history(scenario, spec)
        unit = _Unit(spec, scenario, history, failed)
        for name, args in scenario.strategy_specs():
            if history is None:
                unit.outcomes.append(None)
            else:
                job = self._pool.submit(strategy_outcome, scenario, spec, history, name, args)
                unit.outcomes.append(job)
        return unit

    def _finish(self, unit: _Unit, usage_of_unit: dict[str, int]) -> UnitResult:
        outcomes: list[Outcome] = [
            (None, unit.failed) if f is None else f.result() for f in unit.outcomes
        ]
        return unit_result(unit.scenario, unit.spec, outcomes, usage_of_unit)

    def submit(self, batches: Iterable[Sequence[TrialSpec]]) -> Iterator[UnitResult]:
        specs = (spec for batch in batches for spec in batch)
        window: deque[_Unit] = deque()
        per_unit = max(1, len(next(iter(self.workload.values())).strategy_specs()))
        # twice the units that fill every thread, so a slow unit at the head of the window
        # (written first: rows stay in order) does not leave threads idle behind it
        limit = max(2, 2 * -(-self.threads // per_unit) + 1)
        before = usage()
        for spec in specs:
            unit = self._start(spec)
            window.append(unit)
            while len(window) >= limit:
                yield self._finish(window.popleft(), {})
        while window:
            unit = window.popleft()
            last = not window
            yield self._finish(unit, usage_delta(usage(), before) if last else {})

    def cancel(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def make_executor(workload: Mapping[str, Scenario], jobs: int, units: int) -> Executor:
    """Processes for CPU-bound work; with `--jobs 1` and an HTTP summarizer that allows more
    than one request in flight, threads in this process."""
    if jobs <= 1 or units <= 1:
        flight = calls_in_flight(workload)
        return ThreadedExecutor(workload, flight) if flight > 1 else InProcessExecutor(workload)
    return LocalExecutor(workload, min(jobs, units))
