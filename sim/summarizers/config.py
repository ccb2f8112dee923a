"""The `[summarizer]` table of a scenario: which backend summarizes, how it is reached, and
the record/replay cache. Validated eagerly; every error names the field and the value (never
the value of `api_key_env`'s variable: only its name is ever written down).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from sim.summarizers.faulty import FaultConfig
from sim.summarizers.simulated_params import check_knobs

MODEL_BACKENDS = ("scripted", "http", "local", "llama")
DEFAULT_DEADLINE_S = 900.0


class SummarizerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(
        "simulated",
        description="simulated | scripted | http | local | llama | callable | plug-in.",
    )
    params: dict[str, float | int] = Field(
        default_factory=dict, description="Simulated summarizer knobs (SimParams)."
    )
    level_params: dict[str, dict[str, float | int]] = Field(
        default_factory=dict,
        description="Simulated: one level's own knobs, over `params` (compsim calibrate "
        'writes them; `params = "file:params.toml"` reads both from a file).',
    )
    script: Literal["rules", "echo"] = Field("rules", description="Scripted backend behaviour.")
    base_url: str | None = Field(None, description="http: OpenAI-compatible base URL (…/v1).")
    model: str | None = Field(
        None,
        description="http: the model id the server expects; llama: a packaged model's name.",
    )
    api_key_env: str | None = Field(
        None,
        pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,127}$",
        description="http: NAME of the environment variable holding the API key.",
    )
    connect_timeout_s: float = Field(10.0, gt=0, le=600)
    read_timeout_s: float = Field(
        600.0,
        gt=0,
        le=7200,
        description="http: seconds one socket read may wait; an attempt ends after "
        "connect_timeout_s + this at most, however slowly the reply trickles in.",
    )
    deadline_s: float = Field(
        DEFAULT_DEADLINE_S, gt=0, le=86_400, description="http: total seconds one request may take."
    )
    max_retries: int = Field(4, ge=0, le=20, description="Retries on 429/5xx/timeouts.")
    max_concurrency: int = Field(
        32,
        ge=1,
        le=256,
        description="http: requests in flight per process (threads with --jobs 1; a GPU "
        "server batches them). Not part of the run's spec: it cannot change a result.",
    )
    revision: str = Field("", max_length=200, description="http: model revision, for the key.")
    send_seed: bool = Field(True, description="http: send `seed` (some servers reject it).")
    model_path: str | None = Field(
        None, description="local: model folder or .gguf file; llama: a .gguf file (or folder)."
    )
    threads: int | None = Field(
        None,
        ge=1,
        le=1024,
        description="local: torch CPU threads per worker (default 1); llama: threads "
        "(default: the CPUs this process may use, at most 4).",
    )
    extra_bufts: bool = Field(
        False, description="llama: ggml's extra CPU buffer types (crashed on some VMs)."
    )
    context_tokens: int | None = Field(None, ge=256, le=10_000_000)
    cache: str | None = Field(None, description="Record/replay cache file (SQLite).")
    cache_mode: Literal["read-write", "read-only", "off"] = "read-write"
    probe: bool = Field(False, description="Ask a forced-choice question per fact at the leaf.")
    callable: str | None = Field(
        None,
        max_length=1000,
        description="callable: `pkg.mod:fn` or `file.py:fn`, your own model call "
        "(sim.summarizers.from_callable).",
    )
    faults: FaultConfig | None = Field(
        None, description="Injected faults around this summarizer (sim.summarizers.faulty)."
    )

    @model_serializer(mode="wrap")
    def _without_unset_faults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # absent unless set, so scenarios without faults dump (and hash) as they always did
        data: dict[str, Any] = handler(self)
        if self.faults is None:
            data.pop("faults", None)
        if self.callable is None:  # likewise
            data.pop("callable", None)
        if not self.extra_bufts:  # the llama backend's switch, likewise absent unless set
            data.pop("extra_bufts", None)
        if not self.level_params:  # likewise
            data.pop("level_params", None)
        if self.deadline_s == DEFAULT_DEADLINE_S:  # baselines recorded before it stay equal
            data.pop("deadline_s", None)
        return data

    @model_validator(mode="before")
    @classmethod
    def _no_key_values(cls, data: Any) -> Any:
        # checked before field validation so a pasted key is never echoed in an error
        if isinstance(data, dict):
            env = data.get("api_key_env")
            if isinstance(env, str) and not env.replace("_", "").isalnum():
                raise ValueError(
                    "api_key_env must be the NAME of an environment variable (letters, digits, "
                    "underscores), not the key itself"
                )
            if "api_key" in data:
                raise ValueError("api_key is not accepted; set api_key_env to a variable's name")
            for key in ("cache", "model_path", "base_url"):
                if isinstance(data.get(key), str) and "\x00" in data[key]:
                    raise ValueError(f"{key}={data[key]!r}: contains a NUL byte")
        return data

    @field_validator("params")
    @classmethod
    def _known_params(cls, v: dict[str, float | int]) -> dict[str, float | int]:
        check_knobs(v)
        return v

    @field_validator("level_params")
    @classmethod
    def _known_level_params(
        cls, v: dict[str, dict[str, float | int]]
    ) -> dict[str, dict[str, float | int]]:
        for level, knobs in v.items():
            try:
                cls._known_params(knobs)
            except ValueError as exc:
                raise ValueError(f"level {level!r}: {exc}") from None
        return v

    @model_validator(mode="after")
    def _complete(self) -> SummarizerConfig:
        if self.name == "http" and not (self.base_url and self.model):
            raise ValueError("summarizer 'http' needs base_url and model")
        if (self.name == "callable") != (self.callable is not None):
            raise ValueError("summarizer 'callable' and a `callable` reference go together")
        if self.name == "local" and not self.model_path:
            raise ValueError("summarizer 'local' needs model_path")
        if self.name == "llama" and not (self.model or self.model_path):
            raise ValueError(
                "summarizer 'llama' needs model (a packaged model's name) or model_path"
            )
        if self.params and self.name != "simulated":
            raise ValueError(f"params are simulated-summarizer knobs; summarizer is {self.name!r}")
        return self

    @property
    def uses_model(self) -> bool:
        return self.name != "simulated"

    def public(self) -> dict[str, Any]:
        """What the run manifest records: every setting, no secret (there is none to leak)."""
        return self.model_dump(mode="json")
