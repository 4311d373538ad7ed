"""MCP results as the text a model reads, and ToolContext as a request's ``_meta``."""

from __future__ import annotations

from mcp import types
from pydantic import AnyUrl

from springtail import ToolContext
from springtail.mcp._meta import context_from_meta, meta_from_context
from springtail.mcp._results import result_text


def test_text_blocks_join_and_structured_content_is_not_repeated() -> None:
    echoed = types.CallToolResult(
        content=[types.TextContent(type="text", text='{"a": 1}')], structuredContent={"a": 1}
    )
    assert result_text(echoed) == '{"a": 1}'
    both = types.CallToolResult(
        content=[
            types.TextContent(type="text", text="one"),
            types.TextContent(type="text", text="two"),
        ],
        structuredContent={"n": 2},
    )
    assert result_text(both) == 'one\ntwo\n{"n":2}'
    only = types.CallToolResult(content=[], structuredContent={"ok": True})
    assert result_text(only) == '{"ok":true}'


def test_what_a_text_model_cannot_read_is_named() -> None:
    result = types.CallToolResult(
        content=[
            types.ImageContent(type="image", data="AAAA", mimeType="image/png"),
            types.ResourceLink(type="resource_link", uri=AnyUrl("file:///r.txt"), name="r"),
            types.EmbeddedResource(
                type="resource",
                resource=types.TextResourceContents(
                    uri=AnyUrl("file:///t.txt"), text="inline text"
                ),
            ),
        ]
    )
    assert (
        result_text(result) == "[image: image/png, 3 bytes]\n[resource: file:///r.txt]\ninline text"
    )


def test_context_to_meta_keeps_json_values_only() -> None:
    assert meta_from_context(None) is None
    assert meta_from_context(ToolContext()) is None
    meta = meta_from_context(
        ToolContext({"user": "ann", "n": [1], "db": object(), "progressToken": 1})
    )
    assert meta == {"user": "ann", "n": [1]}
    assert meta_from_context({"db": object()}) is None


def test_meta_to_context_drops_protocol_keys() -> None:
    meta = types.RequestParams.Meta(progressToken=5, user="bo")  # type: ignore[call-arg]
    assert context_from_meta(meta) == ToolContext({"user": "bo"})
    assert context_from_meta({"a": 1}) == ToolContext({"a": 1})
    assert context_from_meta(None) == ToolContext()
    assert context_from_meta(42) == ToolContext()
