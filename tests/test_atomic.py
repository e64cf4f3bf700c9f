"""Temporary copies of a file replaced whole: made with its mode, beside it,
and those a killed writer left removed at the next start."""

from __future__ import annotations

import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardctl.atomic import copy_name, create_copy, remove_stale_copies
from boardctl.settings import SettingsFile

CHILD = Path(__file__).with_name("settings_child.py")
PIN_FILE = '[web]\nenabled = true\npin = "864209"\n'


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604])
def test_a_copy_is_made_beside_the_file_with_its_mode(tmp_path, mode):
    path = tmp_path / "config.toml"
    old = os.umask(0o022)
    try:
        handle, temp = create_copy(path, mode)
    finally:
        os.umask(old)
    os.close(handle)
    assert temp.parent == tmp_path and temp.name.startswith(".config.toml.")
    assert stat.S_IMODE(temp.stat().st_mode) == mode


def test_the_umask_narrows_a_copy_and_never_widens_it(tmp_path):
    old = os.umask(0o077)
    try:
        handle, temp = create_copy(tmp_path / "config.toml", 0o640)
    finally:
        os.umask(old)
    os.close(handle)
    assert stat.S_IMODE(temp.stat().st_mode) == 0o600


def test_only_the_files_own_stale_copies_are_removed(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(PIN_FILE)
    stale = [copy_name(path) for _ in range(3)]
    for name in stale:
        (tmp_path / name).write_text(PIN_FILE)
    others = [
        ".config.toml.swp",  # an editor's
        ".config.toml.new",
        f".{copy_name(tmp_path / 'other.toml')}",
        "config.toml.bak",
        copy_name(tmp_path / "other.toml"),
    ]
    for name in others:
        (tmp_path / name).write_text("x")
    folder = tmp_path / copy_name(path)
    folder.mkdir()  # not a file: left alone
    assert remove_stale_copies(path) == sorted(stale)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*others, "config.toml", folder.name]
    )


def test_a_link_to_the_file_cleans_beside_the_file(tmp_path):
    real = tmp_path / "etc" / "config.toml"
    real.parent.mkdir()
    real.write_text(PIN_FILE)
    (real.parent / copy_name(real)).write_text(PIN_FILE)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    assert len(remove_stale_copies(link)) == 1
    assert os.listdir(real.parent) == ["config.toml"]


def test_the_board_removes_stale_copies_when_it_starts(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(PIN_FILE)
    (tmp_path / copy_name(path)).write_text(PIN_FILE)
    SettingsFile(path)
    assert os.listdir(tmp_path) == ["config.toml"]


def copies(folder: Path) -> dict[str, int]:
    return {
        p.name: stat.S_IMODE(p.lstat().st_mode) for p in folder.iterdir() if p.name.endswith(".new")
    }


def test_a_saver_killed_at_random_points_leaves_no_copy_after_the_next_start(tmp_path):
    """15 times: a child saves the settings page's form over and over and is
    SIGKILLed somewhere.  A copy it leaves has the file's mode from its first
    moment, and the next start removes it; the file always reads."""
    rng = random.Random(1984)
    path = tmp_path / "config.toml"
    path.write_text(PIN_FILE)
    path.chmod(0o640)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent))
    for trial in range(15):
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            umask=0o022,
        )
        assert child.stdin is not None and child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        assert copies(tmp_path) == {}, f"trial {trial}: a copy outlived the start"
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(rng.uniform(0.0, 0.05))
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        child.stdin.close()
        left = copies(tmp_path)
        assert all(mode == 0o640 for mode in left.values()), f"trial {trial}: {left}"
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
        assert 'pin = "864209"' in path.read_text()
    SettingsFile(path)
    assert copies(tmp_path) == {}
