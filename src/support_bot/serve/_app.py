"""The ASGI app of ``support-bot serve``: the page, the JSON API and the event streams.

Routes (all JSON, errors as ``{"error": "one sentence"}``):

- ``GET /`` the chat page; ``GET /static/…`` its script and style;
- ``GET /healthz`` the process is up; ``GET /readyz`` the model is loaded and the database answers;
- ``POST /api/conversations`` a new conversation of this browser session;
  ``GET /api/conversations`` the session's conversations, newest first;
- ``GET /api/conversations/{id}`` one conversation with its remembered messages;
- ``POST /api/conversations/{id}/messages`` ``{"text": …}``: the turn, as server-sent events
  (``queued``, ``started``, ``text``, ``tool_started``, ``tool_finished``,
  ``approval_requested``, ``approval_decided``, then ``done`` or ``error``);
- ``POST /api/conversations/{id}/approvals/{approval_id}`` ``{"approved": true|false}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from springtail import (
    AssistantMessage,
    ChatModel,
    Message,
    ToolResponseMessage,
    UserMessage,
)
from support_bot._store_base import BusinessStore, ServedConversation
from support_bot.serve._config import ServeConfig
from support_bot.serve._security import (
    SESSION_COOKIE,
    BodyTooLargeError,
    Guard,
    new_session,
    owner_of,
)
from support_bot.serve._turns import TERMINAL_EVENTS, ChatService, ConversationBusyError

__all__ = ["create_app"]

log = logging.getLogger("support_bot.serve")

IO_THREADS: Final = 64
"""Threads for blocking database I/O; more turns than this wait for one."""
_CONVERSATION_ID: Final = re.compile(r"c-[A-Za-z0-9_-]{22}")
_STATIC: Final = {"app.js": "text/javascript", "app.css": "text/css"}


class HTTPProblem(Exception):
    """A request the API refuses, with the status and one sentence for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class _State:
    config: ServeConfig
    store: BusinessStore
    model_label: str
    load_model: Callable[[], ChatModel]
    service: ChatService | None = None
    load_error: str | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


def create_app(
    *,
    config: ServeConfig,
    store: BusinessStore,
    load_model: Callable[[], ChatModel],
    model_label: str = "",
) -> Guard:
    """The app, wrapped in its guards; the model loads in the background at startup.

    Args:
        config: Limits, token, approval timeout, whether the model is serial.
        store: Business data, web conversations and chat memory.
        load_model: Builds the model (slow for the embedded one: it runs on a
            worker thread while ``/healthz`` already answers and ``/readyz``
            says 503).
        model_label: How the page names the model.
    """
    state = _State(config, store, model_label, load_model)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Database and chat-memory I/O runs on the default executor; its
        # default size (CPUs + 4) made turns queue for a thread, not the disk.
        executor = ThreadPoolExecutor(max_workers=IO_THREADS, thread_name_prefix="serve-io")
        asyncio.get_running_loop().set_default_executor(executor)
        loader = asyncio.create_task(_load(state))
        try:
            yield
        finally:
            loader.cancel()
            for task in list(state.tasks):
                task.cancel()
            executor.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", _page, methods=["GET"]),
        Route("/static/{name}", _static, methods=["GET"]),
        Route("/healthz", _healthz, methods=["GET"]),
        Route("/readyz", _readyz, methods=["GET"]),
        Route("/api/conversations", _create_conversation, methods=["POST"]),
        Route("/api/conversations", _list_conversations, methods=["GET"]),
        Route("/api/conversations/{cid}", _read_conversation, methods=["GET"]),
        Route("/api/conversations/{cid}/messages", _send_message, methods=["POST"]),
        Route("/api/conversations/{cid}/approvals/{aid}", _decide_approval, methods=["POST"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            HTTPProblem: _problem,
            BodyTooLargeError: _too_large,
            Exception: _crash,
        },
    )
    app.state.serve = state
    return Guard(app, config)


async def _load(state: _State) -> None:
    try:
        model = await asyncio.to_thread(state.load_model)
        service = await asyncio.to_thread(
            lambda: ChatService(model=model, store=state.store, config=state.config)
        )
        await asyncio.to_thread(service.warm_up)  # ready once the first turn will be quick
        state.service = service
        log.info("support-bot serve is ready (model %s)", state.model_label)
    except Exception as exc:
        log.exception("the model could not be loaded")
        state.load_error = str(exc) or type(exc).__name__


# -- errors ------------------------------------------------------------------------


async def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPProblem)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _too_large(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc)}, status_code=413)


async def _crash(request: Request, exc: Exception) -> Response:
    """Never a stack trace to the client: it goes to the server log."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse(
        {"error": "Something went wrong on the server; the details are in its log."},
        status_code=500,
    )


# -- helpers -----------------------------------------------------------------------


def _state(request: Request) -> _State:
    state: _State = request.app.state.serve
    return state


def _session(request: Request) -> tuple[str, str | None]:
    """The session's owner digest, and a new session secret to set when it had none."""
    secret = request.cookies.get(SESSION_COOKIE, "")
    if len(secret) >= 32:
        return owner_of(secret), None
    secret = new_session()
    return owner_of(secret), secret


def _with_session(response: Response, secret: str | None) -> Response:
    if secret is not None:
        response.set_cookie(
            SESSION_COOKIE, secret, httponly=True, samesite="strict", max_age=60 * 60 * 24 * 365
        )
    return response


def _service(request: Request) -> ChatService:
    state = _state(request)
    if state.service is None:
        if state.load_error is not None:
            raise HTTPProblem(503, "The model could not be loaded; the server log says why.")
        raise HTTPProblem(503, "The model is still loading; try again in a moment.")
    return state.service


async def _owned(request: Request) -> ServedConversation:
    """The conversation in the path if this session owns it; 404 otherwise (no hint either way)."""
    cid = request.path_params["cid"]
    secret = request.cookies.get(SESSION_COOKIE, "")
    if _CONVERSATION_ID.fullmatch(cid) and secret:
        found = await asyncio.to_thread(_state(request).store.conversation, cid)
        if found is not None and secrets.compare_digest(found.owner, owner_of(secret)):
            return found
    raise HTTPProblem(404, "No such conversation in this browser session.")


async def _json_object(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        raise HTTPProblem(400, "The request body must be JSON.") from None
    if not isinstance(body, dict):
        raise HTTPProblem(400, "The request body must be a JSON object.")
    return body


def _conversation_json(conversation: ServedConversation) -> dict[str, Any]:
    return {
        "id": conversation.id,
        "title": conversation.title,
        "turns": conversation.turns,
        "created_at": conversation.created_at,
    }


def _message_json(message: Message) -> dict[str, Any]:
    if isinstance(message, UserMessage):
        return {"role": "user", "text": message.text}
    if isinstance(message, AssistantMessage):
        return {
            "role": "assistant",
            "text": message.text,
            "tool_calls": [
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in message.tool_calls
            ],
        }
    if isinstance(message, ToolResponseMessage):
        return {
            "role": "tool",
            "responses": [
                {"id": r.id, "name": r.name, "result": r.response_data} for r in message.responses
            ],
        }
    return {"role": message.role, "text": getattr(message, "text", "")}


# -- routes ------------------------------------------------------------------------------


async def _page(request: Request) -> Response:
    html = resources.files("support_bot.serve").joinpath("static/index.html").read_text("utf-8")
    owner_secret = _session(request)[1]
    response = HTMLResponse(
        html,
        headers={
            "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
            "cache-control": "no-store",
        },
    )
    return _with_session(response, owner_secret)


async def _static(request: Request) -> Response:
    name = request.path_params["name"]
    media = _STATIC.get(name)
    if media is None:
        raise HTTPProblem(404, "No such file.")
    text = resources.files("support_bot.serve").joinpath(f"static/{name}").read_text("utf-8")
    return Response(text, media_type=media, headers={"x-content-type-options": "nosniff"})


async def _healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def _readyz(request: Request) -> Response:
    state = _state(request)
    if state.service is None:
        reason = "model failed to load" if state.load_error else "model loading"
        return JSONResponse({"status": "not ready", "reason": reason}, status_code=503)
    try:
        await asyncio.to_thread(state.store.products)
    except Exception:
        log.exception("readiness: the database does not answer")
        return JSONResponse(
            {"status": "not ready", "reason": "database unavailable"}, status_code=503
        )
    gate = state.service.gate
    return JSONResponse(
        {
            "status": "ready",
            "model": state.model_label,
            "running": gate.running,
            "queued": gate.waiting,
        }
    )


async def _create_conversation(request: Request) -> Response:
    owner, secret = _session(request)
    cid = "c-" + secrets.token_urlsafe(16)
    created = await asyncio.to_thread(_state(request).store.add_conversation, cid, owner, "")
    return _with_session(JSONResponse(_conversation_json(created), status_code=201), secret)


async def _list_conversations(request: Request) -> Response:
    owner, secret = _session(request)
    found = [] if secret else await asyncio.to_thread(_state(request).store.conversations, owner)
    return _with_session(
        JSONResponse({"conversations": [_conversation_json(c) for c in found]}), secret
    )


async def _read_conversation(request: Request) -> Response:
    conversation = await _owned(request)
    service = _service(request)
    messages = await asyncio.to_thread(service.memory.get, conversation.id)
    return JSONResponse(
        {
            **_conversation_json(conversation),
            "running": service.running(conversation.id),
            "messages": [_message_json(m) for m in messages],
        }
    )


async def _send_message(request: Request) -> Response:
    conversation = await _owned(request)
    config = _state(request).config
    body = await _json_object(request)
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise HTTPProblem(422, 'Send the message as {"text": "..."} with some text in it.')
    if len(text) > config.max_message_chars:
        raise HTTPProblem(
            413, f"The message is longer than {config.max_message_chars} characters; shorten it."
        )
    if conversation.turns >= config.max_turns:
        raise HTTPProblem(
            409,
            f"This conversation has reached {config.max_turns} turns; start a new conversation.",
        )
    service = _service(request)
    try:
        turn = service.start(conversation.id, text.strip())
    except ConversationBusyError:
        raise HTTPProblem(
            409, "This conversation is already answering; wait for that answer first."
        ) from None
    tasks = _state(request).tasks
    task = asyncio.create_task(service.run(turn))
    tasks.add(task)
    task.add_done_callback(tasks.discard)

    async def events() -> AsyncIterator[dict[str, str]]:
        try:
            while True:
                event = await turn.events.get()
                yield {"event": event.name, "data": json.dumps(event.data)}
                if event.name in TERMINAL_EVENTS:
                    return
        finally:
            if not task.done():  # the client went away: stop the turn, save nothing
                task.cancel()

    return EventSourceResponse(events(), ping=15, headers={"cache-control": "no-store"})


async def _decide_approval(request: Request) -> Response:
    conversation = await _owned(request)
    body = await _json_object(request)
    approved = body.get("approved")
    if not isinstance(approved, bool):
        raise HTTPProblem(422, 'Send {"approved": true} or {"approved": false}.')
    if not _service(request).decide(conversation.id, request.path_params["aid"], approved):
        raise HTTPProblem(
            404,
            "No approval is waiting under this id here; it may have timed out or been answered.",
        )
    return JSONResponse({"approved": approved})
