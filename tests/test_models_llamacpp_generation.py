"""Generator rules seen only with the real model's own choices (marker ``model``)."""

from __future__ import annotations

import pytest
from bench.embedded_eval import SYSTEM, TOOLS

from described_tool import DescribedTool
from springtail.messages import ChatOptions, Prompt, SystemMessage, UserMessage
from springtail.models._llamacpp import LlamaCppChatModel

pytestmark = pytest.mark.model


def test_a_general_question_beside_many_tools_is_answered_in_prose(
    embedded_model: LlamaCppChatModel,
) -> None:
    # With the evaluation's 13 tools a general question must get an answer, not a
    # call and not a tag copied from the system prompt. (A known miss that this
    # test does not hide: "What is the capital of France?" opens `current_date()`
    # with these tools; docs/embedded-model.md, "Measured accuracy".)
    options = ChatOptions(
        tool_callbacks=tuple(DescribedTool(d) for d in TOOLS), temperature=0.0, max_tokens=60
    )
    question = "Explain in one sentence what a discount is."
    prompt = Prompt([SystemMessage(SYSTEM), UserMessage(question)], options)
    reply = embedded_model.call(prompt).results[0].output
    assert reply.tool_calls == ()
    assert "price" in reply.text.lower()
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
