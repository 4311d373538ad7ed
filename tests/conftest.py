"""Fixtures shared by every test module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session", autouse=True)
def _prompt_cache_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the embedded model's prompt cache out of the user's cache folder."""
    previous = os.environ.get("SPRINGTAIL_PROMPT_CACHE_DIR")
    os.environ["SPRINGTAIL_PROMPT_CACHE_DIR"] = str(tmp_path_factory.mktemp("prompt-cache"))
    yield
    if previous is None:
        del os.environ["SPRINGTAIL_PROMPT_CACHE_DIR"]
    else:
        os.environ["SPRINGTAIL_PROMPT_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def embedded_model() -> Iterator[Any]:
    """The embedded default model (``LlamaCppChatModel("embedded")``), loaded once per session.

    Loading costs about a second and 2 GB of memory, and a follow-up prompt
    that shares a prefix with the previous one reuses its KV cache, so every
    test that needs the real model shares this one. Tests using it carry
    ``@pytest.mark.model``.
    """
    pytest.importorskip("llama_cpp")
    from springtail.models._llamacpp import LlamaCppChatModel

    model = LlamaCppChatModel("embedded")
    yield model
    model.close()
