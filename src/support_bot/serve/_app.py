"""The ASGI app of ``support-bot serve``: the page, the JSON API and the event streams.

Routes (all JSON, errors as ``{"error": "one sentence"}``):

- ``GET /`` the chat page; ``GET /static/…`` its script and style;
- ``GET /healthz`` the process is up; ``GET /readyz`` the model is loaded and the database answers;
- ``POST /api/conversations`` a new conversation of this browser session;
  ``GET /api/conversations`` the session's conversations, newest first;
- ``GET /api/conversations/{id}`` one conversation with its remembered messages;
- ``POST /api/conversations/{id}/messages`` ``{"text": …}``: the turn, as server-sent events
  (``queued``, ``started``, ``text``, ``tool_started``, ``tool_finished``,
  ``approval_requested``, then ``done`` or ``error``);
- ``POST /api/conversations/{id}/approvals`` ``{"decisions": {call id: true|false}}``, or
  ``…/approvals/{call id}`` ``{"approved": true|false}``: the paused turn resumed, as
  server-sent events (``approval_decided``, then as for a message); any process takes it.

How errors are answered is ``_errors.py``'s job; the guards in front of the
app (hosts, origins, sessions, rate limits) are ``_security.py``'s.
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
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from springtail import (
    ApprovalConflictError,
    ApprovalPendingError,
    AssistantMessage,
    ChatModel,
    Message,
    ToolResponseMessage,
    UserMessage,
)
from support_bot._store_base import BusinessStore, ServedConversation
from support_bot.serve._approvals import DecisionError, decisions_from
from support_bot.serve._config import ServeConfig
from support_bot.serve._errors import EXCEPTION_HANDLERS, JSON, HTTPProblem
from support_bot.serve._security import SESSION_COOKIE, Guard, new_session, owner_of
from support_bot.serve._turns import (
    TERMINAL_EVENTS,
    ChatService,
    ConversationBusyError,
    ServeTurn,
    TooManyTurnsError,
)

__all__ = ["create_app"]

log = logging.getLogger("support_bot.serve")

IO_THREADS: Final = 64
"""Threads for blocking database I/O; more turns than this wait for one."""
_CONVERSATION_ID: Final = re.compile(r"c-[A-Za-z0-9_-]{22}")
READY_PROBE_S: Final = 3.0
"""How long ``/readyz`` waits for the database to take a write before it says "busy"."""
_PROBE_ID: Final = "c-readiness-probe"
"""No conversation has this id (theirs are c- and 22 characters), so counting a turn
of it writes nothing: it only asks the database whether it takes writes now."""
_STATIC: Final = {"app.js": "text/javascript", "app.css": "text/css"}


@dataclass
class _State:
    config: ServeConfig
    store: BusinessStore
    model_label: str
    load_model: Callable[[], ChatModel]
    service: ChatService | None = None
    load_error: str | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    probe: asyncio.Future[None] | None = None


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
            if state.service is not None:
                await asyncio.to_thread(state.service.close)
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
        Route("/api/conversations/{cid}/approvals", _decide_approval, methods=["POST"]),
        Route("/api/conversations/{cid}/approvals/{aid}", _decide_approval, methods=["POST"]),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers=dict(EXCEPTION_HANDLERS),
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
        await asyncio.to_thread(service.launch)  # durable: finishes the turns a crash left
        state.service = service
        log.info("support-bot serve is ready (model %s)", state.model_label)
    except Exception as exc:
        log.exception("the model could not be loaded")
        state.load_error = str(exc) or type(exc).__name__


# -- helpers -----------------------------------------------------------------------


def _state(request: Request) -> _State:
    state: _State = request.app.state.serve
    return state


def _session(request: Request) -> tuple[str, str | None]:
    """The session's owner digest, and a new session secret to set when it had none.

    A cookie this server did not sign counts as none, so a session cannot be
    chosen from outside (session fixation).
    """
    key = _state(request).config.session_key
    owner = owner_of(request.cookies.get(SESSION_COOKIE, ""), key)
    if owner is not None:
        return owner, None
    secret = new_session(key)
    owner = owner_of(secret, key)
    assert owner is not None
    return owner, secret


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
    state = _state(request)
    owner = owner_of(request.cookies.get(SESSION_COOKIE, ""), state.config.session_key)
    if _CONVERSATION_ID.fullmatch(cid) and owner is not None:
        found = await asyncio.to_thread(state.store.conversation, cid)
        if found is not None and secrets.compare_digest(found.owner, owner):
            return found
    raise HTTPProblem(404, "No such conversation in this browser session.")


async def _json_object(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"null")
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python goes
        raise HTTPProblem(400, "The request body must be JSON.") from None
    if not isinstance(body, dict):
        raise HTTPProblem(400, "The request body must be a JSON object.")
    return body


def _is_unicode(text: str) -> bool:
    r"""Whether ``text`` is real Unicode: JSON's ``"\ud800"`` escapes give lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
    return JSON({"status": "ok"})


async def _readyz(request: Request) -> Response:
    """Ready once the model is loaded and the database takes writes; never any configuration."""
    state = _state(request)
    if state.service is None:
        reason = "model failed to load" if state.load_error else "model loading"
        return JSON({"status": "not ready", "reason": reason}, status_code=503)
    problem = await _store_problem(state)
    if problem is not None:
        return JSON({"status": "not ready", "reason": problem}, status_code=503)
    gate = state.service.gate
    return JSON({"status": "ready", "running": gate.running, "queued": gate.waiting})


async def _store_problem(state: _State) -> str | None:
    """Why the store cannot be used now, in a few words, or ``None``.

    A read alone is not enough: in WAL mode SQLite still reads while another
    program holds the write lock, and then every turn would fail. One probe
    runs at a time; the others wait for it.
    """
    if state.probe is None or state.probe.done():
        store = state.store

        def probe() -> None:
            store.products()
            store.count_turn(_PROBE_ID, "")  # a write that changes nothing

        state.probe = asyncio.ensure_future(asyncio.to_thread(probe))
    try:
        await asyncio.wait_for(asyncio.shield(state.probe), READY_PROBE_S)
    except TimeoutError:
        log.warning("readiness: the database did not take a write within %g s", READY_PROBE_S)
        return "database busy"
    except Exception as exc:
        log.warning("readiness: the database cannot be used: %s", exc)
        return "database unavailable"
    return None


async def _create_conversation(request: Request) -> Response:
    owner, secret = _session(request)
    cid = "c-" + secrets.token_urlsafe(16)
    created = await asyncio.to_thread(_state(request).store.add_conversation, cid, owner, "")
    return _with_session(JSON(_conversation_json(created), status_code=201), secret)


async def _list_conversations(request: Request) -> Response:
    owner, secret = _session(request)
    found = [] if secret else await asyncio.to_thread(_state(request).store.conversations, owner)
    return _with_session(JSON({"conversations": [_conversation_json(c) for c in found]}), secret)


async def _read_conversation(request: Request) -> Response:
    conversation = await _owned(request)
    service = _service(request)
    messages = await asyncio.to_thread(service.memory.get, conversation.id)
    pending = await asyncio.to_thread(service.pending, conversation.id)
    return JSON(
        {
            **_conversation_json(conversation),
            "running": await asyncio.to_thread(service.running, conversation.id),
            "messages": [_message_json(m) for m in messages],
            "pending": pending,
        }
    )


async def _send_message(request: Request) -> Response:
    conversation = await _owned(request)
    config = _state(request).config
    body = await _json_object(request)
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise HTTPProblem(422, 'Send the message as {"text": "..."} with some text in it.')
    if not _is_unicode(text):
        raise HTTPProblem(
            422, "The message is not valid Unicode text (it holds a lone surrogate); resend it."
        )
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
    waiting = await asyncio.to_thread(service.waiting, conversation.id)
    if waiting:  # refused, not taken as a "no" (docs/approvals.md)
        raise HTTPProblem(409, str(ApprovalPendingError(conversation.id, waiting)))
    turn = _claim(request, service, conversation, text.strip())
    return _stream(request, service, turn)


def _claim(
    request: Request, service: ChatService, conversation: ServedConversation, text: str
) -> ServeTurn:
    """The conversation claimed for a turn on this process (409 or 429 when it cannot be)."""
    client = request.client.host if request.client is not None else "unknown"
    try:
        return service.start(conversation.id, text, owner=conversation.owner, client=client)
    except ConversationBusyError:
        raise HTTPProblem(
            409, "This conversation is already answering; wait for that answer first."
        ) from None
    except TooManyTurnsError as exc:
        raise HTTPProblem(429, str(exc), {"retry-after": str(exc.retry_after_s)}) from None


def _stream(request: Request, service: ChatService, turn: ServeTurn) -> Response:
    """Run the turn in its own task and send its events; a client that leaves cancels it."""
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
    """Resume the conversation's paused turn with the user's decisions, on whichever process.

    The paused turn is taken from the database (the compare-and-set) before
    anything streams, so a decision that lost the race, or names a call that
    does not wait, is a 409 with one sentence, and a decision runs its call once.
    """
    conversation = await _owned(request)
    body = await _json_object(request)
    try:
        decisions = decisions_from(body, request.path_params.get("aid"))
    except DecisionError as exc:
        raise HTTPProblem(422, str(exc)) from None
    service = _service(request)
    turn = _claim(request, service, conversation, "")
    try:
        await asyncio.to_thread(service.take, turn, decisions)
    except ApprovalConflictError as exc:
        service.release(turn)
        raise HTTPProblem(409, str(exc)) from None
    except ValueError as exc:
        service.release(turn)
        raise HTTPProblem(422, str(exc)) from None
    except BaseException:
        service.release(turn)
        raise
    return _stream(request, service, turn)
