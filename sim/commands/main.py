"""`compsim`: the command line. Each subcommand lives in its own module (sim/commands/*)
and registers itself here; user errors print one line and exit 2, never a traceback.

Exit codes: 0 ok; 1 a run finished with errors, or a gate found a regression;
2 usage or input error, or a file that cannot be written (a full disk, a read-only folder);
3 a gate was inconclusive; 4 a worker process died mid-run (killed, out of memory: the run
resumes); 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from pathlib import Path

from sim.errors import UserError

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_WORKER_DIED = 4

# One module per subcommand; each defines `register(subparsers)` and sets `func(args) -> int`.
COMMAND_MODULES = (
    "sim.commands.demo",
    "sim.commands.run",
    "sim.commands.report",
    "sim.commands.list",
    "sim.commands.lint_prompt",
    "sim.commands.compare_prompts",
    "sim.commands.bench",
    "sim.commands.check",
    "sim.commands.baseline",
    "sim.commands.cache",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"compsim: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="compsim", description=__doc__.splitlines()[0] if __doc__ else None)
    subs = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subs)
    return parser


def _warning(message: warnings.WarningMessage | Warning | str, *_: object, **__: object) -> None:
    print(f"compsim: warning: {message}", file=sys.stderr)


def _check_nul(args: argparse.Namespace) -> None:
    """A NUL byte cannot be part of a path (os calls raise ValueError deep inside a command)."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str | Path) and "\x00" in str(item):
                raise UserError(f"{name}={str(item)!r}: a NUL byte cannot be part of a path")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    warnings.showwarning = lambda m, *a, **k: _warning(m)  # one line, no source excerpt
    try:
        _check_nul(args)
        code: int = args.func(args)
    except UserError as exc:
        print(f"compsim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # a full disk, a read-only folder: the file and why, in one line
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"compsim: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("compsim: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenExecutor as exc:  # the runner has said how to resume
        print(
            f"compsim: error: a worker process died (killed, out of memory?): {exc}",
            file=sys.stderr,
        )
        return EXIT_WORKER_DIED
    except BrokenPipeError:  # `compsim report ... | head`: the reader stopped, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
