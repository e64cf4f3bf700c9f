"""Screen sizes as text (``480x320``): the one parser for the configuration's
``[display] size`` and ``boardctl screenshot --size``.

No pygame here, so the configuration can be checked where pygame-ce is not
installed.
"""

from __future__ import annotations

import re

from ..errors import BoardctlError
from ..rules.digits import NumberError, parse_whole, shown

# The smallest screen on which every text is shown whole at the legible size
# (boardctl.ui.layout.legible_px): at 320 x 240 the side panel is too narrow
# for "Engine" and the evaluation.  tests/ui/test_gallery.py holds it to that.
MIN_SIZE = (400, 240)
MAX_SIDE = 8192  # pixels a side: beyond any screen a Pi drives, and a 256 MB surface
_SIZE = re.compile(r"\s*([0-9]+)\s*[x×X]\s*([0-9]+)\s*", re.ASCII)


class SizeError(BoardctlError, ValueError):
    """Text that is not a usable WIDTHxHEIGHT."""


def parse_size(text: str) -> tuple[int, int]:
    """``"480x320"`` (also ``480X320``, ``480×320``) → ``(480, 320)``.

    :raises SizeError: when the text is not WIDTHxHEIGHT with ASCII digits
        and each side from :data:`MIN_SIZE` to :data:`MAX_SIDE`.
    """
    match = _SIZE.fullmatch(text)
    if match is None:
        raise SizeError(f"expected WIDTHxHEIGHT such as 480x320, got {shown(text)}")
    try:
        return (
            parse_whole(match[1], MIN_SIZE[0], MAX_SIDE),
            parse_whole(match[2], MIN_SIZE[1], MAX_SIDE),
        )
    except NumberError:
        raise SizeError(
            f"{shown(text)} is outside {MIN_SIZE[0]}x{MIN_SIZE[1]} to {MAX_SIDE}x{MAX_SIDE} "
            f"(a smaller screen cannot show its text whole at a legible size)"
        ) from None


__all__ = ["MAX_SIDE", "MIN_SIZE", "SizeError", "parse_size"]
