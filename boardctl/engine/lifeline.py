"""An engine process ends when the process that started it does, however it dies.

A daemon killed with SIGKILL runs no clean-up: its engine worker, deep in a
search that reads its pipe only between searches (or in an endless one, when
a clock is bad), would go on at full CPU for ever.  Two lines of defence:

- On Linux the kernel sends the child a signal when its parent dies
  (``prctl(PR_SET_PDEATHSIG)``), for the built-in worker and for external
  engine programs alike (it survives ``exec``).
- The built-in worker also watches, in a thread of its own, that its parent
  is still the process that started it (``getppid()`` changes to a reaper
  when the parent dies), so it ends on any POSIX system, within
  :data:`POLL_SECONDS`.

The kernel's signal fires when the *thread* that started the child ends, so
children must be started from a thread that lives as long as the process
(the daemon's and the simulator's main loop do).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL_SECONDS = 0.5  # how often the worker checks its parent is there


def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, looked up once in the parent (so a forked child only
    calls it), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _prctl()
AVAILABLE = _PRCTL is not None  # whether the kernel's parent-death signal can be asked for


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies (Linux only).

    Safe to call between ``fork`` and ``exec`` (``preexec_fn``): it only
    calls the libc function looked up at import.
    """
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL))


def watch_parent(parent: int, poll: float = POLL_SECONDS) -> threading.Thread:
    """End this process at once when its parent is no longer ``parent``.

    Also sets :func:`die_with_parent`.  The parent may have died before this
    was called: then the process ends here.
    """
    die_with_parent()
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                # Nothing to save: the worker's state is one search.
                os._exit(0)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread


__all__ = ["AVAILABLE", "POLL_SECONDS", "die_with_parent", "watch_parent"]
