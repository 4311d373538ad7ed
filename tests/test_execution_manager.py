"""ToolCallingManager: what runs, in what order, concurrently, and how failures are answered."""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable
from typing import Any

import pytest

from springtail import DuplicateToolNameError  # the public name (springtail.client's too)
from springtail.execution import (
    DefaultToolExecutionExceptionProcessor,
    StaticToolCallbackResolver,
    ToolCallingManager,
    ToolExecutionResult,
    UnknownToolError,
)
from springtail.messages import (
    AssistantMessage,
    ChatOptions,
    ChatResponse,
    Generation,
    Prompt,
    SystemMessage,
    ToolCall,
    ToolResponse,
    ToolResponseMessage,
    UserMessage,
)
from springtail.tools import (
    ToolArgumentsError,
    ToolContext,
    ToolDefinition,
    ToolExecutionError,
    ToolMetadata,
    tool,
    tool_callbacks,
)

SCHEMA = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


class Tool:
    """A hand-written ToolCallback around ``fn(arguments, context)``, sync or async."""

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        *,
        return_direct: bool = False,
        timeout: float | None = None,
        requires_approval: bool = False,
    ) -> None:
        self.tool_definition = ToolDefinition(name, f"The {name} tool.", SCHEMA)
        self.is_async = inspect.iscoroutinefunction(fn)
        self.tool_metadata = ToolMetadata(
            return_direct=return_direct,
            timeout=timeout,
            requires_approval=requires_approval,
            is_async=self.is_async,
        )
        self.fn = fn
        self.inputs: list[str] = []

    def call(self, tool_input: str, tool_context: ToolContext | None = None) -> Any:
        assert not self.is_async, "the manager must await acall() for async tools"
        self.inputs.append(tool_input)
        return self.fn(tool_input, tool_context)

    async def acall(self, tool_input: str, tool_context: ToolContext | None = None) -> Any:
        assert self.is_async, "the manager must run sync tools on its worker threads"
        self.inputs.append(tool_input)
        return await self.fn(tool_input, tool_context)


def echo(name: str = "echo", **kwargs: Any) -> Tool:
    return Tool(name, lambda args, ctx: f"{name}:{args}", **kwargs)


def calls_response(*calls: tuple[str, str] | ToolCall) -> ChatResponse:
    tool_calls = tuple(
        c if isinstance(c, ToolCall) else ToolCall(f"call-{i}", c[0], c[1])
        for i, c in enumerate(calls)
    )
    return ChatResponse.of(AssistantMessage("", tool_calls))


def prompt_with(*tools: Any, messages: Any = None, **options: Any) -> Prompt:
    return Prompt(
        messages if messages is not None else [UserMessage("go")],
        ChatOptions(tool_callbacks=tools, **options),
    )


def responses_of(result: ToolExecutionResult) -> tuple[ToolResponse, ...]:
    last = result.conversation_history[-1]
    assert isinstance(last, ToolResponseMessage)
    return last.responses


# -- which calls run, and the shape of the result -------------------------------


async def test_a_response_without_tool_calls_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="No tool call requested by the chat model"):
        await ToolCallingManager().aexecute_tool_calls(
            prompt_with(echo()), ChatResponse.of("just text")
        )


async def test_only_the_first_generation_with_tool_calls_runs() -> None:
    first, second = echo("first"), echo("second")
    response = ChatResponse(
        (
            Generation(AssistantMessage("thinking")),
            Generation(AssistantMessage("", (ToolCall("1", "first", "{}"),))),
            Generation(AssistantMessage("", (ToolCall("2", "second", "{}"),))),
        )
    )
    result = await ToolCallingManager().aexecute_tool_calls(prompt_with(first, second), response)
    assert first.inputs == ["{}"]
    assert second.inputs == []
    assert result.conversation_history[-2] == response.results[1].output


async def test_two_offered_tools_with_one_name_are_refused_not_shadowed() -> None:
    """An MCP server's ``calculate`` silently shadowed the local one; ChatClient refused it."""
    local, remote = echo("calculate"), echo("calculate")
    manager = ToolCallingManager()
    prompt = prompt_with(local, remote, echo("other"))
    offered_twice = r"'calculate' offered more than once"
    with pytest.raises(DuplicateToolNameError, match=offered_twice) as refused:
        await manager.aexecute_tool_calls(prompt, calls_response(("calculate", "{}")))
    assert "\n" not in str(refused.value)
    assert refused.value.names == ("calculate",)
    assert isinstance(refused.value, ValueError)  # what callers caught before
    assert local.inputs == remote.inputs == []
    with pytest.raises(DuplicateToolNameError, match=offered_twice):
        manager.resolve_tool_definitions(prompt.options)


async def test_history_is_prompt_then_assistant_then_one_message_in_call_order() -> None:
    # The first call can only finish after the second: order must follow the
    # calls, not the completions.
    second_done = asyncio.Event()

    async def slow(args: str, ctx: Any) -> str:
        await asyncio.wait_for(second_done.wait(), 5)
        return "slow result"

    async def fast(args: str, ctx: Any) -> str:
        second_done.set()
        return "fast result"

    messages = [SystemMessage("be brief"), UserMessage("hi")]
    prompt = prompt_with(Tool("slow", slow), Tool("fast", fast), messages=messages)
    response = calls_response(("slow", "{}"), ("fast", "{}"))
    result = await ToolCallingManager().aexecute_tool_calls(prompt, response)

    history = result.conversation_history
    assert history[:2] == messages
    assert history[2] == response.result.output  # type: ignore[union-attr]
    assert len(history) == 4
    assert responses_of(result) == (
        ToolResponse("call-0", "slow", "slow result"),
        ToolResponse("call-1", "fast", "fast result"),
    )
    assert result.return_direct is False


def test_sync_execute_returns_the_same_result_as_async() -> None:
    result = ToolCallingManager().execute_tool_calls(
        prompt_with(echo()), calls_response(("echo", '{"a": 1}'))
    )
    assert responses_of(result) == (ToolResponse("call-0", "echo", 'echo:{"a": 1}'),)


async def test_sync_execute_works_inside_a_running_event_loop() -> None:
    # A notebook cell: the loop is running and the user calls the sync API.
    result = ToolCallingManager().execute_tool_calls(
        prompt_with(echo()), calls_response(("echo", "{}"))
    )
    assert responses_of(result)[0].response_data == "echo:{}"


async def test_tools_receive_the_request_tool_context() -> None:
    seen: list[Any] = []

    def sync_tool(args: str, ctx: Any) -> str:
        seen.append(ctx)
        return "ok"

    async def async_tool(args: str, ctx: Any) -> str:
        seen.append(ctx)
        return "ok"

    prompt = prompt_with(
        Tool("s", sync_tool), Tool("a", async_tool), tool_context={"user_name": "reader"}
    )
    await ToolCallingManager().aexecute_tool_calls(prompt, calls_response(("s", ""), ("a", "")))
    assert len(seen) == 2
    for ctx in seen:
        assert isinstance(ctx, ToolContext)
        assert ctx["user_name"] == "reader"


async def test_an_empty_tool_context_is_an_empty_tool_context() -> None:
    seen: list[Any] = []

    def record(args: str, ctx: Any) -> str:
        seen.append(ctx)
        return "ok"

    tool = Tool("t", record)
    await ToolCallingManager().aexecute_tool_calls(prompt_with(tool), calls_response(("t", "")))
    assert isinstance(seen[0], ToolContext)
    assert dict(seen[0]) == {}


async def test_a_tool_returning_none_answers_with_an_empty_string() -> None:
    tool = Tool("nothing", lambda args, ctx: None)
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(tool), calls_response(("nothing", ""))
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "nothing", "", False)


# -- lookup -----------------------------------------------------------------------


async def test_request_tools_win_over_the_resolver() -> None:
    request_tool = Tool("lookup", lambda a, c: "from request")
    resolver_tool = Tool("lookup", lambda a, c: "from resolver")
    manager = ToolCallingManager(resolver=StaticToolCallbackResolver([resolver_tool]))
    result = await manager.aexecute_tool_calls(
        prompt_with(request_tool), calls_response(("lookup", ""))
    )
    assert responses_of(result)[0].response_data == "from request"


async def test_names_the_request_lacks_come_from_the_resolver() -> None:
    manager = ToolCallingManager(
        resolver=StaticToolCallbackResolver([Tool("weather", lambda a, c: "sunny")])
    )
    result = await manager.aexecute_tool_calls(
        prompt_with(echo(), tool_names=("weather",)), calls_response(("weather", ""))
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "weather", "sunny")


async def test_an_unknown_tool_is_answered_with_the_tools_that_exist() -> None:
    seen: list[ToolExecutionError] = []

    def processor(error: ToolExecutionError) -> str:
        seen.append(error)
        return DefaultToolExecutionExceptionProcessor(always_throw=False)(error)

    manager = ToolCallingManager(exception_processor=processor)
    result = await manager.aexecute_tool_calls(
        prompt_with(echo("get_weather"), echo("get_time")),
        calls_response(("get_wether", "{}"), ("get_time", "{}")),
    )
    unknown, known = responses_of(result)
    assert unknown.is_error
    assert unknown.name == "get_wether"
    assert "get_wether" in unknown.response_data
    assert "get_weather" in unknown.response_data
    assert "get_time" in unknown.response_data
    assert known == ToolResponse("call-1", "get_time", "get_time:{}")
    assert isinstance(seen[0], UnknownToolError)
    assert seen[0].tool_name == "get_wether"
    assert seen[0].tool_definition is None


async def test_a_tool_the_request_did_not_offer_never_runs() -> None:
    refund = echo("refund_order")
    manager = ToolCallingManager(resolver=StaticToolCallbackResolver([refund]))
    result = await manager.aexecute_tool_calls(
        prompt_with(echo("lookup_order")), calls_response(("refund_order", "{}"))
    )
    answer = responses_of(result)[0]
    assert answer.is_error
    assert "Unknown tool 'refund_order'" in answer.response_data
    assert "The available tools are: lookup_order." in answer.response_data
    assert refund.inputs == []


async def test_a_resolver_tool_runs_when_the_request_names_it() -> None:
    refund = echo("refund_order")
    manager = ToolCallingManager(resolver=StaticToolCallbackResolver([refund]))
    result = await manager.aexecute_tool_calls(
        prompt_with(echo("lookup_order"), tool_names=("refund_order",)),
        calls_response(("refund_order", "{}")),
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "refund_order", "refund_order:{}")


async def test_resolve_unoffered_tools_opts_into_the_resolver_fallback() -> None:
    refund = echo("refund_order")
    manager = ToolCallingManager(
        resolver=StaticToolCallbackResolver([refund]), resolve_unoffered_tools=True
    )
    assert manager.resolve_unoffered_tools
    result = await manager.aexecute_tool_calls(
        prompt_with(echo("lookup_order")), calls_response(("refund_order", "{}"))
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "refund_order", "refund_order:{}")


async def test_an_unknown_tool_answer_lists_the_resolvers_tools_too() -> None:
    manager = ToolCallingManager(
        resolver=StaticToolCallbackResolver([echo("refund_order"), echo("cancel_order")]),
        resolve_unoffered_tools=True,
    )
    result = await manager.aexecute_tool_calls(
        prompt_with(echo("lookup_order")), calls_response(("refund", "{}"))
    )
    answer = responses_of(result)[0].response_data
    assert "lookup_order, refund_order, cancel_order" in answer


async def test_a_resolver_that_fails_answers_that_call_only() -> None:
    class Broken:
        def resolve(self, name: str) -> Any:
            raise ImportError("package acme_tools is broken")

    manager = ToolCallingManager(resolver=Broken())
    result = await manager.aexecute_tool_calls(
        prompt_with(echo(), tool_names=("acme",)), calls_response(("acme", ""), ("echo", ""))
    )
    broken, ok = responses_of(result)
    assert broken.is_error
    assert "acme_tools is broken" in broken.response_data
    assert ok.response_data == "echo:"


def test_resolve_tool_definitions_lists_request_tools_then_resolved_names() -> None:
    weather = Tool("weather", lambda a, c: "")
    manager = ToolCallingManager(resolver=StaticToolCallbackResolver([weather, echo("echo")]))
    options = ChatOptions(
        tool_callbacks=(echo("echo"), echo("time")), tool_names=("weather", "echo")
    )
    names = [d.name for d in manager.resolve_tool_definitions(options)]
    assert names == ["echo", "time", "weather"]
    assert manager.resolve_tool_definitions(None) == []


def test_resolve_tool_definitions_rejects_names_nobody_knows() -> None:
    manager = ToolCallingManager()
    with pytest.raises(ValueError, match="'nope'"):
        manager.resolve_tool_definitions(ChatOptions(tool_names=("nope",)))


# -- failures become answers --------------------------------------------------------


async def test_argument_errors_are_answered_and_marked_as_errors() -> None:
    definition = ToolDefinition("add", "Add.", SCHEMA)

    def add(args: str, ctx: Any) -> str:
        raise ToolArgumentsError(definition, "Field 'left' is required: give a number.")

    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(Tool("add", add)), calls_response(("add", "{}"))
    )
    (response,) = responses_of(result)
    assert response.is_error
    assert response.response_data == "Field 'left' is required: give a number."


async def test_one_failing_call_keeps_the_others_results() -> None:
    def boom(args: str, ctx: Any) -> str:
        raise RuntimeError("the database is down")

    async def aboom(args: str, ctx: Any) -> str:
        raise KeyError("missing")

    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(Tool("boom", boom), Tool("aboom", aboom), echo()),
        calls_response(("echo", "1"), ("boom", ""), ("aboom", ""), ("echo", "2")),
    )
    first, failed, afailed, last = responses_of(result)
    assert first == ToolResponse("call-0", "echo", "echo:1")
    assert failed == ToolResponse("call-1", "boom", "the database is down", True)
    assert afailed.is_error
    assert "missing" in afailed.response_data
    assert last == ToolResponse("call-3", "echo", "echo:2")


async def test_processor_receives_tool_execution_errors_with_the_cause() -> None:
    seen: list[ToolExecutionError] = []

    def boom(args: str, ctx: Any) -> str:
        raise ZeroDivisionError("division by zero")

    def processor(error: ToolExecutionError) -> str:
        seen.append(error)
        return "custom answer"

    manager = ToolCallingManager(exception_processor=processor)
    result = await manager.aexecute_tool_calls(
        prompt_with(Tool("div", boom)), calls_response(("div", ""))
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "div", "custom answer", True)
    assert isinstance(seen[0].cause, ZeroDivisionError)
    assert seen[0].tool_definition is not None
    assert seen[0].tool_definition.name == "div"


async def test_a_raising_processor_ends_the_execution_and_cancels_the_other_calls() -> None:
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def waits(args: str, ctx: Any) -> str:
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    async def boom(args: str, ctx: Any) -> str:
        await started.wait()
        raise ValueError("fatal")

    manager = ToolCallingManager(
        exception_processor=DefaultToolExecutionExceptionProcessor(always_throw=True)
    )
    with pytest.raises(ToolExecutionError, match="fatal"):
        await manager.aexecute_tool_calls(
            prompt_with(Tool("waits", waits), Tool("boom", boom)),
            calls_response(("waits", ""), ("boom", "")),
        )
    assert cancelled.is_set()


async def test_a_processor_returning_non_text_is_a_clear_type_error() -> None:
    manager = ToolCallingManager(exception_processor=lambda error: 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must return the text"):
        await manager.aexecute_tool_calls(
            prompt_with(Tool("t", lambda a, c: 1 / 0)), calls_response(("t", ""))
        )


# -- return direct ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "expected"),
    [((True, True), True), ((True, False), False), ((False, False), False)],
)
async def test_return_direct_only_when_every_called_tool_is(
    flags: tuple[bool, bool], expected: bool
) -> None:
    one = echo("one", return_direct=flags[0])
    two = echo("two", return_direct=flags[1])
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(one, two), calls_response(("one", ""), ("two", ""))
    )
    assert result.return_direct is expected


async def test_a_call_to_an_unknown_tool_is_never_returned_direct() -> None:
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(echo("one", return_direct=True)), calls_response(("one", ""), ("two", ""))
    )
    assert result.return_direct is False


# -- result size --------------------------------------------------------------------


async def test_long_results_are_cut_with_a_notice_of_how_much() -> None:
    tool = Tool("big", lambda a, c: "x" * 1000)
    small = Tool("small", lambda a, c: "y" * 100)
    manager = ToolCallingManager(max_result_chars=100)
    big_response, small_response = responses_of(
        await manager.aexecute_tool_calls(
            prompt_with(tool, small), calls_response(("big", ""), ("small", ""))
        )
    )
    assert big_response.response_data.startswith("x" * 100 + "\n")
    assert "x" * 101 not in big_response.response_data
    assert "900 of 1000 characters" in big_response.response_data
    assert small_response.response_data == "y" * 100


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_concurrency": 0},
        {"default_timeout": 0},
        {"default_timeout": -1.0},
        {"max_result_chars": 0},
        {"on_limit_exceeded": "ignore"},
    ],
)
def test_bad_configuration_is_a_value_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        ToolCallingManager(**kwargs)


# -- concurrency ----------------------------------------------------------------------


async def test_sync_tools_of_one_response_run_at_once_in_worker_threads() -> None:
    # Eight calls meet at a barrier: it only opens if all eight run at the
    # same time, more than a CPU-sized pool on a small machine would allow.
    barrier = threading.Barrier(8, timeout=10)
    loop_thread = threading.current_thread()
    threads: set[threading.Thread] = set()

    def meet(args: str, ctx: Any) -> str:
        threads.add(threading.current_thread())
        barrier.wait()
        return args

    tool = Tool("meet", meet)
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(tool), calls_response(*[("meet", str(i)) for i in range(8)])
    )
    assert [r.response_data for r in responses_of(result)] == [str(i) for i in range(8)]
    assert loop_thread not in threads
    assert len(threads) == 8


async def test_async_tools_of_one_response_run_at_once_on_the_loop() -> None:
    arrived = 0
    all_here = asyncio.Event()
    loop_thread = threading.current_thread()

    async def meet(args: str, ctx: Any) -> str:
        nonlocal arrived
        assert threading.current_thread() is loop_thread
        arrived += 1
        if arrived == 8:
            all_here.set()
        await asyncio.wait_for(all_here.wait(), 10)
        return args

    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(Tool("meet", meet)), calls_response(*[("meet", str(i)) for i in range(8)])
    )
    assert [r.response_data for r in responses_of(result)] == [str(i) for i in range(8)]


async def test_sync_and_async_tools_run_together() -> None:
    barrier = threading.Barrier(2, timeout=10)
    async_ran = asyncio.Event()

    def sync_tool(args: str, ctx: Any) -> str:
        barrier.wait()
        return "sync"

    async def async_tool(args: str, ctx: Any) -> str:
        # Waits for its sync partner to be running before the barrier opens.
        await asyncio.to_thread(barrier.wait)
        async_ran.set()
        return "async"

    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(Tool("s", sync_tool), Tool("a", async_tool)),
        calls_response(("s", ""), ("a", "")),
    )
    assert [r.response_data for r in responses_of(result)] == ["sync", "async"]


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_at_most_max_concurrency_calls_run_at_once(kind: str) -> None:
    changed = threading.Condition()
    in_flight = started = peak = 0

    def enter() -> None:
        nonlocal in_flight, started, peak
        with changed:
            in_flight += 1
            started += 1
            peak = max(peak, in_flight)
            changed.notify_all()

    def leave() -> None:
        nonlocal in_flight
        with changed:
            in_flight -= 1
            changed.notify_all()

    def sync_tool(args: str, ctx: Any) -> str:
        enter()
        # Hold the slot until a second call runs too (or all have started),
        # so a slow thread start cannot hide the overlap.
        with changed:
            changed.wait_for(lambda: in_flight >= 2 or started == 7, timeout=10)
        threading.Event().wait(0.01)
        leave()
        return args

    async def async_tool(args: str, ctx: Any) -> str:
        enter()
        await asyncio.sleep(0.02)
        leave()
        return args

    tool = Tool("t", sync_tool if kind == "sync" else async_tool)
    manager = ToolCallingManager(max_concurrency=2)
    result = await manager.aexecute_tool_calls(
        prompt_with(tool), calls_response(*[("t", str(i)) for i in range(7)])
    )
    assert [r.response_data for r in responses_of(result)] == [str(i) for i in range(7)]
    assert peak == 2


async def test_one_manager_serves_concurrent_executions() -> None:
    manager = ToolCallingManager()
    tool = echo()
    results = await asyncio.gather(
        *[
            manager.aexecute_tool_calls(prompt_with(tool), calls_response(("echo", str(i))))
            for i in range(20)
        ]
    )
    assert [responses_of(r)[0].response_data for r in results] == [f"echo:{i}" for i in range(20)]


# -- timeouts ------------------------------------------------------------------------


@pytest.fixture
def release() -> Any:
    """An event hung sync tools wait on; set at teardown so their threads end."""
    event = threading.Event()
    yield event
    event.set()


async def test_an_async_tool_past_its_timeout_is_answered_with_an_error() -> None:
    cancelled = asyncio.Event()

    async def hangs(args: str, ctx: Any) -> str:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(Tool("hangs", hangs, timeout=0.05), echo()),
        calls_response(("hangs", ""), ("echo", "")),
    )
    timed_out, ok = responses_of(result)
    assert timed_out.is_error
    assert "'hangs' did not finish within 0.05 seconds" in timed_out.response_data
    assert ok.response_data == "echo:"
    assert cancelled.is_set()


async def test_a_hung_sync_tool_is_abandoned_after_the_default_timeout(
    release: threading.Event,
) -> None:
    tool = Tool("hangs", lambda a, c: release.wait(60) and "late")
    manager = ToolCallingManager(default_timeout=0.05)
    result = await manager.aexecute_tool_calls(
        # The echo tool's own timeout spares it the short default on a busy machine.
        prompt_with(tool, echo(timeout=30)),
        calls_response(("echo", "1"), ("hangs", ""), ("echo", "2")),
    )
    first, timed_out, last = responses_of(result)
    assert timed_out.is_error
    assert "did not finish within 0.05 seconds" in timed_out.response_data
    assert (first.response_data, last.response_data) == ("echo:1", "echo:2")


async def test_a_tool_timeout_wins_over_the_default_timeout() -> None:
    async def takes_a_moment(args: str, ctx: Any) -> str:
        await asyncio.sleep(0.2)
        return "done"

    manager = ToolCallingManager(default_timeout=0.01)
    result = await manager.aexecute_tool_calls(
        prompt_with(Tool("t", takes_a_moment, timeout=30)), calls_response(("t", ""))
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "t", "done")


async def test_a_timeout_error_raised_by_the_tool_itself_is_not_a_timeout_of_the_call() -> None:
    async def raises(args: str, ctx: Any) -> str:
        raise TimeoutError("the upstream API timed out")

    manager = ToolCallingManager(default_timeout=30)
    result = await manager.aexecute_tool_calls(
        prompt_with(Tool("t", raises)), calls_response(("t", ""))
    )
    assert responses_of(result)[0].response_data == "the upstream API timed out"


async def test_a_hung_sync_tool_does_not_take_a_worker_from_later_calls(
    release: threading.Event,
) -> None:
    # One worker only: if the hung tool kept it, the next call could never run.
    manager = ToolCallingManager(max_concurrency=1)
    hung = Tool("hangs", lambda a, c: release.wait(60) and "late", timeout=0.05)
    first = await manager.aexecute_tool_calls(prompt_with(hung), calls_response(("hangs", "")))
    assert responses_of(first)[0].is_error
    after = await manager.aexecute_tool_calls(
        prompt_with(echo(timeout=10)), calls_response(("echo", "after"))
    )
    assert responses_of(after)[0] == ToolResponse("call-0", "echo", "echo:after")


# -- approval ------------------------------------------------------------------------


async def test_a_tool_requiring_approval_is_denied_without_an_approver() -> None:
    tool = echo("delete_customer", requires_approval=True)
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(tool, echo()), calls_response(("delete_customer", "{}"), ("echo", ""))
    )
    denied, ok = responses_of(result)
    assert denied.is_error
    assert "was not approved" in denied.response_data
    assert "no approver" in denied.response_data
    assert tool.inputs == []
    assert ok.response_data == "echo:"


async def test_a_sync_approver_decides_per_call_and_sees_call_and_definition() -> None:
    asked: list[tuple[ToolCall, ToolDefinition]] = []

    def approver(call: ToolCall, definition: ToolDefinition) -> bool:
        asked.append((call, definition))
        return call.arguments == '"yes"'

    tool = echo("refund", requires_approval=True)
    result = await ToolCallingManager(approver=approver).aexecute_tool_calls(
        prompt_with(tool), calls_response(("refund", '"yes"'), ("refund", '"no"'))
    )
    approved, denied = responses_of(result)
    assert approved == ToolResponse("call-0", "refund", 'refund:"yes"')
    assert denied.is_error
    assert "was not approved" in denied.response_data
    assert tool.inputs == ['"yes"']
    assert [call.id for call, _ in asked] == ["call-0", "call-1"]
    assert asked[0][1] is tool.tool_definition


async def test_an_async_approver_is_awaited_and_asked_one_call_at_a_time() -> None:
    asking = 0
    most_at_once = 0

    async def approver(call: ToolCall, definition: ToolDefinition) -> bool:
        nonlocal asking, most_at_once
        asking += 1
        most_at_once = max(most_at_once, asking)
        await asyncio.sleep(0.01)
        asking -= 1
        return call.arguments != "deny"

    tool = echo("pay", requires_approval=True)
    result = await ToolCallingManager(approver=approver).aexecute_tool_calls(
        prompt_with(tool), calls_response(("pay", "a"), ("pay", "deny"), ("pay", "b"))
    )
    assert [r.is_error for r in responses_of(result)] == [False, True, False]
    assert most_at_once == 1


async def test_tools_without_approval_never_ask_the_approver() -> None:
    def approver(call: ToolCall, definition: ToolDefinition) -> bool:
        raise AssertionError("asked for a tool that needs no approval")

    result = await ToolCallingManager(approver=approver).aexecute_tool_calls(
        prompt_with(echo()), calls_response(("echo", ""))
    )
    assert not responses_of(result)[0].is_error


async def test_a_failing_approver_means_the_tool_does_not_run() -> None:
    def approver(call: ToolCall, definition: ToolDefinition) -> bool:
        raise ConnectionError("approval service unreachable")

    tool = echo("pay", requires_approval=True)
    result = await ToolCallingManager(approver=approver).aexecute_tool_calls(
        prompt_with(tool), calls_response(("pay", ""))
    )
    (response,) = responses_of(result)
    assert response.is_error
    assert "approval service unreachable" in response.response_data
    assert tool.inputs == []


async def test_the_manager_reads_the_flags_the_metadata_declares_only() -> None:
    tool = echo("pay")
    tool.requires_approval = True  # type: ignore[attr-defined]  # not declared: ignored
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(tool), calls_response(("pay", ""))
    )
    assert not responses_of(result)[0].is_error
    tool.tool_metadata = ToolMetadata(requires_approval=True, is_async=False)
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(tool), calls_response(("pay", ""))
    )
    assert responses_of(result)[0].is_error
    assert len(tool.inputs) == 1


# -- cancellation --------------------------------------------------------------------


async def test_cancelling_the_execution_cancels_async_tools_and_leaves_no_result() -> None:
    started = asyncio.Event()
    cancelled: list[str] = []

    async def hangs(args: str, ctx: Any) -> str:
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(args)
            raise
        return "never"

    manager = ToolCallingManager()
    task = asyncio.create_task(
        manager.aexecute_tool_calls(
            prompt_with(Tool("hangs", hangs), echo()),
            calls_response(("hangs", "1"), ("hangs", "2"), ("echo", "")),
        )
    )
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sorted(cancelled) == ["1", "2"]


async def test_cancelling_the_execution_stops_waiting_for_sync_tools(
    release: threading.Event,
) -> None:
    started = threading.Event()

    def hangs(args: str, ctx: Any) -> str:
        started.set()
        release.wait(60)
        return "late"

    manager = ToolCallingManager()
    task = asyncio.create_task(
        manager.aexecute_tool_calls(
            prompt_with(Tool("hangs", hangs)), calls_response(("hangs", ""))
        )
    )
    await asyncio.to_thread(started.wait, 10)
    task.cancel()
    # The thread is still blocked, yet the cancelled task finishes.
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 10)
    assert not release.is_set()


# -- where a lone sync call runs --------------------------------------------------------


async def test_a_lone_sync_call_never_runs_on_the_applications_event_loop() -> None:
    loop_thread = threading.current_thread()
    ran_on: list[threading.Thread] = []

    def where(args: str, ctx: Any) -> str:
        ran_on.append(threading.current_thread())
        return "ok"

    tool = Tool("where", where)
    await ToolCallingManager().aexecute_tool_calls(prompt_with(tool), calls_response(("where", "")))
    assert ran_on
    assert ran_on[0] is not loop_thread


def test_a_lone_sync_call_from_sync_code_runs_inline_on_the_calling_thread() -> None:
    # The sync API's private loop serves nobody else, so its one call skips
    # the worker pool's two thread hops (the S1 benchmark's cost).
    ran_on: list[threading.Thread] = []

    def where(args: str, ctx: Any) -> str:
        ran_on.append(threading.current_thread())
        return "ok"

    ToolCallingManager().execute_tool_calls(
        prompt_with(Tool("where", where)), calls_response(("where", ""))
    )
    assert ran_on == [threading.current_thread()]


def test_a_lone_sync_call_with_a_timeout_is_still_abandoned_from_sync_code(
    release: threading.Event,
) -> None:
    tool = Tool("hangs", lambda a, c: release.wait(5) and "late", timeout=0.05)
    result = ToolCallingManager().execute_tool_calls(
        prompt_with(tool), calls_response(("hangs", ""))
    )
    assert responses_of(result)[0].is_error
    assert "did not finish within" in responses_of(result)[0].response_data


def test_a_lone_sync_call_from_sync_code_answers_failures_too() -> None:
    def boom(args: str, ctx: Any) -> str:
        raise LookupError("order 7 not found")

    result = ToolCallingManager().execute_tool_calls(
        prompt_with(Tool("boom", boom)), calls_response(("boom", ""))
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "boom", "order 7 not found", True)


# -- with tools declared by @tool ------------------------------------------------------


class Shop:
    def __init__(self) -> None:
        self.reserved: list[str] = []

    @tool(description="Reserve units of a product.", requires_approval=True)
    def reserve(self, sku: str, quantity: int) -> str:
        self.reserved.append(f"{quantity}x{sku}")
        return f"reserved {quantity} of {sku}"

    @tool(description="Price of a product.")
    def price(self, sku: str) -> int:
        if sku == "SKU-404":
            raise LookupError(f"no product {sku}")
        return 35000

    @tool(description="Who is asking.", return_direct=True)
    def whoami(self, ctx: ToolContext) -> str:
        return str(ctx["user_name"])

    @tool(description="Slow lookup.", timeout=0.05)
    async def slow(self) -> str:
        await asyncio.sleep(30)
        return "never"


def shop_prompt(shop: Shop, **options: Any) -> Prompt:
    return Prompt("go", ChatOptions(tool_callbacks=tuple(tool_callbacks(shop)), **options))


async def test_decorated_tools_run_and_fail_the_same_way() -> None:
    shop = Shop()
    result = await ToolCallingManager().aexecute_tool_calls(
        shop_prompt(shop),
        calls_response(
            ("price", '{"sku": "SKU-100"}'),
            ("price", '{"sku": "SKU-404"}'),
            ("price", '{"sku": 5, "extra": true}'),
            ("slow", "{}"),
            ("reserve", '{"sku": "SKU-100", "quantity": 2}'),
        ),
    )
    ok, missing, bad_args, slow, reserve = responses_of(result)
    assert ok == ToolResponse("call-0", "price", "35000")
    assert missing == ToolResponse("call-1", "price", "no product SKU-404", True)
    assert bad_args.is_error
    assert "extra" in bad_args.response_data
    assert slow.is_error
    assert "did not finish within 0.05 seconds" in slow.response_data
    assert reserve.is_error
    assert "not approved" in reserve.response_data
    assert shop.reserved == []


async def test_decorated_tools_get_the_context_approval_and_return_direct() -> None:
    shop = Shop()
    manager = ToolCallingManager(approver=lambda call, definition: True)
    result = await manager.aexecute_tool_calls(
        shop_prompt(shop, tool_context={"user_name": "reader"}),
        calls_response(("reserve", '{"sku": "SKU-100", "quantity": 2}'), ("whoami", "{}")),
    )
    reserve, who = responses_of(result)
    assert reserve.response_data == "reserved 2 of SKU-100"
    assert who.response_data == "reader"
    assert shop.reserved == ["2xSKU-100"]
    assert result.return_direct is False
    alone = await manager.aexecute_tool_calls(
        shop_prompt(shop, tool_context={"user_name": "reader"}),
        calls_response(("whoami", "{}")),
    )
    assert alone.return_direct is True
    assert ToolExecutionResult.build_generations(alone)[0].output.text == "reader"


async def test_decorated_sync_tools_run_concurrently_on_worker_threads() -> None:
    barrier = threading.Barrier(3, timeout=10)

    @tool
    def meet(n: int) -> int:
        """Wait for the others."""
        barrier.wait()
        return n

    result = await ToolCallingManager().aexecute_tool_calls(
        Prompt("go", ChatOptions(tool_callbacks=tuple(tool_callbacks(meet)))),
        calls_response(*[("meet", f'{{"n": {i}}}') for i in range(3)]),
    )
    assert [r.response_data for r in responses_of(result)] == ["0", "1", "2"]


async def test_a_converter_that_yields_none_gives_an_empty_answer() -> None:
    @tool(result_converter=lambda result, return_type: None)  # type: ignore[arg-type,return-value]
    def quiet() -> str:
        """Say nothing."""
        return "ignored"

    result = await ToolCallingManager().aexecute_tool_calls(
        Prompt("go", ChatOptions(tool_callbacks=tuple(tool_callbacks(quiet)))),
        calls_response(("quiet", "{}")),
    )
    assert responses_of(result)[0] == ToolResponse("call-0", "quiet", "", False)


# -- loop prevention ----------------------------------------------------------------


async def test_an_identical_call_of_the_same_turn_is_answered_with_the_first_result() -> None:
    lookup = echo("lookup")
    manager = ToolCallingManager()
    first = await manager.aexecute_tool_calls(
        prompt_with(lookup), calls_response(("lookup", '{"sku": "A", "n": 1}'))
    )
    again = await manager.aexecute_tool_calls(
        prompt_with(lookup, messages=first.conversation_history),
        calls_response(ToolCall("c2", "lookup", '{ "n": 1,  "sku": "A" }')),
    )
    answer = responses_of(again)[0]
    assert answer.is_error
    assert "You already called lookup with these arguments in this turn" in answer.response_data
    assert 'lookup:{"sku": "A", "n": 1}' in answer.response_data
    assert len(lookup.inputs) == 1


async def test_the_same_tool_with_other_arguments_always_runs() -> None:
    lookup = echo("lookup")
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(lookup),
        calls_response(("lookup", '{"sku": "A"}'), ("lookup", '{"sku": "B"}')),
    )
    assert [r.is_error for r in responses_of(result)] == [False, False]
    # The two calls run concurrently: both run, in either order.
    assert sorted(lookup.inputs) == ['{"sku": "A"}', '{"sku": "B"}']


async def test_an_identical_call_in_the_same_response_runs_once() -> None:
    lookup = echo("lookup")
    result = await ToolCallingManager().aexecute_tool_calls(
        prompt_with(lookup),
        calls_response(("lookup", '{"sku": "A"}'), ("lookup", '{"sku":"A"}')),
    )
    ran, repeated = responses_of(result)
    assert ran == ToolResponse("call-0", "lookup", 'lookup:{"sku": "A"}')
    assert repeated.is_error
    assert 'its result was: lookup:{"sku": "A"}' in repeated.response_data
    assert len(lookup.inputs) == 1
    assert result.return_direct is False


async def test_a_new_user_message_allows_the_same_call_again() -> None:
    lookup = echo("lookup")
    manager = ToolCallingManager()
    first = await manager.aexecute_tool_calls(prompt_with(lookup), calls_response(("lookup", "{}")))
    history = [*first.conversation_history, AssistantMessage("done"), UserMessage("again")]
    again = await manager.aexecute_tool_calls(
        prompt_with(lookup, messages=history), calls_response(("lookup", "{}"))
    )
    assert not responses_of(again)[0].is_error
    assert len(lookup.inputs) == 2


async def test_a_turn_kept_by_the_caller_spans_prompts_without_history() -> None:
    from springtail.execution import ToolTurn

    lookup = echo("lookup")
    manager = ToolCallingManager()
    turn = ToolTurn()
    await manager.aexecute_tool_calls(
        prompt_with(lookup), calls_response(("lookup", "{}")), turn=turn
    )
    # The next prompt does not carry the first call (no history), the turn does.
    again = await manager.aexecute_tool_calls(
        prompt_with(lookup), calls_response(("lookup", "{}")), turn=turn
    )
    assert responses_of(again)[0].is_error
    assert len(lookup.inputs) == 1
    assert turn.total_calls == 2


# -- approval wait -----------------------------------------------------------------


async def test_the_approval_wait_is_not_part_of_the_calls_duration() -> None:
    import time

    ended: list[float] = []
    approvals: list[tuple[str, bool, float]] = []

    class Listener:
        def on_tool_approval(
            self, call: ToolCall, definition: ToolDefinition, approved: bool, wait_s: float
        ) -> None:
            approvals.append((call.id, approved, wait_s))

        def on_tool_end(
            self, call: ToolCall, definition: Any, response: ToolResponse, duration_s: float
        ) -> None:
            ended.append(duration_s)

    def slow_person(call: ToolCall, definition: ToolDefinition) -> bool:
        time.sleep(0.3)
        return True

    manager = ToolCallingManager(approver=slow_person)
    await manager.aexecute_tool_calls(
        prompt_with(echo(requires_approval=True)),
        calls_response(("echo", "{}")),
        listeners=(Listener(),),
    )
    assert approvals[0][:2] == ("call-0", True)
    assert approvals[0][2] >= 0.3
    assert ended[0] < 0.2


async def test_an_approver_may_answer_with_a_persons_decision() -> None:
    from springtail.execution import ToolCallDecision

    def approver(call: ToolCall, definition: ToolDefinition) -> ToolCallDecision:
        if call.arguments == '"yes"':
            return ToolCallDecision.approve()
        return ToolCallDecision.deny("not today")

    tool = echo("refund", requires_approval=True)
    result = await ToolCallingManager(approver=approver).aexecute_tool_calls(
        prompt_with(tool), calls_response(("refund", '"yes"'), ("refund", '"no"'))
    )
    approved, denied = responses_of(result)
    assert approved == ToolResponse("call-0", "refund", 'refund:"yes"')
    assert denied.is_error
    assert "(not today)" in denied.response_data
    assert tool.inputs == ['"yes"']


def test_settings_rebuild_a_manager_like_this_one() -> None:
    manager = ToolCallingManager(max_concurrency=3, default_timeout=2.0, max_result_chars=99)
    settings = manager.settings
    settings["max_concurrency"] = 1
    other = ToolCallingManager(**settings)

    assert other.max_concurrency == 1
    assert other.default_timeout == 2.0
    assert manager.max_concurrency == 3  # a copy: changing it changed nothing
    assert manager.settings["max_result_chars"] == 99
