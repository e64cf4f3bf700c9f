"""sd_notify: what systemd would receive on its notify socket.

Every test binds a real AF_UNIX datagram socket and reads what arrived without
waiting: a datagram is in the receiver's queue as soon as sendto() returns.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardctl.daemon.notify import Notifier


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def received(sock: socket.socket) -> list[str]:
    """Every datagram waiting on ``sock``, oldest first."""
    messages = []
    while True:
        try:
            messages.append(sock.recv(4096, socket.MSG_DONTWAIT).decode())
        except BlockingIOError:
            return messages


@pytest.fixture
def short_dir() -> Iterator[Path]:
    # pytest's tmp_path can be longer than a socket path may be (108 bytes).
    path = Path(tempfile.mkdtemp(prefix="bn-"))
    yield path
    shutil.rmtree(path)


@pytest.fixture
def systemd(short_dir: Path) -> Iterator[tuple[socket.socket, str]]:
    """systemd's end: a bound socket and the NOTIFY_SOCKET that names it."""
    path = short_dir / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        yield sock, str(path)


@pytest.fixture
def abstract_systemd() -> Iterator[tuple[socket.socket, str]]:
    if not sys.platform.startswith("linux"):
        pytest.skip("abstract sockets are Linux only")
    name = f"boardctl-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        yield sock, "@" + name


def watched(address: str, clock: FakeClock | None = None) -> Notifier:
    env = {"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    return Notifier.from_env(env, clock=clock or FakeClock())


# --------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda n: n.ready(), "READY=1"),
        (lambda n: n.ready("waiting for a game"), "READY=1\nSTATUS=waiting for a game"),
        (lambda n: n.status("engine thinking"), "STATUS=engine thinking"),
        (lambda n: n.status("line one\nline two"), "STATUS=line one line two"),
        (lambda n: n.status(""), "STATUS="),
        (lambda n: n.stopping(), "STOPPING=1"),
        (lambda n: n.stopping("saving the game"), "STOPPING=1\nSTATUS=saving the game"),
        (lambda n: n.watchdog(), "WATCHDOG=1"),
    ],
)
def test_each_call_is_one_datagram(systemd, call, expected):
    sock, address = systemd
    call(watched(address))
    assert received(sock) == [expected]


def test_an_abstract_socket_is_written_with_a_leading_at(abstract_systemd):
    sock, address = abstract_systemd
    notifier = watched(address)
    assert notifier.enabled
    notifier.ready()
    notifier.watchdog()
    assert received(sock) == ["READY=1", "WATCHDOG=1"]


def test_a_session_under_systemd(systemd):
    sock, address = systemd
    clock = FakeClock()
    notifier = watched(address, clock)
    notifier.status("opening the sensors")
    notifier.ready("white to move")
    for _ in range(3):
        notifier.watchdog()  # every turn of the loop, in the same instant
        clock.now += 0.01
    notifier.stopping()
    assert received(sock) == [
        "STATUS=opening the sensors",
        "READY=1\nSTATUS=white to move",
        "WATCHDOG=1",
        "STOPPING=1",
    ]


# --------------------------------------------------------------- the watchdog


def test_watchdog_pings_at_most_once_a_quarter_period(systemd):
    sock, address = systemd
    clock = FakeClock()
    notifier = watched(address, clock)  # a 30 s period: a ping every 7.5 s at most
    sent_at = []
    for tenth in range(0, 200):  # 20 s of a loop at 10 Hz
        clock.now = 100.0 + tenth / 10
        notifier.watchdog()
        if received(sock):
            sent_at.append(round(clock.now - 100.0, 1))
    assert sent_at == [0.0, 7.5, 15.0]


def test_a_loop_pinging_at_half_the_period_is_never_throttled(systemd):
    sock, address = systemd
    clock = FakeClock()
    notifier = watched(address, clock)
    for _ in range(4):
        notifier.watchdog()
        clock.now += 14.9  # a hair early, as a real loop may be
    assert received(sock) == ["WATCHDOG=1"] * 4


@pytest.mark.parametrize(
    ("env", "interval"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 30.0),
        ({"WATCHDOG_USEC": "500000"}, 0.5),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "<me>"}, 30.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "<other>"}, None),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "init"}, None),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": ""}, 30.0),
        ({}, None),
        ({"WATCHDOG_USEC": ""}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "30s"}, None),
        ({"WATCHDOG_USEC": "3.5"}, None),
        ({"WATCHDOG_USEC": "٣٠٠٠٠٠٠٠"}, None),  # int() takes other scripts' digits
        ({"WATCHDOG_USEC": "30_000_000"}, None),
        ({"WATCHDOG_USEC": "9" * 5000}, None),
    ],
)
def test_watchdog_interval_from_the_environment(env, interval):
    pids = {"<me>": str(os.getpid()), "<other>": str(os.getpid() + 1)}
    env = {key: pids.get(value, value) for key, value in env.items()}
    notifier = Notifier.from_env({"NOTIFY_SOCKET": "/run/systemd/notify", **env})
    assert notifier.watchdog_interval() == interval


def test_a_child_that_inherited_the_environment_sends_no_pings(systemd):
    sock, address = systemd
    notifier = Notifier.from_env(
        {
            "NOTIFY_SOCKET": address,
            "WATCHDOG_USEC": "30000000",
            "WATCHDOG_PID": str(os.getpid() + 1),
        }
    )
    notifier.watchdog()
    notifier.ready()  # the other messages still go out
    assert received(sock) == ["READY=1"]


def test_no_watchdog_configured_means_no_pings(systemd):
    sock, address = systemd
    notifier = Notifier.from_env({"NOTIFY_SOCKET": address})
    notifier.watchdog()
    assert notifier.watchdog_interval() is None
    assert received(sock) == []


# --------------------------------------------------------------- no systemd


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"NOTIFY_SOCKET": ""},
        {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "<me>"},
        {"NOTIFY_SOCKET": "relative/path"},
    ],
)
def test_without_a_socket_every_call_does_nothing(monkeypatch, env):
    env = {key: str(os.getpid()) if value == "<me>" else value for key, value in env.items()}
    notifier = Notifier.from_env(env)

    def no_socket(*args, **kwargs):
        raise AssertionError("a no-op notifier opened a socket")

    monkeypatch.setattr(socket, "socket", no_socket)
    assert not notifier.enabled
    assert notifier.watchdog_interval() is None
    notifier.ready("x")
    notifier.status("x")
    notifier.watchdog()
    notifier.stopping()


def test_from_env_reads_os_environ_by_default(monkeypatch, systemd):
    sock, address = systemd
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    Notifier.from_env().ready()
    assert received(sock) == ["READY=1"]
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not Notifier.from_env().enabled


# --------------------------------------------------------------- failures


@pytest.mark.parametrize("where", ["missing", "directory", "too-long", "closed"])
def test_a_failed_send_never_raises_and_warns_once(short_dir, caplog, where):
    address = {
        "missing": str(short_dir / "nobody-listens"),
        "directory": str(short_dir),
        "too-long": "/" + "x" * 200,
        "closed": str(short_dir / "closed"),
    }[where]
    if where == "closed":
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(address)  # bound once, then gone: ECONNREFUSED
    clock = FakeClock()
    notifier = watched(address, clock)
    with caplog.at_level(logging.DEBUG, logger="boardctl.daemon.notify"):
        notifier.ready()
        for _ in range(3):
            notifier.watchdog()
            clock.now += 60
        notifier.status("still here")
        notifier.stopping()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert "cannot notify systemd (READY=1)" in warnings[0].getMessage()
    assert len(caplog.records) == 6  # the rest at DEBUG


def test_a_send_works_again_once_systemd_is_back(short_dir, caplog):
    address = short_dir / "notify"
    notifier = watched(str(address))
    with caplog.at_level(logging.WARNING, logger="boardctl.daemon.notify"):
        notifier.ready()  # nobody listening yet
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
        notifier.status("recovered")
        assert received(sock) == ["STATUS=recovered"]
    assert len(caplog.records) == 1


def test_a_bad_notify_socket_is_reported(caplog):
    with caplog.at_level(logging.WARNING, logger="boardctl.daemon.notify"):
        notifier = Notifier.from_env({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not notifier.enabled
    assert "NOTIFY_SOCKET" in caplog.text
