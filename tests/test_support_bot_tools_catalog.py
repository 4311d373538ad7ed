from __future__ import annotations

from pathlib import Path

from support_bot._store import Store
from support_bot.tool_names import ALL_TOOL_NAMES, SESSION_SUMMARY
from support_bot.tools import all_tools


def test_all_thirteen_tools_in_the_listed_order(tmp_path: Path) -> None:
    tools = all_tools(Store.in_data_dir(tmp_path))
    assert tuple(cb.tool_definition.name for cb in tools) == ALL_TOOL_NAMES
    assert len(ALL_TOOL_NAMES) == 13
    for cb in tools:
        assert len(cb.tool_definition.description) > 20, cb.tool_definition.name


def test_summary_is_return_direct_only_when_asked(tmp_path: Path) -> None:
    store = Store.in_data_dir(tmp_path)

    def summary(direct: bool) -> bool:
        tools = all_tools(store, summary_return_direct=direct)
        cb = next(t for t in tools if t.tool_definition.name == SESSION_SUMMARY)
        return cb.tool_metadata.return_direct

    assert summary(True)
    assert not summary(False)
