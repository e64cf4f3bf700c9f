"""Where a review the board runs in the background stands, as the page is told.

Plain data and nothing else, so that the web page's snapshot can carry it
without importing the engine or the process that runs the review.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ReviewState = Literal["waiting", "running", "done", "failed"]


@dataclass(frozen=True)
class ReviewStatus:
    """One game's review: waiting its turn, running (``done`` of ``total``
    positions looked at, the start and one after each move), done (kept with
    the game), or failed (``note`` says why, in a sentence for the page)."""

    game_id: int
    state: ReviewState
    done: int = 0
    total: int = 0
    note: str = ""
