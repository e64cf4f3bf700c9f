"""The board's own broadcast key: made once, the board's alone, kept."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from boardctl.hall.boardkey import BoardKeyError, board_key, key_path


def test_the_key_is_made_once_readable_by_the_board_alone_and_kept(tmp_path: Path):
    folder = tmp_path / "state"
    key = board_key(folder)
    path = key_path(folder)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert board_key(folder).public == key.public


def test_a_key_others_could_read_is_made_the_boards_alone_again(tmp_path: Path, caplog):
    key = board_key(tmp_path)
    os.chmod(key_path(tmp_path), 0o644)
    assert board_key(tmp_path).public == key.public
    assert stat.S_IMODE(key_path(tmp_path).stat().st_mode) == 0o600
    assert "could be read by others" in caplog.text


@pytest.mark.parametrize("text", ["", "not a key", "ab" * 40, "zz" * 32])
def test_a_file_that_is_not_a_key_is_refused_not_replaced(tmp_path: Path, text: str):
    path = key_path(tmp_path)
    path.write_text(text)
    path.chmod(0o600)
    with pytest.raises(BoardKeyError, match="not a key"):
        board_key(tmp_path)
    assert path.read_text() == text


def test_a_directory_in_the_keys_place_is_refused(tmp_path: Path):
    key_path(tmp_path).mkdir()
    with pytest.raises(BoardKeyError):
        board_key(tmp_path)
