"""`compsim calibrate RUN`: fit the simulated summarizer to a recorded run of a real model.

For one strategy (one prompt) of the run, each level's knobs are fitted by simulated moments
(sim.runs.calibration) and written as a params file a scenario then names:
`summarizer = {name = "simulated", params = "file:params.toml"}`.
Exit codes: 0; 2 when RUN is not a run, the strategy or trials match nothing, or the file
cannot be written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.errors import UserError, one_line
from sim.runs.calibration import FITTED, FLAT, Fit, calibrate, targets
from sim.runs.results import Run, load_run
from sim.runs.runner import grid_from_manifest
from sim.runs.store import atomic_write
from sim.runs.trial import strategy_key
from sim.summarizers.params_file import params_text


class CalibrateError(UserError):
    """A run, strategy or trial selection that cannot be calibrated from."""


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser(
        "calibrate",
        help="fit the simulated summarizer to a recorded real-model run",
        description="Fit the simulated summarizer's knobs, level by level, to what a real "
        "model did in a recorded run (one strategy, i.e. one prompt), and write them as a "
        'params file: summarizer = {name = "simulated", params = "file:params.toml"}.',
    )
    p.add_argument("run", type=Path, help="a run directory recorded with a real model")
    p.add_argument(
        "--strategy",
        help="the strategy to fit: its key, or a unique part of it such as the prompt's "
        "name (needed when the run has more than one)",
    )
    p.add_argument(
        "--trials", help="trial indices to fit on, e.g. 0-3 or 0,2,5 (default: every trial)"
    )
    p.add_argument("--cell", help="the sweep cell (needed when the run has more than one)")
    p.add_argument("--out", type=Path, help="params file to write (default: print it)")
    p.add_argument("--rounds", type=int, default=10, help="fitting rounds (default 10)")
    p.add_argument("--replicas", type=int, default=8, help="simulated runs of each trial per round")
    p.set_defaults(func=run)


def parse_trials(spec: str) -> list[int]:
    """`0-3`, `0,2,5` or both mixed: the trial indices, sorted and unique."""
    out: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise CalibrateError(f"--trials {spec!r}: use indices like 0-3 or 0,2,5") from None
        if a < 0 or b < a:
            raise CalibrateError(f"--trials {spec!r}: {part!r} is not a range of indices")
        out.update(range(a, b + 1))
    return sorted(out)


def pick(options: list[str], wanted: str | None, what: str, flag: str) -> str:  # what: plural
    """The one option `wanted` names (exactly, or as a unique part); one line otherwise."""
    if wanted is None:
        if len(options) == 1:
            return options[0]
        raise CalibrateError(f"the run has {len(options)} {what}; choose one with {flag}: "
                             + ", ".join(options))  # fmt: skip
    if wanted in options:
        return wanted
    hits = [o for o in options if wanted in o]
    if len(hits) == 1:
        return hits[0]
    listed = ", ".join(hits or options)
    say = "matches several" if hits else "matches none"
    raise CalibrateError(f"{flag} {wanted!r} {say} of the run's {what}: {listed}")


def calibrate_run(
    run: Run, strategy: str | None, trials: str | None, cell: str | None, rounds: int,
    replicas: int,
) -> tuple[Fit, str]:  # fmt: skip
    """The fit and the params file's text."""
    grid = grid_from_manifest(run.meta)
    chosen_cell = pick([c.id for c in grid.cells], cell, "cells", "--cell")
    the_cell = next(c for c in grid.cells if c.id == chosen_cell)
    scenario = the_cell.scenario
    specs = {strategy_key(n, a): (n, a) for n, a in scenario.strategy_specs()}
    key = pick(list(specs), strategy, "strategies", "--strategy")
    rows = [r for r in run.rows() if r["strategy"] == key and r.get("cell", "") == chosen_cell]
    present = sorted({int(r["trial"]) for r in rows})
    chosen = parse_trials(trials) if trials else present
    missing = sorted(set(chosen) - set(present))
    if missing:
        raise CalibrateError(
            f"{run.path}: no recorded row of {key} for trial(s) {missing[:10]} "
            f"(recorded: {len(present)} trials)"
        )
    if not chosen:
        raise CalibrateError(f"{run.path}: no recorded rows of {key}")
    picked = [r for r in rows if int(r["trial"]) in set(chosen)]
    result = calibrate(
        scenario, specs[key], key, picked, chosen, rounds=max(1, rounds),
        replicas=max(1, replicas),
    )  # fmt: skip
    summ = run.meta.scenario.get("summarizer", {})
    model = summ.get("model") or summ.get("model_path") or summ.get("name", "?")
    calibration: dict[str, object] = {
        "source": str(run.path),
        "run_id": run.meta.run_id,
        "model": str(model),
        "strategy": key,
        "trials": list(chosen),
        "rounds": result.rounds,
        "replicas": max(1, replicas),
        "loss": result.loss,
        "collapse_recorded": round(result.observed.collapse, 4),
        "collapse_simulated": round(result.simulated.collapse, 4),
    }
    for name, lm in result.observed.levels.items():
        want, got = targets(lm), targets(result.simulated.level(name))
        calibration[name] = {
            **{f"recorded_{k}": round(want[k], 4) for k in FITTED},
            **{f"simulated_{k}": round(got[k], 4) for k in FITTED},
            "facts": lm.facts,
            "calls": lm.calls,
        }
    header = (
        f"compsim calibrate: the simulated summarizer fitted to {key}\n"
        f"on {model}, run {run.meta.run_id}, trials {_span(chosen)}.\n"
        'Use it as: summarizer = {name = "simulated", params = "file:<this file>"}'
    )
    return result, params_text(dict(FLAT), result.levels, calibration, header)


def _span(trials: list[int]) -> str:
    return (
        f"{trials[0]}-{trials[-1]}"
        if trials == list(range(trials[0], trials[-1] + 1))
        else (",".join(map(str, trials)))
    )


def table(result: Fit) -> str:
    """Recorded against simulated, per level and knob, with the fitted value."""
    rows = [f"{'level':<6} {'share':<16} {'recorded':>9} {'simulated':>9} {'knob':>7}"]
    for name, lm in result.observed.levels.items():
        want, got = targets(lm), targets(result.simulated.level(name))
        knobs = result.levels.get(name, {})
        for k in FITTED:
            fitted = f"{knobs[k]:.3f}" if k in knobs else "-"
            rows.append(f"{name:<6} {k:<16} {want[k]:>9.3f} {got[k]:>9.3f} {fitted:>7}")
    rows.append(
        f"collapse on the fitted trials: recorded {result.observed.collapse:.1%}, "
        f"simulated {result.simulated.collapse:.1%} (loss {result.loss:.4f})"
    )
    return "\n".join(rows)


def _safe(text: str) -> str:
    """Each line escaped for the terminal (a strategy key or path holds the user's text)."""
    return "\n".join(one_line(line, 1000) for line in text.splitlines())


def run(args: argparse.Namespace) -> int:
    loaded = load_run(args.run)
    result, text = calibrate_run(
        loaded, args.strategy, args.trials, args.cell, args.rounds, args.replicas
    )
    print(_safe(f"calibrating {result.strategy} on {len(result.trials)} trials"))
    print(_safe(table(result)))
    if args.out is None:
        print(text, end="")
        return 0
    try:
        atomic_write(args.out, text.encode("utf-8"))
    except OSError as exc:
        raise CalibrateError(f"{args.out}: cannot write ({exc.strerror})") from None
    print(_safe(f"written: {args.out}"))
    ref = _safe(args.out.name)
    print(f'use it as: summarizer = {{name = "simulated", params = "file:{ref}"}}')
    return 0
