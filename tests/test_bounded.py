"""JSON from a network is read within bounds, with one short reason otherwise."""

from __future__ import annotations

import pytest

from boardctl.bounded import MAX_ITEMS, BoundedJsonError, loads


def test_a_message_within_the_bounds_reads_as_json() -> None:
    assert loads(b'{"a": [1, {"b": "[[[[[[[[[["}]}', 100) == {"a": [1, {"b": "[[[[[[[[[["}]}


@pytest.mark.parametrize(
    ("raw", "limit", "why"),
    [
        (b"[" * 9 + b"]" * 9, 100, "nested deeper than 8"),
        (b"[" * 100_000, 1_000_000, "nested deeper than 8"),
        (b"[" * 100_000, 4096, "more than 4096 bytes"),
        (b'"' + b"x" * 200 + b'"', 100, "more than 100 bytes"),
        ("[" + "1," * MAX_ITEMS + "1]", 10_000, f"more than {MAX_ITEMS} values"),
        (b"\xff\xfe{}", 100, "not UTF-8"),
        (b"{'a': 1}", 100, "not JSON"),
        (b'{"a": 1', 100, "not JSON"),
    ],
)
def test_anything_larger_deeper_or_not_json_is_refused_with_its_reason(
    raw: bytes | str, limit: int, why: str
) -> None:
    with pytest.raises(BoundedJsonError, match=why):
        loads(raw, limit)


def test_brackets_and_escaped_quotes_inside_strings_are_not_nesting() -> None:
    text = '{"s": "\\"[[[[[[[[[[[[\\\\"}'
    assert loads(text, 1000) == {"s": '"[[[[[[[[[[[[\\'}
