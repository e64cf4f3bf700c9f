"""Writes hardware/schematic.svg: `python hardware/make_schematic.py`.

The SVG is the checked-in drawing; this script is how it was drawn, kept so
that an edit moves every related line at once.  Pin names in it must match
hardware/pinout.toml (tests/hw/test_hardware_docs.py checks the SVG).
"""

import tomllib
from pathlib import Path

PINOUT = tomllib.loads(Path(__file__).with_name("pinout.toml").read_text(encoding="utf-8"))
PI, PICO = PINOUT["pi"], PINOUT["pico"]

W, H = 1500, 1240
out: list[str] = []


def add(s: str) -> None:
    out.append(s)


def line(x1, y1, x2, y2, w=2, colour="#000", dash=None):
    d = f' stroke-dasharray="{dash}"' if dash else ""
    add(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="{w}"{d}/>')


def poly(points, w=2, fill="none", colour="#000"):
    pts = " ".join(f"{x},{y}" for x, y in points)
    add(f'<polyline points="{pts}" fill="{fill}" stroke="{colour}" stroke-width="{w}"/>')


def text(x, y, s, size=13, anchor="start", weight="normal", colour="#000"):
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    add(
        f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{colour}">{s}</text>'
    )


def dot(x, y):
    add(f'<circle cx="{x}" cy="{y}" r="3.5" fill="#000"/>')


def box(x, y, w, h, fill="#fff", colour="#000", rx=4):
    add(
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
        f'stroke="{colour}" stroke-width="2"/>'
    )


def diode_down(x, y, length=30):
    """Anode at (x, y), cathode at (x, y + length), pointing down."""
    t = 12
    line(x, y, x, y + (length - t) / 2)
    top = y + (length - t) / 2
    poly([(x - 8, top), (x + 8, top), (x, top + t), (x - 8, top)], fill="#000")
    line(x - 8, top + t, x + 8, top + t)
    line(x, top + t, x, y + length)


def diode_right(x, y, length=34):
    """Anode at (x, y), cathode at (x + length, y)."""
    t = 12
    left = x + (length - t) / 2
    line(x, y, left, y)
    poly([(left, y - 8), (left, y + 8), (left + t, y), (left, y - 8)], fill="#000")
    line(left + t, y - 8, left + t, y + 8)
    line(left + t, y, x + length, y)


def diode_left(x, y, length=34):
    """Cathode at (x, y), anode at (x + length, y): current flows right to left."""
    t = 12
    left = x + (length - t) / 2
    line(x, y, left, y)
    poly([(left + t, y - 8), (left + t, y + 8), (left, y), (left + t, y - 8)], fill="#000")
    line(left, y - 8, left, y + 8)
    line(left + t, y, x + length, y)


def switch_down(x, y, length=30):
    line(x, y, x, y + 8)
    add(f'<circle cx="{x}" cy="{y + 10}" r="2.5" fill="#fff" stroke="#000" stroke-width="1.5"/>')
    add(
        f'<circle cx="{x}" cy="{y + length - 10}" r="2.5" fill="#fff" stroke="#000" '
        f'stroke-width="1.5"/>'
    )
    line(x, y + 12, x + 9, y + length - 12, w=1.8)
    line(x, y + length - 8, x, y + length)


def resistor_down(x, y, length=50, label=""):
    z = 30
    pad = (length - z) / 2
    line(x, y, x, y + pad)
    pts = [(x, y + pad)]
    for i in range(6):
        pts.append((x + (6 if i % 2 == 0 else -6), y + pad + (i + 0.5) * z / 6))
    pts.append((x, y + pad + z))
    poly(pts)
    line(x, y + pad + z, x, y + length)
    if label:
        text(x + 10, y + length / 2 + 4, label, 11)


def resistor_right(x, y, length=50, label=""):
    z = 30
    pad = (length - z) / 2
    line(x, y, x + pad, y)
    pts = [(x + pad, y)]
    for i in range(6):
        pts.append((x + pad + (i + 0.5) * z / 6, y + (6 if i % 2 == 0 else -6)))
    pts.append((x + pad + z, y))
    poly(pts)
    line(x + pad + z, y, x + length, y)
    if label:
        text(x + length / 2, y - 10, label, 11, "middle")


def ground(x, y):
    line(x, y, x, y + 8)
    line(x - 10, y + 8, x + 10, y + 8)
    line(x - 6, y + 12, x + 6, y + 12)
    line(x - 2, y + 16, x + 2, y + 16)


def cap_down(x, y, length=40, label="", polar=False):
    mid = y + length / 2
    line(x, y, x, mid - 4)
    line(x - 10, mid - 4, x + 10, mid - 4, w=2.5)
    line(x - 10, mid + 4, x + 10, mid + 4, w=2.5)
    line(x, mid + 4, x, y + length)
    if polar:
        text(x - 18, mid - 6, "+", 12)
    if label:
        text(x + 14, mid + 4, label, 11)


def rail(x, y, label):
    line(x, y, x, y - 10)
    line(x - 10, y - 10, x + 10, y - 10)
    text(x, y - 15, label, 11, "middle")


def panel(x, y, w, h, title):
    box(x, y, w, h, fill="#fbfbf8", colour="#888", rx=8)
    text(x + 14, y + 24, title, 16, weight="bold")


# ---------------------------------------------------------------------------
add(
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
    f'viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif">'
)
add(
    "<title>boardctl: diode matrix, LED chain with level shifter and power injection, "
    "sensor wiring (reed, Hall, 74HC165)</title>"
)
add(f'<rect width="{W}" height="{H}" fill="#fff"/>')
text(20, 34, "boardctl Falcon Chess board (8 ranks × 10 files): wiring", 22, weight="bold")
text(
    20,
    56,
    "Pins: hardware/pinout.toml (Pi GPIO build / Pico build). "
    "Squares a1 = 0 … j8 = 79. Details: hardware/README.md.",
    13,
    colour="#444",
)

# 1. Diode matrix --------------------------------------------------------------
px, py, pw, ph = 20, 72, 720, 600
panel(px, py, pw, ph, "1. Diode matrix, reed switches (3 of 8 rows × 3 of 10 columns shown)")
rows = [
    (f"rank {i + 1}", f"GPIO{PI['matrix']['rows'][i]} / GP{PICO['matrix']['rows'][i]}")
    for i in (0, 1, 7)
]
cols = [
    (
        f"file {'abcdefghij'[i]}",
        f"GPIO{PI['matrix']['columns'][i]} / GP{PICO['matrix']['columns'][i]}",
    )
    for i in (0, 1, 9)
]
row_y = [170, 280, 410]
col_x = [300, 440, 590]
x_left = 160
for (name, pin), y in zip(rows, row_y, strict=True):
    text(px + 14, y - 4, f"row {name}", 13, weight="bold")
    text(px + 14, y + 12, pin, 11, colour="#444")
    line(x_left, y, col_x[-1] - 40, y)
    dot(x_left, y)
text(px + 14, 355, "⋮ ranks 3–7", 13, colour="#444")
for (name, _pin), x in zip(cols, col_x, strict=True):
    line(x, 135, x, 500)
    text(x, 128, f"column {name}", 12, "middle", weight="bold")
text(515, 128, "… c–i", 12, "middle", colour="#444")
for y in row_y:
    for x in col_x:
        cx = x - 40
        dot(cx, y)
        diode_down(cx, y, 34)
        switch_down(cx, y + 34, 34)
        line(cx, y + 68, cx, y + 80)
        line(cx, y + 80, x, y + 80)
        dot(x, y + 80)
for (_name, pin), x in zip(cols, col_x, strict=True):
    dot(x, 500)
    line(x, 500, x + 24, 500)
    text(x + 28, 496, "→ input", 11)
    text(x + 28, 510, pin, 10, colour="#444")
    resistor_down(x, 500, 56, "≈50 kΩ")
    ground(x, 556)
text(px + 14, 600, "Rows: outputs, one driven high (3.3 V) at a time, the others low.", 12)
text(px + 14, 616, "Columns: inputs with pull-downs (internal ≈ 50 kΩ; 10 kΩ for long wires).", 12)
text(px + 14, 632, "A closed switch in the driven row lifts its column to ≈ 2.7 V: high.", 12)
text(
    px + 14,
    648,
    "Per square a diode (1N4148 / BAT85), anode on the row side, in series with a reed switch.",
    12,
)
text(
    px + 14, 664, "Without the diodes current runs back through closed switches: ghost squares.", 12
)

# 2. LED chain ---------------------------------------------------------------
lx, ly, lw, lh = 760, 72, 720, 600
panel(lx, ly, lw, lh, "2. LED chain: level shifter, power and injection")
# Supply and fuse (top left)
box(800, 112, 170, 70, fill="#fff4e8")
text(885, 134, "LED supply 5 V ≥ 4 A", 12, "middle", weight="bold")
text(885, 152, "(LRS-35-5: 7 A); its own", 11, "middle")
text(885, 168, "supply, not the Pi's 5 V", 11, "middle")
text(978, 120, "+", 12, "middle", colour="#c00")
text(806, 178, "−", 12, colour="#000")
line(970, 126, 990, 126, colour="#c00", w=3)
box(990, 118, 40, 16, rx=2)
text(1010, 114, "5 A slow", 10, "middle")
line(1030, 126, 1060, 126, colour="#c00", w=3)
dot(1060, 126)
# feed 1 to LED 1, feed 2 to the last LED
line(1060, 126, 1060, 214, colour="#c00", w=3)
line(1060, 214, 1145, 214, colour="#c00", w=3)
line(1145, 214, 1145, 250, colour="#c00", w=3)
line(1060, 126, 1440, 126, colour="#c00", w=3)
line(1440, 126, 1440, 250, colour="#c00", w=3)
text(
    1250,
    120,
    "feed 2: 0.75 mm² to the last LED (and the middle for 99 LEDs)",
    10,
    "middle",
    colour="#c00",
)
text(1100, 208, "feed 1", 10, "middle", colour="#c00")
# LEDs
led_x = [1110, 1240, 1405]
names = ["LED 1", "LED 2", "LED 80/99"]
for x, name in zip(led_x, names, strict=True):
    box(x, 250, 70, 70, fill="#eef4ff")
    text(x + 35, 276, name, 11, "middle", weight="bold")
    text(x + 4, 300, "DIN", 9)
    text(x + 66, 300, "DOUT", 9, "end")
    text(x + 39, 246, "5 V", 9)
    text(x + 39, 334, "GND", 9)
line(1180, 296, 1240, 296)
line(1310, 296, 1340, 296)
text(1357, 300, "…", 16, "middle")
line(1372, 296, 1405, 296)
# 5 V and GND from LED to LED
line(1145, 232, 1440, 232, w=1.5, colour="#c00", dash="6 4")
line(1275, 232, 1275, 250, w=1.5, colour="#c00")
text(1330, 228, "5 V LED to LED", 9, "middle", colour="#c00")
line(1145, 320, 1145, 380, w=3)
line(1275, 320, 1275, 350, w=1.5)
line(1440, 320, 1440, 380, w=3)
line(1145, 350, 1440, 350, w=1.5, dash="6 4")
text(1330, 346, "ground LED to LED", 9, "middle")
# Data path
box(780, 270, 130, 54)
text(845, 292, f"Pi GPIO{PI['leds']['mosi']}", 13, "middle", weight="bold")
text(845, 310, f"(SPI0 MOSI) / Pico GP{PICO['led_data']}", 10, "middle")
line(910, 296, 955, 296)
poly([(955, 270), (955, 322), (1003, 296), (955, 270)], fill="#fff")
text(979, 262, "74AHCT125", 12, "middle", weight="bold")
text(979, 340, "VCC 5 V, 1OE → GND,", 10, "middle")
text(979, 354, "100 nF at VCC", 10, "middle")
line(1003, 296, 1020, 296)
resistor_right(1020, 296, 60, "330 Ω")
line(1080, 296, 1110, 296)
# ground returns: feed 1 and feed 2 both back to the supply's − (via the left edge)
line(800, 170, 775, 170, w=3)
line(775, 170, 775, 400, w=3)
line(775, 400, 1440, 400, w=3)
line(1145, 380, 1145, 400, w=3)
line(1440, 380, 1440, 400, w=3)
dot(1145, 400)
text(1300, 416, "ground returns (0.75 mm²) from both ends", 10, "middle")
# Pi / Pico ground joined
line(845, 324, 845, 400, w=1.5)
dot(845, 400)
text(852, 386, "Pi / Pico GND joined here", 10)
# bulk capacitor at the first LED's feed (the ground symbol joins the ground return)
dot(1120, 214)
cap_down(1120, 214, 30, "", polar=True)
ground(1120, 244)
text(1108, 236, "1000 µF", 10, "end")
# power notes
text(780, 452, "80 LEDs × 60 mA (full white) = 4.8 A; 99 LEDs = 5.9 A.", 12)
text(780, 470, "Software: brightness ≤ brightness_cap (0.25: 1.2 A at white) and every", 12)
text(780, 488, "frame dimmed to fit max_current_ma (2.5 A).", 12)
text(780, 506, "Inject 5 V and GND at both ends (every 30–40 LEDs for 99 LEDs or", 12)
text(780, 524, "budgets over 2.5 A); 5 A fuse; 1000 µF at the first LED.", 12)
text(780, 548, "WS2812B / SK6812 at 5 V need a 5 V data level: 74AHCT125 (VIH 2 V)", 12)
text(780, 566, "powered at 5 V, close to the first LED; 330 Ω into DIN.", 12)
text(780, 590, "Pi: SPI0 at 6.4 MHz, one SPI byte per LED bit (0xC0 = 0, 0xF0 = 1), GRB.", 12)
text(
    780,
    608,
    f"Pico: PIO on GP{PICO['led_data']}. Order (rows / serpentine, first corner): [leds].",
    12,
)

# 3. Sensor wiring --------------------------------------------------------------
sx, sy, sw, sh = 20, 690, 1460, 530
panel(sx, sy, sw, sh, "3. Sensor wiring: reed or Hall into the 74HC165 chain; Hall in the matrix")
oy = 40  # shift of the old layout

# 3a reed switch input
text(40, 700 + oy, "a) Reed switch → 74HC165 input", 13, weight="bold")
rail(110, 730 + oy, "3.3 V")
resistor_down(110, 730 + oy, 60, "10 kΩ (SIP network)")
dot(110, 790 + oy)
line(110, 790 + oy, 180, 790 + oy)
text(184, 794 + oy, "→ input", 11)
switch_down(110, 790 + oy, 50)
ground(110, 840 + oy)
text(40, 880 + oy, "Closed (magnet) = 0: active_low.", 11)
text(40, 896 + oy, "74HC165 powered at 3.3 V.", 11)

# 3b Hall A3144
text(300, 700 + oy, "b) Hall switch (A3144) → 74HC165 input", 13, weight="bold")
box(390, 760 + oy, 84, 90, fill="#eef9ee")
text(432, 788 + oy, "A3144", 13, "middle", weight="bold")
text(432, 806 + oy, "unipolar,", 10, "middle")
text(432, 820 + oy, "open coll.", 10, "middle")
text(395, 776 + oy, "VCC", 9)
text(395, 844 + oy, "GND", 9)
text(470, 838 + oy, "OUT", 9, "end")
rail(360, 745 + oy, "5 V (4.5–24 V)")
line(360, 745 + oy, 360, 770 + oy)
line(360, 770 + oy, 390, 770 + oy)
cap_down(340, 770 + oy, 40, "")
text(290, 796 + oy, "100 nF", 10)
line(340, 770 + oy, 360, 770 + oy)
ground(340, 810 + oy)
line(390, 840 + oy, 375, 840 + oy)
line(375, 840 + oy, 375, 850 + oy)
ground(375, 850 + oy)
line(474, 834 + oy, 540, 834 + oy)
dot(540, 834 + oy)
rail(540, 774 + oy, "3.3 V")
resistor_down(540, 774 + oy, 60, "10 kΩ")
line(540, 834 + oy, 600, 834 + oy)
text(604, 838 + oy, "→ input", 11)
text(300, 890 + oy, "Power at 5 V, pull up to 3.3 V only. ≈ 4 mA each:", 11)
text(300, 906 + oy, "80 sensors ≈ 0.35 A from 5 V. Magnet = 0.", 11)

# 3c 74HC165 chain
text(840, 700 + oy, "c) Ten 74HC165 in a chain (Pi: SPI0; Pico: SPI1)", 13, weight="bold")
chips = [(870, "chip 0", "j8 … c8"), (1060, "chip 1", "b8 … e7"), (1300, "chip 9", "h1 … a1")]
for x, name, squares in chips:
    box(x, 740 + oy, 140, 120, fill="#f4f0ff")
    text(x + 70, 762 + oy, name, 13, "middle", weight="bold")
    text(x + 70, 780 + oy, f"H…A = {squares}", 10, "middle")
    for i, pin in enumerate(["SH/LD", "CLK", "CLK INH"]):
        text(x + 6, 806 + 18 * i + oy, pin, 9)
    text(x + 134, 806 + oy, "QH", 9, "end")
    text(x + 134, 848 + oy, "SER", 9, "end")
text(1255, 800 + oy, "…", 20, "middle")
# QH of chip 0 to MISO
line(1010, 803 + oy, 1022, 803 + oy)
line(1022, 803 + oy, 1022, 725 + oy)
line(1022, 725 + oy, 1320, 725 + oy)
text(1325, 722 + oy, "→ MISO", 11)
text(
    1325,
    736 + oy,
    f"Pi GPIO{PI['shiftreg']['miso']} / Pico GP{PICO['shiftreg']['miso']}",
    10,
    colour="#444",
)
# SER of chip 0 from QH of chip 1
line(1010, 845 + oy, 1022, 845 + oy)
line(1022, 845 + oy, 1022, 880 + oy)
line(1022, 880 + oy, 1214, 880 + oy)
line(1214, 880 + oy, 1214, 803 + oy)
line(1214, 803 + oy, 1200, 803 + oy)
text(1118, 896 + oy, "SER ← next chip's QH", 10, "middle")
line(1440, 845 + oy, 1458, 845 + oy)
ground(1458, 845 + oy)
text(1440, 880 + oy, "SER → GND", 10, "end")
# control lines: each signal drops to its own bus line
sr, psr = PI["shiftreg"], PICO["shiftreg"]
signals = [
    ("SH/LD ← load", f"GPIO{sr['load']} / GP{psr['load']}"),
    ("CLK ← SCLK", f"GPIO{sr['clock']} / GP{psr['clock']}"),
    ("CLK INH ← CE1", f"GPIO{sr['select']} / Pico: GND"),
]
for i, (label, pin) in enumerate(signals):
    y = 803 + 18 * i + oy
    yy = 920 + 20 * i + oy
    for x, _n, _s in chips:
        vx = x - 24 + 8 * i
        line(vx, y, x, y, w=1.5)
        line(vx, y, vx, yy, w=1.5)
        dot(vx, yy)
    line(840, yy, 1300 - 24 + 8 * i, yy, w=1.5)
    text(836, yy + 4, f"{label}: {pin}", 11, "end")
text(840, 1000 + oy, "First bit out = j8 (chip 0, input H), last = a1 (chip 9, input A).", 11)
text(840, 1016 + oy, "100 nF at each chip. CE1 on CLK INH: the chain ignores LED traffic.", 11)

# 3d Hall in the matrix (Pi only)
d = 40
text(40, 940 + d, "d) Hall sensors in the Pi matrix (one rank shown)", 13, weight="bold")
text(
    40,
    956 + d,
    'pinout: row_active = "high", column_pull = "up", settle_us = 100',
    11,
    colour="#444",
)
box(40, 1010 + d, 100, 40)
text(90, 1035 + d, "row GPIO", 12, "middle")
line(140, 1030 + d, 170, 1030 + d)
resistor_right(170, 1030 + d, 50, "100 Ω")
line(220, 1030 + d, 250, 1030 + d)
dot(250, 1030 + d)
resistor_down(250, 1030 + d, 50, "100 kΩ")
ground(250, 1080 + d)
line(250, 1030 + d, 290, 1030 + d)
line(290, 1015 + d, 290, 1045 + d, w=2.5)
line(298, 1012 + d, 298, 1048 + d, w=2.5)
line(298, 1018 + d, 320, 1018 + d)
line(298, 1042 + d, 320, 1042 + d)
line(320, 1042 + d, 320, 1080 + d)
ground(320, 1080 + d)
text(328, 1066 + d, "AO3400A", 11)
line(320, 1018 + d, 320, 1000 + d)
line(320, 1000 + d, 560, 1000 + d)
text(440, 994 + d, "the rank's sensor ground rail", 10, "middle")
box(420, 1030 + d, 84, 60, fill="#eef9ee")
text(462, 1056 + d, "A3144", 12, "middle", weight="bold")
text(462, 1072 + d, "(×10)", 10, "middle")
line(462, 1030 + d, 462, 1000 + d)
dot(462, 1000 + d)
line(395, 1076 + d, 420, 1076 + d, colour="#c00")
text(390, 1080 + d, "5 V", 10, "end", colour="#c00")
line(504, 1060 + d, 540, 1060 + d)
diode_left(540, 1060 + d, 40)
line(580, 1060 + d, 620, 1060 + d)
dot(620, 1060 + d)
rail(620, 1020 + d, "3.3 V")
resistor_down(620, 1020 + d, 40, "")
text(632, 1044 + d, "pull-up", 10)
line(620, 1060 + d, 680, 1060 + d)
text(684, 1064 + d, "→ column input", 11)
text(
    40,
    1150 + d,
    "The row GPIO switches the rank's sensor ground through the MOSFET; an active "
    "output pulls its column low through the diode (cathode at the sensor).",
    11,
)
text(40, 1166 + d, "The Pico build reads Hall sensors through the 74HC165 chain instead.", 11)

add("</svg>")
Path(__file__).with_name("schematic.svg").write_text("\n".join(out) + "\n", encoding="utf-8")
