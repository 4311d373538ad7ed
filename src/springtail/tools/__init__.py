"""Declaring tools: ``@tool``, callbacks, schemas and argument validation.

Importing this package is cheap: pydantic and the docstring parser are loaded
only when a tool's schema is first built.
"""

from springtail.tools._callback import ToolCallback
from springtail.tools._collect import tool_callbacks
from springtail.tools._context import ToolContext
from springtail.tools._converter import DefaultToolCallResultConverter, ToolCallResultConverter
from springtail.tools._decorator import tool
from springtail.tools._definition import ToolDefinition, ToolMetadata
from springtail.tools._errors import ToolArgumentsError, ToolExecutionError
from springtail.tools._function import FunctionToolCallback
from springtail.tools._method import MethodToolCallback
from springtail.tools._param import Param

__all__ = [
    "DefaultToolCallResultConverter",
    "FunctionToolCallback",
    "MethodToolCallback",
    "Param",
    "ToolArgumentsError",
    "ToolCallResultConverter",
    "ToolCallback",
    "ToolContext",
    "ToolDefinition",
    "ToolExecutionError",
    "ToolMetadata",
    "tool",
    "tool_callbacks",
]
