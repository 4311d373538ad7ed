from __future__ import annotations

from springtail import ToolContext
from support_bot.tool_names import SESSION_SUMMARY
from support_bot.tools import SessionSummaryRequest, session_summary, summarize_session


def test_summary_reads_user_and_conversation_from_the_tool_context() -> None:
    text = summarize_session(
        SessionSummaryRequest(topic="  stock   questions "),
        ToolContext({"user_name": "reader", "conversation_id": "c-42"}),
    )
    assert text.splitlines() == [
        "Session summary",
        "- User: reader",
        "- Conversation: c-42",
        "- Topic: stock questions",
    ]


def test_summary_without_context_says_so() -> None:
    text = summarize_session(SessionSummaryRequest(topic="x"), ToolContext())
    assert "- User: unknown" in text
    assert "- Conversation: none" in text


def test_the_tool_hides_the_context_from_the_model_and_is_return_direct_on_request() -> None:
    callback = session_summary(return_direct=True)
    assert callback.tool_definition.name == SESSION_SUMMARY
    assert callback.tool_metadata.return_direct
    assert not session_summary().tool_metadata.return_direct
    assert set(callback.tool_definition.input_schema["properties"]) == {"topic"}
    text = callback.call('{"topic": "refunds"}', ToolContext({"user_name": "kim"}))
    assert "- User: kim" in text
    assert "- Topic: refunds" in text


def test_a_topic_too_long_gets_a_short_answer() -> None:
    text = summarize_session(SessionSummaryRequest(topic="t" * 100_000), ToolContext())
    assert len(text) < 200
    assert "at most 500" in text
