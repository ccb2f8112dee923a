"""How long a runtime pays to import the floor gate, and what that import drags in.

A runtime imports `sim.runtime.floor_gate` at start-up in every worker, so the gate path must not
load numpy, pandas, pydantic, matplotlib or torch. This script measures it in fresh interpreters
(`python -X importtime`) and prints the figures; it asserts nothing, because timings depend on
the machine.

    .venv/bin/python benchmarks/import_time.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

TARGETS = ("sim.runtime.floor_gate", "sim.runtime.floor_registry", "sim.runtime.validity", "sim")
HEAVY = ("numpy", "pandas", "pydantic", "matplotlib", "torch", "transformers", "tiktoken")


def importtime(module: str) -> dict[str, int]:
    """Cumulative import time (microseconds) of every module loaded by `import module`."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part.strip() for part in line.split("|"))
        if cumulative.isdigit():
            out[name.strip()] = int(cumulative)
    return out


def interpreter_baseline() -> dict[str, int]:
    return importtime("sys")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh interpreters per target")
    args = parser.parse_args(argv)
    baseline = set(interpreter_baseline())
    print(f"python {sys.version.split()[0]}, {args.repeat} runs per target (median)")
    for target in TARGETS:
        runs = [importtime(target) for _ in range(args.repeat)]
        total = statistics.median(r.get(target, 0) for r in runs) / 1000
        loaded = [m for m in runs[0] if m not in baseline]
        heavy = sorted({m.split(".")[0] for m in loaded if m.split(".")[0] in HEAVY})
        medians = {
            name: statistics.median(r.get(name, 0) for r in runs)
            for name in runs[0]
            if name.startswith("sim")
        }
        slowest = sorted(medians.items(), key=lambda item: -item[1])[:3]
        print(f"import {target}: {total:.1f} ms, {len(loaded)} modules beyond the interpreter")
        print(f"    heavy packages loaded: {', '.join(heavy) or 'none'}")
        print(
            "    slowest sim modules: " + ", ".join(f"{n} {us / 1000:.1f} ms" for n, us in slowest)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
