"""JSON from a network, read within bounds: size, nesting depth and count.

Whatever arrives from a browser, a peer board or a broker is hostile until
it proves otherwise; :func:`loads` refuses, with one short reason, anything
larger or deeper than boardctl ever sends, before Python's parser can spend
memory or recursion on it.  The web server's bodies and the remote link's
messages both go through it, so there is one rule for every network read.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import BoardctlError

MAX_DEPTH = 8  # boardctl's deepest message nests five levels
MAX_ITEMS = 512  # values (numbers, strings, objects, arrays) in one document


class BoundedJsonError(BoardctlError, ValueError):
    """The text is not JSON within the bounds; the message says which."""


def loads(raw: bytes | str, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """``raw`` parsed, if it is UTF-8 JSON of at most ``max_bytes`` bytes,
    ``max_depth`` levels of nesting and :data:`MAX_ITEMS` values.

    :raises BoundedJsonError: naming the first bound it breaks.
    """
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > max_bytes:
        raise BoundedJsonError(f"more than {max_bytes} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BoundedJsonError("not UTF-8") from None
    _check_shape(text, max_depth)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BoundedJsonError("not JSON") from None


def _check_shape(text: str, max_depth: int) -> None:
    """Count nesting and values outside strings in one pass, without parsing."""
    depth = items = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
            items += 1
        elif char in "[{":
            depth += 1
            items += 1
            if depth > max_depth:
                raise BoundedJsonError(f"nested deeper than {max_depth}")
        elif char in "]}":
            depth -= 1
        elif char == ",":
            items += 1
        if items > MAX_ITEMS:
            raise BoundedJsonError(f"more than {MAX_ITEMS} values")
