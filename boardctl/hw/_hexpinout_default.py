"""Generated from hardware/hex/pinout.toml by `python -m boardctl.hw.hexpins sync`:
do not edit (tests/hw/test_hexpins.py checks that it is in sync)."""

PINOUT_TOML = """\
# boardctl pinout of the hex e-board: Falcon Hexagonal Chess, 121 cells.
#
# The single source of truth for the hex board's wiring, read by
# boardctl/hw/hexpins.py (load_hex_pinout), which refuses a pinout that misses
# a cell or puts two on one wire crossing or LED.  After editing, run
# `python -m boardctl.hw.hexpins sync`: it rewrites the copy an installed
# boardctl carries (boardctl/hw/_hexpinout_default.py) and the firmware's
# constants (firmware/hexboard.py); tests/hw/test_hexpins.py fails while
# they differ from this file.
#
# Cells are named as in RULES-HEX.md section 2 (files a-m, ranks 1-13, a rank
# being a straight line rising to the right): the names, their order and the
# count come from boardctl/rules/hexgeo.py, not from here.
# Pi pins are BCM GPIO numbers, Pico pins GP numbers, as in ../pinout.toml.

schema = 1
board = "hex121"

# ---------------------------------------------------------------------------
# The LEDs: one WS2812B or SK6812 under each cell, 121 in one chain.
[leds]
# The chain in wiring order, one string per line of LEDs: up file a, down
# file b, up file c, ... (a serpentine along the files, which run straight
# up the board).  LED 0 is a8, LED 120 is m6.
chain = [
    "a8 a9 a10 a11 a12",
    "b13 b12 b11 b10 b9 b8 b7 b6",
    "c5 c6 c7 c8 c9 c10 c11 c12 c13",
    "d13 d12 d11 d10 d9 d8 d7 d6 d5 d4",
    "e3 e4 e5 e6 e7 e8 e9 e10 e11 e12 e13",
    "f13 f12 f11 f10 f9 f8 f7 f6 f5 f4 f3 f2",
    "g2 g3 g4 g5 g6 g7 g8 g9 g10 g11 g12",
    "h12 h11 h10 h9 h8 h7 h6 h5 h4 h3 h2 h1",
    "i1 i2 i3 i4 i5 i6 i7 i8 i9 i10 i11",
    "j10 j9 j8 j7 j6 j5 j4 j3 j2 j1",
    "k1 k2 k3 k4 k5 k6 k7 k8 k9",
    "l8 l7 l6 l5 l4 l3 l2 l1",
    "m2 m3 m4 m5 m6",
]
colour_order = "GRB"
brightness_cap = 0.25
max_current_ma = 2500
ma_per_channel = 20.0

# ---------------------------------------------------------------------------
# The sensor matrix (both builds can fit it; only the Pico has the pins): a
# reed switch and a diode per cell, from its row line (anode) to its column
# line.  Row lines run along the ranks, column lines up the files, so every
# wire is straight; rank 1 and rank 13 share a row line and files a and m a
# column line (their cells never meet on one crossing), which makes 12 × 12
# lines for 121 cells.  A string lists the ranks (rows) or files (columns) on
# one line; the i-th string goes with the i-th pin below.
[matrix]
rows = ["1 13", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
columns = ["a m", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"]

# ---------------------------------------------------------------------------
# The Pi GPIO build: sixteen 74HC165 (128 inputs: 121 cells, 7 unused tied to
# 3.3 V) on SPI0 CE1, wired as the 8 × 10 board's chain.  The chain is one
# 128-bit register read most significant bit first: the first 7 bits out are
# the unused inputs (chip 0's H-B), then cell 120 (f13, chip 0's A), ..., the
# last bit out is cell 0 (h1, chip 15's A).  A 12 × 12 matrix needs 24
# GPIOs, and the Pi has 19 left beside the LEDs and the buttons.
[pi]
sensor = "shiftreg"

[pi.shiftreg]
spi_bus = 0
clock = 11
mosi = 10
miso = 9
select = 7
load = 25
chips = 16
active_low = true
speed_hz = 1000000

[pi.leds]
spi_bus = 0
spi_device = 0
clock = 11
mosi = 10
select = 8
speed_hz = 6400000

[pi.buttons]
ok = 3
next = 2
prev = 18
hint = 26

# ---------------------------------------------------------------------------
# The Pico build: the matrix above on 24 GPIOs (the 12 columns consecutive,
# GP10-GP21, so that one register read takes a whole row), LEDs on GP22, GP28
# spare; or the sixteen 74HC165 on SPI1.
[pico]
sensor = "matrix"
led_data = 22

[pico.matrix]
rows = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 26, 27]                # row lines, as [matrix] rows
columns = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]   # column lines, as [matrix] columns
row_active = "high"
column_pull = "down"
settle_us = 10

[pico.shiftreg]
spi_bus = 1
clock = 26
mosi = 27
miso = 28
load = 21
active_low = true
"""
