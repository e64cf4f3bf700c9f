"""The board's voice as real sound: espeak-ng renders the words to a WAV
file, which must hold speech (not silence) as long as the words, and its
phonemes must be the words (pieces named, squares by their letters)."""

from __future__ import annotations

import array
import math
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from boardctl.rules import Game, parse_uci, san
from boardctl.ui.state import DisplayState
from boardctl.voice.engines import Espeak, SpeechError, VoiceSettings
from boardctl.voice.words import utterance

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make system-deps)"
)


def engine_move_words() -> str:
    game = Game(fen="4k5/10/10/10/5p4/10/10/3F1K4 w - - 0 1")
    pos = game.position
    move = parse_uci(pos, "d1f4")
    before = DisplayState.from_game(game, engine_side=0)
    shown = DisplayState.from_game(
        game, engine_side=0, engine_move=(san(pos, move), move.from_square, move.to_square)
    )
    return utterance(before, shown)


def samples(path: Path) -> tuple[array.array[int], int]:
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        data = array.array("h", w.readframes(w.getnframes()))
        return data, w.getframerate()


def rms(data: array.array[int]) -> float:
    return math.sqrt(sum(x * x for x in data) / max(1, len(data)))


def test_the_engines_move_is_rendered_as_speech_not_silence(tmp_path) -> None:
    text = engine_move_words()
    assert text == "Engine plays falcon d1 to f4, takes the pawn."
    wav = tmp_path / "move.wav"
    Espeak().render(text, wav)
    data, rate = samples(wav)
    seconds = len(data) / rate
    # About 2.5 words a second at 160 words a minute: 9 words, 2 to 6 s.
    assert 2.0 < seconds < 6.0, seconds
    assert rms(data) > 500, rms(data)  # full scale is 32767; silence is 0
    # Speech has pauses and sounds: the loudness of 50 ms windows varies widely.
    window = rate // 20
    levels = [rms(data[i : i + window]) for i in range(0, len(data) - window, window)]
    assert min(levels) < 0.1 * max(levels)


def test_volume_and_rate_reach_the_audio(tmp_path) -> None:
    text = "Checkmate, White wins."
    loud, quiet, fast = tmp_path / "loud.wav", tmp_path / "quiet.wav", tmp_path / "fast.wav"
    Espeak(VoiceSettings(volume=200)).render(text, loud)
    Espeak(VoiceSettings(volume=20)).render(text, quiet)
    Espeak(VoiceSettings(rate=400)).render(text, fast)
    assert rms(samples(loud)[0]) > 3 * rms(samples(quiet)[0])
    assert len(samples(fast)[0]) < 0.7 * len(samples(loud)[0])


def test_its_phonemes_are_the_words(tmp_path) -> None:
    """espeak-ng's own reading of the text, as phonemes: the falcon is a word
    and each square is a letter said by its name, then a number."""
    text = engine_move_words()
    phonemes = subprocess.run(
        ["espeak-ng", "-q", "-x", "--", text], capture_output=True, text=True, check=True
    ).stdout
    assert "f'alk@n" in phonemes  # "falcon"
    assert "d'i: w'0n" in phonemes  # "d1": dee one
    assert "'Ef f'o@" in phonemes  # "f4": eff four
    assert "p'O:n" in phonemes  # "pawn"


def test_a_text_starting_with_a_dash_is_words_not_an_option(tmp_path) -> None:
    wav, elsewhere = tmp_path / "dash.wav", tmp_path / "elsewhere.wav"
    Espeak().render(f"-w {elsewhere}", wav)
    assert len(samples(wav)[0]) > 0
    assert not elsewhere.exists()


def test_no_engine_is_one_clear_error() -> None:
    with pytest.raises(SpeechError, match="not installed"):
        Espeak(program="espeak-ng-that-is-not-there")


def test_no_audio_device_is_one_warning_however_often_it_speaks(tmp_path, caplog) -> None:
    """espeak-ng with no sound card says "error: ..." and exits 0: the speaker
    logs it once, and the board goes on."""
    from boardctl.voice.speaker import Speaker

    fake = tmp_path / "espeak-ng"
    fake.write_text(
        "#!/bin/sh\necho 'ALSA lib pcm.c: Unknown PCM default' >&2\n"
        "echo 'error: No such file or directory' >&2\nexit 0\n"
    )
    fake.chmod(0o755)
    speaker = Speaker(Espeak(program=str(fake)))
    try:
        for text in ("one", "two", "three"):
            speaker.say(text)
            assert speaker.idle(5.0)
    finally:
        speaker.close()
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1, warnings
    assert "cannot play (error: No such file or directory)" in warnings[0]
    assert "speaker connected" in warnings[0]


def test_a_cancelled_text_stops_its_process(tmp_path) -> None:
    """A stale text is cut short: its espeak-ng process ends within a moment."""
    import threading
    import time

    fake = tmp_path / "espeak-ng"
    pidfile = tmp_path / "pid"
    fake.write_text(f"#!/bin/sh\necho $$ > {pidfile}\nexec sleep 30\n")
    fake.chmod(0o755)
    engine, cancel = Espeak(program=str(fake)), threading.Event()
    saying = threading.Thread(target=engine.say, args=("a long text", cancel))
    saying.start()
    deadline = time.monotonic() + 5
    while not pidfile.exists() or not pidfile.read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    cancel.set()
    saying.join(2.0)
    assert not saying.is_alive()
    pid = int(pidfile.read_text())
    assert (
        not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    )
