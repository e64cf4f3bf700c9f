"""docs/speech holds what the board says over the sample game today."""

from __future__ import annotations

import re
import wave
from pathlib import Path

from ..pathimport import import_file

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "speech"


def script():
    return import_file(ROOT / "scripts" / "speak_sample.py", "speak_sample")


def test_the_sample_games_words_in_docs_are_the_ones_the_board_says():
    said = script().sample_words()
    listed = re.findall(r"^\d+\. (.*)$", (DOCS / "README.md").read_text(), re.MULTILINE)
    assert listed == said, "docs/speech is out of date: run scripts/speak_sample.py"
    # The sample shows a fix, a capture, the engine's move, a clock and a mate.
    text = " ".join(said)
    for words in ("back to d1", "takes the pawn", "Engine plays", "one minute left", "checkmate"):
        assert words in text


def test_the_recording_is_there_and_as_long_as_the_words():
    with wave.open(str(DOCS / "sample-game.wav")) as w:
        seconds = w.getnframes() / w.getframerate()
    stated = re.search(r"\((\d+) s,", (DOCS / "README.md").read_text())
    assert stated is not None and abs(seconds - int(stated[1])) <= 1
    assert 10 < seconds < 40
