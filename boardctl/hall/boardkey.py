"""The board's own key for its broadcast: made once, kept in its data folder.

The hall trusts a board's word for its game only when this key signed it
and the round file names it (by its fingerprint, which ``boardctl hall key``
shows).  The file holds the private key as 64 hex digits and is the board's
alone: it is created with mode 0600, and one that others may read is made
so again (with a warning: the key may have been read).
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from ..errors import BoardctlError
from ..remote.keys import SigningKey, fingerprint

log = logging.getLogger("boardctl")

KEY_NAME = "hall-key"
_SIZE = 65  # 64 hex digits and a newline


class BoardKeyError(BoardctlError, OSError):
    """The key file cannot be read or made; the message says which and why."""


def key_path(folder: Path) -> Path:
    return folder / KEY_NAME


def board_key(folder: Path) -> SigningKey:
    """The board's key in ``folder``, made there on first use.

    :raises BoardKeyError: for a file that cannot be read, written or used.
    """
    path = key_path(folder)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise BoardKeyError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    key = SigningKey()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key.secret + "\n")
            out.flush()
            os.fsync(out.fileno())
    except FileExistsError:
        return _read(path)  # another process made it first: that one is the key
    except OSError as exc:
        raise BoardKeyError(f"{path}: cannot write it: {exc.strerror or exc}") from None
    log.info("hall: a new key for this board's broadcast, %s", fingerprint(key.public))
    return key


def _read(path: Path) -> SigningKey:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise BoardKeyError(f"{path}: not a regular file")
        if info.st_mode & 0o077:
            log.warning("hall: %s could be read by others: made the board's alone again", path)
            os.fchmod(file.fileno(), 0o600)
        text = file.read(_SIZE + 1)
    try:
        secret = text.decode("ascii").strip()
        if len(secret) != 64:
            raise ValueError(secret)
        return SigningKey(secret)
    except ValueError:
        raise BoardKeyError(
            f"{path}: not a key (64 hex digits); move it away and a new one is made"
        ) from None
