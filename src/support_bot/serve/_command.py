"""``support-bot serve [--host H] [--port P] [--database URL] [--model URI] [--token T]``.

Builds the store and the configuration (refusing unsafe settings in one
sentence), then runs the app on uvicorn until Ctrl-C. The model loads in the
background, so ``/healthz`` answers at once and ``/readyz`` when it is ready.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import logging
import os
import re
import secrets
import socket
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    import uvicorn

    from springtail import ChatModel
    from support_bot._store_base import BusinessStore
    from support_bot.serve._config import ServeConfig

__all__ = [
    "DATABASE_SCHEMES",
    "SESSION_KEY_FILENAME",
    "add_arguments",
    "database_problem",
    "run",
    "session_key",
    "uvicorn_config",
]

EXIT_USAGE = 2
EXIT_LISTEN = 1
SESSION_KEY_FILENAME = "serve-session.key"
CHAT_ONLY = ("mcp", "yes", "step", "conversation", "show_tools")
"""Common options that belong to the chat: the service runs the final step's client and
asks for approval in the page, so it refuses them rather than ignore them."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``serve``'s own options (``--model``, ``--data-dir``, ``--threads`` are common)."""
    from support_bot.serve._config import DEFAULT_APPROVAL_TIMEOUT_S

    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="interface to listen on (default 127.0.0.1; any other needs --token)",
    )
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="postgresql://user:password@host/db to share one database between processes, "
        "or a SQLite file (default: support-bot.db in the data folder)",
    )
    parser.add_argument(
        "--token",
        help="access token every request must carry (default $SUPPORT_BOT_TOKEN); "
        "required unless listening on loopback",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the service is reached by (a proxy's public name); the "
        "loopback names and --host always are; repeatable",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="proxies (comma-separated addresses, or *) whose X-Forwarded-For names the "
        "client; by default no one is trusted and the rate limit sees the socket's address",
    )
    parser.add_argument(
        "--approval-timeout",
        type=float,
        default=DEFAULT_APPROVAL_TIMEOUT_S,
        metavar="SECONDS",
        help="how long a reservation waits (stored; any process may take the decision) "
        "before it counts as denied (default 3600)",
    )
    parser.add_argument(
        "--durable",
        action="store_true",
        help="run each turn as a DBOS workflow: a turn survives a crash, and a serve that "
        "starts finishes the turns of the one it replaces (system database dbos.sqlite in "
        "the data folder, or the dbos schema of the PostgreSQL --database)",
    )
    parser.add_argument(
        "--executor-id",
        metavar="NAME",
        help="this process's stable name among the serve processes sharing one database "
        "(default $SUPPORT_BOT_EXECUTOR_ID, else machine:host:port); a serve recovers the "
        "unfinished turns of its own name only",
    )
    parser.add_argument(
        "--rate-limit",
        type=int,
        default=120,
        metavar="PER_MINUTE",
        help="requests per minute per client address (default 120; 0 turns it off)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; returns the exit code."""
    from springtail.models import mask_url
    from support_bot._extras import require_extra
    from support_bot._options import given_options
    from support_bot._store_postgres import is_postgres_url
    from support_bot.serve._config import TOKEN_ENV, ServeConfig, ServeConfigError

    chat_only = given_options(args, CHAT_ONLY)
    if chat_only:
        print(
            f"support-bot serve: {' and '.join(chat_only)} belong to the chat, not to serve "
            "(it runs the final step and asks for approval in the page); leave them out.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    # Before anything is written (the session key, the database): a refusal leaves no file.
    problem = database_problem(args.database)
    if problem is not None:
        print(f"support-bot serve: {problem}", file=sys.stderr)
        return EXIT_USAGE
    require_extra("serve", "The web service (support-bot serve)")
    if args.database and is_postgres_url(args.database):
        require_extra("postgres", "A PostgreSQL --database")
    token = args.token or os.environ.get(TOKEN_ENV) or None
    model_uri: str = args.model
    shown_model = mask_url(model_uri)
    try:
        config = ServeConfig(
            host=args.host,
            port=args.port,
            token=token,
            allowed_hosts=tuple(args.allowed_host),
            forwarded_allow_ips=args.forwarded_allow_ips,
            session_key=session_key(token, _key_folder(args)),
            approval_timeout_s=args.approval_timeout,
            rate_limit_per_min=args.rate_limit,
            serial_model=_is_embedded(model_uri),
        )
    except ServeConfigError as exc:
        print(f"support-bot serve: {exc}", file=sys.stderr)
        return EXIT_USAGE
    store = open_store(args.database, args.data_dir)
    if args.durable:
        import dataclasses

        from support_bot.serve._durable import DurableSettings, executor_id, system_database_url

        url, postgres = system_database_url(args.database, store)
        settings = DurableSettings(
            url, executor_id(args.executor_id, config.host, config.port), postgres
        )
        config = dataclasses.replace(config, durable=settings)
    try:
        listener = _bind(config.host, config.port)
    except OSError as exc:
        print(
            f"support-bot serve: cannot listen on {config.host}:{config.port} "
            f"({exc.strerror or exc}); choose another --port or stop what uses it.",
            file=sys.stderr,
        )
        return EXIT_LISTEN
    threads: int | None = args.threads

    def load_model() -> ChatModel:
        return build_serve_model(model_uri, threads=threads)

    import uvicorn

    from support_bot.serve._app import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = create_app(config=config, store=store, load_model=load_model, model_label=shown_model)
    print(
        f"support-bot serve: http://{_url_host(config.host)}:{config.port}/ · model {shown_model} "
        f"· data {store.location}"
        + (" · token required" if config.token else " · loopback only, no token"),
        file=sys.stderr,
        flush=True,
    )
    server = uvicorn.Server(uvicorn_config(app, config))
    try:
        server.run(sockets=[listener])
    finally:
        if config.durable is not None:
            from support_bot.serve._durable_turns import stop_dbos

            stop_dbos()  # after the loop ended: the next serve finishes its turns
    return 0


def uvicorn_config(app: Any, config: ServeConfig) -> uvicorn.Config:
    """How uvicorn runs the app: quiet, trusting proxy headers only from ``--forwarded-allow-ips``.

    uvicorn's default trusts ``X-Forwarded-For`` from any loopback client, so
    one local client could claim a new address per request and never meet
    the rate limit.
    """
    import uvicorn

    trusted = config.forwarded_allow_ips
    return uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
        proxy_headers=trusted is not None,
        forwarded_allow_ips=trusted or "",
    )


def session_key(token: str | None, folder: Path) -> bytes:
    """The key that signs session cookies: the same for every process that shares the data.

    With a token it is derived from the token (processes on other machines
    share that); without one it is kept in ``folder`` (0600), so sessions
    outlive a restart.
    """
    if token:
        return hmac.new(token.encode(), b"support-bot session cookies", hashlib.sha256).digest()
    path = folder / SESSION_KEY_FILENAME
    with contextlib.suppress(OSError, ValueError):
        key = bytes.fromhex(path.read_text("ascii").strip())
        if len(key) >= 32:
            return key
    from support_bot._files import private_folder

    private_folder(folder)
    fd, temporary = tempfile.mkstemp(prefix=".session-", dir=folder)  # 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_hex(32) + "\n")
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)  # the first process's key wins; the others read it
    finally:
        os.unlink(temporary)
    return bytes.fromhex(path.read_text("ascii").strip())


def _key_folder(args: argparse.Namespace) -> Path:
    if args.data_dir is not None:
        return Path(args.data_dir).expanduser()
    from support_bot._store import default_data_dir

    return default_data_dir()


DATABASE_SCHEMES: Final = ("postgresql://", "postgres://", "sqlite:///")
"""The URL schemes ``--database`` takes; anything without ``://`` is a SQLite file's path."""

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def database_problem(database: str | None) -> str | None:
    """Why ``--database`` cannot be used, naming the schemes that work; ``None`` if it can.

    Without this, ``mysql://u@h/db`` would be taken for the path of a SQLite
    file, and a folder ``mysql:`` created for it.
    """
    if not database or not _SCHEME.match(database.strip()):
        return None
    if database.strip().lower().startswith(DATABASE_SCHEMES):
        return None
    from springtail.models import mask_url

    scheme = database.strip().split("://", 1)[0]
    return (
        f"--database {mask_url(database)!r} uses the scheme {scheme}://, which support-bot "
        "cannot use; give postgresql://USER@HOST/DB (or postgres://), sqlite:///PATH, or the "
        "path of a SQLite file."
    )


def open_store(database: str | None, data_dir: Path | None) -> BusinessStore:
    """The store ``--database`` names: PostgreSQL, a SQLite file, or the data folder's file."""
    from support_bot._store import Store
    from support_bot._store_postgres import PostgresStore, is_postgres_url

    if database and is_postgres_url(database):
        return PostgresStore(database)
    if database:
        path = Path(database.removeprefix("sqlite:///")).expanduser()
        return Store(path)
    return Store.in_data_dir(data_dir)


def build_serve_model(uri: str, *, threads: int | None = None) -> ChatModel:
    """The model for ``uri``, as every ``--model`` is resolved (``scripted:demo`` included)."""
    from support_bot._model import build_model

    return build_model(uri, threads=threads)[0]


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so a taken port is one sentence, not a traceback."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _is_embedded(uri: str) -> bool:
    from support_bot._model import SCRIPT_ENV

    return uri.strip().lower().startswith("llamacpp:") and not os.environ.get(SCRIPT_ENV)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
