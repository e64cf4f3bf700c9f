"""The names a board broadcasts under, for the configuration and the round
file alike: an event's and a board's id are each one level of an MQTT topic
(:mod:`.wire`), so they are short and hold no ``/``, ``+`` or ``#``.  Nothing
here imports more than the standard library."""

from __future__ import annotations

import re

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}", re.ASCII)
NAME_RULE = "1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit"
MAX_ROUND = 999  # a round's number, and a board's within it
HALL_PORT = 8090  # where a hall listens unless told otherwise
