"""Speech engines: the programs that turn words into sound.

An engine says one text at a time, and stops when the text's ``cancel``
event is set from another thread (:class:`~.speaker.Speaker` sets it when a
newer text makes this one stale).
:class:`Espeak` runs Debian's ``espeak-ng``: offline, small, and quick on a
Raspberry Pi.  :class:`Silent` stands in where no engine can run.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

from ..rules import BoardctlError

ESPEAK = "espeak-ng"
SpeechEngineName = Literal["espeak-ng"]
# espeak-ng's voice names: a language, a variant after "+" ("en+f3").
VOICE_NAME = re.compile(r"[A-Za-z0-9_+-]{1,32}", re.ASCII)
# espeak-ng's own bounds: words per minute, and amplitude (100 is its default).
RATE_RANGE = (80, 450)
VOLUME_RANGE = (0, 200)
# A text is said within this long, or the engine is stopped (a hung audio device).
SAY_TIMEOUT = 60.0
# How often a text being said looks whether it has been cancelled (seconds).
CANCEL_POLL = 0.02


class SpeechError(BoardctlError):
    """The speech engine cannot run (not installed, or it failed)."""


class SpeechEngine(Protocol):
    def say(self, text: str, cancel: threading.Event) -> None:
        """Say ``text``, returning when it has been said or soon after
        ``cancel`` is set (at once if it already is)."""


@dataclass(frozen=True)
class VoiceSettings:
    """How the engine speaks: its voice (a language name), words per minute
    and volume (0 to 200, 100 as loud as the engine's default)."""

    name: str = "en"
    rate: int = 160
    volume: int = 100


@runtime_checkable
class Tunable(Protocol):
    """An engine whose voice, rate and volume can change between utterances."""

    voice: VoiceSettings


class Espeak:
    """``espeak-ng`` in a child process, one per utterance, played on the
    default audio device.

    :raises SpeechError: when ``espeak-ng`` is not installed.
    """

    def __init__(self, voice: VoiceSettings = VoiceSettings(), program: str = ESPEAK) -> None:
        found = shutil.which(program)
        if found is None:
            raise SpeechError(f"{program} is not installed (Debian package espeak-ng)")
        self.program = found
        self.voice = voice

    def command(self, text: str, wav: Path | None = None) -> list[str]:
        v = self.voice
        args = [self.program, "-v", v.name, "-s", str(v.rate), "-a", str(v.volume)]
        if wav is not None:
            args += ["-w", str(wav)]
        # After "--" a text that starts with "-" is words, not an option.
        return [*args, "--", text]

    def say(self, text: str, cancel: threading.Event) -> None:
        """:raises SpeechError: when espeak-ng cannot play (no audio device)."""
        if cancel.is_set():
            return
        with (
            tempfile.TemporaryFile() as err,
            subprocess.Popen(
                self.command(text), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err
            ) as child,
        ):
            deadline = time.monotonic() + SAY_TIMEOUT
            while child.poll() is None:
                late = time.monotonic() > deadline
                if cancel.wait(CANCEL_POLL) or late:
                    child.terminate()
                    child.wait()
                    if late and not cancel.is_set():
                        # Never silently: long answers come in parts (voice.readout).
                        raise SpeechError(
                            f"{ESPEAK} was stopped after {SAY_TIMEOUT:g} s, the text unsaid "
                            f"from there on: {text[:40]!r}…"
                        )
                    return
            err.seek(0)
            problem = _error_line(err.read())
        # It says "error: ..." and still exits 0 when it has no audio device.
        if problem:
            raise SpeechError(
                f"{ESPEAK} cannot play ({problem}): is a speaker connected and the "
                "audio output set?"
            )

    def render(self, text: str, wav: Path) -> None:
        """Write ``text`` as spoken to the WAV file ``wav`` instead of playing it.

        :raises SpeechError: when the engine fails.
        """
        done = subprocess.run(
            self.command(text, wav), capture_output=True, timeout=SAY_TIMEOUT, check=False
        )
        if done.returncode != 0:
            raise SpeechError(f"{ESPEAK} failed: {done.stderr.decode(errors='replace').strip()}")


def _error_line(stderr: bytes) -> str:
    """espeak-ng's "error: ..." line, or "" (ALSA's own chatter is no failure)."""
    lines = stderr.decode(errors="replace").splitlines()
    errors = [line.strip() for line in lines if line.lower().startswith("error")]
    return errors[-1] if errors else ""


class Silent:
    """No sound: the words are kept (``said``) so that tests and the
    simulator's log can read them."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str, cancel: threading.Event) -> None:
        if not cancel.is_set():
            self.said.append(text)
