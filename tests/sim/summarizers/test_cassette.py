"""Cassettes: a SQLite cache exported to JSONL and imported back is the same set of calls, a
cassette opens as a read-only cache, and a bad line is one error naming the file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.commands.main import main
from sim.summarizers.backend import Completion
from sim.summarizers.cache import CacheError, CallCache, CallKey
from sim.summarizers.cassette import CassetteCache, export_jsonl, import_jsonl


def _key(i: int) -> CallKey:
    return CallKey(
        backend="llama",
        identity=(("model", "m.gguf"), ("revision", "abc")),
        params=(("max_tokens", 40), ("seed", 7), ("temperature", 0.0)),
        prompt_sha256=f"{i:064x}",
        level="L1",
        trial_seed=7,
        repeat=0,
    )


def _db(path: Path, n: int = 3) -> Path:
    cache = CallCache(path, "read-write")
    for i in range(n):
        cache.put(_key(i), Completion(f"summary {i}\nDo not rotate it.", "stop", 30, 9))
    cache.close()
    return path


def test_export_import_round_trip(tmp_path: Path) -> None:
    db = _db(tmp_path / "a.sqlite")
    out = tmp_path / "c.jsonl"
    assert export_jsonl(db, out) == 3
    lines = out.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    assert first["reply"]["text"] == "summary 0\nDo not rotate it."
    assert {"backend", "identity", "params", "prompt_sha256", "level", "trial_seed"} <= set(first)
    assert import_jsonl(out, tmp_path / "b.sqlite") == (3, 3)
    assert import_jsonl(out, tmp_path / "b.sqlite") == (3, 0)  # rows are immutable
    again = tmp_path / "d.jsonl"
    export_jsonl(tmp_path / "b.sqlite", again)
    assert again.read_bytes() == out.read_bytes()


def test_cassette_is_a_read_only_cache(tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    export_jsonl(_db(tmp_path / "a.sqlite"), out)
    cassette = CassetteCache(out)
    assert cassette.get(_key(1)) == Completion("summary 1\nDo not rotate it.", "stop", 30, 9)
    assert cassette.stats.hits == 1
    with pytest.raises(CacheError, match=r"no recorded answer .* a cassette is read-only"):
        cassette.get(_key(99))
    with pytest.raises(CacheError, match=r"a cassette .* is read-only"):
        CassetteCache(out, "read-write")


def test_bad_lines_name_the_file_and_line(tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    export_jsonl(_db(tmp_path / "a.sqlite"), out)
    lines = out.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace('"prompt_sha256":"', '"prompt_sha256":"zz')
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CacheError, match=rf"^{out}:2: prompt_sha256"):
        CassetteCache(out)
    out.write_text("not json\n", encoding="utf-8")
    with pytest.raises(CacheError, match=rf"^{out}:1: "):
        import_jsonl(out, tmp_path / "x.sqlite")
    assert not (tmp_path / "x.sqlite").exists()  # nothing written from a bad cassette


def test_cli_export_and_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _db(tmp_path / "a.sqlite")
    out = tmp_path / "c.jsonl"
    assert main(["cache", "export", str(db), str(out)]) == 0
    assert "3 calls" in capsys.readouterr().out
    assert main(["cache", "import", str(out), str(tmp_path / "b.sqlite")]) == 0
    assert "3 new rows" in capsys.readouterr().out
    assert main(["cache", "export", str(db), str(tmp_path / "c.txt")]) == 2
    assert main(["cache", "export", str(tmp_path / "none.sqlite"), str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("compsim: error: ") and "does not exist" in err[-1]
