"""Log lines that the systemd journal files at their level.

Under systemd a service's stderr is a stream to journald, which files every
line at the unit's default priority (info) unless the line begins with a
syslog priority in angle brackets, ``<3>`` for an error (sd-daemon(3);
journald reads the prefix by default, ``SyslogLevelPrefix=yes``).  Without
one, ``journalctl -p err`` never shows the board's errors, and a warning is
filed like a move.  systemd names the journal's stream in ``$JOURNAL_STREAM``
as ``DEVICE:INODE`` (systemd.exec(5)); a line gets its prefix only when
stderr is that very stream, so a terminal, a pipe or a file reads as before.

Use::

    setup_logging("%(levelname)s %(message)s")   # boardctl run
    print(line(logging.ERROR, "boardctl run: ..."), file=sys.stderr)
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

# syslog(3)'s priorities for Python's levels: a level between two takes the
# lower one's (a custom level 35 is a warning).
_PRIORITIES = (
    (logging.CRITICAL, 2),  # LOG_CRIT
    (logging.ERROR, 3),  # LOG_ERR
    (logging.WARNING, 4),  # LOG_WARNING
    (logging.INFO, 6),  # LOG_INFO
)
_DEBUG = 7  # LOG_DEBUG


def priority(level: int) -> int:
    """The syslog priority of a Python logging level."""
    for floor, value in _PRIORITIES:
        if level >= floor:
            return value
    return _DEBUG


def to_journal(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` (stderr by default) is the journal's stream that
    ``$JOURNAL_STREAM`` names: the same device and inode."""
    env = os.environ if environ is None else environ
    named = env.get("JOURNAL_STREAM", "")
    device, colon, inode = named.partition(":")
    if not colon or not device.isdigit() or not inode.isdigit():
        return False
    try:
        info = os.fstat((sys.stderr if stream is None else stream).fileno())
    except (OSError, ValueError, AttributeError):  # closed, or no file behind it
        return False
    return (info.st_dev, info.st_ino) == (int(device), int(inode))


def prefixed(level: int, text: str) -> str:
    """``text`` with the priority of ``level`` before each of its lines
    (journald files a traceback's lines one by one)."""
    mark = f"<{priority(level)}>"
    return "\n".join(mark + part for part in text.split("\n"))


def line(level: int, text: str, stream: TextIO | None = None) -> str:
    """``text`` as it should be written to ``stream`` (stderr by default):
    with its priority when that is the journal, else as it is."""
    return prefixed(level, text) if to_journal(stream) else text


class JournalFormatter(logging.Formatter):
    """A formatter whose every line begins with the record's priority."""

    def format(self, record: logging.LogRecord) -> str:
        return prefixed(record.levelno, super().format(record))


def setup_logging(fmt: str, stream: TextIO | None = None) -> None:
    """``logging.basicConfig`` at INFO to ``stream`` (stderr by default), its
    lines prefixed with their priority when the stream is the journal's."""
    out = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(out)
    handler.setFormatter(JournalFormatter(fmt) if to_journal(out) else logging.Formatter(fmt))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
