"""Handing things from a worker thread to the loop: the loop takes what has
come at each step and never waits for more."""

from __future__ import annotations

import queue
from typing import Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Waiting(Protocol[T_co]):
    """A :class:`queue.Queue` or :class:`queue.SimpleQueue`, as :func:`drain` reads it."""

    def get_nowait(self) -> T_co: ...


def drain(waiting: Waiting[T]) -> list[T]:
    """Everything in ``waiting`` now, oldest first (never blocks)."""
    out = []
    while True:
        try:
            out.append(waiting.get_nowait())
        except queue.Empty:
            return out
