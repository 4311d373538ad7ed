"""MethodToolCallback: hand-written definitions, both call paths, failures."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest

from springtail.tools import (
    MethodToolCallback,
    ToolArgumentsError,
    ToolCallback,
    ToolContext,
    ToolDefinition,
    ToolExecutionError,
    ToolMetadata,
    tool,
    tool_callbacks,
)

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "City name"}},
    "required": ["city"],
    "additionalProperties": False,
}
DEFINITION = ToolDefinition("weather", "Current weather for a city.", SCHEMA)


class WeatherService:
    def __init__(self) -> None:
        self.unit = "C"

    def current(self, city: str) -> str:
        return f"20{self.unit} in {city}"

    async def current_async(self, city: str) -> str:
        await asyncio.sleep(0)
        return f"21{self.unit} in {city}"


def test_hand_written_definition_around_an_unbound_method_and_object() -> None:
    callback = MethodToolCallback(
        tool_definition=DEFINITION,
        tool_method=WeatherService.current,
        tool_object=WeatherService(),
    )
    assert isinstance(callback, ToolCallback)
    assert callback.tool_definition is DEFINITION
    assert callback.tool_metadata == ToolMetadata(is_async=False)
    assert callback.call('{"city": "Oslo"}') == "20C in Oslo"


def test_bound_method_and_plain_function() -> None:
    service = WeatherService()
    bound = MethodToolCallback(tool_definition=DEFINITION, tool_method=service.current)
    assert bound.call('{"city": "Rome"}') == "20C in Rome"

    def lookup(city: str) -> dict[str, str]:
        return {"city": city}

    plain = MethodToolCallback(
        tool_definition=DEFINITION,
        tool_method=lookup,
        tool_metadata=ToolMetadata(return_direct=True),
        result_converter=lambda result, return_type: f"{result['city']}!",
    )
    assert plain.tool_metadata.return_direct is True
    assert plain.call('{"city": "Bern"}') == "Bern!"


def test_wrapping_a_tool_function_reuses_its_compiled_signature() -> None:
    class Svc:
        @tool
        def current(self, city: str) -> str:
            return city

    svc = Svc()
    (from_decorator,) = tool_callbacks(svc)
    by_hand = MethodToolCallback(tool_definition=DEFINITION, tool_method=svc.current)
    assert by_hand.call('{"city": "Oslo"}') == "Oslo"
    assert isinstance(from_decorator, MethodToolCallback)
    assert by_hand._compiled is from_decorator._load()  # built once, shared


def test_arguments_are_validated_against_the_signature() -> None:
    callback = MethodToolCallback(tool_definition=DEFINITION, tool_method=WeatherService().current)
    with pytest.raises(ToolArgumentsError, match="'city' is required but missing"):
        callback.call("{}")


def test_definition_must_be_a_tool_definition() -> None:
    with pytest.raises(TypeError, match="ToolDefinition"):
        MethodToolCallback(tool_definition=SCHEMA, tool_method=len)  # type: ignore[arg-type]


async def test_both_paths_run_sync_and_async_tools() -> None:
    service = WeatherService()
    sync_cb = MethodToolCallback(tool_definition=DEFINITION, tool_method=service.current)
    async_cb = MethodToolCallback(tool_definition=DEFINITION, tool_method=service.current_async)
    assert sync_cb.is_async is False
    assert async_cb.is_async is True
    assert await sync_cb.acall('{"city": "A"}') == "20C in A"
    assert await async_cb.acall('{"city": "B"}') == "21C in B"
    # The sync entry point works for an async tool even inside a running loop.
    assert async_cb.call('{"city": "C"}') == "21C in C"


def test_call_runs_an_async_tool_from_plain_code() -> None:
    callback = MethodToolCallback(
        tool_definition=DEFINITION, tool_method=WeatherService().current_async
    )
    assert callback.call('{"city": "D"}') == "21C in D"


async def test_acall_runs_a_sync_tool_off_the_event_loop() -> None:
    threads: list[threading.Thread] = []

    @tool
    def where() -> str:
        threads.append(threading.current_thread())
        return "ok"

    (callback,) = tool_callbacks(where)
    assert await callback.acall("{}") == "ok"
    assert threads[0] is not threading.current_thread()


async def test_acall_of_a_blocking_tool_does_not_block_the_loop() -> None:
    release = threading.Event()

    @tool
    def wait_for_release() -> str:
        release.wait(timeout=10)
        return "released"

    (callback,) = tool_callbacks(wait_for_release)
    task = asyncio.create_task(callback.acall("{}"))
    await asyncio.sleep(0.01)  # the loop keeps running while the tool blocks
    assert not task.done()
    release.set()
    assert await task == "released"


def test_context_reaches_a_hand_wrapped_method() -> None:
    class Greeter:
        def greet(self, greeting: str, ctx: ToolContext) -> str:
            return f"{greeting}, {ctx['user']}"

    definition = ToolDefinition(
        "greet",
        "Greet the user.",
        {"type": "object", "properties": {"greeting": {"type": "string"}}, "required": []},
    )
    callback = MethodToolCallback(
        tool_definition=definition, tool_method=Greeter.greet, tool_object=Greeter()
    )
    assert callback.call('{"greeting": "Hi"}', ToolContext({"user": "ann"})) == "Hi, ann"


class Boom(RuntimeError):
    pass


def failing_tools() -> list[Any]:
    @tool
    def sync_fail() -> str:
        raise Boom("the disk is full")

    @tool
    async def async_fail() -> str:
        raise Boom("the disk is full")

    return tool_callbacks(sync_fail, async_fail)


@pytest.mark.parametrize("index", [0, 1])
async def test_exceptions_become_tool_execution_errors_on_both_paths(index: int) -> None:
    callback = failing_tools()[index]
    runs: list[Callable[[], str]] = [lambda: callback.call("{}")]
    for run in runs:
        with pytest.raises(ToolExecutionError) as info:
            run()
        assert str(info.value) == "the disk is full"
        assert isinstance(info.value.cause, Boom)
        assert info.value.tool_definition is callback.tool_definition
    with pytest.raises(ToolExecutionError) as info:
        await callback.acall("{}")
    assert isinstance(info.value.cause, Boom)
    assert info.value.__cause__ is info.value.cause


async def test_a_tool_execution_error_raised_by_the_tool_passes_through() -> None:
    own = ToolExecutionError(None, ValueError("inner"), "my own message")

    @tool
    def sync_raise() -> str:
        raise own

    @tool
    async def async_raise() -> str:
        raise own

    for callback in tool_callbacks(sync_raise, async_raise):
        with pytest.raises(ToolExecutionError) as info:
            callback.call("{}")
        assert info.value is own
        with pytest.raises(ToolExecutionError) as info:
            await callback.acall("{}")
        assert info.value is own


@pytest.mark.parametrize("exc_type", [KeyboardInterrupt, SystemExit, asyncio.CancelledError])
async def test_base_exceptions_are_never_wrapped(exc_type: type[BaseException]) -> None:
    @tool
    def sync_stop() -> str:
        raise exc_type()

    @tool
    async def async_stop() -> str:
        raise exc_type()

    sync_cb, async_cb = tool_callbacks(sync_stop, async_stop)
    with pytest.raises(exc_type):
        sync_cb.call("{}")
    with pytest.raises(exc_type):
        async_cb.call("{}")
    with pytest.raises(exc_type):
        await async_cb.acall("{}")
    if exc_type is not asyncio.CancelledError:
        with pytest.raises(exc_type):
            await sync_cb.acall("{}")


def test_a_failing_converter_is_a_tool_execution_error() -> None:
    def broken(result: Any, return_type: Any) -> str:
        raise ValueError("cannot render")

    @tool(result_converter=broken)
    def f() -> int:
        return 1

    (callback,) = tool_callbacks(f)
    with pytest.raises(ToolExecutionError, match="cannot render"):
        callback.call("{}")
