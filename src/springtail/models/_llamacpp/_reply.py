"""What one generation and one reply of the embedded model come to: plain values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from springtail.messages import Usage
from springtail.models._llamacpp._parse import ParsedCall
from springtail.models._llamacpp._stream import StreamGate

__all__ = ["Attempt", "Reply"]


@dataclass(frozen=True, slots=True)
class Attempt:
    """One generation: its text, why it ended, and its tokens."""

    text: str
    finish_reason: str
    gate: StreamGate
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Reply:
    """One reply: its prose, or its calls (and the plan they belong to, in ``metadata``)."""

    text: str
    calls: tuple[ParsedCall, ...]
    finish_reason: str
    usage: Usage
    metadata: Mapping[str, Any] = field(default_factory=dict)
