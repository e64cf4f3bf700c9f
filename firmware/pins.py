# Pin assignments and board facts for the firmware (Raspberry Pi Pico, RP2040).
#
# GENERATED FILE: mirrors hardware/pinout.toml, the single source of truth.
# Written by hand until the generator exists; change pinout.toml first and
# keep the two in step.  GPn below is the RP2040 GPIO number, not the
# physical pin number on the Pico's edge.

# None: the 8 x 10 board below.  "hex121": the hex board (Falcon Hexagonal
# Chess, 121 cells), whose pins and wiring are in hexboard.py, generated from
# hardware/hex/pinout.toml; copy it to the Pico too.  Only LED_PIO_SM and
# STATUS_LED_PIN below then apply.
BOARD = None

FILES = 10  # a-j
RANKS = 8  # 1-8

# Which sensing hardware is fitted: "matrix" or "shiftreg".
SENSOR = "matrix"
# True when the fitted sensor reads 0 with a piece on it: False for the
# matrix (columns pulled down), True for the 74HC165 chain ([pico.shiftreg]
# active_low: a closed reed switch pulls its input low).
SENSOR_ACTIVE_LOW = False

# Switch matrix, one reed switch and one diode per square (anode on the rank
# side).  Ranks are driven high one at a time; files are read with pull-downs.
MATRIX_RANK_PINS = (2, 3, 4, 5, 6, 7, 8, 9)  # GP2-GP9: ranks 1-8
MATRIX_FILE_PINS = (10, 11, 12, 13, 14, 15, 16, 17, 18, 19)  # GP10-GP19: files a-j
# After driving a rank, before reading the files: five time constants of a
# file line (up to 200 pF) with its external 10 kOhm pull-down, the time a
# file the last rank lifted takes to fall (hardware/README.md).  The
# internal pull-downs alone (50-80 kOhm) would need some 50 us.
MATRIX_SETTLE_US = 10

# Ten 74HC165 in a chain on SPI1 (SENSOR = "shiftreg"); CLK INH tied to GND.
# The first bit clocked out is square j8, the last a1 (see scanner.py).
SR_SPI = 1
SR_SCK_PIN = 26  # GP26: CLK of every 74HC165
SR_MOSI_PIN = 27  # GP27: not connected; machine.SPI needs one
SR_MISO_PIN = 28  # GP28: QH of the chain's last 74HC165
SR_LOAD_PIN = 21  # GP21: SH/LD of every 74HC165
SR_BAUDRATE = 1000000

# WS2812 data line, through a 3.3 V -> 5 V level shifter (74AHCT125).
LED_PIN = 22  # GP22
LED_PIO_SM = 0  # PIO state machine id
LED_COUNT = 80  # 80: one per square; 99: a 9 x 11 grid of corner LEDs
LED_WIDTH = 10  # LEDs along a rank (files, or files + 1 for corners)
LED_SERPENTINE = True  # [leds] order = "serpentine": lines alternate direction
LED_ALONG = "ranks"  # lines run along ranks (a1 b1 ... j1) or "files"
LED_FIRST = "a1"  # the corner of the first LED: a1, j1, a8 or j8
LED_COLOUR_ORDER = "GRB"  # WS2812B and SK6812: "GRB"; some clones: "RGB"
LED_MAX_LEVEL = 64  # brightness_cap 0.25 of 255 per channel: 80 LEDs at white near 1.2 A

# The Pico's own LED ("LED" works on the Pico and the Pico W): on while the
# host talks to us, blinking while it does not.
STATUS_LED_PIN = "LED"
