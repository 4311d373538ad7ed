"""Guesses for the embedded model's batched decoding: a call's fixed text, copied text."""

from __future__ import annotations

import pytest

from springtail.models._llamacpp._drafts import CallDraft, PromptLookup
from springtail.models._llamacpp._values import RequestValues
from springtail.tools._definition import ToolDefinition

TOOLS = [
    ToolDefinition(
        name="discount_calculator",
        description="Price after a discount.",
        input_schema={
            "type": "object",
            "properties": {"price": {"type": "string"}, "rate_percent": {"type": "string"}},
        },
    ),
    ToolDefinition(name="todo_list", description="Open to-dos.", input_schema={"type": "object"}),
    ToolDefinition(
        name="todo_add",
        description="Add a to-do.",
        input_schema={"type": "object", "properties": {"title": {"type": "string"}}},
    ),
]
START = '\n{"name": "discount_calculator", "arguments": {'
CALL = '\n{"name": "discount_calculator", "arguments": {"price": "35000", "rate_percent": "18"}}\n'


def characters() -> CallDraft:
    """A CallDraft whose "tokens" are characters, so guesses read as text."""
    return CallDraft(TOOLS, list, "".join)


def test_every_guess_along_a_call_is_how_the_call_goes_on() -> None:
    draft = characters()
    for cut in range(len(CALL)):
        guess = draft.continuation(CALL[:cut])
        assert CALL[cut:].startswith(guess), (CALL[:cut], guess)


@pytest.mark.parametrize(
    ("written", "guess"),
    [
        ("", '\n{"name": "'),
        ('\n{"name": "disc', 'ount_calculator", "arguments": {"price": '),
        ('\n{"name": "discount_calculator", "arguments": {"price": "35000"', ', "rate_percent": '),
        ('\n{"name": "discount_calculator", "arguments": {"price": "35000", "rate_', 'percent": '),
        (
            '\n{"name": "discount_calculator", "arguments": {"price": "3", "rate_percent": "1"',
            "}}\n",
        ),
        ('\n{"name": "todo_l', 'ist", "arguments": {}}\n'),
    ],
)
def test_the_fixed_text_is_guessed_in_one_piece(written: str, guess: str) -> None:
    assert characters().continuation(written) == guess


@pytest.mark.parametrize(
    "written",
    [
        '\n{"name": "',  # which tool is the model's choice
        '\n{"name": "todo_',  # two tools begin so
        '\n{"name": "weather", "arguments": {',  # not an offered tool
        START + '"price": "35',  # a value
    ],
)
def test_what_is_the_models_choice_is_not_guessed(written: str) -> None:
    assert characters().continuation(written) == ""


def test_a_guess_is_cut_to_the_room_in_the_batch() -> None:
    assert CallDraft(TOOLS, list, "".join)(list('\n{"name": "disc'), 5) == list("ount_")


def test_values_fall_back_to_text_copied_from_the_prompt() -> None:
    request = list("Take 18% off 35000 please")
    draft = CallDraft(TOOLS, list, "".join, PromptLookup(request, length=3))
    assert draft(list(START + '"price": "35'), 8) == list("000")


def test_prompt_lookup_continues_a_run_seen_in_the_context() -> None:
    context = [5, 6, 7, 8, 9, 1, 2, 5, 6]
    lookup = PromptLookup(context, length=2)
    assert lookup([7], 8) == [8, 9]  # 5 6 7 occurred before: 8 9 followed
    assert lookup([7], 1) == [8]


def test_prompt_lookup_prefers_the_latest_occurrence() -> None:
    lookup = PromptLookup([1, 2, 3, 0, 1, 2, 4], length=1)
    assert lookup([1, 2], 4) == [4]


def test_prompt_lookup_does_not_guess_the_first_token_or_from_one_token() -> None:
    lookup = PromptLookup([1, 2, 3, 4, 1, 2], length=2)
    assert lookup([], 4) == ()  # the first token decides between a call and prose
    assert lookup([9, 3], 4) == ()  # "3" alone is too weak a match; "9 3" never occurred


def test_required_properties_are_guessed_first_as_the_grammar_asks() -> None:
    tool = ToolDefinition(
        name="todo_add",
        description="Add a to-do.",
        input_schema={
            "type": "object",
            "properties": {"due": {"type": "string"}, "title": {"type": "string"}},
            "required": ["title"],
        },
    )
    draft = CallDraft([tool], list, "".join)
    assert draft.continuation('\n{"name": "todo_a') == 'dd", "arguments": {"title": '
    assert draft.continuation('\n{"name": "todo_add", "arguments": {"title": "x"') == ', "due": '


@pytest.mark.parametrize(
    ("request_", "written", "guess"),
    [
        ("35,000 at 18% off", START + '"price": "3', '5000"'),  # the comma goes
        ("35,000 at 18% off", START + '"price": 3', "5000"),  # a JSON number: no quote
        ("Reserve 2 units of SKU-100", START + '"sku": "S', 'KU-100"'),
        ("What is 12 times 12 and 120?", START + '"left": 1', "2"),  # 12 and 120 agree on "2"
    ],
)
def test_a_value_the_request_holds_is_guessed_once_begun(
    request_: str, written: str, guess: str
) -> None:
    assert (
        CallDraft(TOOLS, list, "".join, values=RequestValues.of(request_).spelled).value(written)
        == guess
    )


@pytest.mark.parametrize(
    "written",
    [
        START + '"price": "',  # not begun: which value is the model's choice
        START + '"price": "7',  # no number of the request begins so
        START + '"price": "35000"',  # finished
    ],
)
def test_no_value_is_guessed_before_it_begins_or_when_none_fits(written: str) -> None:
    assert (
        CallDraft(TOOLS, list, "".join, values=RequestValues.of("35,000 at 18% off").spelled).value(
            written
        )
        == ""
    )
