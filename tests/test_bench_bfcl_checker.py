"""bench/bfcl/_checker.py: BFCL's AST rules on hand-made calls."""

from __future__ import annotations

from typing import Any

import pytest
from bench.bfcl._checker import ast_check, is_empty_output, standardize_string

WEATHER: dict[str, Any] = {
    "name": "weather.get",
    "description": "Weather in a city.",
    "parameters": {
        "type": "dict",
        "required": ["city"],
        "properties": {
            "city": {"type": "string", "description": "City, State."},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": "integer"},
            "threshold": {"type": "float"},
            "hours": {"type": "array", "items": {"type": "integer"}},
            "options": {"type": "dict", "properties": {"wind": {"type": "boolean"}}},
        },
    },
}
ANSWER: list[dict[str, Any]] = [
    {
        "weather.get": {
            "city": ["San Francisco, CA", "SF"],
            "unit": ["", "fahrenheit"],
            "days": [3],
            "threshold": [2.0, ""],
            "hours": [[9, 12], ""],
            "options": [{"wind": [True]}, ""],
        }
    }
]


def check(call: dict[str, Any], answer: list[dict[str, Any]] = ANSWER) -> tuple[bool, str]:
    verdict = ast_check("live_simple", [WEATHER], [{"weather.get": call}], answer)
    return verdict.valid, verdict.error_type


def test_right_call_passes() -> None:
    assert check({"city": "San Francisco, CA", "days": 3}) == (True, "")


def test_strings_are_standardized() -> None:
    assert check({"city": "san francisco ca", "days": 3})[0]
    assert check({"city": "s.f.", "days": 3})[0]


def test_wrong_value_fails() -> None:
    assert check({"city": "Oakland, CA", "days": 3}) == (False, "value_error:string")
    assert check({"city": "SF", "days": 4}) == (False, "value_error:others")


def test_missing_required_fails() -> None:
    assert check({"days": 3}) == (False, "simple_function_checker:missing_required")


def test_a_parameter_without_empty_string_in_its_answer_must_be_given() -> None:
    assert check({"city": "SF"}) == (False, "simple_function_checker:missing_optional")


def test_unknown_parameter_fails() -> None:
    assert check({"city": "SF", "days": 3, "mood": "sunny"}) == (
        False,
        "simple_function_checker:unexpected_param",
    )


def test_int_is_accepted_for_float_but_a_string_is_not() -> None:
    assert check({"city": "SF", "days": 3, "threshold": 2})[0]
    assert check({"city": "SF", "days": 3, "threshold": "2"}) == (False, "type_error:simple")


def test_wrong_type_fails() -> None:
    assert check({"city": "SF", "days": "3"}) == (False, "type_error:simple")
    assert check({"city": "SF", "days": True}) == (False, "type_error:simple")


def test_lists_compare_whole_and_in_order() -> None:
    assert check({"city": "SF", "days": 3, "hours": [9, 12]})[0]
    assert check({"city": "SF", "days": 3, "hours": [12, 9]}) == (False, "value_error:list/tuple")


def test_dicts_compare_key_by_key() -> None:
    assert check({"city": "SF", "days": 3, "options": {"wind": True}})[0]
    assert check({"city": "SF", "days": 3, "options": {"wind": False}}) == (
        False,
        "value_error:dict_value",
    )
    assert check({"city": "SF", "days": 3, "options": {"rain": True}}) == (
        False,
        "value_error:dict_key",
    )


def test_wrong_function_name_fails() -> None:
    verdict = ast_check("live_simple", [WEATHER], [{"weather_get": {"city": "SF"}}], ANSWER)
    assert verdict.error_type == "simple_function_checker:wrong_func_name"


def test_simple_needs_exactly_one_call() -> None:
    call = {"weather.get": {"city": "SF", "days": 3}}
    verdict = ast_check("live_simple", [WEATHER], [call, call], ANSWER)
    assert verdict.error_type == "simple_function_checker:wrong_count"


SUM: dict[str, Any] = {
    "name": "math.sum",
    "description": "Sum.",
    "parameters": {
        "type": "dict",
        "required": ["numbers"],
        "properties": {"numbers": {"type": "array", "items": {"type": "float"}}},
    },
}


def test_ints_are_not_accepted_inside_a_float_list_as_in_bfcl() -> None:
    answer = [{"math.sum": {"numbers": [[1.0, 2.0]]}}]
    assert ast_check("simple", [SUM], [{"math.sum": {"numbers": [1.0, 2.0]}}], answer).valid
    verdict = ast_check("simple", [SUM], [{"math.sum": {"numbers": [1, 2]}}], answer)
    assert verdict.error_type == "type_error:nested"


def test_multiple_checks_the_answers_function_among_several() -> None:
    answer = [{"math.sum": {"numbers": [[1.0, 2.0]]}}]
    calls = [{"math.sum": {"numbers": [1.0, 2.0]}}]
    assert ast_check("live_multiple", [WEATHER, SUM], calls, answer).valid
    wrong = [{"weather.get": {"city": "SF", "days": 3}}]
    assert not ast_check("live_multiple", [WEATHER, SUM], wrong, answer).valid


PARALLEL_ANSWER: list[dict[str, Any]] = [
    {"weather.get": {"city": ["Boston, MA"], "days": [1]}},
    {"weather.get": {"city": ["San Francisco, CA"], "days": [2]}},
]


def test_parallel_calls_match_in_any_order() -> None:
    calls = [
        {"weather.get": {"city": "San Francisco, CA", "days": 2}},
        {"weather.get": {"city": "Boston, MA", "days": 1}},
    ]
    assert ast_check("live_parallel", [WEATHER], calls, PARALLEL_ANSWER).valid


def test_parallel_needs_every_call_once() -> None:
    one = [{"weather.get": {"city": "Boston, MA", "days": 1}}]
    assert (
        ast_check("live_parallel", [WEATHER], one, PARALLEL_ANSWER).error_type
        == "parallel_function_checker_no_order:wrong_count"
    )
    twice = one + one
    assert (
        ast_check("live_parallel", [WEATHER], twice, PARALLEL_ANSWER).error_type
        == "parallel_function_checker_no_order:cannot_find_match"
    )


def test_parallel_multiple_mixes_functions() -> None:
    answer = [*PARALLEL_ANSWER[:1], {"math.sum": {"numbers": [[1.0]]}}]
    calls: list[dict[str, Any]] = [
        {"math.sum": {"numbers": [1.0]}},
        {"weather.get": {"city": "Boston, MA", "days": 1}},
    ]
    assert ast_check("live_parallel_multiple", [WEATHER, SUM], calls, answer).valid


@pytest.mark.parametrize(
    ("calls", "empty"),
    [(None, True), ([], True), ([{}], True), ([{"f": {}}], False)],
)
def test_irrelevance_passes_only_without_a_call(calls: Any, empty: bool) -> None:
    assert is_empty_output(calls) is empty


def test_standardize_string_is_bfcls() -> None:
    assert standardize_string("April 1, 2024") == standardize_string("april 1 2024")
    assert standardize_string("It's") == 'it"s'
    assert standardize_string("a-b_c*d^e/f.g") == "abcdefg"
