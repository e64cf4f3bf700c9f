"""A hostile sender costs at most one log line a minute per kind of fault."""

from __future__ import annotations

import logging

import pytest

from boardctl.quietlog import WINDOW, QuietLog


def test_repeats_within_a_minute_are_counted_into_the_next_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    quiet = QuietLog(logging.getLogger("test.quiet"), clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "test.quiet"):
        for second in range(0, 150):
            now[0] = float(second)
            quiet.warn("bad", "bad message from %s", "peer")
            quiet.warn("worse", "another kind")
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("bad")]
    assert lines == [
        "bad message from peer",
        "bad message from peer (59 more like it in the last minute)",
        "bad message from peer (59 more like it in the last minute)",
    ]
    assert quiet.lines == 6  # three of each kind in 150 s
    assert WINDOW == 60.0
