"""Switch off every telemetry exporter before any framework is imported.

The peers ship tracing that would otherwise try to reach the network (openai-agents
exports traces to OpenAI, LangSmith to its cloud, logfire through pydantic-ai).
Measuring with them on would time the exporters, and there is no network here.
"""

from __future__ import annotations

import os

_OFF = {
    "OTEL_SDK_DISABLED": "true",
    "OTEL_TRACES_EXPORTER": "none",
    "OTEL_METRICS_EXPORTER": "none",
    "OTEL_LOGS_EXPORTER": "none",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGSMITH_TRACING": "false",
    "LANGSMITH_TRACING_V2": "false",
    "OPENAI_AGENTS_DISABLE_TRACING": "1",
    "LOGFIRE_SEND_TO_LOGFIRE": "false",
    "LOGFIRE_IGNORE_NO_CONFIG": "1",
    "TOKENIZERS_PARALLELISM": "false",
}


def disable_telemetry() -> None:
    """Set the environment so every framework (and every child process) runs untraced."""
    for key, value in _OFF.items():
        os.environ[key] = value
