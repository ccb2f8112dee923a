"""Tiny real models for the slow tests, built once per session (torch and transformers are
imported once: that import alone costs seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.sim.summarizers.tiny_model import build_tiny_model

    root = tmp_path_factory.mktemp("tiny")
    return {
        "rambling": build_tiny_model(root / "rambling"),
        "quiet": build_tiny_model(root / "quiet", quiet=True),
    }
