"""The extension point every tool implements (``ToolCallback``).

The protocol is defined in ``springtail._tool_contract``, below the messages
layer, so that ``ChatOptions.tool_callbacks`` can name it.
"""

from springtail._tool_contract import ToolCallback

__all__ = ["ToolCallback"]
