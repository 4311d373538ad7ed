"""SimpleLoggerAdvisor: every model call of the loop logged at DEBUG, nothing when disabled."""

import logging

import pytest

from springtail import tool
from springtail.client import ChatClient, SimpleLoggerAdvisor
from springtail.messages import AssistantMessage, ToolCall
from springtail.models import ScriptedChatModel


@tool
def lookup(sku: str) -> str:
    """Stock of a product."""
    return f"{sku}: 7"


def script() -> ScriptedChatModel:
    return ScriptedChatModel(
        [AssistantMessage("", (ToolCall("c1", "lookup", '{"sku": "A"}'),)), "final words"]
    )


def test_logs_each_model_call_inside_the_loop(caplog: pytest.LogCaptureFixture) -> None:
    client = ChatClient(script(), tools=[lookup], advisors=[SimpleLoggerAdvisor()])
    with caplog.at_level(logging.DEBUG, logger="springtail.advisors"):
        client.prompt("stock?").call().content()
    records = [r for r in caplog.records if r.name == "springtail.advisors"]
    messages = [r.getMessage() for r in records]
    assert all(r.levelno == logging.DEBUG for r in records)
    assert [m.split(":")[0] for m in messages] == ["request", "response", "request", "response"]
    assert "stock?" in messages[0]
    assert "final words" in messages[3]


def test_custom_formatters_and_streamed_response_logged_whole(
    caplog: pytest.LogCaptureFixture,
) -> None:
    advisor = SimpleLoggerAdvisor(
        request_to_string=lambda r: f"{len(r.prompt.messages)} messages",
        response_to_string=lambda r: r.text.upper(),
    )
    client = ChatClient(ScriptedChatModel(["a few words"]), advisors=[advisor])
    with caplog.at_level(logging.DEBUG, logger="springtail.advisors"):
        assert "".join(client.prompt("q").stream().content()) == "a few words"
    assert [r.getMessage() for r in caplog.records if r.name == "springtail.advisors"] == [
        "request: 1 messages",
        "response: A FEW WORDS",
    ]


def test_formats_nothing_when_debug_is_off(caplog: pytest.LogCaptureFixture) -> None:
    def explode(_: object) -> str:
        raise AssertionError("formatted although DEBUG is off")

    advisor = SimpleLoggerAdvisor(request_to_string=explode, response_to_string=explode)
    client = ChatClient(ScriptedChatModel(["x", "y"]), advisors=[advisor])
    with caplog.at_level(logging.INFO, logger="springtail.advisors"):
        assert client.prompt("q").call().content() == "x"
        assert "".join(client.prompt("q").stream().content()) == "y"
    assert not [r for r in caplog.records if r.name == "springtail.advisors"]


def test_default_order_is_zero_inside_the_default_loop() -> None:
    assert SimpleLoggerAdvisor().order == 0
    assert SimpleLoggerAdvisor(order=5).order == 5


def test_the_tool_context_and_extra_options_are_never_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from springtail.messages import ChatOptions

    client = ChatClient(script(), tools=[lookup], advisors=[SimpleLoggerAdvisor()])
    with caplog.at_level(logging.DEBUG, logger="springtail.advisors"):
        client.prompt("stock?").tool_context({"email": "bob@example.com"}).options(
            ChatOptions(temperature=0.2, extra={"headers": {"Authorization": "Bearer sk-1"}})
        ).call()
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "bob@example.com" not in text
    assert "sk-1" not in text
    assert "Authorization" not in text
    assert "tool_context=<1 redacted>" in text
    assert "extra=<1 redacted>" in text
    assert "temperature=0.2" in text
    assert "tools=['lookup']" in text
    assert "stock?" in text
