"""Chat models: the ChatModel protocol, the scripted test double and the providers.

Providers are resolved lazily (PEP 562) so that importing this package never
imports llama.cpp or a provider SDK; each provider module imports its own
optional dependency only when a model is built.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from springtail.models._base import ChatModel, ModelError, ModelUnavailableError
from springtail.models._redact import mask_url

if TYPE_CHECKING:
    from springtail.models._anthropic import AnthropicChatModel as AnthropicChatModel
    from springtail.models._llamacpp import (
        LlamaCppChatModel as LlamaCppChatModel,
        PlainPolicy as PlainPolicy,
        SmallModelPolicy as SmallModelPolicy,
        ToolPolicy as ToolPolicy,
    )
    from springtail.models._ollama import OllamaChatModel as OllamaChatModel
    from springtail.models._openai import OpenAIChatModel as OpenAIChatModel
    from springtail.models._scripted import (
        ScriptedChatModel as ScriptedChatModel,
        ScriptExhaustedError as ScriptExhaustedError,
    )
    from springtail.models._uri import from_uri as from_uri

__all__ = [
    "AnthropicChatModel",
    "ChatModel",
    "LlamaCppChatModel",
    "ModelError",
    "ModelUnavailableError",
    "OllamaChatModel",
    "OpenAIChatModel",
    "PlainPolicy",
    "ScriptExhaustedError",
    "ScriptedChatModel",
    "SmallModelPolicy",
    "ToolPolicy",
    "from_uri",
    "mask_url",
]

_LAZY: dict[str, str] = {
    "AnthropicChatModel": "springtail.models._anthropic",
    "LlamaCppChatModel": "springtail.models._llamacpp",
    "OllamaChatModel": "springtail.models._ollama",
    "OpenAIChatModel": "springtail.models._openai",
    "PlainPolicy": "springtail.models._llamacpp",
    "SmallModelPolicy": "springtail.models._llamacpp",
    "ToolPolicy": "springtail.models._llamacpp",
    "ScriptExhaustedError": "springtail.models._scripted",
    "ScriptedChatModel": "springtail.models._scripted",
    "from_uri": "springtail.models._uri",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'springtail.models' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
