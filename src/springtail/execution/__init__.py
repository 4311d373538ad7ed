"""Running the tools a model asked for: concurrently, safely and observably.

``ToolCallingManager`` is the one place where tools run. The tool loop
(``ToolCallingAdvisor``) calls it for every model response with tool calls;
code that drives the loop itself calls it directly.
"""

from springtail.execution._approval import Approver
from springtail.execution._deferred import (
    DEFER,
    Defer,
    PendingApproval,
    ToolCallDecision,
    defer_approval,
)
from springtail.execution._errors import (
    ApprovalConflictError,
    ApprovalPendingError,
    ToolApprovalDeniedError,
    ToolCallLimitExceededError,
    ToolTimeoutError,
    UnknownToolError,
)
from springtail.execution._manager import ToolCallingManager
from springtail.execution._observation import ToolExecutionListener
from springtail.execution._processor import (
    DefaultToolExecutionExceptionProcessor,
    ToolExecutionExceptionProcessor,
)
from springtail.execution._resolvers import (
    DelegatingToolCallbackResolver,
    EntryPointToolCallbackResolver,
    StaticToolCallbackResolver,
    ToolCallbackResolver,
)
from springtail.execution._result import ToolExecutionResult
from springtail.execution._turn import ToolTurn

__all__ = [
    "DEFER",
    "ApprovalConflictError",
    "ApprovalPendingError",
    "Approver",
    "DefaultToolExecutionExceptionProcessor",
    "Defer",
    "DelegatingToolCallbackResolver",
    "EntryPointToolCallbackResolver",
    "PendingApproval",
    "StaticToolCallbackResolver",
    "ToolApprovalDeniedError",
    "ToolCallDecision",
    "ToolCallLimitExceededError",
    "ToolCallbackResolver",
    "ToolCallingManager",
    "ToolExecutionExceptionProcessor",
    "ToolExecutionListener",
    "ToolExecutionResult",
    "ToolTimeoutError",
    "ToolTurn",
    "UnknownToolError",
    "defer_approval",
]
