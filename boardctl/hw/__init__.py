"""Hardware drivers behind small interfaces (see ``base``); simulated ones too."""

from ..colour import Colour
from .base import OFF, Buttons, LedSink, Press, Reading, SensorSource

__all__ = ["OFF", "Buttons", "Colour", "LedSink", "Press", "Reading", "SensorSource"]
