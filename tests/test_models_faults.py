"""Telling transport faults apart, and the shared sentences for replies that are not answers."""

from __future__ import annotations

import json

import httpx
import pytest

from springtail.models._faults import (
    MalformedReplyError,
    connection_dropped,
    connection_refused,
    json_kind,
    reply_fault,
    snippet,
)


def _wrapped(cause: BaseException) -> RuntimeError:
    try:
        raise RuntimeError("the SDK's own error") from cause
    except RuntimeError as exc:
        return exc


def test_a_refused_connection_and_a_dropped_one_are_told_apart_through_the_cause() -> None:
    refused = _wrapped(httpx.ConnectError("connection refused"))
    dropped = _wrapped(httpx.RemoteProtocolError("peer closed connection"))
    assert connection_refused(refused)
    assert not connection_dropped(refused)
    assert connection_dropped(dropped)
    assert not connection_refused(dropped)
    assert connection_refused(ConnectionRefusedError())
    assert connection_dropped(ConnectionResetError())
    assert not connection_refused(ValueError())
    assert not connection_dropped(ValueError())


@pytest.mark.parametrize(
    ("exc", "streaming", "expected"),
    [
        (
            MalformedReplyError("null where a reply object belongs"),
            False,
            "S answered with something other than an answer "
            "(null where a reply object belongs): check it.",
        ),
        (
            MalformedReplyError("a stream chunk without text"),
            True,
            "S sent something other than an answer while streaming (a stream chunk without text).",
        ),
        (
            json.JSONDecodeError("Expecting value", "<html>", 0),
            False,
            "S answered with a body that is not valid JSON "
            "(Expecting value at line 1 column 1): check it.",
        ),
        (
            json.JSONDecodeError("Expecting value", "x", 0),
            True,
            "S sent a stream line that is not valid JSON (Expecting value at line 1 column 1).",
        ),
        (
            httpx.ReadError("reset"),
            True,
            "S dropped the connection while streaming its answer: try again, "
            "and check the server's log if it keeps happening.",
        ),
    ],
)
def test_shared_fault_sentences(exc: Exception, streaming: bool, expected: str) -> None:
    fault = reply_fault(exc, where="S", what="an answer", streaming=streaming, hint="check it.")
    assert fault is not None
    assert str(fault) == expected


def test_other_faults_are_left_to_the_provider() -> None:
    assert reply_fault(KeyError("x"), where="S", what="a", streaming=False, hint="h") is None


def test_snippet_and_json_kind() -> None:
    assert snippet("<html>\n  <body>") == "<html> <body>"
    assert snippet("x" * 100, limit=10) == "xxxxxxxxx…"
    values: tuple[object, ...] = (None, True, 1, 1.5, "s", [], {})
    kinds = [json_kind(v) for v in values]
    assert kinds == [
        "null",
        "a boolean",
        "a number",
        "a number",
        "a string",
        "an array",
        "an object",
    ]


def test_a_timeout_is_recognised_through_the_cause() -> None:
    from springtail.models._faults import timed_out

    assert timed_out(_wrapped(httpx.ReadTimeout("deadline")))
    assert not timed_out(_wrapped(httpx.ReadError("reset")))
