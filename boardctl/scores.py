"""An engine's score in the words a player reads: the screen's and the page's.

The one definition below the packages that show it (ui, web), neither of
which may import the other for it.
"""

from __future__ import annotations


def score_words(score: str) -> str:
    """An engine score from White's point of view (``"+0.35"``, ``"-1.20"``,
    ``"M3"``, ``"M-2"``) in words that say whose side it favours."""
    if not score:
        return ""
    if score.startswith("M"):
        try:
            moves = int(score[1:])
        except ValueError:
            return score
        side = "White" if moves > 0 else "Black"
        return f"{side} mates in {abs(moves)}"
    try:
        pawns = float(score)
    except ValueError:
        return score
    if abs(pawns) < 0.005:
        return "Even"
    side = "White" if pawns > 0 else "Black"
    return f"{side} +{abs(pawns):.2f}"
