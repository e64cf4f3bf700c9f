"""``make test-image``: the card image booted in qemu-system-aarch64, checked
under its own systemd through a serial console and a forwarded port.

The image is never changed: the guest boots a copy-on-write overlay of it
(qcow2, larger than the image, so the first boot's growing of the root is
seen), with the image's own kernel and initrd and its cmdline.txt, on qemu's
``virt`` machine (TCG: no Pi firmware runs there, and nothing here can run
arm64 natively).  The test's only additions are a virtio serial console and,
on the kernel command line, the PL011 console for the kernel's messages and
systemd's debug shell on the virtio console (a root shell, the way the checks
reach the guest; the image itself has no login).

The board's sensors: first the simulated ones of the first start's
configuration; then, to play a game through the service from outside, a
fake Pico on this machine (tests/hw/fake_mcu.py: the firmware's own scanner,
link and LED code on a pty), which the guest's boardctl reaches as
``[board] serial_port = "socket://10.0.2.2:PORT"`` (qemu's user network
forwards 10.0.2.2 to this machine).  Moves are made as a player makes them:
a piece lifted, then placed, on the fake's sensors.

Each check prints its name, its result and how long it took; the exit status
is 0 when every check passed.  Run as ``.venv/bin/python image/boot_test.py``
(it imports boardctl and the test fakes from the checkout).
"""

from __future__ import annotations

import argparse
import base64
import http.cookiejar
import json
import os
import re
import secrets
import select
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
import tty
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from boardctl.board.explain import occupancy  # noqa: E402
from boardctl.rules import Game, parse_uci  # noqa: E402
from tests.hw.fake_mcu import FakeMcu  # noqa: E402

# Where image/build.sh put the image (its IMAGE_DIR): outside the checkout, whose
# tools (setuptools' file walk for an editable install) would wander into the root.
BUILD = Path(os.environ.get("IMAGE_DIR", "/var/tmp/boardctl-image"))
IMAGE = BUILD / "boardctl-pi-arm64.img"
KERNEL = BUILD / "boot" / "vmlinuz"
INITRD = BUILD / "boot" / "initrd.img"
CMDLINE = BUILD / "boot" / "cmdline.txt"
WORK = BUILD / "test"
DISK_SIZE = "8G"  # larger than the image: the first boot grows the root to fill it
GUEST_PORT = 8080  # [web] port's default
CONFIG = "/etc/boardctl/config.toml"
UNIT = "boardctl.service"
# For the emulation only, written under /run (gone at each boot, so written again
# as soon as the shell answers, before the network is up and the service starts):
# TCG on a loaded 2-core machine ran the start past the unit's 120 s, again and
# again (5 timeouts in a row at a load of 27), and a busy loop could miss its 30 s
# watchdog; everything else in the unit is as on the card.
SLOW_EMULATION = "/run/systemd/system/boardctl.service.d/slow-emulation.conf"
SLOW_SETTINGS = "[Service]\\nTimeoutStartSec=900\\nWatchdogSec=300\\n"
# journalctl's match for what boardctl's own processes wrote (not systemd's lines
# about the unit).
OWN_LINES = f"_SYSTEMD_UNIT={UNIT}"
# A version of boardctl that never becomes ready, for the update checks.
BROKEN = "/opt/boardctl/versions/9.9.9-broken"
# Run by the guest's python3 with a folder (and the wheelhouse, by default the card's):
# writes there a copy of the card's boardctl wheel whose boardctl.daemon.notify fails
# at import (the daemon's start imports it, `boardctl --help` does not), and prints
# its path.
BREAK_WHEEL = """
import glob, os, sys, zipfile
wheels = sys.argv[2] if len(sys.argv) > 2 else "/opt/boardctl/wheels"
source = sorted(glob.glob(os.path.join(wheels, "boardctl-*.whl")))[-1]
os.makedirs(sys.argv[1], exist_ok=True)
target = os.path.join(sys.argv[1], os.path.basename(source))
with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
    for item in old.infolist():
        data = old.read(item)
        if item.filename == "boardctl/daemon/notify.py":
            data = b"raise RuntimeError('broken on purpose by make test-image')\\n"
        new.writestr(item, data)
print(target)
"""
# qemu's user network: the guest sees this machine at 10.0.2.2.
HOST_FROM_GUEST = "10.0.2.2"
# Seconds a step may take under TCG on a busy 2-core machine: generous, since a
# wait ends as soon as its condition holds (at a load of 27, systemd took more
# than 300 s to finish starting the system; 131 s at a load of 5).
BOOT_WAIT = 900
COMMAND_WAIT = 600
SERVICE_WAIT = 900
MOVE_WAIT = 300
# What the test adds to the image's own kernel command line: the kernel's and
# systemd's messages on qemu virt's UART; a root shell for the checks on a virtio
# console (hvc0), with no login prompt competing for either; and 15 minutes for a
# device to appear (systemd's 90 s ran out under TCG on a loaded 2-core machine,
# for the card's FAT partition).  The shell is not on the UART: under load, qemu
# 7.2's PL011 stopped taking input for good in 2 runs of 4 (no byte read from
# its stdin after boot, the shell's prompt shown).
TEST_CMDLINE = (
    "console=ttyAMA0,115200 systemd.debug_shell=hvc0 "
    "systemd.mask=serial-getty@ttyAMA0.service systemd.mask=serial-getty@hvc0.service "
    "systemd.show_status=0 loglevel=4 systemd.default_device_timeout_sec=900"
)


# A terminal's control sequences (bash's bracketed paste, cursor queries): not output.
ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\[!p|[()][0-9A-B]|\][^\x07\x1b]*(\x07|\x1b\\))")


class CheckFailed(Exception):
    pass


# ------------------------------------------------------------------ the console
class Console:
    """The guest's root shell on qemu's virtio console (a Unix socket here), kept
    in a buffer and a log; qemu's serial port (its stdout: the kernel's and
    systemd's messages) goes to a log of its own."""

    def __init__(self, process: subprocess.Popen[bytes], shell: Path, work: Path) -> None:
        self.process = process
        self.buffer = bytearray()
        self.lock = threading.Condition()
        self.log = open(work / "shell.log", "ab")  # noqa: SIM115  # closed in close()
        self.serial_log = open(work / "console.log", "ab")  # noqa: SIM115  # likewise
        self.socket = self._connect(shell)
        self.reader = threading.Thread(target=self._read, name="shell", daemon=True)
        self.reader.start()
        self.serial = threading.Thread(target=self._read_serial, name="serial", daemon=True)
        self.serial.start()

    def _connect(self, path: Path) -> socket.socket:
        deadline = time.monotonic() + 60
        while True:
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                client.connect(str(path))
                return client
            except OSError:
                client.close()
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise CheckFailed(f"no virtio console socket at {path}") from None
                time.sleep(0.2)

    def _read(self) -> None:
        while True:
            try:
                data = self.socket.recv(65536)
            except OSError:
                data = b""
            if not data:
                with self.lock:
                    self.lock.notify_all()
                return
            self.log.write(data)
            self.log.flush()
            with self.lock:
                self.buffer += data
                self.lock.notify_all()

    def _read_serial(self) -> None:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                return
            self.serial_log.write(data)
            self.serial_log.flush()

    def send(self, text: str) -> None:
        self.socket.sendall(text.encode())

    def wait_for(self, pattern: bytes, start: int, timeout: float) -> re.Match[bytes]:
        """The first match of ``pattern`` in what came after offset ``start``."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        with self.lock:
            while True:
                found = regex.search(self.buffer, start)
                if found:
                    return found
                if self.process.poll() is not None:
                    raise CheckFailed(f"qemu exited ({self.process.returncode})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CheckFailed(f"no {pattern.decode()!r} on the console in {timeout:.0f} s")
                self.lock.wait(min(left, 1.0))

    @property
    def end(self) -> int:
        with self.lock:
            return len(self.buffer)

    def shell(self, command: str, timeout: float = COMMAND_WAIT) -> tuple[int, str]:
        """``command`` in the guest's root shell: its exit status and output."""
        token = secrets.token_hex(4)
        start = self.end
        # The marker's status is printed by the shell, so its echo (with "$?"
        # still unexpanded) can never match.
        self.send(f'{command} 2>&1; echo "@@{token}:$?@@"\n')
        found = self.wait_for(rb"@@" + token.encode() + rb":(\d+)@@", start, timeout)
        with self.lock:
            output = self.buffer[start : found.start()].decode("utf-8", "replace")
        return int(found.group(1)), ESCAPES.sub("", output.replace("\r", "")).strip()

    def check(self, command: str, timeout: float = COMMAND_WAIT) -> str:
        status, output = self.shell(command, timeout)
        if status != 0:
            raise CheckFailed(f"`{command}` exited {status}: {output[-600:]}")
        return output

    def close(self) -> None:
        self.socket.close()
        self.log.close()
        self.serial_log.close()


# ------------------------------------------------------------------ the fake Pico
class Bridge:
    """The fake Pico's pty as a TCP port on this machine, for the guest's
    ``socket://`` serial port; a new connection (the service started again)
    replaces the old one, as a replugged USB port would."""

    def __init__(self, fake: FakeMcu) -> None:
        self.fake = fake
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.fd = os.open(fake.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        self.connections = 0
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="bridge", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        client: socket.socket | None = None
        while not self.stopping:
            sources: list[Any] = [self.server, self.fd] + ([client] if client else [])
            ready, _, _ = select.select(sources, [], [], 0.2)
            if self.server in ready:
                if client is not None:
                    client.close()
                client, _ = self.server.accept()
                client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.connections += 1
            if self.fd in ready:
                try:
                    data = os.read(self.fd, 4096)
                except BlockingIOError:
                    data = b""
                if data and client is not None:
                    try:
                        client.sendall(data)
                    except OSError:
                        client.close()
                        client = None
            if client is not None and client in ready:
                try:
                    data = client.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    client.close()
                    client = None
                else:
                    os.write(self.fd, data)
        if client is not None:
            client.close()

    def close(self) -> None:
        self.stopping = True
        self.thread.join(2)
        self.server.close()
        os.close(self.fd)


# ------------------------------------------------------------------ the page
class Page:
    """The board's web page through qemu's forwarded port, with a cookie jar."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str, timeout: float = 30) -> tuple[int, bytes]:
        try:
            with self.opener.open(self.base + path, timeout=timeout) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def json(self, path: str) -> Any:
        status, body = self.get(path)
        if status != 200:
            raise CheckFailed(f"GET {path}: {status} {body[:200]!r}")
        return json.loads(body)

    def post(self, path: str, data: Any) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(data).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            body = exc.read()
            try:
                return exc.code, json.loads(body)
            except ValueError:
                return exc.code, body.decode("utf-8", "replace")

    def state(self) -> Any:
        return self.json("/api/state")


# ------------------------------------------------------------------ the run
class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.results: list[tuple[str, bool, float, str]] = []
        self.started = time.monotonic()
        self.host_port = free_port()
        self.qemu: subprocess.Popen[bytes] | None = None
        self.console: Console | None = None
        self.page = Page(self.host_port)
        self.fake: FakeMcu | None = None
        self.bridge: Bridge | None = None
        self.pin = ""
        self.game = Game()
        self.game_id = 0

    # ---------------------------------------------------------- reporting
    @contextmanager
    def check(self, name: str, ends_run: bool = True) -> Iterator[list[str]]:
        """One check: prints its name, then ok or FAILED with the reason and
        its wall time.  A failed check ends the run (later ones build on it),
        unless ``ends_run`` is false: then the run goes on, and fails at the end."""
        print(f"check: {name} ...", flush=True)
        began = time.monotonic()
        notes: list[str] = []
        try:
            yield notes
        except (CheckFailed, OSError, ValueError, KeyError) as exc:
            took = time.monotonic() - began
            self.results.append((name, False, took, str(exc)))
            print(f"  FAILED ({took:.0f} s): {exc}", flush=True)
            if ends_run:
                raise
            return
        took = time.monotonic() - began
        note = "; ".join(notes)
        self.results.append((name, True, took, note))
        print(f"  ok ({took:.0f} s){': ' + note if note else ''}", flush=True)

    @property
    def sh(self) -> Console:
        assert self.console is not None
        return self.console

    # ---------------------------------------------------------- qemu
    def start_qemu(self) -> None:
        WORK.mkdir(parents=True, exist_ok=True)
        disk = WORK / "disk.qcow2"
        disk.unlink(missing_ok=True)
        subprocess.run(
            ["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(IMAGE),
             str(disk), DISK_SIZE],
            check=True,
        )  # fmt: skip
        card = CMDLINE.read_text().split() if CMDLINE.exists() else []
        # The card's own arguments but its consoles (the Pi's UART is not virt's).
        own = [arg for arg in card if not arg.startswith("console=")]
        if not any(arg.startswith("root=") for arg in own):
            own += ["root=LABEL=RASPIROOT", "rw", "rootwait"]
        cmdline = " ".join([*own, *TEST_CMDLINE.split()])
        shell = WORK / "shell.sock"
        for old in ("console.log", "shell.log", "shell.sock"):
            (WORK / old).unlink(missing_ok=True)
        command = [
            "qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a72",
            "-smp", str(self.args.cpus), "-m", str(self.args.memory),
            "-kernel", str(KERNEL), "-initrd", str(INITRD), "-append", cmdline,
            "-drive", f"if=none,id=card,file={disk},format=qcow2",
            "-device", "virtio-blk-pci,drive=card",
            "-netdev", f"user,id=lan,hostfwd=tcp:127.0.0.1:{self.host_port}-:{GUEST_PORT}",
            "-device", "virtio-net-pci,netdev=lan,romfile=",  # no option ROM: no firmware boots it
            "-device", "virtio-gpu-pci", "-device", "virtio-rng-pci",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=shell,path={shell},server=on,wait=off",
            "-device", "virtconsole,chardev=shell",
            "-display", "none", "-monitor", "none", "-serial", "stdio",
            "-qmp", f"unix:{WORK / 'qmp.sock'},server=on,wait=off",
        ]  # fmt: skip
        print(f"qemu: {shlex.join(command)}", flush=True)
        self.qemu = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self.console = Console(self.qemu, shell, WORK)

    def wait_for_shell(self, not_boot: str = "") -> str:
        """The root shell answering after a boot; returns the boot's id (a
        boot id other than ``not_boot``: the shell of the boot before may
        still answer while it shuts down)."""
        deadline = time.monotonic() + BOOT_WAIT
        while time.monotonic() < deadline:
            start = self.sh.end
            # No echo, no prompt, no pager and no colours: only what commands print.
            self.sh.send(
                "stty -echo 2>/dev/null; PS1=''; PS2=''; "
                "bind 'set enable-bracketed-paste off' 2>/dev/null; "
                "export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0; echo @@up:$((6*7))@@\n"
            )
            try:
                self.sh.wait_for(rb"@@up:42@@", start, 10)
            except CheckFailed:
                if self.qemu is not None and self.qemu.poll() is not None:
                    raise
                continue
            boot = self.sh.check("cat /proc/sys/kernel/random/boot_id", 60)
            if boot != not_boot:
                self.sh.check(
                    f"mkdir -p {os.path.dirname(SLOW_EMULATION)} && "
                    f"printf '{SLOW_SETTINGS}' > {SLOW_EMULATION} && systemctl daemon-reload"
                )
                return boot
            time.sleep(5)
        raise CheckFailed(f"no shell on the console in {BOOT_WAIT} s")

    def screendump(self, path: Path) -> None:
        """The guest's screen (virtio-gpu) as a PPM, through QMP."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as qmp:
            qmp.connect(str(WORK / "qmp.sock"))
            reader = qmp.makefile("rwb")
            reader.readline()  # the greeting
            for command in (
                {"execute": "qmp_capabilities"},
                {"execute": "screendump", "arguments": {"filename": str(path)}},
            ):
                reader.write(json.dumps(command).encode() + b"\n")
                reader.flush()
                while True:
                    answer = json.loads(reader.readline())
                    if "return" in answer or "error" in answer:
                        break
                if "error" in answer:
                    raise CheckFailed(f"QMP {command['execute']}: {answer['error']}")

    def stop_qemu(self) -> None:
        if self.qemu is not None and self.qemu.poll() is None:
            self.qemu.terminate()
            try:
                self.qemu.wait(30)
            except subprocess.TimeoutExpired:
                self.qemu.kill()
        if self.console is not None:
            self.console.close()

    # ---------------------------------------------------------- the service
    def unit(self, *props: str) -> dict[str, str]:
        output = self.sh.check(f"systemctl show {UNIT} " + " ".join(f"-p {p}" for p in props))
        return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)

    def wait_active(self, what: str, timeout: float = SERVICE_WAIT) -> dict[str, str]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.unit("ActiveState", "SubState", "MainPID", "NRestarts", "Result")
            if state["ActiveState"] == "active" and state["SubState"] == "running":
                return state
            if time.monotonic() > deadline:
                raise CheckFailed(f"{what}: {UNIT} is {state}")
            time.sleep(3)

    def wait_page(self, timeout: float = SERVICE_WAIT) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.page.state()
            except (OSError, CheckFailed, ValueError):
                if time.monotonic() > deadline:
                    raise CheckFailed(f"the page did not answer in {timeout:.0f} s") from None
                time.sleep(2)

    def journal(self, since: str, *filters: str) -> str:
        return self.sh.check(f"journalctl --no-pager -o cat --since @{since} " + " ".join(filters))

    def now(self) -> str:
        return self.sh.check("date +%s")

    def login(self) -> None:
        status, answer = self.page.post("/api/login", {"pin": self.pin})
        if status != 200:
            raise CheckFailed(f"login with the PIN: {status} {answer}")

    # ---------------------------------------------------------- moves
    def play(self, uci: str) -> None:
        """Lift the piece, then place it, on the fake Pico's sensors; wait
        until the page shows the move."""
        assert self.fake is not None
        move = parse_uci(self.game.position, uci)
        self.fake.occupancy &= ~(1 << move.from_square)
        time.sleep(1.0)
        self.fake.occupancy = (self.fake.occupancy & ~(1 << move.to_square)) | (1 << move.to_square)
        self.game.push(move)
        want = [self.game_uci(i) for i in range(len(self.game.moves))]
        deadline = time.monotonic() + MOVE_WAIT
        while True:
            state = self.page.state()
            if list(state["moves"]) == want:
                return
            if time.monotonic() > deadline:
                raise CheckFailed(f"after {uci} the page shows {state['moves']}, not {want}")
            time.sleep(1)

    def game_uci(self, index: int) -> str:
        pos = Game(self.game.variant).position
        for move in self.game.moves[:index]:
            pos.push(move)
        return pos.uci(self.game.moves[index])

    def moves(self) -> list[str]:
        return [self.game_uci(i) for i in range(len(self.game.moves))]

    # ---------------------------------------------------------- the checks
    def run(self) -> None:
        for path in (IMAGE, KERNEL, INITRD):
            if not path.exists():
                raise SystemExit(f"boot-test: {path} is missing: build it with sudo make image")
        self.start_qemu()
        with self.check("boot: the root shell answers on the virtio console") as notes:
            boot = self.wait_for_shell()
            notes.append(f"{time.monotonic() - self.started:.0f} s from qemu's start")
        with self.check("boot: systemd finished starting the system") as notes:
            # "running", or "degraded" with a failed unit (listed below); exit 1 then.
            _, state = self.sh.shell("systemctl is-system-running --wait", SERVICE_WAIT)
            notes.append(state.splitlines()[-1] if state else "?")
            failed = self.sh.check("systemctl --failed --no-legend --plain | cut -d' ' -f1")
            if failed:
                raise CheckFailed(f"failed units: {failed}")
            notes.append(self.sh.check("cat /etc/boardctl-image"))
            notes.append(self.sh.check("uname -rm"))
        with self.check("first boot: the root grew to fill the disk") as notes:
            size = int(self.sh.check("findmnt -bno SIZE /"))
            notes.append(f"root file system {size / 2**30:.1f} GiB on an {DISK_SIZE} disk")
            if size < 6 * 2**30:
                raise CheckFailed(f"the root is {size} bytes: grow-root did not grow it")
        self.first_start()
        self.card_access()
        self.page_checks()
        self.page_restart()
        self.serial_game(boot)
        self.start_limit()
        self.update_path()
        self.finish()

    def first_start(self) -> None:
        with self.check("first start: boardctl.service is ready (Type=notify) on its own") as notes:
            state = self.wait_active("the first start")
            props = self.unit("Type", "StatusText", "NRestarts", "ExecMainStartTimestamp")
            if props["Type"] != "notify" or not props["StatusText"].startswith("playing"):
                raise CheckFailed(f"{props}")
            notes.append(f"Type=notify, status '{props['StatusText']}', pid {state['MainPID']}")
            ready = self.sh.check(
                f"journalctl -b -u {UNIT} -o short-monotonic --no-pager | "
                "grep -m1 -E 'Started boardctl' || true"
            )
            notes.append(f"ready at {ready.split(']')[0].strip('[ ')} s after boot")
        with self.check("first start: the configuration was written with a new PIN") as notes:
            mode = self.sh.check(f"stat -c '%a %U:%G' {CONFIG}")
            text = self.sh.check(f"cat {CONFIG}")
            found = re.search(r'^pin = "(\d{6})"', text, re.M)
            if not found or "enabled = true" not in text:
                raise CheckFailed(f"{CONFIG}: {text}")
            self.pin = found.group(1)
            self.sh.check(f"journalctl -b -u {UNIT} | grep -q 'first start: wrote {CONFIG}'")
            notes.append(f"{CONFIG} {mode}, PIN of {len(self.pin)} digits")
        # Nothing later reads the screen: a blank one is reported, and the run goes on.
        with self.check(
            "first start: the screen shows the page's address and PIN", ends_run=False
        ) as notes:
            log = self.sh.check(f"journalctl -b -u {UNIT} -o cat --no-pager")
            if "no display" in log:
                raise CheckFailed(f"no display: {log}")
            address = re.search(r"web page on (http://[^ ]+)", log)
            if not address or "127.0.0.1" in address.group(1):
                raise CheckFailed(f"the page listens on {address and address.group(1)}")
            screen = re.search(r"screen: (/dev/fb\d+, \d+x\d+ at \d+ bits a pixel)", log)
            if not screen:
                raise CheckFailed(f"the frame buffer was not opened: {log}")
            notes.append(f"{screen.group(1)}; page on {address.group(1)}")
            ppm = WORK / "screen.ppm"
            time.sleep(5)
            self.screendump(ppm)
            png = WORK / "first-start-screen.png"
            colours = save_png(ppm, png)
            if colours < 4:
                # What the display's driver shows: which framebuffer each plane scans out.
                planes = self.sh.shell(
                    "grep -E '^(plane|crtc|connector)|fb=|size=|crtc-pos' "
                    "/sys/kernel/debug/dri/*/state | head -n 40"
                )[1]
                raise CheckFailed(f"the screen is blank ({colours} colours): {png}\n{planes}")
            notes.append(f"{png}, {colours} colours")

    def card_access(self) -> None:
        with self.check("card: no password, until root-password.txt sets one") as notes:
            shadow = self.sh.check("getent shadow root | cut -d: -f2")
            if shadow not in ("*", "!", "!*"):
                raise CheckFailed(f"root has a password on a fresh card: {shadow[:3]}...")
            self.sh.check("echo 'a club secret' > /boot/firmware/root-password.txt")
            self.sh.check("systemctl start root-password.service")
            shadow = self.sh.check("getent shadow root | cut -d: -f2")
            if (
                not shadow.startswith("$")
                or self.sh.shell("test -e /boot/firmware/root-password.txt")[0] == 0
            ):
                raise CheckFailed("the password was not set, or the file stayed")
            notes.append(f"root's password set ({shadow.split('$')[1]} hash), the file removed")

    def page_checks(self) -> None:
        with self.check("page: answers through the forwarded port") as notes:
            try:
                self.wait_page()
            except CheckFailed as exc:
                listening = self.sh.shell("ss -ltn; ip -brief address")[1]
                raise CheckFailed(f"{exc}; in the guest:\n{listening}") from None
            status, body = self.page.get("/")
            if status != 200 or b"<html" not in body.lower():
                raise CheckFailed(f"GET /: {status}")
            session = self.page.json("/api/session")
            if session.get("actions") is not True:
                raise CheckFailed(f"/api/session: {session}")
            state = self.page.state()
            notes.append(f"GET / 200, game {state['game_id']}, {state['variant']}")
        with self.check("page: the PIN opens the settings; two players saved") as notes:
            self.login()
            status, answer = self.page.post("/api/settings", {"game.mode": "two-players"})
            if status != 200:
                raise CheckFailed(f"POST /api/settings: {status} {answer}")
            notes.append(f"saved {answer['saved']}")
            self.sh.check(f"grep -q 'mode = \"two-players\"' {CONFIG}")

    def page_restart(self) -> None:
        """The page's restart exits 75 and systemd starts the service again;
        restarts by the page are spaced so that they never reach the start limit."""
        assert self.fake is None
        self.fake = FakeMcu(WORK, occupancy(self.game.position))
        self.bridge = Bridge(self.fake)
        port = f"socket://{HOST_FROM_GUEST}:{self.bridge.port}"
        self.sh.check(
            f'printf \'\\n[board]\\nsensors = "serial"\\nserial_port = "{port}"\\n\' >> {CONFIG}'
        )
        with self.check("page restart: refused in the program's first minute") as notes:
            since = self.now()
            before = self.unit("MainPID", "NRestarts")
            status, answer = self.page.post("/api/action", {"kind": "restart"})
            waited = 0
            if status == 409:
                notes.append(f"409: {answer['error']}")
                wait = re.search(r"in (\d+) s", answer["error"])
                waited = int(wait.group(1)) + 1 if wait else 60
            elif status != 202:
                raise CheckFailed(f"restart: {status} {answer}")
            else:
                notes.append("the first minute had passed already: accepted at once")
        with self.check(
            "page restart: exit 75, started again by systemd (Restart=on-failure)"
        ) as notes:
            if waited:
                time.sleep(waited)
                status, answer = self.page.post("/api/action", {"kind": "restart"})
                if status != 202:
                    raise CheckFailed(f"restart after {waited} s: {status} {answer}")
            deadline = time.monotonic() + SERVICE_WAIT
            while True:
                after = self.wait_active("after the page's restart")
                if after["MainPID"] != before["MainPID"]:
                    break
                if time.monotonic() > deadline:
                    raise CheckFailed("the main process did not change")
                time.sleep(3)
            log = self.journal(since, "-u", UNIT)
            if "status=75" not in log:
                raise CheckFailed(f"no exit status 75 in the journal: {log[-800:]}")
            restarts = int(after["NRestarts"]) - int(before["NRestarts"])
            if restarts != 1:
                raise CheckFailed(f"NRestarts went up by {restarts}")
            notes.append(
                f"status=75/TEMPFAIL, NRestarts +1, pid {before['MainPID']} -> {after['MainPID']}"
            )
            if "sensors serial" not in log:
                raise CheckFailed("the new start did not take the serial sensors")
            notes.append("the new start reads the fake Pico")

    def serial_game(self, boot: str) -> None:
        assert self.fake is not None and self.bridge is not None
        with self.check("game: moves made on the board's sensors reach the page") as notes:
            deadline = time.monotonic() + SERVICE_WAIT
            while not self.fake.led_frames:
                if time.monotonic() > deadline:
                    raise CheckFailed("the service never lit the fake Pico's LEDs")
                time.sleep(1)
            self.login()
            for uci in ("e2e4", "e7e5"):
                self.play(uci)
            state = self.page.state()
            self.game_id = state["game_id"]
            notes.append(f"game {self.game_id}: {' '.join(state['sans'])}")
        with self.check("resume: systemctl restart keeps the game") as notes:
            pid = self.unit("MainPID")["MainPID"]
            self.sh.check(f"systemctl restart {UNIT}", SERVICE_WAIT)
            state = self.wait_active("after systemctl restart")
            page = self.wait_page()
            # The page may answer before the stored game is back: wait for it.
            deadline = time.monotonic() + MOVE_WAIT
            while page["moves"] != self.moves() and time.monotonic() < deadline:
                time.sleep(2)
                page = self.page.state()
            if state["MainPID"] == pid or page["moves"] != self.moves():
                raise CheckFailed(f"after restart: pid {state['MainPID']}, moves {page['moves']}")
            notes.append(f"game {page['game_id']}, {len(page['moves'])} moves")
            notes.append(f"pid {pid} -> {state['MainPID']}")
            self.play("d2d4")
        with self.check("resume: a reboot keeps the game") as notes:
            before = self.bridge.connections
            self.sh.send("systemctl reboot\n")
            rebooted = time.monotonic()
            self.wait_for_shell(not_boot=boot)
            self.wait_active("after the reboot")
            page = self.wait_page()
            if page["game_id"] != self.game_id or page["moves"] != self.moves():
                raise CheckFailed(f"after the reboot: game {page['game_id']}, {page['moves']}")
            notes.append(f"back in {time.monotonic() - rebooted:.0f} s")
            notes.append(f"game {page['game_id']}, {len(page['moves'])} moves")
            notes.append(f"{self.bridge.connections - before} new serial connection(s)")
            self.play("d7d5")
        with self.check("game: ended from the page and stored") as notes:
            self.login()
            status, answer = self.page.post("/api/action", {"kind": "resign"})
            if status != 202:
                raise CheckFailed(f"resign: {status} {answer}")
            deadline = time.monotonic() + MOVE_WAIT
            while self.page.state()["result"] == "*":
                if time.monotonic() > deadline:
                    raise CheckFailed("the game did not end")
                time.sleep(1)
            status, pgn = self.page.get(f"/games/{self.game_id}.pgn")
            text = pgn.decode()
            if status != 200 or "1. e4 e5 2. d4 d5" not in text or '[Result "0-1"]' not in text:
                raise CheckFailed(f"/games/{self.game_id}.pgn: {status} {text[:600]}")
            listed = self.page.get("/games")[1].decode()
            notes.append(f"/games/{self.game_id}.pgn: 1. e4 e5 2. d4 d5 0-1")
            if f"/games/{self.game_id}" not in listed:
                raise CheckFailed("the game is not on /games")
            stored = self.sh.check("ls -l /var/lib/boardctl/games.sqlite3")
            notes.append(stored.split()[0] + " " + stored.split()[2] + " games.sqlite3")
        with self.check("journal: no error from boardctl in either boot") as notes:
            # What boardctl's own processes wrote; systemd's lines about the unit apart.
            errors = self.sh.check(f"journalctl --no-pager -q -o cat -p err {OWN_LINES}")
            if errors:
                raise CheckFailed(errors)
            boots = self.sh.check("journalctl --list-boots --no-pager -q | wc -l")
            about = self.sh.check(f"journalctl --no-pager -q -o cat -p err -u {UNIT}")
            others = self.sh.check("journalctl -b --no-pager -q -o cat -p err | tail -n 5")
            notes.append(f"{boots} boots in the journal")
            notes.append(f"systemd's errors about {UNIT}: {about or 'none'}")
            notes.append(f"other errors this boot: {others or 'none'}")

    def start_limit(self) -> None:
        """A start that always fails: systemd starts it StartLimitBurst times, refuses
        the next start ("Start request repeated too quickly") and leaves it failed.

        ``Result`` then still names the last start's failure (exit-code): systemd
        keeps a unit's first failure reason, and sets start-limit-hit only where
        the refused start followed a success (src/core/service.c,
        service_enter_dead; systemd issue 32203).  The refusal itself is what the
        journal shows."""
        with self.check("start limit: a failing start is retried, then given up") as notes:
            limits = self.unit("StartLimitBurst", "StartLimitIntervalUSec", "RestartUSec")
            burst = int(limits["StartLimitBurst"])
            self.sh.check(f"cp {CONFIG} /root/config.good")
            self.sh.check(f"printf '\\n[engine]\\nskill = 99\\n' >> {CONFIG}")
            # The starts of the checks before (the reboot's, systemctl restart's) are
            # forgotten: the limit counts this check's starts only.
            self.sh.check(f"systemctl reset-failed {UNIT}")
            since = self.now()
            self.sh.shell(f"systemctl restart {UNIT}", SERVICE_WAIT)
            deadline = time.monotonic() + 2 * SERVICE_WAIT
            while True:
                state = self.unit("ActiveState", "SubState", "Result", "NRestarts")
                # "failed" for good; between two starts it is failed-before-auto-restart,
                # then auto-restart.
                if state["SubState"] == "failed":
                    break
                if time.monotonic() > deadline:
                    log = self.journal(since, "-u", UNIT, "-o", "short-monotonic")
                    raise CheckFailed(f"{UNIT}: {state}; the starts: {log[-1500:]}")
                time.sleep(5)
            log = self.journal(since, "-u", UNIT)
            starts = log.count("Starting boardctl")
            if "Start request repeated too quickly" not in log or starts != burst:
                raise CheckFailed(
                    f"{starts} starts (StartLimitBurst={burst}), no refusal by the start "
                    f"limit: {state}; {log[-1500:]}"
                )
            # Nothing starts it again: wait past RestartSec, twice over.
            time.sleep(2 * seconds(limits["RestartUSec"]) + 10)
            later = self.unit("ActiveState", "SubState", "NRestarts")
            again = self.journal(since, "-u", UNIT).count("Starting boardctl")
            if later["ActiveState"] != "failed" or again != starts:
                raise CheckFailed(f"it started again: {later}, {again} starts")
            notes.append(
                f"{starts} starts (StartLimitBurst={burst} in "
                f"{limits['StartLimitIntervalUSec']}), NRestarts={state['NRestarts']}, "
                f"then 'Start request repeated too quickly'; failed "
                f"(Result={state['Result']}) and not started again"
            )
            errors = self.journal(since, "-p", "err", OWN_LINES)
            if "boardctl run: " not in errors:
                raise CheckFailed(f"journalctl -p err does not show boardctl's error: {errors}")
            notes.append("journalctl -p err shows: " + errors.splitlines()[0][:100])
            rollback = self.journal(since, "-u", "boardctl-rollback.service")
            notes.append(
                f"OnFailure ran boardctl-rollback {rollback.count('no update is on trial')} "
                "time(s): nothing on trial, nothing changed"
            )
        with self.check("start limit: reset-failed and a good configuration start it again"):
            self.sh.check(f"cp /root/config.good {CONFIG}")
            self.sh.check(f"systemctl reset-failed {UNIT} && systemctl start {UNIT}", SERVICE_WAIT)
            self.wait_active("after reset-failed")

    def update_path(self) -> None:
        """boardctl-update on the card, the installs first (pip under TCG takes the
        longest of the whole run): a new version from the card's own wheels becomes
        ready and stays; a new version that does not become ready is gone back from
        by the updater; and one whose updater was killed while it started (as by a
        power cut) is gone back from by the unit's OnFailure=."""
        if self.args.skip_update:
            return
        if not self.args.skip_install:
            self.update_install()
            self.update_install_broken()
        self.update_interrupted()

    def update_install(self) -> None:
        with self.check("update: a new version installed beside the old, switched to") as notes:
            old = self.sh.check("readlink /opt/boardctl/venv")
            output = self.sh.check(
                "boardctl-update install --offline /opt/boardctl/wheels/boardctl-*.whl",
                2 * COMMAND_WAIT,
            )
            new = self.sh.check("readlink /opt/boardctl/venv")
            previous = self.sh.check("readlink /opt/boardctl/previous")
            if new == old or previous != old:
                raise CheckFailed(f"venv -> {new}, previous -> {previous}: {output[-500:]}")
            self.wait_active("after the update")
            self.wait_page()
            # The game ended before is in the database the new version reads (the
            # page's current game is a later one by now: the board starts a new
            # game after one ends).
            status, pgn = self.page.get(f"/games/{self.game_id}.pgn")
            if status != 200 or "1. e4 e5 2. d4 d5" not in pgn.decode():
                raise CheckFailed(f"the stored game is gone: /games/{self.game_id}.pgn {status}")
            notes.append(f"{old} -> {new}; {output.splitlines()[-1]}")

    def update_install_broken(self) -> None:
        with self.check(
            "update: a new version that does not become ready is gone back from"
        ) as notes:
            # The card's wheel with one module that fails at import: `boardctl --help`
            # (which install checks) still runs, `boardctl run` never says READY=1.
            script = base64.b64encode(BREAK_WHEEL.encode()).decode()
            wheel = self.sh.check(f"echo {script} | base64 -d | python3 - /root/broken")
            good = self.sh.check("readlink /opt/boardctl/venv")
            since = self.now()
            status, output = self.sh.shell(
                f"boardctl-update install --offline {wheel}", 2 * COMMAND_WAIT
            )
            now = self.sh.check("readlink /opt/boardctl/venv")
            if status == 0 or now != good or "did not become ready" not in output:
                raise CheckFailed(f"exit {status}, venv -> {now}: {output[-800:]}")
            if self.sh.shell("test -e /opt/boardctl/trial")[0] == 0:
                raise CheckFailed("/opt/boardctl/trial is still there")
            self.wait_active("after going back")
            log = self.journal(since, "-u", UNIT)
            if "broken on purpose" not in log:
                raise CheckFailed(f"the new version's failure is not in the journal: {log[-800:]}")
            said = [
                line
                for line in self.journal(since, "-u", "boardctl-rollback.service").splitlines()
                if line.startswith("boardctl-update:")
            ]
            notes.append(output.splitlines()[-1])
            notes.append(f"venv -> {now} again")
            notes.append(f"boardctl-rollback meanwhile: {said[-1] if said else 'not started'}")

    def update_interrupted(self) -> None:
        with self.check(
            "update: an interrupted update of a broken version goes back by itself"
        ) as notes:
            # A version that fails 5 s after it starts; the updater is killed while it
            # waits, as by a power cut: only the unit's OnFailure= can go back.
            script = "#!/bin/sh\\necho this version is broken >&2\\nsleep 5\\nexit 1\\n"
            self.sh.check(
                f"mkdir -p {BROKEN}/bin && printf '{script}' > {BROKEN}/bin/boardctl && "
                f"chmod +x {BROKEN}/bin/boardctl"
            )
            good = self.sh.check("readlink /opt/boardctl/venv")
            since = self.now()
            self.sh.shell("timeout -s KILL 3 boardctl-update switch 9.9.9-broken", COMMAND_WAIT)
            stuck = self.sh.check("readlink /opt/boardctl/venv; cat /opt/boardctl/trial")
            if "9.9.9-broken" not in stuck:
                raise CheckFailed(f"the switch did not happen: {stuck}")
            deadline = time.monotonic() + 2 * SERVICE_WAIT
            while self.sh.check("readlink /opt/boardctl/venv") != good:
                if time.monotonic() > deadline:
                    raise CheckFailed("still on the broken version")
                time.sleep(5)
            self.wait_active("after the rollback unit")
            said = [
                line
                for line in self.journal(since, "-u", "boardctl-rollback.service").splitlines()
                if line.startswith("boardctl-update:")
            ]
            starts = self.journal(since, "-u", UNIT).count("Starting boardctl")
            notes.append(f"{starts} starts; boardctl-rollback: {' / '.join(said)[:200]}")
            self.sh.check("test ! -e /opt/boardctl/trial")

    def finish(self) -> None:
        with self.check("shutdown: the guest powers off cleanly"):
            self.sh.send("systemctl poweroff\n")
            assert self.qemu is not None
            self.qemu.wait(SERVICE_WAIT)


def save_png(ppm: Path, png: Path) -> int:
    """The screendump as a PNG (for a person to look at); its number of colours."""
    import pygame

    surface = pygame.image.load(str(ppm))
    pygame.image.save(surface, str(png))
    colours = set()
    width, height = surface.get_size()
    for y in range(0, height, 4):
        for x in range(0, width, 4):
            colours.add(tuple(surface.get_at((x, y)))[:3])
            if len(colours) > 64:
                return len(colours)
    return len(colours)


def seconds(span: str) -> float:
    """A span as systemctl show prints it ("5s", "100ms", "1min 30s"), in seconds."""
    units = {"min": 60.0, "ms": 0.001, "us": 1e-6, "s": 1.0, "h": 3600.0}
    total = 0.0
    for number, unit in re.findall(r"([0-9.]+)\s*(min|ms|us|s|h)", span):
        total += float(number) * units[unit]
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpus", type=int, default=2, help="the guest's CPUs (default 2)")
    parser.add_argument("--memory", type=int, default=2048, help="MiB (default 2048)")
    parser.add_argument("--skip-update", action="store_true", help="leave out the update checks")
    parser.add_argument(
        "--skip-install",
        action="store_true",
        help="leave out the two installs (the longest checks); keep the interrupted switch",
    )
    args = parser.parse_args(argv)
    if shutil.which("qemu-system-aarch64") is None:
        print("boot-test: qemu-system-aarch64 is missing: sudo make image-deps", file=sys.stderr)
        return 2
    run = Run(args)
    failed = False
    try:
        run.run()
    except (CheckFailed, OSError, ValueError, KeyError):
        failed = True
    except KeyboardInterrupt:
        failed = True
    finally:
        run.stop_qemu()
        if run.bridge is not None:
            run.bridge.close()
        if run.fake is not None:
            run.fake.close()
    total = time.monotonic() - run.started
    print("\nboot-test: results (wall time of each check)")
    for name, ok, took, note in run.results:
        print(f"  {'ok    ' if ok else 'FAILED'} {took:6.0f} s  {name}")
        if note:
            print(f"{'':18}{note}")
    print(f"boot-test: {total:.0f} s in all ({total / 60:.1f} min)")
    print(f"boot-test: the logs: {WORK / 'console.log'} (serial), {WORK / 'shell.log'}")
    failed = failed or not all(ok for _, ok, _, _ in run.results)
    return 1 if failed or not run.results else 0


if __name__ == "__main__":
    sys.exit(main())
