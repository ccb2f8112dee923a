"""`compsim list strategies|scenarios|summarizers`: what a scenario file can name."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.errors import UserError
from sim.files import read_toml
from sim.runs.scenario import MAX_SCENARIO_BYTES

SUMMARIZERS = {
    "simulated": "seeded model of an abstractive summarizer (default; offline, zero cost)",
    "scripted": "deterministic rule-following chat backend, for tests and dry runs",
    "http": "OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama, hosted), record/replay cache",
    "local": "a local transformers model, record/replay cache",
    "callable": "your own model call by reference: --summarizer pkg.mod:fn or file.py:fn",
}


def register(subs: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subs.add_parser("list", help="list strategies, scenarios or summarizers")
    p.add_argument("what", choices=("strategies", "scenarios", "summarizers"))
    p.add_argument(
        "--dir", type=Path, default=Path("scenarios"), help="scenario folder (default scenarios/)"
    )
    p.set_defaults(func=run)


def _first_line(doc: str | None) -> str:
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def _aligned(pairs: list[tuple[str, str]]) -> str:
    width = max((len(a) for a, _ in pairs), default=0)
    return "\n".join(f"{a:<{width}}  {b}".rstrip() for a, b in pairs)


def strategies() -> list[tuple[str, str]]:
    from strategies.registry import _FACTORIES, strategy_names

    return [(n, _first_line(_FACTORIES[n].__doc__)) for n in strategy_names()]


def summarizers() -> list[tuple[str, str]]:
    from sim.summarizers.registry import _FACTORIES, summarizer_names

    return [
        (n, SUMMARIZERS.get(n) or _first_line(_FACTORIES[n].__doc__)) for n in summarizer_names()
    ]


def scenarios(folder: Path) -> list[tuple[str, str]]:
    """Every *.toml in the folder with its description (read, not validated: `compsim run`
    validates)."""
    if not folder.is_dir():
        raise UserError(f"--dir {folder}: no such folder")
    out = []
    for path in sorted(folder.glob("*.toml")):
        try:
            data = read_toml(path, "scenario", UserError, MAX_SCENARIO_BYTES)
            text = str(data.get("description") or "")
        except UserError as exc:
            text = f"(unreadable: {str(exc).removeprefix(f'{path}: ')})"
        out.append((str(path), text))
    return out


def run(args: argparse.Namespace) -> int:
    if args.what == "strategies":
        pairs = strategies()
    elif args.what == "summarizers":
        pairs = summarizers()
    else:
        pairs = scenarios(args.dir)
    print(_aligned(pairs) if pairs else f"(no {args.what})")
    return 0
