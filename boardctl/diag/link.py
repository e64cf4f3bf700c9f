"""The serial link's health in a ``boardctl diag`` summary: lines each end
read and dropped, and why, so that a cable that damages lines is named even
when the link's checks kept every damaged line from becoming a move."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from ..hw.protocol.constants import DropReason
from ..hw.protocol.messages import Hello

# Drop reasons that mean a line was damaged on the way (not text outside a
# frame, which a device prints as it boots, nor a command the peer lacks).
DAMAGE = tuple(
    r.value
    for r in (DropReason.TRUNC, DropReason.LONG, DropReason.CHAR, DropReason.FORMAT, DropReason.CRC)
)
# Damaged lines each end may show before the link counts as a fault: a port
# opened in the middle of a line cuts that one line.
DAMAGE_ALLOWED = 1
# How long the device has to answer the request for its counters.
ANSWER_WAIT = 1.0
# The board's count of resets its watchdog made since power-on: the firmware
# stopped stepping (hung) and the chip started again.
WATCHDOG = "WDT"


class CountedLink(Protocol):
    """What is read of a serial board (:class:`~boardctl.hw.serial_link.SerialBoard`)."""

    @property
    def device(self) -> Hello | None: ...
    @property
    def counters(self) -> dict[str, int]: ...
    @property
    def device_counters(self) -> dict[str, int]: ...
    def request_device_counters(self) -> None: ...
    def read(self, now: float) -> object: ...
    def wait(self, timeout: float) -> None: ...


@dataclass(frozen=True)
class LinkCounts:
    """Both ends' counters at the end of a session; ``device`` is empty when
    the board did not answer the request for them."""

    host: Mapping[str, int]
    device: Mapping[str, int]
    firmware: str = ""

    @property
    def damaged(self) -> tuple[int, int]:
        """Damaged lines (this end's, the board's)."""
        return (
            sum(self.host.get(r, 0) for r in DAMAGE),
            sum(self.device.get(r, 0) for r in DAMAGE),
        )

    @property
    def problems(self) -> int:
        """One for a cable that damages lines, one for lines the board gave
        up resending, one for a board that did not report its counters, one
        for a board whose watchdog had to reset it."""
        here, there = self.damaged
        damage = max(here, there) > DAMAGE_ALLOWED
        gave_up = self.host.get("GIVEUP", 0) + self.device.get("GIVEUP", 0) > 0
        hung = self.device.get(WATCHDOG, 0) > 0
        return int(damage) + int(gave_up) + int(not self.device) + int(hung)

    def lines(self) -> list[str]:
        """The summary's lines, indented as the rest of it."""
        firmware = f" (firmware {self.firmware})" if self.firmware else ""
        out = [f"  serial link{firmware}:", f"    this end: {_end(self.host)}"]
        if self.device:
            scans = self.device.get("SCANS")
            extra = f"; {scans:,} scans of the sensors" if scans is not None else ""
            out.append(f"    the board: {_end(self.device)}{extra}")
        else:
            out.append("    the board: did not report its counters (old firmware, or no answer)")
        if max(self.damaged) > DAMAGE_ALLOWED:
            out.append(
                "    advice: lines are damaged on the way: check the USB cable "
                "(shorter, shielded, not beside the LED power wires) and its plugs"
            )
        if self.host.get("GIVEUP", 0) + self.device.get("GIVEUP", 0):
            out.append("    advice: lines were given up after their retries: the link stalls")
        resets = self.device.get(WATCHDOG, 0)
        if resets:
            out.append(
                f"    the board's firmware hung and its watchdog reset it {resets} time(s) "
                "since it was powered: note what it was doing, and report it with "
                "the firmware version"
            )
        return out


def _end(counters: Mapping[str, int]) -> str:
    """One end's lines read and dropped, by reason."""
    reasons = [(r.value, counters.get(r.value, 0)) for r in DropReason]
    dropped = sum(n for _, n in reasons)
    why = ", ".join(f"{name} {n}" for name, n in reasons if n)
    retries = counters.get("RETRY", 0)
    return (
        f"{counters.get('RX', 0):,} lines read, {dropped} dropped"
        + (f" ({why})" if why else "")
        + f", {retries} resent"
    )


def read_counts(
    link: CountedLink, clock: Callable[[], float] = time.monotonic, wait: float = ANSWER_WAIT
) -> LinkCounts:
    """Ask the board for its counters and wait up to ``wait`` seconds for
    them, servicing the link meanwhile."""
    before = link.device_counters
    link.request_device_counters()
    deadline = clock() + wait
    while clock() < deadline and link.device_counters == before:
        link.read(clock())
        link.wait(0.02)
    device = link.device_counters if link.device_counters != before else {}
    hello = link.device
    firmware = dict(hello.info).get("FW", "") if hello is not None else ""
    return LinkCounts(link.counters, device, firmware)
