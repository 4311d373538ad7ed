"""_llamacpp/_step_between.py: a value no result holds is looked up before the line."""

from __future__ import annotations

from fake_llama import ask, line, plan, replies, schema, view
from springtail.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.models._llamacpp import Offer, Retry, SmallModelPolicy, StepBetweenFirst
from springtail.models._llamacpp._plan import LINES_KEY, PLAN_KEY
from springtail.tools._definition import ToolDefinition

_ID: dict[str, object] = {"type": "string", "description": "The patient id, e.g. P-101"}
_APPOINTMENT: dict[str, object] = {
    "type": "string",
    "description": "The appointment id, e.g. A-501",
}
FIND = ToolDefinition(
    "find_patient", "Find patients by name; returns their ids.", schema(name={"type": "string"})
)
APPOINTMENTS = ToolDefinition(
    "list_appointments", "A patient's upcoming appointments with their ids.", schema(patient_id=_ID)
)
CANCEL = ToolDefinition(
    "cancel_appointment", "Cancel an appointment by its id.", schema(appointment_id=_APPOINTMENT)
)
CLINIC = (FIND, APPOINTMENTS, CANCEL)
ASKED = UserMessage("Call off Kenji Sato's appointment.")
FOUND = '[{"id": "P-104", "name": "Kenji Sato"}]'


def found(result: str = FOUND) -> list[Message]:
    """The request after the patient search answered with ``result``."""
    search = ToolCall("c1", "find_patient", '{"name": "Kenji Sato"}')
    return [
        ASKED,
        AssistantMessage(
            "", (search,), {PLAN_KEY: ['r1 = find_patient(name="Kenji Sato")'], LINES_KEY: ["r1"]}
        ),
        ToolResponseMessage((ToolResponse("c1", "find_patient", result),)),
    ]


def test_a_result_that_holds_no_value_of_the_parameter_s_shape_asks_for_the_step_between() -> None:
    rule = StepBetweenFirst()
    cancel = line("r2 = cancel_appointment(appointment_id=r1)")
    # r1 holds a patient's id, P-104, where an appointment id (A-501's shape) goes: the tool
    # that lists appointments with their ids gives it, and the line comes back after it.
    assert rule.review(view(*found()), cancel, [], CLINIC) == Retry(
        "cancel_appointment",
        only=frozenset({"list_appointments"}),
        looked_up=frozenset({"appointment_id"}),
    )
    # A result that holds such an id is read, as is a variable of this plan not yet answered.
    listed = found('[{"id": "A-503", "day": "2026-03-17"}]')
    assert rule.review(view(*listed), cancel, [], CLINIC) is None
    assert rule.review(view(ASKED), cancel, [], CLINIC) is None
    # No tool gives it (or the one that does was written already): the line is left as it is.
    assert rule.review(view(*found()), cancel, [], (FIND, CANCEL)) is None
    listing = line("r2 = list_appointments(patient_id=r1)")
    assert rule.review(view(*found()), cancel, [listing], CLINIC) is None


def test_the_line_comes_back_after_the_step_taking_its_result() -> None:
    script = replies(
        (plan("r2 = cancel_appointment(appointment_id=r1)"), 9.0),
        (plan("r2 = list_appointments(patient_id=r1)"), 8.0),
        # The patient id, as the model writes it out having read the search.
        (plan('r2 = list_appointments(patient_id="P-104")'), 7.0),
    )
    policy = SmallModelPolicy(rules=(StepBetweenFirst(),))
    message = ask(script, found(), policy, tools=CLINIC)
    # The step between runs now, its patient id read from the search; the cancellation waits
    # for the appointments it will read its id from.
    assert [(c.name, c.arguments) for c in message.tool_calls] == [
        ("list_appointments", '{"patient_id": "P-104"}')
    ]
    assert message.metadata[PLAN_KEY] == [
        "r2 = list_appointments(patient_id=r1)",
        "r3 = cancel_appointment(appointment_id=r2)",
    ]


SEARCH = (
    'find_patient(name="Kenji Sato")',
    ToolCall("c1", "find_patient", '{"name": "Kenji Sato"}'),
)


def planned(result: str = FOUND, *, first: tuple[str, ToolCall] = SEARCH) -> list[Message]:
    """The request after a plan of a lookup (r1) and the cancellation, the lookup answered."""
    source, call = first
    lines = [f"r1 = {source}", "r2 = cancel_appointment(appointment_id=r1)"]
    return [
        ASKED,
        AssistantMessage("", (call,), {PLAN_KEY: lines, LINES_KEY: ["r1"]}),
        ToolResponseMessage((ToolResponse("c1", call.name, result),)),
    ]


def test_a_ready_line_its_result_cannot_feed_opens_the_step_between() -> None:
    rule = StepBetweenFirst()
    # The plan wrote the cancellation beside the search: r1 holds no appointment id, so the
    # write-out cannot write it. The tool that gives one is offered, the line waiting for it.
    assert rule.opening(view(*planned()), CLINIC) == Offer(
        (APPOINTMENTS,),
        waiting=line("r2 = cancel_appointment(appointment_id=r1)"),
        looked_up=frozenset({"appointment_id"}),
    )
    # A result that holds such an id is read; before any result there is nothing to read.
    assert rule.opening(view(*planned('[{"id": "A-503"}]')), CLINIC) is None
    assert rule.opening(view(ASKED), CLINIC) is None
    # A giver this turn called already answered without it: it is not offered again.
    listed = ToolCall("c1", "list_appointments", '{"patient_id": "P-104"}')
    listing = planned(first=('list_appointments(patient_id="P-104")', listed))
    assert rule.opening(view(*listing), CLINIC) is None


def test_the_waiting_line_comes_back_after_the_offered_step() -> None:
    script = replies(
        (plan("r3 = list_appointments(patient_id=r1)"), 9.0),
        (plan('r3 = list_appointments(patient_id="P-104")'), 8.0),
    )
    policy = SmallModelPolicy(rules=(StepBetweenFirst(),))
    message = ask(script, planned(), policy, tools=CLINIC)
    # Not dropped: the appointments are listed, and the cancellation waits to read their id.
    assert [(c.name, c.arguments) for c in message.tool_calls] == [
        ("list_appointments", '{"patient_id": "P-104"}')
    ]
    assert message.metadata[PLAN_KEY] == [
        "r3 = list_appointments(patient_id=r1)",
        "r4 = cancel_appointment(appointment_id=r3)",
    ]
