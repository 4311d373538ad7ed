"""The advisor chain: order, re-entrance, the model as innermost link."""

from collections.abc import AsyncIterator

from springtail.client import (
    HIGHEST_PRECEDENCE,
    LOWEST_PRECEDENCE,
    CallAdvisorChain,
    ChatClient,
    ChatClientRequest,
    ChatClientResponse,
    StreamAdvisorChain,
)
from springtail.messages import ChatResponse, UserMessage
from springtail.models import ScriptedChatModel


class Tagger:
    """Appends its name to the user text going in and to the answer coming out."""

    def __init__(self, name: str, order: int, log: list[str]) -> None:
        self.name = name
        self.order = order
        self.log = log

    def _tag(self, request: ChatClientRequest) -> ChatClientRequest:
        self.log.append(f"in:{self.name}")
        text = request.prompt.messages[-1].text  # type: ignore[union-attr]
        return request.with_prompt(
            request.prompt.with_messages([UserMessage(f"{text}>{self.name}")])
        )

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        response = await chain.next_call(self._tag(request))
        self.log.append(f"out:{self.name}")
        return response.with_chat_response(
            ChatResponse.of(f"{response.chat_response.text}<{self.name}")
        )

    async def advise_stream(
        self, request: ChatClientRequest, chain: StreamAdvisorChain
    ) -> AsyncIterator[ChatClientResponse]:
        async for response in chain.next_stream(self._tag(request)):
            yield response
        self.log.append(f"out:{self.name}")


class CallOnly:
    name = "call-only"
    order = 0

    def __init__(self) -> None:
        self.calls = 0

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        self.calls += 1
        return await chain.next_call(request)


class Twice:
    """Calls the rest of the chain twice: the chain must be re-entrant."""

    name = "twice"
    order = -10

    async def advise_call(
        self, request: ChatClientRequest, chain: CallAdvisorChain
    ) -> ChatClientResponse:
        await chain.next_call(request)
        return await chain.next_call(request)


def test_smaller_order_is_outer_and_model_is_innermost() -> None:
    log: list[str] = []
    model = ScriptedChatModel([lambda p: p.messages[-1].text])  # type: ignore[union-attr]
    advisors = [
        Tagger("inner", LOWEST_PRECEDENCE, log),
        Tagger("outer", HIGHEST_PRECEDENCE, log),
        Tagger("middle", 0, log),
    ]
    answer = ChatClient(model, advisors=advisors).prompt("q").call().content()
    assert model.prompts[0].messages == (UserMessage("q>outer>middle>inner"),)
    assert answer == "q>outer>middle>inner<inner<middle<outer"
    assert log == ["in:outer", "in:middle", "in:inner", "out:inner", "out:middle", "out:outer"]


def test_equal_orders_keep_registration_order() -> None:
    log: list[str] = []
    model = ScriptedChatModel(["x"])
    advisors = [Tagger("first", 5, log), Tagger("second", 5, log)]
    ChatClient(model, advisors=advisors).prompt("q").call().content()
    assert model.prompts[0].messages == (UserMessage("q>first>second"),)


def test_default_and_request_advisors_are_ordered_together() -> None:
    log: list[str] = []
    model = ScriptedChatModel(["x"])
    client = ChatClient(model, advisors=[Tagger("default", 10, log)])
    client.prompt("q").advisors(Tagger("request", 1, log)).call().content()
    assert model.prompts[0].messages == (UserMessage("q>request>default"),)


def test_stream_chain_runs_stream_advisors_and_skips_call_only_ones() -> None:
    log: list[str] = []
    call_only = CallOnly()
    model = ScriptedChatModel(["streamed answer"])
    client = ChatClient(model, advisors=[Tagger("s", 1, log), call_only])
    assert "".join(client.prompt("q").stream().content()) == "streamed answer"
    assert model.prompts[0].messages == (UserMessage("q>s"),)
    assert call_only.calls == 0
    assert log == ["in:s", "out:s"]


def test_an_advisor_may_call_the_rest_of_the_chain_again() -> None:
    model = ScriptedChatModel(["first", "second"])
    call_only = CallOnly()
    answer = ChatClient(model, advisors=[Twice(), call_only]).prompt("q").call().content()
    assert answer == "second"
    assert call_only.calls == 2


def test_advisor_params_reach_the_request_context() -> None:
    seen: dict[str, object] = {}

    class Peek:
        name = "peek"
        order = 0

        async def advise_call(
            self, request: ChatClientRequest, chain: CallAdvisorChain
        ) -> ChatClientResponse:
            seen.update(request.context)
            return await chain.next_call(request)

    client = ChatClient(ScriptedChatModel(["x"]), advisors=[Peek()], advisor_params={"a": 1})
    client.prompt("q").advisor_param("b", 2).advisor_params({"a": 3}).call().content()
    assert seen == {"a": 3, "b": 2}
