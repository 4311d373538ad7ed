"""Property: whatever a server sends, a provider returns an answer or raises one ModelError.

Random JSON bodies (some shaped almost like each API's reply), text with any
content type, and random streams (SSE events, raw lines, NDJSON lines, cut
off or not) go through each provider's official SDK over real loopback HTTP.
Nothing but a ``ModelError`` with a one-line message may come out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from replay_server import ReplayServer, Reply
from springtail._sync import run_sync
from springtail.messages import Prompt
from springtail.models import ChatModel, ModelError
from springtail.models._anthropic import AnthropicChatModel
from springtail.models._ollama import OllamaChatModel
from springtail.models._openai import OpenAIChatModel

pytestmark = pytest.mark.fuzz

_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)
)
JSON: st.SearchStrategy[Any] = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
NEAR = {
    "openai": st.fixed_dictionaries(
        {"choices": st.one_of(JSON, st.lists(st.fixed_dictionaries({"message": JSON})))}
    ),
    "ollama": st.fixed_dictionaries({"message": JSON, "done": JSON}),
    "anthropic": st.fixed_dictionaries({"content": JSON, "stop_reason": JSON}),
}
CONTENT_TYPES = st.sampled_from(["application/json", "text/html", "text/plain"])
ANTHROPIC_EVENTS = st.sampled_from(
    ["message_start", "content_block_start", "content_block_delta", "message_delta", "error"]
)


def replies(api: str) -> st.SearchStrategy[tuple[Reply, bool]]:
    """A reply and whether to ask for a stream."""
    bodies = st.one_of(
        st.builds(Reply, json=st.one_of(JSON, NEAR[api])),
        st.builds(Reply, body=st.text(max_size=40), content_type=CONTENT_TYPES),
    )
    if api == "openai":
        event = st.one_of(
            st.fixed_dictionaries({"data": st.one_of(JSON, NEAR[api])}),
            st.fixed_dictionaries({"raw": st.text(max_size=20).map("data: {}\n\n".format)}),
            st.just({"data": "[DONE]"}),
        )
        streams = st.builds(Reply, sse=st.lists(event, max_size=4), cut=st.booleans())
    elif api == "anthropic":
        event = st.fixed_dictionaries(
            {
                "event": ANTHROPIC_EVENTS,
                "data": st.fixed_dictionaries({"type": ANTHROPIC_EVENTS, "x": JSON}),
            }
        )
        streams = st.builds(Reply, sse=st.lists(event, max_size=4), cut=st.booleans())
    else:
        lines = st.lists(st.one_of(JSON, NEAR[api]), max_size=4)
        streams = st.builds(Reply, ndjson=lines, cut=st.booleans())
    return st.one_of(st.tuples(bodies, st.just(False)), st.tuples(streams, st.just(True)))


MODELS: dict[str, Callable[[str], ChatModel]] = {
    "openai": lambda url: OpenAIChatModel("m", base_url=f"{url}/v1", max_retries=0, timeout=5),
    "ollama": lambda url: OllamaChatModel(host=url, max_retries=0, timeout=5),
    "anthropic": lambda url: AnthropicChatModel(
        api_key="k", base_url=url, max_retries=0, timeout=5
    ),
}


@pytest.fixture(scope="module")
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as running:
        yield running


@pytest.fixture(scope="module")
def models(server: ReplayServer) -> Iterator[dict[str, ChatModel]]:
    built = {api: make(server.url) for api, make in MODELS.items()}
    yield built
    for model in built.values():
        run_sync(model.aclose())


def answers_or_model_error(
    model: ChatModel, server: ReplayServer, reply: Reply, stream: bool
) -> None:
    server.replies.append(reply)
    message = None
    try:
        if stream:
            list(model.stream(Prompt("hi")))
        else:
            model.call(Prompt("hi"))
    except ModelError as exc:
        message = str(exc)
    finally:
        server.replies.clear()
    if message is not None:
        assert message.strip()
        assert "\n" not in message


FUZZ = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(case=replies("openai"))
def test_openai_answers_anything_or_raises_a_model_error(
    server: ReplayServer, models: dict[str, ChatModel], case: tuple[Reply, bool]
) -> None:
    answers_or_model_error(models["openai"], server, *case)


@FUZZ
@given(case=replies("ollama"))
def test_ollama_answers_anything_or_raises_a_model_error(
    server: ReplayServer, models: dict[str, ChatModel], case: tuple[Reply, bool]
) -> None:
    answers_or_model_error(models["ollama"], server, *case)


@FUZZ
@given(case=replies("anthropic"))
def test_anthropic_answers_anything_or_raises_a_model_error(
    server: ReplayServer, models: dict[str, ChatModel], case: tuple[Reply, bool]
) -> None:
    answers_or_model_error(models["anthropic"], server, *case)
