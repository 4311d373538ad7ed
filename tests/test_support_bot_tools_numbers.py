from __future__ import annotations

from decimal import Decimal

import pytest

from support_bot.tools._numbers import grouped, plain


@pytest.mark.parametrize(
    ("value", "expected"),
    [("4096.00", "4096"), ("1E+3", "1000"), ("-0.0", "0"), ("0.50", "0.5"), ("-12.340", "-12.34")],
)
def test_plain_strips_trailing_zeros_without_exponents(value: str, expected: str) -> None:
    assert plain(Decimal(value)) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("35000", "35,000"), ("28700.50", "28,700.5"), ("-1234567", "-1,234,567"), ("999", "999")],
)
def test_grouped_adds_thousands_separators(value: str, expected: str) -> None:
    assert grouped(Decimal(value)) == expected
