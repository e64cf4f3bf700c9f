"""A colour as the lights, the screen and the serial link all carry it.

The one definition below the packages that share it (board, hw, ui), none of
which may import another for it.
"""

Colour = tuple[int, int, int]  # red, green, blue: 0-255 each
