"""A review kept with its game: through restarts, replaced, dropped with a
takeback, in the PGN, and in a database older than reviews."""

from __future__ import annotations

import io
import sqlite3

import pytest

from boardctl.engine import Engine
from boardctl.review.command import review_command, verdicts
from boardctl.review.grading import Grade
from boardctl.rules import Game
from boardctl.rules.pgn import read_game
from boardctl.storage.command import pgn_command
from boardctl.storage.reviews import Review, ReviewedPosition
from boardctl.storage.store import (
    SCHEMA_VERSION,
    DamagedGameError,
    GameStore,
    StoreConflictError,
)

from ..storage.test_store import old_store, user_version
from .games import LIMITS, MISSES_MATE, QUIET, stored


def review_of(path, game_id=None):
    out = io.StringIO()
    assert review_command(path, game_id, LIMITS, out, engine=Engine(seed=0)) == 0
    return out.getvalue()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


def test_the_review_survives_a_restart_and_is_in_the_pgn(db):
    with GameStore(db) as store:
        game_id = stored(store, *MISSES_MATE, result="0-1")
    review_of(db)
    with GameStore(db) as store:  # a restart: read back from the file
        review = store.load(game_id).review
        text = store.pgn(game_id)
        everything = store.pgn_all()
    assert review is not None and review.depth == 5 and len(review.positions) == 3
    assert [p.nag for p in review.positions] == [None, 4, None]
    movetext = " ".join(text.split("\n\n")[1].split())
    assert movetext.startswith("1. a3 $4 {Better: Re8# (#1)} {[%eval -")
    assert "1... Qxe1+ {[%eval -" in movetext and movetext.endswith("0-1")
    assert text in everything  # /games.pgn carries it too
    tags, game = read_game(text)  # the project's own reader takes it back
    assert tags["Result"] == "0-1" and game.sans() == ["a3", "Qxe1+"]
    # The loss graded is kept, and is what the report works from.
    assert review.positions[1].loss is not None and review.positions[1].loss >= 30
    assert verdicts(game, review)[0].loss == review.positions[1].loss


def test_an_unreviewed_game_exports_without_annotations(db):
    with GameStore(db) as store:
        game_id = stored(store, *QUIET)
        assert store.load(game_id).review is None
        text = store.pgn(game_id)
    assert "$" not in text and "{" not in text and "1. Kd2 Kd7 1-0" in text


def reviewed_by_hand(nag):
    return Review(
        1.0,
        0.5,
        None,
        (
            ReviewedPosition(0, None, "e1e2"),
            ReviewedPosition(20, None, "e8e7", nag),
            ReviewedPosition(-5, None, "a2a3"),
        ),
    )


def test_a_review_done_again_replaces_the_old_one(db):
    with GameStore(db) as store:
        game_id = stored(store, *QUIET)
        store.save_review(game_id, reviewed_by_hand(6))
        store.save_review(game_id, reviewed_by_hand(None))
        assert store.load(game_id).review == reviewed_by_hand(None)
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT count(*) FROM review_positions").fetchone() == (3,)
    assert raw.execute("SELECT count(*) FROM reviews").fetchone() == (1,)
    raw.close()


def test_a_takeback_drops_the_review_and_a_review_of_another_length_is_refused(db):
    with GameStore(db) as store:
        game_id = stored(store, *QUIET, result=None)
        store.save_review(game_id, reviewed_by_hand(2))
        store.remove_last_move(game_id)
        assert store.load(game_id).review is None
        with pytest.raises(StoreConflictError, match="has 1 moves; the review has 2"):
            store.save_review(game_id, reviewed_by_hand(2))


def test_a_review_of_moves_that_were_changed_meanwhile_is_refused(db):
    # The review's process judged e1d2 e8d7; the first move was taken back and
    # replaced before it was done: the same length, other moves.
    with GameStore(db) as store:
        game_id = stored(store, *QUIET, result=None)
        judged = store.load(game_id).moves
        store.remove_last_move(game_id)
        store.remove_last_move(game_id)
        store.add_move(game_id, 1, "e1e2", 1.0)
        store.add_move(game_id, 2, "e8d7", 2.0)
        with pytest.raises(StoreConflictError, match="moves changed while it was reviewed"):
            store.save_review(game_id, reviewed_by_hand(2), moves=judged)
        assert store.load(game_id).review is None
        store.save_review(game_id, reviewed_by_hand(2), moves=("e1e2", "e8d7"))
        assert store.load(game_id).review is not None


def test_a_review_edited_into_nonsense_names_the_game(db):
    with GameStore(db) as store:
        game_id = stored(store, *QUIET)
        store.save_review(game_id, reviewed_by_hand(2))
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM review_positions WHERE ply = 1")
    raw.commit()
    raw.close()
    with (
        GameStore(db) as store,
        pytest.raises(DamagedGameError, match=f"game {game_id}: its review"),
    ):
        store.load(game_id)


def test_an_older_database_is_read_as_it_is_then_migrated_and_reviewed(db):
    game_id = old_store(db, 3)  # 1. e4, unfinished, as version 3 wrote it
    raw = sqlite3.connect(db)
    raw.execute("UPDATE games SET result = '1-0', ended_at = 2.0 WHERE id = ?", (game_id,))
    raw.commit()
    raw.close()
    out = io.StringIO()
    assert pgn_command(db, None, False, out, io.StringIO()) == 0
    assert "1. e4 1-0" in out.getvalue() and user_version(db) == 3  # a reader migrates nothing
    assert "Reviewed game 1: 1 moves" in review_of(db)
    assert user_version(db) == SCHEMA_VERSION == 5
    with GameStore(db) as store:
        assert store.load(game_id).review is not None
        assert "[%eval" in store.pgn(game_id)


def test_a_version_4_review_keeps_its_marks_and_its_losses_are_worked_out(db):
    game_id = old_store(db, 4)  # 1. e4, then a review as version 4 wrote it
    raw = sqlite3.connect(db)
    raw.execute("UPDATE games SET result = '1-0', ended_at = 2.0 WHERE id = ?", (game_id,))
    raw.execute("INSERT INTO reviews VALUES (?, 1.0, 1.0, NULL)", (game_id,))
    raw.executemany(
        "INSERT INTO review_positions VALUES (?, ?, ?, NULL, ?, ?)",
        [(game_id, 0, 30, "d2d4", None), (game_id, 1, 200, "e7e5", 6)],
    )
    raw.commit()
    raw.close()
    with GameStore(db) as store:
        stored_game = store.load(game_id)
    review = stored_game.review
    assert review is not None and [p.loss for p in review.positions] == [None, None]
    game = Game(fen=stored_game.start_fen)
    game.push_text("e2e4")
    (verdict,) = verdicts(game, review)
    # Graded again from the two scores: win% 52.76 with +0.30, 32.38 after -2.00; the
    # mark as version 4 gave it.
    assert verdict.grade is Grade.INACCURACY and verdict.loss == pytest.approx(20.4, abs=0.05)
    assert user_version(db) == SCHEMA_VERSION  # a writer migrated it
