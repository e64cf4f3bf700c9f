"""Numbers from outside: ASCII digits only, bounded, one clear message."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.rules.digits import NumberError, parse_decimal, parse_whole, shown

# What str.isdigit(), int() or float() take that a user never means as a number.
NOT_NUMBERS = [
    "²",
    "٣",
    "１２",
    "1_000",
    " 7",
    "7 ",
    "+7",
    "0x10",
    "",
    "-",
    "1e3",
    "١٠",
    "inf",
    "nan",
    "Infinity",
    "1.5.2",
    "--1",
    "7\n",
]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_only_plain_ascii_digits_are_whole_numbers(text):
    with pytest.raises(NumberError):
        parse_whole(text, -100, 100)


@pytest.mark.parametrize("text", [t for t in NOT_NUMBERS if t not in ("1.5.2",)] + ["1e400"])
def test_only_plain_ascii_decimals_are_decimals(text):
    with pytest.raises(NumberError):
        parse_decimal(text, -100.0, 100.0)


@pytest.mark.parametrize(
    ("text", "low", "high", "value"),
    [
        ("0", 0, 10, 0),
        ("007", 0, 10, 7),
        ("10", 0, 10, 10),
        ("-3", -5, 5, -3),
        ("9223372036854775807", 1, 2**63 - 1, 2**63 - 1),
    ],
)
def test_whole_numbers_in_range(text, low, high, value):
    assert parse_whole(text, low, high) == value


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("11", 0, 10),
        ("-1", 0, 10),
        ("-6", -5, 5),
        ("9223372036854775808", 1, 2**63 - 1),
        ("9" * 5000, 0, 10),
        ("0" * 5000 + "1", 2, 10),
    ],
)
def test_whole_numbers_out_of_range_are_refused(text, low, high):
    with pytest.raises(NumberError) as caught:
        parse_whole(text, low, high)
    message = str(caught.value)
    assert f"from {low} to {high}" in message
    assert "\n" not in message and len(message) < 200


def test_decimals():
    assert parse_decimal("0.5", 0, 1) == 0.5
    assert parse_decimal(".5", 0, 1) == 0.5
    assert parse_decimal("1.", 0, 1) == 1.0
    assert parse_decimal("-2.25", -3, 0) == -2.25
    with pytest.raises(NumberError):
        parse_decimal("-0.5", 0, 1)
    with pytest.raises(NumberError):
        parse_decimal("9" * 400, 0, 600)


def test_a_long_value_is_cut_in_messages():
    assert shown("e2") == "'e2'"
    assert len(shown("x" * 10_000)) < 60 and "10000 characters" in shown("x" * 10_000)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.integers(-(10**6), 10**6), st.integers(0, 10**20))
def test_any_text_is_a_number_in_range_or_refused(text, low, width):
    high = low + width
    try:
        value = parse_whole(text, low, high)
    except NumberError:
        return
    assert low <= value <= high
    assert text.isascii() and text.lstrip("-").isdigit()
    assert value == int(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.floats(allow_nan=True, allow_infinity=True).map(repr)))
def test_any_text_is_a_finite_decimal_in_range_or_refused(text):
    try:
        value = parse_decimal(text, -1000.0, 1000.0)
    except NumberError:
        return
    assert -1000.0 <= value <= 1000.0 and text.isascii()
