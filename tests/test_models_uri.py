"""from_uri: one string picks the provider, the model and the server."""

from __future__ import annotations

from typing import Any

import pytest

import springtail
from springtail.models import (
    AnthropicChatModel,
    ChatModel,
    ModelUnavailableError,
    OllamaChatModel,
    OpenAIChatModel,
    from_uri,
)


def test_ollama_keeps_the_colon_of_the_model_tag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    model = from_uri("ollama:qwen3.5:4b", think=False)
    assert isinstance(model, OllamaChatModel)
    assert isinstance(model, ChatModel)
    assert (model.model, model.host, model.think) == ("qwen3.5:4b", "http://localhost:11434", False)


def test_ollama_host_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "http://10.0.0.5:11434")
    model = from_uri("ollama:llama3.2")
    assert isinstance(model, OllamaChatModel)
    assert model.host == "http://10.0.0.5:11434"


def test_openai_reads_the_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = from_uri("openai:gpt-4o-mini")
    assert isinstance(model, OpenAIChatModel)
    assert (model.model, model.base_url) == ("gpt-4o-mini", "https://api.openai.com/v1")


def test_openai_compatible_takes_a_url_and_an_optional_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    plain = from_uri("openai-compatible:http://127.0.0.1:8080/v1")
    named = from_uri("openai-compatible:http://127.0.0.1:8080/v1#qwen2.5-1.5b", max_retries=0)
    assert isinstance(plain, OpenAIChatModel)
    assert isinstance(plain, ChatModel)
    assert isinstance(named, OpenAIChatModel)
    assert (plain.base_url, plain.model) == ("http://127.0.0.1:8080/v1", "default")
    assert (named.base_url, named.model, named.max_retries) == (
        "http://127.0.0.1:8080/v1",
        "qwen2.5-1.5b",
        0,
    )


def test_anthropic_reads_the_key_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    model = from_uri("anthropic:claude-haiku-5-5", max_tokens=50)
    assert isinstance(model, AnthropicChatModel)
    assert isinstance(model, ChatModel)
    assert (model.model, model.max_tokens) == ("claude-haiku-5-5", 50)


def test_llamacpp_builds_the_embedded_model_with_the_rest_as_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import springtail.models._llamacpp as llamacpp

    built: list[dict[str, Any]] = []

    class Recorder:
        def __init__(self, **kwargs: Any) -> None:
            built.append(kwargs)

    # Only the routing is under test here; the embedded model has its own tests.
    monkeypatch.setattr(llamacpp, "LlamaCppChatModel", Recorder, raising=False)
    for rest in ("embedded", "embedded-small", "/models/my model.gguf"):
        assert isinstance(from_uri(f"llamacpp:{rest}", n_ctx=2048), Recorder)
    assert built == [
        {"model": "embedded", "n_ctx": 2048},
        {"model": "embedded-small", "n_ctx": 2048},
        {"model": "/models/my model.gguf", "n_ctx": 2048},
    ]


@pytest.mark.parametrize("uri", ["gemini:pro", "qwen3.5", "", "OLLAMA"])
def test_an_unknown_scheme_lists_every_scheme(uri: str) -> None:
    with pytest.raises(ValueError, match="Unknown model URI") as caught:
        from_uri(uri)
    for scheme in ("llamacpp:", "ollama:", "openai:", "openai-compatible:", "anthropic:"):
        assert scheme in str(caught.value)


def test_a_missing_model_or_url_says_how_to_write_it() -> None:
    with pytest.raises(ValueError, match=r"names no model: write it as ollama:qwen3\.5:4b"):
        from_uri("ollama:")
    with pytest.raises(ValueError, match="needs an http"):
        from_uri("openai-compatible:localhost:8080")


def test_openai_without_a_key_fails_with_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ModelUnavailableError, match="OPENAI_API_KEY"):
        from_uri("openai:gpt-4o-mini")


def test_from_uri_is_public_at_the_top_level() -> None:
    assert springtail.from_uri is from_uri


def test_an_unknown_openai_compatible_setting_is_one_sentence() -> None:
    with pytest.raises(ValueError, match=r"the one setting known is key_env=NAME"):
        from_uri("openai-compatible:http://127.0.0.1:8080/v1#m?key=abc")


def test_credentials_in_a_bad_uri_are_masked_in_the_error() -> None:
    with pytest.raises(ValueError, match="needs an http") as caught:
        from_uri("openai-compatible:ftp://user:hunter2@host/v1")
    assert "hunter2" not in str(caught.value)
    assert "user:***@host" in str(caught.value)
