"""The daemon's configuration: TOML, checked key by key.

Every key has a default, so an empty file (or none) is a working simulator
set-up.  Anything wrong stops start-up with one message that names the key
and says what is wrong with it, e.g.::

    config /etc/boardctl/config.toml: [game] mode: expected one of engine,
    two-players, teaching; got 'chess'
"""

from __future__ import annotations

import ipaddress
import os
import re
import shlex
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args

from .engine.frontend import MAX_SEED
from .engine.search import MAX_SKILL
from .hall.place import MAX_ROUND, NAME, NAME_RULE
from .hw.errors import PinoutError
from .hw.hexpins import load_any_pinout
from .names import MAX_NAME, InvalidName, clean_name
from .review.analysis import DEFAULT_MOVETIME, MOVETIME_RANGE
from .rules import VARIANTS, BoardctlError
from .rules.digits import SHOWN, NumberError, parse_decimal, shown
from .ui.size import SizeError, parse_size
from .userfiles import TOML_LIMIT, parse_toml, read_text, unreadable
from .voice.engines import RATE_RANGE, VOICE_NAME, VOLUME_RANGE, SpeechEngineName
from .voice.words import SquareStyle

DEFAULT_PATH = Path("/etc/boardctl/config.toml")


class ConfigError(BoardctlError, ValueError):
    """A configuration that cannot be used; the message names the key.

    ``key`` is the (section, key) at fault when one is, and ``reason`` the
    message without it: what a form shows next to its field."""

    def __init__(self, message: str, key: tuple[str, str] | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.key = key
        self.reason = reason or message


# The choices as types: mypy --strict then refuses a comparison with a value
# the choice cannot take (a typo such as mode == "two-player"), and CHOICES
# below, which the file's checks and the command line's choices read, is
# derived from them.
Sensors = Literal["sim", "gpio", "shiftreg", "serial"]
LedLayoutName = Literal["squares", "corners"]
Mode = Literal["engine", "two-players", "teaching", "remote"]
Side = Literal["white", "black"]


@dataclass(frozen=True)
class BoardConfig:
    sensors: Sensors = "sim"
    serial_port: str = "/dev/ttyACM0"
    pinout: str = ""  # path to a pinout.toml; "" = the one shipped
    settle_ms: int = 300
    grace_ms: int = 1500
    record: str = ""  # write the raw sensor stream here (replay format)


@dataclass(frozen=True)
class LedConfig:
    enabled: bool = True
    layout: LedLayoutName = "squares"  # squares: 80 LEDs; corners: a 9 x 11 grid
    brightness: float = 0.25  # 0..1; 80 LEDs at full white draw about 5 A


@dataclass(frozen=True)
class DisplayConfig:
    enabled: bool = True
    size: str = "480x320"
    fullscreen: bool = True
    # A frame buffer device (/dev/fb0, an SPI screen's /dev/fb1) to draw into
    # without SDL; "" draws through SDL (KMSDRM full screen, or a window).
    framebuffer: str = ""


@dataclass(frozen=True)
class EngineConfig:
    skill: int = 20
    movetime: float = 3.0  # seconds a move when there is no clock
    external: str = ""  # command of an external UCI engine, "" = built in
    # 0: full strength varies its openings, and a move's time is the wall
    # clock's.  A number: its random choices come from this seed and a move's
    # time is counted in positions (as many as a Pi 4 searches in it), so the
    # same moves get the same replies on every machine (a test, a headless script).
    seed: int = 0


# A headless script's seed when neither the command line nor the file gives
# one: a script is a test, and its replies repeat ([engine] seed above).
HEADLESS_SEED = 1


@dataclass(frozen=True)
class GameConfig:
    mode: Mode = "engine"
    human: Side = "white"  # the human's colour against the engine
    variant: str = "falcon"
    takeback: bool = True
    clock: str = ""  # "" (none) or "minutes+increment", e.g. "5+3"
    white_name: str = ""  # "" = "Player" (or the engine's name on its side)
    black_name: str = ""


@dataclass(frozen=True)
class ButtonsConfig:
    enabled: bool = False  # GPIO buttons; pins come from the pinout


@dataclass(frozen=True)
class SpeechConfig:
    enabled: bool = False  # say moves, fixes and results aloud
    engine: SpeechEngineName = "espeak-ng"
    voice: str = "en"  # the engine's voice: a language such as en, en-us, de
    rate: int = 160  # words per minute
    volume: int = 100  # 0..200; 100 is the engine's own loudness
    squares: SquareStyle = "plain"  # plain: "f4"; nato: "foxtrot 4"


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = False  # the spectator page and the live feeds
    bind: str = "auto"  # an address, or auto: the local network interface only
    port: int = 8080
    pin: str = ""  # needed for actions from the page; "" = no actions


@dataclass(frozen=True)
class RemoteConfig:
    # What this board is called on the other side's screen and page.
    name: str = ""
    # How long a move must stand, the board still, before it is sent: until
    # then it may still be amended (a piece slid on, a square corrected).
    confirm_ms: int = 1000
    # The MQTT broker two boards in two homes play through, mqtt://HOST:PORT
    # or mqtts://HOST:PORT (TLS); "": on one network, the board that invites
    # runs one itself (mosquitto) on lan_port.  The broker is not trusted:
    # every move is signed by the board that made it (docs/remote.md).
    broker: str = ""
    username: str = ""  # this board's login at the broker, if it asks for one
    password: str = ""
    ca_file: str = ""  # a certificate authority for a broker no system CA signs
    lan_port: int = 18830


@dataclass(frozen=True)
class HallConfig:
    # The MQTT broker a tournament's boards broadcast their games through, and
    # the hall reads them from (docs/hall.md): mqtt://HOST:PORT or
    # mqtts://HOST:PORT; "": none.
    broker: str = ""
    username: str = ""  # this board's (or the hall's) login at that broker
    password: str = ""
    ca_file: str = ""
    # A board broadcasts when it names the tournament (its name in the broker's
    # topics) and itself there (the round file names its key).
    event: str = ""
    board: str = ""
    # The round and board number the board plays, if it says (0: the round
    # file alone places it); a game of another round is then not shown.
    round: int = 0
    number: int = 0


@dataclass(frozen=True)
class ReviewConfig:
    at_end: bool = True  # review each game when it ends, in a process of its own
    movetime: float = DEFAULT_MOVETIME  # the engine's seconds for each position


PIN_LENGTH = (4, 64)
DEFAULTS = "(defaults)"  # Config.source when no file was read


@dataclass(frozen=True)
class Config:
    board: BoardConfig = field(default_factory=BoardConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    engine: EngineConfig = field(default_factory=EngineConfig)
    game: GameConfig = field(default_factory=GameConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    speech: SpeechConfig = field(default_factory=SpeechConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    hall: HallConfig = field(default_factory=HallConfig)
    review: ReviewConfig = field(default_factory=ReviewConfig)
    source: str = DEFAULTS

    @property
    def from_file(self) -> bool:
        """Whether a file was read (and not the defaults taken for want of one)."""
        return self.source != DEFAULTS

    @property
    def display_size(self) -> tuple[int, int]:
        return parse_size(self.display.size)

    @property
    def clock_seconds(self) -> tuple[float, float] | None:
        """(start, increment) in seconds, or None without a clock."""
        return parse_clock(self.game.clock) if self.game.clock else None

    @property
    def clock_delay(self) -> float:
        """Seconds of each move not charged (a delay clock), else 0."""
        return parse_time_control(self.game.clock)[2] if self.game.clock else 0.0


# A clock of ten hours a side is longer than any game over the board; the
# increment has the same ceiling as a move's thinking time.  Both keep every
# clock a number the screen can show and the engine can divide.
MAX_CLOCK_MINUTES = 600.0
MAX_MOVETIME = 600.0
_CLOCK = re.compile(r"([0-9.]+)([+d])([0-9.]+)", re.ASCII)
FRAMEBUFFER = re.compile(r"/dev/fb[0-9]{1,2}", re.ASCII)


def parse_clock(text: str) -> tuple[float, float]:
    """``"5+3"`` (minutes + seconds of increment) → ``(300.0, 3.0)``; a delay
    clock (``"90d5"``) has no increment: ``(5400.0, 0.0)``.

    :raises ConfigError: when the text is neither, or out of range.
    """
    base, increment, _ = parse_time_control(text)
    return base, increment


def parse_time_control(text: str) -> tuple[float, float, float]:
    """``(seconds a side, increment, delay)``: ``"5+3"`` is a Fischer clock,
    3 s added after each move; ``"90d5"`` a delay clock (the US "G/90;d5"):
    the first 5 s of each move are not charged, and nothing is added.

    :raises ConfigError: when the text is neither, or out of range.
    """
    match = _CLOCK.fullmatch(text)
    try:
        if match is None:
            raise NumberError(text)
        minutes = parse_decimal(match[1], 0.0, MAX_CLOCK_MINUTES)
        extra = parse_decimal(match[3], 0.0, MAX_MOVETIME)
        if minutes <= 0:
            raise NumberError(text)
    except NumberError:
        raise ConfigError(
            f"expected minutes+increment such as 5+3, or minutes d delay such as 90d5: "
            f"up to {MAX_CLOCK_MINUTES:g} minutes, 0 to {MAX_MOVETIME:g} s a move; "
            f"got {_path(text)}"
        ) from None
    if match[2] == "d":
        return minutes * 60, 0.0, extra
    return minutes * 60, extra, 0.0


# The values a choice may take: the one list, which the command line's own
# choices (boardctl sim --mode, --human) read too.
CHOICES = {
    ("board", "sensors"): get_args(Sensors),
    ("leds", "layout"): get_args(LedLayoutName),
    ("game", "mode"): get_args(Mode),
    ("game", "human"): get_args(Side),
    ("game", "variant"): tuple(VARIANTS),
    ("speech", "engine"): get_args(SpeechEngineName),
    ("speech", "squares"): get_args(SquareStyle),
}
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("board", "settle_ms"): (0, 5000),
    ("board", "grace_ms"): (0, 60000),
    ("leds", "brightness"): (0.0, 1.0),
    ("engine", "skill"): (0, MAX_SKILL),
    ("engine", "movetime"): (0.05, MAX_MOVETIME),
    ("engine", "seed"): (0, MAX_SEED),
    ("web", "port"): (1, 65535),
    ("speech", "rate"): RATE_RANGE,
    ("speech", "volume"): VOLUME_RANGE,
    ("remote", "confirm_ms"): (0, 10000),
    ("remote", "lan_port"): (1024, 65535),
    ("hall", "round"): (0, MAX_ROUND),
    ("hall", "number"): (0, MAX_ROUND),
    ("review", "movetime"): MOVETIME_RANGE,
}


def _shown(value: Any) -> str:
    """A value quoted back in an error: one line of readable length."""
    if isinstance(value, str):
        return shown(value)
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}… ({len(text)} characters)"


def _check(section: str, key: str, value: Any, default: Any) -> Any:
    """``value`` for [section] key, as the file holds it (an int where a
    float is due becomes one).  :raises ConfigError: naming the key."""
    try:
        return _checked(section, key, value, default)
    except (ConfigError, SizeError) as exc:
        reason = exc.reason if isinstance(exc, ConfigError) else str(exc)
        raise ConfigError(f"[{section}] {key}: {reason}", (section, key), reason) from None


def _checked(section: str, key: str, value: Any, default: Any) -> Any:
    kind = type(default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not kind:
        raise ConfigError(f"expected {kind.__name__}, got {_shown(value)}")
    choices = CHOICES.get((section, key))
    if choices and value not in choices:
        raise ConfigError(f"expected one of {', '.join(choices)}; got {_shown(value)}")
    bounds = RANGES.get((section, key))
    if bounds and not bounds[0] <= value <= bounds[1]:
        raise ConfigError(f"must be between {bounds[0]:g} and {bounds[1]:g}; got {_shown(value)}")
    if isinstance(value, str) and value and not value.isprintable():
        # A NUL or a control character in a path or a command is a typo, and
        # the operating system would refuse it with a less helpful error.
        raise ConfigError(f"contains a control character: {_shown(value)}")
    check = _FORMATS.get((section, key))
    if check is not None:
        check(value)
    return value


def check_value(section: str, key: str, value: Any) -> Any:
    """``value`` checked for [section] key as the file's would be (a form
    checks each field with it).  :raises ConfigError: with ``key`` set."""
    default = getattr(getattr(Config(), section), key)
    return _check(section, key, value, default)


PATH_SHOWN = 160  # characters of a path quoted back in an error message


def _readable_pinout(text: str) -> None:
    if not text:
        return  # the pinout that ships with boardctl
    try:
        load_any_pinout(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(unreadable(_path(text), exc)) from None
    except PinoutError as exc:
        raise ConfigError(str(exc)) from None


def _path(text: str) -> str:
    """A path quoted back whole, as far as a line allows: a user must see
    which file is meant, where a bad value is cut much shorter."""
    return repr(text) if len(text) <= PATH_SHOWN else shown(text)


def _writable_file(text: str) -> None:
    """A file the daemon can append to: there and writable, or creatable."""
    if not text:
        return  # no recording
    path = Path(text)
    try:
        if path.is_dir():
            raise ConfigError(f"{_path(text)} is a directory, not a file")
        if path.exists():
            if not (path.is_file() and os.access(path, os.W_OK)):
                raise ConfigError(f"cannot write to {_path(text)}")
            return
        parent = path.parent
        if not parent.is_dir():
            raise ConfigError(f"{_path(text)}: no directory {_path(str(parent))}")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ConfigError(f"{_path(text)}: cannot create files in {_path(str(parent))}")
    except OSError as exc:  # a name too long, a loop of links, ...
        raise ConfigError(f"cannot use {_path(text)}: {exc.strerror or exc}") from None


def _engine_command(text: str) -> None:
    if not text:
        return  # the built-in engine
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise ConfigError(f"not a command line ({exc}): {_path(text)}") from None
    if not argv:
        raise ConfigError("an empty command")
    if shutil.which(argv[0]) is None:
        raise ConfigError(f"no program {shown(argv[0])} found (not on PATH, or not executable)")


def _clock(text: str) -> None:
    if text:  # "" is no clock
        parse_clock(text)


def _size(text: str) -> None:
    parse_size(text)


def _framebuffer(text: str) -> None:
    if text and not FRAMEBUFFER.fullmatch(text):
        raise ConfigError(f'expected "" or a frame buffer such as /dev/fb0; got {shown(text)}')


# Keys whose text has a format of its own; each raises with what is wrong.
def _bind(text: str) -> None:
    if text == "auto":
        return
    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise ConfigError(
            f"expected auto or an IP address such as 192.168.1.20; got {_path(text)}"
        ) from None


def _pin(text: str) -> None:
    low, high = PIN_LENGTH
    if text and not (
        low <= len(text) <= high and text.isascii() and text.isprintable() and text.strip() == text
    ):
        raise ConfigError(
            f"expected {low} to {high} printable ASCII characters without "
            'spaces at the ends (or "" for no actions)'
        )


NAME_LENGTH = MAX_NAME  # the one rule for names: boardctl.names


def _name(text: str) -> None:
    try:
        cleaned = clean_name(text, allow_empty=True)
    except InvalidName as exc:
        raise ConfigError(f'{exc.reason} (or "" for the default); got {shown(text)}') from None
    if cleaned != text:
        raise ConfigError(
            f"expected a name of at most {NAME_LENGTH} characters without spaces at the "
            f'ends (or "" for the default); got {shown(text)}'
        )


def _broker(text: str) -> None:
    if not text:
        return  # a broker of this board's own, on the network it is on
    from .remote.invite import InviteError, parse_broker

    try:
        parse_broker(text)
    except InviteError as exc:
        raise ConfigError(f"{exc}; got {shown(text)}") from None


def _hall_name(text: str) -> None:
    if text and not NAME.fullmatch(text):
        raise ConfigError(f"expected {NAME_RULE}; got {shown(text)}")


def _readable_file(text: str) -> None:
    if text and not Path(text).expanduser().is_file():
        raise ConfigError(f"no such file: {shown(text)}")


def _voice(text: str) -> None:
    if not VOICE_NAME.fullmatch(text):
        raise ConfigError(
            f"expected a voice such as en, en-us or de (espeak-ng --voices lists them); "
            f"got {shown(text)}"
        )


_FORMATS: dict[tuple[str, str], Callable[[str], None]] = {
    ("board", "pinout"): _readable_pinout,
    ("board", "record"): _writable_file,
    ("display", "size"): _size,
    ("display", "framebuffer"): _framebuffer,
    ("engine", "external"): _engine_command,
    ("game", "clock"): _clock,
    ("game", "white_name"): _name,
    ("game", "black_name"): _name,
    ("web", "bind"): _bind,
    ("web", "pin"): _pin,
    ("speech", "voice"): _voice,
    ("remote", "name"): _name,
    ("remote", "broker"): _broker,
    ("remote", "ca_file"): _readable_file,
    ("hall", "broker"): _broker,
    ("hall", "ca_file"): _readable_file,
    ("hall", "event"): _hall_name,
    ("hall", "board"): _hall_name,
}


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
                raise ConfigError(f"[{name}] {key}: unknown key (known: {', '.join(defaults)})")
            values[key] = _check(name, key, value, defaults[key])
        sections[name] = type(default)(**values)
    config = Config(**sections, source=source)
    if config.game.mode == "remote" and config.clock_delay:
        # The remote protocol's clocks carry an increment only (docs/remote.md).
        reason = "a remote game's clock takes an increment (such as 5+3), not a delay"
        raise ConfigError(f"[game] clock: {reason}", ("game", "clock"), reason)
    return config


def with_game(config: Config, **overrides: Any) -> Config:
    """``config`` with some [game] keys replaced, each checked as the file's
    would be.  :raises ConfigError: naming the key."""
    game = config.game
    checked = {
        key: _check("game", key, value, getattr(game, key)) for key, value in overrides.items()
    }
    return replace(config, game=replace(game, **checked))


def load_config(path: Path | None) -> Config:
    """The configuration at ``path``; defaults when ``path`` is None or the
    default path does not exist.  :raises ConfigError: one clear line."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return Config()
        path = DEFAULT_PATH
    try:
        text = read_text(path, TOML_LIMIT)
    except OSError as exc:
        raise ConfigError(f"config {path}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"config {path}: not UTF-8 text (byte {exc.start} is {exc.object[exc.start]:#04x})"
        ) from None
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {path}: not valid TOML: {exc}") from None
    try:
        return parse_config(data, str(path))
    except ConfigError as exc:
        raise ConfigError(f"config {path}: {exc}", exc.key, exc.reason) from None
