"""A speaker that takes as long as a real voice does, in a test's virtual time.

Each text is rendered by espeak-ng (at the rate given: the slowest the
configuration allows, by default) and the speaker is busy for as long as
the WAV file lasts, counted on the test's clock.  A text given while another
is still being said cuts it, as :class:`~boardctl.voice.speaker.Speaker`
does: :attr:`TimedVoice.cut` lists what a player would not have heard whole.
"""

from __future__ import annotations

import tempfile
import wave
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from boardctl.voice.engines import RATE_RANGE, Espeak, VoiceSettings

SLOWEST = RATE_RANGE[0]  # words per minute


@cache
def spoken_seconds(text: str, rate: int = SLOWEST) -> float:
    """How long espeak-ng takes to say ``text`` at ``rate``: its WAV's length."""
    with tempfile.TemporaryDirectory() as folder:
        wav = Path(folder) / "said.wav"
        Espeak(VoiceSettings(rate=rate)).render(text, wav)
        with wave.open(str(wav)) as w:
            return w.getnframes() / w.getframerate()


@dataclass
class Said:
    text: str
    start: float
    end: float  # when it ends, or was cut


class TimedVoice:
    """A :class:`~boardctl.voice.speaker.SaysAloud` on ``clock`` (the test's
    virtual time), speaking at ``rate`` words a minute."""

    def __init__(self, clock: Callable[[], float], rate: int = SLOWEST) -> None:
        self.clock = clock
        self.rate = rate
        self.muted = False
        self.voice = VoiceSettings(rate=rate)
        self.said: list[Said] = []
        self.cut: list[Said] = []  # each cut short, with when

    def say(self, text: str) -> None:
        if self.muted or not text:
            return
        now = self.clock()
        if self.busy():
            self.said[-1].end = now
            self.cut.append(self.said[-1])
        self.said.append(Said(text, now, now + spoken_seconds(text, self.rate)))

    def busy(self) -> bool:
        return bool(self.said) and self.clock() < self.said[-1].end

    def mute(self, muted: bool) -> None:
        self.muted = muted
        if muted and self.busy():
            self.said[-1].end = self.clock()

    def tune(self, voice: VoiceSettings) -> None:
        self.voice = voice

    def one(self, words: str) -> Said:
        """The one text said that holds ``words``."""
        found = [s for s in self.said if words in s.text]
        assert len(found) == 1, (words, [s.text for s in self.said])
        return found[0]
