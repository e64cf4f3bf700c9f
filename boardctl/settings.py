"""The settings a player changes from the web page instead of a text editor.

:data:`FIELDS` are the keys of the configuration the page sets, named on the
form as ``section.key``.  A filled-in form is checked key by key with the
configuration's own rules (:func:`~boardctl.config.check_value`), so each
error stands next to its field, and then as a whole file
(:func:`~boardctl.configfile.edit_config`), which writes only the keys that
changed.  :func:`when_taken` says when the running board takes each change;
the daemon applies them by the same rule, so what the page says is what
happens.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

from .atomic import remove_stale_copies
from .config import CHOICES, RANGES, Config, ConfigError, check_value, load_config
from .engine import core, levels
from .rules import VARIANTS, get_variant
from .rules.digits import NumberError, parse_decimal, parse_whole
from .web.owner import Change, Refused, Saved
from .web.snapshot import WebAction

log = logging.getLogger("boardctl")

Key = tuple[str, str]

FIELDS: tuple[Key, ...] = (
    ("game", "mode"),
    ("engine", "skill"),
    ("game", "human"),
    ("game", "clock"),
    ("game", "white_name"),
    ("game", "black_name"),
    ("game", "variant"),
    ("speech", "enabled"),
    ("speech", "rate"),
    ("leds", "brightness"),
)

# The common time controls, minutes+increment: blitz, rapid and the classical
# 90 minutes with 30 seconds a move; and the US delay controls G/30;d5 and
# G/90;d5 (the first 5 s of each move free).  Any other is typed in.
CLOCK_PRESETS: tuple[tuple[str, str], ...] = (
    ("", "No clock"),
    ("3+2", "3+2 blitz"),
    ("5+3", "5+3 blitz"),
    ("10+5", "10+5 rapid"),
    ("15+10", "15+10 rapid"),
    ("25+10", "25+10 rapid"),
    ("90+30", "90+30 classical"),
    ("30d5", "30 min, 5 s delay (rapid)"),
    ("90d5", "90 min, 5 s delay (classical)"),
)
MODE_WORDS = {
    "engine": "Against the engine",
    "two-players": "Two players",
    "teaching": "Teaching (a lifted piece shows its moves)",
    "remote": "Remote (a person in a browser, or another board)",
}
# What each mode is, shown under the list for the mode chosen (the page's
# hint followed the first line of the list, Remote, whatever was chosen).
MODE_HINTS = {
    "engine": "You play the engine at the level below; the hint button asks it for a move.",
    "two-players": "Two people at the board; the board checks the moves and keeps the clock.",
    "teaching": (
        "Against the engine, with a coach: a lifted piece lights its moves, a losing move"
        " is offered back, and a hint names the good moves."
    ),
    "remote": (
        "A person in a browser or another board plays the other side; taken when the"
        " board restarts."
    ),
}
SIDE_WORDS = {"white": "White", "black": "Black"}
_BIG = 10**9  # past any range a key has: the range check then says what is allowed


class When(Enum):
    """When the running board takes a saved change."""

    NOW = "now"
    NEXT_GAME = "next game"  # at once while no move has been made
    RESTART = "restart"


@dataclass(frozen=True)
class Abilities:
    """What the running board can change without a restart: ``voice``, a
    speaker is running (speech on and off, its rate); ``dims``, its LEDs take
    a new brightness."""

    voice: bool = False
    dims: bool = False


def name(key: Key) -> str:
    """A key as the form names it: ``game.mode``."""
    return f"{key[0]}.{key[1]}"


def value_of(config: Config, key: Key) -> Any:
    return getattr(getattr(config, key[0]), key[1])


def when_taken(key: Key, old: Config, new: Config, can: Abilities) -> When:
    """When a board that runs ``old`` takes ``key`` as ``new`` has it."""
    section, item = key
    if key == ("engine", "skill"):
        return When.NOW
    if key == ("game", "variant"):
        before, after = get_variant(old.game.variant), get_variant(new.game.variant)
        # Another board shape needs other sensors, LEDs and screen layout.
        return When.NEXT_GAME if before.geometry == after.geometry else When.RESTART
    if key == ("game", "mode") and "remote" in (old.game.mode, new.game.mode):
        return When.RESTART  # remote play's link starts with the web server
    if section == "game" and item in ("mode", "human", "clock", "white_name", "black_name"):
        return When.NEXT_GAME  # a game in progress keeps its players and its clock
    if section == "speech" and item in ("enabled", "rate", "volume"):
        return When.NOW if can.voice else When.RESTART
    if key == ("leds", "brightness"):
        return When.NOW if can.dims else When.RESTART
    return When.RESTART


@dataclass(frozen=True)
class Taken:
    """Settings saved while the board runs, split by when they are taken:
    ``now``, the configuration with the changes taken at once (``keys``);
    ``next_game``, the one for the next game (None: nothing waits for it)."""

    now: Config
    keys: tuple[Key, ...]
    next_game: Config | None


def taken(old: Config, new: Config, can: Abilities) -> Taken:
    """``new``, saved while the board runs ``old``, as :func:`when_taken` takes it."""
    keys = changed(old, new, config_keys())
    timing = {key: when_taken(key, old, new, can) for key in keys}
    at_once = tuple(key for key in keys if timing[key] is When.NOW)
    later = [key for key in keys if timing[key] is When.NEXT_GAME]
    now = merged(old, new, at_once)
    return Taken(now, at_once, merged(now, new, later) if later else None)


def config_keys() -> list[Key]:
    """Every key of the configuration, section by section."""
    defaults = Config()
    return [
        (section.name, item.name)
        for section in fields(Config)
        if section.name != "source"
        for item in fields(getattr(defaults, section.name))
    ]


def changed(old: Config, new: Config, keys: Iterable[Key] = FIELDS) -> list[Key]:
    return [key for key in keys if value_of(old, key) != value_of(new, key)]


def merged(base: Config, new: Config, keys: Iterable[Key]) -> Config:
    """``base`` with ``keys`` as ``new`` has them."""
    sections: dict[str, dict[str, Any]] = {}
    for section, item in keys:
        sections.setdefault(section, {})[item] = value_of(new, (section, item))
    tables = {part: replace(getattr(base, part), **items) for part, items in sections.items()}
    return replace(base, **tables)


def typed(key: Key, value: Any) -> Any:
    """A form's value for ``key`` as the file holds it: a number typed as
    text is read as the file's reader would; then checked as the file's.

    :raises ConfigError: with ``key`` set and the reason for the form.
    """
    section, item = key
    default = value_of(Config(), key)
    if isinstance(value, str) and type(default) in (int, float):
        text = value.strip()
        try:
            if type(default) is int:
                value = parse_whole(text, -_BIG, _BIG)
            else:
                value = parse_decimal(text, -_BIG, _BIG)
        except NumberError:
            kind = "a whole number" if type(default) is int else "a number"
            reason = f"expected {kind}, got {text!r}" if text else f"expected {kind}"
            raise ConfigError(f"[{section}] {item}: {reason}", key, reason) from None
    return check_value(section, item, value)


def form_choices() -> dict[str, list[tuple[str, str]]]:
    """The choices of the form's lists, as (value, words) pairs."""
    return {
        name(("game", "mode")): [(m, MODE_WORDS[m]) for m in CHOICES["game", "mode"]],
        name(("game", "human")): [(s, SIDE_WORDS[s]) for s in CHOICES["game", "human"]],
        name(("game", "variant")): [(n, v.title) for n, v in VARIANTS.items()],
        name(("game", "clock")): list(CLOCK_PRESETS),
    }


def level_ratings(config: Config) -> dict[str, list[int]]:
    """The built-in engine's approximate rating of each level, 0 first, for
    each variant it was measured in (docs/levels.md): none for another engine
    or without the compiled core, whose levels are not the table's."""
    if config.engine.external or not core.available():
        return {}
    table = {}
    for variant in VARIANTS:
        shown = [levels.rating(number, variant) for number in range(levels.MAX_LEVEL + 1)]
        if all(rating is not None for rating in shown):
            table[variant] = [rating for rating in shown if rating is not None]
    return table


def waiting(started: Config, now: Config, can: Abilities) -> list[str]:
    """The keys, as the form names them, whose change since the board started
    (``started`` the file then, ``now`` the file now) waits for a restart."""
    return [
        name(key)
        for key in changed(started, now, config_keys())
        if when_taken(key, started, now, can) is When.RESTART
    ]


class SettingsFile:
    """The settings page's side of the configuration file at ``path`` (a
    :class:`~boardctl.web.owner.SettingsService`).  ``abilities`` is what the
    running board can take without a restart; the board sets it once it runs.
    The file as it is now, made when the board starts, is what a later change
    is compared with to say what waits for a restart.
    Saves are one at a time: two tabs saving at once each see the other's
    keys kept.  Temporary copies of the file that a save killed midway left
    (the PIN inside) are removed when it is made."""

    def __init__(self, path: Path, abilities: Abilities = Abilities()) -> None:
        self.path = path
        self.abilities = abilities
        self._lock = threading.Lock()
        removed = remove_stale_copies(path)
        if removed:
            log.info("settings: removed %d temporary copies of %s", len(removed), path)
        try:
            self.started = load_config(path) if path.exists() else Config()
        except ConfigError:
            self.started = Config()  # the board did not start with it, either

    def form(self) -> dict[str, Any]:
        """The form's values as the file has them, its choices and ranges."""
        try:
            config, problem = load_config(self.path), ""
        except ConfigError as exc:
            config, problem = Config(), str(exc)
        return {
            "values": {name(key): value_of(config, key) for key in FIELDS},
            "choices": form_choices(),
            "hints": {name(("game", "mode")): MODE_HINTS},
            "ranges": {name(key): RANGES[key] for key in FIELDS if key in RANGES},
            "ratings": level_ratings(config),
            "leds": config.leds.enabled,
            "waiting": [] if problem else waiting(self.started, config, self.abilities),
            "path": str(self.path),
            "problem": problem,
        }

    def save(self, form: Mapping[str, Any]) -> Saved | Refused:
        """Check ``form`` field by field, then write the keys that changed."""
        known = {name(key): key for key in FIELDS}
        errors = {field: "not a setting of this page" for field in form if field not in known}
        values: dict[Key, Any] = {}
        for field, value in form.items():
            if field in known:
                try:
                    values[known[field]] = typed(known[field], value)
                except ConfigError as exc:
                    errors[field] = exc.reason
        if errors:
            return Refused(errors)
        with self._lock:
            return self._write(values)

    def _write(self, values: Mapping[Key, Any]) -> Saved | Refused:
        # Here, not at the top: the daemon reads when_taken above, and runs
        # without tomlkit when it has no web page.
        from .configfile import ConfigWriteError, edit_config

        try:
            old = load_config(self.path) if self.path.exists() else Config()
        except ConfigError as exc:
            return Refused({"": f"the configuration file has an error to fix first: {exc}"})
        changes = {key: value for key, value in values.items() if value_of(old, key) != value}
        if not changes:
            return Saved()
        try:
            new = edit_config(self.path, changes)
        except ConfigError as exc:
            field = name(exc.key) if exc.key in changes else ""
            return Refused({field: exc.reason if field else str(exc)})
        except ConfigWriteError as exc:
            return Refused({"": str(exc)}, status=503)
        return Saved(
            tuple(
                Change(name(key), when_taken(key, old, new, self.abilities).value)
                for key in changes
            ),
            WebAction("settings", config=new),
        )
