"""``support-bot serve``: the chatbot as a web service (ASGI on uvicorn).

Heavy imports (Starlette, uvicorn) happen only when the app is built, so
``support-bot`` itself starts as fast as before; see docs/serve.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from support_bot._demo_model import DemoChatModel as DemoChatModel
    from support_bot.serve._app import create_app as create_app
    from support_bot.serve._config import (
        ServeConfig as ServeConfig,
        ServeConfigError as ServeConfigError,
    )

__all__ = ["DemoChatModel", "ServeConfig", "ServeConfigError", "create_app"]

_EXPORTS = {
    "create_app": "support_bot.serve._app",
    "ServeConfig": "support_bot.serve._config",
    "ServeConfigError": "support_bot.serve._config",
    "DemoChatModel": "support_bot._demo_model",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'support_bot.serve' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
