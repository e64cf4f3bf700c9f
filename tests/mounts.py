"""Real read-only directories and tiny filesystems for the store's tests.

Root ignores file modes, so a read-only directory for root is a read-only
bind mount, and a full disk a tiny tmpfs.  Each helper skips the test when
it cannot make one (not root, no mount in a container) and says why; a user
that is not root gets a directory with its write bit cleared instead.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if done.returncode:
        pytest.skip(f"cannot mount here: {done.stderr.strip() or done.returncode}")


def _umount(target: Path) -> None:
    subprocess.run(["umount", str(target)], capture_output=True, check=False)


@contextmanager
def read_only_view(source: Path, target: Path) -> Iterator[Path]:
    """``source`` seen read-only at ``target`` (which is made)."""
    target.mkdir()
    if os.geteuid() != 0:
        source.chmod(0o555)
        try:
            yield source
        finally:
            source.chmod(0o755)
        return
    _mount("--bind", str(source), str(target))
    try:
        _mount("-o", "remount,ro,bind", str(target))
        assert not os.access(target, os.W_OK)
        yield target
    finally:
        _umount(target)


def make_writable(view: Path) -> None:
    """Let writes through a :func:`read_only_view` again (someone remounted
    the card read-write)."""
    if os.geteuid() != 0:
        view.chmod(0o755)
        return
    _mount("-o", "remount,rw,bind", str(view))
    assert os.access(view, os.W_OK)


@contextmanager
def tiny_filesystem(target: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (``mount``'s notation, e.g. ``"256k"``) at ``target``."""
    if os.geteuid() != 0:
        pytest.skip("a tiny filesystem needs root (mount -t tmpfs)")
    target.mkdir()
    _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target))
    try:
        yield target
    finally:
        _umount(target)


def fill(folder: Path) -> Path:
    """Fill the filesystem of ``folder`` to the last byte; the file that does it."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as handle:
        for chunk in (65536, 4096, 512, 1):
            try:
                while True:
                    handle.write(b"\0" * chunk)
            except OSError:
                pass
    return filler
