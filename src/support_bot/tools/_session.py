"""The session summary: a tool that reads what the application knows, not the model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from springtail import FunctionToolCallback, ToolContext, ToolMetadata
from support_bot.tool_names import SESSION_SUMMARY
from support_bot.tools._limits import MAX_TEXT_CHARS

__all__ = ["SessionSummaryRequest", "session_summary", "summarize_session"]

USER_NAME = "user_name"
CONVERSATION_ID = "conversation_id"


class SessionSummaryRequest(BaseModel):
    """What the session was about."""

    model_config = ConfigDict(frozen=True)

    topic: str = Field(description="The topic of the session in a few words")


def summarize_session(request: SessionSummaryRequest, ctx: ToolContext) -> str:
    """A multi-line summary; user and conversation come from the tool context."""
    if len(request.topic) > MAX_TEXT_CHARS:  # not in the schema: it would bloat the grammar
        return f"The topic has {len(request.topic):,} characters; give at most {MAX_TEXT_CHARS}."
    topic = " ".join(request.topic.split()) or "(no topic given)"
    return "\n".join(
        [
            "Session summary",
            f"- User: {ctx.get(USER_NAME, 'unknown')}",
            f"- Conversation: {ctx.get(CONVERSATION_ID, 'none')}",
            f"- Topic: {topic}",
        ]
    )


def session_summary(*, return_direct: bool = False) -> FunctionToolCallback:
    """The ``session_summary`` function tool; ``return_direct`` skips the model's rewording."""
    return FunctionToolCallback(
        SESSION_SUMMARY,
        summarize_session,
        input_type=SessionSummaryRequest,
        description=(
            "Write a summary of this support session (user, conversation id, topic) "
            "when the user asks for a summary or a recap."
        ),
        tool_metadata=ToolMetadata(return_direct=return_direct),
    )
