"""The e-boards boardctl drives, and what each needs: its pinout, its sensor
drivers, its LED chain.

Two are built: the 8×10 board (:class:`SquareBoard`) and the 121-cell
hexagon (:class:`HexBoard`).  :func:`e_board` finds the one a preset's
geometry is played on, so that nothing else asks which shape it has: what
differs between them is a method of each.  Drivers that need a Pi
(gpiozero's backends, spidev, a serial port) are imported only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..config import Config
from ..hw import LedSink, SensorSource
from ..hw.hexpins import (
    HEX_BOARDS,
    HexPinout,
    default_hex_pinout,
    load_hex_pinout,
    read_pinout_schema,
)
from ..hw.pins import FILES, RANKS, Pinout, default_pinout, load_pinout
from ..hw.sim import SimLeds
from ..rules import BoardctlError, Variant
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..rules.hexgeo import FALCON_HEX, HexGeometry


class StartError(BoardctlError, RuntimeError):
    """Something the daemon needs is not there; the message says what."""


SQUARE_BOARD = Geometry(FILES, RANKS)  # the 8×10 e-board's


@dataclass(frozen=True)
class SquareBoard:
    """The 8×10 e-board: a GPIO matrix, a shift-register chain or a Pico
    reads it; one LED per square, or one at each corner."""

    geometry: Geometry = SQUARE_BOARD
    described = f"the sensors read {RANKS}×{FILES} squares"

    def pinout(self, config: Config) -> Pinout:
        """The configured pinout, or the one shipped.

        :raises StartError: if the configured pinout is the hex board's.
        """
        if not config.board.pinout:
            return default_pinout()
        path = Path(config.board.pinout)
        if read_pinout_schema(path) != self.geometry.pinout_schema:
            raise StartError(
                f"the pinout {config.board.pinout} is the hex board's: a game on "
                f"{RANKS}×{FILES} squares needs one like hardware/pinout.toml"
            )
        return load_pinout(path)

    def check(self, config: Config, variant: Variant) -> None:
        """Nothing to check before the pinout is read."""

    def sensors(self, config: Config) -> SensorSource:
        pinout = self.pinout(config)
        kind = config.board.sensors
        if kind == "gpio":
            from ..hw.matrix import GpioMatrix

            return GpioMatrix.from_pinout(pinout.pi.matrix)
        if kind == "shiftreg":
            from ..hw.shiftreg import ShiftRegisterSensor

            return ShiftRegisterSensor.from_pinout(pinout.pi.shiftreg)
        from ..hw.protocol.messages import BoardShape
        from ..hw.serial_link import SerialBoard

        geo = self.geometry
        shape = BoardShape(geo.files, geo.ranks, pinout.leds.count)
        return SerialBoard(config.board.serial_port, brightness=config.leds.brightness, shape=shape)

    def leds(self, config: Config) -> LedSink:
        """The Pi's own LED chain, laid out as configured."""
        from ..hw.leds import SpiLeds

        pinout = self.pinout(config)
        fits_layout(config, pinout.leds.count, pinout.leds.corner_grid)
        return SpiLeds.open(pinout, brightness=config.leds.brightness)

    def sim_leds(self) -> SimLeds:
        return SimLeds()


@dataclass(frozen=True)
class HexBoard:
    """The hex e-board: a 12 × 12 matrix read by sixteen 74HC165 or a Pico,
    one LED per cell."""

    geometry: HexGeometry = FALCON_HEX

    @property
    def described(self) -> str:
        return f"the hex e-board has {self.geometry.size} cells"

    def pinout(self, config: Config) -> HexPinout:
        """The configured pinout, or the one shipped.

        :raises StartError: if the configured pinout is not a hex board's, or another hexagon's.
        """
        wrong = StartError(
            f"the pinout {config.board.pinout} is not the hex board's: point "
            "[board] pinout at one like hardware/hex/pinout.toml, or leave it "
            "empty for the one shipped"
        )
        if not config.board.pinout:
            pinout = default_hex_pinout()
        else:
            path = Path(config.board.pinout)
            if read_pinout_schema(path) != self.geometry.pinout_schema:
                raise wrong
            pinout = load_hex_pinout(path)
        if pinout.geometry != self.geometry:
            raise wrong
        return pinout

    def check(self, config: Config, variant: Variant) -> None:
        """:raises StartError: for sensors that cannot read it, or a pinout not its own."""
        if config.board.sensors == "gpio":
            raise StartError(
                f"{variant.name} is played on the {self.geometry.size}-cell hex board, whose "
                "12 × 12 matrix needs 24 GPIOs (the Pi has 19 beside the LEDs and buttons): set "
                '[board] sensors = "shiftreg" (sixteen 74HC165) or "serial" (a Pico)'
            )
        self.pinout(config)

    def sensors(self, config: Config) -> SensorSource:
        pinout = self.pinout(config)
        if config.board.sensors == "shiftreg":
            from ..hw.shiftreg import ShiftRegisterSensor

            return ShiftRegisterSensor.from_pinout(pinout.pi.shiftreg, squares=pinout.cells)
        from ..hw.protocol.messages import BoardShape
        from ..hw.serial_link import SerialBoard

        return SerialBoard(
            config.board.serial_port,
            brightness=config.leds.brightness,
            shape=BoardShape.named(pinout.board),
        )

    def leds(self, config: Config) -> LedSink:
        from ..hw.leds import SpiLeds

        return SpiLeds.open(self.pinout(config), brightness=config.leds.brightness)

    def sim_leds(self) -> SimLeds:
        return SimLeds(default_hex_pinout().leds)


EBoard = SquareBoard | HexBoard
# Every e-board built: the 8×10 one, and each hexagon a hex pinout can describe.
E_BOARDS: tuple[EBoard, ...] = (SquareBoard(), *(HexBoard(geo) for geo in HEX_BOARDS.values()))


def e_board(geometry: BoardGeometry) -> EBoard | None:
    """The e-board a game of ``geometry`` is played on (None: none is built)."""
    return next((board for board in E_BOARDS if board.geometry == geometry), None)


def fits_sensors(variant: Variant, config: Config | None = None) -> EBoard:
    """The e-board ``variant`` is played on, checked against ``config``.

    :raises StartError: for a preset no e-board plays, or a board that the
        configured build cannot read.
    """
    board = e_board(variant.geometry)
    if board is None:
        geo = variant.geometry
        kin = next(b for b in E_BOARDS if b.geometry.pinout_schema == geo.pinout_schema)
        raise StartError(
            f"{variant.name} is played on {geo.description}, {kin.described}: "
            "play it in boardctl sim"
        )
    if config is not None:
        board.check(config, variant)
    return board


def fits_layout(config: Config, count: int, corner_grid: bool) -> None:
    """The configured [leds] layout is the one the pinout's chain has: a
    board wired one way and configured the other would light the wrong places.

    :raises StartError: when they differ.
    """
    corners = config.leds.layout == "corners"
    if corners != corner_grid:
        wanted = (
            f"{(RANKS + 1) * (FILES + 1)} LEDs at the square corners"
            if corners
            else f"{RANKS * FILES} LEDs, one per square"
        )
        raise StartError(
            f'[leds] layout = "{config.leds.layout}" needs {wanted}, but the '
            f"pinout's chain has {count}: set the layout or the pinout to match"
        )
