"""An engine program on pipes: started once, its output read by a thread.

Both engine clients (UCI in ``external.py``, XBoard in ``xboard.py``) talk
line by line to a child process and must never block on its output, so a
reader thread moves every line into a queue and puts ``None`` at the end.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import threading
from collections.abc import Sequence
from typing import IO, Any

from .lifeline import AVAILABLE, die_with_parent


def _read_lines(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Reader thread: every line of ``stream`` into ``lines``, then ``None``."""
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            lines.put(line.rstrip("\r\n"))
    lines.put(None)


def spawn(
    argv: Sequence[str],
    name: str,
    stderr: Any = None,
) -> tuple[subprocess.Popen[str], queue.Queue[str | None], threading.Thread]:
    """Start ``argv`` with text pipes and a reader thread called ``name-<pid>``.

    :raises OSError: when the program cannot be started.
    """
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        bufsize=1,
        errors="replace",
        # The engine dies with us (even of SIGKILL) instead of thinking on for ever.
        preexec_fn=die_with_parent if AVAILABLE else None,
    )
    assert proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(
        target=_read_lines, args=(proc.stdout, lines), name=f"{name}-{proc.pid}", daemon=True
    )
    reader.start()
    return proc, lines, reader


def write(stdin: IO[str], lines: Sequence[str], transcript: Any) -> None:
    """Send ``lines`` and flush, noting each in ``transcript`` (``"> line"``).

    :raises OSError, ValueError: when the pipe is broken or closed; each
        client turns that into its own error.
    """
    for line in lines:
        stdin.write(line + "\n")
        transcript.append(f"> {line}")
    stdin.flush()


def stop(
    proc: subprocess.Popen[str],
    reader: threading.Thread | None,
    *,
    quit_grace: float,
    kill_grace: float,
) -> None:
    """Ask the engine to ``quit``, wait ``quit_grace`` seconds, then kill it.

    Safe on a process that is already dead.  Its stdout is left open while
    the reader still blocks on it (a child of the engine may hold the pipe):
    closing it then could block the caller too.
    """
    if proc.poll() is None and proc.stdin is not None:
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.write("quit\n")
            proc.stdin.flush()
    if proc.stdin is not None:
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()
    try:
        proc.wait(timeout=quit_grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=kill_grace)
    if reader is not None:
        reader.join(timeout=kill_grace)
    if proc.stdout is not None and not (reader and reader.is_alive()):
        with contextlib.suppress(OSError, ValueError):
            proc.stdout.close()
