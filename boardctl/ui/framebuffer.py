"""The screen drawn straight into a Linux frame buffer (``/dev/fbN``), without SDL.

For screens that SDL's KMSDRM does not reach: a small SPI screen (its driver
gives ``/dev/fb1``), and a card whose GPU has no Mesa driver (qemu's
virtio-gpu under ``make test-image``, where KMSDRM scanned out black frames).
The frame is drawn at the configured size, scaled onto the frame buffer as
:mod:`.screen` does, converted to its pixel format and written where the
visible part of the buffer starts (:attr:`FrameFormat.offset`).

The kernel's console draws into the same memory (a boot message, a cursor):
an unchanged frame is written again every :data:`REWRITE_S` to cover it.
"""

from __future__ import annotations

import fcntl
import logging
import os
import struct
import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from .display import Renderer
from .fit import fit_onto
from .state import DisplayState

log = logging.getLogger("boardctl")

SYSFS = Path("/sys/class/graphics")
# linux/fb.h: FBIOGET_VSCREENINFO fills struct fb_var_screeninfo; its first 20
# __u32 are the resolutions, offsets, depth, grayscale and the red, green,
# blue and transparency bitfields (offset, length, msb_right each).
FBIOGET_VSCREENINFO = 0x4600
VAR_SCREENINFO_SIZE = 160
BITFIELDS_AT = 8  # the red bitfield's index among those __u32
# What a driver that does not answer the ioctl is taken to have, by depth.
STANDARD_MASKS: dict[int, tuple[int, int, int, int]] = {
    32: (0x00FF0000, 0x0000FF00, 0x000000FF, 0),  # XRGB8888
    24: (0xFF0000, 0x00FF00, 0x0000FF, 0),  # RGB888
    16: (0xF800, 0x07E0, 0x001F, 0),  # RGB565, the SPI screens' usual format
}
REWRITE_S = 1.0


class FramebufferError(OSError):
    """The frame buffer is not there, or has a format this screen cannot draw."""


@dataclass(frozen=True)
class FrameFormat:
    """A frame buffer's visible size, bytes per line, pixel layout, and
    where the visible part starts (a buffer panned within a larger one)."""

    width: int
    height: int
    stride: int
    depth: int
    masks: tuple[int, int, int, int]
    offset: int = 0

    @classmethod
    def of(cls, device: Path, sysfs: Path = SYSFS) -> FrameFormat:
        """The stride from sysfs; the rest from the driver, or from sysfs and
        the standard layout for the depth where the driver does not answer
        (a file in tests, a driver without the ioctl).

        :raises FramebufferError: when a value is missing or unusable.
        """
        folder = sysfs / device.name
        try:
            stride = int((folder / "stride").read_text())
            info = _screeninfo(device)
            if info is None:
                width, height = (int(v) for v in (folder / "virtual_size").read_text().split(","))
                depth = int((folder / "bits_per_pixel").read_text())
                info = (width, height, 0, 0, depth, STANDARD_MASKS.get(depth))
        except (OSError, ValueError) as exc:
            raise FramebufferError(
                f"{device}: cannot read its format from {folder}: {exc}"
            ) from None
        return cls.checked(device, stride, *info)

    @classmethod
    def from_screeninfo(cls, device: Path, stride: int, raw: bytes) -> FrameFormat:
        """From the driver's ``struct fb_var_screeninfo``.

        :raises FramebufferError: when it describes a buffer this cannot draw.
        """
        return cls.checked(device, stride, *_parse_screeninfo(raw))

    @classmethod
    def checked(
        cls,
        device: Path,
        stride: int,
        width: int,
        height: int,
        x: int,
        y: int,
        depth: int,
        masks: tuple[int, int, int, int] | None,
    ) -> FrameFormat:
        if masks is None:
            raise FramebufferError(f"{device}: {depth} bits a pixel, which is not drawn")
        if width <= 0 or height <= 0 or stride < (x + width) * depth // 8:
            raise FramebufferError(f"{device}: {width}x{height}, stride {stride}: inconsistent")
        return cls(width, height, stride, depth, masks, y * stride + x * depth // 8)


Screeninfo = tuple[int, int, int, int, int, tuple[int, int, int, int] | None]


def _screeninfo(device: Path) -> Screeninfo | None:
    try:
        with open(device, "rb", buffering=0) as handle:
            raw = fcntl.ioctl(handle, FBIOGET_VSCREENINFO, bytes(VAR_SCREENINFO_SIZE))
    except OSError:
        return None
    return _parse_screeninfo(raw)


def _parse_screeninfo(raw: bytes) -> Screeninfo:
    """The visible size, its offset in the buffer, the depth and the pixel
    masks (None for a palette or greyscale buffer)."""
    words = struct.unpack_from("20I", raw)
    width, height, x, y, depth = words[0], words[1], words[4], words[5], words[6]
    masks = []
    for colour in range(4):
        shift, length = words[BITFIELDS_AT + 3 * colour : BITFIELDS_AT + 3 * colour + 2]
        masks.append(((1 << length) - 1) << shift if length else 0)
    if depth not in STANDARD_MASKS or not all(masks[:3]):
        return width, height, x, y, depth, None
    return width, height, x, y, depth, (masks[0], masks[1], masks[2], masks[3])


class FramebufferScreen:
    """A :class:`~boardctl.daemon.parts.Display` written into ``device``.

    :raises FramebufferError: when the device cannot be opened or drawn on.
    """

    def __init__(
        self, device: Path, size: tuple[int, int], frame: FrameFormat | None = None
    ) -> None:
        self.frame = frame if frame is not None else FrameFormat.of(device)
        pygame.font.init()
        try:
            self.fd = os.open(device, os.O_WRONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise FramebufferError(f"{device}: {exc.strerror or exc}") from None
        self.renderer = Renderer(size)
        self.canvas = pygame.Surface(size, 0, 32)
        f = self.frame
        self.target = pygame.Surface((f.width, f.height), 0, f.depth, f.masks)
        self.last: DisplayState | None = None
        self.pixels = b""
        self.written = 0.0
        self.failing = False  # said once in the log, until a write goes through

    def show(self, state: DisplayState) -> None:
        now = time.monotonic()
        if state == self.last and now - self.written < REWRITE_S:
            return
        if state != self.last:
            self.last = state
            self.renderer.render(state, self.canvas)
            fit_onto(self.canvas, self.target)
            self.pixels = self._lines()
        self.written = now
        try:
            os.pwrite(self.fd, self.pixels, self.frame.offset)
        except OSError as exc:  # a screen unplugged, a driver's error: play on
            if not self.failing:
                log.warning("screen: cannot write to the frame buffer: %s", exc.strerror or exc)
            self.failing = True
        else:
            self.failing = False

    def _lines(self) -> bytes:
        """The target's pixels laid out at the frame buffer's stride, up to
        the last visible pixel (what lies beyond it in a line is not shown)."""
        raw = self.target.get_buffer().raw
        pitch, stride = self.target.get_pitch(), self.frame.stride
        used = self.frame.width * self.frame.depth // 8
        end = (self.frame.height - 1) * stride + used
        if pitch == stride:
            return raw[:end]
        pad = bytes(stride - used)
        lines = b"".join(
            raw[row * pitch : row * pitch + used] + pad for row in range(self.frame.height)
        )
        return lines[:end]

    def close(self) -> None:
        os.close(self.fd)
