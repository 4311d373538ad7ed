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


def invalid_result(error: Exception) -> str:
    """What is wrong with a result the SDK could not read (a pydantic ``ValidationError``).

    pydantic lists every member of the content union it tried (37 lines for
    one unknown block type); a model and a person need one clause: which
    block, and what is wrong with it.
    """
    errors = getattr(error, "errors", None)
    found: list[dict[str, Any]] = list(errors()) if callable(errors) else []
    if not found:
        return (str(error).splitlines() or [type(error).__name__])[0]
    loc = tuple(found[0].get("loc", ()))
    if len(loc) >= 3 and loc[0] == "content" and isinstance(loc[1], int):
        return _block_problem(loc[1], [e for e in found if tuple(e.get("loc", ()))[:2] == loc[:2]])
    where = ".".join(str(part) for part in loc) or "the result"
    return f"{where}: {found[0].get('msg', 'invalid')}"


def _block_problem(index: int, errors: list[dict[str, Any]]) -> str:
    """One clause for a content block that matched no member of the union."""
    block: dict[str, Any] = next(
        (e["input"] for e in errors if isinstance(e.get("input"), dict)), {}
    )
    kind = block.get("type")
    rejected = {
        e["loc"][2] for e in errors if len(e["loc"]) > 3 and e["loc"][3] == "type"
    }  # members whose type literal is not this block's
    members = [e for e in errors if len(e["loc"]) > 2 and e["loc"][2] not in rejected]
    if kind is None or not members:
        return f"content block {index + 1} has the unknown type {kind!r}"
    first = members[0]
    field = ".".join(str(part) for part in first["loc"][3:]) or "the block"
    return f"content block {index + 1} ({kind}): {field}: {first.get('msg', 'invalid')}"
