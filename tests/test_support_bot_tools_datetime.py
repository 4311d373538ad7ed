from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime

import pytest

from springtail import ToolArgumentsError
from support_bot.tool_names import CURRENT_DATE, CURRENT_DATETIME
from support_bot.tools import DateTimeTools, current_date_callback, local_zone_name, method_tools

NOON_UTC = datetime(2026, 3, 14, 12, 30, 5, tzinfo=UTC)


@pytest.fixture
def tools() -> DateTimeTools:
    return DateTimeTools(lambda: NOON_UTC)


def test_named_zone(tools: DateTimeTools) -> None:
    assert tools.current_datetime("Asia/Seoul") == "2026-03-14 21:30:05 Asia/Seoul"
    assert tools.current_datetime(" UTC ") == "2026-03-14 12:30:05 UTC"
    assert tools.current_datetime("America/New_York") == "2026-03-14 08:30:05 America/New_York"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../etc/passwd", "not a zone"])
def test_unknown_zone_lists_examples(tools: DateTimeTools, zone: str) -> None:
    answer = tools.current_datetime(zone)
    assert "Unknown time zone" in answer
    for example in ("UTC", "Asia/Seoul", "America/New_York"):
        assert example in answer


@pytest.mark.parametrize("zone", [None, "", "   "])
def test_blank_zone_means_the_machine_zone(
    tools: DateTimeTools, zone: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Asia/Seoul")
    assert local_zone_name() == "Asia/Seoul"
    assert tools.current_datetime(zone) == "2026-03-14 21:30:05 Asia/Seoul"


def test_format_without_a_known_local_zone(
    tools: DateTimeTools, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("support_bot.tools._datetime.local_zone_name", lambda: None)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S.*", tools.current_datetime())


def test_current_date_is_a_hand_written_method_callback(tools: DateTimeTools) -> None:
    callback = current_date_callback(tools)
    assert callback.tool_definition.name == CURRENT_DATE
    assert callback.tool_definition.input_schema["properties"] == {}
    assert date.fromisoformat(callback.call("{}")) == NOON_UTC.astimezone().date()
    assert callback.call("") == callback.call("{}")


def test_step_one_tools_are_named_by_the_constants() -> None:
    names = [cb.tool_definition.name for cb in method_tools()]
    assert names[:2] == [CURRENT_DATETIME, CURRENT_DATE]
    current = next(
        cb for cb in method_tools(lambda: NOON_UTC) if cb.tool_definition.name == CURRENT_DATETIME
    )
    assert current.tool_definition.input_schema["required"] == []
    assert current.call(json.dumps({"zone_id": "UTC"})) == "2026-03-14 12:30:05 UTC"
    assert current.call("{}").startswith("2026-03-14")


def test_a_zone_name_too_long_is_refused_by_the_schema() -> None:
    tools = {cb.tool_definition.name: cb for cb in method_tools()}
    with pytest.raises(ToolArgumentsError) as info:
        tools[CURRENT_DATETIME].call(json.dumps({"zone_id": "Z" * 100_000}))
    assert "'zone_id'" in str(info.value)
    assert len(str(info.value)) < 400
