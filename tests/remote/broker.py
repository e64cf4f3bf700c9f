"""A real MQTT broker for the tests: Debian's mosquitto (``make system-deps``
installs it) on a free port of the test's own, its files in the test's folder,
started, killed with SIGKILL and started again as a test needs.  Without
mosquitto the tests that need it skip, saying so in one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from boardctl.remote.lanbroker import LanBroker, find_mosquitto

SKIP = "mosquitto is not installed (make system-deps installs it)"
# MqttTransport(retry=): seconds before a client tries its broker again after a
# loss, doubling up to half a second.  What the tests ask is that it connects
# again and loses nothing, not how long it backs off (a board's 1 s first,
# doubling to a minute, finds a broker that was down for 3 s only some 4 s
# after it is back).  The restarted broker of tests/remote/test_transport.py
# keeps the board's own.
RETRY = (0.1, 0.5)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def need_mosquitto() -> None:
    if find_mosquitto() is None:
        pytest.skip(SKIP)


class Broker:
    """mosquitto on 127.0.0.1, its persistence on (so a restart keeps what
    it holds).  :meth:`kill` is a power cut; :meth:`start` brings it back on
    the same port and files."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        need_mosquitto()
        self.folder = folder
        self.port = port or free_port()
        self.process: LanBroker | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = LanBroker(self.port, self.folder, bind="127.0.0.1")

    def kill(self) -> None:
        if self.process is not None:
            self.process.process.kill()
            self.process.process.wait()
            self.process.close()
            self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
            self.process = None
