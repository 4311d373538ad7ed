"""Date and time tools: the model has no clock, so it must ask."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field

from springtail import MethodToolCallback, Param, ToolDefinition, tool
from support_bot.tool_names import CURRENT_DATE, CURRENT_DATETIME
from support_bot.tools._limits import MAX_KEY_CHARS

__all__ = ["DateTimeTools", "current_date_callback", "local_zone_name"]

_ZONE_EXAMPLES = "UTC, Asia/Seoul, America/New_York"


def local_zone_name() -> str | None:
    """The machine's IANA zone id when it can be found (``$TZ``, ``/etc/localtime``)."""
    candidates: list[str] = [os.environ.get("TZ", "").lstrip(":")]
    try:
        target = str(Path("/etc/localtime").resolve())
    except OSError:
        target = ""
    if "zoneinfo/" in target:
        candidates.append(target.split("zoneinfo/", 1)[1])
    for name in candidates:
        if not name:
            continue
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        return name
    return None


class DateTimeTools:
    """``current_datetime`` as a ``@tool`` method; ``current_date`` wrapped by hand.

    ``clock`` returns an aware "now" and exists so tests can fix the time.
    """

    def __init__(self, clock: Callable[[], datetime] | None = None) -> None:
        self._clock = clock or (lambda: datetime.now(UTC))

    @tool(
        name=CURRENT_DATETIME,
        description=(
            "Get the current date and time. Optionally in a time zone given as an IANA id "
            "such as UTC, Asia/Seoul or America/New_York; leave zone_id empty for local time."
        ),
    )
    def current_datetime(
        self,
        zone_id: Annotated[
            Annotated[str, Field(max_length=MAX_KEY_CHARS)] | None,
            Param("IANA time zone id, e.g. Asia/Seoul; empty means the machine's zone"),
        ] = None,
    ) -> str:
        """Answer ``YYYY-MM-DD HH:MM:SS ZONE``, or how to name a zone when it is unknown."""
        name = (zone_id or "").strip()
        now = self._clock()
        if not name:
            local_name = local_zone_name()
            if local_name is not None:
                local = now.astimezone(ZoneInfo(local_name))
                return f"{local:%Y-%m-%d %H:%M:%S} {local_name}"
            local = now.astimezone()
            return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or 'local time'}"
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            return (
                f"Unknown time zone {name!r}. Use an IANA zone id such as {_ZONE_EXAMPLES}, "
                "or leave zone_id empty for the local time."
            )
        return f"{now.astimezone(zone):%Y-%m-%d %H:%M:%S} {name}"

    def current_date(self) -> str:
        """Today's date, ISO format, local zone (see ``current_date_callback``)."""
        return self._clock().astimezone().date().isoformat()


def current_date_callback(tools: DateTimeTools) -> MethodToolCallback:
    """``current_date`` with a definition written by hand, the Spring ``MethodToolCallback`` way.

    This shows the escape hatch for a method you cannot (or do not want to)
    decorate: you spell out the name, description and schema yourself.
    """
    definition = ToolDefinition(
        name=CURRENT_DATE,
        description="Get today's date in ISO format (YYYY-MM-DD). Takes no arguments.",
        input_schema={
            "type": "object",
            "properties": {},
            "required": [],
            "additionalProperties": False,
        },
    )
    return MethodToolCallback(
        tool_definition=definition, tool_method=DateTimeTools.current_date, tool_object=tools
    )
