"""A fake of the ``micropython`` module: records ``kbd_intr`` calls.

A fresh copy of this module is loaded for every test.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")

interrupt_chars: list[int] = []


def kbd_intr(char: int) -> None:
    interrupt_chars.append(char)


def const(value: T) -> T:
    return value


def native(function: T) -> T:
    """The code emitter's decorator: under CPython the function as it is."""
    return function
