"""URLs as they may be shown: passwords and credential-like query values masked."""

from __future__ import annotations

import pytest

from springtail.models._redact import mask_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("https://user:s3cret@host/v1", "https://user:***@host/v1"),
        ("https://ghp_token@host/v1", "https://***@host/v1"),
        ("https://host/v1?api_key=abc&mode=fast", "https://host/v1?api_key=***&mode=fast"),
        ("https://host/v1?access_token=abc", "https://host/v1?access_token=***"),
        ("http://user:s3cret@[::1", "http://user:***@[::1"),  # malformed: masked by pattern
        ("not a url", "not a url"),
        ("openai-compatible:http://u:pw@h/v1", "openai-compatible:http://u:***@h/v1"),
    ],
)
def test_mask_url(url: str, shown: str) -> None:
    assert mask_url(url) == shown
