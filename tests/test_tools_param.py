"""Param: the per-parameter annotation object."""

from __future__ import annotations

import dataclasses

import pytest

from springtail.tools import Param


def test_positional_description_and_keyword_only_required() -> None:
    assert Param("Text").description == "Text"
    assert Param().description is None
    assert Param().required is None
    assert Param("x", required=False).required is False
    with pytest.raises(TypeError):
        Param("x", False)  # type: ignore[call-arg]


def test_frozen_and_comparable() -> None:
    param = Param("a", required=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        param.description = "b"  # type: ignore[misc]
    assert param == Param("a", required=True)
    assert hash(param) == hash(Param("a", required=True))
