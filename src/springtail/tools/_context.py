"""The per-request values a tool may read but the model never sees (``ToolContext``).

The class is defined in ``springtail._tool_contract``, below the messages
layer, so that ``ChatOptions`` can name the tool contract.
"""

from springtail._tool_contract import ToolContext

__all__ = ["ToolContext"]
