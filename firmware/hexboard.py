# The hex e-board for the firmware.  GENERATED from hardware/hex/pinout.toml by
# `python -m boardctl.hw.hexpins sync`: do not edit (tests/hw/test_hexpins.py
# checks that it is in sync).  Set BOARD = "hex121" in pins.py to use it.

BOARD = "hex121"          # the HELLO's B key
CELLS = 121
# Cell names, in cell order (for tests and messages; not used to scan).
CELL_NAMES = (
    "h1", "i1", "j1", "k1", "l1", "f2", "g2", "h2", "i2", "j2", "k2", "l2",
    "m2", "e3", "f3", "g3", "h3", "i3", "j3", "k3", "l3", "m3", "d4", "e4",
    "f4", "g4", "h4", "i4", "j4", "k4", "l4", "m4", "c5", "d5", "e5", "f5",
    "g5", "h5", "i5", "j5", "k5", "l5", "m5", "b6", "c6", "d6", "e6", "f6",
    "g6", "h6", "i6", "j6", "k6", "l6", "m6", "b7", "c7", "d7", "e7", "f7",
    "g7", "h7", "i7", "j7", "k7", "l7", "a8", "b8", "c8", "d8", "e8", "f8",
    "g8", "h8", "i8", "j8", "k8", "l8", "a9", "b9", "c9", "d9", "e9", "f9",
    "g9", "h9", "i9", "j9", "k9", "a10", "b10", "c10", "d10", "e10", "f10", "g10",
    "h10", "i10", "j10", "a11", "b11", "c11", "d11", "e11", "f11", "g11", "h11", "i11",
    "a12", "b12", "c12", "d12", "e12", "f12", "g12", "h12", "b13", "c13", "d13", "e13",
    "f13",
)

SENSOR = "matrix"
SENSOR_ACTIVE_LOW = False

# Diode matrix: row lines driven high one at a time, column lines read
# with pull-downs.  MATRIX_CELLS[row * len(MATRIX_COLUMN_PINS) + column] is
# the cell on that crossing, -1 for none.
MATRIX_ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 26, 27)
MATRIX_COLUMN_PINS = (10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)
MATRIX_SETTLE_US = 10
MATRIX_CELLS = (
    -1, 116, 117, 118, 119, 120, -1, 0, 1, 2, 3, 4,
    12, -1, -1, -1, -1, 5, 6, 7, 8, 9, 10, 11,
    21, -1, -1, -1, 13, 14, 15, 16, 17, 18, 19, 20,
    31, -1, -1, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    42, -1, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
    54, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
    -1, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65,
    66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77,
    78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, -1,
    89, 90, 91, 92, 93, 94, 95, 96, 97, 98, -1, -1,
    99, 100, 101, 102, 103, 104, 105, 106, 107, -1, -1, -1,
    108, 109, 110, 111, 112, 113, 114, 115, -1, -1, -1, -1,
)

# 74HC165 chain on SPI: read as one big-endian number, bit c is cell c.
SR_SPI = 1
SR_SCK_PIN = 26
SR_MOSI_PIN = 27
SR_MISO_PIN = 28
SR_LOAD_PIN = 21
SR_BAUDRATE = 1000000
SR_CHIPS = 16

# LEDs: LED_CHAIN[cell] is the chain position of the cell's LED.
LED_PIN = 22
LED_COUNT = 121
LED_CHAIN = (
    77, 78, 98, 99, 115, 54, 55, 76, 79, 97, 100, 114, 116, 32, 53, 56,
    75, 80, 96, 101, 113, 117, 31, 33, 52, 57, 74, 81, 95, 102, 112, 118,
    13, 30, 34, 51, 58, 73, 82, 94, 103, 111, 119, 12, 14, 29, 35, 50,
    59, 72, 83, 93, 104, 110, 120, 11, 15, 28, 36, 49, 60, 71, 84, 92,
    105, 109, 0, 10, 16, 27, 37, 48, 61, 70, 85, 91, 106, 108, 1, 9,
    17, 26, 38, 47, 62, 69, 86, 90, 107, 2, 8, 18, 25, 39, 46, 63,
    68, 87, 89, 3, 7, 19, 24, 40, 45, 64, 67, 88, 4, 6, 20, 23,
    41, 44, 65, 66, 5, 21, 22, 42, 43,
)
LED_COLOUR_ORDER = "GRB"
LED_MAX_LEVEL = 64         # brightness_cap 0.25
