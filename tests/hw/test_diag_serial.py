"""``boardctl diag`` on a serial board reports both ends' line counters, and
a cable that damages lines is a fault even when no damaged line was read."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from boardctl.config import Config, load_config
from boardctl.diag import command
from boardctl.diag.link import DAMAGE_ALLOWED, LinkCounts

from .fake_mcu import FakeMcu

LIVE_SECONDS = 2.0  # the live view's time with the pieces moving, at the least
# How long it may go on waiting for what the test needs to have happened (a
# machine starved of CPU moves fewer pieces in the time, so sends fewer lines).
WAIT = 60.0
# Damaged lines sent before the session ends: a few more than are allowed, so
# that some reach the host however the damage falls.
DAMAGED_SENT = DAMAGE_ALLOWED + 4


class EndAfter:
    """Keys that end the session (end of input) after ``seconds``, once
    ``enough()`` holds too (or after :data:`WAIT` seconds, whatever holds)."""

    def __init__(self, seconds: float, enough: Callable[[], bool] = lambda: True) -> None:
        self.start = time.monotonic()
        self.seconds = seconds
        self.enough = enough

    def take(self) -> list[bool]:
        waited = time.monotonic() - self.start
        done = waited >= self.seconds and self.enough()
        return [False] if done or waited >= WAIT else []


def serial_config(tmp_path: Path, port: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(f'[board]\nsensors = "serial"\nserial_port = "{port}"\n')
    return load_config(path)


def run_diag(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, corrupt: float
) -> tuple[int, str, FakeMcu]:
    with FakeMcu(tmp_path) as fake:
        fake.corrupt_ratio = corrupt
        damaged = (lambda: fake.corrupted_tx >= DAMAGED_SENT) if corrupt else (lambda: True)
        monkeypatch.setattr(command, "StdinKeys", lambda: EndAfter(LIVE_SECONDS, damaged))
        done = threading.Event()
        hands = threading.Thread(target=move_pieces, args=(fake, done), daemon=True)
        hands.start()
        out = io.StringIO()
        try:
            config = serial_config(tmp_path, fake.port)
            status = command.diag_command(config, steps="live", out=out)
        finally:
            done.set()
            hands.join(5)
        return status, out.getvalue(), fake


def move_pieces(fake: FakeMcu, done: threading.Event) -> None:
    """A piece slid along the first rank and back, one square every 20 ms:
    each change is a snapshot line to the host."""
    square = 0
    while not done.wait(0.02):
        square = (square + 1) % 20
        fake.occupancy = 1 << (square if square < 10 else 19 - square)


def link_section(text: str) -> str:
    summary = text[text.index("boardctl diag: summary") :]
    return summary[summary.index("serial link") :]


def test_a_clean_serial_link_reports_both_ends_and_no_fault(monkeypatch, tmp_path) -> None:
    status, text, _ = run_diag(monkeypatch, tmp_path, corrupt=0.0)
    section = link_section(text)
    assert "serial link (firmware 0.1.0-fake):" in section
    assert "this end: " in section and "0 dropped" in section
    # The board's own count of lines it read, from its COUNTERS answer.
    assert "the board: " in section and "scans of the sensors" in section
    assert "advice" not in section
    # The link itself is no fault.  (On a machine starved of CPU the pty can
    # fall silent past the link's timeout, which the session rightly reports
    # as the board not connected: only that may make it fail.  Connecting at
    # the start is no outage: tests/diag/test_diag.py.)
    summary = text[text.index("boardctl diag: summary") :]
    if "board not connected" in summary:
        assert status == 1 and "result: 1 problem(s) found" in summary, summary
    else:
        assert "result: no faults found" in summary and status == 0, summary


def test_a_cable_that_damages_lines_is_a_fault_with_advice(monkeypatch, tmp_path) -> None:
    status, text, fake = run_diag(monkeypatch, tmp_path, corrupt=0.3)
    assert fake.corrupted_tx > DAMAGE_ALLOWED
    section = link_section(text)
    this_end = next(line for line in section.splitlines() if "this end:" in line)
    assert "CRC" in this_end or "TRUNC" in this_end or "CHAR" in this_end, this_end
    assert "check the USB cable" in section
    assert status == 1 and "problem(s) found" in text


def counts(host: dict[str, int], device: dict[str, int] | None = None) -> LinkCounts:
    return LinkCounts(host, {"RX": 10, **(device or {})})


def test_one_line_cut_when_the_port_opened_is_allowed_and_more_is_not() -> None:
    assert counts({"TRUNC": DAMAGE_ALLOWED}).problems == 0
    assert counts({"TRUNC": DAMAGE_ALLOWED, "CRC": 1}).problems == 1
    assert counts({}, {"CRC": DAMAGE_ALLOWED + 1}).problems == 1
    # Text outside a frame is a device booting, not damage.
    assert counts({"NOISE": 40}).problems == 0


def test_lines_given_up_and_a_board_that_never_answers_are_faults() -> None:
    assert counts({"GIVEUP": 1}).problems == 1
    silent = LinkCounts({"RX": 5}, {})
    assert silent.problems == 1
    assert any("did not report its counters" in line for line in silent.lines())


def test_a_board_its_watchdog_had_to_reset_is_a_fault_and_says_how_often() -> None:
    assert counts({}, {"WDT": 0}).problems == 0
    hung = counts({}, {"WDT": 2})
    assert hung.problems == 1
    assert any("watchdog reset it 2 time(s)" in line for line in hung.lines())
