"""ChatClient and advisors: the fluent API, the advisor chain and the tool loop.

The three ways of running tools all meet here: let the client add a
``ToolCallingAdvisor`` (framework-controlled), place one yourself among other
advisors (advisor-controlled), or turn auto-registration off and call the
``ToolCallingManager`` yourself (user-controlled). ``ToolSearch`` narrows
what each model call of the loop is offered when a tool set is large.
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
    ToolApprovalRequested,
    ToolCallFinished,
    ToolCallStarted,
    ToolEvent,
    TurnPaused,
)
from springtail.client._logger_advisor import SimpleLoggerAdvisor
from springtail.client._memory_advisor import MessageChatMemoryAdvisor
from springtail.client._responses import CallResponse, StreamResponse
from springtail.client._spec import ChatClientRequestSpec
from springtail.client._tool_calling import (
    APPROVAL_REQUIRED_FINISH_REASON,
    LIMIT_EXCEEDED_FINISH_REASON,
    MODEL_CALL_LIMIT_FINISH_REASON,
    ToolCallingAdvisor,
)
from springtail.client._tool_index import (
    Bm25ToolIndex,
    ToolIndex,
    ToolIndexFactory,
    ToolSearchHit,
    estimated_tool_tokens,
)
from springtail.client._tool_search import (
    SEARCH_TOOL_NAME,
    TOOL_SEARCH_OFFERED,
    ToolSearch,
    ToolSearchMode,
)
from springtail.execution._errors import DuplicateToolNameError

__all__ = [
    "APPROVAL_REQUIRED_FINISH_REASON",
    "HIGHEST_PRECEDENCE",
    "LIMIT_EXCEEDED_FINISH_REASON",
    "LOWEST_PRECEDENCE",
    "MODEL_CALL_LIMIT_FINISH_REASON",
    "SEARCH_TOOL_NAME",
    "TOOL_CALLING_AUTO_REGISTER",
    "TOOL_SEARCH_OFFERED",
    "Bm25ToolIndex",
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
    "ToolApprovalRequested",
    "ToolCallFinished",
    "ToolCallStarted",
    "ToolCallingAdvisor",
    "ToolEvent",
    "ToolIndex",
    "ToolIndexFactory",
    "ToolSearch",
    "ToolSearchHit",
    "ToolSearchMode",
    "TurnPaused",
    "estimated_tool_tokens",
]
