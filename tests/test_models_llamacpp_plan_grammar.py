"""The plan grammar, checked by llama.cpp's own grammar engine on the model's vocabulary."""

from __future__ import annotations

from typing import Any

import pytest

from springtail.models._llamacpp._plan_grammar import (
    held_texts,
    line_grammar,
    number_branch,
    takes_free_text,
    value_grammar,
)
from springtail.tools._definition import ToolDefinition
from test_models_llamacpp_grammar import (
    CALCULATE,
    RESERVE,
    TODO_ADD,
    TODO_LIST,
    _object,
    accepts,
    vocab,
)

pytestmark = pytest.mark.model

__all__ = ["vocab"]  # the fixture, used by name

MESSAGE = ToolDefinition(
    "send_message",
    "Send a message.",
    _object(
        {
            "to": {"type": "string"},
            "urgent": {"type": "boolean"},
            "at": {"type": "string", "pattern": r"^\d\d:\d\d$"},
            "cc": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        required=["to"],
    ),
)
TOOLS = [CALCULATE, TODO_ADD, TODO_LIST, RESERVE, MESSAGE]


@pytest.mark.parametrize(
    "line",
    [
        'calculate(operation="multiply", left=128, right=32)\n',
        'todo_add(title="Call back C-101")\n',
        "todo_list()\n",
        'product_reserve(sku="SKU-100", quantity=r1)\n',
        'send_message(to="ann@example.com")\n',
        'send_message(to="ann@example.com", urgent=True, at="09:30", cc=None)\n',
        'send_message(to=r2, at="17:05")\n',  # optional arguments may be left out
        'get_weather(city="Paris")\n',  # the catch-all
        "add(r1, 30)\n",
        'send_message(to=r1, cc=f"Order {r2} is placed")\n',  # a text built from results
        'send_message(to="Sam " + r1)\n',
        'send_message(to=f"{r1}, {r2}")\n',
    ],
)
def test_the_grammar_admits_calls_to_offered_tools_and_the_catch_all(vocab: Any, line: str) -> None:
    assert accepts(vocab, line_grammar(TOOLS, ["r1", "r2"]), " " + line)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('calculate(operation="power", left=2, right=8)\n', "an operation outside the enum"),
        ('calculate(left=2, operation="add", right=8)\n', "arguments out of schema order"),
        ('calculate(operation="add", left=2)\n', "a required argument left out"),
        ('product_reserve(sku="SKU-100", quantity=r3)\n', "a variable no earlier line has"),
        (
            'product_reserve(sku="SKU-100", quantity=1.5)\n',
            "a fraction where the schema says integer",
        ),
        ('send_message(to="x", urgent=true)\n', "JSON's true where Python writes True"),
        ('send_message(to="x", at="9h30")\n', "a value the pattern refuses"),
        ("r1 * 24\n", "arithmetic"),
        ('todo_add(title="x")', "no newline: a line ends with one"),
        ('send_message(to=f"Order {r3}")\n', "an f-string field that is no earlier variable"),
        ('send_message(to=f"Order {r1.id}")\n', "an f-string field that is not a variable"),
        ('send_message(to="x", at=f"{r1}")\n', "a text built from results for a pattern"),
        ('calculate(operation="add", left=r1 + r2, right=1)\n', "+ on numbers"),
    ],
)
def test_the_grammar_refuses_what_is_not_a_valid_line(vocab: Any, line: str, why: str) -> None:
    assert not accepts(vocab, line_grammar(TOOLS, ["r1", "r2"]), " " + line), why


def test_the_first_line_may_use_no_variable_and_an_offer_no_other_tool(vocab: Any) -> None:
    assert not accepts(vocab, line_grammar(TOOLS, []), ' product_reserve(sku="S", quantity=r1)\n')
    offered = line_grammar([TODO_ADD], [], catch_all=False)
    assert accepts(vocab, offered, ' todo_add(title="x")\n')
    assert not accepts(vocab, offered, " todo_list()\n")
    assert not accepts(vocab, offered, ' get_weather(city="Paris")\n')
    assert not accepts(vocab, offered, 'todo_add(title="x")\n')  # the space is the grammar's


def test_a_search_held_to_the_things_a_request_names_writes_only_those(vocab: Any) -> None:
    # A retry that searches for what the request names (``Retry.texts``): told "Put a
    # 30-minute 'Prep' on the day of the team sync", the model searched for "Prep".
    held = held_texts(TODO_ADD, ["team sync", "project review"])
    grammar = line_grammar([held], [], catch_all=False)
    assert accepts(vocab, grammar, ' todo_add(title="team sync")\n')
    assert accepts(vocab, grammar, ' todo_add(title="project review")\n')
    assert not accepts(vocab, grammar, ' todo_add(title="Prep")\n')
    # Only required free texts are held: the tool's name, its other parameters and the
    # definition it came from are as they were.
    assert held.name == TODO_ADD.name
    assert "enum" not in str(TODO_ADD.input_schema)
    message = held_texts(MESSAGE, ["team sync"]).input_schema["properties"]
    assert message["to"]["enum"] == ["team sync"]
    assert "enum" not in message["at"]
    assert "enum" not in message["cc"]
    # A parameter named is held even where its schema has a pattern (an id's).
    patterned = ToolDefinition(
        "cancel",
        "Cancel by id.",
        _object({"event_id": {"type": "string", "pattern": r"^E-\d+$"}}, required=["event_id"]),
    )
    cancel = held_texts(patterned, ["E-1"], {"event_id"}).input_schema["properties"]
    assert cancel["event_id"]["enum"] == ["E-1"]
    assert "enum" not in held_texts(patterned, ["E-1"]).input_schema["properties"]["event_id"]
    assert accepts(
        vocab,
        line_grammar([held_texts(patterned, ["E-1"], {"event_id"})], []),
        ' cancel(event_id="E-1")\n',
    )


@pytest.mark.parametrize(
    ("schema", "value", "ok"),
    [
        ({"type": "integer"}, "4)", True),
        ({"type": "integer"}, "r1)", False),
        ({"type": "integer"}, "4.5)", False),
        ({"type": "string"}, '"sara@example.com",', True),
        ({"type": "string"}, '"5307.25 yen")', True),
        ({"type": "string"}, '"{r2} yen")', False),  # a template of a variable, not its value
        ({"type": "number"}, "144,", True),
        ({"type": "boolean"}, "True)", True),
    ],
)
def test_a_resumed_value_is_a_literal_then_the_character_after_it(
    vocab: Any, schema: dict[str, Any], value: str, ok: bool
) -> None:
    assert accepts(vocab, value_grammar(schema, value[-1]), value) is ok


def test_a_number_that_may_be_written_as_text_is_no_free_text() -> None:
    """A ``Decimal`` (a number or its text) took the calculator's whole result as text."""
    decimal = {"anyOf": [{"type": "number"}, {"type": "string"}]}
    assert not takes_free_text(decimal)
    assert takes_free_text({"anyOf": [{"type": "string"}, {"type": "null"}]})
    assert takes_free_text({"type": "string"})
    assert not takes_free_text({"type": "string", "format": "date"})


@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [{"type": "number"}, {"type": "string", "enum": ["all"]}]},  # a choice
        {"anyOf": [{"type": "string"}, {"type": "string", "format": "date"}]},  # no number
        {"type": "string"},
    ],
)
def test_other_unions_keep_their_branches(schema: dict[str, Any]) -> None:
    assert number_branch(schema) == schema


def test_a_number_or_its_text_is_its_number_branch() -> None:
    decimal = {"description": "The first number", "anyOf": [{"type": "number"}, {"type": "string"}]}
    assert number_branch(decimal) == {"description": "The first number", "type": "number"}
    # An optional number, and a pydantic text branch with a pattern, are numbers too.
    optional = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert number_branch(optional) == {"type": "integer"}
    patterned = {"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^-?[0-9.]+$"}]}
    assert number_branch(patterned)["type"] == "number"
