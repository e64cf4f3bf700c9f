"""The time a GUI's clock charges beyond the search, learnt from the clock."""

from __future__ import annotations

import pytest

from boardctl.engine import Limits
from boardctl.engine.lag import LAG_DECAY, LAG_MAX_SHARE, ClockLag
from boardctl.engine.params import ANSWER_RESERVE
from boardctl.engine.search import Engine
from boardctl.rules import Position


def test_the_reserve_is_what_the_clock_charged_beyond_the_search():
    lag = ClockLag()
    assert lag.before(0, 10.0, 0.1, now=0.0) == ANSWER_RESERVE  # nothing learnt yet
    lag.after(0.2)
    # The GUI charged 0.6 s for a search of 0.2 s (and added 0.1 s after it).
    assert lag.before(0, 9.5, 0.1, now=5.0) == pytest.approx(0.4)
    lag.after(5.1)
    # Charged no more than the search: the reserve comes down, not at once.
    assert lag.before(0, 9.5, 0.1, now=8.0) == pytest.approx(0.4 * LAG_DECAY)


def test_the_other_side_a_new_game_and_a_jump_in_the_clock_teach_nothing():
    lag = ClockLag()
    lag.before(0, 10.0, 0.0, now=0.0)
    lag.after(0.1)
    assert lag.before(1, 5.0, 0.0, now=1.0) == ANSWER_RESERVE  # Black's clock
    lag.after(1.1)
    lag.before(1, 4.0, 0.0, now=2.0)  # Black's search of 0.1 s was charged 1 s
    assert lag.reserve == pytest.approx(5.0 * LAG_MAX_SHARE)  # at most a share of the clock
    lag.forget()
    assert lag.reserve == ANSWER_RESERVE


def test_a_slow_answer_leaves_less_time_for_the_next_move():
    engine = Engine(vary=False)
    pos = Position()
    engine.search(pos, Limits(depth=1))  # the table and the core built

    def budget(clock: float) -> float:
        engine.start = 0.0
        hard, _soft = engine._budget(pos, Limits(wtime=clock, btime=clock, winc=0.1))
        engine._lag.after(0.1)
        return hard

    first = budget(10.0)
    assert budget(10.0) == first  # charged 0.1 s for 0.1 s: no lag
    # Charged 0.9 s for 0.1 s: every move to come keeps 0.8 s back.
    assert budget(10.0 + 0.1 - 0.9) < first / 2
