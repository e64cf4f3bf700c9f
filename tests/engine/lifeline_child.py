"""A parent for tests/engine/test_lifeline.py to kill with SIGKILL.

Usage: ``python lifeline_child.py worker|program|watch``.  It starts an
engine process that would think for ever, prints ``pid <its pid>`` once that
process is busy, and waits to be killed:

- ``worker``: the built-in :class:`EngineWorker`, on an endless search.  A
  forked keeper holds the pipe open, as a deep iteration that reports
  nothing for minutes would: the worker cannot learn of the death from a
  broken pipe.  The keeper prints ``keeper <pid>`` for the test to end it;
- ``program``: an external program through ``pipes.spawn`` (the kernel's
  parent-death signal is its only defence: it loops and never reads stdin);
- ``watch``: a program that relies on :func:`lifeline.watch_parent` alone,
  with the kernel's signal switched off.
"""

from __future__ import annotations

import os
import sys
import time

from boardctl.engine import Limits
from boardctl.engine.interface import Thinking
from boardctl.engine.pipes import spawn
from boardctl.engine.worker import EngineWorker

BUSY = "while True: pass"
WATCH_ONLY = (
    "import os, boardctl.engine.lifeline as l; l._PRCTL = None; "
    f"l.watch_parent({{parent}}); print('watching', flush=True)\n{BUSY}"
)


def main(kind: str) -> None:
    if kind == "worker":
        worker = EngineWorker(seed=0)
        worker.go(
            "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
            [],
            Limits(infinite=True),
        )
        while not any(isinstance(m, Thinking) for m in worker.poll(1.0)):
            pass
        pid = worker._process.pid
        keeper = os.fork()
        if keeper == 0:
            time.sleep(600)
            os._exit(0)
        print(f"keeper {keeper}", flush=True)
    elif kind == "program":
        proc, _, _ = spawn([sys.executable, "-c", BUSY], "busy")
        pid = proc.pid
    else:
        proc, lines, _ = spawn(
            [sys.executable, "-c", WATCH_ONLY.format(parent=os.getpid())], "watch"
        )
        assert lines.get(timeout=30) == "watching"
        pid = proc.pid
    print(f"pid {pid}", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main(sys.argv[1])
