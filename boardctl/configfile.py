"""Writing the configuration file back, for the settings page and the first start.

The file stays the one source of the settings: the page changes keys in it
and a hand edit goes on working.  tomlkit reads and writes it keeping every
comment, blank line and the order of its keys (the standard library's tomllib
only reads), so the owner's notes survive a save.

Nothing is written that would not start: the new text is read back with the
same reader and checks as at start (:func:`~boardctl.config.parse_config`),
and each changed key must read back as the value asked for.  The file is then
replaced whole or not at all: a temporary copy in the same directory, made
with the file's mode (:mod:`boardctl.atomic`), is written and synced, renamed
over the old one, and the directory synced, so after a power cut the file is
the old one or the new one, never half of either.  A read-only or full disk
is one clear message and the old file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import InlineTable, Table

from .atomic import create_copy
from .config import PIN_LENGTH, Config, ConfigError, parse_config
from .rules import BoardctlError
from .userfiles import TOML_LIMIT, parse_toml, read_text, unreadable

# A new file holds the web page's PIN: the owner and the service's group may
# read it, nobody else.
NEW_FILE_MODE = 0o640
PIN_DIGITS = 6  # a generated PIN: short to type from the screen, and the guard slows guessing

# What a failed write means to the owner, by its error number.
_WHY = {
    errno.EROFS: "the disk is read-only",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk is full",
    errno.EACCES: "the board may not write in {folder}",
    errno.EPERM: "the board may not write in {folder}",
}

FIRST_HEADER = """\
# boardctl configuration, written at the first start.  The settings page
# (its address and PIN were on the board's screen) changes it, and so may a
# text editor: every key is optional and checked at start.  Every key and its
# default: config.example.toml, beside this file or in the source's systemd/.
"""

# A card's own settings for its first start, beside the configuration's path.
FIRST_DEFAULTS = "first-start.toml"

assert PIN_LENGTH[0] <= PIN_DIGITS <= PIN_LENGTH[1]


class ConfigWriteError(BoardctlError, OSError):
    """The file could not be written; the message says why in one line, and
    the file is as it was."""


def edit_config(path: Path, changes: Mapping[tuple[str, str], Any]) -> Config:
    """Set each ``(section, key)`` of ``changes`` in the file at ``path`` (made
    if there is none) and return the configuration it now holds.

    :raises ConfigError: when the file as changed would not start; naming
        the key, and nothing is written.
    :raises ConfigWriteError: when the file cannot be read or written.
    """
    target = Path(os.path.realpath(path))  # a link to the file stays a link
    document = _document(target)
    for (section, key), value in changes.items():
        table = document.get(section)
        if table is None:
            table = tomlkit.table()
            document[section] = table
        if not isinstance(table, Table | InlineTable):
            raise ConfigError(f"config {path}: [{section}]: expected a table of keys")
        table[key] = value
    text = tomlkit.dumps(document)
    config = _read_back(text, str(path), changes)
    write_atomic(target, text)
    return config


def _document(path: Path) -> tomlkit.TOMLDocument:
    try:
        text = read_text(path, TOML_LIMIT)
    except FileNotFoundError:
        return tomlkit.document()
    except OSError as exc:
        raise ConfigWriteError(unreadable(path, exc)) from None
    except UnicodeDecodeError:
        raise ConfigError(f"config {path}: not UTF-8 text") from None
    try:
        parse_toml(text)  # the reader at start must agree that it is TOML
        return tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, TOMLKitError) as exc:
        raise ConfigError(f"config {path}: not valid TOML: {exc}") from None


def _read_back(text: str, source: str, changes: Mapping[tuple[str, str], Any]) -> Config:
    """The configuration ``text`` holds, as the daemon would read it at start.

    :raises ConfigError: when it would not start, or a change reads back as
        another value than was set.
    """
    try:
        config = parse_config(parse_toml(text), source)
    except tomllib.TOMLDecodeError as exc:  # tomlkit wrote what tomllib cannot read
        raise ConfigError(f"config {source}: the edited file would not be TOML: {exc}") from None
    except ConfigError as exc:
        raise ConfigError(f"config {source}: {exc}", exc.key, exc.reason) from None
    for (section, key), value in changes.items():
        if getattr(getattr(config, section), key) != value:
            raise ConfigError(
                f"config {source}: [{section}] {key} would read back as another value",
                (section, key),
            )
    return config


def write_atomic(
    path: Path, text: str, doing: str = "save the settings", new_mode: int = NEW_FILE_MODE
) -> None:
    """Replace the file at ``path`` with ``text`` whole (see the module
    docstring); a new file gets ``new_mode``, an old one keeps its mode.

    :raises ConfigWriteError: "cannot ``doing``: why", with the file as it was.
    """
    folder = path.parent
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = new_mode
    except OSError as exc:
        raise _write_error(path, exc, doing) from None
    temp: Path | None = None
    try:
        handle, temp = create_copy(path, mode)
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8"))
            out.flush()
            if stat.S_IMODE(os.fstat(out.fileno()).st_mode) != mode:
                # The umask narrowed the copy; the file keeps the mode it had.
                os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(temp, path)
        temp = None
        _sync_folder(folder)
    except OSError as exc:
        raise _write_error(path, exc, doing) from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself last (a folder's entries are synced apart from
    its files)."""
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _write_error(path: Path, exc: OSError, doing: str) -> ConfigWriteError:
    why = _WHY.get(exc.errno or 0, exc.strerror or str(exc)).format(folder=path.parent)
    state = "unchanged" if path.exists() else "not written"
    return ConfigWriteError(f"cannot {doing}: {why} ({path} is {state})")


def new_pin() -> str:
    """A PIN of :data:`PIN_DIGITS` random digits."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


@dataclass(frozen=True)
class FirstFile:
    """The configuration a first start writes at ``path``: its ``text``, and
    the ``config`` it holds.  Made before it is written, so that a command
    refused for another argument leaves nothing behind."""

    path: Path
    text: str
    config: Config

    def write(self) -> None:
        """:raises ConfigWriteError: when it cannot be written."""
        target = Path(os.path.realpath(self.path))
        write_atomic(target, self.text, "write the first configuration")


def first_file(path: Path) -> FirstFile:
    """The first start: no file at ``path``.  The file to write there, with
    the web page on and a new PIN to open its settings; nothing is written.

    A card's own settings (:data:`FIRST_DEFAULTS` beside ``path``, which
    ``make image`` puts there: its screen) are written into it too.

    :raises ConfigError: when those settings are not TOML, or would not start.
    """
    defaults = path.with_name(FIRST_DEFAULTS)
    try:
        own = read_text(defaults, TOML_LIMIT)
    except FileNotFoundError:
        own = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(unreadable(defaults, exc)) from None
    try:
        parse_toml(own)  # its depth bounded before tomlkit reads it
        document = tomlkit.parse(FIRST_HEADER + own)
    except (tomllib.TOMLDecodeError, TOMLKitError) as exc:
        raise ConfigError(f"{defaults}: not TOML: {exc}") from None
    web = document.get("web")
    if not isinstance(web, Table):
        web = tomlkit.table()
        document["web"] = web
    pin = new_pin()
    web["enabled"] = True
    web["pin"] = pin
    text = tomlkit.dumps(document)
    changes = {("web", "enabled"): True, ("web", "pin"): pin}
    try:
        return FirstFile(path, text, _read_back(text, str(path), changes))
    except ConfigError as exc:
        if not own:
            raise
        raise ConfigError(f"{exc} (set in {defaults})", exc.key, exc.reason) from None


def first_config(path: Path) -> Config:
    """:func:`first_file` at ``path``, written, and the configuration it holds.

    :raises ConfigWriteError: when it cannot be written.
    """
    first = first_file(path)
    first.write()
    return first.config
