"""Numbers read from text that came from outside: ASCII digits only, bounded.

``str.isdigit()`` and ``int()`` accept far more than a user means by a
number: ``"²".isdigit()`` is true, ``int("٣")`` is 3, ``int("1_0")`` is 10,
``int(" 7 ")`` is 7, and a 5,000-digit string either takes time to convert
or raises a ``ValueError`` about Python's own digit limit.  Every number boardctl
reads from a FEN, a log, a command line, a UCI command or a configuration
goes through here instead: plain ASCII digits, an optional leading minus only
where negatives are allowed, and a range checked before the text is converted,
so the cost of a bad number is bounded by its range, not by its length.
"""

from __future__ import annotations

import re

from .errors import BoardctlError

# ASCII only: without re.ASCII, [0-9] is already ASCII, but \d is not.
_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
SHOWN = 24  # characters of a bad value quoted back: one readable line, whatever its length


class NumberError(BoardctlError, ValueError):
    """Text that is not a number in the range asked for; says which range."""


def shown(text: str) -> str:
    """``repr(text)``, cut to a readable length for an error message."""
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[:SHOWN]!r}… ({len(text)} characters)"


def is_ascii_digits(text: str) -> bool:
    """True for one or more of ``0``–``9`` and nothing else."""
    return text.isascii() and text.isdigit()


def _trimmed(text: str, low: float, high: float) -> str | None:
    """``text`` (already matched) without its leading zeros, or None when it
    has more digits than any number in ``[low, high]``: so that converting it
    is cheap, and never meets Python's own limit on digits."""
    sign = "-" if text.startswith("-") else ""
    whole, dot, fraction = text.lstrip("-").partition(".")
    whole = whole.lstrip("0") or "0"
    if len(whole) > len(str(max(abs(int(low)), abs(int(high))))):
        return None
    return f"{sign}{whole}{dot}{fraction}"


def parse_whole(text: str, low: int, high: int) -> int:
    """The whole number ``text`` names, in ``[low, high]``.

    :raises NumberError: for anything but ASCII digits (a leading ``-`` when
        ``low`` is negative) or a number out of range.
    """
    if not (_WHOLE.fullmatch(text) and (low < 0 or not text.startswith("-"))):
        raise NumberError(f"expected a whole number from {low} to {high}, got {shown(text)}")
    trimmed = _trimmed(text, low, high)
    value = int(trimmed) if trimmed is not None else None
    if value is None or not low <= value <= high:
        raise NumberError(f"expected a whole number from {low} to {high}, got {shown(text)}")
    return value


def parse_decimal(text: str, low: float, high: float) -> float:
    """The number ``text`` names (ASCII digits with an optional decimal point,
    no exponent, no ``inf`` or ``nan``), in ``[low, high]``.

    :raises NumberError: as :func:`parse_whole`.
    """
    ok = _DECIMAL.fullmatch(text) and (low < 0 or not text.startswith("-"))
    trimmed = _trimmed(text, low, high) if ok else None
    value = float(trimmed) if trimmed is not None else None
    if value is None or not low <= value <= high:
        raise NumberError(f"expected a number from {low:g} to {high:g}, got {shown(text)}")
    return value


__all__ = ["NumberError", "is_ascii_digits", "parse_decimal", "parse_whole", "shown"]
