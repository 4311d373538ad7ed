"""ToolContext: an immutable mapping handed to tools."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from springtail.tools import ToolContext


def test_is_a_read_only_mapping() -> None:
    ctx = ToolContext({"user": "ann", "n": 1})
    assert isinstance(ctx, Mapping)
    assert ctx["user"] == "ann"
    assert dict(ctx) == {"user": "ann", "n": 1}
    assert len(ctx) == 2
    with pytest.raises(TypeError):
        ctx["user"] = "bob"  # type: ignore[index]
    with pytest.raises(AttributeError):
        ctx.other = 1  # type: ignore[attr-defined]


def test_context_property_is_a_plain_dict_copy() -> None:
    source = {"user": "ann"}
    ctx = ToolContext(source)
    copy = ctx.context
    assert copy == {"user": "ann"}
    assert type(copy) is dict
    copy["user"] = "changed"
    source["user"] = "changed too"
    assert ctx["user"] == "ann"


def test_empty_and_equality() -> None:
    assert len(ToolContext()) == 0
    assert ToolContext(None) == ToolContext({})
    assert ToolContext({"a": 1}) == {"a": 1}
    assert hash(ToolContext({"a": 1, "b": 2})) == hash(ToolContext({"b": 2, "a": 1}))


def test_the_idempotency_key_travels_with_a_copy_and_is_none_by_default() -> None:
    plain = ToolContext({"a": 1})
    keyed = plain.with_idempotency_key("c1:1:5")

    assert plain.idempotency_key is None
    assert keyed.idempotency_key == "c1:1:5"
    assert keyed == plain  # the key is not one of the values
    assert ToolContext(keyed).idempotency_key == "c1:1:5"
    assert dict(keyed) == {"a": 1}
    assert "idempotency_key='c1:1:5'" in repr(keyed)
