"""The settings the page saves that a running board takes at once (see
:func:`boardctl.settings.when_taken`): the engine's level, the voice, the
LEDs' brightness."""

from __future__ import annotations

from ..config import Config
from ..hw import LedSink
from ..hw.base import Dims
from ..settings import Key
from ..voice.engines import VoiceSettings
from ..voice.speaker import Announcer
from .session import EngineSession


def take_now(
    keys: tuple[Key, ...],
    config: Config,
    engine: EngineSession,
    voice: Announcer,
    leds: LedSink | None,
    now: float,
) -> str | None:
    """Take ``keys`` as ``config`` has them; the notice to show, if any."""
    notice = None
    speech = config.speech
    for key in keys:
        if key == ("engine", "skill"):
            engine.set_level(config.engine.skill, now)
            if engine.opponent is not None:
                notice = f"Engine level {engine.level}"
        elif key == ("speech", "enabled"):
            voice.mute(not speech.enabled)
        elif key in (("speech", "rate"), ("speech", "volume")) and voice.speaker:
            voice.speaker.tune(VoiceSettings(speech.voice, speech.rate, speech.volume))
        elif key == ("leds", "brightness") and isinstance(leds, Dims):
            leds.set_brightness(config.leds.brightness)
    return notice
