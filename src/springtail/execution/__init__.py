"""Running the tools a model asked for: concurrently, safely and observably.

:class:`ToolCallingManager` is the one place where tools run. The tool loop
(``ToolCallingAdvisor``) calls it for every model response with tool calls;
code that drives the loop itself calls it directly.
"""

from springtail.execution._approval import Approver
from springtail.execution._errors import (
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
    "Approver",
    "DefaultToolExecutionExceptionProcessor",
    "DelegatingToolCallbackResolver",
    "EntryPointToolCallbackResolver",
    "StaticToolCallbackResolver",
    "ToolApprovalDeniedError",
    "ToolCallLimitExceededError",
    "ToolCallbackResolver",
    "ToolCallingManager",
    "ToolExecutionExceptionProcessor",
    "ToolExecutionListener",
    "ToolExecutionResult",
    "ToolTimeoutError",
    "ToolTurn",
    "UnknownToolError",
]
