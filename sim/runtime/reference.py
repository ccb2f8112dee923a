"""A runtime's own callable, named by reference: `pkg.module:attr` or `path/to/file.py:attr`.

A reference is a string, so it travels to worker processes (process pool, forkserver, Ray) and
into the run manifest, and each process imports the callable itself; nothing is pickled.
Module references are imported as usual, with the current directory on `sys.path` as a last
resort (a console script does not put it there); file references are loaded from the file,
once per process, under a module name derived from the file's absolute path. Every problem is
one `ReferenceLoadError` naming the reference: a CLI prints it and exits 2 before any trial.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim.errors import UserError

MAX_SOURCE_BYTES = 1 << 20
"""A file reference names one module of Python source; a larger file is a mistake."""

_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_ATTR = _MODULE  # `attr` or `Outer.attr`
_LOADED: dict[str, Any] = {}


class ReferenceLoadError(UserError):
    """A reference that does not name an importable callable of the right shape."""


def is_reference(value: object) -> bool:
    """Whether a value looks like `module:attr` or `file.py:attr` (not a registered name)."""
    return isinstance(value, str) and ":" in value and not value.startswith("file:")


def split_reference(ref: str) -> tuple[str, str]:
    """(module or file path, attribute path); a Windows drive letter stays with the path."""
    where, sep, attr = ref.rpartition(":")
    if not sep or not where or not attr:
        raise ReferenceLoadError(f"{ref!r}: expected 'pkg.module:function' or 'file.py:function'")
    if "\x00" in ref:
        raise ReferenceLoadError(f"{ref!r}: a NUL byte cannot be part of a reference")
    if not _ATTR.match(attr):
        raise ReferenceLoadError(f"{ref!r}: {attr!r} is not a Python name")
    return where, attr


def is_file_reference(ref: str) -> bool:
    where, _ = split_reference(ref)
    return where.endswith(".py") or "/" in where or os.sep in where


def _module_name(path: Path) -> str:
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    stem = re.sub(r"\W", "_", path.stem)
    return f"compsim_user_{stem}_{digest}"


def _load_file(ref: str, where: str) -> Any:
    path = Path(where).resolve()
    try:
        if not path.is_file():
            raise ReferenceLoadError(f"{ref!r}: {where}: no such file")
        size = path.stat().st_size
    except OSError as exc:
        raise ReferenceLoadError(f"{ref!r}: {where}: cannot read ({exc.strerror})") from None
    if size > MAX_SOURCE_BYTES:
        raise ReferenceLoadError(f"{ref!r}: {where}: larger than {MAX_SOURCE_BYTES} bytes")
    name = _module_name(path)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ReferenceLoadError(f"{ref!r}: {where}: not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and decorators look their module up by name
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ReferenceLoadError(f"{ref!r}: importing {where} raised {_short(exc)}") from None
    return module


def _load_module(ref: str, where: str) -> Any:
    if not _MODULE.match(where):
        raise ReferenceLoadError(f"{ref!r}: {where!r} is not a module name or a .py file")
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as exc:
        cwd = os.getcwd()
        if exc.name is None or not where.startswith(exc.name) or cwd in sys.path:
            raise ReferenceLoadError(f"{ref!r}: importing {where} raised {_short(exc)}") from None
        sys.path.append(cwd)  # a console script's sys.path lacks the working directory
        return _load_module(ref, where)
    except Exception as exc:
        raise ReferenceLoadError(f"{ref!r}: importing {where} raised {_short(exc)}") from None


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


def load_reference(ref: str) -> Any:
    """The object `ref` names, imported once per process."""
    if ref in _LOADED:
        return _LOADED[ref]
    where, attr = split_reference(ref)
    if where == LOCAL:
        raise ReferenceLoadError(
            f"{ref!r}: a callable passed in memory is known only to the process that got it; "
            "worker processes need a 'pkg.mod:fn' or 'file.py:fn' reference"
        )
    module = _load_file(ref, where) if is_file_reference(ref) else _load_module(ref, where)
    value: Any = module
    for part in attr.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise ReferenceLoadError(f"{ref!r}: {where} has no attribute {attr!r}") from None
    _LOADED[ref] = value
    return value


def load_callable(ref: str, positional: int | None, what: str) -> Callable[..., Any]:
    """The callable `ref` names, checked to accept `positional` positional arguments (None:
    not checked, e.g. a factory called with keyword arguments)."""
    value = load_reference(ref)
    if not callable(value):
        raise ReferenceLoadError(f"{ref!r}: is a {type(value).__name__}, not a callable {what}")
    if positional is not None:
        check_arity(ref, value, positional, what)
    fn: Callable[..., Any] = value
    return fn


def check_arity(ref: str, fn: Callable[..., Any], positional: int, what: str) -> None:
    """A wrong signature is one line naming the reference, not a TypeError in every trial."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature: trust it
        return
    try:
        signature.bind(*range(positional))
    except TypeError as exc:
        raise ReferenceLoadError(
            f"{ref!r}: a {what} is called with {positional} positional arguments; "
            f"its signature {signature} does not accept them ({exc})"
        ) from None


def reference_of(fn: Callable[..., Any]) -> str | None:
    """A reference another process can import `fn` by, else None (a lambda, a closure,
    something defined in `__main__`). A module inside a package is named by module (worker
    processes inherit `sys.path`); a lone module, such as a test file, by its file."""
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", "")
    if not module or module == "__main__" or "<" in qualname:
        return None
    mod = sys.modules.get(module)
    file = getattr(mod, "__file__", None)
    if file and (module.startswith("compsim_user_") or not getattr(mod, "__package__", "")):
        ref = f"{Path(file).resolve()}:{qualname}"
    else:
        ref = f"{module}:{qualname}"
    found: Any = mod
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if found is not fn:
        return None
    _LOADED.setdefault(ref, fn)  # this process has it already: never import a module twice
    return ref


LOCAL = "<in-process>"


def local_reference(fn: Callable[..., Any]) -> str:
    """A reference valid in this process only (a lambda, a closure): runs with one process."""
    name = re.sub(r"\W", "_", getattr(fn, "__name__", "fn")) or "fn"
    ref = f"{LOCAL}:{name}_{id(fn):x}"
    _LOADED[ref] = fn
    return ref
