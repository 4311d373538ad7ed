"""``HttpAccess``: the host names, origins and tokens every HTTP server of the project takes."""

from __future__ import annotations

import socket

import pytest

from springtail.mcp import HttpAccess

TOKEN = "a-test-token-that-is-long-enough"


def test_loopback_names_and_the_bound_host_are_answered_whatever_the_port() -> None:
    access = HttpAccess(host="127.0.0.1")
    for host in ("127.0.0.1:8000", "localhost", "LOCALHOST:1", "[::1]:8000", "::1"):
        assert access.allows_host(host), host
    refused: list[str | None] = ["attacker.example", "attacker.example:8000", "127.0.0.2", "", None]
    for name in refused:
        assert not access.allows_host(name), name


def test_a_browsers_origin_must_be_the_address_it_went_to_or_an_allowed_host() -> None:
    access = HttpAccess(allowed_hosts=("Shop.Example",))
    assert access.allows_origin(None, "127.0.0.1:8000")  # not a browser's cross-site script
    assert access.allows_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert access.allows_origin("https://shop.example", "127.0.0.1:8000")  # behind a proxy
    assert not access.allows_origin("http://127.0.0.1:9000", "127.0.0.1:8000")
    assert not access.allows_origin("http://localhost:8000", "127.0.0.1:8000")
    # A rebound page is its own origin; the Host check, which comes first, refuses it.
    assert access.allows_origin("http://attacker.example", "attacker.example")
    assert not access.allows_host("attacker.example")
    assert not access.allows_origin("null", "127.0.0.1:8000")
    assert not access.allows_origin("file://", "127.0.0.1:8000")


def test_a_wildcard_address_answers_this_machines_names() -> None:
    access = HttpAccess(host="0.0.0.0", token=TOKEN)
    assert access.allows_host(f"{socket.gethostname()}:8000")
    assert access.allows_host("0.0.0.0:8000")
    assert access.allows_host("localhost:8000")
    assert not access.allows_host("attacker.example")


def test_the_sdks_settings_name_the_same_hosts_and_exact_origins() -> None:
    settings = HttpAccess(allowed_hosts=("tools.example",)).transport_security(8123)
    assert settings.enable_dns_rebinding_protection
    assert {"127.0.0.1", "127.0.0.1:*", "[::1]:*", "localhost:*", "tools.example"} <= set(
        settings.allowed_hosts
    )
    assert "http://127.0.0.1:8123" in settings.allowed_origins
    assert "https://tools.example" in settings.allowed_origins
    assert not [o for o in settings.allowed_origins if o.endswith(":*")]


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"host": "0.0.0.0"}, "needs a token: pass --token"),
        ({"token": "short"}, "too short"),
        ({"token": "x" * 20}, "repeats a few characters"),
        ({"token": "has a space in it 123"}, "without spaces"),
        ({"allowed_hosts": ("https://x.example",)}, "is not a host name"),
        ({"allowed_hosts": ("x.example/path",)}, "is not a host name"),
    ],
)
def test_unsafe_settings_are_one_sentence(options: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as refused:
        HttpAccess(**options)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value)
