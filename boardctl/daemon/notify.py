"""Telling systemd how the daemon is doing (``sd_notify``), standard library only.

Under ``Type=notify`` systemd passes a datagram socket in ``$NOTIFY_SOCKET``
(a path, or an abstract name written with a leading ``@``) and, with
``WatchdogSec=``, the watchdog period in ``$WATCHDOG_USEC`` and the process
to watch in ``$WATCHDOG_PID``.  Each message is one datagram of
``KEY=VALUE`` lines (see sd_notify(3)).

Use::

    notifier = Notifier.from_env()
    ...                         # open the sensors, LEDs and display
    notifier.ready("waiting for a game")
    while running:
        step()
        notifier.watchdog()     # cheap on every turn: sends only when due
    notifier.stopping()

Started by hand (no ``$NOTIFY_SOCKET``) every call does nothing, so the
daemon needs no "am I under systemd?" branches.  A send that fails is logged
once and otherwise ignored: losing touch with systemd must never stop the
board (if the watchdog pings stop getting through, systemd restarts it).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

from ..rules.digits import NumberError, parse_whole

log = logging.getLogger(__name__)

# A send that cannot go through at once (systemd's queue full) gives up after
# this long rather than stalling the loop; the next ping tries again.
SEND_TIMEOUT = 1.0
# watchdog() sends at most once per this fraction of the watchdog period.  A
# quarter, not a half: a loop that itself pings at half the period (systemd's
# advice) then still sends every time, even with a little jitter.
WATCHDOG_MIN_GAP = 0.25
MAX_ENV_INT = 2**63 - 1  # systemd's microsecond counts and pids are 64-bit at most


class Notifier:
    """A client for systemd's notify socket; a no-op without one.

    :param address: ``$NOTIFY_SOCKET``: an absolute path, ``@name`` for an
        abstract socket, or None for a notifier that sends nothing.
    :param watchdog_usec: the watchdog period in microseconds, or None.
    :param watchdog_pid: the process the watchdog is for; None means "this one".
    :param clock: monotonic seconds, used only to space out watchdog pings.
    """

    def __init__(
        self,
        address: str | None,
        *,
        watchdog_usec: int | None = None,
        watchdog_pid: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._address = _socket_address(address) if address else None
        self._watchdog_usec = watchdog_usec
        self._watchdog_pid = watchdog_pid
        self._clock = clock
        self._last_ping: float | None = None
        self._warned = False

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> Notifier:
        """The notifier systemd's environment describes (``os.environ`` by default).

        An unusable ``$NOTIFY_SOCKET`` (not absolute, not ``@``) is logged and
        ignored, and so is the watchdog when ``$WATCHDOG_USEC`` or
        ``$WATCHDOG_PID`` is not a positive integer.
        """
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        if address is not None and not address.startswith(("/", "@")):
            log.warning("ignoring NOTIFY_SOCKET=%r: not an absolute path or @name", address)
            address = None
        usec = _positive_int(env, "WATCHDOG_USEC")
        pid = _positive_int(env, "WATCHDOG_PID")
        if pid is None and env.get("WATCHDOG_PID"):
            usec = None  # as sd_watchdog_enabled(3): a bad PID turns the watchdog off
        return cls(address, watchdog_usec=usec, watchdog_pid=pid, clock=clock)

    @property
    def enabled(self) -> bool:
        """Whether there is a socket to send to."""
        return self._address is not None

    def watchdog_interval(self) -> float | None:
        """The watchdog period in seconds, or None when the watchdog is off for
        this process: no ``$WATCHDOG_USEC``, ``$WATCHDOG_PID`` naming another
        process (a child that inherited the environment), or no socket.

        systemd restarts the service if no ``WATCHDOG=1`` arrives within this
        period; ping at half of it.
        """
        if self._address is None or self._watchdog_usec is None:
            return None
        if self._watchdog_pid is not None and self._watchdog_pid != os.getpid():
            return None
        return self._watchdog_usec / 1_000_000

    def ready(self, status: str = "") -> None:
        """Start-up is done (``READY=1``), with an optional status line."""
        self._send("READY=1", *_status_field(status))

    def status(self, text: str) -> None:
        """A one-line status for ``systemctl status`` (``STATUS=...``); "" clears it."""
        self._send(f"STATUS={_one_line(text)}")

    def stopping(self, status: str = "") -> None:
        """Shutdown has begun (``STOPPING=1``)."""
        self._send("STOPPING=1", *_status_field(status))

    def watchdog(self) -> None:
        """The main loop is alive (``WATCHDOG=1``).

        Safe to call on every turn of the loop: sends nothing when
        :meth:`watchdog_interval` is None, and otherwise at most once per
        ``WATCHDOG_MIN_GAP`` of the period (the first call always sends).
        """
        interval = self.watchdog_interval()
        if interval is None:
            return
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < interval * WATCHDOG_MIN_GAP:
            return
        self._last_ping = now
        self._send("WATCHDOG=1")

    def _send(self, *fields: str) -> None:
        if self._address is None or not fields:
            return
        data = "\n".join(fields).encode("utf-8", "replace")
        try:
            # Python's sockets are close-on-exec already: a child never inherits it.
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.settimeout(SEND_TIMEOUT)
                sock.sendto(data, self._address)
        except (OSError, ValueError) as exc:
            # Once at WARNING: a broken socket would otherwise log on every ping.
            level = logging.DEBUG if self._warned else logging.WARNING
            self._warned = True
            log.log(level, "cannot notify systemd (%s): %s", fields[0], exc)


def _socket_address(address: str) -> bytes:
    if address.startswith("@"):
        return b"\0" + os.fsencode(address[1:])
    return os.fsencode(address)


def _one_line(text: str) -> str:
    # A newline would start a new KEY=VALUE assignment.
    return " ".join(text.splitlines())


def _status_field(text: str) -> tuple[str, ...]:
    return (f"STATUS={_one_line(text)}",) if text else ()


def _positive_int(env: Mapping[str, str], name: str) -> int | None:
    value = env.get(name)
    if value is None or value == "":
        return None
    try:
        number = parse_whole(value, 1, MAX_ENV_INT)
    except NumberError:
        number = 0
    if number <= 0:
        log.warning("ignoring %s=%r: not a positive integer", name, value)
        return None
    return number
