"""ChatClient and advisors: the fluent API, the advisor chain and the tool loop.

The three ways of running tools all meet here: let the client add a
``ToolCallingAdvisor`` (framework-controlled), place one yourself among other
advisors (advisor-controlled), or turn auto-registration off and call the
``ToolCallingManager`` yourself (user-controlled).
"""

from springtail.client._advisor import (
    HIGHEST_PRECEDENCE,
    LOWEST_PRECEDENCE,
    TOOL_CALLING_AUTO_REGISTER,
    CallAdvisor,
    CallAdvisorChain,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisor,
    StreamAdvisorChain,
)
from springtail.client._client import ChatClient, ChatClientBuilder
from springtail.client._events import (
    StreamEvent,
    TextDelta,
    ToolApprovalDecided,
    ToolCallFinished,
    ToolCallStarted,
    ToolEvent,
)
from springtail.client._logger_advisor import SimpleLoggerAdvisor
from springtail.client._memory_advisor import MessageChatMemoryAdvisor
from springtail.client._responses import CallResponse, StreamResponse
from springtail.client._spec import ChatClientRequestSpec
from springtail.client._tool_calling import (
    LIMIT_EXCEEDED_FINISH_REASON,
    MODEL_CALL_LIMIT_FINISH_REASON,
    ToolCallingAdvisor,
)
from springtail.client._tools import DuplicateToolNameError

__all__ = [
    "HIGHEST_PRECEDENCE",
    "LIMIT_EXCEEDED_FINISH_REASON",
    "LOWEST_PRECEDENCE",
    "MODEL_CALL_LIMIT_FINISH_REASON",
    "TOOL_CALLING_AUTO_REGISTER",
    "CallAdvisor",
    "CallAdvisorChain",
    "CallResponse",
    "ChatClient",
    "ChatClientBuilder",
    "ChatClientRequest",
    "ChatClientRequestSpec",
    "ChatClientResponse",
    "DuplicateToolNameError",
    "MessageChatMemoryAdvisor",
    "SimpleLoggerAdvisor",
    "StreamAdvisor",
    "StreamAdvisorChain",
    "StreamEvent",
    "StreamResponse",
    "TextDelta",
    "ToolApprovalDecided",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolCallingAdvisor",
    "ToolEvent",
]
