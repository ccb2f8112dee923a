"""Model calls per second from one process against an OpenAI-compatible endpoint.

Starts a fake endpoint on 127.0.0.1 in its own process (so its CPU does not compete with the
harness's GIL) that answers every chat completion after a set latency, then runs one sweep per
concurrency (`max_concurrency` = 1 / 8 / 32 / 64, `--jobs 1`) and prints a table: calls/s, the
ideal (concurrency / latency), their ratio, the peak requests in flight the server saw, and
whether the rows are byte-identical to the serial run's. A last run at zero latency and one
call in flight gives the harness's own cost per call (client, prompt rendering, counting,
grading, writing), as wall time over calls, and a run of the same workload with the scripted
backend (no HTTP at all) gives the harness alone.

    .venv/bin/python benchmarks/http_throughput.py [--latency 0.25] [--levels 1,8,32,64]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from sim.runs.grid import load_grid
from sim.runs.runner import run_grid
from sim.summarizers.registry import reset_usage, usage
from sim.tokens import get_counter

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "prompt_comparison.toml"
PROMPTS = ["compress", "continuity", "structured", "lossless"]


def _serve(latency: float, port: Any, stats: Any, span: Any) -> None:
    lock = threading.Lock()
    state = {"now": 0, "peak": 0, "calls": 0}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a real server
        disable_nagle_algorithm = True  # headers and body go out apart: no 40 ms delayed ACK

        def do_GET(self) -> None:  # /models, for the probe
            self._send({"object": "list", "data": [{"id": "fake", "object": "model"}]})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            with lock:
                state["now"] += 1
                state["calls"] += 1
                state["peak"] = max(state["peak"], state["now"])
                stats[0], stats[1] = state["peak"], state["calls"]
                if not span[0]:
                    span[0] = time.time()
            time.sleep(latency)
            with lock:
                state["now"] -= 1
                span[1] = time.time()
            text = body["messages"][0]["content"]
            # a short answer that keeps the first rule-like line: cheap, and under any budget
            keep = [ln for ln in text.splitlines() if ln.startswith(("Do not", "Never"))][:1]
            self._send(
                {
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": "\n".join(keep) or "ok"},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": len(text) // 4, "completion_tokens": 12},
                }
            )

        def _send(self, data: dict[str, Any]) -> None:
            raw = json.dumps(data).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args: Any) -> None:
            pass

    ThreadingHTTPServer.request_queue_size = 256
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port.value = server.server_address[1]
    server.serve_forever()


def _sweep(base_url: str, concurrency: int, trials: int, out: Path) -> tuple[float, bytes]:
    strategies = ",".join(f'{{name="budget_closed",instruction="{p}"}}' for p in PROMPTS)
    overrides = [
        f"trials={trials}",
        "history.target_tokens=900",
        f"strategies=[{strategies}]",
        "ladder=[{name='L1',budget_tokens=300,group_size=2},{name='L2',budget_tokens=80}]",
        f'summarizer={{name="http",base_url="{base_url}",model="fake",'
        f"max_concurrency={concurrency}}}",
    ]
    grid = load_grid(str(SCENARIO), overrides)
    start = time.perf_counter()
    run_grid(grid, out, jobs=1, force=True, progress=False)
    return time.perf_counter() - start, (out / "trials.jsonl").read_bytes()


def _start(ctx: Any, latency: float) -> tuple[Any, str, Any, Any]:
    port, stats, span = ctx.Value("i", 0), ctx.Array("i", [0, 0]), ctx.Array("d", [0.0, 0.0])
    server = ctx.Process(target=_serve, args=(latency, port, stats, span), daemon=True)
    server.start()
    while not port.value:
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port.value}/v1", stats, span


def _calls_per_trial(ctx: Any, out: Path) -> float:
    server, base, stats, _ = _start(ctx, 0.0)
    _sweep(base, 1, 2, out)
    server.terminate()
    server.join()
    return float(stats[1]) / 2


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--latency", type=float, default=0.25, help="seconds per reply")
    p.add_argument("--levels", default="1,8,32,64", help="max_concurrency values")
    p.add_argument("--waves", type=int, default=12, help="calls per run >= waves x concurrency")
    p.add_argument(
        "--chains",
        type=int,
        default=12,
        help="strategy chains per thread (each is ~12 calls one after another; the last "
        "chains run with fewer calls in flight, so more of them dilute that tail)",
    )
    args = p.parse_args()
    ctx = multiprocessing.get_context("spawn")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        serial_rows: bytes | None = None
        calls_per_trial = _calls_per_trial(ctx, Path(tmp) / "size")
        for latency, level in [(args.latency, int(c)) for c in args.levels.split(",")] + [(0.0, 1)]:
            server, base, stats, span = _start(ctx, latency)
            # enough calls for `waves` rounds, and enough trials that the threads stay busy
            units = -(-level // len(PROMPTS))
            trials = max(2, round(args.waves * level / calls_per_trial), args.chains * units)
            wall, trial_rows = _sweep(base, level, trials, Path(tmp) / f"c{level}-{latency}")
            peak, calls = stats[0], stats[1]
            server.terminate()
            server.join()
            same = "-"
            if latency == args.latency:
                if serial_rows is None or len(trial_rows) < len(serial_rows):
                    serial_rows = serial_rows or trial_rows
                prefix = min(len(serial_rows), len(trial_rows))
                same = "yes" if serial_rows[:prefix] == trial_rows[:prefix] else "NO"
            rate = calls / wall
            busy = calls / max(span[1] - span[0], 1e-9)  # first request to last reply
            ideal = level / latency if latency else float("nan")
            rows.append(
                {
                    "concurrency": level,
                    "latency_s": latency,
                    "trials": trials,
                    "calls": calls,
                    "wall_s": round(wall, 2),
                    "calls_per_s": round(rate, 1),
                    "ideal_per_s": round(ideal, 1),
                    "of_ideal": round(rate / ideal, 3) if latency else None,
                    "calls_per_s_while_calling": round(busy, 1),
                    "of_ideal_while_calling": round(busy / ideal, 3) if latency else None,
                    "peak_in_flight": peak,
                    "rows_identical_to_serial": same,
                    "ms_per_call": round(1000 * wall / calls, 3),
                }
            )
    print(
        f"{'max_concurrency':>15} {'latency s':>9} {'calls':>6} {'calls/s':>8} {'ideal':>7} "
        f"{'of ideal':>8} {'while calling':>13} {'peak in flight':>14} {'ms/call':>8}  same rows"
    )
    for r in rows:
        share = f"{100 * r['of_ideal']:.1f}%" if r["of_ideal"] is not None else "-"
        busy = r["of_ideal_while_calling"]
        busy_share = f"{100 * busy:.1f}%" if busy is not None else "-"
        print(
            f"{r['concurrency']:>15} {r['latency_s']:>9} {r['calls']:>6} {r['calls_per_s']:>8} "
            f"{r['ideal_per_s']:>7} {share:>8} {busy_share:>13} {r['peak_in_flight']:>14} "
            f"{r['ms_per_call']:>8}  {r['rows_identical_to_serial']}"
        )
    with tempfile.TemporaryDirectory() as tmp:
        grid = load_grid(
            str(SCENARIO),
            [
                "trials=8",
                "history.target_tokens=900",
                "strategies=["
                + ",".join(f'{{name="budget_closed",instruction="{p}"}}' for p in PROMPTS)
                + "]",
                "ladder=[{name='L1',budget_tokens=300,group_size=2},{name='L2',budget_tokens=80}]",
                'summarizer={name="scripted"}',
            ],
        )
        get_counter(grid.base.tokenizer)  # loaded before the clock starts, as in a warm worker
        reset_usage()
        start = time.perf_counter()
        run_grid(grid, Path(tmp) / "scripted", jobs=1, force=True, progress=False)
        wall = time.perf_counter() - start
        calls = usage()["calls"]
    print(f"harness alone (scripted backend, no HTTP): {1000 * wall / max(calls, 1):.3f} ms/call")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
