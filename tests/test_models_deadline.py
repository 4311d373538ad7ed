"""A deadline for a whole HTTP attempt, through a real loopback server that trickles keep-alives."""

from __future__ import annotations

import time

import httpx
import pytest

from replay_server import ReplayServer, Reply
from springtail.models._deadline import deadline_transport, httpx_module_of


async def test_a_trickling_server_cannot_stretch_an_attempt_past_its_deadline() -> None:
    trickle = Reply(json={"ok": True}, keepalive_every=0.1, keepalive_for=5.0)
    with ReplayServer([trickle, Reply(json={"ok": True})]) as server:
        transport = deadline_transport(httpx, 0.5)
        async with httpx.AsyncClient(transport=transport, timeout=10) as client:
            started = time.monotonic()
            with pytest.raises(httpx.ReadTimeout, match=r"did not finish within the 0\.5 s"):
                await client.get(server.url)
            assert time.monotonic() - started < 2.0  # not the 5 s the server would take
            answer = await client.get(server.url)  # the next attempt has a deadline of its own
    assert answer.json() == {"ok": True}


async def test_a_stream_of_keep_alives_alone_is_cut_off_at_the_deadline() -> None:
    late = Reply(sse=[{"data": "x"}], keepalive_every=0.1, keepalive_for=5.0)
    with ReplayServer([late]) as server:
        async with httpx.AsyncClient(transport=deadline_transport(httpx, 0.3)) as client:

            async def read_all() -> None:
                async with client.stream("GET", server.url) as response:
                    async for _ in response.aiter_lines():
                        pass

            started = time.monotonic()
            with pytest.raises(httpx.ReadTimeout):
                await read_all()
            assert time.monotonic() - started < 2.0


def test_the_deadline_must_be_positive_and_the_sdks_httpx_is_found() -> None:
    with pytest.raises(ValueError, match="more than 0 seconds"):
        deadline_transport(httpx, 0)
    openai = pytest.importorskip("openai")
    assert httpx_module_of(openai.DefaultAsyncHttpxClient).__name__.startswith("httpx")
    assert httpx_module_of(object) is httpx
