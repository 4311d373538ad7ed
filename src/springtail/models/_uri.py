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
from springtail.models._redact import mask_url

__all__ = ["SCHEMES", "from_uri"]

SCHEMES: dict[str, str] = {
    "llamacpp": "llamacpp:embedded | llamacpp:embedded-small | llamacpp:/path/to/model.gguf",
    "ollama": "ollama:qwen3.5:4b",
    "openai": "openai:gpt-4o-mini",
    "openai-compatible": "openai-compatible:http://127.0.0.1:8080/v1[#model-name][?key_env=NAME]",
    "anthropic": "anthropic:claude-sonnet-5-5",
}
"""Every scheme ``from_uri`` knows, with an example of each."""


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
      ``default`` (servers that serve one model ignore it). Its key comes
      from ``SPRINGTAIL_OPENAI_COMPATIBLE_API_KEY``, or from the variable
      that ``#MODEL?key_env=NAME`` (or ``#?key_env=NAME``) names; never from
      ``OPENAI_API_KEY``, which is OpenAI's own;
    - ``anthropic:MODEL``, with the key from ``ANTHROPIC_API_KEY``.

    Raises:
        ValueError: The scheme is unknown or the rest is empty; the message
            lists the schemes with an example of each. Credentials in the URI
            are masked in the message.
    """
    scheme, sep, rest = uri.partition(":")
    scheme = scheme.strip().lower()
    rest = rest.strip()
    shown = mask_url(uri)
    if not sep or scheme not in SCHEMES:
        raise ValueError(f"Unknown model URI {shown!r}: use one of {_examples()}.")
    if not rest:
        raise ValueError(f"Model URI {shown!r} names no model: write it as {SCHEMES[scheme]}.")
    if scheme == "llamacpp":
        return _build("_llamacpp", "LlamaCppChatModel")(model=rest, **kwargs)
    if scheme == "ollama":
        return _build("_ollama", "OllamaChatModel")(model=rest, **kwargs)
    if scheme == "openai":
        return _build("_openai", "OpenAIChatModel")(model=rest, **kwargs)
    if scheme == "anthropic":
        return _build("_anthropic", "AnthropicChatModel")(model=rest, **kwargs)
    base_url, _, fragment = rest.partition("#")
    if not base_url.startswith(("http://", "https://")):
        raise ValueError(
            f"Model URI {shown!r} needs an http(s) URL after 'openai-compatible:', "
            f"as in {SCHEMES['openai-compatible']}."
        )
    model, _, query = fragment.partition("?")
    settings = _settings(query, shown)
    kwargs.setdefault("model", model or "default")
    if "key_env" in settings:
        kwargs.setdefault("api_key_env", settings["key_env"])
    return _build("_openai", "OpenAIChatModel")(base_url=base_url, **kwargs)


def _settings(query: str, shown: str) -> dict[str, str]:
    """The ``?name=value&…`` settings after an openai-compatible model name."""
    settings: dict[str, str] = {}
    for pair in query.split("&") if query else ():
        name, eq, value = pair.partition("=")
        if name not in _SETTINGS or not eq or not value.strip():
            raise ValueError(
                f"Model URI {shown!r} has the setting {pair!r}; the one setting known is "
                "key_env=NAME (the environment variable that holds the server's API key)."
            )
        settings[name] = value.strip()
    return settings


_SETTINGS = frozenset({"key_env"})


def _examples() -> str:
    return ", ".join(SCHEMES.values())
