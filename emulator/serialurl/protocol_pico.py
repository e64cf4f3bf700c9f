"""``pico://HOST:PORT``: the emulated Pico's USB port, a TCP socket that
behaves like a serial line.

pyserial's ``socket://`` leaves Nagle's algorithm on, so a short line written
right after another waits for the first one's TCP acknowledgement: some 13 ms
of the chip's time between the host's ACK and its LED frame, a delay no USB
serial port has.  This is ``socket://`` with TCP_NODELAY set.
"""

from __future__ import annotations

import socket
import urllib.parse

from serial.urlhandler import protocol_socket


class Serial(protocol_socket.Serial):
    def open(self) -> None:
        super().open()
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def from_url(self, url: str) -> tuple[str, int]:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "pico":
            raise protocol_socket.SerialException(f"expected pico://HOST:PORT, not {url!r}")
        return super().from_url(parts._replace(scheme="socket").geturl())
