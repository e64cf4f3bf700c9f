"""What the settings page needs of the configuration file, as the server sees it.

The page knows no configuration (``boardctl.web`` imports neither the daemon
nor the drivers that the configuration names): the board hands the server a
:class:`SettingsService` that reads the form's values from the file, checks a
filled-in form with the configuration's own rules and writes it back
(:class:`boardctl.settings.SettingsFile`).  Its methods read and write files,
so the server calls them off its event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .snapshot import WebAction


@dataclass(frozen=True)
class Change:
    """One saved field and when the board takes it: ``when`` is ``"now"``,
    ``"next game"`` or ``"restart"``."""

    field: str
    when: str


@dataclass(frozen=True)
class Saved:
    """The form was saved: what changed, and the action that tells the daemon
    (None when nothing changed)."""

    changes: tuple[Change, ...] = ()
    action: WebAction | None = None


@dataclass(frozen=True)
class Refused:
    """The form was not saved.  ``errors`` maps a field to what is wrong with
    it ("" for the form as a whole); ``status`` is the HTTP status: 400 for a
    wrong value, 503 when the file cannot be read or written."""

    errors: dict[str, str] = field(default_factory=dict)
    status: int = 400


class SettingsService(Protocol):
    def form(self) -> dict[str, Any]:
        """The form's current values, choices and ranges (the page's JSON);
        a file that cannot be read is said in it, under ``problem``."""

    def save(self, form: Mapping[str, Any]) -> Saved | Refused:
        """Check ``form`` (field → value, as the page sends it) and write what
        changed to the file."""
