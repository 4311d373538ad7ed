"""The readings the small-model rules share: which request values a plan line or call carries."""

from __future__ import annotations

from fake_llama import ASKED_AVERAGE, QUOTE_LINES, SHIPPING, TOOLS, line, schema, view
from springtail.messages import UserMessage
from springtail.models._llamacpp import More, UnusedValuesAskMore
from springtail.models._llamacpp._rule import line_carries, unnamed_steps, unused_values
from springtail.tools._definition import ToolDefinition

# -- Enum choices as wanted values ----------------------------------------------------------


def test_an_enum_choice_the_request_names_is_wanted_until_a_line_carries_it() -> None:
    price = ToolDefinition(
        "visit_price",
        "The price of a visit.",
        schema(visit_type={"type": "string", "enum": ["checkup", "consultation"]}),
    )
    asked = view(UserMessage("What do a checkup and a consultation cost?"))
    first = line('r1 = visit_price(visit_type="checkup")')
    assert unused_values(asked, [first], (price,)) == {"consultation"}
    assert UnusedValuesAskMore().next(asked, [first], (price,)) == More(frozenset({"consultation"}))


def test_a_named_default_is_carried_by_any_call_of_its_tool() -> None:
    send = ToolDefinition(
        "send_message",
        "Send a message.",
        schema(
            to={"type": "string"},
            channel={"type": "string", "enum": ["email", "sms"], "default": "email"},
        ),
    )
    asked = view(UserMessage("Send Sam an e-mail."))
    assert unused_values(asked, [], (send,)) == {"sam", "email"}
    assert unused_values(asked, [line('r1 = send_message(to="Sam")')], (send,)) == frozenset()
    # An offer that wants the channel takes a message that leaves it at its default.
    sms = line('r1 = send_message(to="Sam", channel="sms")')
    assert line_carries(
        line('r1 = send_message(to="Sam")'), frozenset({"email"}), send.input_schema
    )
    assert not line_carries(sms, frozenset({"email"}), send.input_schema)


def test_a_choice_that_names_a_tool_is_the_request_s_verb_not_a_value() -> None:
    calculate = ToolDefinition(
        "calculate",
        "Two numbers.",
        schema(operation={"type": "string", "enum": ["add", "multiply"]}, left={"type": "number"}),
    )
    todo = ToolDefinition("todo_add", "Add a to-do.", schema(title={"type": "string"}))
    asked = view(UserMessage("Reserve 2 units and add that as a to-do."))
    assert "add" not in unused_values(asked, [], (calculate, todo))
    assert "add" in unused_values(asked, [], (calculate,))


# -- Steps the request names by a tool's name ---------------------------------------------

QUOTES = [line(source) for source in QUOTE_LINES]


def test_a_tool_the_request_names_that_no_line_calls_is_a_step_not_taken() -> None:
    asked = view(UserMessage(ASKED_AVERAGE))
    assert unnamed_steps(asked, QUOTES, SHIPPING) == {"average"}
    taken = [*QUOTES, line("r3 = average(values=[21.5, 33.0])")]
    assert unnamed_steps(asked, taken, SHIPPING) == frozenset()


def test_a_called_tool_whose_description_holds_the_word_answers_for_it() -> None:
    # "day" is a word of days_between's name; weekday's "The day of the week" answers it.
    asked = view(UserMessage("What day of the week is 2026-12-25?"))
    assert unnamed_steps(asked, [line('r1 = weekday(day="2026-12-25")')], TOOLS) == frozenset()
    assert unnamed_steps(asked, [], TOOLS) == {"days_between"}


def test_a_line_s_literal_arguments_come_with_their_parameters_schemas() -> None:
    from springtail.models._llamacpp._rule import literal_specs

    written = line('r2 = weekday(day="2026-12-25", extra=r1)')
    assert literal_specs(written, TOOLS) == [("day", "2026-12-25", {"type": "string"})]
    # A tool that is not offered has no schema to give.
    assert literal_specs(line("r1 = nowhere(x=1)"), TOOLS) == [("x", 1, None)]
