"""BFCL's AST checker (``eval_checker/ast_eval/ast_checker.py``), re-implemented for Python.

The rules, as BFCL applies them to a model's decoded calls (a list of
``{function name: {parameter: value}}``):

- ``parallel`` categories: as many calls as answers, matched in any order
  (each answer, in turn, takes the first unmatched call that passes);
- ``multiple`` categories: exactly one call, checked against the answer's
  function;
- the rest (``simple``): exactly one call, checked against the first doc;
- one call: the name matches; every required parameter is present; no
  parameter outside the doc or the answer; each value is of the doc's type
  (an int is accepted for a ``float``; a value of the answer's type when it
  differs from the doc's, a "variable", is accepted too) and among the
  answer's allowed values: strings compared after BFCL's
  :func:`standardize_string`, lists element by element (their strings
  standardized), dicts key by key, lists of dicts dict by dict in order;
  a parameter may be absent only when ``""`` is among its allowed values.

The quirks stay as BFCL has them (ints are not accepted inside a list of
floats; a list parameter that may be absent skips the inner type check), so
a score here is a score there. Only Python's rules are kept: the Java and
JavaScript categories are not run. Names are compared as BFCL writes them:
the runner maps a sanitised tool name back before calling the checker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

__all__ = ["Verdict", "ast_check", "is_empty_output", "standardize_string"]

Call = Mapping[str, Mapping[str, Any]]
"""One decoded call: ``{name: {parameter: value}}``."""

_PYTHON_TYPES: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "any": str,
}
_NESTED = ("array", "tuple")
_PUNCTUATION = re.compile(r"[ \,\.\/\-\_\*\^]")


@dataclass(frozen=True)
class Verdict:
    """Whether the calls pass, and BFCL's error type and messages when not."""

    valid: bool
    error_type: str = ""
    errors: tuple[str, ...] = ()


_OK = Verdict(True)


def _fail(error_type: str, *errors: str) -> Verdict:
    return Verdict(False, error_type, tuple(errors))


def standardize_string(text: str) -> str:
    """BFCL's string normalisation: no spaces or ``,./-_*^``, lower case, ``'`` as ``"``."""
    return _PUNCTUATION.sub("", text).lower().replace("'", '"')


def is_empty_output(calls: Sequence[Call] | None) -> bool:
    """BFCL's ``is_empty_output``: no call at all (``[]`` or ``[{}]``), or nothing decoded."""
    return calls is None or len(calls) == 0 or (len(calls) == 1 and len(calls[0]) == 0)


def _answer_type(allowed: Sequence[Any]) -> type | None:
    for answer in allowed:
        if answer != "":
            return type(answer)
    return None


@dataclass(frozen=True)
class _TypeCheck:
    valid: bool
    is_variable: bool = False
    error_type: str = ""
    error: str = ""


def _type_check(
    param: str,
    value: Any,
    allowed: Sequence[Any],
    description: str,
    expected: type,
    nested: type | None,
) -> _TypeCheck:
    is_variable = False
    answer_type = _answer_type(allowed)
    if answer_type is not None and answer_type is not expected:
        is_variable = True
    failure = _TypeCheck(
        False,
        False,
        "type_error:simple",
        f"Incorrect type for parameter {param!r}. Expected type {description}, "
        f"got {type(value).__name__}. Parameter value: {value!r}.",
    )
    if type(value) is expected:
        if nested is None:
            return _TypeCheck(True, is_variable)
        for item in allowed:
            ok = True
            if type(item) is list:
                for element in cast(list[Any], value):
                    if not _type_check(param, element, item, nested.__name__, nested, None).valid:
                        ok = False
                        break
            if ok:
                return _TypeCheck(True, is_variable)
        failure = _TypeCheck(
            False,
            False,
            "type_error:nested",
            f"Nested type checking failed for parameter {param!r}. Expected outer type "
            f"{description} with inner type {nested.__name__}. Parameter value: {value!r}.",
        )
    if answer_type is not None and type(value) is answer_type:
        # A "variable": BFCL returns its running result, valid unless the nested check failed.
        if failure.error_type == "type_error:nested":
            return _TypeCheck(False, True, failure.error_type, failure.error)
        return _TypeCheck(True, True)
    if failure.error_type == "type_error:nested":
        # BFCL appends the simple type error to the nested one and reports the simple type.
        return _TypeCheck(False, False, "type_error:simple", failure.error)
    return failure


def _standardized(values: Sequence[Any]) -> list[Any]:
    return [standardize_string(v) if type(v) is str else v for v in values]


def _string_check(param: str, value: str, allowed: Sequence[Any]) -> Verdict:
    if standardize_string(value) not in [standardize_string(a) for a in allowed if type(a) is str]:
        return _fail(
            "value_error:string",
            f"Invalid value for parameter {param!r}: {value!r}. Expected one of {list(allowed)}. "
            "Case insensitive.",
        )
    return _OK


def _list_check(param: str, value: list[Any], allowed: Sequence[Any]) -> Verdict:
    if _standardized(value) not in [_standardized(a) for a in allowed]:
        return _fail(
            "value_error:list/tuple",
            f"Invalid value for parameter {param!r}: {value!r}. Expected one of {list(allowed)}.",
        )
    return _OK


def _dict_check(param: str, value: Mapping[str, Any], allowed: Sequence[Any]) -> Verdict:
    result = _fail("dict_checker:unclear")
    for answer in allowed:
        if answer == "":
            continue
        result = _fail("dict_checker:unclear")
        ok = True
        for key, item in value.items():
            if key not in answer:
                result = _fail("value_error:dict_key", f"Unexpected dict key parameter: '{key}'.")
                ok = False
                break
            options = _standardized(answer[key])
            if (standardize_string(item) if type(item) is str else item) not in options:
                result = _fail(
                    "value_error:dict_value",
                    f"Invalid value for parameter {key!r}: {item!r}. Expected one of {options}.",
                )
                ok = False
                break
        for key, options in answer.items():
            if key not in value and "" not in options:
                result = _fail("value_error:dict_key", f"Missing dict key parameter: '{key}'.")
                ok = False
                break
        if ok:
            return _OK
    return result


def _list_dict_check(param: str, value: list[Any], allowed: Sequence[Any]) -> Verdict:
    result = _fail("list_dict_checker:unclear")
    for answer in allowed:
        if len(value) != len(answer):
            result = _fail(
                "value_error:list_dict_count", "Wrong number of dictionaries in the list."
            )
            continue
        ok = True
        for i, item in enumerate(value):
            result = _dict_check(param, item, [answer[i]])
            if not result.valid:
                ok = False
                break
        if ok:
            return _OK
    return result


def simple_check(function: Mapping[str, Any], call: Call, answer: Call) -> Verdict:
    """One call against one answer (``{name: {param: [allowed]}}``) and its function doc."""
    allowed_by_param: Mapping[str, Sequence[Any]] = next(iter(answer.values()))
    name = function["name"]
    details: Mapping[str, Any] = function["parameters"]["properties"]
    required: Sequence[str] = function["parameters"].get("required") or []
    if name not in call:
        return _fail(
            "simple_function_checker:wrong_func_name",
            f"Function name {name!r} not found in model output.",
        )
    params = call[name]
    for param in required:
        if param not in params:
            return _fail(
                "simple_function_checker:missing_required",
                f"Missing required parameter: {param!r}.",
            )
    for param, raw in params.items():
        if param not in details or param not in allowed_by_param:
            return _fail(
                "simple_function_checker:unexpected_param", f"Unexpected parameter: {param!r}."
            )
        allowed = allowed_by_param[param]
        description: str = details[param]["type"]
        expected = _PYTHON_TYPES[description]
        nested = _PYTHON_TYPES[details[param]["items"]["type"]] if description in _NESTED else None
        value = raw
        if description == "tuple" and type(value) is tuple:
            value = list(value)
        if description == "float" and type(value) is int:
            value = float(value)
        typed = _type_check(param, value, allowed, description, expected, nested)
        if not typed.valid:
            return _fail(typed.error_type, typed.error)
        if not typed.is_variable:
            if expected is dict:
                verdict = _dict_check(param, value, allowed)
            elif expected is list and nested is dict:
                verdict = _list_dict_check(param, value, allowed)
            elif expected is str:
                verdict = _string_check(param, value, allowed)
            elif expected is list:
                verdict = _list_check(param, value, allowed)
            else:
                verdict = None
            if verdict is not None:
                if not verdict.valid:
                    return verdict
                continue
        if value not in allowed:
            return _fail(
                "value_error:others",
                f"Invalid value for parameter {param!r}: {value!r}. Expected one of "
                f"{list(allowed)}.",
            )
    for param, allowed in allowed_by_param.items():
        if param not in params and "" not in allowed:
            return _fail(
                "simple_function_checker:missing_optional",
                f"Optional parameter {param!r} not provided and not marked as optional.",
            )
    return _OK


def _find(functions: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any] | None:
    return next((f for f in functions if f["name"] == name), None)


def _parallel_check(
    functions: Sequence[Mapping[str, Any]], calls: Sequence[Call], answers: Sequence[Call]
) -> Verdict:
    if len(calls) != len(answers):
        return _fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions.")
    matched: list[int] = []
    for i, answer in enumerate(answers):
        function = _find(functions, next(iter(answer)))
        if function is None:
            return _fail("parallel_function_checker_no_order:cannot_find_description")
        verdict = _OK
        for index, call in enumerate(calls):
            if index in matched:
                continue
            verdict = simple_check(function, call, answer)
            if verdict.valid:
                matched.append(index)
                break
        if not verdict.valid:
            return _fail(
                "parallel_function_checker_no_order:cannot_find_match",
                f"Could not find a matching function among the model's calls for answer {i}.",
                *verdict.errors,
            )
    return _OK


def ast_check(
    category: str,
    functions: Sequence[Mapping[str, Any]],
    calls: Sequence[Call],
    answers: Sequence[Call],
) -> Verdict:
    """BFCL's ``ast_checker`` for a Python category: do ``calls`` answer the entry?"""
    if "parallel" in category:
        return _parallel_check(functions, calls, answers)
    if "multiple" in category:
        if len(calls) != len(answers):
            return _fail("multiple_function_checker:wrong_count", "Wrong number of functions.")
        function = _find(functions, next(iter(answers[0])))
        if function is None:
            return _fail("multiple_function_checker:cannot_find_description")
        return simple_check(function, calls[0], answers[0])
    if len(calls) != 1:
        return _fail("simple_function_checker:wrong_count", "Wrong number of functions.")
    return simple_check(functions[0], calls[0], answers[0])
