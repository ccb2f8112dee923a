"""The SQLite record/replay cache: keys, modes, schema, and several writer processes."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sim.summarizers.backend import Completion
from sim.summarizers.cache import CacheError, CallCache, CallKey, open_cache


def key(i: int = 0, **kw: Any) -> CallKey:
    fields: dict[str, object] = {
        "backend": "http",
        "identity": (("base_url", "http://127.0.0.1:8080/v1"), ("model", "m"), ("revision", "")),
        "params": (("max_tokens", 200), ("seed", 5), ("temperature", 0.0)),
        "prompt_sha256": f"{i:064x}",
        "level": "L2",
        "trial_seed": 5,
        "repeat": 0,
    }
    fields.update(kw)
    return CallKey(**fields)  # type: ignore[arg-type]


def test_round_trip_and_stats(tmp_path: Path) -> None:
    cache = CallCache(tmp_path / "c.sqlite")
    assert cache.get(key()) is None
    cache.put(key(), Completion("Do not rotate the credential.", "stop", 10, 6))
    got = cache.get(key())
    assert got == Completion("Do not rotate the credential.", "stop", 10, 6)
    assert cache.stats.hits == 1 and cache.stats.misses == 1
    assert cache.stats.bytes_written > 0 and cache.stats.bytes_read == cache.stats.bytes_written


@pytest.mark.parametrize(
    "change",
    [
        {"backend": "local"},
        {"identity": (("base_url", "http://127.0.0.1:8081/v1"), ("model", "m"), ("revision", ""))},
        {"identity": (("base_url", "http://127.0.0.1:8080/v1"), ("model", "m"), ("revision", "b"))},
        {"params": (("max_tokens", 201), ("seed", 5), ("temperature", 0.0))},
        {"prompt_sha256": "f" * 64},
        {"level": "L3"},
        {"trial_seed": 6},
        {"repeat": 1},
    ],
)
def test_every_key_field_matters(tmp_path: Path, change: dict[str, Any]) -> None:
    cache = CallCache(tmp_path / "c.sqlite")
    cache.put(key(), Completion("x"))
    assert cache.get(key(**change)) is None


def test_read_only_miss_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    CallCache(path).put(key(1), Completion("x"))
    ro = CallCache(path, "read-only")
    assert ro.get(key(1)) == Completion("x")
    with pytest.raises(CacheError, match="read-only"):
        ro.get(key(2))


def test_read_only_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(CacheError, match="does not exist"):
        CallCache(tmp_path / "missing.sqlite", "read-only")


def test_off_means_no_cache(tmp_path: Path) -> None:
    assert open_cache(tmp_path / "c.sqlite", "off") is None
    assert open_cache(None, "read-write") is None
    assert not (tmp_path / "c.sqlite").exists()


def test_newer_schema_and_garbage_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    CallCache(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value='99' WHERE name='schema_version'")
    with pytest.raises(CacheError, match="schema_version=99"):
        CallCache(path)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(CacheError, match="not a usable cache file"):
        CallCache(junk)


def test_rows_hold_json_only(tmp_path: Path) -> None:
    cache = CallCache(tmp_path / "c.sqlite")
    cache.put(key(), Completion("x", "length", None, 3))
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        ((key_json, response),) = conn.execute("SELECT key_json, response FROM calls").fetchall()
    assert '"level":"L2"' in key_json
    assert (
        response
        == '{"completion_tokens": 3, "finish_reason": "length", "prompt_tokens": null, "text": "x"}'
    )


def _writer(path: str, start: int) -> None:
    cache = CallCache(Path(path))
    for i in range(start, start + 60):
        cache.put(key(i), Completion(f"answer {i}"))
        cache.get(key(i))


def test_several_processes_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    CallCache(path).close()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), s)) for s in (0, 30, 60)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    cache = CallCache(path, "read-only")
    assert cache.rows() == 120  # overlapping keys were written once
    assert all(cache.get(key(i)) == Completion(f"answer {i}") for i in range(120))


def test_the_main_file_alone_holds_every_row(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = CallCache(path)  # stays open: its -wal file is still there
    for i in range(5):
        cache.put(key(i), Completion(f"answer {i}"))
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(path.read_bytes())  # without the -wal and -shm files
    assert CallCache(copy, "read-only").rows() == 5
