"""Restarting the board's program from the settings page.

Some saved settings are taken only at the next start (another board shape,
remote play, the sensors: :func:`boardctl.settings.when_taken`).  The page's
"restart" action ends the daemon's loop as SIGTERM does (every stored move
written, the engines and the web server closed) and ``boardctl run`` exits
with :data:`RESTART_STATUS`.  Under the shipped unit (``Restart=on-failure``,
systemd/boardctl.service) systemd starts it again; started any other way,
:func:`reexec` runs the same command again in the same process.  Either way
the store resumes the game in progress.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Mapping, Sequence
from multiprocessing import resource_tracker
from typing import NoReturn

log = logging.getLogger("boardctl")

# EX_TEMPFAIL of sysexits.h, "try again later": a non-zero status, so
# Restart=on-failure starts the service again, and one no crash gives.
RESTART_STATUS = 75

# How long the program must have run before the page may restart it under
# systemd.  Every start counts toward the unit's StartLimitBurst=5 in
# StartLimitIntervalSec=300, automatic restarts included (systemd.unit(5)):
# with a minute between restarts (plus RestartSec=5), six starts span more
# than 300 s, so restarting by the page can never make systemd give up on
# the board.  tests/test_systemd.py ties the numbers to the unit.
RESTART_GAP = 60.0

# Seconds :func:`reexec` waits for the first run's children to end: its
# engines and reviews are closed by then, so only what is ending remains.
REAP_WAIT = 5.0


def under_systemd(environ: Mapping[str, str] | None = None) -> bool:
    """Whether systemd started this process as a ``Type=notify`` service (the
    shipped unit), which it restarts after :data:`RESTART_STATUS`.

    ``$NOTIFY_SOCKET`` is the test: systemd sets it for a service of
    ``Type=notify`` (or with ``NotifyAccess=``) only (systemd.exec(5),
    "Environment Variables Set or Propagated by the Service Manager").
    ``$INVOCATION_ID`` is not: systemd sets it for every unit, whatever its
    ``Restart=``, and a desktop's terminal running as a user service hands
    it to every shell, where an exit would leave the board stopped.
    """
    env = os.environ if environ is None else environ
    return bool(env.get("NOTIFY_SOCKET"))


def command_line() -> list[str]:
    """This process's own command line, to run again: the interpreter, its
    options (``-m boardctl``) and the arguments, as they were given."""
    return [sys.executable, *sys.orig_argv[1:]]


def reexec(argv: Sequence[str], cwd: str) -> NoReturn:
    """Run ``argv`` in this process (same id, same environment) from ``cwd``,
    the folder it started in (a relative ``--config`` path is read from
    there; lgpio's import may have moved the process elsewhere)."""
    log.info("restarting: %s", " ".join(argv))
    if not reap_children():
        log.warning("restarting: a child process of the first run is still running")
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # execv drops what Python has not written yet
    os.chdir(cwd)
    os.execv(argv[0], list(argv))


def reap_children(wait: float = REAP_WAIT) -> bool:
    """Wait, at most ``wait`` seconds, for every child of this process to
    end; True when none is left.

    The same process runs on after ``execv``, and a new program never waits
    for children it did not start: each one that ends afterwards stays a
    zombie for the process's life (one per restart from the page).
    multiprocessing's resource tracker is the one that would: it ends only
    when its pipe closes, which ``execv`` does, so it is stopped here first.
    """
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)  # closes its pipe and waits for it
    if stop is not None:
        stop()
    deadline = time.monotonic() + wait
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True  # no child left
        if pid == 0:  # children, none of them ended yet
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
