"""The engine session on its own, without a daemon: the level and a lost engine."""

from __future__ import annotations

from boardctl.daemon.session import ENGINE_RETRIES, LEVEL_SETTING, MAX_LEVEL, EngineSession
from boardctl.engine.interface import WorkerError

from ..daemon_fakes import MemoryStore, ScriptedOpponent, view_of


def test_the_level_is_clamped_told_to_the_engine_and_kept():
    store, engine = MemoryStore(), ScriptedOpponent([])
    session = EngineSession(engine, None, store, MAX_LEVEL - 1, 0.0)
    top = f"Engine level {MAX_LEVEL} of {MAX_LEVEL}, about {engine.rating(MAX_LEVEL, 'falcon')}"
    assert session.change_level(+1, 0.0, "falcon") == top
    assert session.change_level(+1, 0.0, "falcon") == top
    assert session.rating("falcon") == engine.rating(MAX_LEVEL, "falcon")
    # Where the engine has no rating for its level, the notice gives none.
    assert (
        session.change_level(-1, 0.0, "falcon-hex")
        == f"Engine level {MAX_LEVEL - 1} of {MAX_LEVEL}"
    )
    assert session.rating("falcon-hex") is None
    assert engine.skills == [MAX_LEVEL, MAX_LEVEL - 1]
    assert store.settings == {LEVEL_SETTING: str(MAX_LEVEL - 1)}
    again = EngineSession(ScriptedOpponent([]), None, store, 3, 0.0)
    assert again.level == MAX_LEVEL - 1


def test_without_an_engine_the_level_says_what_it_is_for():
    session = EngineSession(None, None, MemoryStore(), 10, 0.0)
    assert session.change_level(+1, 0.0, "falcon") == "The level is for games against the engine"
    assert session.rating("falcon") is None
    assert session.text == "off"


def test_a_lost_engine_is_tried_again_then_left_alone_until_the_position_changes():
    session = EngineSession(ScriptedOpponent([]), None, MemoryStore(), 20, 0.0)
    for attempt in range(ENGINE_RETRIES):
        session.lost(WorkerError("gone"), float(attempt))
        assert session.text == "restarting" and session.due is not None
    session.lost(WorkerError("gone"), 9.0)
    assert session.text == "engine error" and session.due is None
    session.new_position()
    assert session.failures == 0


def test_a_ranked_hint_needs_an_engine_that_ranks_else_it_names_one_move():
    from boardctl.rules import Game

    from ..daemon_fakes import EvaluatingOpponent

    game = Game()
    for adviser, expected in (
        (
            EvaluatingOpponent({}, [("e2e4", 30), ("d2d4", 25)]),
            "Best: e4 \N{EN DASH} e2 to e4; also good: d4",
        ),
        (ScriptedOpponent(["g2g4"]), "Hint: g4 \N{EN DASH} g2 to g4"),
    ):
        session = EngineSession(
            None, lambda a=adviser: a, MemoryStore(), 20, 0.0, ranked_hints=True
        )
        session.request_hint(game)
        session.step(0.0, view_of(game))  # no opponent to ask: the adviser answers
        assert session.hint == expected
        assert session.hint_move is not None
