"""The docs site's API reference has a rendered entry for every public name."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import springtail

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
PACKAGES = ["messages", "tools", "execution", "models", "memory", "client", "mcp", "durable"]


def _public(package: str) -> list[str]:
    return list(importlib.import_module(f"springtail.{package}").__all__)


def _owner(name: str) -> str:
    return next(p for p in PACKAGES if name in _public(p))


@pytest.mark.parametrize("package", PACKAGES)
def test_every_name_of_a_sub_package_has_an_entry_on_its_page(package: str) -> None:
    page = (REFERENCE / f"{package}.md").read_text(encoding="utf-8")
    entries = re.findall(rf"^::: springtail\.{package}\.(\w+)$", page, flags=re.MULTILINE)
    missing = [name for name in _public(package) if name not in entries]
    assert not missing, (
        f"add '::: springtail.{package}.NAME' to docs/reference/{package}.md: {missing}"
    )
    assert sorted(entries) == sorted(set(entries)), "an entry is written twice"


def test_every_top_level_name_links_to_its_entry() -> None:
    index = (REFERENCE / "index.md").read_text(encoding="utf-8")
    names = [name for name in springtail.__all__ if name != "__version__"]
    missing = [
        name
        for name in names
        if f"({_owner(name)}.md#springtail.{_owner(name)}.{name})" not in index
    ]
    assert not missing, f"docs/reference/index.md lacks a row for: {missing}"


def test_the_reference_pages_are_in_the_site_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for package in PACKAGES:
        assert f"reference/{package}.md" in config


def test_the_built_site_renders_every_entry(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings", reason="needs the docs group (part of test)")
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stderr[-3000:]
    for package in PACKAGES:
        html = (site / "reference" / package / "index.html").read_text(encoding="utf-8")
        unrendered = [
            name for name in _public(package) if f'id="springtail.{package}.{name}"' not in html
        ]
        assert not unrendered, f"springtail.{package}: no rendered entry for {unrendered}"
        # Markdown renders a role's backticks as <code>: what is left is ":meth:<code>x</code>".
        roles = re.findall(r":(?:class|meth|func|attr|data|mod|exc|obj|const):(?:`|<code>)", html)
        assert not roles, f"Sphinx roles left as text (write ``X`` or [`X`][]): {roles[:5]}"
        assert not re.search(r"\S::</p>", html), "a Sphinx '::' block opener (fence the example)"
