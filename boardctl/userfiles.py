"""The files a user names: a configuration, a pinout, a hall of boards, a sensor log.

Whatever path is given, reading it ends soon with the file's text or one clear
error: a FIFO with no writer is not waited on, a device such as ``/dev/zero``
is not read for ever, and a file is never read past a size that no real file
of its kind comes near.  TOML is refused past a nesting depth that no
boardctl file needs, before Python's own recursion limit turns it into a
traceback.

Errors are :class:`OSError` (with ``strerror`` set) and
:class:`tomllib.TOMLDecodeError`, which every caller already turns into its
own one-line message.
"""

from __future__ import annotations

import errno
import os
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

# Bytes.  A configuration, pinout or hall file is a page or two of TOML
# (the shipped pinouts are under 8 KiB); a sensor log is some 20 bytes an
# event, a few thousand events a game.
TOML_LIMIT = 1 << 20
SCRIPT_LIMIT = 64 << 20

# Levels of nested tables and arrays.  boardctl's deepest file, a pinout,
# nests three; Python's tomllib overflows its stack near 400.
TOML_DEPTH = 32

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def open_regular(path: Path | str) -> BinaryIO:
    """``path`` opened for reading in binary, once it is known to be a
    regular file (a FIFO is opened without waiting for a writer, then refused).

    :raises OSError: when it cannot be opened or is not a regular file.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((name for test, name in _KINDS if test(mode)), "not a file")
            raise OSError(errno.EINVAL, f"{kind}, not a regular file", str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: Path | str, limit: int) -> str:
    """The UTF-8 text of the regular file at ``path``, at most ``limit`` bytes.

    :raises OSError: as :func:`open_regular`, or when the file is larger.
    :raises UnicodeDecodeError: when it is not UTF-8.
    """
    with open_regular(path) as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise OSError(
            errno.EFBIG,
            f"larger than {_size(limit)}, far more than a file of its kind holds",
            str(path),
        )
    return data.decode("utf-8")


def unreadable(name: object, exc: OSError | UnicodeDecodeError) -> str:
    """Why the file ``name`` could not be read as text, as :func:`read_text`
    raised it: the system's reason, or the first byte that is not UTF-8."""
    if isinstance(exc, UnicodeDecodeError):
        return f"{name} is not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x})"
    return f"cannot read {name}: {exc.strerror or exc}"


def load_toml(path: Path, label: str, error: Callable[[str], Exception]) -> dict[str, Any]:
    """The TOML file at ``path`` (:func:`read_text`, :func:`parse_toml`).

    :raises Exception: ``error`` of one line starting with ``label``: the file
        cannot be read, or it is not TOML (nor UTF-8).
    """
    try:
        return parse_toml(read_text(path, TOML_LIMIT))
    except OSError as exc:
        raise error(f"{label}: cannot read it: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{label}: not valid TOML: {exc}") from None


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, refusing nesting deeper than :data:`TOML_DEPTH`.

    :raises tomllib.TOMLDecodeError: for text that is not TOML or nests too deep.
    """
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(_too_deep()) from None
    if _depth(data) > TOML_DEPTH:
        raise tomllib.TOMLDecodeError(_too_deep())
    return data


def _too_deep() -> str:
    return f"tables or arrays nested more than {TOML_DEPTH} deep"


def _depth(value: object) -> int:
    """How deep tables and arrays nest in ``value`` (counted without recursion)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = list(item)
        else:
            continue
        deepest = max(deepest, level + 1)
        if level + 1 <= TOML_DEPTH:  # no need to walk further than what is refused
            stack.extend((child, level + 1) for child in children)
    return deepest


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"
