"""A chat backend as the model adapter sees it: the protocol, its generation settings, its answer.

Kept apart from the adapter (sim.summarizers.model) so the record/replay cache can store and
return answers without importing the adapter that calls it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True, slots=True)
class GenParams:
    """Generation settings sent with every call (and part of the cache key)."""

    max_tokens: int
    temperature: float = 0.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    """One backend answer. Token counts are the backend's own (None when it gives none)."""

    text: str
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, raw: str) -> Completion:
        data = json.loads(raw)
        return cls(
            str(data["text"]),
            str(data.get("finish_reason", "stop")),
            data.get("prompt_tokens"),
            data.get("completion_tokens"),
        )

    @property
    def cut(self) -> bool:
        return self.finish_reason == "length"


class ChatModel(Protocol):
    """A backend. `identity` names what answers (no secrets): it is part of the cache key."""

    backend: str
    max_input_tokens: int

    def identity(self) -> dict[str, str]: ...

    def complete(self, prompt: str, params: GenParams, rng: np.random.Generator) -> Completion: ...
