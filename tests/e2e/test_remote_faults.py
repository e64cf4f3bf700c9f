"""Remote games through bad networks, sides killed with SIGKILL mid-game:
bench/remote_faults.py, bounded to one short game of each form.

Real processes on loopback: the boards are tests/remote/side_child.py (the
daemon on a simulated board, its web server and link).  Two boards meet at a
real mosquitto, each through a TCP fault proxy, with a forger on the broker;
a browser's player speaks the page's HTTP from this process through an HTTP
fault proxy.  Nothing may be lost, doubled or forged, and both sides must
hold one game.  No assertion depends on timing: every wait is bounded, and
the counts hold wherever the faults and kills land.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from ..pathimport import import_file
from ..remote.broker import need_mosquitto

BENCH = Path(__file__).resolve().parents[2] / "bench" / "remote_faults.py"
PLIES = 16
KILLS = 2

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def bench():  # type: ignore[no-untyped-def]
    return import_file(BENCH, "remote_faults")


@pytest.mark.parametrize("form", ["boards", "browser"])
def test_a_game_through_a_bad_network_with_kills_loses_and_doubles_nothing(form: str):
    if form == "boards":
        need_mosquitto()
    module = bench()
    (result,) = module.run([form], games=1, plies=PLIES, kills=KILLS, seed=7)
    module.report([result])
    assert result.finished, result.notes
    assert sum(result.faults.values()) > 0  # the network really was bad
    assert result.kills + result.reloads + result.broker_kills >= 1
    assert (result.lost, result.doubled, result.same) == (0, 0, True), result.notes
    assert result.forged == 0, result.notes
    if form == "boards":
        assert result.kills >= 1  # a board, not only the broker, was killed
        assert result.forgeries > 0  # the stranger on the broker really forged
