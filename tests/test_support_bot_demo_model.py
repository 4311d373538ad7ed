"""The scripted:demo model answers by rule, the same way every time."""

from __future__ import annotations

import json

from springtail import (
    AssistantMessage,
    Prompt,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from support_bot._demo_model import reply_for
from support_bot.serve import DemoChatModel


def test_requests_become_tool_calls() -> None:
    reserve = reply_for(Prompt((UserMessage("Please reserve 3 units of sku-200"),)))
    assert isinstance(reserve, AssistantMessage)
    call = reserve.tool_calls[0]
    assert (call.name, json.loads(call.arguments)) == (
        "product_reserve",
        {"sku": "sku-200", "quantity": 3},
    )
    times = reply_for(Prompt((UserMessage("what is 6 times 7"),)))
    assert isinstance(times, AssistantMessage)
    assert times.tool_calls[0].name == "calculate"
    assert reply_for(Prompt((UserMessage("hi"),))) == "You said: hi"


def test_tool_results_become_the_answer() -> None:
    results = ToolResponseMessage((ToolResponse("1", "calculate", "6 * 7 = 42"),))
    assert reply_for(Prompt((UserMessage("x"), results))) == "Done: 6 * 7 = 42"


def test_it_streams_in_pieces() -> None:
    chunks = list(DemoChatModel().stream(Prompt((UserMessage("one two three"),))))
    assert len(chunks) > 2
    assert "".join(c.result.output.text for c in chunks if c.result) == "You said: one two three"
