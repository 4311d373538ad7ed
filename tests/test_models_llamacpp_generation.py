"""Generator rules seen only with the real model's own choices (marker ``model``)."""

from __future__ import annotations

import logging

import pytest
from bench.embedded_eval import SYSTEM, TOOLS

from described_tool import DescribedTool
from springtail.messages import ChatOptions, Prompt, SystemMessage, UserMessage
from springtail.models._llamacpp import LlamaCppChatModel

pytestmark = pytest.mark.model


def test_a_reply_opening_with_a_spelled_out_tag_is_answered_in_prose(
    embedded_model: LlamaCppChatModel, caplog: pytest.LogCaptureFixture
) -> None:
    # With the evaluation's 13 tools, a question no tool serves makes the 1.5B
    # model open with "<tools>" spelled out of plain pieces, copied from the
    # system prompt. Forced into a call from there it picked a tool at random.
    options = ChatOptions(
        tool_callbacks=tuple(DescribedTool(d) for d in TOOLS), temperature=0.0, max_tokens=60
    )
    prompt = Prompt([SystemMessage(SYSTEM), UserMessage("What is the capital of France?")], options)
    with caplog.at_level(logging.DEBUG, logger="springtail.models.llamacpp"):
        reply = embedded_model.call(prompt).results[0].output
    assert any("(tag, grammar: none)" in r.getMessage() for r in caplog.records)
    assert reply.tool_calls == ()
    assert "France" in reply.text
    assert not reply.text.lstrip().startswith("<")
