"""Tool sources of a client or request: static ones resolved once, lazy providers per call."""

import pytest

from springtail import tool
from springtail.client import DuplicateToolNameError
from springtail.client._tools import check_unique, resolve_sources
from springtail.tools import tool_callbacks


@tool
def ping() -> str:
    """A zero-argument tool: must not be mistaken for a lazy provider."""
    return "pong"


class Tools:
    @tool
    def echo(self, text: str) -> str:
        """Echo."""
        return text

    @staticmethod
    @tool
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()


def test_zero_argument_tool_function_is_a_tool_not_a_provider() -> None:
    resolved = resolve_sources([ping])
    assert resolved.providers == ()
    assert [cb.tool_definition.name for cb in resolved.static] == ["ping"]


def test_classes_objects_and_callbacks_resolve_at_once() -> None:
    callback = tool_callbacks(ping)[0]
    resolved = resolve_sources([Tools(), callback])
    assert resolved.providers == ()
    assert [cb.tool_definition.name for cb in resolved.static] == ["echo", "shout", "ping"]

    class StaticTools:
        @staticmethod
        @tool
        def whisper(text: str) -> str:
            """Whisper."""
            return text.lower()

    # A class is a source (its static tools), never a lazy provider.
    assert [cb.tool_definition.name for cb in resolve_sources([StaticTools]).static] == ["whisper"]


def test_lazy_providers_are_asked_on_each_callbacks_call() -> None:
    asked: list[int] = []

    def provider() -> object:
        asked.append(1)
        return Tools()  # one source, or a list of them

    resolved = resolve_sources([provider, lambda: [ping]])
    assert asked == []
    names = [cb.tool_definition.name for cb in resolved.callbacks()]
    assert names == ["echo", "shout", "ping"]
    resolved.callbacks()
    assert len(asked) == 2


def test_a_plain_function_with_parameters_is_rejected_not_called() -> None:
    def not_a_tool(x: int) -> int:
        return x

    with pytest.raises(ValueError, match="not a tool"):
        resolve_sources([not_a_tool])


def test_duplicates_are_named() -> None:
    callbacks = tool_callbacks(ping) + tool_callbacks(ping)
    with pytest.raises(DuplicateToolNameError, match="'ping'"):
        check_unique(callbacks)
