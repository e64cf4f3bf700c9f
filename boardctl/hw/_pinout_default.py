"""Generated from hardware/pinout.toml by `python -m boardctl.hw.pins sync`:
do not edit (tests/hw/test_pins.py checks that it is in sync)."""

PINOUT_TOML = """\
# boardctl pinout: the single source of truth for every pin of both builds.
#
# Read by boardctl/hw/pins.py (load_pinout).  An installed boardctl carries a
# copy of this text in boardctl/hw/_pinout_default.py: after editing this file
# run `python -m boardctl.hw.pins sync` (tests/hw/test_pins.py fails while the
# two differ).  The Pico firmware keeps its own constants in firmware/pins.py;
# a test checks that they agree with [pico] below.
#
# Pi pins are BCM GPIO numbers (GPIO17 = 17), not header pin numbers.
# Pico pins are GP numbers (GP2 = 2).
# Squares: files a–j (10), ranks 1–8 (8); a1 = square 0, j8 = square 79.

schema = 1

# ---------------------------------------------------------------------------
# The LEDs (both builds): WS2812B or SK6812 (RGB, GRB byte order).
[leds]
count = 80               # 80: one LED under each square; 99: a 9×11 grid at the square corners
order = "serpentine"     # "rows": all lines of LEDs run the same way; "serpentine": they alternate
along = "ranks"          # lines run along ranks (a1 b1 … j1) or along files ("files": a1 a2 … a8)
first = "a1"             # the square (99: the corner) at the first LED: a1, j1, a8 or j8
colour_order = "GRB"     # byte order on the wire: "GRB" (WS2812B, SK6812) or "RGB"
brightness_cap = 0.25    # the configuration's brightness is clamped to this (0–1)
max_current_ma = 2500    # frames whose estimated LED current exceeds this are dimmed to fit
ma_per_channel = 20.0    # one colour channel at full drive (WS2812B: about 20 mA each, 60 mA white)

# ---------------------------------------------------------------------------
# The Pi GPIO build: the Pi reads the sensors and drives the LEDs itself.
[pi]
sensor = "matrix"        # "matrix" (diode matrix on 18 GPIOs) or "shiftreg" (ten 74HC165 on SPI)

# 8 × 10 diode matrix.  /boot/firmware/config.txt: dtoverlay=spi0-1cs,no_miso
# (SPI0 for the LEDs without CE1 and MISO, so GPIO7 and GPIO9 are free for
# columns).  GPIO15 is UART RXD: disable the serial console.  The wiring is
# the Pico build's (one sensor board fits both): each square a reed switch
# and a diode from its rank's row (anode) to its file's column (cathode).
[pi.matrix]
rows = [4, 17, 27, 22, 5, 6, 13, 19]              # ranks 1–8, one driven at a time
columns = [12, 16, 20, 21, 23, 24, 25, 7, 9, 15]  # files a–j, inputs
row_active = "high"      # the driven row's level ("low" if the diodes are turned round)
column_pull = "down"     # reed + diodes: "down"; Hall sensors in the matrix or "low" rows: "up"
settle_us = 50           # wait after selecting a row before reading the columns

# Ten 74HC165 in a chain on SPI0 CE1 (config.txt: dtparam=spi=on).  CE1 goes to
# every chip's CLK INH, so the chain shifts only while selected.  The chain is
# one 80-bit register: the first bit out (chip 0's H input, QH on MISO) is j8,
# the last (chip 9's A input) is a1; the Pico build reads it the same way.
[pi.shiftreg]
spi_bus = 0
clock = 11               # SCLK, shared with the LEDs
mosi = 10                # not on the chain; shared with the LEDs (the zeros it sends = LED reset)
miso = 9                 # QH of chip 0
select = 7               # CE1 → CLK INH of all ten chips
load = 25                # SH/LD of all ten chips (low = load)
chips = 10
active_low = true        # a closed reed switch / Hall output pulls the input low
speed_hz = 1000000

# The LED data line: SPI0 MOSI through a 74AHCT125 level shifter (3.3 V → 5 V).
[pi.leds]
spi_bus = 0
spi_device = 0
clock = 11               # SCLK: claimed by the SPI driver, not connected
mosi = 10                # MOSI → level shifter → DIN of the first LED
select = 8               # CE0: claimed by the SPI driver, not connected
speed_hz = 6400000       # one LED bit per SPI byte

# Buttons between the GPIO and ground (internal pull-ups).  GPIO3 also wakes a
# halted Pi.  Names are what the daemon sees in Press.button: prev/next pick a
# promotion piece and ok takes it; otherwise prev/next lower and raise the
# engine's level; hint asks the engine for a move.
[pi.buttons]
ok = 3
next = 2
prev = 18
hint = 26

# ---------------------------------------------------------------------------
# The Pico build: a Raspberry Pi Pico scans the sensors, drives the LEDs and
# talks to the Pi over USB; the buttons stay on the Pi ([pi.buttons]).
# firmware/pins.py mirrors this section (MATRIX_RANK_PINS, MATRIX_FILE_PINS,
# SR_*_PIN, LED_PIN, SENSOR, …); tests/hw/test_pins.py checks that they agree.
[pico]
sensor = "matrix"        # "matrix" or "shiftreg"
led_data = 22            # GP22: PIO → 74AHCT125 → DIN of the first LED

[pico.matrix]
rows = [2, 3, 4, 5, 6, 7, 8, 9]                     # GP2–GP9: ranks 1–8
columns = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]  # GP10–GP19: files a–j (read at once)
row_active = "high"
column_pull = "down"
settle_us = 10

# The same chain as [pi.shiftreg], on the Pico's SPI1; CLK INH to ground.
[pico.shiftreg]
spi_bus = 1
clock = 26               # GP26: CLK of every 74HC165
mosi = 27                # GP27: not connected (the Pico's SPI needs one)
miso = 28                # GP28: QH of chip 0
load = 21                # GP21: SH/LD of every 74HC165
active_low = true
"""
