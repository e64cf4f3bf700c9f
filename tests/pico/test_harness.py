"""The emulator's harness itself, without an emulator: what it makes of its output."""

from __future__ import annotations

import subprocess
import sys

from .rig import harness

LINES = [
    '{"ev": "ready", "port": 5, "ns": 10}',
    "[0, 1 something rp2040js printed",
    '{"ev": "line", "dir": "tx", "text": "$01 SNAP 0", "ns": 20}',
]


def test_a_line_that_is_no_event_is_kept_and_the_events_after_it_still_come() -> None:
    pico = object.__new__(harness.EmulatedPico)
    script = "import sys; sys.stdout.write(sys.argv[1])"
    pico._process = subprocess.Popen(
        [sys.executable, "-c", script, "\n".join(LINES) + "\n"],
        stdout=subprocess.PIPE,
        text=True,
    )
    pico._open_stream()
    pico._read()
    pico._process.wait(timeout=10)
    assert pico.chatter == [LINES[1]]
    assert [e["ev"] for e in pico.log] == ["ready", "line"]
    assert pico._events.get_nowait()["ev"] == "ready"
    assert pico._ns == 20
