"""``ToolContext`` across a process boundary: the request's ``_meta``.

MCP gives every request a ``_meta`` object for exactly this kind of
out-of-band value. The client sends the context's JSON values there; the
server hands them to the tool as its ``ToolContext``. Values that are not
JSON (a database handle, say) stay behind: they mean nothing in another
process.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from springtail.tools import ToolContext

__all__ = ["context_from_meta", "meta_from_context"]

_log = logging.getLogger("springtail.mcp")

_PROTOCOL_KEYS = frozenset({"progressToken"})
"""``_meta`` keys the protocol itself uses; they are not the application's."""


def meta_from_context(context: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The JSON-representable part of a tool context, or ``None`` when empty."""
    if not context:
        return None
    meta: dict[str, Any] = {}
    for key, value in context.items():
        if key in _PROTOCOL_KEYS:
            continue
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            _log.debug("tool context value %r is not JSON; not sent to the MCP server", key)
            continue
        meta[key] = value
    return meta or None


def context_from_meta(meta: Any) -> ToolContext:
    """A tool context from a request's ``_meta`` (an SDK model, a mapping or ``None``)."""
    if meta is None:
        return ToolContext()
    if hasattr(meta, "model_dump"):
        data = meta.model_dump(by_alias=True, exclude_none=True)
    elif isinstance(meta, Mapping):
        data = dict(meta)
    else:
        return ToolContext()
    return ToolContext({k: v for k, v in data.items() if k not in _PROTOCOL_KEYS})
