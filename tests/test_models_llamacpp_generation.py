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


def test_entity_is_one_request_whose_answer_the_schema_grammar_makes_valid(
    embedded_model: LlamaCppChatModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pydantic import BaseModel

    from springtail import ChatClient

    class Capital(BaseModel):
        country: str
        city: str

    calls: list[Prompt] = []
    original = embedded_model.acall

    async def counted(prompt: Prompt) -> object:
        calls.append(prompt)
        return await original(prompt)

    monkeypatch.setattr(embedded_model, "acall", counted)
    answer = ChatClient(embedded_model).prompt("What is the capital of France?").entity(Capital)
    assert isinstance(answer, Capital)
    assert "paris" in answer.city.lower()
    assert len(calls) == 1
    assert calls[0].options is not None
    assert calls[0].options.response_schema is not None
