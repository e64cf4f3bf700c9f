"""The daemon's configuration: TOML, checked key by key.

Every key has a default, so an empty file (or none) is a working simulator
set-up.  Anything wrong stops start-up with one message that names the key
and says what is wrong with it, e.g.::

    config /etc/boardctl/config.toml: [game] mode: expected one of engine,
    two-players, teaching; got 'chess'
"""

from __future__ import annotations

import ipaddress
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .rules import VARIANTS, BoardctlError

DEFAULT_PATH = Path("/etc/boardctl/config.toml")


class ConfigError(BoardctlError, ValueError):
    """A configuration that cannot be used; the message names the key."""


@dataclass(frozen=True)
class BoardConfig:
    sensors: str = "sim"            # sim | gpio | shiftreg | serial
    serial_port: str = "/dev/ttyACM0"
    pinout: str = ""                # path to a pinout.toml; "" = the one shipped
    settle_ms: int = 300
    grace_ms: int = 1500
    record: str = ""                # write the raw sensor stream here (replay format)


@dataclass(frozen=True)
class LedConfig:
    enabled: bool = True
    layout: str = "squares"         # squares (80 LEDs) | corners (9 x 11 grid)
    brightness: float = 0.25        # 0..1; 80 LEDs at full white draw about 5 A


@dataclass(frozen=True)
class DisplayConfig:
    enabled: bool = True
    size: str = "480x320"
    fullscreen: bool = True


@dataclass(frozen=True)
class EngineConfig:
    skill: int = 20
    movetime: float = 3.0           # seconds a move when there is no clock
    external: str = ""              # command of an external UCI engine, "" = built in


@dataclass(frozen=True)
class GameConfig:
    mode: str = "engine"            # engine | two-players | teaching
    human: str = "white"            # the human's colour against the engine
    variant: str = "falcon"
    takeback: bool = True
    clock: str = ""                 # "" (none) or "minutes+increment", e.g. "5+3"


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = False           # GPIO buttons; pins come from the pinout


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False           # the spectator page and the live feeds
    bind: str = "auto"              # an address, or auto: the local network interface only
    port: int = 8080
    pin: str = ""                   # needed for actions from the page; "" = no actions


PIN_LENGTH = (4, 64)


@dataclass(frozen=True)
class Config:
    board: BoardConfig = field(default_factory=BoardConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    engine: EngineConfig = field(default_factory=EngineConfig)
    game: GameConfig = field(default_factory=GameConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    source: str = "(defaults)"

    @property
    def display_size(self) -> tuple[int, int]:
        width, height = self.display.size.split("x")
        return int(width), int(height)

    @property
    def clock_seconds(self) -> tuple[float, float] | None:
        """(start, increment) in seconds, or None without a clock."""
        if not self.game.clock:
            return None
        minutes, increment = self.game.clock.split("+")
        return float(minutes) * 60, float(increment)


_CHOICES = {
    ("board", "sensors"): ("sim", "gpio", "shiftreg", "serial"),
    ("leds", "layout"): ("squares", "corners"),
    ("game", "mode"): ("engine", "two-players", "teaching"),
    ("game", "human"): ("white", "black"),
    ("game", "variant"): tuple(VARIANTS),
}
_RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("board", "settle_ms"): (0, 5000),
    ("board", "grace_ms"): (0, 60000),
    ("leds", "brightness"): (0.0, 1.0),
    ("engine", "skill"): (0, 20),
    ("engine", "movetime"): (0.05, 600.0),
    ("web", "port"): (1, 65535),
}


def _check(section: str, key: str, value: Any, default: Any) -> Any:
    where = f"[{section}] {key}"
    kind = type(default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not kind:
        raise ConfigError(f"{where}: expected {kind.__name__}, got {value!r}")
    choices = _CHOICES.get((section, key))
    if choices and value not in choices:
        raise ConfigError(f"{where}: expected one of {', '.join(choices)}; got {value!r}")
    bounds = _RANGES.get((section, key))
    if bounds and not bounds[0] <= value <= bounds[1]:
        raise ConfigError(f"{where}: must be between {bounds[0]:g} and {bounds[1]:g}; got {value}")
    if (section, key) == ("display", "size"):
        parts = value.split("x")
        if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise ConfigError(f"{where}: expected WIDTHxHEIGHT such as 480x320; got {value!r}")
    if (section, key) == ("game", "clock") and value:
        parts = value.split("+")
        try:
            ok = len(parts) == 2 and float(parts[0]) > 0 and float(parts[1]) >= 0
        except ValueError:
            ok = False
        if not ok:
            raise ConfigError(f"{where}: expected minutes+increment such as 5+3; got {value!r}")
    if (section, key) == ("web", "bind") and value != "auto":
        try:
            ipaddress.ip_address(value)
        except ValueError:
            raise ConfigError(f"{where}: expected auto or an IP address such as "
                              f"192.168.1.20; got {value!r}") from None
    if (section, key) == ("web", "pin") and value:
        low, high = PIN_LENGTH
        if not (low <= len(value) <= high and value.isascii() and value.isprintable()
                and value.strip() == value):
            raise ConfigError(f"{where}: expected {low} to {high} printable ASCII characters "
                              "without spaces at the ends (or \"\" for no actions)")
    return value


def parse_config(data: dict[str, Any], source: str = "(text)") -> Config:
    """A Config from parsed TOML.  :raises ConfigError: naming the key."""
    sections: dict[str, Any] = {}
    defaults_of = Config()
    known = {f.name: getattr(defaults_of, f.name) for f in fields(Config) if f.name != "source"}
    for name, table in data.items():
        if name not in known:
            raise ConfigError(f"[{name}]: unknown section (known: {', '.join(known)})")
        if not isinstance(table, dict):
            raise ConfigError(f"[{name}]: expected a table of keys")
    for name, default in known.items():
        table = data.get(name, {})
        defaults = {f.name: getattr(default, f.name) for f in fields(default)}
        values = {}
        for key, value in table.items():
            if key not in defaults:
                raise ConfigError(
                    f"[{name}] {key}: unknown key (known: {', '.join(defaults)})"
                )
            values[key] = _check(name, key, value, defaults[key])
        sections[name] = type(default)(**values)
    return Config(**sections, source=source)


def load_config(path: Path | None) -> Config:
    """The configuration at ``path``; defaults when ``path`` is None or the
    default path does not exist.  :raises ConfigError: one clear line."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config()
        path = DEFAULT_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"config {path}: cannot read it: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path}: not valid TOML: {exc}") from None
    try:
        return parse_config(data, str(path))
    except ConfigError as exc:
        raise ConfigError(f"config {path}: {exc}") from None
