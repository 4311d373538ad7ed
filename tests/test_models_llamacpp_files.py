"""Joining and verifying the embedded model, on a small fake part set (no 1 GB copies)."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
from pathlib import Path

import pytest

from springtail.models import ModelUnavailableError
from springtail.models._llamacpp import _files
from springtail.models._llamacpp._files import ModelSpec, assemble_model, find_parts

CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]


def _install_fake_parts(site: Path, prefix: str, chunks: list[bytes], version: str) -> None:
    """Lay out part packages the way the real wheels do: pkg/data/partNN.bin + dist-info."""
    for i, chunk in enumerate(chunks, start=1):
        dist = f"{prefix}{i}"
        module = dist.replace("-", "_")
        data = site / module / "data"
        data.mkdir(parents=True)
        (data / f"part{i:02d}.bin").write_bytes(chunk)
        (site / module / "__init__.py").write_text("")
        info = site / f"{module}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.4\nName: {dist}\nVersion: {version}\n")
        (info / "RECORD").write_text(
            f"{module}/__init__.py,,\n{module}/data/part{i:02d}.bin,,\n{info.name}/METADATA,,\n"
        )


def _spec(prefix: str, payload: bytes, *, count: int = 3, sha256: str | None = None) -> ModelSpec:
    return ModelSpec(
        name="fake",
        file_name="fake.gguf",
        package_prefix=prefix,
        part_count=count,
        version="1.0.0",
        size=len(payload),
        sha256=sha256 or hashlib.sha256(payload).hexdigest(),
        extra="embedded",
    )


@pytest.fixture
def fake_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> str:
    """A site folder on sys.path holding a fake three-part model with a unique name."""
    prefix = f"fake-model-{request.node.name.replace('_', '-')}-part"
    site = tmp_path / "site"
    site.mkdir()
    _install_fake_parts(site, prefix, CHUNKS, "1.0.0")
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    return prefix


def test_parts_join_in_order_into_a_verified_file(fake_site: str, tmp_path: Path) -> None:
    payload = b"".join(CHUNKS)
    target = assemble_model(_spec(fake_site, payload), tmp_path / "cache")
    assert target.read_bytes() == payload
    assert [p.name for p in find_parts(_spec(fake_site, payload))] == [
        "part01.bin",
        "part02.bin",
        "part03.bin",
    ]
    # No temporary files left beside the model.
    assert sorted(p.name for p in target.parent.iterdir()) == [
        "fake.gguf",
        "fake.gguf.verified.json",
    ]


def test_a_verified_file_is_reused_without_the_parts(
    fake_site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _spec(fake_site, b"".join(CHUNKS))
    target = assemble_model(spec, tmp_path / "cache")

    def no_parts(spec: ModelSpec) -> list[Path]:
        raise AssertionError("the parts were read again")

    monkeypatch.setattr(_files, "find_parts", no_parts)
    assert assemble_model(spec, tmp_path / "cache") == target


def test_a_wrong_checksum_is_refused_and_nothing_is_left_behind(
    fake_site: str, tmp_path: Path
) -> None:
    spec = _spec(fake_site, b"".join(CHUNKS), sha256="0" * 64)
    cache = tmp_path / "cache"
    with pytest.raises(ModelUnavailableError) as info:
        assemble_model(spec, cache)
    message = str(info.value)
    assert f"{fake_site}1" in message
    assert "1.0.0" in message
    assert "pip install 'springtail[embedded]'" in message
    assert list(cache.iterdir()) == []


def test_a_missing_part_names_the_package_and_the_install_command(
    fake_site: str, tmp_path: Path
) -> None:
    spec = _spec(fake_site, b"".join(CHUNKS), count=4)
    with pytest.raises(ModelUnavailableError) as info:
        assemble_model(spec, tmp_path / "cache")
    assert f"missing: {fake_site}4" in str(info.value)
    assert "pip install 'springtail[embedded]'" in str(info.value)


def test_a_part_at_another_version_is_refused(fake_site: str, tmp_path: Path) -> None:
    payload = b"".join(CHUNKS)
    spec = dataclasses.replace(_spec(fake_site, payload), version="2.0.0")
    with pytest.raises(ModelUnavailableError, match=r"not at version 2\.0\.0: .*part1 1\.0\.0"):
        assemble_model(spec, tmp_path / "cache")


def test_a_cached_file_changed_after_verification_is_rejoined(
    fake_site: str, tmp_path: Path
) -> None:
    payload = b"".join(CHUNKS)
    spec = _spec(fake_site, payload)
    target = assemble_model(spec, tmp_path / "cache")
    target.write_bytes(b"X" + payload[1:])  # same size, new mtime: must be hashed again
    os.utime(target, ns=(1, 1))
    assert assemble_model(spec, tmp_path / "cache").read_bytes() == payload


def test_model_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SPRINGTAIL_MODEL_DIR", str(tmp_path))
    assert _files.model_dir() == tmp_path


def test_an_unknown_embedded_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"'embedded', 'embedded-small' or a path"):
        _files.ensure_model_file("embedded-huge")
