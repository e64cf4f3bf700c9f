"""The grades: lichess's win% curve, and where each band begins."""

from __future__ import annotations

import pytest

from boardctl.review.grading import CP_CEILING, Grade, grade, win_percent


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, None),
        (9.9, None),
        (10.0, Grade.INACCURACY),
        (19.9, Grade.INACCURACY),
        (20.0, Grade.MISTAKE),
        (29.9, Grade.MISTAKE),
        (30.0, Grade.BLUNDER),
        (100.0, Grade.BLUNDER),
    ],
)
def test_each_band_begins_at_its_threshold(loss, expected):
    assert grade(loss) is expected


def test_the_grades_are_the_pgn_standards_nags():
    assert [(g.nag, g.glyph) for g in Grade] == [(6, "?!"), (2, "?"), (4, "??")]
    assert Grade.of_nag(4) is Grade.BLUNDER
    with pytest.raises(ValueError, match=r"\$3"):
        Grade.of_nag(3)


def test_the_curve_is_lichess_s():
    assert win_percent(0, None) == 50
    # 50 + 50 * (2 / (1 + exp(-0.00368208 * 100)) - 1), worked out by hand
    assert win_percent(100, None) == pytest.approx(59.1, abs=0.05)
    assert win_percent(-100, None) == pytest.approx(100 - win_percent(100, None))


def test_scores_past_the_ceiling_and_mates_count_as_the_ceiling():
    top = win_percent(CP_CEILING, None)
    assert top == pytest.approx(97.5, abs=0.05)
    assert win_percent(5000, None) == win_percent(None, 1) == win_percent(None, 30) == top
    assert win_percent(-5000, None) == win_percent(None, -2) == win_percent(None, 0)
    assert win_percent(None, 0) == pytest.approx(100 - top)
