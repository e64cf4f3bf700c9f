"""A broker of the board's own, for a game between two boards on one network
with no broker configured (docs/remote.md, "The broker").

It is Debian's mosquitto, started by boardctl with a configuration of its
own (one listener, messages kept on disk so that a restart of the broker
loses nothing a board has not yet read, nothing larger than a signed entry
needs), and stopped with it.  The other board reaches it at this board's
address on the network; nothing outside the network is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from ..errors import BoardctlError
from .transport import MAX_PACKET

log = logging.getLogger("boardctl.remote")

START_TIMEOUT = 10.0  # seconds for mosquitto to listen
STOP_TIMEOUT = 5.0  # seconds for a broker left from before to go
PID_FILE = "mosquitto.pid"
PLACES = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


class LanBrokerError(BoardctlError, OSError):
    """The board's own broker cannot run; the message says why, for the page."""


def find_mosquitto() -> str | None:
    found = shutil.which("mosquitto")
    if found is not None:
        return found
    return next((p for p in PLACES if Path(p).is_file()), None)


def config_text(port: int, folder: Path, bind: str = "") -> str:
    listener = f"listener {port} {bind}".rstrip()
    # Started by root (a test, an installer), mosquitto would become the user
    # "mosquitto", who cannot write this board's folder: it stays who started it.
    user = pwd.getpwuid(os.getuid()).pw_name
    return (
        "# Written by boardctl for a game between two boards on one network.\n"
        f"user {user}\n"
        f"{listener}\n"
        "allow_anonymous true\n"
        f"max_packet_size {MAX_PACKET}\n"
        "persistence true\n"
        f"persistence_location {folder}/\n"
        "autosave_interval 1\n"
        "log_type error\n"
        "log_type warning\n"
        "log_dest stderr\n"
    )


class LanBroker:
    """mosquitto on ``port``, its files in ``folder``.  :raises LanBrokerError:"""

    def __init__(self, port: int, folder: Path, bind: str = "") -> None:
        program = find_mosquitto()
        if program is None:
            raise LanBrokerError(
                "a game between boards on one network needs mosquitto (apt install "
                "mosquitto), or a broker in [remote] broker"
            )
        self.port = port
        folder.mkdir(parents=True, exist_ok=True)
        conf = folder / "mosquitto.conf"
        conf.write_text(config_text(port, folder, bind))
        _stop_left_over(folder / PID_FILE, conf)
        self._log = (folder / "mosquitto.log").open("ab")
        self.process = subprocess.Popen(
            [program, "-c", str(conf)],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
        )
        (folder / PID_FILE).write_text(f"{self.process.pid}\n")
        if not self._listening(START_TIMEOUT):
            self.close()
            raise LanBrokerError(
                f"the board's own broker did not start on port {port} (see {folder}/mosquitto.log)"
            )
        log.info("remote: a broker of this board's own listens on port %d", port)

    def _listening(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return True
            time.sleep(0.05)
        return False

    @property
    def url(self) -> str:
        """Where this board itself reaches it."""
        return f"mqtt://127.0.0.1:{self.port}"

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def _stop_left_over(pid_file: Path, conf: Path) -> None:
    """Stop the broker a board killed outright (SIGKILL, a crash; not under
    systemd, which stops the whole service) left running on its port: one
    whose command line names this board's ``conf``, so that another program
    given that pid since is never touched."""
    try:
        pid = int(pid_file.read_text())
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError):
        return
    if os.fsencode(conf) not in command or pid == os.getpid():
        return
    log.warning("remote: stopping the broker left from this board's last run (pid %d)", pid)
    for sig, wait in ((signal.SIGTERM, STOP_TIMEOUT), (signal.SIGKILL, STOP_TIMEOUT)):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if not _running(pid):
                return
            time.sleep(0.02)


def _running(pid: int) -> bool:
    """Alive, and not a zombie (which holds no port): its parent is gone, and
    nothing may reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def lan_address() -> str:
    """This machine's address on its network (the one a packet to another
    host would leave from; nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed, never answered
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"
