"""`compsim`: the command line. Every subcommand registers its flags here, and its words for
users come from sim.commands.guide; user errors print one line and exit 2, never a traceback.

Exit codes: 0 ok; 1 a run finished with errors, or a gate found a regression;
2 usage or input error, or a file that cannot be written (a full disk, a read-only folder);
3 a gate was inconclusive; 4 a worker process died mid-run (killed, out of memory: the run
resumes); 130 interrupted (Ctrl-C); 143 terminated (SIGTERM, handled as Ctrl-C).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import platform
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any

from sim.errors import UserError, one_line
from sim.prompts.templates import ANYWHERE_ENV

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_WORKER_DIED, EXIT_TERMINATED = 4, 143


class Terminated(KeyboardInterrupt):
    """SIGTERM (a CI timeout, `kill PID`, a container stop): unwound like Ctrl-C, so a run
    keeps every finished unit, says how to resume, and exits 143."""


def _on_sigterm(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it at once
    raise Terminated


_UNSAFE = {c: f"\\x{c:02x}" for c in (*range(32), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\n\t"}
_UNSAFE |= {c: f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


class _Escaping:
    """stdout that shows control characters (an escape sequence, a carriage return, a bidi
    override from a scenario or a baseline) as text instead of sending them to the terminal;
    tables escape their cells themselves, this is the net under every other line."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return int(self._stream.write(text.translate(_UNSAFE)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _say(line: str) -> None:
    """One `compsim:` line on stderr, escaped and capped; a closed stderr is not an error."""
    with contextlib.suppress(OSError, ValueError):
        print(f"compsim: {one_line(line)}", file=sys.stderr)


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
    "sim.commands.regrade",
    "sim.commands.calibrate",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        _say(f"error: {message}")
        raise SystemExit(EXIT_USAGE)


def version_line() -> str:
    """`compsim 0.1.0 from /path/to/sim (Python 3.11.9)`: the installed distribution's version,
    else (a source tree on the path, not installed) its pyproject.toml's, saying so; and where
    the code that runs lives, since an editable install and PYTHONPATH can differ."""
    from importlib import metadata

    from sim.files import read_toml

    package = Path(__file__).resolve().parents[1]
    try:
        version = metadata.version("compaction-sim")
    except metadata.PackageNotFoundError:
        try:
            project = read_toml(package.parent / "pyproject.toml", "pyproject", UserError, 1 << 20)
            version = f"{project['project']['version']} (not installed)"
        except (UserError, KeyError, TypeError):
            version = "unknown (not installed)"
    return f"compsim {version} from {package} (Python {platform.python_version()})"


class _Version(argparse.Action):
    """`--version`, computed only when asked (it imports the package metadata)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(version_line())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from sim.commands.guide import apply

    parser = _Parser(prog="compsim")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    subs = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, title="commands", metavar="COMMAND"
    )
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subs)
    apply(parser)
    return parser


def _warning(message: warnings.WarningMessage | Warning | str, *_: object, **__: object) -> None:
    _say(f"warning: {message}")


def _check_paths(args: argparse.Namespace) -> None:
    """A NUL byte cannot be part of a path (os calls raise ValueError deep inside a command),
    and a path that is not UTF-8 cannot be written into a manifest or a report."""
    for name, value in vars(args).items():
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, str | Path):
                continue
            text = str(item)
            if "\x00" in text:
                raise UserError(f"{name}={text!r}: a NUL byte cannot be part of a path")
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise UserError(f"{name}={text!r}: not UTF-8 text; name it in UTF-8") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    warnings.showwarning = lambda m, *a, **k: _warning(m)  # one line, no source excerpt
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    stdout = sys.stdout
    sys.stdout = _Escaping(stdout)
    anywhere = os.environ.get(ANYWHERE_ENV)
    if getattr(args, "prompt_files_anywhere", False):  # read by workers too: the environment
        os.environ[ANYWHERE_ENV] = "1"
    try:
        _check_paths(args)
        code: int = args.func(args)
        sys.stdout.flush()  # a reader that stopped shows here, not in the exit-time flush
    except BrokenPipeError:  # `compsim list | head`: the reader stopped, not an error
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except UserError as exc:
        _say(f"error: {exc}")
        return EXIT_USAGE
    except OSError as exc:  # a full disk, a read-only folder: the file and why, in one line
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"error: {where}{exc.strerror or exc}")
        return EXIT_USAGE
    except Terminated:
        _say("terminated (SIGTERM)")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except BrokenExecutor as exc:  # the runner has said how to resume
        _say(f"error: a worker process died (killed, out of memory?): {exc}")
        return EXIT_WORKER_DIED
    finally:
        sys.stdout = stdout
        if anywhere is None:
            os.environ.pop(ANYWHERE_ENV, None)
        else:
            os.environ[ANYWHERE_ENV] = anywhere
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return code


if __name__ == "__main__":
    sys.exit(main())
