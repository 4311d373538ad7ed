from __future__ import annotations

import json
from pathlib import Path

import pytest

from springtail import ToolArgumentsError
from support_bot._store import Store
from support_bot.tool_names import CUSTOMER_CONTACT_LOOKUP
from support_bot.tools import customer_contact_lookup, mask_emails, masking_result_converter


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.in_data_dir(tmp_path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mail a.b+c@x.example now", "mail [EMAIL] now"),
        ("two: x@y.io, Z.Q@sub.domain.co.kr.", "two: [EMAIL], [EMAIL]."),
        ("no address here @ all", "no address here @ all"),
    ],
)
def test_every_email_is_masked(text: str, expected: str) -> None:
    assert mask_emails(text) == expected


def test_converter_masks_whatever_the_tool_returns() -> None:
    assert masking_result_converter("write to a@b.example", str) == "write to [EMAIL]"
    assert masking_result_converter(None, None) == "Done"


def test_lookup_answers_the_contact_with_the_email_masked(store: Store) -> None:
    callback = customer_contact_lookup(store)
    assert callback.tool_definition.name == CUSTOMER_CONTACT_LOOKUP
    answer = callback.call('{"customer_id": "C-100"}')
    assert "Minji Kim" in answer
    assert "+82 2 555 0100" in answer
    assert "[EMAIL]" in answer
    assert "@" not in answer


def test_lookup_accepts_loose_ids(store: Store) -> None:
    assert "Daniel Park" in customer_contact_lookup(store).call('{"customer_id": " c101 "}')


def test_unknown_customer_lists_the_known_ids(store: Store) -> None:
    answer = customer_contact_lookup(store).call('{"customer_id": "C-999"}')
    assert "No customer with id 'C-999'" in answer
    assert "C-100" in answer
    assert "C-105" in answer


def test_a_customer_id_is_bounded_in_the_schema(store: Store) -> None:
    callback = customer_contact_lookup(store)
    schema = callback.tool_definition.input_schema
    assert schema["properties"]["customer_id"]["maxLength"] == 64
    with pytest.raises(ToolArgumentsError) as info:
        callback.call(json.dumps({"customer_id": "x@y." * 50_000}))
    assert "'customer_id'" in str(info.value)
    assert len(str(info.value)) < 400


def test_an_echoed_id_with_an_address_is_masked(store: Store) -> None:
    answer = customer_contact_lookup(store).call('{"customer_id": "ops@localhost"}')
    assert "ops@localhost" not in answer.lower()
    assert "[EMAIL]" in answer
