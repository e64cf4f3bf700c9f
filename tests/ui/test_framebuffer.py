"""The screen written straight into a Linux frame buffer: a regular file stands for
``/dev/fbN`` and a folder for its sysfs entry.  What lands in the file, read back in
the buffer's own layout, is the screen the renderer draws, scaled and centred as on
SDL's display; nothing is written past the last visible pixel."""

from __future__ import annotations

import struct
from pathlib import Path

import pygame
import pytest

from boardctl.ui import framebuffer
from boardctl.ui.display import BACKGROUND, Renderer
from boardctl.ui.fit import fit_onto
from boardctl.ui.framebuffer import FramebufferError, FramebufferScreen, FrameFormat
from boardctl.ui.state import DisplayState

SIZE = (480, 320)


def fake_fb(tmp_path: Path, width: int, height: int, depth: int, stride: int) -> Path:
    """A file for the device and its sysfs folder, as the kernel shows them."""
    device = tmp_path / "fb1"
    device.write_bytes(b"\xa5" * stride * height)  # what the console left there
    folder = tmp_path / "sys" / "fb1"
    folder.mkdir(parents=True)
    (folder / "virtual_size").write_text(f"{width},{height}\n")
    (folder / "bits_per_pixel").write_text(f"{depth}\n")
    (folder / "stride").write_text(f"{stride}\n")
    return device


def read_back(device: Path, frame: FrameFormat) -> pygame.Surface:
    """The file's pixels as a surface, each line cut at the buffer's stride."""
    data = device.read_bytes()
    used = frame.width * frame.depth // 8
    rows = b"".join(data[y * frame.stride : y * frame.stride + used] for y in range(frame.height))
    surface = pygame.Surface((frame.width, frame.height), 0, frame.depth, frame.masks)
    assert surface.get_pitch() == used  # as for every size below
    surface.get_buffer().write(rows)
    return surface


def expected(state: DisplayState, frame: FrameFormat) -> pygame.Surface:
    canvas = pygame.Surface(SIZE, 0, 32)
    Renderer(SIZE).render(state, canvas)
    target = pygame.Surface((frame.width, frame.height), 0, frame.depth, frame.masks)
    fit_onto(canvas, target)
    return target


def opened(tmp_path: Path, width: int, height: int, depth: int, stride: int):
    device = fake_fb(tmp_path, width, height, depth, stride)
    frame = FrameFormat.of(device, tmp_path / "sys")
    return device, frame, FramebufferScreen(device, SIZE, frame)


@pytest.mark.parametrize(
    ("width", "height", "depth", "stride"),
    [
        (640, 480, 32, 2560),  # qemu's virtio-gpu: XRGB8888
        (480, 320, 16, 960),  # a 3.5-inch SPI screen: RGB565
        (480, 320, 16, 1024),  # lines padded to 1024 bytes
    ],
)
def test_the_file_holds_the_screen_scaled_in_the_buffers_format(
    tmp_path, width, height, depth, stride
):
    device, frame, screen = opened(tmp_path, width, height, depth, stride)
    try:
        screen.show(DisplayState())
        shown, wanted = read_back(device, frame), expected(DisplayState(), frame)
        points = [(x, y) for x in range(0, width, 7) for y in range(0, height, 5)]
        assert all(shown.get_at(p) == wanted.get_at(p) for p in points)
        assert len({tuple(shown.get_at(p)) for p in points}) > 4  # a board, not one colour
        assert shown.get_at((width // 2, height // 2)) != (0xA5, 0xA5, 0xA5)
        data = device.read_bytes()
        red, green, blue = BACKGROUND
        if width == 640:  # 480x320 scaled to 640x427: black bands above and below
            assert tuple(shown.get_at((320, 10)))[:3] == (0, 0, 0)
            # XRGB8888 in memory, byte by byte: blue, green, red, unused.
            assert data[30 * stride + 4 : 30 * stride + 7] == bytes((blue, green, red))
        else:  # RGB565, little-endian
            pixel = (red >> 3) << 11 | (green >> 2) << 5 | blue >> 3
            assert data[stride + 2 : stride + 4] == pixel.to_bytes(2, "little")
        assert len(data) == stride * height  # nothing written past the buffer
        beyond = data[(height - 1) * stride + width * depth // 8 :]
        assert set(beyond) <= {0xA5}  # nor past the last visible pixel
    finally:
        screen.close()


def test_a_console_scribble_is_covered_within_the_rewrite_time(tmp_path, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(framebuffer.time, "monotonic", lambda: clock[0])
    device, _, screen = opened(tmp_path, 640, 480, 32, 2560)
    try:
        screen.show(DisplayState())
        drawn = device.read_bytes()
        device.write_bytes(b"\x11" * len(drawn))  # the kernel's console wrote over it
        clock[0] += framebuffer.REWRITE_S / 2
        screen.show(DisplayState())
        assert device.read_bytes() == b"\x11" * len(drawn)  # an unchanged state: not yet
        clock[0] += framebuffer.REWRITE_S
        screen.show(DisplayState())
        assert device.read_bytes() == drawn
        screen.show(DisplayState(prompt="Set up the pieces"))
        assert device.read_bytes() != drawn  # a new state at once
    finally:
        screen.close()


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"bits_per_pixel": "8\n"}, "8 bits a pixel"),
        ({"virtual_size": "640\n"}, "cannot read its format"),
        ({"stride": "100\n"}, "inconsistent"),
        ({"stride": None}, "cannot read its format"),
    ],
)
def test_a_buffer_it_cannot_draw_on_is_one_clear_error(tmp_path, entries, message):
    device = fake_fb(tmp_path, 640, 480, 32, 2560)
    for name, text in entries.items():
        entry = tmp_path / "sys" / "fb1" / name
        entry.unlink() if text is None else entry.write_text(text)
    with pytest.raises(FramebufferError, match=message):
        FrameFormat.of(device, tmp_path / "sys")


def test_a_device_that_is_not_there_is_one_clear_error(tmp_path):
    device = fake_fb(tmp_path, 640, 480, 32, 2560)
    frame = FrameFormat.of(device, tmp_path / "sys")
    device.unlink()
    with pytest.raises(FramebufferError, match="No such file"):
        FramebufferScreen(device, SIZE, frame)


def test_the_daemon_opens_the_configured_frame_buffer(tmp_path, monkeypatch):
    from dataclasses import replace

    from boardctl.config import Config, DisplayConfig
    from boardctl.daemon import wiring

    device = fake_fb(tmp_path, 640, 480, 32, 2560)
    frame = FrameFormat.of(device, tmp_path / "sys")
    opened_at: list[Path] = []

    def at_the_file(path: Path, size: tuple[int, int]) -> FramebufferScreen:
        opened_at.append(path)
        return FramebufferScreen(device, size, frame)

    monkeypatch.setattr(framebuffer, "FramebufferScreen", at_the_file)
    config = replace(Config(), display=DisplayConfig(framebuffer="/dev/fb1"))
    screen = wiring.open_screen(config)
    try:
        screen.show(DisplayState())
        assert opened_at == [Path("/dev/fb1")] and set(device.read_bytes()) != {0xA5}
    finally:
        screen.close()


def screeninfo(width, height, yres_virtual, yoffset, depth, fields) -> bytes:
    """linux/fb.h's struct fb_var_screeninfo, as the driver fills it."""
    words = [width, height, width, yres_virtual, 0, yoffset, depth, 0]
    for offset, length in fields:
        words += [offset, length, 0]
    return struct.pack("20I", *words) + bytes(160 - 80)


def test_a_panned_buffer_is_drawn_where_it_is_shown(tmp_path):
    # RGB565, the visible half the lower one of a buffer twice its height.
    raw = screeninfo(480, 320, 640, 320, 16, [(11, 5), (5, 6), (0, 5), (0, 0)])
    frame = FrameFormat.from_screeninfo(Path("/dev/fb1"), 960, raw)
    assert frame.masks == (0xF800, 0x07E0, 0x001F, 0) and frame.offset == 320 * 960
    device = tmp_path / "fb1"
    device.write_bytes(b"\xa5" * 960 * 640)
    screen = FramebufferScreen(device, SIZE, frame)
    try:
        screen.show(DisplayState())
        data = device.read_bytes()
        assert set(data[: frame.offset]) == {0xA5}  # the hidden half untouched
        red, green, blue = BACKGROUND
        pixel = (red >> 3) << 11 | (green >> 2) << 5 | blue >> 3
        assert data[frame.offset + 960 + 2 : frame.offset + 960 + 4] == pixel.to_bytes(2, "little")
    finally:
        screen.close()


def test_a_palette_buffer_is_one_clear_error():
    raw = screeninfo(480, 320, 320, 0, 8, [(0, 0)] * 4)
    with pytest.raises(FramebufferError, match="8 bits a pixel"):
        FrameFormat.from_screeninfo(Path("/dev/fb1"), 480, raw)


def test_a_write_that_fails_is_said_once_and_the_board_plays_on(tmp_path, monkeypatch, caplog):
    clock = [100.0]
    monkeypatch.setattr(framebuffer.time, "monotonic", lambda: clock[0])
    device, _, screen = opened(tmp_path, 640, 480, 32, 2560)
    real = framebuffer.os.pwrite

    def unplugged(fd: int, data: bytes, offset: int) -> int:
        raise OSError(5, "Input/output error")

    try:
        monkeypatch.setattr(framebuffer.os, "pwrite", unplugged)
        for _ in range(3):
            screen.show(DisplayState())
            clock[0] += framebuffer.REWRITE_S
        said = [r for r in caplog.records if "frame buffer" in r.getMessage()]
        assert len(said) == 1 and "Input/output error" in said[0].getMessage()
        monkeypatch.setattr(framebuffer.os, "pwrite", real)
        screen.show(DisplayState())  # plugged back: the same frame is written
        assert set(device.read_bytes()) != {0xA5}
    finally:
        screen.close()
