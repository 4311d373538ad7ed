"""BFCL's multi-turn checker (``multi_turn_checker.py``, ``multi_turn_utils.py``), re-implemented.

A multi-turn entry runs against BFCL's own state-based API classes (vendored
under ``data/func_source_code``), one instance per involved class loaded
from the entry's ``initial_config``. Two sets of instances live side by
side: the model's, which its tool calls change while the conversation runs,
and the ground truth's, which the entry's ground-truth calls change turn by
turn. After each turn whose ground truth is not empty, BFCL requires:

1. the model made at least one call in the turn;
2. every involved instance has the same public attributes (names not
   starting with ``_``) as the ground truth's: the **state check**;
3. every result of the turn's ground-truth calls is among the results of the
   model's calls so far, counted with multiplicity, in any order: the
   **response check**.

A turn whose ground truth is empty is not checked. A conversation that hit
BFCL's step limit (more than 20 steps with calls in one turn) fails.

Calls run as BFCL's ``execute_multi_turn_func_call`` runs them: a method
name resolves to the last involved class that has it, a few names (``kill``,
``exit``, ``run`` ...) are refused, a result is kept as text (``str`` as it
is, a ``dict`` as JSON, anything else through ``str``) and an exception
becomes ``"Error during execution: <message>"``. Ground-truth call strings
are parsed with :mod:`ast` and their literal arguments read with
``ast.literal_eval``: nothing is ``eval``'d.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.bfcl._checker import Verdict
from bench.bfcl._data import Entry

__all__ = ["MAX_STEPS", "Backend", "MultiTurnJudge", "as_text", "parse_call"]

MAX_STEPS = 20
"""BFCL's MAXIMUM_STEP_LIMIT: a turn with more steps than this is force-terminated."""

_PACKAGE = "bench.bfcl.data.func_source_code"
# BFCL's CLASS_FILE_PATH_MAPPING, for the classes multi_turn_base uses.
_MODULES: dict[str, str] = {
    "GorillaFileSystem": "gorilla_file_system",
    "MathAPI": "math_api",
    "MessageAPI": "message_api",
    "TwitterAPI": "posting_api",
    "TicketAPI": "ticket_api",
    "TradingBot": "trading_bot",
    "TravelAPI": "travel_booking",
    "VehicleControlAPI": "vehicle_control",
}
_STATELESS = frozenset({"MathAPI"})
_REFUSED = frozenset({"kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run"})


def as_text(result: Any) -> str:
    """A call's result as BFCL keeps it: ``str`` unchanged, ``dict`` as JSON, else ``str()``."""
    if type(result) is str:
        return result
    if type(result) is dict:
        try:
            return json.dumps(result)
        except (TypeError, ValueError):
            return str(result)
    return str(result)


def parse_call(text: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """``"mv(source='a', destination='b')"`` as its name, positional and keyword arguments.

    Raises:
        ValueError: ``text`` is not one call of a plain name with literal arguments.
    """
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as exc:
        raise ValueError(f"not a call: {text!r}") from exc
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise ValueError(f"not a call of a plain name: {text!r}")
    if any(k.arg is None for k in node.keywords):
        raise ValueError(f"not a call with named arguments only: {text!r}")
    try:
        args = tuple(ast.literal_eval(a) for a in node.args)
        kwargs = {str(k.arg): ast.literal_eval(k.value) for k in node.keywords}
    except ValueError as exc:
        raise ValueError(f"not a call with literal arguments: {text!r}") from exc
    return node.func.id, args, kwargs


class Backend:
    """One entry's instances of BFCL's API classes, loaded from its ``initial_config``."""

    def __init__(self, entry: Entry) -> None:
        self.instances: dict[str, Any] = {}
        self._methods: dict[str, Callable[..., Any]] = {}
        for class_name in entry.involved_classes:
            module = importlib.import_module(f"{_PACKAGE}.{_MODULES[class_name]}")
            instance = getattr(module, class_name)()
            if class_name not in _STATELESS:
                config = entry.initial_config.get(class_name, {})
                instance._load_scenario(copy.deepcopy(config), long_context=False)
            self.instances[class_name] = instance
            for name, method in inspect.getmembers(instance, predicate=inspect.ismethod):
                if not name.startswith("_"):
                    self._methods[name] = method

    def execute(
        self, name: str, args: Sequence[Any] = (), kwargs: Mapping[str, Any] | None = None
    ) -> str:
        """Run one call; its result (or error) as the text BFCL compares."""
        try:
            if name in _REFUSED:
                raise PermissionError(f"Function call {name} is not allowed.")
            method = self._methods.get(name)
            if method is None:
                raise NameError(f"name '{name}' is not defined")
            return as_text(method(*args, **dict(kwargs or {})))
        except Exception as exc:  # the model sees and the checker compares the error
            return f"Error during execution: {exc}"

    def keyword_arguments(
        self, name: str, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A call's arguments by parameter name (a ground truth's positional ones named).

        Raises:
            KeyError: No involved class has the method ``name``.
            TypeError: The arguments do not fit the method.
        """
        signature = inspect.signature(self._methods[name])
        return dict(signature.bind(*args, **kwargs).arguments)

    def execute_text(self, text: str) -> str:
        """Run one ground-truth call string."""
        try:
            name, args, kwargs = parse_call(text)
        except ValueError as exc:
            return f"Error during execution: {exc}"
        return self.execute(name, args, kwargs)


def state_check(model: Backend, truth: Backend) -> Verdict:
    """BFCL's ``state_checker``: the same public attributes, instance by instance."""
    for class_name, expected in truth.instances.items():
        actual = model.instances[class_name]
        differences = [
            f"{class_name}.{attr}"
            for attr in vars(expected)
            if not attr.startswith("_") and getattr(actual, attr) != getattr(expected, attr)
        ]
        if differences:
            return Verdict(
                False,
                "multi_turn:instance_state_mismatch",
                (
                    f"Model instance for {class_name} does not match the ground truth's state.",
                    *differences,
                ),
            )
    return Verdict(True)


def response_check(model_results: Sequence[str], truth_results: Sequence[str]) -> Verdict:
    """BFCL's ``response_checker``: the ground truth's results are among the model's."""
    remaining = list(model_results)
    missing = []
    for item in truth_results:
        try:
            remaining.remove(item)
        except ValueError:
            missing.append(item)
    if missing:
        return Verdict(
            False,
            "multi_turn:execution_response_mismatch",
            tuple(f"missing result: {m[:200]}" for m in missing),
        )
    return Verdict(True)


@dataclass
class _TurnLog:
    results: list[str]
    steps_with_calls: int = 0


class MultiTurnJudge:
    """Plays one entry's ground truth next to the model's calls and checks each turn.

    The runner executes the model's calls with :meth:`execute` (on
    :attr:`model`), marks each model response with calls with
    :meth:`step`, and asks :meth:`end_turn` for the turn's verdict.
    """

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self.model = Backend(entry)
        self.truth = Backend(entry)
        self._all_results: list[str] = []
        self._turn = _TurnLog([])
        self.turn_index = 0

    def execute(self, name: str, kwargs: Mapping[str, Any]) -> str:
        """Run one of the model's calls on its instances; the result goes to the model."""
        result = self.model.execute(name, (), kwargs)
        self._turn.results.append(result)
        return result

    def step(self) -> None:
        """The model answered with (decodable) calls once more in this turn."""
        self._turn.steps_with_calls += 1

    def end_turn(self, force_quit: bool = False) -> Verdict:
        """The verdict on the turn that just ended; the next turn starts."""
        index, turn = self.turn_index, self._turn
        self.turn_index += 1
        self._turn = _TurnLog([])
        self._all_results.extend(turn.results)
        truth_calls: Sequence[str] = self.entry.answer[index]
        truth_results = [self.truth.execute_text(c) for c in truth_calls]
        if force_quit:
            return Verdict(
                False,
                "multi_turn:force_terminated",
                (f"more than {MAX_STEPS} steps in turn {index}",),
            )
        if not truth_calls:
            return Verdict(True)
        if turn.steps_with_calls == 0:
            return Verdict(
                False,
                "multi_turn:empty_turn_model_response",
                (f"Model response list is empty for turn {index}",),
            )
        verdict = state_check(self.model, self.truth)
        if not verdict.valid:
            return verdict
        return response_check(self._all_results, truth_results)
