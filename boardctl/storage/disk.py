"""The game database's files on disk: where they live, what a failure of the
disk is called on the screen, and moving a corrupt file aside.

SQLite's result codes and the ``OSError`` of a failed ``mkdir`` come here and
leave as a word or two (``"disk full"``, ``"folder read-only"``) that
:attr:`~boardctl.storage.errors.StoreError.reason` carries to the screen.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path

from .errors import StoreError

DB_NAME = "games.sqlite3"

CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)
READONLY, IOERR, FULL, CANTOPEN = 8, 10, 13, 14
WHY = {
    READONLY: "database read-only",
    FULL: "disk full",
    IOERR: "disk error",
}  # for the screen: a word or two, no path
# SQLITE_IOERR_SHMOPEN, _SHMSIZE, _SHMLOCK, _SHMMAP: the WAL index (the -shm
# file) could not be made or grown, which on a full disk is how even a reader
# fails.  Such a database is still read (as a directory it cannot write is).
SHM_ERRORS = frozenset(IOERR | (n << 8) for n in (18, 19, 20, 21))
# Why the daemon cannot save, in the words StoreError.reason uses: with one
# of these it starts all the same and keeps the moves until it can.
DISK_REASONS = frozenset({*WHY.values(), "folder read-only"})
SIDE_FILES = ("-wal", "-shm", "-journal")


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where boardctl keeps its state.

    ``$STATE_DIRECTORY`` (systemd's ``StateDirectory=``; the first one if it
    lists several), else ``$XDG_STATE_HOME/boardctl``, else
    ``~/.local/state/boardctl``.
    """
    env = os.environ if environ is None else environ
    systemd = env.get("STATE_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd)
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore relative paths
        return Path(xdg) / "boardctl"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "state" / "boardctl"


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """The game database in :func:`default_state_dir`."""
    return default_state_dir(environ) / DB_NAME


def code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of an error (0 when it has none)."""
    return extended(exc) & 0xFF


def extended(exc: sqlite3.Error) -> int:
    """SQLite's extended result code of an error (0 when it has none)."""
    return getattr(exc, "sqlite_errorcode", None) or 0


def reason(exc: sqlite3.Error, folder: Path) -> str:
    """For the screen: SQLite says "disk I/O error" where it could not grow
    its WAL index on a full disk, so the disk under ``folder`` is asked."""
    if extended(exc) in SHM_ERRORS:
        try:
            room = os.statvfs(folder).f_bavail
        except OSError:
            room = 1
        return "disk full" if room == 0 else "disk error"
    return WHY.get(code(exc), str(exc))


def os_reason(exc: OSError) -> str | None:
    """A failed mkdir in the words of StoreError.reason; None for a path
    that is wrong (a file where the directory should be), not a disk."""
    return {
        errno.ENOSPC: "disk full",
        errno.EDQUOT: "disk full",
        errno.EIO: "disk error",
        errno.EACCES: "folder read-only",
        errno.EPERM: "folder read-only",
        errno.EROFS: "folder read-only",
    }.get(exc.errno or 0)


def move_aside(path: Path, clock: Callable[[], float]) -> Path:
    """Rename the database at ``path`` and its side files to
    ``<name>.corrupt-<UTC time>`` (numbered if that is taken); the new name.

    :raises StoreError: when they cannot be renamed.
    """
    stamp = datetime.fromtimestamp(clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while any(Path(f"{aside}{s}").exists() for s in ("", *SIDE_FILES)):
        number += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
    try:
        for suffix in ("", *SIDE_FILES):
            source = Path(f"{path}{suffix}")
            if source.exists():
                source.rename(f"{aside}{suffix}")
    except OSError as exc:
        raise StoreError(
            f"game database {path} is corrupt and cannot be moved aside: {exc.strerror or exc}"
        ) from None
    sync_directory(path.parent)
    return aside


def sync_directory(folder: Path) -> None:
    """Sync ``folder``: a new or renamed file survives a power cut only once
    its directory is synced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems cannot sync a directory; SQLite syncs the data itself
    finally:
        os.close(fd)
