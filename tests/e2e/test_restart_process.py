"""A real ``boardctl run`` restarted from the settings page: the simulated
board and the web server in a child process, the restart asked for with the
PIN, and the same process (re-executed: no systemd here) serves the page
again with the game it had resumed.  Every wait is bounded."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardctl.rules import Game
from boardctl.storage.store import DB_NAME, GameStore

PIN = "2468"
OPENING = ["e2e4", "e7e5", "d2d4"]
WAIT = 60.0  # seconds for the program to start (Python, the web server, a review process)
REQUEST_WAIT = 30.0  # seconds for one answer from the running program (at load 28)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Page:
    """The board's web page, as the owner's browser would see it (its cookie kept)."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(self, path: str) -> Any:
        with self.opener.open(self.base + path, timeout=REQUEST_WAIT) as response:
            return json.load(response)

    def post(self, path: str, body: dict[str, Any]) -> int:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with self.opener.open(request, timeout=REQUEST_WAIT) as response:
            return int(response.status)

    def session(self) -> dict[str, Any] | None:
        try:
            return dict(self.get("/api/session"))
        except (OSError, urllib.error.URLError, ValueError):
            return None  # not listening (yet, or any more)


def wait_for_run(page: Page, proc: subprocess.Popen[bytes], other: str = "") -> str:
    """The run id of the program once it answers, another than ``other``."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"boardctl run exited with {proc.returncode}"
        answer = page.session()
        if answer is not None and answer["run"] != other:
            return str(answer["run"])
        time.sleep(0.2)
    raise AssertionError(f"the page did not answer within {WAIT} s")


@contextlib.contextmanager
def board_run(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Page, Path]]:
    """``boardctl run`` on a simulated board with its page (the state in
    tmp_path/state, the log in tmp_path/boardctl.log), stopped with SIGTERM
    at the end; its process, its page and its log."""
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        '[game]\nmode = "two-players"\n[display]\nenabled = false\n'
        f'[web]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\npin = "{PIN}"\n'
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "INVOCATION_ID")}
    env.update(STATE_DIRECTORY=str(state), SDL_VIDEODRIVER="dummy")
    log = tmp_path / "boardctl.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "boardctl", "run", "--config", "config.toml"],
            cwd=tmp_path,  # a relative --config: the re-executed run must find it too
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        yield proc, Page(port), log
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def restart(page: Page, proc: subprocess.Popen[bytes], run: str) -> str:
    """Restart the program from the page; the new run's id."""
    assert page.post("/api/login", {"pin": PIN}) == 200
    assert page.post("/api/action", {"kind": "restart"}) == 202
    return wait_for_run(page, proc, other=run)


def test_the_page_restarts_the_program_in_the_same_process_and_the_game_goes_on(tmp_path):
    (tmp_path / "state").mkdir()
    with GameStore(tmp_path / "state" / DB_NAME) as store:
        game_id = store.new_game(
            "falcon", Game().start_fen, "Ann", "Bob", "two-players", time.time()
        )
        for ply, uci in enumerate(OPENING, start=1):
            store.add_move(game_id, ply, uci, time.time())
    with board_run(tmp_path) as (proc, page, log):
        first = wait_for_run(page, proc)
        before = page.get("/api/state")
        assert (before["game_id"], list(before["moves"])) == (game_id, OPENING)
        restart(page, proc, first)
        assert proc.poll() is None  # the same process, its program run again
        after = page.get("/api/state")
        assert (after["game_id"], list(after["moves"])) == (game_id, OPENING)
    text = log.read_text()
    assert proc.returncode == 0, text
    assert text.count(f"resuming game {game_id} after {len(OPENING)} moves") == 2, text
    assert "restarting: " in text


def children(pid: int) -> dict[tuple[int, int], str]:
    """The state (R, S, Z, ...) of each of ``pid``'s children, from /proc, by
    its id and its start (clock ticks since boot: an id may be used again)."""
    states = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = (Path("/proc") / name / "stat").read_text()
        except OSError:
            continue  # not a process, or one that has just ended
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid:
            states[int(name), int(fields[19])] = fields[0]
    return states


def ticks() -> int:
    """Clock ticks since boot, as /proc counts a process's start."""
    return int(float(Path("/proc/uptime").read_text().split()[0]) * os.sysconf("SC_CLK_TCK"))


RESTARTS = 3


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_restarts_from_the_page_leave_no_zombie_children(tmp_path):
    # Each restart left the first run's multiprocessing resource tracker to
    # end after execv, a zombie that the new program never waited for.
    with board_run(tmp_path) as (proc, page, _):
        run = wait_for_run(page, proc)
        for _ in range(RESTARTS):
            before = ticks()  # a child started by now is an earlier run's
            run = restart(page, proc, run)
        # A child of an earlier run that outlives execv ends at its pipe's
        # EOF, and then stays a zombie: wait until each has ended or is one.
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and any(
            start <= before and state != "Z" for (_, start), state in children(proc.pid).items()
        ):
            time.sleep(0.05)
        states = list(children(proc.pid).values())
        assert states.count("Z") == 0, states
