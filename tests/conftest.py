"""Fixtures shared by every test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


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
