"""Progress of a long command, on a terminal only.

A command that reads a long input (``boardctl replay`` of a log of many
megabytes) tells the person watching how far it has got, on one line of
stderr that it rewrites in place and clears at the end.  When stderr is not a
terminal (a pipe, a file, a test) nothing is written: the contract of one
line on stderr for an error, and none otherwise, holds there.
"""

from __future__ import annotations

from typing import TextIO

MIN_BYTES = 1_000_000  # shorter inputs are done before progress would help
STEP_PERCENT = 1  # rewrite the line at most once per percent


class Progress:
    """``update(done)`` as bytes are read; a context manager that clears the line."""

    def __init__(self, label: str, total: int, stream: TextIO) -> None:
        self.label = label
        self.total = total
        self.stream = stream
        self.shown = -1
        self.active = total >= MIN_BYTES and stream.isatty()

    def update(self, done: int) -> None:
        if not self.active:
            return
        percent = min(100, done * 100 // self.total)
        if percent >= self.shown + STEP_PERCENT:
            self.shown = percent
            self.stream.write(f"\r{self.label}: {percent}% of {self.total / 1e6:.1f} MB")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.active and self.shown >= 0:
            self.stream.write("\r\x1b[K")  # back to the start, and clear the line
            self.stream.flush()
