"""Grid runner: cells x trial indices -> trial units, and the executors that run them.

A trial unit is one trial index of one cell: its history is generated once and every strategy
of the cell runs on it (sim.runs.trial). Units are independent and seeded from (seed, trial,
stream) only, so a unit's rows are the same whichever worker runs it, in whatever order.
Workers return each unit already serialized (JSONL bytes), so the driver only appends bytes.

`Executor` is the seam for other engines (a distributed one implements the same three
methods); `LocalExecutor` runs batches on a process pool, `InProcessExecutor` in the caller.
Batching amortizes per-task overhead (~0.2 ms of driver CPU per task against ~10 us per trial in
batches of 50) while keeping enough batches for every worker and a live progress bar.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from sim.errors import UserError
from sim.grading.text import warm_lemmas
from sim.runs.records import trace_row, trial_row
from sim.runs.scenario import Scenario
from sim.runs.store import dumps
from sim.runs.trial import run_strategy, strategy_key, trial_history, trial_id
from sim.summarizers.registry import counter_for, usage, usage_delta
from sim.types import History, TrialRecord

warm_lemmas()  # here, so the forkserver (which preloads this module) loads them for every worker

MAX_BATCH = 50
_ERROR_CHARS = 500


@dataclass(frozen=True, slots=True)
class TrialSpec:
    """One trial unit to run; `keep_text` for the first trial indices of each cell."""

    cell: str
    trial: int
    keep_text: bool = False

    @property
    def unit(self) -> tuple[str, int]:
        return (self.cell, self.trial)

    @property
    def unit_id(self) -> str:
        return f"{self.cell}/{self.trial:06d}" if self.cell else f"{self.trial:06d}"


@dataclass(frozen=True, slots=True)
class UnitResult:
    spec: TrialSpec
    rows: bytes
    traces: bytes
    errors: int
    first_error: str | None = None
    usage: dict[str, int] = field(default_factory=dict)  # real-model calls and cache traffic


def pending_specs(
    cells: Sequence[str], trials: int, done: Container[tuple[str, int]], traces_per_cell: int
) -> Iterator[TrialSpec]:
    """Units not yet done, trial-major (every cell gets early trials, so an interrupted sweep
    still covers the whole grid); made as the executor asks for them, so a sweep of any size
    never holds its whole list."""
    for t in range(trials):
        for cell in cells:
            if (cell, t) not in done:
                yield TrialSpec(cell, t, t < traces_per_cell)


def batch_size(units: int, jobs: int) -> int:
    """At most MAX_BATCH units, and at least ~4 batches per worker when there are enough."""
    return max(1, min(MAX_BATCH, math.ceil(units / (max(jobs, 1) * 4))))


def iter_batches(specs: Iterable[TrialSpec], units: int, jobs: int) -> Iterator[list[TrialSpec]]:
    """Batches of `batch_size` of the units still to come, so they shrink as the sweep ends:
    the early ones amortize per-task overhead, the last ones hold a unit or two, and no process
    waits idle while another finishes a large last batch."""
    specs = iter(specs)
    while batch := list(islice(specs, batch_size(units, jobs))):
        units -= len(batch)
        yield batch


def _error_text(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    return text[:_ERROR_CHARS]


def _error_record(scenario: Scenario, spec: TrialSpec, key: str, error: str) -> TrialRecord:
    return TrialRecord(
        trial_id=trial_id(spec.trial, key, spec.cell),
        strategy=key,
        seed=scenario.seed,
        levels=(),
        outcomes=(),
        error=error,
    )


def unit_history(scenario: Scenario, spec: TrialSpec) -> tuple[History | None, str | None]:
    """The unit's L0 history, or the error that every strategy's row will carry."""
    try:
        return trial_history(scenario, spec.trial), None
    except UserError:
        raise  # bad input (a missing key variable, a read-only cache miss): stop the run, exit 2
    except Exception as exc:
        return None, _error_text(exc)


def strategy_outcome(
    scenario: Scenario, spec: TrialSpec, history: History, name: str, args: dict[str, Any]
) -> tuple[TrialRecord | None, str | None]:
    """One strategy on the unit's history: its record, or the error its row will carry."""
    try:
        rec = run_strategy(
            scenario, history, spec.trial, name, args, keep_text=spec.keep_text, cell=spec.cell
        )
    except UserError:
        raise
    except Exception as exc:
        return None, _error_text(exc)
    return rec, None


def unit_result(
    scenario: Scenario,
    spec: TrialSpec,
    outcomes: Sequence[tuple[TrialRecord | None, str | None]],
    usage_of_unit: dict[str, int],
) -> UnitResult:
    """The unit's rows and traces, in the scenario's strategy order."""
    rows: list[dict[str, Any]] = []
    traces: list[dict[str, Any]] = []
    first: str | None = None
    errors = 0
    for (name, args), (rec, error) in zip(scenario.strategy_specs(), outcomes, strict=True):
        if rec is None:
            rec = _error_record(scenario, spec, strategy_key(name, args), error or "")
            errors += 1
            first = first or error
        rows.append(trial_row(rec, spec.trial, spec.cell))
        if spec.keep_text and error is None:
            traces.append({**trace_row(rec, spec.trial), "cell": spec.cell})
    return UnitResult(
        spec,
        b"".join(dumps(r) for r in rows),
        b"".join(dumps(t) for t in traces),
        errors,
        first,
        usage_of_unit,
    )


def run_unit(scenario: Scenario, spec: TrialSpec) -> UnitResult:
    """Every strategy of the cell on one trial; an unexpected exception becomes that
    strategy's error row (or every strategy's, when the history itself failed). A UserError
    is bad input, not a trial outcome: it stops the run (the units on disk stay resumable)."""
    before = usage()
    history, failed = unit_history(scenario, spec)
    outcomes = [
        (None, failed) if history is None else strategy_outcome(scenario, spec, history, n, a)
        for n, a in scenario.strategy_specs()
    ]
    return unit_result(scenario, spec, outcomes, usage_delta(usage(), before))


class Executor(Protocol):
    """Runs batches of trial units for one workload (cell id -> resolved Scenario)."""

    def submit(self, batches: Iterable[Sequence[TrialSpec]]) -> Iterator[UnitResult]:
        """Yield each unit's result as its batch completes, in any order."""
        ...

    def cancel(self) -> None:
        """Stop at once (Ctrl-C): queued and running batches are dropped."""
        ...

    def close(self) -> None:
        """Release the workers after the last result."""
        ...


class InProcessExecutor:
    """--jobs 1: no pool, no pickling; what tests that monkeypatch the harness use."""

    def __init__(self, workload: Mapping[str, Scenario]) -> None:
        self.workload = workload

    def submit(self, batches: Iterable[Sequence[TrialSpec]]) -> Iterator[UnitResult]:
        for batch in batches:
            for spec in batch:
                yield run_unit(self.workload[spec.cell], spec)

    def cancel(self) -> None:
        return None

    def close(self) -> None:
        return None


_WORKLOAD: dict[str, Scenario] = {}


def _init_worker(workload: dict[str, Scenario]) -> None:
    """Once per worker: Ctrl-C is the driver's to handle; the worker ends with its driver;
    load each tokenizer once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_driver, name="compsim-driver-watch", daemon=True).start()
    _WORKLOAD.update(workload)
    for scenario in workload.values():
        counter_for(scenario.summarizer, scenario.tokenizer)


def _exit_with_driver() -> None:
    """Exit once the driver is gone. A driver killed outright (SIGKILL, the out-of-memory
    killer, a SIGTERM it does not catch) cannot stop its pool, and a worker waiting on the
    pool's queue would wait forever, holding its memory (and, through it, the forkserver):
    the driver's sentinel, which multiprocessing hands every child, closes when it dies.
    Whatever the worker was running had no one left to take it; a resume runs it again."""
    driver = multiprocessing.parent_process()
    if driver is not None:
        driver.join()
        os._exit(1)


def _run_batch(batch: Sequence[TrialSpec]) -> list[UnitResult]:
    return [run_unit(_WORKLOAD[spec.cell], spec) for spec in batch]


def _context() -> Any:
    """forkserver where available: workers fork from a clean server process (never from a
    driver that holds threads), with the harness imported once."""
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["sim.runs.sweep"])
        return ctx
    return multiprocessing.get_context("spawn")


def _ready() -> None:
    """A no-op task: submitting it starts a worker."""


class LocalExecutor:
    """`jobs` processes on this machine: the driver and a pool of jobs - 1 workers. The driver
    runs units itself between collecting the workers' results, from the first moment: the pool
    starts in a background thread, because a forkserver's start (importing the harness, ~0.5 s,
    then each worker loading its encoding) would otherwise leave every core idle while a short
    sweep waits. A worker that dies (killed, out of memory) breaks the pool loudly
    (BrokenProcessPool) instead of hanging the sweep.

    `driver_works=False` keeps the driver to collecting (every unit then runs in a worker)."""

    def __init__(
        self, workload: Mapping[str, Scenario], jobs: int, driver_works: bool = True
    ) -> None:
        self.workload = workload
        self.driver_works = driver_works
        workers = max(1, jobs - 1 if driver_works else jobs)
        self._in_flight = 2 * workers
        self._pool = ProcessPoolExecutor(
            workers, mp_context=_context(), initializer=_init_worker, initargs=(dict(workload),)
        )
        self._start_error: BaseException | None = None
        self._starting = threading.Thread(
            target=self._start, args=(workers,), name="compsim-pool-start", daemon=True
        )
        self._starting.start()
        self.units_here = 0  # units the driver ran: the rest ran in workers

    def _start(self, workers: int) -> None:
        # Ctrl-C is the driver's: the forkserver (and every worker it forks) inherits this
        # thread's mask, so a Ctrl-C while it still imports the harness prints no traceback.
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for _ in range(workers):
                self._pool.submit(_ready)
        except BaseException as exc:  # a pool shut down by cancel(), or that could not start
            self._start_error = exc

    def wait_started(self) -> None:
        """Block until the workers are started (their initializer may still be running):
        for timing a warm pool, or making sure the workers get the first batches."""
        self._starting.join()

    def _pool_ready(self) -> bool:
        if self._starting.is_alive():
            return False
        if self._start_error is not None:
            raise self._start_error
        return True

    def submit(self, batches: Iterable[Sequence[TrialSpec]]) -> Iterator[UnitResult]:
        """At most two batches per worker in flight, and a result is dropped once yielded,
        so memory stays flat however many units the sweep has. The driver takes a batch of
        its own whenever it has none, and runs it one unit at a time so the workers' results
        are collected (and written) between units."""
        todo = iter(batches)
        running: set[Future[list[UnitResult]]] = set()
        own: deque[TrialSpec] = deque()
        while True:
            if not self.driver_works or self._pool_ready():
                while len(running) < self._in_flight and (batch := next(todo, None)) is not None:
                    running.add(self._pool.submit(_run_batch, list(batch)))
            finished = {f for f in running if f.done()}
            running -= finished
            for future in finished:
                yield from future.result()
            if self.driver_works and not own:
                own.extend(next(todo, ()))
            if own:
                spec = own.popleft()
                self.units_here += 1
                yield run_unit(self.workload[spec.cell], spec)
                continue
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()

    def cancel(self) -> None:
        """Drop queued batches and stop the workers now; running batches are lost (their
        units were never written, so a resume runs them again)."""
        self._starting.join(timeout=30)  # a worker being started is then stopped with the rest
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
        for proc in processes:
            proc.join(timeout=10)

    def close(self) -> None:
        self._starting.join()
        self._pool.shutdown(wait=True)
