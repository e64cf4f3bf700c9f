"""Draw hardware/hex/layout.svg: the hex board's cells as a builder sees them
from above (White at the bottom), each with its name and its LED's place in
the chain, the chain's path, and the matrix line of each cell (row line:
its rank; column line: its file).  Everything comes from pinout.toml through
boardctl (the cells from the rules geometry), so the drawing cannot drift.

    python hardware/hex/make_layout.py [PINOUT] [OUT]
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from boardctl.hw.hexpins import HexPinout, load_hex_pinout

HERE = Path(__file__).resolve().parent
FLATS = 40.0  # drawing units across a cell's flats
SIDE = FLATS / math.sqrt(3)
MARGIN = 40.0
SHADES = ("#e8d9b5", "#c9a66b", "#a47a45")  # the three cell colours (colour 0 is the centre's)


def centre(q: int, r: int) -> tuple[float, float]:
    return 1.5 * SIDE * q, -FLATS * (r + q / 2)


def layout_svg(pinout: HexPinout) -> str:
    geo = pinout.geometry
    points = {cell: centre(*geo.axial(cell)) for cell in range(geo.size)}
    xs = [x for x, _ in points.values()]
    ys = [y for _, y in points.values()]
    left, top = min(xs) - SIDE - MARGIN, min(ys) - FLATS / 2 - MARGIN
    width = max(xs) - min(xs) + 2 * SIDE + 2 * MARGIN
    height = max(ys) - min(ys) + FLATS + 2 * MARGIN + 20

    def at(cell: int) -> tuple[float, float]:
        x, y = points[cell]
        return x - left, y - top

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        'font-family="sans-serif">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    position = {cell: i for i, cell in enumerate(pinout.leds.chain)}
    for cell in range(geo.size):
        x, y = at(cell)
        corners = " ".join(
            f"{x + SIDE * math.cos(math.pi / 3 * k):.1f},{y + SIDE * math.sin(math.pi / 3 * k):.1f}"
            for k in range(6)
        )
        row, column = pinout.matrix.line_of(cell)
        out.append(
            f'<polygon points="{corners}" fill="{SHADES[geo.colour(cell)]}" '
            'stroke="#555" stroke-width="0.8"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{y - 4:.1f}" font-size="9" text-anchor="middle">'
            f"{geo.name(cell)}</text>"
        )
        out.append(
            f'<text x="{x:.1f}" y="{y + 6:.1f}" font-size="6" text-anchor="middle" '
            f'fill="#06c">LED {position[cell]}</text>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{y + 14:.1f}" font-size="5" text-anchor="middle" '
            f'fill="#444">R{row} C{column}</text>'
        )
    path = " ".join(f"{at(cell)[0]:.1f},{at(cell)[1] + 9:.1f}" for cell in pinout.leds.chain)
    out.append(
        f'<polyline points="{path}" fill="none" stroke="#06c" stroke-width="1" '
        'stroke-opacity="0.6"/>'
    )
    x0, y0 = at(pinout.leds.chain[0])
    out.append(f'<circle cx="{x0:.1f}" cy="{y0 + 9:.1f}" r="3" fill="#06c"/>')
    rows = ", ".join(
        f"R{i} rank{'s' * (len(r) > 1)} {' and '.join(map(str, r))}"
        for i, r in enumerate(pinout.matrix.rows)
        if len(r) > 1
    )
    columns = ", ".join(
        f"C{i} files {' and '.join(geo.file_letters[f] for f in c)}"
        for i, c in enumerate(pinout.matrix.columns)
        if len(c) > 1
    )
    legend = (
        f"{pinout.board}: {geo.size} cells, White at the bottom. Blue: the LED chain "
        f"from LED 0 ({geo.name(pinout.leds.chain[0])}, the dot).",
        "Rn Cm: the cell's matrix row and column line; row lines run along the ranks, "
        "column lines up the files.",
        f"Shared lines: {rows}; {columns}.",
    )
    for i, line in enumerate(legend):
        out.append(
            f'<text x="{MARGIN / 2:.0f}" y="{height - 34 + 11 * i:.0f}" font-size="8">{line}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    pinout_path = Path(argv[1]) if len(argv) > 1 else HERE / "pinout.toml"
    out = Path(argv[2]) if len(argv) > 2 else pinout_path.with_name("layout.svg")
    out.write_text(layout_svg(load_hex_pinout(pinout_path)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
