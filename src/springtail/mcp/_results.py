"""An MCP tool result as the text a model reads."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["result_text"]


def result_text(result: Any) -> str:
    """Join a ``CallToolResult``'s content into one text.

    Text blocks come as they are, one per line. Structured content is added
    as compact JSON unless a text block already says the same (servers built
    with the SDK send both). Images, audio and resources, which a text model
    cannot read, are named in brackets so the model knows they exist.
    """
    parts: list[str] = []
    echoed = False
    structured = getattr(result, "structuredContent", None)
    for block in getattr(result, "content", None) or ():
        kind = getattr(block, "type", None)
        if kind == "text":
            text = str(block.text)
            if structured is not None and _same_json(text, structured):
                echoed = True
            parts.append(text)
        elif kind in ("image", "audio"):
            parts.append(f"[{kind}: {block.mimeType}, {len(block.data) * 3 // 4} bytes]")
        elif kind == "resource_link":
            parts.append(f"[resource: {block.uri}]")
        elif kind == "resource":
            resource = block.resource
            inline = getattr(resource, "text", None)
            parts.append(str(inline) if inline is not None else f"[resource: {resource.uri}]")
    if structured is not None and not echoed:
        parts.append(json.dumps(structured, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(parts)


def _same_json(text: str, value: Any) -> bool:
    try:
        return bool(json.loads(text) == value)
    except ValueError:
        return False
