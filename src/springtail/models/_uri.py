"""Pick a chat model from one string, as a command line or a config file gives it.

``scheme:rest``: the scheme names the provider, the rest is what that
provider needs (a model name, a URL, a file). Keyword arguments go to the
provider's constructor, so ``from_uri("ollama:qwen3.5:4b", think=False)``
works. The provider module is imported only for the scheme used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from springtail.models._base import ChatModel

__all__ = ["SCHEMES", "from_uri"]

SCHEMES: dict[str, str] = {
    "llamacpp": "llamacpp:embedded | llamacpp:embedded-small | llamacpp:/path/to/model.gguf",
    "ollama": "ollama:qwen3.5:4b",
    "openai": "openai:gpt-4o-mini",
    "openai-compatible": "openai-compatible:http://127.0.0.1:8080/v1[#model-name]",
    "anthropic": "anthropic:claude-sonnet-5-5",
}
"""Every scheme :func:`from_uri` knows, with an example of each."""


def _build(module: str, name: str) -> Callable[..., ChatModel]:
    factory: Callable[..., ChatModel] = getattr(
        importlib.import_module(f"springtail.models.{module}"), name
    )
    return factory


def from_uri(uri: str, **kwargs: Any) -> ChatModel:
    """A chat model for ``uri``.

    - ``llamacpp:embedded`` (default 1.5B), ``llamacpp:embedded-small`` (0.5B)
      or ``llamacpp:/path/to/model.gguf``;
    - ``ollama:MODEL`` (the rest may contain ``:``, as in ``qwen3.5:4b``);
      the server comes from ``OLLAMA_HOST`` or ``host=``;
    - ``openai:MODEL``, with the key from ``OPENAI_API_KEY``;
    - ``openai-compatible:URL`` or ``openai-compatible:URL#MODEL``: any
      OpenAI-compatible server; without ``#MODEL`` the model name sent is
      ``default`` (servers that serve one model ignore it);
    - ``anthropic:MODEL``, with the key from ``ANTHROPIC_API_KEY``.

    Raises:
        ValueError: The scheme is unknown or the rest is empty; the message
            lists the schemes with an example of each.
    """
    scheme, sep, rest = uri.partition(":")
    scheme = scheme.strip().lower()
    rest = rest.strip()
    if not sep or scheme not in SCHEMES:
        raise ValueError(f"Unknown model URI {uri!r}: use one of {_examples()}.")
    if not rest:
        raise ValueError(f"Model URI {uri!r} names no model: write it as {SCHEMES[scheme]}.")
    if scheme == "llamacpp":
        return _build("_llamacpp", "LlamaCppChatModel")(model=rest, **kwargs)
    if scheme == "ollama":
        return _build("_ollama", "OllamaChatModel")(model=rest, **kwargs)
    if scheme == "openai":
        return _build("_openai", "OpenAIChatModel")(model=rest, **kwargs)
    if scheme == "anthropic":
        return _build("_anthropic", "AnthropicChatModel")(model=rest, **kwargs)
    base_url, _, model = rest.partition("#")
    if not base_url.startswith(("http://", "https://")):
        raise ValueError(
            f"Model URI {uri!r} needs an http(s) URL after 'openai-compatible:', "
            f"as in {SCHEMES['openai-compatible']}."
        )
    kwargs.setdefault("model", model or "default")
    return _build("_openai", "OpenAIChatModel")(base_url=base_url, **kwargs)


def _examples() -> str:
    return ", ".join(SCHEMES.values())
