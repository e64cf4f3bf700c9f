"""One rule for a player's name, wherever it comes from."""

from __future__ import annotations

import pytest

from boardctl.errors import BoardctlError
from boardctl.names import MAX_NAME, InvalidName, clean_name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ann", "Ann"),
        ("  Ann Lee  ", "Ann Lee"),
        ('Ünal "Q" O\'Brien', 'Ünal "Q" O\'Brien'),
        ("王小明", "王小明"),
        ("x" * MAX_NAME, "x" * MAX_NAME),
        (" " + "x" * MAX_NAME + " ", "x" * MAX_NAME),
    ],
)
def test_a_name_is_kept_without_its_outer_spaces(text, name):
    assert clean_name(text, "white_name") == name


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Ann\nBo", "expected printable characters only (no newline, tab or control character)"),
        ("Ann\rBo", "expected printable characters only (no newline, tab or control character)"),
        ("a\tb", "expected printable characters only (no newline, tab or control character)"),
        ("a\x00b", "expected printable characters only (no newline, tab or control character)"),
        ("a\x1b[31mb", "expected printable characters only (no newline, tab or control character)"),
        ("a\u202eb", "expected printable characters only (no newline, tab or control character)"),
        ("a\u2028b", "expected printable characters only (no newline, tab or control character)"),
        ("x" * (MAX_NAME + 1), f"expected a name of at most {MAX_NAME} characters"),
        ("", "expected a name"),
        ("   ", "expected a name"),
        (None, "expected text"),
        (42, "expected text"),
    ],
)
def test_anything_else_is_refused_with_its_reason_in_one_line(text, reason):
    with pytest.raises(InvalidName) as caught:
        clean_name(text, "black_name")
    assert caught.value.reason == reason
    assert str(caught.value) == f"black_name: {reason}"
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, BoardctlError) and isinstance(caught.value, ValueError)


def test_an_empty_name_where_one_is_allowed():
    assert clean_name("  ", "name", allow_empty=True) == ""
    with pytest.raises(InvalidName):
        clean_name("a\nb", "name", allow_empty=True)
