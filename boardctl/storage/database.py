"""Opening the game database crash-safely, and its transactions.

The database lives in the state directory
(:func:`~boardctl.storage.disk.default_state_dir`), runs in WAL mode with
``synchronous=FULL`` (with ``NORMAL`` a committed move can be lost on power
failure; ``FULL`` costs about 3.5 ms a move on the Pi), and every write is one
transaction, committed before the method returns.

A file that is not a database, or fails ``PRAGMA quick_check``, is never
discarded: it is renamed (with its ``-wal`` and ``-shm`` files) to
``<name>.corrupt-<UTC time>``, a fresh database takes its place, and
:attr:`Database.recovered_from` and :attr:`Database.notice` say what
happened.

A database the daemon cannot write (a read-only file or filesystem, a full
disk while migrating) is opened for reading: the unfinished game can still be
resumed, :meth:`Database.write_problem` says why nothing can be saved, and
each write tries to open it for writing again.  A reader in a directory it
cannot write opens the file as SQLite allows there (see
:attr:`Database.read_mode`).
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Self

from ..userfiles import open_regular
from . import disk
from .disk import DISK_REASONS
from .errors import StoreError
from .schema import SCHEMA_VERSION, migrate, schema_version

BUSY_TIMEOUT = 5.0  # seconds a reader or writer waits for the other's lock


class _Corrupt(Exception):
    """Internal: the file is not a database or fails its integrity check."""


class Database:
    """The game database, one SQLite file at ``path``, opened crash-safely:
    what :class:`~boardctl.storage.store.GameStore` reads and writes through.

    With ``create`` (the daemon) the directory and the database are made if
    missing and a corrupt file is moved aside; a database that is there but
    cannot be written is opened for reading (see :meth:`write_problem`).
    Without ``create`` (``boardctl pgn``) the file must exist, is only read
    and is never moved.  ``clock`` only names the moved file; every stored
    time is the ``now`` the caller passes.  ``move_aside=False`` refuses a
    corrupt file instead of moving it aside: a second writer (a review's
    process) must never take the daemon's database from under it.

    :raises StoreError: when the directory or the file cannot be used, or the
        file belongs to something else or to a newer boardctl.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        create: bool = True,
        clock: Callable[[], float] = time.time,
        move_aside: bool | None = None,
    ) -> None:
        self.path = Path(path)
        self.recovered_from: Path | None = None
        self.notice: str | None = None
        self._clock = clock
        self._conn: sqlite3.Connection | None = None
        self._create = create
        self._version = SCHEMA_VERSION
        self._unwritable: str | None = None  # why writes are refused, while they are
        self._read_mode = "ro"
        self._snapshot: tempfile.TemporaryDirectory[str] | None = None
        self._closed = False
        self._stand_in = False  # no database yet: see _stand_in_store
        self._can_be_database()
        if not create and not self.path.is_file():
            raise StoreError(f"no game database at {self.path} (the board daemon creates it)")
        try:
            self._conn = self._first_open(move_aside=create if move_aside is None else move_aside)
        except StoreError as exc:
            if not create or exc.reason not in DISK_REASONS:
                raise
            self._conn = self._stand_in_store(exc.reason)

    # ---------------------------------------------------------- opening
    def _can_be_database(self) -> None:
        """Refuse, before SQLite sees it, a path that is there and can never
        be the database (a directory, a FIFO, a file it may not read): that
        is a mistake in the setup to say once, not a disk to wait for.

        :raises StoreError: saying what the path is.
        """
        try:
            with open_regular(self.path):
                pass
        except FileNotFoundError:
            return  # made when the daemon starts (or, for a reader, said below)
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.ENOTDIR):
                return  # a failing disk, or no state directory: said where it is opened
            raise StoreError(
                f"cannot use {self.path} as the game database: {exc.strerror or exc}",
                reason="not a database",
            ) from None

    def _first_open(self, *, move_aside: bool) -> sqlite3.Connection:
        if self._create:
            self._make_directory()
        try:
            return self._open(self._create)
        except _Corrupt as exc:
            if not self._create:
                raise StoreError(
                    f"game database {self.path} is unreadable ({exc}); "
                    "the board daemon moves it aside when it starts"
                ) from None
            if not move_aside:
                raise StoreError(
                    f"game database {self.path} is unreadable: {exc}", reason="database unreadable"
                ) from None
            self.recovered_from = disk.move_aside(self.path, self._clock)
            self.notice = (
                f"Game database was unreadable ({exc}): kept it as "
                f"{self.recovered_from.name} and started a new one"
            )
            try:
                return self._open(self._create)
            except _Corrupt as again:
                raise StoreError(f"new game database {self.path} is unreadable: {again}") from None

    def _stand_in_store(self, why: str) -> sqlite3.Connection:
        """An empty database in memory, read while the real one cannot even
        be created (a full disk or a read-only filesystem before the first
        start): no games, nothing to resume, every write refused with ``why``
        until :meth:`write_problem` finds the real one can be made."""
        conn = sqlite3.connect(":memory:", isolation_level=None)
        migrate(conn, self.path)
        self._stand_in = True
        self._unwritable = why
        self._read_mode = "none"
        return conn

    def _make_directory(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the state directory {folder}: {exc.strerror or exc}",
                reason=disk.os_reason(exc),
            ) from None
        if not self.path.exists() and not os.access(folder, os.W_OK | os.X_OK):
            # With a database there, it is read and the writes wait (write_problem).
            raise StoreError(
                f"cannot write game database in {folder}: permission denied",
                reason="folder read-only",
            )

    def _open(self, create: bool) -> sqlite3.Connection:
        # The check runs on a read-only connection: one that can write would,
        # on closing, checkpoint the WAL into a corrupt file and delete it.
        existed = self.path.exists()
        if existed:
            probe = self._reader()
            try:
                rows = probe.execute("PRAGMA quick_check").fetchall()
                if rows != [("ok",)]:
                    found = "; ".join(str(row[0]) for row in rows[:3])
                    raise _Corrupt(" ".join(found.split())[:200])
                version = schema_version(probe, self.path)  # refuses before anything is written
                if not create or self._access_problem():
                    # Every version from 1 has the games; an older file is
                    # read as it is, and migrated only by a daemon that can write.
                    if version == 0:
                        raise StoreError(f"game database {self.path} holds no games yet")
                    self._version = version
                    self._unwritable = self._access_problem() if create else None
                    return probe
            except sqlite3.Error as exc:
                probe.close()
                raise self._failure("read", exc) from None
            except BaseException:
                probe.close()
                raise
            probe.close()
            self._close_snapshot()
        conn = self._connect("rwc")
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn, self.path)
        except sqlite3.Error as exc:
            conn.close()
            code = disk.code(exc)
            if (
                existed
                and code in disk.WHY
                and (code != disk.IOERR or disk.extended(exc) in disk.SHM_ERRORS)
            ):
                # Read-only after all (a file mode only SQLite noticed) or no
                # room to migrate: read it, and let the writes wait.
                return self._read_only(disk.reason(exc, self.path.parent))
            raise self._failure("open", exc) from None
        except BaseException:
            conn.close()
            raise
        self._version = SCHEMA_VERSION
        self._unwritable = None
        if not existed:
            disk.sync_directory(self.path.parent)
        return conn

    def _read_only(self, why: str) -> sqlite3.Connection:
        reader = self._reader()
        try:
            self._version = schema_version(reader, self.path)
        except BaseException:
            reader.close()
            raise
        self._unwritable = why
        return reader

    def _access_problem(self) -> str | None:
        """Why the database cannot be written, as far as the filesystem says
        (``os.access`` also sees a read-only mount, which stops root too)."""
        folder = self.path.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            return "folder read-only"
        if not os.access(self.path, os.W_OK):
            return "database read-only"
        return None

    def _reader(self) -> sqlite3.Connection:
        """A connection that only reads, whatever the directory allows.

        SQLite reads a WAL database only through its ``-shm`` index, which it
        must create if it is missing; in a directory it cannot write that
        fails.  Then, with no WAL to read, the file is opened ``immutable``
        (no writer can work there either); with one, a copy of the file and
        its WAL in a temporary directory is read instead.
        """
        conn = self._connect("ro")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            self._read_mode = "ro"
            return conn
        except sqlite3.Error as exc:
            conn.close()
            no_index = disk.extended(exc) in disk.SHM_ERRORS or disk.code(exc) == disk.FULL
            cannot_write = disk.code(exc) in (disk.CANTOPEN, disk.READONLY) and not os.access(
                self.path.parent, os.W_OK
            )
            if not (no_index or cannot_write):
                raise self._failure("read", exc) from None
        wal = Path(f"{self.path}-wal")
        if not wal.exists() or wal.stat().st_size == 0:
            self._read_mode = "immutable"
            return self._connect("ro", self.path, immutable=True)
        self._close_snapshot()
        self._snapshot = tempfile.TemporaryDirectory(prefix="boardctl-")
        copy = Path(self._snapshot.name) / self.path.name
        try:
            shutil.copyfile(self.path, copy)
            shutil.copyfile(wal, f"{copy}-wal")
        except OSError as exc:
            raise StoreError(
                f"cannot read game database {self.path}: {exc.strerror or exc}"
            ) from None
        self._read_mode = "copy"
        return self._connect("ro", copy)

    def _close_snapshot(self) -> None:
        if self._snapshot is not None:
            self._snapshot.cleanup()
            self._snapshot = None

    def _connect(
        self, mode: str, path: Path | None = None, *, immutable: bool = False
    ) -> sqlite3.Connection:
        uri = f"{(path or self.path).absolute().as_uri()}?mode={mode}"
        if immutable:
            uri += "&immutable=1"
        try:
            return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
        except sqlite3.Error as exc:
            raise self._failure("open", exc) from None

    def _failure(self, doing: str, exc: sqlite3.Error) -> Exception:
        if disk.code(exc) in disk.CORRUPT_CODES:
            return _Corrupt(str(exc))
        return StoreError(
            f"cannot {doing} game database {self.path}: {exc}",
            reason=disk.reason(exc, self.path.parent),
        )

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"game database {self.path} is closed")
        return self._conn

    def write_problem(self) -> str | None:
        """Why writes would fail now, if the store knows it without trying
        one (the database was read-only when opened), in a few words; None
        when it can write.  Opens the database again to find out.

        :raises StoreError: when it cannot even be read any more.
        """
        if self._unwritable is not None and not self._closed:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            try:
                self._conn = self._first_open(move_aside=False)
                self._stand_in = False
            except StoreError as exc:
                if not self._stand_in or exc.reason not in DISK_REASONS:
                    raise
                self._conn = self._stand_in_store(exc.reason)
        return self._unwritable

    @property
    def read_mode(self) -> str:
        """How the database is read: ``"ro"`` (SQLite's read-only mode),
        ``"immutable"`` or ``"copy"`` (see :meth:`_reader`); ``"rw"`` when
        it is open for writing; ``"none"`` when there is no database to read
        yet and it cannot be made (an empty stand-in is read instead)."""
        return self._read_mode if self._unwritable or not self._create else "rw"

    @contextmanager
    def _transaction(self, kind: str) -> Iterator[sqlite3.Connection]:
        """One transaction: ``IMMEDIATE`` to write, ``DEFERRED`` for a consistent read."""
        if kind == "IMMEDIATE":
            if not self._create:
                raise StoreError(f"game database {self.path} is open for reading only")
            why = self.write_problem()
            if why is not None:
                raise StoreError(f"cannot write game database {self.path}: {why}", reason=why)
        conn = self._connection()
        try:
            conn.execute(f"BEGIN {kind}")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(
                f"game database {self.path}: {exc}", reason=disk.WHY.get(disk.code(exc), str(exc))
            ) from exc

    def close(self) -> None:
        """Close the database (a second call does nothing)."""
        self._closed = True
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._close_snapshot()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
